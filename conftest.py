"""Root conftest, so the notebook plugin also applies to notebooks/ (nbval items)."""

pytest_plugins = ["tests.notebook_plugin"]

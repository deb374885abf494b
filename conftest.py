"""Root conftest, so the notebook plugin also applies to notebooks/ (nbval items).

``GATHERLAB_DEBUG=1`` makes gatherlab re-raise its own errors instead of reporting them
in words, so a bug in a checker or a diagnosis fails a test (the notebooks' kernels
inherit it).
"""

import os

os.environ["GATHERLAB_DEBUG"] = "1"

pytest_plugins = ["tests.notebook_plugin"]

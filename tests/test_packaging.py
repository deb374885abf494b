"""pyproject.toml declares every third-party module that gatherlab imports."""

from __future__ import annotations

import ast
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
# Loaded only where installed (by gatherlab.tf, before TensorFlow): never required.
OPTIONAL = {"triton"}


def _imported_top_level_modules() -> set[str]:
    names = set()
    for path in (ROOT / "gatherlab").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return names - set(sys.stdlib_module_names) - {"__future__", "gatherlab"}


def test_every_import_of_the_package_is_a_declared_dependency():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = {canonicalize_name(Requirement(d).name) for d in project["dependencies"]}
    distributions = packages_distributions()
    modules = _imported_top_level_modules() - OPTIONAL
    assert {"matplotlib", "numpy", "torch", "tensorflow", "IPython"} <= modules
    for module in sorted(modules):
        providers = {canonicalize_name(d) for d in distributions.get(module, [])}
        assert providers, f"{module} is imported but not installed"
        assert providers & declared, f"{module} ({sorted(providers)}) is not declared"

"""The package as installed: its declared imports, its wheel, the learner's set."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import tomllib
import zipfile
from importlib.metadata import (
    PackageNotFoundError,
    distribution,
    packages_distributions,
)
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


PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _names(requirements) -> set[str]:
    return {canonicalize_name(Requirement(r).name) for r in requirements}


def test_every_import_of_the_package_is_a_declared_dependency():
    optional = PROJECT["optional-dependencies"]
    declared = _names(PROJECT["dependencies"]) | _names(optional["tensorflow"])
    distributions = packages_distributions()
    modules = _imported_top_level_modules() - OPTIONAL
    assert {"matplotlib", "numpy", "torch", "tensorflow", "IPython"} <= modules
    for module in sorted(modules):
        providers = {canonicalize_name(d) for d in distributions.get(module, [])}
        assert providers, f"{module} is imported but not installed"
        # tensorflow-cpu provides the module too; the extra names `tensorflow` itself.
        named = canonicalize_name(module) in declared
        assert providers & declared or named, f"{module} ({sorted(providers)})"


def test_dependencies_are_ranges_and_tensorflow_is_only_an_extra():
    for text in PROJECT["dependencies"]:
        requirement = Requirement(text)
        assert not requirement.name.startswith("tensorflow"), text
        assert all(spec.operator == ">=" for spec in requirement.specifier), text
    assert _names(PROJECT["optional-dependencies"]["tensorflow"]) == {"tensorflow"}


def _source_files() -> set[str]:
    package = ROOT / "gatherlab"
    return {
        path.relative_to(ROOT).as_posix()
        for path in package.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }


def test_the_wheel_holds_every_file_of_the_package(tmp_path):
    """A plain `pip install .` gets the wheel: every module and every data file the
    package reads (atlas.json, the explorers' .mjs and .css, the exercises' .json)."""
    source = tmp_path / "source"
    source.mkdir()
    shutil.copy(ROOT / "pyproject.toml", source)
    shutil.copytree(
        ROOT / "gatherlab",
        source / "gatherlab",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps"]
        + ["--no-build-isolation", "--wheel-dir", str(tmp_path / "dist"), str(source)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (wheel,) = (tmp_path / "dist").glob("gatherlab-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        held = set(archive.namelist())
        metadata = next(n for n in held if n.endswith(".dist-info/METADATA"))
        requires = [
            line.split(": ", 1)[1]
            for line in archive.read(metadata).decode().splitlines()
            if line.startswith("Requires-Dist: ")
        ]
    expected = _source_files()
    assert {"gatherlab/atlas.json", "gatherlab/browser/explorers/core.mjs"} <= expected
    assert expected - held == set()
    for text in requires:
        requirement = Requirement(text)
        if requirement.name.startswith("tensorflow"):
            assert 'extra == "tensorflow"' in str(requirement.marker), text


def _lines(name: str) -> list[str]:
    lines = (ROOT / name).read_text().splitlines()
    return [line for line in lines if line and not line.startswith(("#", "-e"))]


AUTHORS_ONLY = {
    "tensorflow",
    "tensorflow-cpu",
    "keras",
    "jupyter-book",
    "sphinx",
    "pytest",
    "nbval",
    "ruff",
    "mypy",
    "playwright",
    "hypothesis",
}


def test_the_learners_set_is_the_books_pins_without_the_authors_toolchain():
    learner = _lines("requirements-learner.txt")
    assert set(learner) <= set(_lines("requirements.txt"))
    names = _names(learner)
    assert names & AUTHORS_ONLY == set()
    wanted = _names(PROJECT["dependencies"]) | {"jupyterlab", "ipykernel"}
    assert wanted <= names
    # Closed: every requirement of every listed distribution (on this system) is listed.
    for name in sorted(names):
        try:
            requires = distribution(name).requires or []
        except PackageNotFoundError:  # another system's (pywinpty, appnope, colorama)
            continue
        for text in requires:
            requirement = Requirement(text)
            if any(spec.operator == "==" for spec in requirement.specifier):
                continue  # pinned by its own distribution: torch's CUDA libraries
            if name == "torch" and requirement.name.startswith(("nvidia-", "cuda-")):
                continue  # PyPI's CUDA build of torch brings its own (cuda-bindings)
            marker = requirement.marker
            if marker is None or marker.evaluate({"extra": ""}):
                assert canonicalize_name(requirement.name) in names, (name, text)

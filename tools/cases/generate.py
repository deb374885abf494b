"""The case files the browser code is checked against, made from the package.

``python -m tools.cases.generate`` (``make cases``, run by ``make test`` and ``make
test-browser`` before their suites) writes each file of :data:`CASE_FILES` into
``tests/js/generated/`` (git-ignored), where the Node suites (``node --test
tests/js/``) and the Python tests read them. A file is made again only when the hash of
what it is made from changed: every file of the package (``gatherlab/``, whose rule
tables are ``.mjs`` files), of ``tools/cases/``, the test modules the generators draw
calls from, the real mistakes, and the Python, torch, TensorFlow and numpy that compute
the answers. The hash sits beside the file (``NAME.sha256``); ``--force`` makes every
file again. ``tests/test_case_files.py`` fails when a generator reads a module of the
repository the hash leaves out.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib
import io
import sys
import time
import warnings
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GENERATED = ROOT / "tests" / "js" / "generated"
# Each generator module's file in GENERATED; the module's write(path) makes it and
# returns a summary. A current file costs no import (evaluator_cases imports TF).
CASE_FILES = {
    "tools.cases.page_cases": "page_exercise_cases.json.gz",
    "tools.cases.evaluator_cases": "evaluator_cases.json.gz",
    "tools.cases.agreement_cases": "agreement_cases.json.gz",
    "tools.cases.scatter_agreement": "scatter_cases.json.gz",
}
SOURCE_TREES = ("gatherlab", "tools/cases")
SOURCE_FILES = (
    "tests/__init__.py",
    "tests/gather_cases.py",
    "tests/scatter_cases.py",
    "tests/data/real_mistakes.json",
)
PACKAGES = ("torch", "tensorflow", "numpy")


def sources(root: Path = ROOT) -> list[Path]:
    """The files the case files are made from, sorted."""
    found = [root / name for name in SOURCE_FILES]
    for tree in SOURCE_TREES:
        found += [
            path
            for path in (root / tree).rglob("*")
            if path.is_file()
            and "__pycache__" not in path.parts
            and path.suffix not in (".pyc", ".pyo")
        ]
    return sorted(found)


def digest(root: Path = ROOT) -> str:
    """The hash of :func:`sources` (names and bytes) and of the computing packages."""
    sha = hashlib.sha256()
    for path in sources(root):
        sha.update(path.relative_to(root).as_posix().encode() + b"\0")
        sha.update(path.read_bytes() + b"\0")
    for name in PACKAGES:
        try:
            sha.update(f"{name}=={version(name)}\0".encode())
        except PackageNotFoundError:
            sha.update(f"{name} absent\0".encode())
    sha.update(sys.version.encode())
    return sha.hexdigest()


def fresh(module_name: str, *, force: bool = False, key: str | None = None) -> Path:
    """The module's case file, made again when its stored hash is not ``key`` (this
    tree's :func:`digest`)."""
    path = GENERATED / CASE_FILES[module_name]
    stamp = path.with_name(path.name + ".sha256")
    key = key or digest()
    if not force and path.exists() and stamp.exists() and stamp.read_text() == key:
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    started = time.process_time()
    module = importlib.import_module(module_name)
    partial = path.with_name(path.name + ".partial")
    # what the exercises' solutions print, and torch's warnings on their calls
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        summary = module.write(partial)
    partial.replace(path)
    stamp.write_text(key)
    seconds = time.process_time() - started
    print(
        f"{path.name}: {summary}, {path.stat().st_size} bytes ({seconds:.1f} s of CPU)",
        file=sys.stderr,
    )
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--force", action="store_true", help="make every file again")
    args = parser.parse_args(argv)
    key = digest()
    for module_name in CASE_FILES:
        fresh(module_name, force=args.force, key=key)
    return 0


if __name__ == "__main__":
    sys.exit(main())

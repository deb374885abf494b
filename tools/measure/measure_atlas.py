"""Measure the behaviour atlas, gatherlab/atlas.json, for the installed libraries and
for other torch releases, each in a throw-away virtual environment outside the repo.

    .venv/bin/python tools/measure/measure_atlas.py          # installed + RELEASES
    .venv/bin/python tools/measure/measure_atlas.py --installed-only
    .venv/bin/python tools/measure/measure_atlas.py --torch 2.8.0 2.15.0 --discard

The installed torch, NumPy and TensorFlow are measured in this interpreter's
environment (``--torch`` alone measures only the releases it names). Each other torch
release gets ``VENV_ROOT/torch-X.Y.Z`` (created once, reused later, removed after its
column is stored with ``--discard``): ``pip install torch==X.Y.Z numpy`` there, with
pip's cache off, then this file runs in that environment with ``--worker torch`` and
prints the column as JSON. PyPI's Linux torch wheels are CUDA builds of several GB;
releases are installed one after another.

A column is measured whole and replaces the stored one only when every outcome the
stored column has is unchanged and its version (build tag included) is the same: the
new measurement may add ops, never silently change what was stored. Changed outcomes
are printed and the column is left as it was, unless ``--accept-changes``.

This machine's pip configuration caps torch with a constraint file; the throw-away
install runs with ``PIP_CONSTRAINT=/dev/null`` in that one command's environment (an
empty value does not override the configured file), and the configuration is left as
it is.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RELEASES = ("2.7.1", "2.8.0", "2.9.1", "2.10.0", "2.11.0", "2.12.1", "2.15.0")
VENV_ROOT = Path("/tmp/gatherlab-releases")


def _import_atlas():
    """gatherlab.atlas without gatherlab/__init__.py (which needs the whole book's
    dependencies): a bare package object pointing at the source folder."""
    if "gatherlab" not in sys.modules:
        package = types.ModuleType("gatherlab")
        package.__path__ = [str(ROOT / "gatherlab")]
        sys.modules["gatherlab"] = package
    import gatherlab.atlas

    return gatherlab.atlas


def worker(library: str) -> None:
    """Print this environment's column for ``library`` as one JSON object."""
    atlas = _import_atlas()
    start = time.perf_counter()
    outcomes = atlas.measure(library)
    record = atlas.provenance(library)
    record["measured_in_s"] = round(time.perf_counter() - start, 1)
    column = {"key": atlas.column_key(library), "provenance": record}
    print(json.dumps({**column, "outcomes": outcomes}))


def _venv_for(release: str, python: str, numpy: str) -> Path:
    venv = VENV_ROOT / f"torch-{release}"
    marker = venv / ".installed"
    if marker.exists():
        return venv
    if not (venv / "bin" / "python").exists():
        subprocess.run([python, "-m", "venv", str(venv)], check=True)
    env = {**os.environ, "PIP_CONSTRAINT": os.devnull, "PIP_NO_CACHE_DIR": "1"}
    start = time.perf_counter()
    subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet"]
        + [f"torch=={release}", f"numpy=={numpy}"],
        check=True,
        env=env,
    )
    print(f"installed torch {release} in {time.perf_counter() - start:.0f} s")
    marker.write_text(release)
    return venv


def _run_worker(python: str, library: str) -> dict:
    result = subprocess.run(
        [python, str(Path(__file__).resolve()), "--worker", library],
        check=True,
        capture_output=True,
        text=True,
        cwd="/tmp",  # never import the repository's gatherlab by accident
    )
    return json.loads(result.stdout.strip().splitlines()[-1])


def _changed_cells(stored: dict, column: dict) -> list[str]:
    """What the new measurement would change in the stored column: its version, and
    every stored outcome (an outcome the new measurement lacks reads "now None")."""
    old, new = stored["provenance"]["version"], column["provenance"]["version"]
    problems = [] if old == new else [f"version: stored {old}, now {new}"]
    for op, modes in stored["outcomes"].items():
        for mode, cases in modes.items():
            for case, outcome in cases.items():
                now = column["outcomes"].get(op, {}).get(mode, {}).get(case)
                if now != outcome:
                    where = f"{op} [{mode}] {case}"
                    problems.append(f"{where}: stored {outcome}, now {now}")
    return problems


def _store(atlas: dict, key: str, column: dict, accept_changes: bool) -> bool:
    """Put the column in the atlas unless it changes a stored outcome (printed)."""
    stored = atlas["columns"].get(key)
    added = len(column["outcomes"]) - len(stored["outcomes"] if stored else {})
    problems = _changed_cells(stored, column) if stored else []
    for problem in problems:
        print(f"{key} changed: {problem}")
    if problems and not accept_changes:
        print(f"{key}: {len(problems)} stored outcomes differ; column left as it was")
        return False
    atlas["columns"][key] = column
    seconds = column["provenance"]["measured_in_s"]
    version = column["provenance"]["version"]
    print(f"{key}: {version}, measured in {seconds} s, {added} ops added")
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--torch", nargs="*")
    parser.add_argument("--installed-only", action="store_true")
    parser.add_argument("--python", default="python3.11")
    parser.add_argument(
        "--discard", action="store_true", help="remove each venv once stored"
    )
    parser.add_argument("--accept-changes", action="store_true")
    args = parser.parse_args()
    if args.worker:
        worker(args.worker)
        return
    atlas_module = _import_atlas()
    import numpy

    path = atlas_module.ATLAS_PATH
    atlas = atlas_module.load(path) if path.exists() else {"columns": {}}
    failed = []

    def measure(python: str, library: str) -> bool:
        column = _run_worker(python, library)
        key = column.pop("key")
        if not _store(atlas, key, column, args.accept_changes):
            failed.append(key)
            return False
        atlas_module.save(atlas, path)
        return True

    if args.installed_only or args.torch is None:
        for library in atlas_module.LIBRARIES:
            measure(sys.executable, library)
    if not args.installed_only:
        for release in RELEASES if args.torch is None else args.torch:
            venv = _venv_for(release, args.python, numpy.__version__)
            # a changed column's venv is kept, to look into the change
            if measure(str(venv / "bin" / "python"), "torch") and args.discard:
                shutil.rmtree(venv)
                print(f"removed {venv}")
    if failed:
        sys.exit(f"stored outcomes changed in {', '.join(failed)}")


if __name__ == "__main__":
    main()

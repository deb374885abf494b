"""Measure the behaviour atlas, gatherlab/atlas.json, for the installed libraries and
for other torch releases, each in a throw-away virtual environment outside the repo.

    .venv/bin/python tools/measure_atlas.py                  # installed + RELEASES
    .venv/bin/python tools/measure_atlas.py --installed-only
    .venv/bin/python tools/measure_atlas.py --torch 2.8.0 2.15.0

The installed torch, NumPy and TensorFlow are measured in this interpreter's
environment. Each other torch release gets ``VENV_ROOT/torch-X.Y.Z`` (created once,
reused later): ``pip install torch==X.Y.Z numpy`` there, then this file runs in that
environment with ``--worker torch`` and prints the column as JSON. PyPI's Linux torch
wheels are CUDA builds of several GB; releases are installed one after another.

This machine's pip configuration caps torch with a constraint file; the throw-away
install runs with ``PIP_CONSTRAINT=/dev/null`` in that one command's environment (an
empty value does not override the configured file), and the configuration is left as
it is.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
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
    env = {**os.environ, "PIP_CONSTRAINT": os.devnull}
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--torch", nargs="*", default=list(RELEASES))
    parser.add_argument("--installed-only", action="store_true")
    parser.add_argument("--python", default="python3.11")
    args = parser.parse_args()
    if args.worker:
        worker(args.worker)
        return
    atlas_module = _import_atlas()
    import numpy

    path = atlas_module.ATLAS_PATH
    atlas = atlas_module.load(path) if path.exists() else {"columns": {}}
    columns = [(sys.executable, library) for library in atlas_module.LIBRARIES]
    if not args.installed_only:
        for release in args.torch:
            venv = _venv_for(release, args.python, numpy.__version__)
            columns.append((str(venv / "bin" / "python"), "torch"))
    for python, library in columns:
        column = _run_worker(python, library)
        key = column.pop("key")
        atlas["columns"][key] = column
        seconds = column["provenance"]["measured_in_s"]
        print(f"{key}: {column['provenance']['version']}, measured in {seconds} s")
        atlas_module.save(atlas, path)


if __name__ == "__main__":
    main()

"""Every chapter top to bottom in a bare environment, as a hosted notebook has one.

``make test-bare`` (and ``.ci/run``): a throw-away virtual environment gets torch,
numpy, matplotlib, ipykernel and nbclient at requirements.txt's pins, and no TensorFlow
and no gatherlab. Chapter 1's own first cell then installs the package from this clone
(``%pip install ..``, a plain non-editable install) and imports it in the same kernel,
no restart; after that every chapter runs top to bottom in a fresh kernel, its outputs
kept in memory (the stored chapters are never written). It checks that

- no cell fails but those tagged ``raises-exception``;
- every ``%%tensorflow`` cell prints only its skip message, every ``%%gpu`` cell (no
  CUDA here) only its own, and no kernel ever imports TensorFlow;
- the cells marked ``# Slow`` are not run, and nothing after them needs them;
- gatherlab ran from the environment's site-packages, not from the clone.

It prints each chapter's run time and its kernel's memory (resident set) at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BARE_PACKAGES = ("torch", "numpy", "matplotlib", "ipykernel", "nbclient", "nbformat")
# psutil reads each kernel's memory (gatherlab does not need it).
MEASURE_PACKAGES = ("psutil",)


def pins(names: tuple[str, ...]) -> list[str]:
    """requirements.txt's line for each name (with its marker)."""
    lines = (ROOT / "requirements.txt").read_text().splitlines()
    found = []
    for name in names:
        pattern = re.compile(rf"^{re.escape(name)}==", re.IGNORECASE)
        found += [line for line in lines if pattern.match(line)]
    assert len(found) == len(names), (names, found)
    return found


# Runs inside the bare environment: executes the chapters and reports in JSON.
RUNNER = r"""
import json, sys, time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

GPU_SKIP = "Skipped: this cell needs a CUDA device"
TF_SKIP = "Skipped: this cell needs TensorFlow"
PROBE = (
    "import sys, psutil, gatherlab\n"
    "print(psutil.Process().memory_info().rss, 'tensorflow' in sys.modules,"
    " gatherlab.__file__)"
)
report = []
for path in map(Path, sys.argv[1:]):
    notebook = nbformat.read(path, as_version=4)
    slow = [c for c in notebook.cells if c.source.startswith("# Slow")]
    notebook.cells = [c for c in notebook.cells if c not in slow]
    notebook.cells.append(nbformat.v4.new_code_cell(PROBE))
    client = NotebookClient(
        notebook, timeout=600, kernel_name="python3", coalesce_streams=True,
        resources={"metadata": {"path": str(path.parent)}},
    )
    started = time.perf_counter()
    client.execute()  # raises at the first failing cell not tagged raises-exception
    seconds = time.perf_counter() - started
    rss, tensorflow, module = notebook.cells[-1].outputs[0]["text"].split()
    problems = []
    counts = {"tensorflow": 0, "gpu": 0}
    for cell in notebook.cells[:-1]:
        tags = cell.metadata.get("tags", [])
        text = "".join(o.get("text", "") for o in cell.get("outputs", []))
        for tag, message in (("tensorflow", TF_SKIP), ("gpu", GPU_SKIP)):
            if tag in tags:
                counts[tag] += 1
                shown = [(o.output_type, o.get("name")) for o in cell.outputs]
                lines = text.splitlines()
                if shown != [("stream", "stdout")] or len(lines) != 1:
                    problems.append(f"{cell.id}: {tag} cell showed {cell.outputs}")
                elif not lines[0].startswith(message):
                    problems.append(f"{cell.id}: {tag} cell printed {text!r}")
    report.append({
        "chapter": path.stem, "seconds": round(seconds, 1),
        "rss_mib": round(int(rss) / 2**20), "tensorflow_imported": tensorflow == "True",
        "gatherlab": module, "skipped": counts, "slow_cells_left_out": len(slow),
        "problems": problems,
    })
print(json.dumps(report))
"""


def make_environment(where: Path) -> Path:
    """A fresh venv with the bare set; returns its python."""
    venv.create(where, with_pip=True, clear=True)
    python = where / "bin" / "python"
    started = time.perf_counter()
    subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
        + pins(BARE_PACKAGES + MEASURE_PACKAGES),
        check=True,
    )
    print(f"bare environment made in {time.perf_counter() - started:.0f} s")
    return python


def run(python: Path, chapters: list[Path]) -> int:
    env = dict(os.environ)
    for name in ("PYTHONPATH", "VIRTUAL_ENV"):
        env.pop(name, None)
    env["PATH"] = f"{python.parent}{os.pathsep}{env.get('PATH', '')}"
    absent = subprocess.run(
        [python, "-c", "import gatherlab"],
        env=env,
        cwd=tempfile.gettempdir(),
        capture_output=True,
    )
    assert absent.returncode != 0, "gatherlab must not be installed before chapter 1"
    result = subprocess.run(
        [python, "-c", RUNNER, *map(str, chapters)],
        env=env,
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        print(result.stdout[-6000:], result.stderr[-6000:], sep="\n")
        print(f"0 passed, {len(chapters)} failed")
        return 1
    report = json.loads(result.stdout.splitlines()[-1])
    failed = 0
    print(f"{'chapter':24} {'seconds':>7} {'RSS MiB':>7}  skipped (tf, gpu)")
    for row in report:
        if row["tensorflow_imported"]:
            row["problems"].append("the kernel imported TensorFlow")
        if "site-packages" not in row["gatherlab"]:
            row["problems"].append(f"gatherlab came from {row['gatherlab']}")
        skipped = row["skipped"]
        print(
            f"{row['chapter']:24} {row['seconds']:7.1f} {row['rss_mib']:7d}"
            f"  {skipped['tensorflow']}, {skipped['gpu']}"
            f" (slow cells left out: {row['slow_cells_left_out']})"
        )
        for problem in row["problems"]:
            print("   FAILED:", problem)
        failed += bool(row["problems"])
    print(f"{len(report) - failed} passed, {failed} failed")
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--venv", type=Path, help="where to make it (default: a temporary folder)"
    )
    parser.add_argument("chapters", nargs="*", type=Path)
    args = parser.parse_args()
    chapters = args.chapters or sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    chapters = [path.resolve() for path in chapters]
    assert chapters[0].name.startswith("01_"), "chapter 1 installs the package"
    where = args.venv or Path(tempfile.mkdtemp(prefix="gatherlab-bare-"))
    try:
        return run(make_environment(where), chapters)
    finally:
        if args.venv is None:
            shutil.rmtree(where, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

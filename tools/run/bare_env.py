"""Every chapter alone, top to bottom, in a bare environment, as a learner opens it.

``make test-bare`` (and ``.ci/run``): a throw-away virtual environment gets torch,
numpy, matplotlib, ipykernel and nbclient at requirements.txt's pins, and no TensorFlow
and no gatherlab. Then

- chapter 1 runs where it is stored, in the clone: its first cell installs the clone's
  package (a plain non-editable ``pip install``) and imports it in the same kernel;
- gatherlab is uninstalled, and each chapter in turn is copied alone into an empty
  folder (as the site's download button or Colab gives it to a learner) and run top to
  bottom there, gatherlab uninstalled before each: its first cell installs the package
  from the repository that ``_config.yml`` names, at its branch
  (``tools/author/repository.py``). CI reaches no outside host, so git serves that
  address from a snapshot of this working tree (``url.<base>.insteadOf`` in a private
  ``GIT_CONFIG_GLOBAL``).

Every chapter runs in a fresh kernel, its outputs kept in memory (the stored chapters
are never written). It checks that

- no cell fails but those tagged ``raises-exception``;
- the first cell printed one line naming where it installed gatherlab from, and
  gatherlab ran from the environment's site-packages, not from the clone;
- every ``%%tensorflow`` cell prints only its skip message, every ``%%gpu`` cell (no
  CUDA here) only its own, and no kernel ever imports TensorFlow;
- the cells marked ``# Slow`` are not run, and nothing after them needs them;
- torch, numpy and matplotlib are the versions installed before (the install keeps
  them).

It prints each chapter's run time and its kernel's memory (resident set) at the end;
``--venv`` keeps the environment, and any interpreter can make it (``python3.13
tools/run/bare_env.py`` measures PyPI's torch for Python 3.13).
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
from pathlib import Path

from tools.author.repository import Repository, repository

ROOT = Path(__file__).resolve().parents[2]
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


# Runs inside the bare environment: executes the chapters and reports in JSON. Its one
# argument is a JSON list of runs: {"path": the chapter, "source": where its first cell
# must install gatherlab from}.
RUNNER = r"""
import json, subprocess, sys, time
from importlib.metadata import version
from pathlib import Path

import nbformat
from nbclient import NotebookClient

GPU_SKIP = "Skipped: this cell needs a CUDA device"
TF_SKIP = "Skipped: this cell needs TensorFlow"
KEPT = ("torch", "numpy", "matplotlib")
PROBE = (
    "import sys, psutil, gatherlab\n"
    "print(psutil.Process().memory_info().rss, 'tensorflow' in sys.modules,"
    " gatherlab.__file__)"
)
before = {name: version(name) for name in KEPT}
report = []
for run in json.loads(sys.argv[1]):
    path = Path(run["path"])
    subprocess.run(
        [sys.executable, "-m", "pip", "uninstall", "--yes", "--quiet", "gatherlab"],
        capture_output=True,
    )
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
    first = next(c for c in notebook.cells if c.cell_type == "code")
    said = [(o.output_type, o.get("text", "")) for o in first.outputs]
    if said != [("stream", f"Installed gatherlab from {run['source']}.\n")]:
        problems.append(f"the first cell showed {said}")
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
        "chapter": path.stem, "where": run["where"], "seconds": round(seconds, 1),
        "rss_mib": round(int(rss) / 2**20), "tensorflow_imported": tensorflow == "True",
        "gatherlab": module, "skipped": counts, "slow_cells_left_out": len(slow),
        "problems": problems,
    })
after = {name: version(name) for name in KEPT}
print(json.dumps({"report": report, "kept": [before, after]}))
"""


def clean_environment() -> dict[str, str]:
    """This process's environment without what would show it a clone or a venv."""
    env = dict(os.environ)
    for name in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME"):
        env.pop(name, None)
    return env


def make_environment(where: Path, python: str) -> Path:
    """A fresh venv made by ``python`` with the bare set; returns its python."""
    env = clean_environment()
    subprocess.run([python, "-m", "venv", "--clear", str(where)], check=True, env=env)
    bare = where / "bin" / "python"
    started = time.perf_counter()
    subprocess.run(
        [bare, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
        + pins(BARE_PACKAGES + MEASURE_PACKAGES),
        check=True,
        env=env,
    )
    print(f"bare environment made in {time.perf_counter() - started:.0f} s")
    return bare


def serve(repo: Repository, where: Path) -> dict[str, str]:
    """Git settings under which ``repo``'s address (and branch) is a snapshot of this
    working tree, committed in ``where``: as the repository will be once pushed."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    served = where / "repository"
    for name in filter(None, listed.split("\0")):
        if (ROOT / name).is_file():
            (served / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, served / name)
    git = ["git", "-C", str(served), "-c", "user.name=bare", "-c", "user.email=bare@"]
    subprocess.run(
        [*git, "init", "--quiet", "--initial-branch", repo.branch], check=True
    )
    subprocess.run([*git, "add", "--all"], check=True)
    subprocess.run([*git, "commit", "--quiet", "-m", "the working tree"], check=True)
    config = where / "gitconfig"
    config.write_text(
        f'[url "{served.as_uri()}"]\n\tinsteadOf = {repo.url}\n'
        '[protocol "file"]\n\tallow = always\n'
    )
    return {"GIT_CONFIG_GLOBAL": str(config), "GIT_CONFIG_NOSYSTEM": "1"}


def lay_out(chapters: list[Path], where: Path) -> tuple[list[dict], dict[str, str]]:
    """The runs (chapter 1 in the clone, then each chapter alone in an empty folder)
    and the git settings that serve the repository; laid out before the environment
    is made, so a later change to the working tree cannot reach the runs."""
    repo = repository()
    git = serve(repo, where)
    runs = []
    if chapters[0].name.startswith("01_"):  # in the clone, where it is stored
        runs.append({"path": str(chapters[0]), "source": str(ROOT), "where": "clone"})
    for chapter in chapters:  # alone, each in an empty folder of its own
        folder = where / "alone" / chapter.stem
        folder.mkdir(parents=True)
        shutil.copy(chapter, folder)
        source = f"git+{repo.url}@{repo.branch}"
        runs.append({"path": str(folder / chapter.name), "source": source, "where": ""})
    return runs, git


def run(python: Path, runs: list[dict], git: dict[str, str], where: Path) -> int:
    env = clean_environment()
    env["PATH"] = f"{python.parent}{os.pathsep}{env.get('PATH', '')}"
    env.update(git)
    result = subprocess.run(
        [python, "-c", RUNNER, json.dumps(runs)],
        env=env,
        cwd=where,
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        print(result.stdout[-6000:], result.stderr[-6000:], sep="\n")
        print(f"0 passed, {len(runs)} failed")
        return 1
    ran = json.loads(result.stdout.splitlines()[-1])
    report = ran["report"]
    failed = 0
    print(f"{'chapter':30} {'seconds':>7} {'RSS MiB':>7}  skipped (tf, gpu)")
    for row in report:
        if row["tensorflow_imported"]:
            row["problems"].append("the kernel imported TensorFlow")
        if "site-packages" not in row["gatherlab"]:
            row["problems"].append(f"gatherlab came from {row['gatherlab']}")
        skipped = row["skipped"]
        name = row["chapter"] + (" (in the clone)" if row["where"] else "")
        print(
            f"{name:30} {row['seconds']:7.1f} {row['rss_mib']:7d}"
            f"  {skipped['tensorflow']}, {skipped['gpu']}"
            f" (slow cells left out: {row['slow_cells_left_out']})"
        )
        for problem in row["problems"]:
            print("   FAILED:", problem)
        failed += bool(row["problems"])
    before, after = ran["kept"]
    print(f"installed before the chapters ran: {before}")
    if before != after:
        print(f"   FAILED: after the chapters ran: {after}")
        failed += 1
    print(f"{len(report) + 1 - failed} passed, {failed} failed")
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--venv", type=Path, help="where to make it (default: a temporary folder)"
    )
    parser.add_argument(
        "--python", default=sys.executable, help="the interpreter that makes the venv"
    )
    parser.add_argument("chapters", nargs="*", type=Path)
    args = parser.parse_args()
    chapters = args.chapters or sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    chapters = [path.resolve() for path in chapters]
    work = Path(tempfile.mkdtemp(prefix="gatherlab-bare-"))
    try:
        runs, git = lay_out(chapters, work)
        python = make_environment(args.venv or work / "venv", args.python)
        absent = subprocess.run(
            [python, "-c", "import gatherlab"],
            cwd=work,
            capture_output=True,
            env=clean_environment(),
        )
        assert absent.returncode != 0, "gatherlab must not be installed yet"
        return run(python, runs, git, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

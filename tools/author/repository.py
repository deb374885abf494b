"""The book's repository address, set once in ``_config.yml``, and what is made from it.

``repository.url`` and ``repository.branch`` in ``_config.yml`` are the one place that
names the book's repository: Jupyter Book reads them for every page's repository and
launch (Colab) buttons, and this tool writes them into each chapter's first cell (which
installs the package from there when it runs outside a clone) and into chapter 1's link
to the set-up page (absolute, so it works in JupyterLab on ``lab/``, in Colab and in a
downloaded notebook alike). A fork changes ``repository.url``, then runs
``python tools/author/repository.py`` and re-executes the chapters;
``tests/test_repository.py`` fails while a chapter's stored cell or link differs from
what this writes.

``--check`` only reports the chapters that differ (exit status 1 if any).
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import nbformat
import yaml

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "_config.yml"
CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
# Chapter 1's link to the set-up page, whatever address it holds now.
SETUP_LINK = re.compile(r"\[set-up page\]\([^)\s]*\)")

# The first code cell of every chapter. In a clone (the chapter sits in notebooks/ or
# lab/, one folder below the repository) it installs that clone; anywhere else it
# installs the package from the repository at the book's branch. pip keeps every
# installed package that satisfies the package's ranges (pyproject.toml): an installed
# torch or TensorFlow stays as it is. The import follows in the same kernel (no
# restart); one line says what was installed, and nothing is printed where the package
# is already there.
SETUP_CELL = """\
try:
    import gatherlab as gl
except ModuleNotFoundError:  # not installed here: this clone's package, or the book's
    import importlib
    import pathlib
    import subprocess
    import sys

    clone = pathlib.Path.cwd().parent
    source = (
        str(clone)
        if (clone / "gatherlab" / "__init__.py").is_file()
        else "git+{url}@{branch}"
    )
    pip = [sys.executable, "-m", "pip", "install", "--quiet", source]
    done = subprocess.run(pip, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"{{' '.join(pip)}} failed:\\n{{done.stderr}}") from None
    importlib.invalidate_caches()
    import gatherlab as gl

    print(f"Installed gatherlab from {{source}}.")

gl.setup_book()"""


@dataclass(frozen=True)
class Repository:
    url: str
    branch: str

    @property
    def setup_cell(self) -> str:
        """The source of every chapter's first code cell."""
        return SETUP_CELL.format(url=self.url, branch=self.branch)

    @property
    def setup_page(self) -> str:
        """The set-up page's address in the repository (GitHub renders it)."""
        return f"{self.url}/blob/{self.branch}/book/setup.md"


def repository(config: Path = CONFIG) -> Repository:
    """The repository that ``_config.yml`` names."""
    settings = yaml.safe_load(config.read_text())["repository"]
    url = str(settings["url"]).rstrip("/")
    branch = str(settings.get("branch") or "main")
    if not re.fullmatch(r"https://[^\s@\"'{}]+", url):
        raise ValueError(f"_config.yml: repository.url {url!r} is not an https address")
    if not re.fullmatch(r"[\w./-]+", branch):
        raise ValueError(f"_config.yml: repository.branch {branch!r} is not a branch")
    return Repository(url, branch)


def setup_cell(notebook) -> nbformat.NotebookNode:
    """The chapter's first code cell (its set-up)."""
    return next(cell for cell in notebook.cells if cell.cell_type == "code")


def differences(path: Path, repo: Repository) -> list[str]:
    """What in chapter ``path`` differs from what ``repo`` makes."""
    notebook = nbformat.read(path, as_version=4)
    found = []
    if setup_cell(notebook).source != repo.setup_cell:
        found.append(f"{path.name}: the first code cell")
    if path.name.startswith("01_"):
        links = [
            link
            for cell in notebook.cells
            if cell.cell_type == "markdown"
            for link in SETUP_LINK.findall(cell.source)
        ]
        if links != [f"[set-up page]({repo.setup_page})"]:
            found.append(f"{path.name}: the link to the set-up page ({links})")
    return found


def write(path: Path, repo: Repository) -> bool:
    """Put ``repo``'s cell (and chapter 1's link) into ``path``; True if it changed."""
    if not differences(path, repo):
        return False
    notebook = nbformat.read(path, as_version=4)
    setup_cell(notebook).source = repo.setup_cell
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            cell.source = SETUP_LINK.sub(
                f"[set-up page]({repo.setup_page})", cell.source
            )
    nbformat.write(notebook, path)
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="only report, write none")
    parser.add_argument("chapters", nargs="*", type=Path, default=CHAPTERS)
    args = parser.parse_args()
    repo = repository()
    if args.check:
        found = [line for path in args.chapters for line in differences(path, repo)]
        print("\n".join(found) or f"every chapter names {repo.url}@{repo.branch}")
        return 1 if found else 0
    for path in args.chapters:
        if write(path, repo):
            print(f"wrote {path}: re-execute it (tools/run/execute_notebooks.py)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Words on each chapter's main path: its prose outside folded blocks (issue 40).

Run with ``.venv/bin/python benchmarks/bench_words.py``. A chapter's main path is the
words of its markdown cells a reader meets with every fold closed: the how-to note
(shown folded under the title in the book) is left out, and so are code listings
(fenced blocks that are not directives) and folded blocks, an HTML ``<details>``
block ("Going deeper" folds, which JupyterLab and the book both show folded), with
everything nested in them. Directive fences and option lines are not words; an
exercise's text is. ``tests/test_main_path.py`` holds every chapter to ``LIMIT``.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

LIMIT = 3500
ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
HOW_TO = "> **Working in this notebook.**"
FENCE = re.compile(r"^(?P<mark>`{3,}|:{3,})\s*(?:\{(?P<name>[\w:-]+)\})?(?P<rest>.*)$")
OPTION = re.compile(r"^:[\w-]+:")
# A fold: from a line that opens <details> to the line that closes it.
FOLD_OPEN = re.compile(r"^<details[\s>]")
FOLD_CLOSE = "</details>"


def main_path_lines(markdown: str) -> list[str]:
    """The lines of one markdown cell a reader sees with every fold closed."""
    kept: list[str] = []
    # Open fences and folds: (mark, hidden); hidden is true for code and folds.
    stack: list[tuple[str, bool]] = []
    for line in markdown.splitlines():
        stripped = line.strip()
        fence = FENCE.match(stripped)
        if fence and stack and _closes(fence, stack[-1][0]):
            stack.pop()
            continue
        if stripped == FOLD_CLOSE and stack and stack[-1][0] == FOLD_CLOSE:
            stack.pop()
            continue
        in_code = bool(stack) and stack[-1][0][0] == "`" and stack[-1][1]
        if FOLD_OPEN.match(stripped) and not in_code:
            stack.append((FOLD_CLOSE, True))
            continue
        if fence and (fence["name"] or fence["mark"].startswith("`")):
            hidden_above = bool(stack) and stack[-1][1]
            name = fence["name"] or ""
            code = not name or name in ("code", "code-block", "code-cell")
            stack.append((fence["mark"], hidden_above or code))
            if not (hidden_above or code) and fence["rest"].strip():
                kept.append(fence["rest"])  # an admonition's visible title
            continue
        if stack and stack[-1][1]:
            continue
        if stack and OPTION.match(stripped):
            continue
        kept.append(line)
    return kept


def _closes(fence: re.Match[str], opened: str) -> bool:
    mark = fence["mark"]
    return (
        mark[0] == opened[0]
        and len(mark) >= len(opened)
        and not fence["name"]
        and not fence["rest"].strip()
    )


def main_path_words(notebook: Path) -> int:
    """Words of a chapter's prose outside folded blocks (see the module's docstring)."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    words = 0
    for cell in cells:
        if cell["cell_type"] != "markdown":
            continue
        source = "".join(cell["source"])
        if source.startswith(HOW_TO):
            continue
        words += sum(len(line.split()) for line in main_path_lines(source))
    return words


def all_words(notebook: Path) -> int:
    """Every word of a chapter's markdown, folded or not (the how-to note left out)."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    sources = ("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    return sum(len(s.split()) for s in sources if not s.startswith(HOW_TO))


def main() -> int:
    print(f"{'chapter':<28} {'main path':>9} {'all prose':>9}  (limit {LIMIT})")
    over = 0
    for notebook in CHAPTERS:
        words = main_path_words(notebook)
        over += words > LIMIT
        flag = "  over" if words > LIMIT else ""
        print(f"{notebook.stem:<28} {words:>9} {all_words(notebook):>9}{flag}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())

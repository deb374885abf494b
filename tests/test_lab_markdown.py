"""A chapter's markdown shows in plain JupyterLab as it does in the book.

JupyterLab (with no jupyterlab-myst) and a notebook opened on its own (Colab, VS Code)
render a markdown cell as CommonMark with HTML: a MyST directive in a colon fence, a
role or a target shows there as its raw markup. So a chapter's folds are HTML
``<details class="gl-fold">`` blocks, which both fold (CONTRIBUTING.md), and the only
directives left are empty markers (an exercise's start and end, an index entry), which
JupyterLab shows as an empty line.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
FENCE = re.compile(r"^(`{3,}|~{3,})\s*(\{[\w:-]+\})?")
MARKERS = ("{exercise-start}", "{exercise-end}", "{index}")
CODE_SPAN = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)")
ROLE = re.compile(r"\{[\w:-]+\}\0")
MYST_ONLY = re.compile(r"^(:{3,}|\([\w:-]+\)=\s*$|%|\+\+\+)")
# A summary is HTML in both renderers: markdown in its title would show as typed.
SUMMARY = re.compile(r"^<summary>Going deeper: [^`*<>\[]+</summary>$")


def problems(markdown: str) -> list[str]:
    """What in one markdown cell JupyterLab would show as raw markup, or fold wrong."""
    found = []
    lines = markdown.splitlines()
    fence: tuple[str, str | None] | None = None  # (mark, directive) of the open fence
    body = 0  # lines inside an open directive fence
    folds = 0
    for number, line in enumerate(lines):
        opening = FENCE.match(line)
        if fence is not None:
            if line.strip() == fence[0][0] * len(line.strip()) and len(
                line.strip()
            ) >= len(fence[0]):
                if fence[1] is not None and body:
                    found.append(f"directive {fence[1]} with a body")
                fence = None
            elif fence[1] is not None:
                body += 1
            continue
        if opening:
            fence, body = (opening[1], opening[2]), 0
            if opening[2] is not None and opening[2] not in MARKERS:
                found.append(f"directive {opening[2]}")
            continue
        if MYST_ONLY.match(line):
            found.append(f"MyST markup: {line[:40]!r}")
        if ROLE.search(CODE_SPAN.sub("\0", line)):
            found.append(f"role: {line[:60]!r}")
        if line.startswith("<details"):
            folds += 1
            following = [*lines[number + 1 : number + 3], "", ""]
            if line != '<details class="gl-fold">' or not SUMMARY.match(following[0]):
                found.append(f"a fold opens as {line!r} {following[0]!r}")
            elif following[1] != "":
                found.append("no blank line after a fold's summary")
        if line.strip() == "</details>":
            folds -= 1
            if line != "</details>" or number == 0 or lines[number - 1] != "":
                found.append("a fold's </details> not alone after a blank line")
    if fence is not None:
        found.append("an unclosed fence")
    if folds:
        found.append("unbalanced <details>")
    return found


OPEN = '<details class="gl-fold">\n<summary>Going deeper: x</summary>'


@pytest.mark.parametrize(
    "markdown",
    [
        ":::{dropdown} Going deeper: x\ntext\n:::",
        "```{note}\nsome text\n```",
        "See {ref}`the rule`.",
        "(the-rule)=\n# The rule",
        f"{OPEN}\ntext\n\n</details>",  # no blank line: JupyterLab shows no markdown
        f"{OPEN}\n\ntext\n</details>",
        "<details>\n<summary>x</summary>\n\ntext\n\n</details>",
    ],
)
def test_markup_jupyterlab_shows_raw_is_found(markdown):
    assert problems(markdown)


def test_code_folds_and_markers_pass():
    markdown = "\n".join(
        [
            "```{exercise-start}",
            "```",
            "Write `{dropdown}` in a code span, or in a listing:",
            "```python",
            ":::{dropdown} x",
            "```",
            '<details class="gl-fold">',
            "<summary>Going deeper: a fold</summary>",
            "",
            "**Markdown** inside, `code` too.",
            "",
            "</details>",
        ]
    )
    assert problems(markdown) == []


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_a_chapters_markdown_renders_in_plain_jupyterlab(path):
    cells = nbformat.read(path, as_version=4).cells
    found = {
        cell.get("id", index): problems(cell.source)
        for index, cell in enumerate(cells)
        if cell.cell_type == "markdown"
    }
    assert {cell: p for cell, p in found.items() if p} == {}

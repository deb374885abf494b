"""A chapter's main path: the rule first, at most 3,500 words outside folds (issue 40).

The words are counted by ``benchmarks/bench_words.py`` (prose outside folded "Going
deeper" blocks, the how-to note and code listings left out), which prints them per
chapter.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
_SPEC = importlib.util.spec_from_file_location(
    "bench_words", ROOT / "benchmarks" / "bench_words.py"
)
assert _SPEC and _SPEC.loader
bench_words = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(bench_words)
CHAPTERS = bench_words.CHAPTERS


def test_words_in_folds_code_and_option_lines_are_not_on_the_main_path():
    markdown = "\n".join(
        [
            "## Seen heading",
            "one two three",
            "```python",
            "hidden = code",
            "```",
            '<details class="gl-fold">',
            "<summary>Going deeper: folded title</summary>",
            "",
            "folded words here",
            "```python",
            "</details>",
            "```",
            "still folded",
            "",
            "</details>",
            "```{note} Visible title",
            ":class: tip",
            "four five",
            "```",
            "six",
        ]
    )
    kept = " ".join(bench_words.main_path_lines(markdown)).split()
    assert kept == "## Seen heading one two three Visible title four five six".split()


def _words_before(path: Path, marker: str) -> int:
    words = 0
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type == "code" and marker in cell.source:
            return words
        if cell.cell_type == "markdown" and not cell.source.startswith(
            bench_words.HOW_TO
        ):
            lines = bench_words.main_path_lines(cell.source)
            words += sum(len(line.split()) for line in lines)
    raise AssertionError(f"no code cell with {marker!r}")


def test_chapter_1_draws_a_gather_within_its_first_300_words():
    assert _words_before(CHAPTERS[0], "gl.figures.gather_diagram(") <= 300


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_hidden_code_cells_are_the_setup_or_going_deeper(path):
    """Only the setup cell and the code of a "Going deeper" fold are hidden, and such
    code says which fold it belongs to when folded."""
    code = [c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]
    for cell in code[1:]:
        if "hide-cell" in cell.metadata.get("tags", []):
            prompt = cell.metadata.get("mystnb", {}).get("code_prompt_show", "")
            assert prompt.startswith("Going deeper: "), cell.source[:80]


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_a_chapters_main_path_is_at_most_3500_words(path):
    """Prose outside folded blocks; what a practitioner needs beyond it is in folds."""
    assert bench_words.main_path_words(path) <= bench_words.LIMIT

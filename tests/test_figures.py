"""Chapter figures: each draws what it is given, as one deterministic PNG."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
import torch
from matplotlib.colors import to_hex
from matplotlib.patches import Rectangle

from gatherlab import figures
from gatherlab.diagnose import RuleError

x = torch.tensor([[10, 11, 12], [20, 21, 22]])


def _texts(figure) -> list[str]:
    return [text.get_text() for ax in figure.axes for text in ax.texts]


def _png_digest(figure) -> str:
    return hashlib.sha256(figure._repr_png_()).hexdigest()


FIGURES = {
    "gather_diagram": lambda: figures.gather_diagram(
        x, 1, torch.tensor([[2, 0], [1, 1]]), at=(0, 1)
    ),
    "three_ways_on_a_grid": lambda: figures.three_ways_on_a_grid(
        torch.arange(20).reshape(4, 5),
        torch.tensor([2, 0]),
        torch.tensor([[1], [4], [0], [2]]),
        torch.tensor([6, 19]),
    ),
    "batched_selection_diagram": lambda: figures.batched_selection_diagram(
        torch.arange(12).reshape(2, 3, 2), torch.tensor([[2, 0], [1, 1]])
    ),
    "gradient_contributions": lambda: figures.gradient_contributions(
        torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]),
        1,
        torch.tensor([[2, 2, 0], [1, 1, 1]]),
        torch.tensor([[1.0, 2.0, 4.0], [1.0, 3.0, 5.0]]),
    ),
    "broken_index_grid": lambda: figures.broken_index_grid(
        x, 1, {"past the end": torch.tensor([[0, 3], [1, 2]])}
    ),
    "writes_diagram": lambda: figures.writes_diagram(
        x, 1, torch.tensor([[2, 0], [1, 1]]), torch.tensor([[100, 101], [102, 103]])
    ),
}


@pytest.mark.parametrize("name", FIGURES)
def test_figure_renders_the_same_png_every_time(name):
    first, second = FIGURES[name](), FIGURES[name]()
    assert first._repr_png_().startswith(b"\x89PNG")
    assert _png_digest(first) == _png_digest(second)


def test_gather_diagram_prints_the_traced_line_for_the_chosen_output():
    texts = _texts(FIGURES["gather_diagram"]())
    assert "out[0, 1] ← index[0, 1] = 0 → x[0, 0] = 10" in texts


def test_gather_diagram_refuses_an_invalid_call():
    with pytest.raises(RuleError, match="valid positions are 0..2"):
        figures.gather_diagram(x, 1, torch.tensor([[3]]))


def test_gradient_contributions_lists_who_read_each_entry():
    texts = _texts(FIGURES["gradient_contributions"]())
    assert {"4", "3", "9", "1 + 2", "1 + 3 + 5", "not read"} <= set(texts)


def test_broken_index_grid_names_the_broken_rule():
    texts = " ".join(_texts(FIGURES["broken_index_grid"]()))
    assert "index-out-of-range" in texts


def test_figures_and_explorers_share_one_legend():
    """The explorers' stylesheet marks each role with the figures' colours (Prettier
    writes its hex digits in lower case)."""
    css = (
        Path(figures.__file__).parent / "browser" / "explorers" / "explorer.css"
    ).read_text()
    for role, (colour, ink, _) in figures.MARKS.items():
        assert f"--gl-{role}: {colour.lower()};" in css
        assert f"--gl-{role}-text: {ink.lower()};" in css


def _fills(figure) -> list[str]:
    return [
        to_hex(patch.get_facecolor()).upper()
        for ax in figure.axes
        for patch in ax.patches
        if isinstance(patch, Rectangle)
    ]


def test_writes_diagram_marks_a_collision_and_names_what_competed():
    figure = FIGURES["writes_diagram"]()
    texts = _texts(figure)
    # x[1, 1] receives 102 and 103: a "?" in the fault colour, and both values named
    assert "x[1, 1] written 2 times: 102, 103" in texts
    assert texts.count("?") == 1
    assert _fills(figure).count(figures.fill("fault")) == 1
    # the two single writes land as values, in the output colour; 11 and 20 stay
    assert _fills(figure).count(figures.fill("out")) == 2
    assert {"101", "100", "11", "20", "22"} <= set(texts)
    arrows = [
        p for ax in figure.axes for p in ax.patches if not isinstance(p, Rectangle)
    ]
    assert len(arrows) == 4  # one per src entry the index uses


def test_writes_diagram_without_a_repeat_says_there_is_no_collision():
    figure = figures.writes_diagram(
        x, 1, torch.tensor([[2, 0]]), torch.tensor([[7, 8]])
    )
    assert "every entry written at most once: no collision" in _texts(figure)
    assert figures.fill("fault") not in _fills(figure)


def test_gather_diagram_marks_its_cells_with_the_legend_colours():
    figure = FIGURES["gather_diagram"]()
    fills = {
        to_hex(patch.get_facecolor()).upper()
        for ax in figure.axes
        for patch in ax.patches
        if isinstance(patch, Rectangle)
    }
    assert {figures.fill(role) for role in ("index", "source", "out")} <= fills
    inks = {
        (text.get_text(), to_hex(text.get_color()).upper())
        for ax in figure.axes
        for text in ax.texts
    }
    # x[0, 0] = 10 in white on the source blue, its copy in black on the output orange
    assert {("10", "#FFFFFF"), ("10", "#000000")} <= inks


def test_the_legend_names_every_role_in_text_and_html():
    shown = figures.legend()
    html = shown._repr_html_()
    for role, (colour, ink, meaning) in figures.MARKS.items():
        assert f"background:{colour};color:{ink}" in html
        assert meaning in html and f"{role} = {meaning}" in repr(shown)

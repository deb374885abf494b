"""Chapter figures: each draws what it is given, as one deterministic PNG."""

from __future__ import annotations

import hashlib

import pytest
import torch

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

"""Explorers: one widget per chapter showing which source value every output reads
(chapter 6's: which output entry every source value writes).

``EXPLORERS[name]()`` returns a ready widget with the chapter's default example; every
factory also takes the reader's own tensors. Each is an ``anywidget`` whose one
JavaScript view (``js/``) renders it and computes gathers, traces and rule messages in
the browser, so typed tensors work in the static book with no kernel.
"""

from __future__ import annotations

from collections.abc import Callable

from gatherlab.widgets._base import Explorer
from gatherlab.widgets._batched_selection import batched_selection
from gatherlab.widgets._error_lab import error_lab
from gatherlab.widgets._gather_2d import gather_2d
from gatherlab.widgets._gradient_accumulation import gradient_accumulation
from gatherlab.widgets._op_comparison import op_comparison
from gatherlab.widgets._scatter import scatter

EXPLORERS: dict[str, Callable[..., Explorer]] = {
    "gather_2d": gather_2d,  # chapter 1
    "batched_selection": batched_selection,  # chapter 2
    "op_comparison": op_comparison,  # chapter 3
    "error_lab": error_lab,  # chapter 4
    "gradient_accumulation": gradient_accumulation,  # chapter 5
    "scatter": scatter,  # chapter 6
}

__all__ = [
    "EXPLORERS",
    "Explorer",
    "batched_selection",
    "error_lab",
    "gather_2d",
    "gradient_accumulation",
    "op_comparison",
    "scatter",
]

"""Chapter 1 explorer: input, index and output side by side; pick an output cell to see
the index entry it used and the source value it read.

Structure (for the static book): a dim choice is linked to an outer Stack with one
child per dim; an output-cell choice is linked to every axis's inner Stack of
precomputed views (an overview, then one view per output cell). Both choices therefore
work with no kernel. Each dim's child shows the output-cell choice (or, where the
call raises, a note saying there is no output to pick instead of buttons that would
change nothing), the call as the reader chose it, then its axis's views. dim -1 shares
the last axis's views (it names that axis), so those are saved once; only its call
line differs. The index box needs a kernel; it re-renders the views.

Design decision: every dim shares the reader's one index, as in the chapter's lesson
that the same index can change meaning *and validity* with dim. The default index
``[[2, 0], [1, 1]]`` is invalid with dim 0 (position 2 on a size-2 axis); that dim's
view shows ``gl.diagnose``'s message with the faulty entry marked, rather than switching
to a second example the reader did not ask for.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import ipywidgets as widgets
import numpy as np

from gatherlab import reference
from gatherlab.diagnose import Problem, diagnose
from gatherlab.trace import Trace, trace
from gatherlab.widgets import _base, _html
from gatherlab.widgets._parse import (
    checked_array,
    format_tensor,
)

DEFAULT_X = [[10, 11, 12], [20, 21, 22]]
DEFAULT_INDEX = [[2, 0], [1, 1]]
NO_OUTPUT = (
    "show: no output: the call raises (the rule it breaks is below), so there is no "
    "output cell to pick in this dim."
)


@dataclass(frozen=True)
class DimView:
    """``torch.gather(x, dim, index)``: its trace and output, or the rules it breaks."""

    dim: int
    problems: tuple[Problem, ...]
    trace: Trace | None = None
    output: np.ndarray | None = None


def dims_for(x: np.ndarray) -> tuple[int, ...]:
    """The dim choices: every axis, then -1 (the last axis, counted from the end)."""
    return (*range(max(x.ndim, 1)), -1)


def axes_for(x: np.ndarray) -> tuple[int, ...]:
    """The axes with views of their own; dim -1 shows the last axis's views."""
    return tuple(range(max(x.ndim, 1)))


def compute(x: np.ndarray, index: np.ndarray, dim: int) -> DimView:
    """Diagnose the call; when it is valid, trace it and compute its output."""
    import torch

    problems = diagnose(torch.as_tensor(x), dim, torch.as_tensor(index))
    if problems:
        return DimView(dim, tuple(problems))
    return DimView(dim, (), trace(x, dim, index), reference.gather(x, dim, index))


def cell_labels(index: np.ndarray) -> list[str]:
    """The output-cell choices: ``all`` first, then one per output coordinate."""
    return ["all"] + [_html.at_text(c, "out") for c in np.ndindex(index.shape)]


def call_line(x: np.ndarray, dim: int) -> str:
    """The call as the reader chose it; a negative dim says which axis it names."""
    call = f"torch.gather(x, {dim}, index)"
    if dim < 0:
        return f"{call}  # dim {dim} is dim {dim % max(x.ndim, 1)} here"
    return call


def render_cell(
    x: np.ndarray, index: np.ndarray, view: DimView, out: tuple[int, ...] | None
) -> str:
    """One view: the three tensors and the trace (all of it, or one line); the call
    line sits above the views, one per dim choice."""
    if view.problems:
        fault = {p.where: "fault" for p in view.problems if p.where is not None}
        tables = _html.row(_html.tensor(x, "x"), _html.tensor(index, "index", fault))
        marks = _html.legend("fault") if fault else ""
        title = "No output: the call raises because it breaks a rule"
        return _html.problems(view.problems, title) + tables + marks
    if out is None:
        tables = _html.row(
            _html.tensor(x, "x"),
            _html.tensor(index, "index"),
            _html.tensor(view.output, "out"),
        )
        if not len(view.trace):
            return tables + _html.note("An empty index selects nothing: out is empty.")
        return tables + _html.code_block(str(view.trace).splitlines())
    step = view.trace[out]
    tables = _html.row(
        _html.tensor(x, "x", {step.source: "source"}),
        _html.tensor(index, "index", {step.index_at: "index"}),
        _html.tensor(view.output, "out", {out: "out"}),
    )
    return (
        tables
        + _html.code(view.trace.line(step))
        + _html.legend("out", "index", "source")
    )


def render_dim(x: np.ndarray, index: np.ndarray, view: DimView) -> list[str]:
    """Every view for one dim, in the order of :func:`cell_labels`."""
    return [render_cell(x, index, view, None)] + [
        render_cell(x, index, view, out) for out in np.ndindex(index.shape)
    ]


def gather_2d(x: Any = None, index: Any = None, dim: int = 1) -> _base.Explorer:
    """The chapter 1 explorer of ``torch.gather(x, dim, index)``."""
    x = checked_array(DEFAULT_X if x is None else x, "x")
    state = {"index": checked_array(DEFAULT_INDEX if index is None else index, "index")}
    dims = dims_for(x)
    if dim not in dims:
        raise ValueError(
            f"dim must be one of {dims} for x of shape {x.shape}; got {dim}"
        )

    dim_choice = _base.choice([f"dim {d}" for d in dims], "dim")
    dim_choice.value = dims.index(dim)
    cell_choice = _base.choice(cell_labels(state["index"]), "show")
    axes = axes_for(x)
    inner = [_base.stack([]) for _ in axes]
    no_output = widgets.HTML(_html.note(NO_OUTPUT))
    calls_shown = [widgets.HTML(_html.code_block([call_line(x, d)])) for d in dims]
    per_dim = [widgets.VBox() for _ in dims]
    outer = widgets.Stack(children=per_dim)
    status = widgets.HTML("")
    index_box = _base.edit_box("index", format_tensor(state["index"]))

    def show(index_values: np.ndarray, calls: list[DimView]) -> None:
        views = [render_dim(x, index_values, call) for call in calls]
        linked = list(zip(inner, views, strict=True))
        _base.show_choices(cell_choice, cell_labels(index_values), linked)
        for box, call_shown, d in zip(per_dim, calls_shown, dims, strict=True):
            axis = d % len(axes)  # dim -1 shows the last axis's views
            above = no_output if calls[axis].problems else cell_choice
            children = (above, call_shown, inner[axis])
            if box.children != children:
                box.children = children

    def on_index(change: dict) -> None:
        candidate = _base.read_edit(change["new"], status, state["index"])
        if candidate is None:
            return
        views = [compute(x, candidate, d) for d in axes]
        if all(view.problems for view in views):
            chosen = views[dims[dim_choice.index] % len(axes)]
            status.value = _html.problems(
                chosen.problems, "Not applied: this index breaks a rule for every dim"
            )
            return
        status.value = ""
        state["index"] = candidate
        show(candidate, views)

    show(state["index"], [compute(x, state["index"], d) for d in axes])
    links = [_base.link(dim_choice, outer)] + [
        _base.link(cell_choice, s) for s in inner
    ]
    index_box.observe(on_index, names="value")
    return _base.Explorer(
        "gather_2d",
        1,
        [
            dim_choice,
            outer,
            widgets.HBox([index_box]),
            status,
            _base.edit_note(),
        ],
        links,
        lambda: (
            f"x {x.shape}, index {format_tensor(state['index'])}, "
            f"dim {dims[dim_choice.index]}"
        ),
    )

"""Chapter 2 explorer: pick whole feature vectors per batch member with
``positions.unsqueeze(-1).expand(-1, -1, F)`` and ``torch.gather(features, 1, index)``.

Structure (for the static book): a step choice is linked to an outer Stack with one
child per step; a batch-member choice is linked to every step's inner Stack of
precomputed views. Stepping positions -> unsqueeze -> expand -> gather and choosing a
member need no kernel.
The positions box needs a kernel; it re-renders the views.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import ipywidgets as widgets
import numpy as np

from gatherlab.diagnose import Problem, diagnose
from gatherlab.trace import Trace, trace
from gatherlab.widgets import _base, _html
from gatherlab.widgets._parse import (
    checked_array,
    format_tensor,
)

DEFAULT_FEATURES = np.arange(12).reshape(2, 3, 2)  # (batch, time, feature)
DEFAULT_POSITIONS = [[2, 0], [1, 1]]  # (batch, selected_time)
STEP_LABELS = ("positions", "unsqueeze(-1)", "expand", "gather")


@dataclass(frozen=True)
class Selection:
    """Every intermediate tensor of the recipe, or the rules the final gather breaks."""

    features: np.ndarray
    positions: np.ndarray
    problems: tuple[Problem, ...] = ()
    unsqueezed: np.ndarray | None = None
    index: np.ndarray | None = None
    output: np.ndarray | None = None
    trace: Trace | None = None


def compute(features: np.ndarray, positions: np.ndarray) -> Selection:
    """Build the index step by step and gather; positions is (batch, selected_time)."""
    import torch

    if positions.ndim != 2:
        shape = tuple(positions.shape)
        message = (
            f"positions has shape {shape}, but the recipe needs one row of time "
            "positions per batch member: shape (batch, selected_time)"
        )
        return Selection(features, positions, (Problem("positions-shape", message),))
    unsqueezed = positions[..., None]
    index = np.broadcast_to(unsqueezed, (*positions.shape, features.shape[-1])).copy()
    problems = diagnose(torch.as_tensor(features), 1, torch.as_tensor(index))
    if problems:
        return Selection(features, positions, tuple(problems))
    selection_trace = trace(features, 1, index, source_name="features")
    output = np.take_along_axis(features, index, axis=1)
    return Selection(
        features, positions, (), unsqueezed, index, output, selection_trace
    )


def code_lines(selection: Selection, step: int) -> list[str]:
    """The recipe up to ``step``, each line followed by the shape it produces."""
    batch, picks = selection.positions.shape
    size = selection.features.shape[-1]
    steps = [
        ("positions", f"({batch}, {picks})"),
        ("positions.unsqueeze(-1)", f"({batch}, {picks}, 1)"),
        (
            f"index = positions.unsqueeze(-1).expand(-1, -1, {size})",
            f"({batch}, {picks}, {size})",
        ),
        ("out = torch.gather(features, 1, index)", f"({batch}, {picks}, {size})"),
    ][: step + 1]
    width = max(len(code) for code, _ in steps)
    return [f"{code.ljust(width)}  # shape {shape}" for code, shape in steps]


def read_marks(selection: Selection, step: int, member: int) -> dict:
    """The features a member's index reads at ``step``, marked as sources.

    positions alone cannot index features (gather needs all 3 dims): nothing is read.
    The (batch, picks, 1) index after unsqueeze would read only feature 0; expand and
    gather read the whole feature vectors.
    """
    if step == 0:
        return {}
    picks = selection.positions.shape[1]
    features_read = (0,) if step == 1 else range(selection.features.shape[-1])
    return {
        (member, int(selection.positions[member, k]), f): "source"
        for k in range(picks)
        for f in features_read
    }


def step_note(selection: Selection, step: int, member: int) -> str:
    """What the member asks for and what the index built so far would read."""
    asks = (
        f"Batch member {member} asks for time positions "
        f"{selection.positions[member].tolist()}."
    )
    batch, picks = selection.positions.shape
    size = selection.features.shape[-1]
    if step == 0:
        return (
            f"{asks} Nothing is read yet: positions has 2 dims and features 3, so "
            "torch.gather would refuse it as an index."
        )
    if step == 1:
        return (
            f"{asks} Used as it is, this ({batch}, {picks}, 1) index would read only "
            f"feature 0 of each chosen step; expand repeats it over all {size} "
            "features (a stride-0 view, no copy)."
        )
    return f"{asks} The expanded index reads the whole feature vectors."


def render(selection: Selection, step: int, member: int) -> str:
    """One view: the recipe so far, features with what the member's index reads
    marked, and the tensor this step produced with the member's entries marked."""
    picks = selection.positions.shape[1]
    size = selection.features.shape[-1]
    features = _html.tensor(
        selection.features,
        "features",
        read_marks(selection, step, member),
        note="(batch, time, feature)",
    )
    member_rows = {(member, k): "index" for k in range(picks)}
    member_cells = {(member, k, f): "index" for k in range(picks) for f in range(size)}
    produced = [
        _html.tensor(selection.positions, "positions", member_rows),
        _html.tensor(
            selection.unsqueezed,
            "positions.unsqueeze(-1)",
            {(member, k, 0): "index" for k in range(picks)},
        ),
        _html.tensor(selection.index, "index", member_cells),
        _html.tensor(selection.output, "out", {c: "out" for c in member_cells}),
    ][step]
    lines = _html.code_block(code_lines(selection, step))
    if step < 3:
        meanings = {
            "index": f"batch member {member}'s positions",
            "source": (
                "what this index alone would read"
                if step == 1
                else "what gather will read with it"
            ),
        }
        roles = ("index",) if step == 0 else ("index", "source")
        return (
            lines
            + _html.row(features, produced)
            + _html.note(step_note(selection, step, member))
            + _html.legend(*roles, meanings=meanings)
        )
    steps = [s for s in selection.trace if s.out[0] == member]
    return (
        lines
        + _html.row(features, produced)
        + _html.code_block(selection.trace.line(s) for s in steps)
        + _html.legend(
            "out", "source", meanings={"out": f"batch member {member}'s output"}
        )
    )


def render_all(selection: Selection) -> list[list[str]]:
    """Views for every step (outer) and batch member (inner)."""
    batch = selection.positions.shape[0]
    return [[render(selection, step, b) for b in range(batch)] for step in range(4)]


def batched_selection(features: Any = None, positions: Any = None) -> _base.Explorer:
    """The chapter 2 explorer (defaults: features = arange(12).reshape(2, 3, 2))."""
    features = checked_array(
        DEFAULT_FEATURES if features is None else features, "features"
    )
    if features.ndim != 3:
        raise ValueError(
            f"features must be (batch, time, feature); got shape {features.shape}"
        )
    positions = checked_array(
        DEFAULT_POSITIONS if positions is None else positions, "positions"
    )
    selection = compute(features, positions)
    if selection.problems:
        raise ValueError(
            f"these positions do not work: {selection.problems[0].message}"
        )
    state = {"selection": selection}

    step_choice = _base.choice(STEP_LABELS, "step")
    member_choice = _base.choice(
        [f"batch {b}" for b in range(positions.shape[0])], "member"
    )
    inner = [_base.stack([]) for _ in STEP_LABELS]
    outer = widgets.Stack(children=inner)
    status = widgets.HTML("")
    positions_box = _base.edit_box("positions", format_tensor(positions))

    def show(selection: Selection) -> None:
        labels = [f"batch {b}" for b in range(len(selection.positions))]
        linked = list(zip(inner, render_all(selection), strict=True))
        _base.show_choices(member_choice, labels, linked)

    def on_positions(change: dict) -> None:
        positions = _base.read_edit(change["new"], status, state["selection"].positions)
        if positions is None:
            return
        candidate = compute(features, positions)
        if candidate.problems:
            status.value = _html.problems(candidate.problems, "Not applied")
            return
        status.value = ""
        state["selection"] = candidate
        show(candidate)

    show(selection)
    links = [_base.link(step_choice, outer)] + [
        _base.link(member_choice, s) for s in inner
    ]
    positions_box.observe(on_positions, names="value")
    return _base.Explorer(
        "batched_selection",
        2,
        [
            step_choice,
            member_choice,
            outer,
            widgets.HBox([positions_box]),
            status,
            _base.edit_note(),
        ],
        links,
        lambda: (
            f"features {features.shape}, positions "
            f"{format_tensor(state['selection'].positions)}"
        ),
    )

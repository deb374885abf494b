"""Chapter 5 explorer: the gradient of ``(torch.gather(x, dim, index) * weights).sum()``

Each source cell's gradient is the sum of the upstream weights of the outputs that read
it; the heat map shows those sums ("1+2=3") next to autograd's own gradient in PyTorch
and for ``tf.gather_nd``, which must agree.

Structure (for the static book): a weight-preset choice is linked to an outer Stack (one
child per preset, with that preset's autograd check); a source-cell choice is linked to
every preset's inner Stack of precomputed views, so both choices need no kernel. The
index and weights boxes need a kernel; editing the weights re-renders only the first
preset (the reader's own weights) and shows it, editing the index re-renders
everything. With a kernel, choosing a preset copies its weights into the weights box,
so the box always holds the weights on show and edits start from them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import ipywidgets as widgets
import numpy as np

from gatherlab.diagnose import Problem, diagnose
from gatherlab.trace import Trace, format_value, trace
from gatherlab.widgets import _base, _html
from gatherlab.widgets._parse import checked_array, format_tensor, same_tensor
from gatherlab.widgets._run import attempt, tensorflow_or_none

DEFAULT_X = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
DEFAULT_INDEX = [[2, 2, 0], [1, 1, 1]]
DEFAULT_WEIGHTS = [[1.0, 2.0, 4.0], [1.0, 3.0, 5.0]]
Coord = tuple[int, ...]
WEIGHTS_NOTE = (
    "The weights box holds your own weights, used only by the first preset. In a "
    "running notebook, picking a preset copies its weights here; on this page the box "
    "keeps its first value."
)


@dataclass(frozen=True)
class Gradient:
    """The gradient by hand (sums of weights) and from both frameworks' autograd."""

    weights: np.ndarray
    by_hand: np.ndarray
    contributions: dict[Coord, tuple[tuple[Coord, float], ...]]
    torch_grad: np.ndarray | None
    torch_error: str
    tf_grad: np.ndarray | None
    tf_error: str

    @property
    def agrees(self) -> bool:
        """True when both autograd gradients equal the sums by hand."""
        return all(
            grad is not None and np.allclose(grad, self.by_hand)
            for grad in (self.torch_grad, self.tf_grad)
        )


def check_index(x: np.ndarray, dim: int, index: np.ndarray) -> tuple[Problem, ...]:
    """The rules ``torch.gather(x, dim, index)`` breaks (none: it can be traced)."""
    import torch

    return tuple(diagnose(torch.as_tensor(x), dim, torch.as_tensor(index)))


def check_weights(weights: np.ndarray, index: np.ndarray) -> str:
    """Why these upstream weights do not fit the output, or "" when they do."""
    if weights.shape != index.shape:
        return (
            f"weights has shape {weights.shape}, but it multiplies the output, whose "
            f"shape is the index's: {index.shape}"
        )
    return ""


def _torch_gradient(x: np.ndarray, dim: int, index: np.ndarray, weights: np.ndarray):
    import torch

    source = torch.tensor(x, dtype=torch.float64, requires_grad=True)
    selected = torch.gather(source, dim, torch.as_tensor(index))
    (selected * torch.as_tensor(weights, dtype=torch.float64)).sum().backward()
    return source.grad


def _tensorflow_gradient(
    x: np.ndarray, dim: int, index: np.ndarray, weights: np.ndarray
):
    tf = tensorflow_or_none()
    if tf is None:
        raise ImportError("TensorFlow is not installed here")
    grids = list(np.indices(index.shape, sparse=True))
    grids[dim] = index
    coordinates = np.stack(np.broadcast_arrays(*grids), axis=-1)
    source = tf.Variable(x.astype(np.float64))
    with tf.GradientTape() as tape:
        selected = tf.gather_nd(source, coordinates)
        loss = tf.reduce_sum(selected * tf.constant(weights, dtype=tf.float64))
    return tf.convert_to_tensor(tape.gradient(loss, source))


def compute(
    x: np.ndarray, dim: int, index: np.ndarray, weights: np.ndarray, selection: Trace
) -> Gradient:
    """Sum the weights per source cell from the trace, and ask both autograds."""
    by_hand = np.zeros(x.shape, dtype=np.float64)
    contributions: dict[Coord, list[tuple[Coord, float]]] = {}
    for step in selection:
        weight = float(weights[step.out])
        by_hand[step.source] += weight
        contributions.setdefault(step.source, []).append((step.out, weight))
    wrapped = dim % x.ndim
    torch_grad, torch_error = attempt(
        lambda: _torch_gradient(x, wrapped, index, weights)
    )
    tf_grad, tf_error = attempt(
        lambda: _tensorflow_gradient(x, wrapped, index, weights)
    )
    frozen = {source: tuple(parts) for source, parts in contributions.items()}
    return Gradient(
        weights, by_hand, frozen, torch_grad, torch_error, tf_grad, tf_error
    )


def presets(
    index: np.ndarray, weights: np.ndarray, first: str = "chapter weights"
) -> list[tuple[str, np.ndarray]]:
    """The weight choices: ``weights`` (named ``first``), all ones, one output alone."""
    one_hot = np.zeros(index.shape)
    if one_hot.size:
        one_hot[(0,) * index.ndim] = 1.0
    first_output = _html.at_text((0,) * index.ndim, "out")
    return [
        (first, weights),
        ("all ones", np.ones(index.shape)),
        (f"only {first_output}", one_hot),
    ]


def sum_label(parts: tuple[tuple[Coord, float], ...]) -> str:
    """``1+2=3``: the weights a source cell receives and their total."""
    if not parts:
        return "0"
    total = format_value(sum(weight for _, weight in parts))
    if len(parts) == 1:
        return total
    terms = "+".join(format_value(weight) for _, weight in parts).replace("+-", "−")
    return f"{terms}={total}"


def heat_labels(gradient: Gradient) -> tuple[dict[Coord, str], np.ndarray | None]:
    """Each source cell's text (its sum, ``1+2=3``) and shade (its size, 0..1)."""
    labels = {
        c: sum_label(gradient.contributions.get(c, ()))
        for c in np.ndindex(gradient.by_hand.shape)
    }
    largest = float(np.abs(gradient.by_hand).max()) if gradient.by_hand.size else 0.0
    return labels, (np.abs(gradient.by_hand) / largest if largest else None)


def explain(chosen: Coord, gradient: Gradient) -> str:
    """One sentence: which outputs read a source cell and what it receives."""
    parts = gradient.contributions.get(chosen, ())
    name = _html.at_text(chosen, "x")
    if not parts:
        return f"{name} is never read, so its gradient is 0."
    readers = ", ".join(
        f"{_html.at_text(out, 'out')} (weight {format_value(w)})" for out, w in parts
    )
    sums = " + ".join(format_value(w) for _, w in parts)
    total = format_value(sum(w for _, w in parts))
    return f"{name} is read by {readers}: its gradient is {sums} = {total}."


def render_preset(
    x: np.ndarray, dim: int, index: np.ndarray, gradient: Gradient
) -> list[str]:
    """Views for one set of weights: the overview, then one per source cell."""
    code = _html.code_block(
        [f"out = torch.gather(x, {dim}, index)", "(out * weights).sum().backward()"]
    )
    labels, heat = heat_labels(gradient)
    meanings = {
        "out": "weights that reach it",
        "index": "index entries that point at it",
        "source": "source cell chosen",
    }

    def view(chosen: Coord | None) -> str:
        parts = gradient.contributions.get(chosen, ()) if chosen is not None else ()
        outs = [out for out, _ in parts]
        tables = [
            _html.tensor(index, "index", {o: "index" for o in outs}),
            _html.tensor(gradient.weights, "weights", {o: "out" for o in outs}),
            _html.tensor(
                gradient.by_hand,
                "x.grad by hand",
                {chosen: "source"} if chosen is not None else {},
                labels,
                heat,
                note="(sums of weights)",
                even_columns=True,
            ),
        ]
        if chosen is None:
            words = (
                "Each source cell's gradient is the sum of the weights of the outputs "
                "that read it. Choose a source cell to see them."
            )
            return code + _html.row(_html.tensor(x, "x"), *tables) + _html.note(words)
        return (
            code
            + _html.row(*tables)
            + _html.code(explain(chosen, gradient))
            + _html.legend("index", "out", "source", meanings=meanings)
        )

    return [view(None)] + [view(c) for c in np.ndindex(x.shape)]


def render_autograd(gradient: Gradient) -> str:
    """Autograd's gradient in PyTorch and for tf.gather_nd, and whether they agree."""
    blocks = []
    for name, grad, error in (
        ("torch: x.grad", gradient.torch_grad, gradient.torch_error),
        ("tf.gather_nd: tape.gradient", gradient.tf_grad, gradient.tf_error),
    ):
        blocks.append(
            _html.tensor(grad, name) if grad is not None else _html.error(error, name)
        )
    verdict = (
        _html.ok("both autograd gradients equal the sums by hand")
        if gradient.agrees
        else _html.error("the gradients disagree", "Check")
    )
    return _html.heading("Autograd's own gradients") + _html.row(*blocks) + verdict


def cell_labels(x: np.ndarray) -> list[str]:
    """The source-cell choices: ``all`` first, then every source coordinate."""
    return ["all"] + [_html.at_text(c, "x") for c in np.ndindex(x.shape)]


def gradient_accumulation(
    x: Any = None, index: Any = None, weights: Any = None, dim: int = 1
) -> _base.Explorer:
    """The chapter 5 explorer (defaults: the seed's x, index and weights; dim 1)."""
    first = "chapter weights" if weights is None else "your weights"
    x = checked_array(DEFAULT_X if x is None else x, "x").astype(np.float64)
    index = checked_array(DEFAULT_INDEX if index is None else index, "index")
    weights = checked_array(DEFAULT_WEIGHTS if weights is None else weights, "weights")
    problems = check_index(x, dim, index)
    if problems or check_weights(weights, index):
        raise ValueError(
            problems[0].message if problems else check_weights(weights, index)
        )
    state = {
        "index": index,
        "trace": trace(x, dim, index),
        "weights": weights.astype(float),
        "first": first,  # what the first preset is called
    }

    preset_choice = _base.choice(
        [name for name, _ in presets(index, weights, state["first"])], "weights"
    )
    cell_choice = _base.choice(cell_labels(x), "source")
    inner = [_base.stack([]) for _ in range(3)]
    checks = [widgets.HTML() for _ in range(3)]
    outer = widgets.Stack(
        children=[widgets.VBox([s, c]) for s, c in zip(inner, checks, strict=True)]
    )
    status = widgets.HTML("")
    index_box = _base.edit_box("index", format_tensor(index))
    weights_box = _base.edit_box(
        "weights", format_tensor(state["weights"]), width="22em"
    )

    copying = {"preset": False}  # True while a chosen preset is copied into the box

    def copy_to_box(preset_weights: np.ndarray) -> None:
        """Show the chosen preset's weights in the box without applying them."""
        copying["preset"] = True
        try:
            weights_box.value = format_tensor(preset_weights)
        finally:
            copying["preset"] = False

    def chosen_weights() -> np.ndarray:
        labels = presets(state["index"], state["weights"], state["first"])
        return labels[preset_choice.index][1]

    def show_preset(k: int, preset_weights: np.ndarray) -> None:
        gradient = compute(x, dim, state["index"], preset_weights, state["trace"])
        views = render_preset(x, dim, state["index"], gradient)
        _base.show_views(inner[k], views, cell_choice.index)
        checks[k].value = _html.styled(render_autograd(gradient))

    def show_all() -> None:
        labels = presets(state["index"], state["weights"], state["first"])
        for k, (_, preset_weights) in enumerate(labels):
            show_preset(k, preset_weights)
        _base.show_choices(preset_choice, [name for name, _ in labels], [])

    def on_index(change: dict) -> None:
        candidate = _base.read_edit(change["new"], status, state["index"])
        if candidate is None:
            return
        problems = check_index(x, dim, candidate)
        if problems:
            status.value = _html.problems(problems, "Not applied")
            return
        status.value = ""
        state["index"], state["trace"] = candidate, trace(x, dim, candidate)
        if check_weights(state["weights"], candidate):
            state["weights"], state["first"] = np.ones(candidate.shape), "reset weights"
            status.value = _html.note(
                "The weights were reset to ones to fit the new index."
            )
        show_all()
        copy_to_box(chosen_weights())

    def on_weights(change: dict) -> None:
        if copying["preset"]:
            return
        candidate = _base.read_edit(change["new"], status, state["weights"])
        if candidate is None:
            return
        candidate = candidate.astype(np.float64)
        if same_tensor(candidate, state["weights"]):
            return
        mismatch = check_weights(candidate, state["index"])
        if mismatch:
            status.value = _html.error(mismatch)
            return
        status.value = ""
        state["weights"], state["first"] = candidate, "your weights"
        show_preset(0, candidate)
        labels = presets(state["index"], candidate, state["first"])
        _base.show_choices(preset_choice, [name for name, _ in labels], [])
        preset_choice.index = 0  # show the weights just typed

    def on_preset(change: dict) -> None:
        """Copy the chosen preset's weights into the box (kernel only)."""
        if change["new"] is not None:
            copy_to_box(chosen_weights())

    show_all()
    links = [_base.link(preset_choice, outer)] + [
        _base.link(cell_choice, s) for s in inner
    ]
    index_box.observe(on_index, names="value")
    weights_box.observe(on_weights, names="value")
    preset_choice.observe(on_preset, names="index")
    return _base.Explorer(
        "gradient_accumulation",
        5,
        [
            preset_choice,
            cell_choice,
            outer,
            widgets.HTML(_html.note(WEIGHTS_NOTE)),
            widgets.HBox([index_box, weights_box]),
            status,
            _base.edit_note(),
        ],
        links,
        lambda: (
            f"x {x.shape}, index {format_tensor(state['index'])}, weights "
            f"{state['weights'].shape}, dim {dim}"
        ),
    )

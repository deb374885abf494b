"""Chapter 4 explorer: broken gather calls, each with the rule it breaks, what PyTorch
raises, what TensorFlow does on the CPU, what a GPU does, and a suggested fix.

Structure (for the static book): a Dropdown of broken calls is linked to a Stack of
precomputed views, so choosing a call needs no kernel. The last choice, "your own
call", shows the call typed in the boxes below; typing needs a kernel (its observers
re-render only that one view); with a kernel, choosing a prepared call copies its index
and dim into those boxes, so the reader edits from it. Every PyTorch and TensorFlow call
here is really run on the CPU; the GPU lines come from the libraries' documentation and
maintainers' issue comments (linked), never run.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import ipywidgets as widgets
import numpy as np

from gatherlab.diagnose import Problem, diagnose
from gatherlab.widgets import _base, _html
from gatherlab.widgets._parse import (
    checked_array,
    format_tensor,
)
from gatherlab.widgets._run import attempt, tensorflow_or_none

DEFAULT_X = [[10, 11, 12], [20, 21, 22]]
VALUE_RULES = ("negative-index", "index-out-of-range")
GPU_VALUE = (
    "PyTorch: an out-of-range position triggers a device-side assert. It is reported "
    "asynchronously, possibly at a later call (CUDA_LAUNCH_BLOCKING=1 makes it "
    "synchronous), and the CUDA context is unusable afterwards: the process must "
    "restart. TensorFlow: the docs of tf.gather and tf.gather_nd say a 0 is stored in "
    "the output, silently."
)
GPU_SOURCES = (
    ("pytorch#2300", "https://github.com/pytorch/pytorch/issues/2300"),
    ("pytorch#38944", "https://github.com/pytorch/pytorch/issues/38944"),
    ("tf.gather API page", "https://www.tensorflow.org/api_docs/python/tf/gather"),
)
GPU_OTHER = (
    "No GPU difference is documented for this rule; only out-of-range positions "
    "behave differently on a GPU."
)
GPU_TITLE = (
    "On a GPU (from the PyTorch / TensorFlow documentation and maintainers' issue "
    "comments, not run here)"
)
OWN_CALL_NOTE = (
    "Used only by the last choice, your own call. In a running notebook, picking a "
    "prepared call copies its index and dim here; on this page the boxes keep their "
    "first value."
)
CALL_CHOICE_WIDTH = "24em"  # the longest call's name shows in full


@dataclass(frozen=True)
class Case:
    """A broken call: how its index is written, the index itself, and the dim."""

    label: str
    index_code: str
    index: np.ndarray
    dim: int = 1


CASES = (
    Case("floating-point index", "torch.tensor([[0., 1.], [1., 2.]])",
         np.array([[0.0, 1.0], [1.0, 2.0]], dtype=np.float32)),
    Case("missing index axis", "torch.tensor([0, 1])", np.array([0, 1])),
    Case("negative index value", "torch.tensor([[0, -1], [1, 2]])",
         np.array([[0, -1], [1, 2]])),
    Case("index beyond the last column", "torch.tensor([[0, 3], [1, 2]])",
         np.array([[0, 3], [1, 2]])),
    Case("too many index rows", "torch.zeros((3, 1), dtype=torch.long)",
         np.zeros((3, 1), dtype=np.int64)),
    Case("int16 index", "torch.tensor([[0, 1], [1, 2]], dtype=torch.int16)",
         np.array([[0, 1], [1, 2]], dtype=np.int16)),
    Case("dim out of range", "torch.tensor([[0, 1], [1, 2]])",
         np.array([[0, 1], [1, 2]]), dim=2),
    Case("empty float index (no checks)", "torch.empty((2, 0, 5))",
         np.empty((2, 0, 5), dtype=np.float32)),
)  # fmt: skip
OWN_CALL = "your own call (edit below)"
DIMS = (0, 1, -1, 2, -3)


@dataclass(frozen=True)
class Fix:
    """One repair: how it reads the index ("" when there is one reading), the code
    that makes it, and the call it leads to with that call's output."""

    reading: str
    steps: tuple[str, ...]
    dim: int
    index: np.ndarray
    output: np.ndarray | None


@dataclass(frozen=True)
class LabResult:
    """Everything the lab shows for one call of ``torch.gather(x, dim, index)``."""

    problems: tuple[Problem, ...]
    torch_output: np.ndarray | None
    torch_error: str
    tf_code: str
    tf_output: np.ndarray | None
    tf_error: str
    fixes: tuple[Fix, ...] = ()


def _fix_once(problem: Problem, x: np.ndarray, dim: int, index: np.ndarray):
    """Repair the first broken rule: ``(what was done, dim, index)``, or None."""
    rule = problem.rule
    if rule == "dim-range":
        why = (
            f"# x has {x.ndim} dims: dim must be 0..{x.ndim - 1} "
            f"(or -{x.ndim}..-1 from the end)"
        )
        return f"{why}\ndim = -1  # the last axis", -1, index
    if rule == "dim-type":
        return "dim = -1  # the last axis", -1, index
    if rule == "index-dtype":
        return "index = index.long()", dim, index.astype(np.int64)
    wrapped = dim % x.ndim
    size = x.shape[wrapped]
    if rule == "rank-mismatch" and index.ndim < x.ndim:
        missing = x.ndim - index.ndim
        grown = index.reshape((1,) * missing + index.shape)
        target = tuple(
            x.shape[d] if d < missing and d != wrapped else grown.shape[d]
            for d in range(x.ndim)
        )
        sizes = ", ".join(str(t) if d < missing else "-1" for d, t in enumerate(target))
        expand = "" if target == grown.shape else f".expand({sizes})"
        step = "index = index" + ".unsqueeze(0)" * missing + expand
        return step, dim, np.broadcast_to(grown, target).copy()
    if rule == "index-too-large":
        cuts = tuple(
            slice(0, min(i, s)) if d != wrapped else slice(None)
            for d, (i, s) in enumerate(zip(index.shape, x.shape, strict=True))
        )
        text = ", ".join(f":{c.stop}" if c.stop is not None else ":" for c in cuts)
        return f"index = index[{text}]", dim, index[cuts]
    if rule == "negative-index":
        if (index < -size).any():
            return None  # not a Python-style position either: see below_python_range
        why = (
            f"# -{size}..-1 become 0..{size - 1}; anything below -{size} stays "
            "negative and still raises"
        )
        step = f"index = torch.where(index < 0, index + {size}, index)"
        return f"{why}\n{step}", dim, np.where(index < 0, index + size, index)
    return None  # a position past the end: only the code that computed it can say


def suggest_fix(x: np.ndarray, dim: int, index: np.ndarray):
    """Repair rule after rule until the call is valid: ``(steps, dim, index)``."""
    import torch

    steps = []
    for _ in range(6):
        problems = diagnose(torch.as_tensor(x), dim, torch.as_tensor(index))
        if not problems:
            return tuple(steps), dim, index
        repaired = _fix_once(problems[0], x, dim, index)
        if repaired is None:
            return None
        step, dim, index = repaired
        steps.append(step)
    return None


def one_per_line(x: np.ndarray, dim: int, index: np.ndarray):
    """The other reading of an index one dim short: one position per line of x
    along ``dim`` (``index.unsqueeze(dim)``): ``(steps, dim, index)``, or None."""
    import torch

    if index.ndim != x.ndim - 1 or not -x.ndim <= dim < x.ndim:
        return None
    wrapped = dim % x.ndim
    grown = np.expand_dims(index, wrapped)
    if diagnose(torch.as_tensor(x), wrapped, torch.as_tensor(grown)):
        return None
    return (f"index = index.unsqueeze({wrapped})",), dim, grown


def reading_names(x: np.ndarray, dim: int) -> tuple[str, str]:
    """Plain names of the two readings of an index one dim short: (one position per
    line, the same positions repeated)."""
    if x.ndim == 2 and dim % 2 == 1:
        return "one position per row", "the same positions (columns) for every row"
    return (
        f"one position per line of x along dim {dim % x.ndim}",
        "the same positions repeated over the missing leading dims",
    )


def repairs(
    x: np.ndarray, dim: int, index: np.ndarray, tf_output: np.ndarray | None
) -> tuple[Fix, ...]:
    """Every repair worth showing: one, or both readings of an index one dim short
    when they differ (the first marked when it is how TensorFlow read the index)."""
    import torch

    def fix(reading: str, repair: tuple) -> Fix:
        steps, fixed_dim, fixed_index = repair
        output, _ = attempt(
            lambda: torch.gather(
                torch.as_tensor(x), fixed_dim, torch.as_tensor(fixed_index)
            )
        )
        return Fix(reading, steps, fixed_dim, fixed_index, output)

    shared = suggest_fix(x, dim, index)
    per_line = one_per_line(x, dim, index)
    if per_line is None or shared is None:
        only = shared or per_line
        return () if only is None else (fix("", only),)
    if np.array_equal(per_line[2], shared[2]):  # both readings build the same index
        return (fix("", per_line),)
    per_line_name, shared_name = reading_names(x, dim)
    per_line_fix = fix(per_line_name, per_line)
    if tf_output is not None and np.array_equal(  # TF's result lacks the new axis
        np.ravel(per_line_fix.output), np.ravel(tf_output)
    ):
        per_line_fix = replace(
            per_line_fix, reading=f"{per_line_name} (as TensorFlow read it above)"
        )
    return per_line_fix, fix(shared_name, shared)


def _tensorflow_call(x: np.ndarray, dim: int, index: np.ndarray) -> tuple[str, Any]:
    """TensorFlow's counterpart of the call: axis = the last axis with every axis
    before it a batch axis; a dim out of range keeps its axis, as torch.gather does."""
    tf = tensorflow_or_none()
    if tf is None:
        return "", None
    last = dim in (x.ndim - 1, -1)
    if not last and -x.ndim <= dim < x.ndim:
        return "", None
    axis, batch_dims = (x.ndim - 1 if last else dim), x.ndim - 1
    code = f"tf.gather(x, index, axis={axis}, batch_dims={batch_dims})"
    return code, lambda: tf.gather(
        tf.constant(x), tf.constant(index), axis=axis, batch_dims=batch_dims
    )


def tensorflow_note(x: np.ndarray, dim: int, index: np.ndarray, ran: bool) -> str:
    """Where TensorFlow's answer needs reading: an axis out of range, or a shorter
    index that TensorFlow accepts and torch.gather refuses."""
    if not -x.ndim <= dim < x.ndim:
        return (
            f"TensorFlow's way of saying axis {dim} is out of range: x has rank "
            f"{x.ndim}, so axis must be in -{x.ndim}..{x.ndim - 1}."
        )
    if ran and index.ndim < x.ndim:
        return (
            f"TensorFlow reads this {index.ndim}-D index with batch_dims={x.ndim - 1} "
            "as one position per row of x (row 0 takes index[0], row 1 index[1], "
            "...); torch.gather refuses it: its index needs as many dims as x."
        )
    return ""


def compute(x: np.ndarray, dim: int, index: np.ndarray) -> LabResult:
    """Diagnose the call, run it in PyTorch and TensorFlow (CPU), and suggest a fix."""
    import torch

    problems = tuple(diagnose(torch.as_tensor(x), dim, torch.as_tensor(index)))
    torch_output, torch_error = attempt(
        lambda: torch.gather(torch.as_tensor(x), dim, torch.as_tensor(index))
    )
    tf_code, tf_call = _tensorflow_call(x, dim, index)
    tf_output, tf_error = attempt(tf_call) if tf_call else (None, "")
    fixes = repairs(x, dim, index, tf_output) if problems else ()
    return LabResult(
        problems, torch_output, torch_error, tf_code, tf_output, tf_error, fixes
    )


def _outcome(output: np.ndarray | None, error: str) -> str:
    if output is None:
        return _html.error(error, "raises")
    return _html.ok("runs") + _html.tensor(output, "out")


def past_the_end(dim: int, index: np.ndarray, problem: Problem) -> str:
    """Why no automatic fix is offered for a position past the end, and what to do."""
    value = "" if problem.where is None else f" {index[problem.where]}"
    return (
        f"No automatic fix: clamping or wrapping the position{value} would turn a loud "
        f"bug into a silent one. Correct the arithmetic that produced{value} (an "
        "off-by-one, a size taken from another tensor), and call "
        f"gl.check_gather(x, {dim}, index) before the gather to stop at the first "
        "bad position."
    )


def below_python_range(x: np.ndarray, dim: int, index: np.ndarray) -> str:
    """Why a position below -size gets no automatic fix, and what to do."""
    size = x.shape[dim % x.ndim]
    return (
        f"No automatic fix: {index.min()} is below -{size}, so it is not a "
        f"Python-style position either (those run from -{size} to -1), and adding "
        f"{size} would leave it negative. Correct the code that produced it; "
        f"gl.check_gather(x, {dim}, index) stops at the first bad position."
    )


def render_fixes(fixes: tuple[Fix, ...]) -> str:
    """The repairs: the code, the call it leads to and what that call returns."""
    parts = []
    if len(fixes) == 2:
        parts.append(
            _html.note(
                "Two readings of this index, two repairs: pick the one that "
                "selects what you meant."
            )
        )
    for fix in fixes:
        fixed_call = (
            f"torch.gather(x, {fix.dim}, torch.tensor({format_tensor(fix.index)}))"
        )
        if fix.reading:
            parts.append(_html.heading(f"Read as {fix.reading}:"))
        parts.append(_html.code_block([*fix.steps, fixed_call]))
        if len(fixes) == 1:
            parts.append(
                _html.note("One possible repair: check it selects what you meant.")
            )
        parts.append(_outcome(fix.output, ""))
    return "".join(parts)


def render(
    x: np.ndarray, dim: int, index: np.ndarray, index_code: str, result: LabResult
) -> str:
    """One broken call, section by section."""
    fault = {p.where: "fault" for p in result.problems if p.where is not None}
    if result.problems:
        rule = _html.problems(result.problems, hints=False)
    elif index.size == 0:
        rule = _html.ok("no rule is broken: an empty index skips every check but dim's")
    else:
        rule = _html.ok("no rule is broken")
    index_table = _html.tensor(index, "index", fault, note=f"dtype {index.dtype}")
    parts = [
        _html.code_block([f"index = {index_code}", f"torch.gather(x, {dim}, index)"]),
        _html.row(_html.tensor(x, "x"), index_table),
        _html.legend("fault") if fault else "",
        _html.heading("The rule (gl.diagnose)"),
        rule,
        _html.heading("PyTorch on the CPU (run here)"),
        _outcome(result.torch_output, result.torch_error),
        _html.heading("TensorFlow on the CPU (run here)"),
    ]
    if result.tf_code:
        ran = result.tf_output is not None
        tf_note = tensorflow_note(x, dim, index, ran)
        parts += [
            _html.code(result.tf_code),
            _outcome(result.tf_output, result.tf_error),
            _html.note(tf_note) if tf_note else "",
        ]
    else:
        parts.append(
            _html.note("No one-call TensorFlow form for this dim (see chapter 3).")
        )
    if result.problems:
        value_rule = result.problems[0].rule in VALUE_RULES
        parts += [
            _html.heading(GPU_TITLE),
            _html.note(GPU_VALUE if value_rule else GPU_OTHER),
            _html.sources(GPU_SOURCES) if value_rule else "",
        ]
        parts.append(_html.heading("A suggested fix"))
        if result.problems[0].hint:
            parts.append(_html.note(f"hint: {result.problems[0].hint}"))
        past_end = [p for p in result.problems if p.rule == "index-out-of-range"]
        if past_end:  # even behind a negative position: no safe automatic fix
            parts.append(_html.note(past_the_end(dim, index, past_end[0])))
        elif result.fixes:
            parts.append(render_fixes(result.fixes))
        elif result.problems[0].rule == "negative-index":
            parts.append(_html.note(below_python_range(x, dim, index)))
        else:
            parts.append(_html.note("No automatic fix for this call."))
    return "".join(parts)


def render_case(x: np.ndarray, case: Case) -> str:
    """The view of one of the prepared broken calls."""
    return render(
        x, case.dim, case.index, case.index_code, compute(x, case.dim, case.index)
    )


def render_own(x: np.ndarray, dim: int, index: np.ndarray, code: str = "") -> str:
    """The view of the reader's own call (``code``: how its index is written)."""
    code = code or f"torch.tensor({format_tensor(index)})"
    return render(x, dim, index, code, compute(x, dim, index))


def error_lab(x: Any = None, index: Any = None, dim: int = 1) -> _base.Explorer:
    """The chapter 4 explorer; ``index`` and ``dim`` start the "your own call" view."""
    x = checked_array(DEFAULT_X if x is None else x, "x")
    own = {
        "index": checked_array([[2, 0], [1, 1]] if index is None else index, "index")
    }
    own["dim"], own["code"] = dim, ""
    case_choice = _base.choice(
        [c.label for c in CASES] + [OWN_CALL], "call", dropdown=True
    )
    case_choice.layout.width = CALL_CHOICE_WIDTH
    prepared = [render_case(x, case) for case in CASES]  # never re-rendered
    views = _base.stack([*prepared, render_own(x, dim, own["index"])])
    status = widgets.HTML("")
    index_box = _base.edit_box("index", format_tensor(own["index"]))
    dim_choice = widgets.Dropdown(options=DIMS, value=dim, description="dim")
    dim_choice.layout.width = "10em"

    copying = {"case": False}  # True while a chosen case is copied into the boxes

    def show_own(select: bool = True) -> None:
        own_view = render_own(x, own["dim"], own["index"], own["code"])
        chosen = len(CASES) if select else case_choice.index
        _base.show_views(views, [*prepared, own_view], chosen)
        case_choice.index = chosen

    def on_index(change: dict) -> None:
        if copying["case"]:
            return
        candidate = _base.read_edit(change["new"], status, own["index"])
        if candidate is None:
            return
        status.value = ""
        own["index"], own["code"] = candidate, ""
        show_own()

    def on_dim(change: dict) -> None:
        if copying["case"]:
            return
        own["dim"] = change["new"]
        show_own()

    def on_case(change: dict) -> None:
        """Copy a prepared call into the boxes (kernel only), so edits start from it."""
        if change["new"] is None or change["new"] >= len(CASES):
            return
        case = CASES[change["new"]]
        own.update(index=case.index, dim=case.dim, code=case.index_code)
        copying["case"] = True
        try:
            index_box.value = format_tensor(case.index)
            dim_choice.value = case.dim
        finally:
            copying["case"] = False
        status.value = ""
        show_own(select=False)

    index_box.observe(on_index, names="value")
    dim_choice.observe(on_dim, names="value")
    case_choice.observe(on_case, names="index")
    return _base.Explorer(
        "error_lab",
        4,
        [
            case_choice,
            views,
            widgets.HTML(_html.heading("Your own call") + _html.note(OWN_CALL_NOTE)),
            widgets.HBox([index_box, dim_choice]),
            status,
            _base.edit_note(),
        ],
        [_base.link(case_choice, views)],
        lambda: (
            f"x {x.shape}, {len(CASES)} broken calls; own call: index "
            f"{format_tensor(own['index'])}, dim {own['dim']}"
        ),
    )

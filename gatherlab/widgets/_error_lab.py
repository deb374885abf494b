"""Chapter 4 explorer: broken gather calls, each with the rule it breaks, what PyTorch
raises, what TensorFlow does on the CPU, what a GPU does, and a suggested fix.

The view diagnoses every call in the browser (the rule, the entry, the fix line) and
copies a chosen call into the boxes, so the reader edits from it. What PyTorch and
TensorFlow say, and the repairs (built and run by PyTorch), are computed here: saved
with the page for the prepared calls, and for a typed call when a kernel runs. Every
PyTorch and TensorFlow call here is really run on the CPU; the GPU lines come from the
libraries' documentation and maintainers' issue comments (linked), never run.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from gatherlab.diagnose import Problem, diagnose
from gatherlab.widgets._base import Explorer, as_json
from gatherlab.widgets._parse import checked_array
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
    "Picking a prepared call copies its index and dim into the boxes; edit them to "
    "make it your own call."
)
NO_KERNEL = (
    "PyTorch's own message and TensorFlow's answer come from the libraries, so they "
    "show here for the prepared calls and, for your own, with a running notebook "
    "(make lab); the rule above is the one PyTorch enforces."
)
NO_KERNEL_FIX = (
    "The repairs are built and run by PyTorch: with a running notebook (make lab) they "
    "show here; the fix line above says what to change."
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

    steps: list[Any] = []
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
    fixed = per_line_fix.output
    if (
        tf_output is not None
        and fixed is not None
        and np.array_equal(np.ravel(fixed), np.ravel(tf_output))  # TF: no new axis
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


def below_python_range(x: np.ndarray, dim: int, index: np.ndarray) -> str:
    """Why a position below -size gets no automatic fix, and what to do."""
    size = x.shape[dim % x.ndim]
    return (
        f"No automatic fix: {index.min()} is below -{size}, so it is not a "
        f"Python-style position either (those run from -{size} to -1), and adding "
        f"{size} would leave it negative. Correct the code that produced it; "
        f"gl.check_gather(x, {dim}, index) stops at the first bad position."
    )


def _outcome(output: np.ndarray | None, error: str) -> dict[str, Any]:
    return {"error": error} if output is None else {"output": as_json(output)}


def library_result(values: dict[str, Any]) -> dict[str, Any]:
    """What PyTorch and TensorFlow do with the call, and the repairs that run."""
    x, dim, index = values["x"], values["dim"], values["index"]
    if x.ndim == 0:
        return {}  # the view's rule says why; nothing here has a dim to repair
    result = compute(x, dim, index)
    entry: dict[str, Any] = {"torch": _outcome(result.torch_output, result.torch_error)}
    if result.tf_code:
        ran = result.tf_output is not None
        entry["tf"] = {
            "code": result.tf_code,
            **_outcome(result.tf_output, result.tf_error),
            "note": tensorflow_note(x, dim, index, ran),
        }
    if result.fixes:
        entry["fixes"] = [
            {
                "reading": fix.reading,
                "steps": list(fix.steps),
                "dim": fix.dim,
                "index": as_json(fix.index),
                **_outcome(fix.output, ""),
            }
            for fix in result.fixes
        ]
    if (
        index.size
        and index.dtype.kind in "iu"
        and (index < -x.shape[dim % x.ndim]).any()
    ):
        entry["below_range"] = below_python_range(x, dim, index)
    return entry


def error_lab(x: Any = None, index: Any = None, dim: int = 1) -> Explorer:
    """The chapter 4 explorer: it opens on the first prepared call, or on "your own
    call" with ``index`` and ``dim`` when an index is given."""
    x = checked_array(DEFAULT_X if x is None else x, "x")
    code = ""
    if index is None:
        index, dim, code = CASES[0].index, CASES[0].dim, CASES[0].index_code
    index = checked_array(index, "index")
    cases = [
        {
            "label": c.label,
            "code": c.index_code,
            "index": as_json(c.index),
            "dim": c.dim,
        }
        for c in CASES
    ]
    spec = {
        "cases": cases,
        "own_label": OWN_CALL,
        "dims": list(DIMS),
        "gpu_title": GPU_TITLE,
        "gpu_value": GPU_VALUE,
        "gpu_other": GPU_OTHER,
        "gpu_sources": [list(s) for s in GPU_SOURCES],
        "no_kernel": NO_KERNEL,
        "no_kernel_fix": NO_KERNEL_FIX,
        "note": OWN_CALL_NOTE,
    }
    return Explorer(
        "error_lab",
        4,
        {"x": x, "index": index, "dim": dim, "code": code},
        spec,
        library_keys=("x", "index", "dim"),
        library=library_result,
        presets=[{"index": c.index, "dim": c.dim} for c in CASES],
    )

"""Which of PyTorch's rules a gather-family call breaks, in plain words.

``diagnose`` mirrors the checks PyTorch 2.13 applies, in the order it applies them, so
the first problem returned names the error the library raises. It never raises itself,
except with ``GATHERLAB_DEBUG=1``, where a bug of its own is re-raised.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from gatherlab._arrays import dtype_name, entry, framework_of, to_numpy
from gatherlab.errors import package_bug
from gatherlab.reference import broadcast_for_take_along_dim

OPS = ("gather", "take_along_dim", "take", "index_select")
# Which index dtypes each op accepts (take_along_dim with dim=None goes through gather).
INDEX_DTYPES = {
    "gather": ("int64", "int32"),
    "index_select": ("int64", "int32"),
    "take_along_dim": ("int64",),
    "take": ("int64",),
}
# The positional order of each op's arguments: PyTorch reports the first bad one.
ARGUMENTS = {
    "gather": ("input", "dim", "index"),
    "index_select": ("input", "dim", "index"),
    "take_along_dim": ("input", "index", "dim"),
    "take": ("input", "index"),
}
FOREIGN_NAMES = {"numpy": "a NumPy array", "tensorflow": "a TensorFlow tensor"}


@dataclass(frozen=True)
class Problem:
    """One broken rule: a stable ``rule`` id, a plain-words ``message``, a ``hint``."""

    rule: str
    message: str
    hint: str = ""
    where: tuple[int, ...] | None = None  # the index coordinate at fault, if one

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}" + (f" ({self.hint})" if self.hint else "")


class RuleError(ValueError):
    """Raised by helpers (trace, guards) for a call that breaks rules; has .problems."""

    def __init__(self, problems: list[Problem]):
        super().__init__("; ".join(p.message for p in problems))
        self.problems = problems


def _is_dim(dim: Any) -> bool:
    """What PyTorch takes as a dim: an int, a NumPy integer, a 0-d integer tensor."""
    if isinstance(dim, (bool, np.bool_)):
        return False
    if isinstance(dim, (int, np.integer)):
        return True
    if framework_of(dim) == "torch":
        import torch

        integer = not (dim.is_floating_point() or dim.is_complex())
        return dim.dim() == 0 and integer and dim.dtype != torch.bool
    return False


def _argument_problem(op: str, name: str, value: Any) -> Problem | None:
    """A Python-level type error: input or index not a tensor, or dim not an int."""
    if name == "dim":
        if _is_dim(value) or (op == "take_along_dim" and value is None):
            return None
        wanted = "an int or None" if op == "take_along_dim" else "an int"
        return Problem(
            "dim-type",
            f"dim must be {wanted}, but got {value!r} ({type(value).__name__})",
            "pass the axis number, e.g. dim=1 (True and 1.0 are refused)",
        )
    kind = framework_of(value)
    if kind == "torch":
        return None
    got = (FOREIGN_NAMES.get(kind) if kind else None) or (
        "None" if value is None else type(value).__name__
    )
    if kind == "numpy":
        hint = f"convert it with torch.from_numpy({name})"
    elif kind == "tensorflow":
        hint = f"convert it with torch.as_tensor({name}.numpy())"
    elif isinstance(value, (list, tuple)):
        hint = f"wrap it with torch.tensor({name})"
    else:
        hint = "pass a torch.Tensor"
    return Problem(
        "not-a-tensor", f"torch.{op} needs torch tensors, but {name} is {got}", hint
    )


def _device_problem(op: str, input: Any, index: Any) -> Problem | None:
    if input.device == index.device:
        return None
    return Problem(
        "device-mismatch",
        f"input is on {input.device} but index is on {index.device}: torch.{op} "
        "needs both on the same device",
        f"move the index with index.to({str(input.device)!r})",
    )


def _dim_problem(dim: Any, ndim: int, scalar_has_dim: bool = True) -> Problem | None:
    """``dim`` must lie in -rank..rank-1; a 0-d input counts as 1-D unless told not."""
    dim = int(dim)
    if ndim == 0 and not scalar_has_dim:
        return Problem(
            "dim-range",
            f"dim {dim} does not exist: the input is 0-d (one value) and has no dims",
            "pass dim=None to work on the flattened input, or reshape it to 1-D",
        )
    rank = max(ndim, 1)
    if -rank <= dim < rank:
        return None
    return Problem(
        "dim-range",
        f"dim {dim} does not exist on a {ndim}-D input: valid dims are "
        f"{-rank}..{rank - 1}",
        "negative dims count from the end: -1 is the last axis",
    )


def _dtype_problem(
    op: str, index: Any, allowed: tuple[str, ...] | None = None
) -> Problem | None:
    name, allowed = dtype_name(index), allowed or INDEX_DTYPES[op]
    if name in allowed:
        return None
    return Problem(
        "index-dtype",
        f"index has dtype {name}, but torch.{op} takes positions as "
        f"{' or '.join(allowed)}",
        "convert with index.long(); positions are whole numbers, never floats or bools",
    )


def _value_problems(
    positions: np.ndarray, size: int, axis_text: str, wrap_negative: bool = False
) -> list[Problem]:
    """Positions outside the valid range: the first negative and the first too large.

    PyTorch names the first bad entry it meets, on CPU the first in row-major order, so
    the two are returned in that order: the first problem is the one the library names.
    """
    low = -size if wrap_negative else 0
    if wrap_negative:
        masks = {"index-out-of-range": (positions < low) | (positions >= size)}
    else:
        masks = {
            "negative-index": positions < 0,
            "index-out-of-range": positions >= size,
        }
    firsts = []
    for kind, mask in masks.items():
        hits = np.argwhere(mask)
        if len(hits):
            firsts.append((tuple(int(c) for c in hits[0]), kind))
    return [
        _position_problem(kind, at, int(positions[at]), size, axis_text, low)
        for at, kind in sorted(firsts)
    ]


def _position_problem(
    kind: str, at: tuple[int, ...], value: int, size: int, axis_text: str, low: int
) -> Problem:
    valid = f"{low}..{size - 1}" if size else "none (it is empty)"
    if kind == "negative-index":
        return Problem(
            kind,
            f"{entry('index', at)} = {value} is negative, but {axis_text} does not "
            f"wrap negative positions: valid positions are {valid}",
            f"write {size + value} for what {value} means in Python"
            if -size <= value
            else "positions count from 0",
            at,
        )
    hint = "positions count from 0, so the last one is size - 1"
    if low < 0:
        hint = f"negative positions count from the end, down to {low} for the first"
    return Problem(
        kind,
        f"{entry('index', at)} = {value}, but {axis_text} has size {size}: valid "
        f"positions are {valid}",
        hint,
        at,
    )


def _shape(tensor: Any) -> tuple[int, ...]:
    """gather treats a 0-d tensor as 1-D with one entry (ATen's ensure_nonempty_dim)."""
    return tuple(tensor.shape) or (1,)


def _gather(input: Any, dim: Any, index: Any) -> list[Problem]:
    problem = _dim_problem(dim, input.dim())
    if problem:
        return [problem]
    if index.numel() == 0:
        return []  # the empty-index exception: PyTorch checks nothing else
    problem = _dtype_problem("gather", index)
    if problem:
        return [problem]
    source_shape, index_shape = _shape(input), _shape(index)
    if len(source_shape) != len(index_shape):
        return [
            Problem(
                "rank-mismatch",
                f"index has {index.dim()} dims but input has {input.dim()}: gather "
                "needs the same number of dims and never adds or broadcasts axes",
                _rank_fix(
                    index.dim(), input.dim(), "then expand it if every row needs it"
                ),
            )
        ]
    wrapped = int(dim) % len(source_shape)
    too_large = [
        Problem(
            "index-too-large",
            f"dim {d} of index has size {i} but dim {d} of input has size {s}: apart "
            f"from dim {wrapped}, index may not be larger than input",
            f"use at most {s} entries along dim {d}",
        )
        for d, (s, i) in enumerate(zip(source_shape, index_shape, strict=True))
        if d != wrapped and i > s
    ]
    if too_large:
        return too_large
    axis_text = f"dim {wrapped} of input" if input.dim() else "the 0-d input"
    return _value_problems(to_numpy(index), source_shape[wrapped], axis_text)


def _rank_fix(index_rank: int, input_rank: int, then: str = "") -> str:
    """Add the missing axis, or remove the extra one: never advise the wrong way."""
    if index_rank > input_rank:
        return "remove the extra axis (squeeze it, or build the index without it)"
    return "add the missing axis with unsqueeze" + (f", {then}" if then else "")


def _take_along_dim(input: Any, index: Any, dim: Any) -> list[Problem]:
    if dim is None:
        for name, tensor in (("input", input), ("indices", index)):
            if not _flattens_as_view(tensor):
                return [
                    Problem(
                        "not-flattenable",
                        f"with dim=None take_along_dim flattens {name} with view(-1), "
                        f"and {name} (shape {list(tensor.shape)}, strides "
                        f"{list(tensor.stride())}) has no flat view",
                        f"pass {name}.contiguous(), or use a dim",
                    )
                ]
        # Then it is gather on the flattened tensors: int32 passes, nothing wraps.
        if index.numel() == 0:
            return []
        problem = _dtype_problem("take_along_dim", index, INDEX_DTYPES["gather"])
        if problem:
            return [problem]
        return _value_problems(to_numpy(index), input.numel(), "the flattened input")
    if input.dim() != index.dim():
        return [
            Problem(
                "rank-mismatch",
                f"indices has {index.dim()} dims but input has {input.dim()}: "
                "take_along_dim broadcasts sizes, never the number of dims",
                _rank_fix(index.dim(), input.dim()),
            )
        ]
    problem = _dtype_problem("take_along_dim", index) or _dim_problem(
        dim, input.dim(), scalar_has_dim=False
    )
    if problem:
        return [problem]
    wrapped = int(dim) % input.dim()
    # ATen's infer_size walks the dims from the last, so it names the last mismatch.
    for d in reversed(range(input.dim())):
        s, i = input.shape[d], index.shape[d]
        if d != wrapped and s != i and 1 not in (s, i):
            return [
                Problem(
                    "broadcast-mismatch",
                    f"dim {d} has size {s} in input and {i} in indices: "
                    f"take_along_dim broadcasts every dim except dim {wrapped}, and "
                    "these sizes do not broadcast",
                    "make one of them 1, or make them equal",
                )
            ]
    _, index_to = broadcast_for_take_along_dim(input.shape, index.shape, wrapped)
    if input.shape[wrapped] == 0 and math.prod(index_to):
        return [
            Problem(
                "empty-input",
                f"dim {wrapped} of input has size 0, so there is no position to take "
                "(PyTorch wraps positions modulo that size and fails dividing by 0)",
                "check the input's shape before taking from it",
            )
        ]
    return []


def _flattens_as_view(tensor: Any) -> bool:
    """Whether ``tensor.view(-1)`` works; transposed or expanded layouts have none."""
    try:
        tensor.view(-1)
    except RuntimeError:
        return False
    return True


def _take(input: Any, index: Any) -> list[Problem]:
    problem = _dtype_problem("take", index)
    if problem:
        return [problem]
    if index.numel() == 0:
        return []
    if input.numel() == 0:
        return [
            Problem(
                "empty-input",
                "input has no elements, so take has nothing to return",
                "check the input's shape before taking from it",
            )
        ]
    return _value_problems(
        to_numpy(index), input.numel(), "the flattened input", wrap_negative=True
    )


def _index_select(input: Any, dim: Any, index: Any) -> list[Problem]:
    problem = _dim_problem(dim, input.dim())
    if problem:
        return [problem]
    if index.dim() > 1:
        return [
            Problem(
                "index-not-vector",
                f"index has {index.dim()} dims, but index_select takes one shared "
                "list of positions (a 1-D index) for every row",
                "for per-row positions use gather or take_along_dim",
            )
        ]
    if input.dim() == 0 and index.numel() != 1:
        return [
            Problem(
                "scalar-index-count",
                f"input is 0-d (one value), so index must hold exactly one position, "
                f"but it holds {index.numel()}",
                "use index torch.tensor([0]) on a 0-d input",
            )
        ]
    problem = _dtype_problem("index_select", index)
    if problem:
        return [problem]
    wrapped = int(dim) % max(input.dim(), 1)
    size = input.shape[wrapped] if input.dim() else 1
    if size == 0 and index.numel() and input.dim() > 1:  # 1-D: out of range, below
        return [
            Problem(
                "empty-input",
                f"dim {wrapped} of input has size 0, so there is no position to select",
                "check the input's shape before selecting from it",
            )
        ]
    axis_text = f"dim {wrapped} of input" if input.dim() else "the 0-d input"
    return _value_problems(to_numpy(index), size, axis_text)


def diagnose(input: Any, dim: Any, index: Any, op: str = "gather") -> list[Problem]:
    """The rules ``torch.<op>(input, dim, index)`` breaks; an empty list means it runs.

    For ``take`` pass ``dim=None`` (it is ignored). Never raises: odd arguments are
    reported as problems.
    """
    try:
        if op not in OPS:
            return [
                Problem("unknown-op", f"op must be one of {', '.join(OPS)}; got {op!r}")
            ]
        values = {"input": input, "dim": dim, "index": index}
        for name in ARGUMENTS[op]:
            problem = _argument_problem(op, name, values[name])
            if problem:
                return [problem]
        problem = _device_problem(op, input, index)
        if problem:
            return [problem]
        if op == "gather":
            return _gather(input, dim, index)
        if op == "take_along_dim":
            return _take_along_dim(input, index, dim)
        if op == "take":
            return _take(input, index)
        return _index_select(input, dim, index)
    except Exception as error:  # odd arguments are problems above; this is a bug
        return [
            Problem("unexpected", f"could not check this call: {package_bug(error)}")
        ]

"""Which of PyTorch's rules a gather-family call breaks, in plain words.

``diagnose`` mirrors the checks PyTorch 2.13 applies, in the order it applies them, so the
first problem returned names the error the library raises. It never raises itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from gatherlab._arrays import coord, framework_of, to_numpy

OPS = ("gather", "take_along_dim", "take", "index_select")
INT_DTYPES = {"gather": ("int64", "int32"), "index_select": ("int64", "int32")}


@dataclass(frozen=True)
class Problem:
    """One broken rule: a stable ``rule`` id, a plain-words ``message`` and a ``hint``."""

    rule: str
    message: str
    hint: str = ""
    where: tuple[int, ...] | None = None  # the index coordinate at fault, if one

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}" + (f" ({self.hint})" if self.hint else "")


class RuleError(ValueError):
    """Raised by helpers (trace, guards) when a call breaks rules; carries the problems."""

    def __init__(self, problems: list[Problem]):
        super().__init__("; ".join(p.message for p in problems))
        self.problems = problems


def _dtype_name(value: Any) -> str:
    return str(value.dtype).replace("torch.", "")


def _type_problems(op: str, input: Any, index: Any) -> list[Problem]:
    problems = []
    for name, value in (("input", input), ("index", index)):
        kind = framework_of(value)
        if kind != "torch":
            got = "None" if value is None else type(value).__name__
            hint = f"wrap it with torch.as_tensor({name})" if kind or isinstance(
                value, (list, tuple)
            ) else "pass a torch.Tensor"
            problems.append(
                Problem(
                    "not-a-tensor",
                    f"torch.{op} needs torch tensors, but {name} is {got}",
                    hint,
                )
            )
    return problems


def _dim_problem(dim: Any, ndim: int) -> Problem | None:
    rank = max(ndim, 1)
    if isinstance(dim, bool) or not isinstance(dim, (int, np.integer)):
        return Problem("dim-type", f"dim must be an int, got {dim!r}")
    if not -rank <= dim < rank:
        return Problem(
            "dim-range",
            f"dim {dim} does not exist on a {ndim}-D input: valid dims are "
            f"{-rank}..{rank - 1}",
            "negative dims count from the end: -1 is the last axis",
        )
    return None


def _dtype_problem(op: str, index: Any, allowed: tuple[str, ...]) -> Problem | None:
    name = _dtype_name(index)
    if name in allowed:
        return None
    wanted = " or ".join(allowed)
    return Problem(
        "index-dtype",
        f"index has dtype {name}, but torch.{op} takes positions as {wanted}",
        "convert with index.long(); positions are whole numbers, never floats",
    )


def _value_problems(
    positions: np.ndarray, size: int, dim_text: str, wrap_negative: bool = False
) -> list[Problem]:
    """Negative and too-large positions, each reported at its first coordinate."""
    problems = []
    low = -size if wrap_negative else 0
    negative = np.argwhere(positions < low)
    if len(negative) and not wrap_negative:
        at = tuple(int(c) for c in negative[0])
        value = int(positions[at])
        problems.append(
            Problem(
                "negative-index",
                f"index[{coord(at)}] = {value} is negative, but {dim_text} does not "
                f"wrap negative positions: valid positions are 0..{size - 1}",
                f"write {size + value} for the position {value} would mean in Python"
                if -size <= value < 0
                else "",
                at,
            )
        )
    too_far = np.argwhere((positions >= size) | (positions < low if wrap_negative else False))
    if len(too_far):
        at = tuple(int(c) for c in too_far[0])
        valid = f"{low}..{size - 1}" if size else "none (the axis is empty)"
        problems.append(
            Problem(
                "index-out-of-range",
                f"index[{coord(at)}] = {int(positions[at])}, but {dim_text} has size "
                f"{size}: valid positions are {valid}",
                "positions count from 0, so the last one is size - 1",
                at,
            )
        )
    return problems


def _gather_shape_problems(source: tuple, index: tuple, dim: int) -> list[Problem]:
    source_rank, index_rank = max(len(source), 1), max(len(index), 1)
    if source_rank != index_rank:
        return [
            Problem(
                "rank-mismatch",
                f"index has {len(index)} dims but input has {len(source)}: gather "
                "needs the same number of dims and never adds or broadcasts axes",
                "add the missing axis with unsqueeze, then expand it if every row "
                "needs it",
            )
        ]
    problems = []
    for d, (s, i) in enumerate(zip(source, index, strict=True)):
        if d != dim and i > s:
            problems.append(
                Problem(
                    "index-too-large",
                    f"dim {d} of index has size {i} but dim {d} of input has size "
                    f"{s}: apart from dim {dim}, index may not be larger than input",
                    f"use at most {s} entries along dim {d}",
                )
            )
    return problems


def _device_problem(op: str, input: Any, index: Any) -> Problem | None:
    if input.device == index.device:
        return None
    return Problem(
        "device-mismatch",
        f"input is on {input.device} but index is on {index.device}: torch.{op} "
        "needs both on the same device",
        f"move the index with index.to({str(input.device)!r})",
    )


def _gather(input: Any, dim: Any, index: Any, op: str = "gather") -> list[Problem]:
    problem = _dim_problem(dim, input.dim())
    if problem:
        return [problem]
    if index.numel() == 0:
        return []  # the empty-index exception: PyTorch checks nothing else
    problem = _dtype_problem(op, index, INT_DTYPES["gather"])
    if problem:
        return [problem]
    wrapped = dim % max(input.dim(), 1)
    problems = _gather_shape_problems(tuple(input.shape), tuple(index.shape), wrapped)
    if problems:
        return problems
    size = input.shape[wrapped] if input.dim() else 1
    return _value_problems(to_numpy(index), size, f"dim {wrapped} of input")


def _take_along_dim(input: Any, dim: Any, index: Any) -> list[Problem]:
    if input.dim() != index.dim():
        return [
            Problem(
                "rank-mismatch",
                f"indices has {index.dim()} dims but input has {input.dim()}: "
                "take_along_dim broadcasts sizes, never the number of dims",
                "add the missing axis with unsqueeze",
            )
        ]
    if dim is None:
        flat_input, flat_index = input.reshape(-1), index.reshape(-1)
        return _gather(flat_input, 0, flat_index, op="take_along_dim")
    if _dtype_name(index) != "int64":
        return [_dtype_problem("take_along_dim", index, ("int64",))]
    problem = _dim_problem(dim, input.dim())
    if problem:
        return [problem]
    wrapped = dim % max(input.dim(), 1)
    for d, (s, i) in enumerate(zip(input.shape, index.shape, strict=True)):
        if d != wrapped and s != i and 1 not in (s, i):
            return [
                Problem(
                    "broadcast-mismatch",
                    f"dim {d} has size {s} in input and {i} in indices: take_along_dim "
                    "broadcasts every dim except dim, and these sizes do not broadcast",
                    "make one of them 1, or equal",
                )
            ]
    if input.shape[wrapped] == 0 and index.numel():
        return [
            Problem(
                "index-out-of-range",
                f"dim {wrapped} of input is empty, so there is nothing to select",
            )
        ]
    return []


def _take(input: Any, index: Any) -> list[Problem]:
    if _dtype_name(index) != "int64":
        return [_dtype_problem("take", index, ("int64",))]
    if index.numel() == 0:
        return []
    if input.numel() == 0:
        return [
            Problem(
                "index-out-of-range",
                "input is empty, so take has no element to return",
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
    problem = _dtype_problem("index_select", index, INT_DTYPES["index_select"])
    if problem:
        return [problem]
    wrapped = dim % max(input.dim(), 1)
    if input.dim() == 0 and index.numel() > 1:
        return [
            Problem(
                "index-out-of-range",
                f"a 0-d input has one value, but index asks for {index.numel()}",
            )
        ]
    size = input.shape[wrapped] if input.dim() else 1
    return _value_problems(to_numpy(index).reshape(-1), size, f"dim {wrapped} of input")


def diagnose(input: Any, dim: Any, index: Any, op: str = "gather") -> list[Problem]:
    """The rules ``torch.<op>(input, dim, index)`` breaks; an empty list means it runs.

    For ``take`` pass ``dim=None``. Never raises: odd arguments are reported as problems.
    """
    try:
        if op not in OPS:
            return [Problem("unknown-op", f"op must be one of {', '.join(OPS)}; got {op!r}")]
        problems = _type_problems(op, input, index)
        if problems:
            return problems
        problem = _device_problem(op, input, index)
        if problem:
            return [problem]
        if op == "gather":
            return _gather(input, dim, index)
        if op == "take_along_dim":
            return _take_along_dim(input, dim, index)
        if op == "take":
            return _take(input, index)
        return _index_select(input, dim, index)
    except Exception as error:  # a diagnosis must never be the thing that crashes
        return [Problem("unexpected", f"could not check this call: {error!r}")]

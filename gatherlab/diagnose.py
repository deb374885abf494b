"""Which of PyTorch's rules a gather-family call breaks, in plain words.

``diagnose`` mirrors the checks PyTorch 2.13 applies, in the order it applies them, so
the first problem returned names the error the library raises. It never raises itself,
except with ``GATHERLAB_DEBUG=1``, where a bug of its own is re-raised.

The words are data (``gatherlab.rules``: ``browser/rules.mjs``, which the browser's
copy of these checks, ``browser/explorers/core.mjs``, imports too);
:func:`rule_problem` words a problem from its templates.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from gatherlab import rules
from gatherlab._arrays import (
    broadcast_for_take_along_dim,
    dtype_name,
    entry,
    framework_of,
    to_numpy,
    wrap_dim,
)
from gatherlab.errors import package_bug

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


def rule_problem(
    rule: str,
    message: str,
    hint: str = "",
    where: tuple[int, ...] | None = None,
    /,
    **fields: Any,
) -> Problem:
    """The ``Problem`` for ``rule`` worded by its ``message`` and ``hint`` templates."""
    return Problem(
        rule,
        rules.message(rule, message, **fields),
        rules.hint(rule, hint, **fields) if hint else "",
        where,
    )


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
        return rule_problem(
            "dim-type",
            "int-or-none" if op == "take_along_dim" else "int",
            "dim-type",
            value=repr(value),
            type=type(value).__name__,
        )
    kind = framework_of(value)
    if kind == "torch":
        return None
    got = (FOREIGN_NAMES.get(kind) if kind else None) or (
        "None" if value is None else rules.with_article(type(value).__name__)
    )
    if kind in ("numpy", "tensorflow"):
        hint = kind
    else:
        hint = "sequence" if isinstance(value, (list, tuple)) else "other"
    return rule_problem("not-a-tensor", "not-a-tensor", hint, op=op, name=name, got=got)


def _device_problem(op: str, input: Any, index: Any) -> Problem | None:
    if input.device == index.device:
        return None
    return rule_problem(
        "device-mismatch",
        "device-mismatch",
        "device-mismatch",
        input_device=input.device,
        index_device=index.device,
        op=op,
        device=repr(str(input.device)),
    )


def _dim_problem(dim: Any, ndim: int, scalar_has_dim: bool = True) -> Problem | None:
    """``dim`` must lie in -rank..rank-1; a 0-d input counts as 1-D unless told not."""
    dim = int(dim)
    if ndim == 0 and not scalar_has_dim:
        return rule_problem("dim-range", "no-dims", "no-dims", dim=dim)
    rank = max(ndim, 1)
    if -rank <= dim < rank:
        return None
    # one past the last: the last dim counted from 1 (R's torch numbers dims so)
    words = "one-past" if dim == ndim else "out-of-range"
    return rule_problem(
        "dim-range",
        words,
        words,
        dim=dim,
        ndim=ndim,
        low=-rank,
        high=rank - 1,
    )


def _dtype_problem(
    op: str, index: Any, allowed: tuple[str, ...] | None = None
) -> Problem | None:
    name, allowed = dtype_name(index), allowed or INDEX_DTYPES[op]
    if name in allowed:
        return None
    return rule_problem(
        "index-dtype",
        "index-dtype",
        "index-dtype",
        dtype=name,
        op=op,
        allowed=rules.phrase("or").join(allowed),
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
    valid = (
        rules.phrase("valid-range", low=low, high=size - 1)
        if size
        else rules.phrase("no-valid-position")
    )
    fields = {"entry": entry("index", at), "value": value, "axis": axis_text}
    if kind == "negative-index":
        hint = "in-python" if -size <= value else "from-zero"
        return rule_problem(
            kind, kind, hint, at, **fields, valid=valid, fixed=size + value
        )
    hint = "from-end" if low < 0 else "from-zero"
    return rule_problem(kind, kind, hint, at, **fields, size=size, valid=valid, low=low)


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
            rule_problem(
                "rank-mismatch",
                # fewer dims: the index read as whole slices (tf.gather, index_select)
                "gather-fewer" if len(index_shape) < len(source_shape) else "gather",
                _rank_fix(index.dim(), input.dim(), "add-then-expand"),
                index_rank=index.dim(),
                input_rank=input.dim(),
            )
        ]
    wrapped = int(dim) % len(source_shape)
    too_large = [
        rule_problem(
            "index-too-large",
            "index-too-large",
            "index-too-large",
            axis=d,
            index_size=i,
            input_size=s,
            dim=wrapped,
        )
        for d, (s, i) in enumerate(zip(source_shape, index_shape, strict=True))
        if d != wrapped and i > s
    ]
    if too_large:
        return too_large
    return _value_problems(
        to_numpy(index), source_shape[wrapped], _axis_text(input.dim(), wrapped)
    )


def _axis_text(ndim: int, dim: int) -> str:
    return (
        rules.phrase("dim-of-input", dim=dim) if ndim else rules.phrase("scalar-input")
    )


def _rank_fix(index_rank: int, input_rank: int, add: str = "add") -> str:
    """The hint that adds the missing axis, or removes the extra one: never the wrong
    way round (``add`` names the adding hint)."""
    return "remove" if index_rank > input_rank else add


def _take_along_dim(input: Any, index: Any, dim: Any) -> list[Problem]:
    if dim is None:
        for name, tensor in (("input", input), ("indices", index)):
            if not _flattens_as_view(tensor):
                return [
                    rule_problem(
                        "not-flattenable",
                        "not-flattenable",
                        "not-flattenable",
                        name=name,
                        shape=list(tensor.shape),
                        strides=list(tensor.stride()),
                    )
                ]
        # Then it is gather on the flattened tensors: int32 passes, nothing wraps.
        if index.numel() == 0:
            return []
        problem = _dtype_problem("take_along_dim", index, INDEX_DTYPES["gather"])
        if problem:
            return [problem]
        return _value_problems(
            to_numpy(index), input.numel(), rules.phrase("flattened-input")
        )
    if input.dim() != index.dim():
        return [
            rule_problem(
                "rank-mismatch",
                "take_along_dim",
                _rank_fix(index.dim(), input.dim()),
                index_rank=index.dim(),
                input_rank=input.dim(),
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
                rule_problem(
                    "broadcast-mismatch",
                    "broadcast-mismatch",
                    "broadcast-mismatch",
                    axis=d,
                    input_size=s,
                    index_size=i,
                    dim=wrapped,
                )
            ]
    _, index_to = broadcast_for_take_along_dim(input.shape, index.shape, wrapped)
    if input.shape[wrapped] == 0 and math.prod(index_to):
        return [rule_problem("empty-input", "take_along_dim", "take", dim=wrapped)]
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
        return [rule_problem("empty-input", "take", "take")]
    return _value_problems(
        to_numpy(index),
        input.numel(),
        rules.phrase("flattened-input"),
        wrap_negative=True,
    )


def _index_select(input: Any, dim: Any, index: Any) -> list[Problem]:
    problem = _dim_problem(dim, input.dim())
    if problem:
        return [problem]
    if index.dim() > 1:
        return [
            rule_problem(
                "index-not-vector",
                "index-not-vector",
                "index-not-vector",
                rank=index.dim(),
            )
        ]
    if input.dim() == 0 and index.numel() != 1:
        return [
            rule_problem(
                "scalar-index-count",
                "scalar-index-count",
                "scalar-index-count",
                count=index.numel(),
            )
        ]
    problem = _dtype_problem("index_select", index)
    if problem:
        return [problem]
    wrapped = int(dim) % max(input.dim(), 1)
    size = input.shape[wrapped] if input.dim() else 1
    if size == 0 and index.numel() and input.dim() > 1:  # 1-D: out of range, below
        return [rule_problem("empty-input", "index_select", "select", dim=wrapped)]
    return _value_problems(to_numpy(index), size, _axis_text(input.dim(), wrapped))


def scatter_problems(input: Any, dim: Any, index: Any, src: Any) -> list[Problem]:
    """The first rule ``input.scatter_(dim, index, src)`` breaks (``[]``: it runs), in
    the order ``gl.reference.scatter_writes`` checks them; a Python number as src is
    written at every position of index (scatter.mjs's ``scatterProblems``)."""
    target, positions = np.atleast_1d(to_numpy(input)), to_numpy(index)
    fields: dict[str, Any]
    scalar = isinstance(src, (int, float))
    values = to_numpy(src)
    if positions.size == 0:  # torch writes nothing and checks only src's dtype
        if scalar or values.dtype == target.dtype:
            return []
        fields = {"src_dtype": values.dtype, "input_dtype": target.dtype}
        return [rule_problem("src-dtype", "scatter", "", **fields)]
    if positions.dtype.kind not in "iu":
        return [rule_problem("index-dtype", "scatter", "", dtype=positions.dtype)]
    if not scalar and values.dtype != target.dtype:
        fields = {"src_dtype": values.dtype, "input_dtype": target.dtype}
        return [rule_problem("src-dtype", "scatter", "", **fields)]
    if positions.ndim == 1 and positions.shape[0] == target.ndim >= 2:
        # one entry per dim of input: a (row, column) coordinate, which no index is
        fields = {"input_rank": target.ndim}
        return [rule_problem("rank-mismatch", "scatter-coordinate", "", **fields)]
    if scalar and positions.ndim != target.ndim:
        fields = {"index_rank": positions.ndim, "input_rank": target.ndim}
        return [rule_problem("rank-mismatch", "scatter-value", "", **fields)]
    if not scalar and values.ndim == 0 and positions.ndim == target.ndim:
        fields = {"index_rank": positions.ndim}
        return [rule_problem("rank-mismatch", "scatter-0d-src", "", **fields)]
    if positions.ndim != target.ndim or (not scalar and values.ndim != target.ndim):
        fields = {
            "index_rank": positions.ndim,
            "input_rank": target.ndim,
            "src_rank": values.ndim,
        }
        return [rule_problem("rank-mismatch", "scatter", "", **fields)]
    along = wrap_dim(int(dim), target.ndim)
    for d, size in enumerate(positions.shape):
        if not scalar and size > values.shape[d]:
            fields = {"axis": d, "index_size": size, "src_size": values.shape[d]}
            return [rule_problem("index-larger-than-src", "scatter", "", **fields)]
        if d != along and size > target.shape[d]:
            fields = {
                "axis": d,
                "index_size": size,
                "input_size": target.shape[d],
                "dim": along,
            }
            return [rule_problem("index-larger-than-input", "scatter", "", **fields)]
    limit = target.shape[along]
    for coord in np.ndindex(positions.shape):
        position = int(positions[coord])
        if not 0 <= position < limit:
            fields = {
                "entry": entry("index", coord),
                "value": position,
                "high": limit - 1,
            }
            return [rule_problem("index-out-of-range", "outside", "", coord, **fields)]
    return []


def diagnose(input: Any, dim: Any, index: Any, op: str = "gather") -> list[Problem]:
    """The rules ``torch.<op>(input, dim, index)`` breaks; an empty list means it runs.

    For ``take`` pass ``dim=None`` (it is ignored). Never raises: odd arguments are
    reported as problems.
    """
    try:
        if op not in OPS:
            return [
                rule_problem(
                    "unknown-op", "unknown-op", ops=", ".join(OPS), op=repr(op)
                )
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
        return [rule_problem("unexpected", "unexpected", error=package_bug(error))]

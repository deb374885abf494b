"""A guard to leave in front of a gather-family call: it raises before PyTorch would.

``check_gather`` reports the broken rule in :func:`gatherlab.diagnose`'s plain words,
and also catches what PyTorch accepts silently: take_along_dim's wrap of out-of-range
positions and, on request, an index that covers only part of the input.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gatherlab._arrays import entry, framework_of, to_numpy, wrap_dim
from gatherlab.diagnose import Problem, RuleError, diagnose, rule_problem


def _without_values(tensor: Any, shape: tuple[int, ...] | None = None) -> Any:
    """A CPU stand-in with ``tensor``'s dtype (and ``shape``, default its own), all 0.

    ``expand`` shares one element: nothing is copied from the device or waits for it.
    """
    import torch

    return torch.zeros((), dtype=tensor.dtype).expand(
        tensor.shape if shape is None else shape
    )


def _small_gather_shapes(
    input_shape: tuple[int, ...], index_shape: tuple[int, ...], dim: Any
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Shapes with sizes 0..2 that break exactly the gather rules the real ones break.

    Only three facts about a pair of sizes matter: one is 0, the index fits, or it is
    larger (off ``dim``); so the check of all-zero stand-ins costs O(1), not O(index).
    """
    small_input = tuple(min(s, 1) for s in input_shape)
    try:
        wrapped = wrap_dim(int(dim), len(input_shape))
    except (TypeError, ValueError, IndexError):
        wrapped = None  # diagnose reports the dim before it looks at any shape
    if wrapped is None or len(input_shape) != len(index_shape):
        return small_input, tuple(min(i, 1) for i in index_shape)
    small_index = tuple(
        min(i, 1) if d == wrapped else 0 if i == 0 else 1 if i <= s else 2
        for d, (s, i) in enumerate(zip(input_shape, index_shape, strict=True))
    )
    return small_input, small_index


def _structure_problems(input: Any, dim: Any, index: Any, op: str) -> list[Problem]:
    """diagnose's rules on types, devices, dim, dtype and shapes, without the values."""
    if framework_of(input) != "torch" or framework_of(index) != "torch":
        return diagnose(input, dim, index, op)
    if input.device != index.device:
        # diagnose checks devices first, so one-element stand-ins report the mismatch.
        return diagnose(input.new_zeros(()), dim, index.new_zeros(()), op)
    if op == "take_along_dim" and dim is None:
        return diagnose(input, dim, index, op)  # flattening depends on the real strides
    if op == "gather":
        small_input, small_index = _small_gather_shapes(input.shape, index.shape, dim)
        small = diagnose(
            _without_values(input, small_input),
            dim,
            _without_values(index, small_index),
        )
        if not small:
            return []
    # Full-size stand-ins: the exact sizes for the message (gather: only on failure).
    return diagnose(_without_values(input), dim, _without_values(index), op)


def _partial_cover_problems(input: Any, dim: int, index: Any) -> list[Problem]:
    """gather accepts an index smaller than input off ``dim`` and ignores the rest."""
    wrapped = dim % max(input.dim(), 1)
    return [
        rule_problem(
            "index-smaller",
            "index-smaller",
            "index-smaller",
            axis=d,
            index_size=i,
            input_size=s,
        )
        for d, (s, i) in enumerate(zip(input.shape, index.shape, strict=True))
        if d != wrapped and i < s
    ]


def _wrap_problem(input: Any, dim: int, index: Any) -> Problem:
    """The first position take_along_dim would silently wrap into range."""
    size = input.shape[dim]
    positions = to_numpy(index)
    at = tuple(int(c) for c in np.argwhere((positions < 0) | (positions >= size))[0])
    value = int(positions[at])
    return rule_problem(
        "wrapped-index",
        "wrapped-index",
        "wrapped-index",
        at,
        entry=entry("index", at),
        value=value,
        high=size - 1,
        used=value % size,
    )


def _value_problems(input: Any, dim: Any, index: Any, op: str) -> list[Problem]:
    """Bounds from one min/max reduction; the full diagnosis only when they fail."""
    if index.numel() == 0:
        return []
    lowest, highest = (int(v) for v in index.aminmax())
    if op == "take":
        low, size = -input.numel(), input.numel()
    elif op == "take_along_dim" and dim is None:
        low, size = 0, input.numel()
    else:
        low, size = 0, input.shape[dim] if input.dim() else 1
    if low <= lowest and highest < size:
        return []
    if op == "take_along_dim" and dim is not None:
        return [_wrap_problem(input, dim % input.dim(), index)]
    return diagnose(input, dim, index, op)


def check_gather(
    input: Any,
    dim: int | None,
    index: Any,
    *,
    op: str = "gather",
    values: bool = True,
    same_sizes: bool = False,
) -> None:
    """Raise :class:`gatherlab.RuleError` if ``torch.<op>(input, dim, index)`` is wrong.

    Shapes, dtypes and devices are checked from metadata. ``values=True`` adds a bounds
    check (one min/max, a device sync on GPU); ``same_sizes=True`` (gather only) also
    refuses an index smaller than input off ``dim``, which gather would accept.
    """
    problems = _structure_problems(input, dim, index, op)
    if not problems and same_sizes and op == "gather" and index.numel():
        assert dim is not None  # gather always has a dim
        problems = _partial_cover_problems(input, dim, index)
    if not problems and values:
        problems = _value_problems(input, dim, index, op)
    if problems:
        raise RuleError(problems)


def assert_index_fits(source: Any, dim: int, index: Any) -> None:
    """Assert what gather leaves unchecked: full sizes off ``dim``, valid positions.

    The two asserts to write next to a gather call. Sizes come from ``source``, so an
    index made for a smaller batch fails; an empty index has no position to check.
    Written as ``raise AssertionError`` so that ``python -O`` cannot remove them.
    """
    if index.dim() != source.dim():
        raise AssertionError(f"index has {index.dim()} dims, input {source.dim()}")
    dim = wrap_dim(dim, source.dim())
    for axis in range(source.dim()):
        have, want = index.size(axis), source.size(axis)
        if axis != dim and have != want:
            raise AssertionError(f"dim {axis}: index size {have}, input size {want}")
    if index.numel() == 0:
        return
    low, high = (int(value) for value in index.aminmax())
    if low < 0 or high >= source.size(dim):
        raise AssertionError(
            f"positions {low}..{high}, valid 0..{source.size(dim) - 1}"
        )

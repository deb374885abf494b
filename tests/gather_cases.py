"""Generated gather-family calls, valid and deliberately broken, for the property tests.

One strategy, ``calls()``, draws an op, an input of rank 1-4 (size-1 and some size-0
axes), a dim (negative too) and an index built to be valid, then maybe breaks one thing:
a negative or too-large position, the dtype, the rank, a too-large size, the dim, an
empty index, or a transposed input.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch
from hypothesis import strategies as st

OPS = ("gather", "take_along_dim", "take", "index_select")
MUTATIONS = (
    "valid",
    "negative",
    "too-large",
    "dtype",
    "rank",
    "bigger-index",
    "empty",
    "dim-out-of-range",
    "transposed",
)
BAD_DTYPES = (torch.int32, torch.int16, torch.uint8, torch.float32, torch.bool)
# Axis sizes: mostly 1-4, sometimes 0.
SIZES = st.sampled_from((1, 2, 3, 4) * 3 + (0,))


@dataclass
class Call:
    """One call ``torch.<op>(input, dim, index)``; ``run`` makes it with PyTorch."""

    op: str
    input: torch.Tensor
    dim: int | None
    index: torch.Tensor
    mutation: str

    def run(self) -> torch.Tensor:
        if self.op == "take":
            return torch.take(self.input, self.index)
        if self.op == "take_along_dim":
            return torch.take_along_dim(self.input, self.index, self.dim)
        return getattr(torch, self.op)(self.input, self.dim, self.index)

    def __repr__(self) -> str:
        return (
            f"Call({self.op}, input={list(self.input.shape)} strides "
            f"{self.input.stride()}, dim={self.dim}, index={self.index.tolist()} "
            f"{self.index.dtype}, mutation={self.mutation})"
        )


def _positions(
    rng: np.random.Generator, shape: tuple, low: int, high: int
) -> np.ndarray:
    """Random positions in low..high-1 (zeros when that range is empty)."""
    if high <= low:
        return np.zeros(shape, dtype=np.int64)
    return rng.integers(low, high, size=shape, dtype=np.int64)


def _index_shape(draw, op: str, shape: tuple, dim: int | None) -> tuple:
    if op == "index_select":
        return draw(st.sampled_from([(), (0,), (1,), (2,), (3,), (5,)]))
    if op == "take" or dim is None:
        return tuple(
            draw(st.lists(SIZES, min_size=0 if op == "take" else 1, max_size=3))
        )
    sizes = []
    for d, size in enumerate(shape):
        if d == dim % len(shape):
            sizes.append(draw(st.integers(1, 4)))
        elif op == "gather":
            sizes.append(draw(st.sampled_from((size, size, max(size - 1, 0)))))
        else:  # take_along_dim broadcasts: equal, 1, or something else
            sizes.append(draw(st.sampled_from((size, size, 1, 2))))
    return tuple(sizes)


def _valid_range(op: str, shape: tuple, dim: int | None) -> tuple[int, int]:
    """The positions PyTorch accepts (take_along_dim with a dim wraps every one)."""
    numel = int(np.prod(shape))
    if op == "take":
        return -numel, numel
    if dim is None:
        return 0, numel
    size = shape[dim % len(shape)]
    if op == "take_along_dim":
        return -2 * size, 2 * size + 1
    return 0, size


@st.composite
def calls(
    draw, ops: tuple[str, ...] = OPS, mutations: tuple[str, ...] = MUTATIONS
) -> Call:
    """A gather-family call, valid or broken in one drawn way."""
    op = draw(st.sampled_from(ops))
    mutation = draw(st.sampled_from(mutations))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    shape = tuple(draw(st.lists(SIZES, min_size=1, max_size=4)))
    rank = len(shape)
    dim = draw(st.integers(-rank, rank - 1))
    if op == "take" or (op == "take_along_dim" and draw(st.integers(0, 4)) == 0):
        dim = None
    index_shape = _index_shape(draw, op, shape, dim)
    index = _positions(rng, index_shape, *_valid_range(op, shape, dim))
    input = torch.as_tensor(rng.integers(-99, 100, size=shape))
    size = shape[dim % rank] if dim is not None else int(np.prod(shape))

    index, dim = break_index(
        index,
        dim,
        rank,
        op,
        mutation,
        size,
        where=lambda s: int(rng.integers(0, s)),
        amount=lambda low, high: draw(st.integers(low, high)),
        pick=lambda options: draw(st.sampled_from(options)),
        coin=lambda: draw(st.booleans()),
    )
    if mutation == "transposed" and rank >= 2:
        input = input.transpose(0, 1)

    index = torch.as_tensor(np.ascontiguousarray(index))
    if mutation == "dtype":
        index = index.to(draw(st.sampled_from(BAD_DTYPES)))
    return Call(op, input, dim, index, mutation)


def break_index(
    index: np.ndarray,
    dim: int | None,
    rank: int,
    op: str,
    mutation: str,
    size: int,
    *,
    where: Callable[[int], int],
    amount: Callable[[int, int], int],
    pick: Callable[[Sequence[Any]], Any],
    coin: Callable[[], bool],
) -> tuple[np.ndarray, int | None]:
    """Break a valid index (or dim) the one way ``mutation`` names.

    ``size`` is the length positions count along. The callables draw what varies, from
    hypothesis or from a NumPy generator: ``where(n)`` a position in ``0..n-1``,
    ``amount(low, high)`` a number in ``low..high``, ``pick(options)`` one option,
    ``coin()`` True or False.
    Mutations that do not apply (an empty index has no entry to break) leave it valid.
    """
    if mutation in ("negative", "too-large") and index.size:
        at = tuple(where(s) for s in index.shape)
        if mutation == "negative":
            index[at] = (-size if op == "take" else 0) - amount(1, 3)
        else:
            index[at] = size + amount(0, 3)
    elif mutation == "rank":
        if index.ndim >= 2 and coin():  # merge the first two axes
            index = index.reshape((index.shape[0] * index.shape[1],) + index.shape[2:])
        else:
            index = index[None]
    elif mutation == "bigger-index" and index.ndim:
        others = [
            d for d in range(index.ndim) if dim is None or d != dim % max(rank, 1)
        ]
        axis = pick(others or [0])
        grow = list(index.shape)
        grow[axis] += amount(1, 2)
        index = np.resize(index, grow)
    elif mutation == "empty":
        index = np.zeros(index.shape[:-1] + (0,), dtype=np.int64)
    elif mutation == "dim-out-of-range" and dim is not None:
        dim = pick((rank, rank + 1, -rank - 1))
    return index, dim


# What PyTorch 2.13 raises for each rule: the exception type(s) and a message pattern.
# A named group ``value`` is the position the library names, when it names one.
LIBRARY_ERRORS: dict[str, tuple[tuple[type, ...], str]] = {
    "dim-range": ((IndexError,), r"Dimension out of range|Dimension specified as"),
    "index-dtype": (
        (RuntimeError,),
        r"Expected dtype int32/int64 for index|Expected dtype int32 or int64 for index"
        r"|dtype of indices should be Long|Expected a long tensor for index",
    ),
    "rank-mismatch": ((RuntimeError,), r"same number of dimensions"),
    "index-too-large": ((RuntimeError,), r"Size does not match at dimension \d+"),
    "index-not-vector": ((IndexError,), r"Index is supposed to be a vector"),
    "scalar-index-count": ((RuntimeError,), r"Index to scalar can have only 1 value"),
    "broadcast-mismatch": (
        (RuntimeError,),
        r"The size of tensor a \(\d+\) must match the size of tensor b \(\d+\)",
    ),
    "empty-input": (
        (RuntimeError, IndexError),
        r"ZeroDivisionError|tried to take from an empty tensor"
        r"|self indexing axis dim should be positive",
    ),
    "not-flattenable": ((RuntimeError,), r"view size is not compatible"),
    "not-a-tensor": ((TypeError,), r"must be Tensor"),
    "dim-type": ((TypeError,), r"argument 'dim' \(position \d\) must be int"),
    "device-mismatch": ((RuntimeError,), r"Device|device"),
}
OUT_OF_RANGE = {
    "gather": (
        (RuntimeError,),
        r"index (?P<value>-?\d+) is out of bounds for dimension",
    ),
    "take_along_dim": (  # only with dim=None, which runs gather on the flat tensors
        (RuntimeError,),
        r"index (?P<value>-?\d+) is out of bounds for dimension",
    ),
    "take": ((IndexError,), r"tried to access index (?P<value>-?\d+) on a tensor of"),
    "index_select": (
        (RuntimeError, IndexError),
        r"out of DATA bounds, id=(?P<value>-?\d+)|index out of range in self",
    ),
}


def library_error(op: str, rule: str) -> tuple[tuple[type, ...], str]:
    """The exception types and message pattern PyTorch raises for ``rule`` in ``op``."""
    if rule in ("negative-index", "index-out-of-range"):
        return OUT_OF_RANGE[op]
    return LIBRARY_ERRORS[rule]


def named_value(op: str, rule: str, error: Exception) -> int | None:
    """The position PyTorch's message names, if it names one."""
    match = re.search(library_error(op, rule)[1], str(error))
    value = match and match.groupdict().get("value")
    return None if value is None else int(value)

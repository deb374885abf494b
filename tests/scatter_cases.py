"""Generated calls of the writing ops (scatter_ and its family), for the property tests
and the scatter explorer's agreement cases.

``draw_write(rng, op)`` returns one valid call: a target of rank 1-3 (size-1 axes
included), a dim (negative too), positions built to be valid, with repeats about half
the time, and values distinct from the target's. ``WriteCall.run`` makes the call with
PyTorch's in-place method on a copy; ``WriteCall.spec`` with ``gl.reference``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch

import gatherlab as gl

REDUCE_OPS = tuple(
    f"scatter_reduce.{reduce}.{'self' if include else 'noself'}"
    for reduce in gl.reference.REDUCTIONS
    for include in (True, False)
)
OPS = (
    "scatter", "scatter_add", *REDUCE_OPS, "index_add", "index_copy", "index_fill",
    "index_put", "index_put.accumulate", "masked_scatter", "put", "put.accumulate",
)  # fmt: skip
# Ops whose result for a position written twice is not promised by PyTorch, and the
# spec that lists their writes.
ONE_WRITE_WINS = {
    "scatter": gl.reference.scatter_writes,
    "index_copy": gl.reference.index_writes,
    "index_put": gl.reference.index_put_writes,
    "put": gl.reference.put_writes,
}


@dataclass
class WriteCall:
    """``target.<op>_(*args, **options)``."""

    op: str
    target: torch.Tensor
    args: tuple[Any, ...]
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def method(self) -> str:
        return self.op.split(".")[0]

    def run(self) -> torch.Tensor:
        out = self.target.clone()
        getattr(out, f"{self.method}_")(*self.args, **self.options)
        return out

    def writes(self) -> list:
        """The spec's list of writes (for the ops in ``ONE_WRITE_WINS``)."""
        return ONE_WRITE_WINS[self.method](self.target, *self.args)

    def spec(self) -> torch.Tensor:
        spec = getattr(gl.reference, self.method)
        return spec(self.target, *self.args, **self.options)

    def __repr__(self) -> str:
        shown = [a.tolist() if isinstance(a, torch.Tensor) else a for a in self.args]
        return f"WriteCall({self.op}, target={self.target.tolist()}, args={shown})"


def _shape(rng: np.random.Generator, rank: int) -> tuple[int, ...]:
    return tuple(int(s) for s in rng.integers(1, 5, size=rank))


def _values(rng: np.random.Generator, shape: tuple[int, ...], dtype, start: int):
    """Distinct values from ``start`` (floats end in .5), so every write is visible."""
    count = int(np.prod(shape, dtype=np.int64))
    numbers = rng.permutation(count) + start
    tensor = torch.as_tensor(numbers.reshape(shape))
    return (tensor + 0.5).to(dtype) if dtype.is_floating_point else tensor.to(dtype)


def _positions(rng, size: int, shape: tuple[int, ...], repeat: bool) -> torch.Tensor:
    """Positions 0..size-1; distinct along the write when ``repeat`` is False."""
    count = int(np.prod(shape, dtype=np.int64))
    if repeat or count > size:
        chosen = rng.integers(0, size, size=count)
    else:
        chosen = rng.permutation(size)[:count]
    return torch.as_tensor(chosen.reshape(shape), dtype=torch.int64)


def draw_write(rng: np.random.Generator, op: str) -> WriteCall:
    """One valid call of ``op`` (one of ``OPS``)."""
    rank = int(rng.integers(1, 4))
    shape = _shape(rng, rank)
    dtype = torch.float64 if rng.integers(3) == 0 else torch.int64
    target = _values(rng, shape, dtype, 10)
    repeat = bool(rng.integers(2))
    dim = int(rng.integers(-rank, rank))
    along = dim % rank
    method = op.split(".")[0]
    if method in ("scatter", "scatter_add", "scatter_reduce"):
        index_shape = tuple(
            int(rng.integers(1, 6)) if d == along else int(rng.integers(1, s + 1))
            for d, s in enumerate(shape)
        )
        src_shape = tuple(i + int(rng.integers(0, 2)) for i in index_shape)
        src = _values(rng, src_shape, dtype, 100)
        # Distinct positions along dim in every column, unless repeats are wanted.
        index = torch.stack(
            [
                _positions(rng, shape[along], (index_shape[along],), repeat)
                for _ in range(int(np.prod(index_shape)) // index_shape[along])
            ]
        )
        rest = tuple(s for d, s in enumerate(index_shape) if d != along)
        index = index.reshape(*rest, index_shape[along]).movedim(-1, along)
        options = {}
        if method == "scatter_reduce":
            _, reduce, include = op.split(".")
            options = {"reduce": reduce, "include_self": include == "self"}
        if method == "scatter" and rng.integers(4) == 0:
            src = float(rng.integers(-9, 10)) if dtype.is_floating_point else 7
        return WriteCall(op, target, (dim, index.contiguous(), src), options)
    if method in ("index_add", "index_copy", "index_fill"):
        count = int(rng.integers(1, shape[along] + 2))
        index = _positions(rng, shape[along], (count,), repeat)
        if method == "index_fill":
            if rng.integers(2):
                index = index - shape[along] * torch.as_tensor(
                    rng.integers(0, 2, size=count)
                )
            return WriteCall(op, target, (dim, index, -1))
        source_shape = list(shape)
        source_shape[along] = count
        source = _values(rng, tuple(source_shape), dtype, 100)
        options = {"alpha": 2} if method == "index_add" and rng.integers(2) else {}
        return WriteCall(op, target, (dim, index, source), options)
    if method == "index_put":
        leading = int(rng.integers(1, rank + 1))
        count = int(rng.integers(1, 5))
        flat = _positions(rng, int(np.prod(shape[:leading])), (count,), repeat)
        coords = np.unravel_index(flat.numpy(), shape[:leading])
        indices = tuple(
            torch.as_tensor(c) - shape[d] * torch.as_tensor(rng.integers(0, 2, count))
            for d, c in enumerate(coords)
        )  # each position written as itself or as its negative twin
        values_shape = (count, *shape[leading:])
        if rng.integers(3) == 0:
            values_shape = values_shape[1:]  # broadcast over the positions
        values = _values(rng, values_shape, dtype, 100)
        options = {"accumulate": op.endswith("accumulate")}
        return WriteCall(op, target, (indices, values), options)
    if method == "masked_scatter":
        mask = torch.as_tensor(rng.integers(0, 2, size=shape).astype(bool))
        if rng.integers(3) == 0:
            mask = mask[(0,) * (rank - 1)]  # broadcast along the leading dims
        extra = int(rng.integers(0, 3))
        source = _values(rng, (int(target.numel()) + extra,), dtype, 100)
        return WriteCall(op, target, (mask, source))
    count = int(rng.integers(1, 6))
    index = _positions(rng, int(target.numel()), (count,), repeat)
    index = index - int(target.numel()) * torch.as_tensor(rng.integers(0, 2, count))
    source = _values(rng, (count,), dtype, 100)
    options = {"accumulate": op.endswith("accumulate")}
    return WriteCall(op, target, (index, source), options)

"""Building blocks for hidden-case generators: varied shapes, telling values, edges.

A generator takes a seeded ``numpy.random.Generator`` and returns one case's arguments.
Values are distinct, so a wrong position always reads a wrong value; positions always
include the first and last valid entry and, where there is room, a repeat.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch


def shape(
    rng: np.random.Generator, ndim: int, low: int = 1, high: int = 5
) -> tuple[int, ...]:
    """A random shape with ``ndim`` dims, each of size ``low..high`` (1 included)."""
    return tuple(int(s) for s in rng.integers(low, high + 1, size=ndim))


def values(
    rng: np.random.Generator, shape: tuple[int, ...], dtype: torch.dtype = torch.int64
) -> torch.Tensor:
    """Distinct values (a shuffled ``10..``), so every position is recognisable."""
    count = int(np.prod(shape, dtype=np.int64))
    numbers = rng.permutation(count) + 10
    return torch.as_tensor(numbers.reshape(shape)).to(dtype)


def positions(
    rng: np.random.Generator, size: int, shape: tuple[int, ...]
) -> torch.Tensor:
    """Valid int64 positions ``0..size-1`` of the given shape, with edges and repeats.

    The first entries are 0 and ``size - 1`` (then random ones, which repeat whenever
    there are more entries than positions), shuffled into place.
    """
    count = int(np.prod(shape, dtype=np.int64))
    chosen = rng.integers(0, size, size=count)
    chosen[: min(count, 2)] = [0, size - 1][: min(count, 2)]
    if count > 2:
        chosen[2] = chosen[int(rng.integers(0, 2))]  # a repeated position
    rng.shuffle(chosen)
    return torch.as_tensor(chosen.reshape(shape), dtype=torch.int64)


def tensorflow(value: torch.Tensor) -> Any:
    """A case's torch tensor as a TensorFlow tensor (TensorFlow loads on first use)."""
    from gatherlab.tf import tensorflow as tf

    return tf().constant(value.numpy())

"""Executable specs: each op as a plain loop, one output at a time.

These loops are what the book means by "what the op does". They accept torch
tensors, NumPy arrays, TensorFlow tensors or nested lists, work on any rank,
and return a value of the input's framework. They raise ``IndexError`` where
PyTorch would refuse a position; the full rule set, in plain words, lives in
:mod:`gatherlab.diagnose`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from gatherlab._arrays import like, to_numpy, wrap_dim


def _checked(position: int, size: int, where: str) -> int:
    """Positions never wrap here: gather and index_select refuse -1."""
    if not 0 <= position < size:
        raise IndexError(f"{where} = {position} is outside 0..{size - 1}")
    return position


def gather(input: Any, dim: int, index: Any) -> Any:
    """``out[c] = input[c with c[dim] replaced by index[c]]`` for all c."""
    source, positions = to_numpy(input), to_numpy(index)
    out_shape = positions.shape
    # PyTorch treats a 0-d input or index as 1-D with one entry.
    source, positions = np.atleast_1d(source), np.atleast_1d(positions)
    dim = wrap_dim(int(dim), source.ndim)
    out = np.empty(positions.shape, dtype=source.dtype)
    for out_coord in np.ndindex(positions.shape):
        position = int(positions[out_coord])
        where = f"index{list(out_coord)}"
        source_coord = list(out_coord)
        source_coord[dim] = _checked(position, source.shape[dim], where)
        out[out_coord] = source[tuple(source_coord)]
    return like(input, out.reshape(out_shape))


def index_select(input: Any, dim: int, index: Any) -> Any:
    """One shared 1-D index.

    ``out[c] = input[c with c[dim] replaced by index[c[dim]]]`` for all c.
    """
    source = to_numpy(input)
    out_ndim = source.ndim
    source = np.atleast_1d(source)  # a 0-d input acts as 1-D with one entry
    dim = wrap_dim(int(dim), source.ndim)
    # Every position is checked, even when the output is empty.
    positions = [
        _checked(int(position), source.shape[dim], f"index[{k}]")
        for k, position in enumerate(to_numpy(index).reshape(-1))
    ]
    shape = list(source.shape)
    shape[dim] = len(positions)
    out = np.empty(shape, dtype=source.dtype)
    for out_coord in np.ndindex(*shape):
        source_coord = list(out_coord)
        source_coord[dim] = positions[out_coord[dim]]
        out[out_coord] = source[tuple(source_coord)]
    return like(input, out if out_ndim else out.reshape(()))


def take(input: Any, index: Any) -> Any:
    """Flat positions: ``out[c] = input.flatten()[index[c]]``.

    Negative positions wrap, as in Python: -1 is the last entry.
    """
    flat, positions = to_numpy(input).reshape(-1), to_numpy(index)
    out = np.empty(positions.shape, dtype=flat.dtype)
    for out_coord in np.ndindex(positions.shape):
        position = int(positions[out_coord])
        if position < 0:
            position += flat.size
        where = f"index{list(out_coord)}"
        out[out_coord] = flat[_checked(position, flat.size, where)]
    return like(input, out)


def broadcast_for_take_along_dim(
    source_shape: tuple[int, ...], index_shape: tuple[int, ...], dim: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The shapes take_along_dim broadcasts input and indices to.

    Every dim but ``dim`` is broadcast; along ``dim`` each keeps its size.
    """

    def along_dim(shape: tuple[int, ...], sizes: tuple[int, ...]) -> tuple:
        """``sizes`` with the entry at ``dim`` taken from ``shape``."""
        merged = list(sizes)
        merged[dim] = shape[dim]
        return tuple(merged)

    others = np.broadcast_shapes(
        tuple(1 if d == dim else s for d, s in enumerate(source_shape)),
        tuple(1 if d == dim else s for d, s in enumerate(index_shape)),
    )
    return along_dim(source_shape, others), along_dim(index_shape, others)


def take_along_dim(input: Any, indices: Any, dim: int | None = None) -> Any:
    """gather after broadcasting input and indices on every dim but ``dim``.

    With ``dim=None`` both are flattened first and positions are checked as
    in gather. With a ``dim``, PyTorch 2.13 takes every position modulo the
    size along ``dim``: -1 is the last entry, and so is a too-large 5 on a
    size-3 axis (NumPy raises there).
    """
    source, positions = to_numpy(input), to_numpy(indices)
    if dim is None:
        flat = gather(source.reshape(-1), 0, positions.reshape(-1))
        return like(input, flat)
    if source.ndim == 0:
        message = "a 0-d input has no dim to take along; pass dim=None"
        raise IndexError(message)
    dim = wrap_dim(int(dim), source.ndim)
    source_to, index_to = broadcast_for_take_along_dim(
        source.shape, positions.shape, dim
    )
    size = source.shape[dim]
    if size == 0 and math.prod(index_to):
        message = f"dim {dim} of input is empty: there is nothing to select"
        raise IndexError(message)
    wrapped = np.broadcast_to(positions, index_to) % max(size, 1)
    broadcast_source = np.broadcast_to(source, source_to)
    return like(input, gather(broadcast_source, dim, wrapped))

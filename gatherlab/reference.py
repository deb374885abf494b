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

from gatherlab import rules
from gatherlab._arrays import broadcast_for_take_along_dim, like, to_numpy, wrap_dim


def _checked(position: int, size: int, where: str) -> int:
    """Positions never wrap here: gather and index_select refuse -1."""
    if not 0 <= position < size:
        raise IndexError(
            rules.message(
                "index-out-of-range",
                "outside",
                entry=where,
                value=position,
                high=size - 1,
            )
        )
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


# --- writing by index: gather's mirror ----------------------------------------------
#
# Each writing op below is a list of writes ``(target coordinate, value)`` made in
# row-major order of its positions, applied to a copy of the input by one loop,
# ``_apply``. The specs are out of place: ``x.scatter_(...)`` leaves in ``x`` what
# ``gl.reference.scatter(x, ...)`` returns. Where PyTorch does not promise which of two
# writes to one position wins (scatter_, index_copy_, index_put_ without accumulate,
# put_), the spec keeps the last one; the tests compare values only where no position
# repeats.

REDUCTIONS = ("sum", "prod", "mean", "amax", "amin")
Write = tuple[tuple[int, ...], Any]


def _apply(
    input: Any,
    writes: list[Write],
    reduce: str | None = None,
    include_self: bool = True,
) -> Any:
    """``input`` with ``writes`` applied: the last one wins (``reduce=None``), or every
    value written to a position is reduced, with the old value when ``include_self``.

    Positions nobody writes keep their old value. An integer ``mean`` rounds down, as
    PyTorch's floor division does.
    """
    base = to_numpy(input)
    out = base.copy()
    received: dict[tuple[int, ...], list[Any]] = {}
    for target, value in writes:
        received.setdefault(target, []).append(value)
    for target, values in received.items():
        if reduce is None:
            out[target] = values[-1]
            continue
        values = [base[target], *values] if include_self else values
        if reduce == "sum":
            out[target] = np.sum(values, dtype=base.dtype)
        elif reduce == "prod":
            out[target] = np.prod(values, dtype=base.dtype)
        elif reduce == "amax":
            out[target] = max(values)
        elif reduce == "amin":
            out[target] = min(values)
        elif reduce == "mean":
            total = np.sum(values, dtype=base.dtype)
            if np.issubdtype(base.dtype, np.integer):
                out[target] = total // len(values)
            else:
                out[target] = total / len(values)
        else:
            raise ValueError(f"reduce must be one of {REDUCTIONS}; got {reduce!r}")
    return like(input, out)


def _wrapped(position: int, size: int, where: str) -> int:
    """Python's rule for index_fill_, index_put_ and put_: -1 is the last entry."""
    return _checked(position + size if position < 0 else position, size, where)


def _value_at(values: np.ndarray, coord: tuple[int, ...]) -> Any:
    """``values[coord]``, or the scalar itself when a scalar is written everywhere."""
    return values[coord] if values.ndim else values[()]


def scatter_writes(input: Any, dim: int, index: Any, src: Any) -> list[Write]:
    """The writes of ``scatter_(dim, index, src)``: for every coordinate ``c`` of
    index, ``src[c]`` goes to ``c`` with ``c[dim]`` replaced by ``index[c]``.

    The mirror of gather, which reads ``input[c with c[dim] = index[c]]`` into
    ``out[c]``. Index may be smaller than src in every dim, and smaller than input
    in every dim but ``dim``. A call that breaks a rule raises the first rule's
    message (``gl.diagnose.scatter_problems``): TypeError for a dtype, IndexError for
    a position, ValueError for a shape.
    """
    from gatherlab.diagnose import scatter_problems

    problems = scatter_problems(input, dim, index, src)
    if problems:
        first = problems[0]
        if first.rule in ("index-dtype", "src-dtype"):
            raise TypeError(first.message)
        if first.rule == "index-out-of-range":
            raise IndexError(first.message)
        raise ValueError(first.message)
    target, positions = np.atleast_1d(to_numpy(input)), to_numpy(index)
    values = to_numpy(src)
    dim = wrap_dim(int(dim), target.ndim)
    writes = []
    for coord in np.ndindex(positions.shape):
        out_coord = list(coord)
        out_coord[dim] = int(positions[coord])
        writes.append((tuple(out_coord), _value_at(values, coord)))
    return writes


def scatter(input: Any, dim: int, index: Any, src: Any) -> Any:
    """``scatter_``: ``out[c with c[dim] = index[c]] = src[c]``; src may be a Python
    number (``value=``), written everywhere the index points."""
    return _apply(input, scatter_writes(input, dim, index, src))


def scatter_add(input: Any, dim: int, index: Any, src: Any) -> Any:
    """``scatter_add_``: like scatter, but every write adds to what is there."""
    return _apply(input, scatter_writes(input, dim, index, src), "sum")


def scatter_reduce(
    input: Any, dim: int, index: Any, src: Any, reduce: str, include_self: bool = True
) -> Any:
    """``scatter_reduce_``: each position written to holds the ``reduce`` of the
    values written there, and of its old value when ``include_self``."""
    writes = scatter_writes(input, dim, index, src)
    return _apply(input, writes, reduce, include_self)


def index_writes(
    input: Any, dim: int, index: Any, source: Any, *, wrap: bool = False
) -> list[Write]:
    """The writes of ``index_add_/index_copy_/index_fill_(dim, index, source)``:
    slice ``k`` of source along ``dim`` goes to slice ``index[k]`` of input.

    ``source`` is a tensor shaped like input with ``len(index)`` along ``dim``, or a
    scalar (index_fill_). Negative positions wrap only where ``wrap`` (index_fill_).
    """
    target = np.atleast_1d(to_numpy(input))
    dim = wrap_dim(int(dim), target.ndim)
    values = to_numpy(source)
    check = _wrapped if wrap else _checked
    positions = [
        check(int(position), target.shape[dim], f"index[{k}]")
        for k, position in enumerate(to_numpy(index).reshape(-1))
    ]
    writes = []
    for coord in np.ndindex(target.shape):
        for k, position in enumerate(positions):
            if coord[dim] != position:
                continue
            source_coord = list(coord)
            source_coord[dim] = k
            writes.append((coord, _value_at(values, tuple(source_coord))))
    return writes


def index_add(input: Any, dim: int, index: Any, source: Any, alpha: Any = 1) -> Any:
    """``index_add_``: ``out[.., index[k], ..] += alpha * source[.., k, ..]``."""
    scaled = to_numpy(source) * alpha
    return _apply(input, index_writes(input, dim, index, scaled), "sum")


def index_copy(input: Any, dim: int, index: Any, source: Any) -> Any:
    """``index_copy_``: ``out[.., index[k], ..] = source[.., k, ..]``."""
    return _apply(input, index_writes(input, dim, index, source))


def index_fill(input: Any, dim: int, index: Any, value: Any) -> Any:
    """``index_fill_``: every slice ``index[k]`` along ``dim`` becomes ``value``;
    -1 is the last slice."""
    return _apply(input, index_writes(input, dim, index, value, wrap=True))


def index_put_writes(input: Any, indices: tuple[Any, ...], values: Any) -> list[Write]:
    """The writes of ``index_put_(indices, values)``, i.e. ``x[indices] = values``: the
    index tensors broadcast together to shape B and address the first
    ``len(indices)`` dims; values broadcast to B + the remaining dims.

    Negative positions wrap, as in Python indexing.
    """
    target = to_numpy(input)
    positions = np.broadcast_arrays(*(to_numpy(i) for i in indices))
    rest = target.shape[len(positions) :]
    batch = positions[0].shape
    written = np.broadcast_to(to_numpy(values), batch + rest)
    writes = []
    for b in np.ndindex(batch):
        lead = tuple(
            _wrapped(int(p[b]), target.shape[d], f"indices[{d}]{list(b)}")
            for d, p in enumerate(positions)
        )
        for r in np.ndindex(rest):
            writes.append((lead + r, written[b + r]))
    return writes


def index_put(
    input: Any, indices: tuple[Any, ...], values: Any, accumulate: bool = False
) -> Any:
    """``index_put_``: ``x[indices] = values``, or ``+=`` every write when
    ``accumulate`` (a plain ``x[indices] += values`` keeps one write per position)."""
    writes = index_put_writes(input, indices, values)
    return _apply(input, writes, "sum" if accumulate else None)


def masked_scatter(input: Any, mask: Any, source: Any) -> Any:
    """``masked_scatter_``: the k-th True of mask (row-major, broadcast to input's
    shape) takes ``source.flatten()[k]``; source needs at least that many values."""
    target = to_numpy(input)
    chosen = np.broadcast_to(to_numpy(mask).astype(bool), target.shape)
    flat = to_numpy(source).reshape(-1)
    coords = [coord for coord in np.ndindex(target.shape) if chosen[coord]]
    if len(coords) > flat.size:
        message = f"mask selects {len(coords)} entries but source has {flat.size}"
        raise IndexError(message)
    return _apply(input, [(c, flat[k]) for k, c in enumerate(coords)])


def put_writes(input: Any, index: Any, source: Any) -> list[Write]:
    """The writes of ``put_(index, source)``: ``source[c]`` goes to flat position
    ``index[c]`` of input; -1 is the last entry."""
    target = to_numpy(input)
    positions, values = to_numpy(index), to_numpy(source)
    writes = []
    for coord in np.ndindex(positions.shape):
        where = f"index{list(coord)}"
        flat = _wrapped(int(positions[coord]), target.size, where)
        target_coord = np.unravel_index(flat, target.shape) if target.ndim else ()
        writes.append((tuple(int(c) for c in target_coord), values[coord]))
    return writes


def put(input: Any, index: Any, source: Any, accumulate: bool = False) -> Any:
    """``put_``: ``out.flatten()[index[c]] = source[c]``, ``+=`` if ``accumulate``."""
    writes = put_writes(input, index, source)
    return _apply(input, writes, "sum" if accumulate else None)

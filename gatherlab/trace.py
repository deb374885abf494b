"""Trace a gather-family call: for every output coordinate, the index entry it used and
the source coordinate it read."""

from __future__ import annotations

import html
from collections.abc import Iterator
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from gatherlab._arrays import broadcast_for_take_along_dim, framework_of, to_numpy
from gatherlab.diagnose import RuleError, diagnose, entry


def format_value(value: Any) -> str:
    """Integers as integers, floats with up to four significant digits."""
    value = np.asarray(value).item()
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


@dataclass(frozen=True)
class Step:
    """One output coordinate: where its position came from and what it read."""

    out: tuple[int, ...]
    index_at: tuple[int, ...]
    position: int
    used: int  # the position after wrapping (take, take_along_dim); else == position
    source: tuple[int, ...]
    value: Any
    flat: int | None = None  # take only: the position in the flattened input


STEP_FIELDS = tuple(f.name for f in fields(Step))


def _steps(
    out_shape: tuple[int, ...], **columns: np.ndarray | None
) -> tuple[Step, ...]:
    """Steps from NumPy columns (one per ``Step`` field; 2-D for coordinates)."""
    count = len(columns["position"]) if columns["position"] is not None else 0
    lists: list[list[Any]] = []
    for name in STEP_FIELDS:
        column = columns.get(name)
        if column is None:
            lists.append([None] * count)
        elif column.ndim == 2:
            lists.append(list(map(tuple, column.tolist())))
        else:
            lists.append(column.tolist())
    return tuple(map(Step, *lists))


@dataclass(frozen=True)
class Trace:
    """Every step of one call, printable as a table and convertible for widgets."""

    op: str
    dim: int | None
    steps: tuple[Step, ...]
    source_name: str = "x"

    def __len__(self) -> int:
        return len(self.steps)

    def __iter__(self) -> Iterator[Step]:
        return iter(self.steps)

    def __getitem__(self, out: int | tuple[int, ...]) -> Step:
        at = (int(out),) if isinstance(out, int) else tuple(int(c) for c in out)
        for step in self.steps:
            if step.out == at:
                return step
        raise KeyError(f"no output coordinate {out}")

    def line(self, step: Step) -> str:
        """``out[0, 1] ← index[0, 1] = 0 → x[0, 0] = 11``"""
        used = f" (wraps to {step.used})" if step.used != step.position else ""
        via = f"flat {step.flat} = " if step.flat is not None else ""
        return (
            f"{entry('out', step.out)} ← {entry('index', step.index_at)} = "
            f"{step.position}{used} → {via}{entry(self.source_name, step.source)} = "
            f"{format_value(step.value)}"
        )

    def __str__(self) -> str:
        return "\n".join(self.line(step) for step in self.steps)

    __repr__ = __str__

    def _repr_html_(self) -> str:
        head = "".join(
            f"<th>{h}</th>"
            for h in ("output", "index entry", "position", "reads", "value")
        )
        name = html.escape(self.source_name)
        rows = "".join(
            "<tr>"
            f"<td><code>{entry('out', s.out)}</code></td>"
            f"<td><code>{entry('index', s.index_at)}</code></td>"
            f"<td>{s.position}{f' → {s.used}' if s.used != s.position else ''}</td>"
            f"<td><code>{entry(name, s.source)}</code></td>"
            f"<td>{html.escape(format_value(s.value))}</td>"
            "</tr>"
            for s in self.steps
        )
        return (
            f'<table class="gl-trace"><thead><tr>{head}</tr></thead>'
            f"<tbody>{rows}</tbody></table>"
        )


def _grid(shape: tuple[int, ...]) -> np.ndarray:
    """Every coordinate of ``shape`` in row-major order, one row each."""
    if not shape:
        return np.zeros((1, 0), dtype=np.int64)
    return np.indices(shape, dtype=np.int64).reshape(len(shape), -1).T


def _unravel(flat: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """The coordinates of flat positions in ``shape``, one row each."""
    if not shape:
        return np.zeros((len(flat), 0), dtype=np.int64)
    return np.stack(np.unravel_index(flat, shape), axis=1)


def _replaced(coords: np.ndarray, dim: int, positions: np.ndarray) -> np.ndarray:
    """``coords`` with column ``dim`` replaced by ``positions``."""
    coords = coords.copy()
    coords[:, dim] = positions
    return coords


def _gather_steps(
    source: np.ndarray, dim: int, positions: np.ndarray
) -> tuple[Step, ...]:
    # A 0-d input or index acts as 1-D with one entry; the coordinates drop that axis.
    if positions.size == 0:  # nothing is read (and PyTorch checks no shapes either)
        nothing = np.zeros((0, positions.ndim), dtype=np.int64)
        return _steps(
            positions.shape,
            out=nothing,
            index_at=nothing,
            position=np.zeros(0, np.int64),
            used=np.zeros(0, np.int64),
            source=np.zeros((0, source.ndim), dtype=np.int64),
            value=source.reshape(-1)[:0],
        )
    source_1d, positions_1d = np.atleast_1d(source), np.atleast_1d(positions)
    out = _grid(positions_1d.shape)
    position = positions_1d.reshape(-1)
    read = _replaced(out, dim, position)
    out = out[:, : positions.ndim]
    return _steps(
        positions.shape,
        out=out,
        index_at=out,
        position=position,
        used=position,
        source=read[:, : source.ndim],
        value=source_1d[tuple(read.T)],
    )


def _index_select_steps(
    source: np.ndarray, dim: int, positions: np.ndarray
) -> tuple[Step, ...]:
    source_1d, shared = np.atleast_1d(source), positions.reshape(-1)
    shape = source_1d.shape[:dim] + (shared.size,) + source_1d.shape[dim + 1 :]
    out = _grid(shape)
    k = out[:, dim]
    read = _replaced(out, dim, shared[k])
    return _steps(
        shape[: source.ndim],
        out=out[:, : source.ndim],
        index_at=k[:, None][:, : positions.ndim],
        position=shared[k],
        used=shared[k],
        source=read[:, : source.ndim],
        value=source_1d[tuple(read.T)],
    )


def _take_steps(source: np.ndarray, positions: np.ndarray) -> tuple[Step, ...]:
    flat = source.reshape(-1)
    position = positions.reshape(-1)
    used = np.where(position < 0, position + flat.size, position)
    out = _grid(positions.shape)
    return _steps(
        positions.shape,
        out=out,
        index_at=out,
        position=position,
        used=used,
        source=_unravel(used, source.shape),
        value=flat[used],
        flat=used,
    )


def _take_along_dim_steps(
    source: np.ndarray, dim: int, positions: np.ndarray
) -> tuple[Step, ...]:
    _, index_shape = broadcast_for_take_along_dim(source.shape, positions.shape, dim)
    out = _grid(index_shape)
    # A size-1 axis is broadcast: every output coordinate reads its entry 0.
    index_at = np.where(np.array(positions.shape) == 1, 0, out)
    position = positions[tuple(index_at.T)]
    used = position % source.shape[dim]
    read = _replaced(np.where(np.array(source.shape) == 1, 0, out), dim, used)
    return _steps(
        index_shape,
        out=out,
        index_at=index_at,
        position=position,
        used=used,
        source=read,
        value=source[tuple(read.T)],
    )


def _flat_take_along_dim_steps(
    source: np.ndarray, positions: np.ndarray
) -> tuple[Step, ...]:
    """take_along_dim with dim=None: gather on the flattened input and index."""
    position = positions.reshape(-1)
    k = np.arange(position.size)
    return _steps(
        (position.size,),
        out=k[:, None],
        index_at=_unravel(k, positions.shape),
        position=position,
        used=position,
        source=_unravel(position, source.shape),
        value=source.reshape(-1)[position],
        flat=position,
    )


def _checkable(value: Any) -> Any:
    """A torch tensor to diagnose: torch values as they are, others converted.

    A NumPy or TensorFlow integer index becomes int64, as ``torch.as_tensor(i).long()``
    would: the trace is about positions, and TensorFlow's default int32 is no mistake.
    Values that do not convert are passed on for diagnose to name.
    """
    import torch

    if framework_of(value) == "torch":
        return value
    try:
        array = to_numpy(value)
        if array.dtype.kind in "iu":
            array = array.astype(np.int64)
        return torch.as_tensor(array)
    except (TypeError, ValueError, RuntimeError):
        return value


def trace(
    input: Any,
    dim: int | None = None,
    index: Any = None,
    op: str = "gather",
    source_name: str = "x",
) -> Trace:
    """Trace ``torch.<op>(input, dim, index)`` for torch, NumPy or TensorFlow values.

    Raises :class:`RuleError` (with ``diagnose``'s problems) when the call is invalid.
    """
    problems = diagnose(_checkable(input), dim, _checkable(index), op)
    if problems:
        raise RuleError(problems)
    source, positions = to_numpy(input), to_numpy(index).astype(np.int64)
    if op == "take":
        return Trace(op, None, _take_steps(source, positions), source_name)
    if op == "take_along_dim" and dim is None:
        steps = _flat_take_along_dim_steps(source, positions)
        return Trace(op, None, steps, source_name)
    dim = int(dim or 0) % max(source.ndim, 1)
    if op == "take_along_dim":
        steps = _take_along_dim_steps(source, dim, positions)
    elif op == "index_select":
        steps = _index_select_steps(source, dim, positions)
    else:
        steps = _gather_steps(source, dim, positions)
    return Trace(op, dim, steps, source_name)

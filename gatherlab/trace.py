"""Trace a gather-family call: for every output coordinate, the index entry it used and
the source coordinate it read."""

from __future__ import annotations

import html
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, fields
from functools import cached_property
from typing import Any

import numpy as np

from gatherlab._arrays import framework_of, to_numpy
from gatherlab.diagnose import RuleError, diagnose, entry
from gatherlab.reference import broadcast_for_take_along_dim


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


class Steps(Sequence[Step]):
    """A trace's steps, held as NumPy columns; a :class:`Step` is built when it is read.

    A 64x64 gather has 4096 steps: computing them as arrays, and building the Python
    objects only on demand, keeps ``gl.trace`` fast enough to run on every keystroke.
    """

    def __init__(self, out_shape: tuple[int, ...], **columns: np.ndarray | None):
        self.out_shape = out_shape
        self.columns = columns  # one entry per Step field; 2-D for coordinates

    def __len__(self) -> int:
        return len(self.columns["position"])

    def __getitem__(self, k: int | slice) -> Step | tuple[Step, ...]:
        if isinstance(k, slice) or "all" in self.__dict__:  # "all": built already
            return self.all[k]
        k = range(len(self))[k]  # negative k counts from the end; IndexError past it
        return Step(*(self._plain(name, k) for name in STEP_FIELDS))

    def __iter__(self) -> Iterator[Step]:
        return iter(self.all)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and tuple(self) == tuple(other)

    def __hash__(self) -> int:
        return hash(self.all)

    def _plain(self, name: str, k: int) -> Any:
        """Row ``k`` of one column as plain Python (a tuple for a coordinate)."""
        column = self.columns.get(name)
        if column is None:
            return None
        return tuple(column[k].tolist()) if column.ndim == 2 else column[k].item()

    def lists(self) -> dict[str, list]:
        """Each column as a list of plain Python values (tuples for coordinates)."""
        lists = {}
        for name in STEP_FIELDS:
            column = self.columns.get(name)
            if column is None:
                lists[name] = [None] * len(self)
            elif column.ndim == 2:
                lists[name] = list(map(tuple, column.tolist()))
            else:
                lists[name] = column.tolist()
        return lists

    @cached_property
    def all(self) -> tuple[Step, ...]:
        """Every step, built once."""
        return tuple(map(Step, *self.lists().values()))

    def at(self, out: tuple[int, ...]) -> Step:
        """The step of output coordinate ``out`` (steps run in row-major order)."""
        if len(out) != len(self.out_shape) or not all(
            0 <= c < s for c, s in zip(out, self.out_shape, strict=True)
        ):
            raise KeyError(f"no output coordinate {out}")
        return self[int(np.ravel_multi_index(out, self.out_shape)) if out else 0]


@dataclass(frozen=True)
class Trace:
    """Every step of one call, printable as a table and convertible for widgets."""

    op: str
    dim: int | None
    steps: Sequence[Step]
    source_name: str = "x"

    def __len__(self) -> int:
        return len(self.steps)

    def __iter__(self) -> Iterator[Step]:
        return iter(self.steps)

    def __getitem__(self, out: int | tuple[int, ...]) -> Step:
        out = (int(out),) if np.ndim(out) == 0 else tuple(int(c) for c in out)
        if isinstance(self.steps, Steps):
            return self.steps.at(out)
        for step in self.steps:
            if step.out == out:
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

    def to_records(self) -> list[dict[str, Any]]:
        """One dict per step (plain Python values), for widgets and tests."""
        records = []
        for step in self.steps:
            record = {name: getattr(step, name) for name in STEP_FIELDS}
            record["value"] = np.asarray(step.value).item()
            record["line"] = self.line(step)
            records.append(record)
        return records

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


def _gather_steps(source: np.ndarray, dim: int, positions: np.ndarray) -> Steps:
    # A 0-d input or index acts as 1-D with one entry; the coordinates drop that axis.
    if positions.size == 0:  # nothing is read (and PyTorch checks no shapes either)
        nothing = np.zeros((0, positions.ndim), dtype=np.int64)
        return Steps(
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
    return Steps(
        positions.shape,
        out=out,
        index_at=out,
        position=position,
        used=position,
        source=read[:, : source.ndim],
        value=source_1d[tuple(read.T)],
    )


def _index_select_steps(source: np.ndarray, dim: int, positions: np.ndarray) -> Steps:
    source_1d, shared = np.atleast_1d(source), positions.reshape(-1)
    shape = source_1d.shape[:dim] + (shared.size,) + source_1d.shape[dim + 1 :]
    out = _grid(shape)
    k = out[:, dim]
    read = _replaced(out, dim, shared[k])
    return Steps(
        shape[: source.ndim],
        out=out[:, : source.ndim],
        index_at=k[:, None][:, : positions.ndim],
        position=shared[k],
        used=shared[k],
        source=read[:, : source.ndim],
        value=source_1d[tuple(read.T)],
    )


def _take_steps(source: np.ndarray, positions: np.ndarray) -> Steps:
    flat = source.reshape(-1)
    position = positions.reshape(-1)
    used = np.where(position < 0, position + flat.size, position)
    out = _grid(positions.shape)
    return Steps(
        positions.shape,
        out=out,
        index_at=out,
        position=position,
        used=used,
        source=_unravel(used, source.shape),
        value=flat[used],
        flat=used,
    )


def _take_along_dim_steps(source: np.ndarray, dim: int, positions: np.ndarray) -> Steps:
    _, index_shape = broadcast_for_take_along_dim(source.shape, positions.shape, dim)
    out = _grid(index_shape)
    # A size-1 axis is broadcast: every output coordinate reads its entry 0.
    index_at = np.where(np.array(positions.shape) == 1, 0, out)
    position = positions[tuple(index_at.T)]
    used = position % source.shape[dim]
    read = _replaced(np.where(np.array(source.shape) == 1, 0, out), dim, used)
    return Steps(
        index_shape,
        out=out,
        index_at=index_at,
        position=position,
        used=used,
        source=read,
        value=source[tuple(read.T)],
    )


def _flat_take_along_dim_steps(source: np.ndarray, positions: np.ndarray) -> Steps:
    """take_along_dim with dim=None: gather on the flattened input and index."""
    position = positions.reshape(-1)
    k = np.arange(position.size)
    return Steps(
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
    dim = int(dim) % max(source.ndim, 1)
    if op == "take_along_dim":
        steps = _take_along_dim_steps(source, dim, positions)
    elif op == "index_select":
        steps = _index_select_steps(source, dim, positions)
    else:
        steps = _gather_steps(source, dim, positions)
    return Trace(op, dim, steps, source_name)

"""Trace a gather-family call: for every output coordinate, the index entry it used and the
source coordinate it read."""

from __future__ import annotations

import html
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from gatherlab._arrays import coord, to_numpy
from gatherlab.diagnose import RuleError, diagnose
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
        out = (out,) if isinstance(out, int) else tuple(out)
        for step in self.steps:
            if step.out == out:
                return step
        raise KeyError(f"no output coordinate {out}")

    def line(self, step: Step) -> str:
        """``out[0, 1] ← index[0, 1] = 0 → x[0, 0] = 11``"""
        used = f" (wraps to {step.used})" if step.used != step.position else ""
        via = f"flat {step.flat} = " if step.flat is not None else ""
        return (
            f"out[{coord(step.out)}] ← index[{coord(step.index_at)}] = {step.position}"
            f"{used} → {via}{self.source_name}[{coord(step.source)}] = "
            f"{format_value(step.value)}"
        )

    def __str__(self) -> str:
        return "\n".join(self.line(step) for step in self.steps)

    __repr__ = __str__

    def to_records(self) -> list[dict[str, Any]]:
        """One dict per step (plain Python values), for widgets and tests."""
        records = []
        for step in self.steps:
            record = asdict(step)
            record["value"] = np.asarray(step.value).item()
            record["line"] = self.line(step)
            records.append(record)
        return records

    def _repr_html_(self) -> str:
        head = "".join(
            f"<th>{h}</th>" for h in ("output", "index entry", "position", "reads", "value")
        )
        rows = "".join(
            "<tr>"
            f"<td><code>out[{coord(s.out)}]</code></td>"
            f"<td><code>index[{coord(s.index_at)}]</code></td>"
            f"<td>{s.position}{f' → {s.used}' if s.used != s.position else ''}</td>"
            f"<td><code>{html.escape(self.source_name)}[{coord(s.source)}]</code></td>"
            f"<td>{html.escape(format_value(s.value))}</td>"
            "</tr>"
            for s in self.steps
        )
        return f'<table class="gl-trace"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>'


def _steps(op: str, source: np.ndarray, dim: int | None, positions: np.ndarray):
    if op == "take":
        flat = source.reshape(-1)
        for out in np.ndindex(positions.shape):
            position = int(positions[out])
            used = position % flat.size
            src = tuple(int(c) for c in np.unravel_index(used, source.shape))
            yield Step(out, out, position, used, src, flat[used], flat=used)
        return
    if op == "index_select":
        shape = list(source.shape)
        shape[dim] = positions.size
        for out in np.ndindex(*shape):
            k = out[dim]
            position = int(positions.reshape(-1)[k])
            src = out[:dim] + (position,) + out[dim + 1 :]
            yield Step(out, (k,), position, position, src, source[src])
        return
    if op == "take_along_dim":
        source_to, index_to = broadcast_for_take_along_dim(source.shape, positions.shape, dim)
        for out in np.ndindex(*index_to):
            index_at = tuple(0 if positions.shape[d] == 1 else c for d, c in enumerate(out))
            source_at = tuple(0 if source.shape[d] == 1 else c for d, c in enumerate(out))
            position = int(positions[index_at])
            used = position % source_to[dim]
            src = source_at[:dim] + (used,) + source_at[dim + 1 :]
            yield Step(out, index_at, position, used, src, source[src])
        return
    for out in np.ndindex(positions.shape):
        position = int(positions[out])
        src = out[:dim] + (position,) + out[dim + 1 :]
        yield Step(out, out, position, position, src, source[src])


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
    import torch

    source, positions = to_numpy(input), to_numpy(index)
    problems = diagnose(torch.as_tensor(source), dim, torch.as_tensor(positions), op)
    if problems:
        raise RuleError(problems)
    if op == "take_along_dim" and dim is None:
        op, source, positions, dim = "take_along_dim", source.reshape(-1), positions.reshape(-1), 0
    if source.ndim == 0:
        source, positions = source.reshape(1), positions.reshape(positions.shape or (1,))
    if dim is not None:
        dim %= source.ndim
    steps = tuple(_steps(op, source, dim, positions))
    return Trace(op, dim, steps, source_name)

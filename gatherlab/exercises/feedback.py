"""Small pieces every kind of exercise words its feedback with, each in one place:
a case's inputs as lines, an argument changed in place."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from gatherlab._arrays import entry, framework_of, to_numpy
from gatherlab.exercises.compare import shape_text

SMALL = 24  # inputs with at most this many entries are printed in full in feedback


def capitalised(sentence: str) -> str:
    return sentence[:1].upper() + sentence[1:]


def plain(value: Any) -> Any:
    """Nested lists of plain numbers; floats rounded to 4 decimals, so 0.3 reads 0.3."""
    values = to_numpy(value)
    if values.dtype.kind == "f":
        values = values.astype(np.float64).round(4)
    return values.tolist()


def describe(args: Mapping[str, Any]) -> tuple[str, ...]:
    """One line per argument: its values when small, else its shape."""
    lines = []
    for name, value in args.items():
        if framework_of(value) is None:
            lines.append(f"{name} = {value!r}")
            continue
        values = to_numpy(value)
        if values.size <= SMALL:
            lines.append(f"{name} = {plain(values)}")
        else:
            lines.append(f"{name}: shape {shape_text(values.shape)}")
    return tuple(lines)


def changed_argument(before: Mapping[str, Any], after: Mapping[str, Any]) -> str | None:
    """``x[0, 1]``: the first argument entry an answer changed in place (or None)."""
    for name, original in before.items():
        if framework_of(original) is None:
            continue
        old, new = to_numpy(original), to_numpy(after[name])
        if old.shape != new.shape:
            return name
        wrong = np.argwhere(old != new)
        if len(wrong):
            return entry(name, tuple(int(c) for c in wrong[0]))
    return None

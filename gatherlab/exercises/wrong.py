"""Generic wrong answers: slips any learner could make, built from a solution.

Each kind's ``wrong_answers`` uses these, and the tests check that every exercise
rejects each one with a message.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from gatherlab._arrays import framework_of, fresh, like, to_numpy


def transposed(value: Any) -> Any:
    """The value with its last two dims swapped (1-D: reversed; 0-d: plus one)."""
    values = to_numpy(value)
    if values.ndim >= 2:
        changed = np.swapaxes(values, -1, -2).copy()
    elif values.ndim == 1:
        changed = values[::-1].copy()
    else:
        changed = values + 1
    return like(value, changed) if framework_of(value) else changed.tolist()


def off_by_one(positions: Any) -> Any:
    """Every position one further along, kept inside the range the original used."""
    values = to_numpy(positions)
    if values.size == 0:
        return positions
    return like(positions, np.minimum(values + 1, values.max()).astype(values.dtype))


def other_dtype(value: Any) -> str:
    return "float64" if to_numpy(value).dtype != np.float64 else "float32"


def never_raising(solution: Callable[..., Any], fallback: Any) -> Callable[..., Any]:
    """The solution, but returning ``fallback`` where it should raise (a silent bug)."""

    def quiet(*args: Any) -> Any:
        try:
            return solution(*args)
        except Exception:
            return fresh(fallback)

    return quiet


def with_argument(
    solution: Callable[..., Any], position: int, change: Callable[[Any], Any]
) -> Callable[..., Any]:
    """The solution, called with one argument changed (a slip, made on purpose)."""

    def variant(*args: Any) -> Any:
        changed = list(args)
        changed[position] = change(changed[position])
        return solution(*changed)

    return variant

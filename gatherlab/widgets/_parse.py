"""Turn what a reader types (``[[2, 0], [1, 1]]``) into a NumPy array, or say why not.

Pure functions: no widgets, no torch. Floats parse (as float arrays) so that
``gl.diagnose`` can explain the dtype rule instead of the parser hiding it.
"""

from __future__ import annotations

import ast
from typing import Any

import numpy as np

from gatherlab._arrays import to_numpy

MAX_ENTRIES = 36  # keeps every precomputed view small (a page's HTML budget is 1.5 MB)
MAX_RANK = 4


class ParseError(ValueError):
    """Text that is not a small rectangular list of numbers; the message says why."""


def _shape_of(value: Any, where: str = "the value") -> tuple[int, ...]:
    """The shape of a nested list of numbers, or a ParseError naming the ragged part."""
    if isinstance(value, bool) or not isinstance(value, (list, tuple, int, float)):
        raise ParseError(
            f"{where} is {value!r}; only whole numbers and decimals can go here"
        )
    if not isinstance(value, (list, tuple)):
        return ()
    shapes = {_shape_of(item, f"{where}[{k}]") for k, item in enumerate(value)}
    if len(shapes) > 1:
        raise ParseError(f"the rows of {where} have different lengths; make them equal")
    return (len(value), *(shapes.pop() if shapes else ()))


def parse_tensor(text: str) -> np.ndarray:
    """Parse a list literal into an int64 array (float64 if any entry is a float)."""
    try:
        value = ast.literal_eval(text.strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        raise ParseError(
            f"could not read {text.strip()!r} as a list of numbers; "
            "write it like [[2, 0], [1, 1]]"
        ) from None
    _shape_of(value, "the list")
    return checked_array(np.array(value, dtype=_dtype_of(value)))


def _dtype_of(value: Any) -> type:
    if isinstance(value, (list, tuple)):
        return (
            np.float64 if any(_dtype_of(v) is np.float64 for v in value) else np.int64
        )
    return np.float64 if isinstance(value, float) else np.int64


def checked_array(values: Any, name: str = "the tensor") -> np.ndarray:
    """A NumPy copy of a tensor the explorers can show: rank <= 4, <= 36 entries."""
    array = to_numpy(values)
    if array.ndim > MAX_RANK:
        raise ParseError(
            f"{name} has {array.ndim} dims; the explorers show at most {MAX_RANK}"
        )
    if array.size > MAX_ENTRIES:
        raise ParseError(
            f"{name} has {array.size} entries; the explorers show at most "
            f"{MAX_ENTRIES} (use gl.trace for bigger tensors)"
        )
    return array

"""Checks of an answer itself that no misconception model can give: float positions
in a fix (values or truncated floats where positions belong), and an invalid case a
function wrapped instead of raising on.

Each returns a sentence fragment, or "" when it does not apply.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from gatherlab._arrays import entry, framework_of, to_numpy
from gatherlab.exercises.call import Call

if TYPE_CHECKING:
    from gatherlab.exercises.fix import Fix

NEAR_WHOLE = 1e-3  # a float this close to a whole number came from float arithmetic


def wraps_instead_of_raising(call: Call | None) -> str:
    """``: index[0, 1] = 5 is outside -3..2 ...``: why an invalid case must raise."""
    if call is None:
        return ""
    positions = to_numpy(call.index)
    size = to_numpy(call.input).shape[int(call.axis or 0)]
    outside = np.argwhere((positions < -size) | (positions >= size))
    if not len(outside):
        return ""
    at = tuple(int(c) for c in outside[0])
    return (
        f": {entry(call.index_name, at)} = {int(positions[at])} is outside "
        f"{-size}..{size - 1}, and wrapping it (as % would) hides the mistake instead "
        "of reporting it; wrap only -size..-1, and let anything beyond raise"
    )


def float_positions(answer: Any, fix: Fix) -> str:
    """Why a float (or truncated) index is wrong, before diagnose's dtype advice."""
    broken, reference = fix.broken, to_numpy(fix.reference_answer)
    if framework_of(answer) != "torch" or answer.dtype.is_complex:
        return ""
    if answer.device.type == "meta":  # no values to look at: diagnose names it
        return ""
    values = to_numpy(answer)
    if answer.is_floating_point():
        return _float_index(values, fix)
    source = to_numpy(broken.input)
    if source.dtype.kind == "f" and values.shape == source.shape:
        if (values == np.trunc(source)).all():
            return (
                f"your index is {broken.input_name} itself converted with `.long()`: "
                f"its values became whole numbers such as {int(values.flat[0])}, but "
                "an index holds positions (where to read), not the values; build the "
                f"positions from {broken.index_name}"
            )
    original = to_numpy(broken.index)
    if original.dtype.kind != "f" or values.shape != original.shape:
        return ""
    truncated, rounded = np.trunc(original), np.round(original)
    wrong = np.argwhere(truncated != rounded)
    if not (values == truncated).all() or not len(wrong):
        return ""
    if not np.array_equal(rounded, reference):
        return ""
    at = tuple(int(c) for c in wrong[0])
    return (
        f"`.long()` truncates toward zero, so {entry(broken.index_name, at)} = "
        f"{float(original[at]):.7g} became {int(values[at])}, although it stands for "
        f"{int(rounded[at])}: round first, `.round().long()`"
    )


def _float_index(values: np.ndarray, fix: Fix) -> str:
    broken = fix.broken
    if values.size == 0:
        return ""
    source = to_numpy(broken.input)
    whole = np.round(values)
    fractions = values[np.abs(values - whole) > 0]
    if fractions.size and np.isin(values, source).all():
        return (
            f"your index holds values of {broken.input_name} ({fractions[0]:g}, ...), "
            f"not positions: an index says where to read, and `.long()` would turn "
            f"these into 0s; build the positions from {broken.index_name}"
        )
    if fractions.size and (np.abs(values - whole) < NEAR_WHOLE).all():
        return (
            f"your index holds floats such as {float(fractions[0]):.7g}, just off "
            "whole numbers: `.long()` alone truncates them toward zero (1.9999999 "
            "becomes 1); round first, `.round().long()`"
        )
    if fractions.size:
        return (
            f"your index holds fractions such as {float(fractions[0]):.4g}: true "
            "division `/` keeps them, and `.long()` would only truncate them; divide "
            "with `//` (floor division), which keeps whole-number int64 positions"
        )
    import torch

    if fix.gives_expected(torch.as_tensor(whole.astype(np.int64))):
        return ""
    return (
        "your index is a float tensor, and converting it with `.long()` would "
        "still read the wrong entries: the positions themselves are wrong (a float "
        "here usually comes from `/`, where `//` was meant)"
    )

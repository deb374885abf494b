"""Checks of an answer itself that no misconception model can give: float positions
in a fix (values or truncated floats where positions belong), and an invalid case a
function wrapped instead of raising on.

Each returns its verdict (or the fields of one), or None when it does not apply.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from gatherlab._arrays import entry, framework_of, to_numpy
from gatherlab.exercises.call import Call
from gatherlab.exercises.verdict import Verdict, phrase, verdict

if TYPE_CHECKING:
    from gatherlab.exercises.fix import Fix

NEAR_WHOLE = 1e-3  # a float this close to a whole number came from float arithmetic


def wraps_instead_of_raising(call: Call | None) -> dict[str, str] | None:
    """``index[0, 1] = 5 is outside -3..2``: the fields of
    ``implement.must_raise_wraps``, why an invalid case must raise."""
    if call is None:
        return None
    positions = to_numpy(call.index)
    size = to_numpy(call.input).shape[int(call.axis or 0)]
    outside = np.argwhere((positions < -size) | (positions >= size))
    if not len(outside):
        return None
    at = tuple(int(c) for c in outside[0])
    return {
        "position": entry(call.index_name, at),
        "value": str(int(positions[at])),
        "low": str(-size),
        "high": str(size - 1),
    }


def float_positions(answer: Any, fix: Fix) -> Verdict | None:
    """Why a float (or truncated) index is wrong, before diagnose's dtype advice."""
    broken = fix.broken
    if framework_of(answer) != "torch" or answer.dtype.is_complex:
        return None
    if answer.device.type == "meta":  # no values to look at: diagnose names it
        return None
    values = to_numpy(answer)
    if answer.is_floating_point():
        return _float_index(values, fix)
    source = to_numpy(broken.input)
    if source.dtype.kind == "f" and values.shape == source.shape:
        if (values == np.trunc(source)).all():
            return verdict(
                False,
                "fix.values_long",
                input=broken.input_name,
                value=str(int(values.flat[0])),
                index=broken.index_name,
            )
    return _cut_fractions(values, fix)


def _cut_fractions(
    values: np.ndarray, fix: Fix, dtype: str | None = None
) -> Verdict | None:
    """``fix.truncated``: whole numbers that are the broken index's floats with their
    fractions cut off (truncated toward zero, or rounded down by ``//``), where
    rounding them gives the intended positions; the cut named as the values show it
    (for a positive float truncating and rounding down agree: either one did it).
    ``dtype``: the cut values are still floats of that dtype (`//`, floor), which the
    op refuses first (``fix.truncated_float``)."""
    broken, reference = fix.broken, to_numpy(fix.reference_answer)
    original = to_numpy(broken.index)
    if original.dtype.kind != "f" or values.shape != original.shape:
        return None
    rounded = np.round(original)
    if not np.array_equal(rounded, reference):
        return None
    cuts = {"cut.trunc": np.trunc(original), "cut.floor": np.floor(original)}
    made = [name for name, cut in cuts.items() if np.array_equal(values, cut)]
    wrong = np.argwhere(values != rounded)
    if not made or not len(wrong):
        return None
    at = tuple(int(c) for c in wrong[0])
    floats = {} if dtype is None else {"dtype": dtype, "op": broken.op}
    return verdict(
        False,
        "fix.truncated" if dtype is None else "fix.truncated_float",
        **floats,
        position=entry(broken.index_name, at),
        value=f"{float(original[at]):.7g}",
        got=str(int(values[at])),
        right=str(int(rounded[at])),
        cut=phrase("cut.either" if len(made) == 2 else made[0]),
    )


def _float_index(values: np.ndarray, fix: Fix) -> Verdict | None:
    broken = fix.broken
    if values.size == 0:
        return None
    source = to_numpy(broken.input)
    whole = np.round(values)
    fractions = values[np.abs(values - whole) > 0]
    if fractions.size and np.isin(values, source).all():
        return verdict(
            False,
            "fix.values_not_positions",
            input=broken.input_name,
            value=f"{fractions[0]:g}",
            index=broken.index_name,
        )
    if fractions.size and (np.abs(values - whole) < NEAR_WHOLE).all():
        return verdict(
            False,
            "fix.near_whole",
            op=broken.op,
            value=f"{float(fractions[0]):.7g}",
        )
    if fractions.size:
        return verdict(False, "fix.fractions", value=f"{float(fractions[0]):.4g}")
    import torch

    # whole numbers in a float tensor: `//`, floor, ceil or round on floats keep the
    # float dtype the op refuses (the learner believed they give integers)
    dtype = str(values.dtype)
    if fix.gives_expected(torch.as_tensor(whole.astype(np.int64))):
        return verdict(False, "fix.whole_floats", dtype=dtype, op=broken.op)
    return _cut_fractions(values, fix, dtype) or verdict(
        False, "fix.float_wrong_positions"
    )

"""Recognise the common wrong strategies behind an error or a wrong result, and name
the cause: what is wrong, why, and the next step (never one that keeps the mistake).

Each recogniser returns a sentence fragment, or "" when it does not recognise the
answer; the kinds try them before their generic what-differs message.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import numpy as np

from gatherlab._arrays import entry, framework_of, to_numpy
from gatherlab.exercises.call import Call
from gatherlab.exercises.compare import shape_text

if TYPE_CHECKING:
    from gatherlab.exercises.fix import Fix

OUT_OF_BOUNDS = re.compile(r"index (-?\d+) is out of bounds for dimension (\d+)")
NOT_LARGER = re.compile(r"Size does not match at dimension (\d+) expected index")
NEAR_WHOLE = 1e-3  # a float this close to a whole number came from float arithmetic


def _along(call: Call) -> str:
    """``along dim 1 (a column each)``: where the call's positions count."""
    rank = to_numpy(call.input).ndim
    dim = int(call.axis or 0) % max(rank, 1)
    if rank == 2:
        return f"along dim {dim} (a {'row' if dim == 0 else 'column'} each)"
    return f"along dim {dim}"


def _missing_axis(call: Call, expected: Any) -> str:
    """How to give the positions the missing axis, for the expected result."""
    shape = shape_text(tuple(to_numpy(expected).shape))
    rank = to_numpy(call.input).ndim
    return (
        f"gather needs an index with as many dims as its input ({rank}) and never adds "
        f"one itself: give the positions the missing axis with `unsqueeze`, then "
        f"`expand(...)` it where every entry along that axis needs the same "
        f"positions, so the index has the result's shape {shape}"
    )


def explain_error(error: BaseException, call: Call | None, expected: Any) -> str:
    """Why a learner's function raised (for the task's ``call`` and its ``expected``
    result), or ""."""
    text = str(error)
    if call is None:
        return ""
    dim = int(call.axis or 0) % max(to_numpy(call.input).ndim, 1)
    if "same number of dimensions" in text:
        return _missing_axis(call, expected)
    bounds = OUT_OF_BOUNDS.search(text)
    if bounds:
        position, axis = int(bounds[1]), int(bounds[2])
        if position < 0:
            return (
                f"gather does not wrap negative positions: {position} is not counted "
                "from the end, it is out of range; turn it into a position from the "
                "start first (add the size)"
            )
        if axis != dim:
            return (
                f"your gather read along dim {axis}, but the positions count "
                f"{_along(call)}: gather along the task's dim, dim={dim}, not {axis}"
            )
        return "positions count from 0: the last valid one is size - 1"
    larger = NOT_LARGER.search(text)
    if larger:
        return (
            f"your index is larger than the input along dim {larger[1]}: expand it "
            f"there to the input's size on that dim (the result's shape is "
            f"{shape_text(tuple(to_numpy(expected).shape))}), not to another dim's"
        )
    if "Expected dtype" in text and "for index" in text:
        return (
            "gather takes whole-number positions (int64): compute them with integer "
            "ops (`//`, not `/`), or `.round()` before `.long()`"
        )
    return _valid_smaller_index(call, dim)


def _valid_smaller_index(call: Call, dim: int) -> str:
    """For a learner's own size check: the old same-size rule does not hold."""
    if call.op != "gather" or call.problems():
        return ""
    index_shape = tuple(to_numpy(call.index).shape)
    input_shape = tuple(to_numpy(call.input).shape)
    smaller = [
        d
        for d, (i, s) in enumerate(zip(index_shape, input_shape, strict=False))
        if d != dim and i < s
    ]
    if not smaller:
        return ""
    d = smaller[0]
    return (
        f"this call is valid, so gather must not raise: the index may be smaller "
        f"than the input on every dim except dim (here dim {d}: {index_shape[d]} < "
        f"{input_shape[d]}); the rule is index.size(d) <= input.size(d), not equal "
        "sizes"
    )


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


def _equal(values: np.ndarray, candidate: np.ndarray) -> bool:
    return values.size == candidate.size and bool(
        np.allclose(values.reshape(-1), candidate.reshape(-1), equal_nan=True)
    )


def _every_row_reads_every(got: np.ndarray, call: Call) -> str:
    """``x[:, positions]`` or ``index_select`` where each row needed its own."""
    if (
        call.op not in ("gather", "take_along_dim")
        or got.size <= to_numpy(call.index).size
    ):
        return ""
    source, index = to_numpy(call.input), to_numpy(call.index)
    dim = int(call.axis or 0) % source.ndim
    if index.min(initial=0) < 0 or index.max(initial=0) >= source.shape[dim]:
        return ""
    positions = _shared_positions(index, dim)
    every = np.take(source, positions.reshape(-1), axis=dim)
    if not _equal(got, every):
        return ""
    count = positions.size
    return (
        f"every row read every position: your result has shape "
        f"{shape_text(got.shape)}, which is what `{call.input_name}[:, positions]`, "
        f"index_select or tf.gather without batch_dims give (each row paired with "
        f"all {count} positions); gather pairs out[r, j] with index[r, j], so each "
        "row reads only its own positions (tf.gather does with batch_dims=1)"
    )


def _shared_positions(index: np.ndarray, dim: int) -> np.ndarray:
    """The index without the trailing dims it was expanded over (the same positions
    along them): ``positions.unsqueeze(-1).expand(...)`` gives back ``positions``."""
    for d in reversed(range(dim + 1, index.ndim)):
        first = np.take(index, [0], axis=d)
        if not (index == first).all():
            break
        index = np.squeeze(first, axis=d)
    return index


def _other_dim(got: np.ndarray, call: Call) -> str:
    """The same index used along another dim than the task's."""
    if call.op != "gather":
        return ""
    rank = to_numpy(call.input).ndim
    dim = int(call.axis or 0) % max(rank, 1)
    for other in range(rank):
        if other == dim:
            continue
        moved = call.with_part("dim", other)
        if moved.problems():
            continue
        if _equal(got, to_numpy(moved.run())):
            return (
                f"your result is gather along dim {other}, but the positions count "
                f"{_along(call)}: gather along the task's dim, dim={dim}"
            )
    return ""


def _wrong_axis(got: np.ndarray, call: Call) -> str:
    """(batch, picks) positions unsqueezed in the middle, not last, then expanded."""
    source, index = to_numpy(call.input), to_numpy(call.index)
    if call.op != "gather" or source.ndim != 3 or int(call.axis or 0) % 3 != 1:
        return ""
    positions = _shared_positions(index, 1) if index.ndim == 3 else index
    if positions.ndim != 2:
        return ""
    batch, picks = positions.shape
    import torch

    moved = np.broadcast_to(positions[:, None, :], (batch, picks, picks)).copy()
    wrong = call.with_part("index", torch.as_tensor(moved))
    if wrong.problems() or not _equal(got, to_numpy(wrong.run())):
        return ""
    return WRONG_AXIS


WRONG_AXIS = (
    "your index holds each pick's positions across the last axis instead of down it "
    "(unsqueeze on the wrong axis): every entry of one vector must read the same "
    "position, so add the new axis last, `.unsqueeze(-1)`, then `.expand(...)` it over "
    "the features"
)


def _swapped_index(call: Call, expected: np.ndarray) -> str:
    """A fix whose index would be right with its last two axes swapped."""
    index = to_numpy(call.index)
    if call.op != "gather" or index.ndim != 3 or index.shape[-1] != index.shape[-2]:
        return ""
    import torch

    swapped = torch.as_tensor(np.swapaxes(index, -1, -2).copy())
    right = call.with_part("index", swapped)
    if right.problems() or not _equal(to_numpy(right.run()), expected):
        return ""
    return WRONG_AXIS


def _narrow_expand(got: np.ndarray, expected: np.ndarray, call: Call) -> str:
    """An index expanded to too few entries along one dim (another dim's size)."""
    if got.ndim != expected.ndim or got.shape == expected.shape:
        return ""
    wrong = [d for d in range(got.ndim) if got.shape[d] != expected.shape[d]]
    if len(wrong) != 1 or got.shape[wrong[0]] > expected.shape[wrong[0]]:
        return ""
    d, size = wrong[0], got.shape[wrong[0]]
    if size < 2 or not _equal(got, np.take(expected, range(size), axis=d)):
        return ""
    return (
        f"your result stops after {size} of the {expected.shape[d]} entries along dim "
        f"{d}: the index was expanded to {size} there, another dim's size; expand it "
        f"to the input's size on dim {d} ({expected.shape[d]}), "
        f"`{call.input_name}.shape[{d}]`"
    )


def _normalised_after(got: np.ndarray, expected: np.ndarray) -> str:
    """log_softmax (all 0) or softmax (all 1) over one selected value."""
    if got.dtype.kind != "f" or got.size == 0 or got.shape != expected.shape:
        return ""
    for value, op in ((0.0, "log_softmax"), (1.0, "softmax")):
        if np.allclose(got, value) and not np.allclose(expected, value):
            return (
                f"every value is {value:g}, which is what {op} gives over a single "
                f"value: normalising after selecting leaves one number per row to "
                f"normalise; normalise over all the classes first, then gather"
            )
    return ""


def explain_result(
    got: Any, expected: Any, call: Call | None, intended: Fix | None = None
) -> str:
    """The wrong strategy behind a wrong result of a call, or "" if none is known."""
    if call is None or framework_of(got) is None:
        return ""
    values, wanted = to_numpy(got), to_numpy(expected)
    if values.dtype.kind not in "biuf":
        return ""
    found = _normalised_after(values, wanted) or _narrow_expand(values, wanted, call)
    if found:
        return found
    if intended is not None:
        return _swapped_index(call, wanted)
    return (
        _every_row_reads_every(values, call)
        or _other_dim(values, call)
        or _wrong_axis(values, call)
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

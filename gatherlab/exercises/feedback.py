"""The sentences every kind of exercise builds its feedback from, each in one place.

``misread`` is the wrong-coordinate sentence (``out[1, 0] should read ..., but ...``);
``wrong_value_message`` fills it from a comparison and the traced call.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from gatherlab._arrays import entry, framework_of, to_numpy
from gatherlab.exercises.call import Call, step_at
from gatherlab.exercises.compare import Difference, shape_text, value_text

SMALL = 24  # inputs with at most this many entries are printed in full in feedback
STUB_HINT = (
    "replace `raise NotImplementedError` with your code, then run the cell again"
)
UNANSWERED_HINT = "replace the `...` with your answer, then run the cell again"


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


def which_is(call: Call | None, value: Any) -> str:
    """`` (that is x[1, 1])`` when ``value`` occurs exactly once in the call's input."""
    if call is None or framework_of(call.input) is None:
        return ""
    places = np.argwhere(to_numpy(call.input) == value)
    if len(places) != 1:
        return ""
    return f" (that is {entry(call.input_name, tuple(int(c) for c in places[0]))})"


def misread(where: tuple[int, ...], should: str, but: str, name: str = "out") -> str:
    """The wrong-coordinate sentence: ``out[1, 0] should <should>, but <but>``."""
    return f"{entry(name, where)} should {should}, but {but}"


def should_read(difference: Difference, call: Call | None) -> str:
    """``read x[1, 2] = 22 because index[1, 0] = 2``, else ``be 22``."""
    where = difference.where or ()
    step = step_at(call, where) if call is not None else None
    if call is not None and step is not None:
        return f"read {call.reads(step)}"
    return f"be {value_text(difference.expected)}"


def wrong_value_message(
    difference: Difference, call: Call | None, answer_says: str
) -> str:
    """``out[1, 0] should read x[1, 2] = 22 because index[1, 0] = 2, but ... 21.``"""
    got = value_text(difference.got)
    return (
        misread(
            difference.where or (),
            should_read(difference, call),
            f"{answer_says} {got}",
        )
        + f"{which_is(call, difference.got)}."
    )

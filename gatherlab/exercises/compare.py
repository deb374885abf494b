"""Compare an answer with the expected value and say, in one sentence, what differs.

Every exercise kind reports type, dtype, device, shape and value mistakes through this
module, so a wrong answer reads the same wherever it comes from: a ``Difference`` holds
the ``differ.*`` template of ``messages.json`` and its fields, and ``verdict(lead)``
words it after the checker's own lead (a ``lead.*`` phrase: "On hidden case 3 of 50, ").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from gatherlab._arrays import dtype_name, framework_of, to_numpy
from gatherlab.exercises.verdict import Field, Phrase, Verdict, phrase, picked

FRAMEWORK_NAMES = {
    "torch": "a torch.Tensor",
    "numpy": "a NumPy array",
    "tensorflow": "a TensorFlow tensor",
}


@dataclass(frozen=True)
class Difference:
    """What is wrong with an answer; ``where`` is the first wrong coordinate, if any.

    A difference other than a value (``where`` is None) has a ``template`` and its
    ``fields``, all but ``lead``: the checker's words before ``what``."""

    template: str | None = None
    fields: dict[str, Field] | None = None
    where: tuple[int, ...] | None = None
    got: Any = None  # the answer's value at ``where``
    expected: Any = None  # the expected value at ``where``
    shape: bool = False  # True when the shapes differ
    advice: tuple[str, dict[str, str]] | None = None  # shape_advice's, if they do

    def verdict(self, lead: Phrase | None = None) -> Verdict:
        """The difference worded after ``lead``; with no lead, ``what`` starts the
        sentence, capitalised."""
        assert self.template is not None and self.fields is not None
        fields = dict(self.fields)
        if lead is None:
            what = str(fields["what"])
            fields["what"] = what[:1].upper() + what[1:]
        return Verdict(False, self.template, {**fields, "lead": lead or ""})


def kind_of(value: Any) -> str:
    """A short name for what a value is: ``a list``, ``None``, ``a NumPy array``..."""
    if value is None:
        return "None"
    framework = framework_of(value)
    if framework:
        return FRAMEWORK_NAMES[framework]
    name = type(value).__name__
    return f"an {name}" if name[0] in "aeiou" else f"a {name}"


def shape_text(shape: tuple[int, ...]) -> str:
    """``(2, 3)``, and ``(2,)`` for one dim, the way Python prints a tuple."""
    return str(tuple(int(s) for s in shape))


def shape_advice(
    expected: tuple[int, ...], got: tuple[int, ...]
) -> tuple[str, dict[str, str]]:
    """The ``advice.*`` template and fields naming the dim that differs and, where one
    exists, the call that fixes it (exercises.mjs's ``shapeAdvice``: the same cases,
    checked on tools/cases/page_cases.py's stored pairs)."""
    expected, got = tuple(expected), tuple(got)
    if len(got) + 1 == len(expected):
        for d in range(len(expected)):
            if expected[:d] + expected[d + 1 :] == got:
                if expected[d] == 1:
                    return "advice.missing_unsqueeze", {"d": str(d)}
                sizes = expand_sizes(expected, d)
                fields = {"d": str(d), "size": str(expected[d]), "sizes": sizes}
                return "advice.missing_expand", fields
    if len(got) == len(expected) + 1:
        for d in range(len(got)):
            if got[d] == 1 and got[:d] + got[d + 1 :] == expected:
                return "advice.extra", {"d": str(d)}
    if len(got) != len(expected):
        counts = {"got": _dims(len(got)), "expected": _dims(len(expected))}
        return "advice.rank", counts
    if len(got) >= 2 and got == expected[:-2] + expected[-1:] + expected[-2:-1]:
        if len(got) == 2 and got[0] == 1:  # the index was unsqueezed on the wrong side
            return "advice.one_row", {"count": str(got[1])}
        return "advice.swapped", {}
    wrong = [d for d in range(len(got)) if got[d] != expected[d]]
    d = wrong[0]
    fields = {"d": str(d), "got": str(got[d]), "expected": str(expected[d])}
    if got[d] == 1 and len(wrong) == 1:
        return "advice.size_expand", {**fields, "sizes": expand_sizes(expected, d)}
    return "advice.size", fields


def expand_sizes(expected: tuple[int, ...], d: int) -> str:
    """``-1, -1, 4``: the arguments of an expand that sets dim ``d`` only."""
    return ", ".join(str(s) if i == d else "-1" for i, s in enumerate(expected))


def _dims(count: int) -> str:
    return "1 dim" if count == 1 else f"{count} dims"


def _type_difference(expected: Any, got: Any, what: str) -> Difference | None:
    want = framework_of(expected)
    have = framework_of(got)
    if want == have or want is None:
        return None
    if got is None:
        return Difference("differ.returned_none", {"what": what})
    return Difference(f"differ.framework_{want}", {"what": what, "kind": kind_of(got)})


def _readable(got: Any, what: str) -> tuple[np.ndarray | None, Difference | None]:
    """A NumPy view of a loosely typed answer (lists, tuples, tensors), or why not."""
    if got is None:
        return None, Difference("differ.none", {"what": what})
    try:
        values = to_numpy(got)
    except Exception:  # e.g. a ragged list; the reason matters more than the trace
        ragged = _ragged(got)
        if ragged:
            return None, Difference("differ.ragged", {"what": what, **ragged})
        return None, Difference("differ.unreadable", {"what": what})
    if values.dtype.kind not in "biuf":
        return None, Difference(
            "differ.not_numbers", {"what": what, "kind": kind_of(got)}
        )
    return values, None


def _entries(value: Any) -> Phrase:
    if not isinstance(value, (list, tuple)):
        return phrase("entries.number")
    if len(value) == 1:
        return phrase("entries.one")
    return phrase("entries.many", count=str(len(value)))


def _place(path: tuple[int, ...]) -> Phrase:
    """``row 1`` at the top level, ``entry [0][1]`` deeper down."""
    if len(path) == 1:
        return phrase("place.row", row=str(path[0]))
    return phrase("place.entry", path="".join(f"[{i}]" for i in path))


def _ragged(value: Any, path: tuple[int, ...] = ()) -> dict[str, Field] | None:
    """Where nested lists stop being rectangular (``row 1 has 2 entries but row 0
    has 3 entries``): differ.ragged's fields ``here``, ``here_has``, ``there``,
    ``there_has``."""
    if not isinstance(value, (list, tuple)) or not value:
        return None
    first = _entries(value[0])
    for i, item in enumerate(value):
        if _entries(item) != first:
            return {
                "here": _place((*path, i)),
                "here_has": _entries(item),
                "there": _place((*path, 0)),
                "there_has": first,
            }
    for i, item in enumerate(value):
        found = _ragged(item, (*path, i))
        if found:
            return found
    return None


def differences(
    expected: Any,
    got: Any,
    what: str = "your answer",
    strict: bool = True,
) -> Difference | None:
    """The first thing that differs between ``got`` and ``expected``, or None if equal.

    ``strict`` answers must match framework, dtype and device too (functions the learner
    writes); loose answers (predictions) are compared by shape and value only. A shape
    difference carries ``shape_advice``'s template and fields (``advice``), and them
    as the ``advice`` field's phrase.
    """
    if strict:
        problem = _type_difference(expected, got, what)
        if problem:
            return problem
        if dtype_name(got) != dtype_name(expected):
            return Difference(
                "differ.dtype",
                {
                    "what": what,
                    "got": dtype_name(got),
                    "expected": dtype_name(expected),
                },
            )
        got_device, want_device = (
            getattr(got, "device", None),
            getattr(expected, "device", None),
        )
        if framework_of(got) == "torch" and got_device != want_device:
            return Difference(
                "differ.device",
                {"what": what, "got": str(got_device), "expected": str(want_device)},
            )
        got_values = to_numpy(got)
    else:
        readable, problem = _readable(got, what)
        if readable is None:
            return problem
        got_values = readable
    want_values = to_numpy(expected)
    if got_values.shape != want_values.shape:
        advice = shape_advice(want_values.shape, got_values.shape)
        return Difference(
            "differ.shape",
            {
                "what": what,
                "got_shape": shape_text(got_values.shape),
                "expected_shape": shape_text(want_values.shape),
                "advice": picked(*advice),
            },
            shape=True,
            advice=advice,
        )
    if want_values.dtype.kind == "f" or got_values.dtype.kind == "f":
        wrong = ~np.isclose(
            got_values, want_values, rtol=1e-5, atol=1e-6, equal_nan=True
        )
    else:
        wrong = got_values != want_values
    if not np.any(wrong):
        return None
    where = tuple(int(c) for c in np.argwhere(np.asarray(wrong))[0])
    return Difference(
        where=where, got=got_values[where].item(), expected=want_values[where].item()
    )

"""The size rule of the TensorFlow or Keras op that sized a wrong result.

A segment op's ``num_segments``, a one-hot's ``depth`` (``num_classes``), a
bincount's ``minlength`` and ``maxlength``, a ``tf.scatter_nd``'s ``shape``: each
sets the output's size along the ids' axis, and where it is left out the op infers
it from the ids (``tf.math.segment_sum``, ``keras.utils.to_categorical``: the largest
id + 1; ``keras.ops.segment_sum`` on TensorFlow's backend: the number of distinct
ids). A result whose size along that axis is wrong, or an error of an id outside
that size, is explained by the op's rule, named in the first step with the size
the learner's call gave or left it (``patching.noting_sizing_ops`` notes the calls,
running the function again). The page cannot run these ops inside a torch
exercise (a tensor's ``.numpy()``), so it has no twin of this.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from gatherlab.exercises.misconceptions import Case
from gatherlab.exercises.patching import Sized
from gatherlab.exercises.verdict import Field, Verdict, phrase, picked
from gatherlab.exercises.writes import OFF_THE_SHAPE, OUT_OF_RANGE, ids_of

# ops whose output has a column per class (its last axis), not a slot per segment
ONE_HOT_OPS = (
    "tf.one_hot",
    "keras.ops.one_hot",
    "keras.utils.to_categorical",
    "keras.layers.CategoryEncoding",
    "torch.nn.functional.one_hot",
)
# the one-hot ops that raise for a label at or past their width (tf.one_hot and
# keras.ops.one_hot give it a row of zeros): their error's size is the width given
RAISING_ONE_HOTS = ("keras.utils.to_categorical", "torch.nn.functional.one_hot")
# torch's and NumPy's sizing ops (the page runs torch's: exercises.mjs's sizedByOp)
TORCH_SIZING = ("torch.nn.functional.one_hot", "torch.bincount", "np.bincount")
# the ops that infer their size, left without one, as the largest id + 1
INFER_LARGEST = (
    "keras.ops.segment_max",
    "keras.utils.to_categorical",
    "torch.nn.functional.one_hot",
    "torch.bincount",
    "np.bincount",
)


def _descriptions(given: int, case: Case) -> set[str]:
    """What ``given`` equals among the counts a learner takes from the ids of
    ``case``: the largest id + 1, the largest id, the number of distinct ids, the
    number of ids."""
    ids = ids_of(case)
    if ids is None:
        return set()
    count = int(ids["length"])
    found = set()
    for name, value in (
        ("over", int(ids["full"]) + 1),
        ("largest", ids["top"] + 1),
        ("top", ids["top"]),
        ("distinct", ids["distinct"]),
        ("length", count),
    ):
        if given == value:
            found.add(name)
    return found


def _out_of_range_size(message: str) -> int | None:
    """The size an error says an id fell outside of (a segment op's num_segments, a
    scatter_nd's shape along the first axis), or None."""
    found = OUT_OF_RANGE[2].search(message)
    if found is not None:
        return int(found["size"])
    found = OFF_THE_SHAPE.search(message)
    if found is not None:
        shape = [int(c) for c in found["shape"].split(",") if c]
        return shape[0] if shape else None
    return None


def sizing_note(
    case: Case, value: Any, error: BaseException | None, noted: Sequence[Sized]
) -> tuple[Sized, int] | None:
    """The call of ``noted`` whose size explains the wrong result (a result sized
    as it along the ids' dim, all else right) or the error (an id outside the size
    it gave), with that size; None where none does."""
    ids = ids_of(case)
    if ids is None:
        return None
    full, dim = int(ids["full"]), int(ids["dim"])
    if error is not None:
        raised = next((note for note in reversed(noted) if note.raised), None)
        if raised is None:
            return None
        if raised.op in RAISING_ONE_HOTS:  # a label past the width it was given
            given = raised.given
            return (raised, given) if given is not None and given < full else None
        size = _out_of_range_size(str(error))
        if size is None or size >= full or raised.op in ONE_HOT_OPS:
            return None
        return raised, size
    got = np.shape(value) if isinstance(value, np.ndarray) else None
    want = np.shape(case.expected)
    if got is None or len(got) != len(want) or got[dim] == full:
        return None
    if got[:dim] + got[dim + 1 :] != want[:dim] + want[dim + 1 :]:
        return None  # another dim is wrong too: more than the size rule
    for note in reversed(noted):
        if not note.raised and note.size == got[dim]:
            return note, int(got[dim])
    return None


def _how(note: Sized, size: int, case: Case) -> str:
    """How the call's size was decided: "given" (the argument, ``note.given``), or
    inferred by the op from the ids: "distinct" (Keras's segment_sum on TensorFlow's
    backend), "largest" (the largest id + 1), "" (another way)."""
    if note.given is not None and (note.given == size or note.param == "minlength"):
        return "given"  # a minlength below the largest id + 1 is given all the same
    if note.op == "keras.ops.segment_sum" and note.given is None:
        # the learner's call imported Keras (an optional package: never imported here)
        backend = sys.modules["keras"].backend.backend()
        return "distinct" if backend == "tensorflow" else ""
    infers_largest = (
        note.op.startswith("tf.math.segment_")
        or note.op in INFER_LARGEST
        or (note.op == "tf.math.bincount" and note.param == "minlength")
        or note.op == "keras.ops.bincount"
    )
    ids = ids_of(case)
    if infers_largest and ids is not None and ids["top"] + 1 == size:
        return "largest"
    return ""


def _what(notes: Iterable[tuple[Case, Sized | None]]) -> str:
    """The phrase key (``size_what.*``) of what the given sizes were, on every
    case the function was run on: the count both the largest id + 1 and the
    distinct ids were on all of them, one of those, the number of ids, or ""."""
    common: set[str] | None = None
    for case, other in notes:
        if other is None or other.given is None:
            continue
        found = _descriptions(other.given, case)
        common = found if common is None else common & found
        if not common:
            return ""
    if not common:
        return ""
    for key in ("over", "distinct", "top", "length", "largest"):
        if key in common and (key != "largest" or "distinct" not in common):
            return key
    return "both"  # the largest id + 1 and the distinct ids, on every case


def sized_by_op(
    case: Case,
    value: Any,
    error: BaseException | None,
    noted: Sequence[Sized],
    others: Callable[[], Iterable[tuple[Case, Sized | None]]],
) -> Verdict | None:
    """The verdict naming the size rule of the op that sized the wrong result on
    ``case`` (see the module), or None. ``others`` gives, on demand, each case
    with the learner's call of that op there (to tell the largest id + 1 from the
    distinct ids, which one case may not)."""
    found = sizing_note(case, value, error, noted)
    if found is None:
        return None
    note, size = found
    ids = ids_of(case)
    assert ids is not None
    words: dict[str, Field] = {
        "op": note.op,
        "param": note.param,
        "count": str(ids["count"]),
        "full": str(ids["full"]),
        "size": str(size),
        "index": str(ids["index"]),
        "slot": "column" if note.op in ONE_HOT_OPS else "slot",
        "past": phrase(f"size_past.{_past(note)}"),
    }
    how = _how(note, size, case)
    if how == "given":
        what = _what([(case, note), *others()])
        known = {"given": str(note.given)}
        words["what"] = (
            picked(f"size_what.{what}", {**known, **words}) if what else str(note.given)
        )
        rule, fix = GIVEN_RULES.get(note.op, "given"), "given"
        if note.op in TORCH_SIZING and rule == "columns":
            rule = "width"  # torch's words, shorter
        if note.op == "tf.scatter_nd":
            fix = "shape"
    elif note.op.startswith("tf.math.segment_"):
        reduction = note.op.removeprefix("tf.math.segment_")
        words["unsorted"] = f"tf.math.unsorted_segment_{reduction}"
        rule = fix = "no_count"
    elif how and note.param:
        words["how"] = phrase(f"size_how.{how}")
        rule = fix = "inferred"
        if note.op in TORCH_SIZING:
            rule = "inferred_short"  # torch's words, shorter
    else:
        return None
    raised: Field = ""
    if error is not None:
        raised = phrase("size_raised", error=type(error).__name__)
    return Verdict(
        False,
        "implement.sized_by_op",
        {
            "case": case.name,
            "raised": raised,
            "rule": picked(f"size_rule.{rule}", words),
            "fix": picked(f"size_fix.{fix}", words),
        },
    )


# the rule of an op whose size argument is no plain output size
GIVEN_RULES = {
    "tf.one_hot": "columns",
    "keras.ops.one_hot": "columns",
    "keras.utils.to_categorical": "columns",
    "tf.scatter_nd": "shape",
    "tf.math.bincount": "bincount",
    "keras.ops.bincount": "least",
    "keras.layers.CategoryEncoding": "columns",
    "torch.nn.functional.one_hot": "columns",
    "torch.bincount": "minlength",
    "np.bincount": "minlength",
}


def _past(note: Sized) -> str:
    """What the op does with an id at or past the size it was given: "zeros" (a
    one-hot's row of zeros), "dropped" (bincount's maxlength), "extends"
    (bincount's minlength, a least size), "raises" (else, on the CPU)."""
    if note.op in ("tf.one_hot", "keras.ops.one_hot", "keras.layers.CategoryEncoding"):
        return "zeros"
    if note.op in (
        "tf.math.bincount",
        "keras.ops.bincount",
        "torch.bincount",
        "np.bincount",
    ):
        return "dropped" if note.param == "maxlength" else "extends"
    return "raises"


MISSING_ARGUMENT = re.compile(r"[Mm]issing (?:1 )?required positional argument")


def missing_size(
    case: Case, error: BaseException | None, noted: Sequence[Sized]
) -> Verdict | None:
    """The verdict naming a size argument left out where the op requires it
    (tf.math.unsorted_segment_*'s num_segments, tf.one_hot's depth,
    keras.ops.one_hot's num_classes, tf.scatter_nd's shape): TensorFlow's TypeError
    names no argument (``Missing required positional argument``), so the call that
    raised it, noted, is named with its rule; None where no such call raised."""
    if not isinstance(error, TypeError) or not MISSING_ARGUMENT.search(str(error)):
        return None
    ids = ids_of(case)
    raised = [n for n in noted if n.raised and n.param and n.given is None]
    if ids is None or not raised or raised[-1].op not in REQUIRED_SIZES:
        return None
    note = raised[-1]
    return Verdict(
        False,
        "implement.missing_size",
        {
            "case": case.name,
            "op": note.op,
            "param": note.param,
            "count": str(ids["count"]),
            "index": str(ids["index"]),
            "slot": "column" if note.op in ONE_HOT_OPS else "slot",
        },
    )


# the ops whose size argument has no default (a call without it raises TypeError)
REQUIRED_SIZES = (
    *(f"tf.math.unsorted_segment_{r}" for r in ("sum", "mean", "max", "min", "prod")),
    "tf.math.unsorted_segment_sqrt_n",
    "tf.one_hot",
    "keras.ops.one_hot",
    "tf.scatter_nd",
)

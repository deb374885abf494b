"""TensorFlow's and Keras's writes in a torch exercise, named by their own rules.

- A write by coordinates (tf.tensor_scatter_nd_*, tf.scatter_nd, keras.ops.scatter,
  keras.ops.scatter_update) reads each index row as a coordinate from the output's
  first axis on: a one-number row names a row of the output, not a position along
  the dim the exercise writes (torch's scatter_(1, labels[:, None], 1)).
- A one-hot (tf.one_hot, keras.ops.one_hot) appends its class axis to the labels'
  own shape: labels of shape (N, 1) give (N, 1, classes).
- A repeated position kept once (``kept-one-write``) by tf.tensor_scatter_nd_update
  or keras.ops.scatter_update: that op overwrites, its adding twin is named.

Each is found by running the function again with a noting context
(``patching.noting_tf_writes``, ``noting_sizing_ops``). The page runs no
TensorFlow inside a torch exercise (a tensor's ``.numpy()``): no twin.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from gatherlab.exercises.compare import shape_text
from gatherlab.exercises.misconceptions import Case
from gatherlab.exercises.patching import Sized, TfWrite
from gatherlab.exercises.verdict import Field, Verdict, phrase

# an overwriting op and its adding twin
ADDING = {
    "tf.tensor_scatter_nd_update": "tf.tensor_scatter_nd_add",
    "keras.ops.scatter_update": "keras.ops.scatter",
}


def first_axis_write(
    case: Case, error: BaseException | None, noted: Sequence[TfWrite]
) -> Verdict | None:
    """The verdict naming a write by coordinates whose index rows are shorter than
    the dim the exercise writes along needs (see the module), or None."""
    write = case.write
    if write is None or not noted or case.framework != "torch":
        return None
    dim = write.indexed_dim
    call = noted[-1]
    if call.raised != (error is not None) or dim == 0:
        return None
    if not 0 < call.depth <= dim or call.rank <= dim:
        return None
    raised: Field = ""
    if error is not None:
        raised = phrase("size_raised", error=type(error).__name__)
    return Verdict(
        False,
        "implement.tf_write_first_axis",
        {
            "case": case.name,
            "raised": raised,
            "op": call.op,
            "rows": phrase("tf_write_rows.one")
            if call.depth == 1
            else phrase("tf_write_rows.more", depth=str(call.depth)),
            "dim": str(dim),
            "index": write.index_name,
        },
    )


def one_hot_axis(
    case: Case, value: Any, noted: Sequence[Sized], misconception: str | None
) -> Verdict | None:
    """The verdict naming a one-hot of labels with a trailing size-1 axis: the
    class axis goes after the labels' own shape (see the module), or None."""
    if not isinstance(value, np.ndarray):
        return None
    for note in reversed(noted):
        if note.op not in ("tf.one_hot", "keras.ops.one_hot") or note.raised:
            continue
        shape = note.ids_shape
        if len(shape) < 2 or shape[-1] != 1 or note.size is None:
            return None
        made = (*shape, note.size)
        if tuple(value.shape) != made or made == np.shape(case.expected):
            return None
        return Verdict(
            False,
            "implement.one_hot_axis",
            {
                "case": case.name,
                "op": note.op,
                "labels": shape_text(shape),
                "made": shape_text(made),
                "expected": shape_text(np.shape(case.expected)),
                "flat": shape_text(shape[:-1]),
            },
            misconception,
        )
    return None


def kept_by_op(found: Verdict, noted: Sequence[TfWrite]) -> Verdict:
    """A kept-one-write verdict of an answer that wrote with an overwriting
    TensorFlow or Keras op: that op named, and its adding twin as the fix."""
    if found.template != "mc.kept-one-write":
        return found
    ops = [call.op for call in noted if call.op in ADDING]
    if not ops:
        return found
    op = ops[-1]
    fields = dict(found.fields)
    fields["rule"] = phrase("kept.rule_tf", op=op, adding=ADDING[op])
    fields["fix"] = phrase("kept.fix_tf", adding=ADDING[op])
    return replace(found, fields=fields)


def scatter_nd_shape(case: Case, value: Any, noted: Sequence[Sized]) -> Verdict | None:
    """The verdict naming tf.scatter_nd's shape argument where the result is its
    output, of another rank than the one due: the op makes a new tensor of that
    shape (no tensor of the learner's is written into), or None."""
    if not isinstance(value, np.ndarray):
        return None
    due = tuple(np.shape(case.expected))
    for note in reversed(noted):
        if note.op != "tf.scatter_nd" or note.raised:
            continue
        if note.made != tuple(value.shape) or len(note.made) == len(due):
            return None
        return Verdict(
            False,
            "implement.scatter_nd_shape",
            {
                "case": case.name,
                "made": shape_text(note.made),
                "expected": shape_text(due),
                "listed": str(list(due)),
            },
        )
    return None

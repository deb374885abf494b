"""A torch exercise's read made with tf.gather or tf.gather_nd along params' first
axis, where the exercise reads within each row: tf.gather reads axis 0 unless given
``axis=``, and tf.gather_nd without ``batch_dims`` reads each coordinate from params'
first axis, so a position meant within its own row picks a whole slice of the batch
(a wrong shape), or raises past the batch's size. The first step names that rule
(``patching.noting_tf_reads`` notes the calls, running the function again). The page
cannot run TensorFlow inside a torch exercise (a tensor's ``.numpy()``), so it has no
twin of this; TensorFlow's own exercises keep their words.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from gatherlab._arrays import to_numpy
from gatherlab.exercises.compare import shape_text
from gatherlab.exercises.misconceptions import Case
from gatherlab.exercises.patching import TfRead
from gatherlab.exercises.verdict import Field, Verdict, phrase, picked

# TensorFlow's words for a position off the axis read (tf.gather, tf.gather_nd)
OFF_THE_AXIS = ("is not in [0, ", "does not index into param shape")


def first_axis_read(
    case: Case, value: Any, error: BaseException | None, noted: Sequence[TfRead]
) -> Verdict | None:
    """The verdict naming the first-axis rule of the learner's TensorFlow read on
    ``case`` (see the module), or None where it does not explain the result."""
    call = case.call
    if call is None or case.framework != "torch" or not noted:
        return None
    source = to_numpy(call.input)
    dim = int(call.axis or 0) % max(source.ndim, 1)
    read = noted[-1]
    if dim == 0 or read.rank != source.ndim or read.raised != (error is not None):
        return None
    if read.op == "tf.gather":
        if (read.axis or 0) % max(read.rank, 1) != 0:
            return None
        kind = "gather"
    else:
        if read.batch_dims != 0 or not 0 < read.depth < read.rank:
            return None
        kind = "gather_nd"
    words: dict[str, Field] = {
        "input": call.input_name,
        "index": case.positions,
        "depth": str(read.depth),
        "dim": str(dim),
        "size": str(source.shape[0]),
    }
    if error is not None:
        if not any(part in str(error) for part in OFF_THE_AXIS):
            return None
        detail = picked("tf_read_detail.raised", words)
        raised: Field = phrase("size_raised", error=type(error).__name__)
    else:
        got = np.shape(value) if isinstance(value, np.ndarray) else None
        if got is None or got == np.shape(case.expected):
            return None
        words["got_shape"] = shape_text(got)
        words["expected_shape"] = shape_text(np.shape(case.expected))
        detail = picked("tf_read_detail.shape", words)
        raised = ""
    return Verdict(
        False,
        "implement.tf_read_first_axis",
        {
            "case": case.name,
            "raised": raised,
            "rule": picked(f"tf_read_rule.{kind}", words),
            "detail": detail,
            "fix": picked(f"tf_read_fix.{kind}", words),
        },
    )

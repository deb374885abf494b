"""Chapter 6 exercises: writing by index, in the order the chapter places them.

Declarative on purpose: each exercise is a solution, a case generator and named wrong
answers (``mistakes``, ``hint``), so it ports to another exercise model as data. Each
names its ``Write`` (the write behind its value), so the writing-op misconceptions
(``writes.py``) explain its wrong answers; ``mistakes`` lists only what they do not.
"""

from __future__ import annotations

import numpy as np
import torch

from gatherlab._arrays import to_numpy
from gatherlab.exercises import Call, cases, fix, implement, predict
from gatherlab.exercises.verdict import Hinted
from gatherlab.exercises.writes import Write

# --- the mirror rule ----------------------------------------------------------------


def scatter_along_dim_0() -> torch.Tensor:
    """Each src entry goes to the row its index names, in its own column."""
    out = torch.zeros(2, 3, dtype=torch.int64)
    index = torch.tensor([[1, 0, 1]])
    src = torch.tensor([[7, 8, 9]])
    return out.scatter_(0, index, src)


predict(
    "06.predict_scatter_rows",
    "Predict a scatter_ along dim 0",
    code=scatter_along_dim_0,
    write=Write(
        "scatter",
        torch.zeros(2, 3, dtype=torch.int64),
        0,
        torch.tensor([[1, 0, 1]]),
        torch.tensor([[7, 8, 9]]),
        text="scatter_",
    ),
    mistakes={
        "the index moves every entry: index[0] = [1, 0, 1] sends 7 and 9 to row 1 "
        "and only 8 stays in row 0": [[7, 8, 9], [0, 0, 0]],
    },
)


def one_hot(labels: torch.Tensor, classes: int) -> torch.Tensor:
    """Row n is all 0 but a 1 in column labels[n]: scatter_ ones."""
    rows = torch.zeros(labels.shape[0], classes, dtype=torch.int64)
    return rows.scatter_(1, labels.unsqueeze(1), 1)


def _one_hot_case(rng: np.random.Generator) -> dict:
    samples, classes = cases.shape(rng, 2, high=6)
    return {
        "labels": cases.positions(rng, classes, (samples,)),
        "classes": classes,
    }


implement(
    "06.one_hot",
    "One-hot rows from labels with scatter_",
    solution=one_hot,
    example={"labels": torch.tensor([2, 0, 2]), "classes": 4},
    generate=_one_hot_case,
    call=None,
    forbid=("torch.nn.functional.one_hot",),
    dtype_due=", F.one_hot's dtype for integer labels",
    write=Write(
        "scatter",
        lambda labels, classes: torch.zeros(len(labels), classes, dtype=torch.int64),
        1,
        lambda labels, classes: labels.unsqueeze(1),
        1,
        text="scatter_",
        index_name="labels",
        src_name="1",
    ),
)


# --- duplicates ---------------------------------------------------------------------


def count_with_plus_equals() -> torch.Tensor:
    """x[idx] += 1 reads all, adds 1, writes back: repeats write one."""
    counts = torch.zeros(3, dtype=torch.int64)
    labels = torch.tensor([0, 2, 0, 0])
    counts[labels] += 1
    return counts


predict(
    "06.predict_repeated_plus_equals",
    "Predict counts[labels] += 1 with a repeated label",
    code=count_with_plus_equals,
    runs_because=(
        "repeated positions are allowed in an index assignment: the position keeps "
        "one of the writes (which one is not promised), not their sum"
    ),
    write=Write(
        "plus_equals",
        torch.zeros(3, dtype=torch.int64),
        0,
        torch.tensor([0, 2, 0, 0]),
        1,
        text="`counts[labels] += 1`, which reads counts[labels] once,",
        index_name="labels",
        src_name="1",
    ),
)


def class_loss_sums(
    losses: torch.Tensor, labels: torch.Tensor, classes: int
) -> torch.Tensor:
    """Sum of the losses of each class; a repeated class adds up."""
    sums = torch.zeros(classes, dtype=losses.dtype)
    return sums.index_add_(0, labels, losses)


def _class_loss_case(rng: np.random.Generator) -> dict:
    samples = int(rng.integers(1, 9))
    classes = int(rng.integers(1, 5))
    return {
        "losses": cases.values(rng, (samples,), torch.float64),
        "labels": cases.positions(rng, classes, (samples,)),
        "classes": classes,
    }


def _one_write_hint(
    args: dict, outcome: object, expected: torch.Tensor, where
) -> Hinted | None:
    """A class holding one of its losses, not their sum, kept one write."""
    if where is None:
        return None
    try:
        got = float(to_numpy(outcome)[where])
    except (TypeError, ValueError, IndexError):
        return None
    members = args["losses"][args["labels"] == where[0]].tolist()
    if len(members) > 1 and got in members:
        return "hint.one_write", {}
    return None


implement(
    "06.class_loss_sums",
    "Sum the losses of each class, repeated classes included",
    solution=class_loss_sums,
    example={
        "losses": torch.tensor([0.5, 1.25, 2.0, 0.25]),
        "labels": torch.tensor([1, 0, 1, 1]),
        "classes": 3,
    },
    generate=_class_loss_case,
    call=None,
    hint=_one_write_hint,
    write=Write(
        "index_add",
        lambda losses, labels, classes: torch.zeros(classes, dtype=losses.dtype),
        0,
        "labels",
        "losses",
        text="index_add_",
    ),
)


def max_with_include_self() -> torch.Tensor:
    """include_self=True (the default) keeps the old 5.0 in the max."""
    base = torch.full((3,), 5.0)
    index = torch.tensor([0, 0, 2])
    src = torch.tensor([1.0, 3.0, 7.0])
    return base.scatter_reduce(0, index, src, "amax")


predict(
    "06.predict_include_self",
    "Predict scatter_reduce with amax and the default include_self",
    code=max_with_include_self,
    write=Write(
        "scatter_reduce",
        torch.full((3,), 5.0),
        0,
        torch.tensor([0, 0, 2]),
        torch.tensor([1.0, 3.0, 7.0]),
        reduce="amax",
        text="scatter_reduce",
    ),
    mistakes={
        "the result is the whole tensor scatter_reduce writes into, positions "
        "nobody writes included: position 1 keeps its 5.0": [5.0, 7.0],
    },
)


def segment_means(
    values: torch.Tensor, segments: torch.Tensor, count: int
) -> torch.Tensor:
    """Mean of each segment's values; an empty segment gives 0."""
    sums = torch.zeros(count, dtype=values.dtype)
    sums.index_add_(0, segments, values)
    sizes = torch.zeros(count, dtype=values.dtype)
    sizes.index_add_(0, segments, torch.ones_like(values))
    return sums / sizes.clamp(min=1)


def _segment_case(rng: np.random.Generator) -> dict:
    size = int(rng.integers(1, 9))
    count = int(rng.integers(1, 5)) + int(rng.integers(0, 2))  # maybe an empty one
    return {
        "values": cases.values(rng, (size,), torch.float64),
        "segments": cases.positions(rng, max(count - 1, 1), (size,)),
        "count": count,
    }


implement(
    "06.segment_means",
    "Mean of every segment, empty segments 0",
    solution=segment_means,
    example={
        "values": torch.tensor([1.0, 2.0, 4.0, 8.0]),
        "segments": torch.tensor([0, 2, 0, 2]),
        "count": 4,
    },
    generate=_segment_case,
    call=None,
    write=Write(
        "scatter_reduce",
        lambda values, segments, count: torch.zeros(count, dtype=values.dtype),
        0,
        "segments",
        "values",
        reduce="mean",
        include_self=False,
        text='scatter_reduce(..., "mean", include_self=False)',
    ),
)


# --- writing where reading was meant ---------------------------------------------

tokens = torch.tensor([10, 11, 12, 13])
destination = torch.tensor([3, 0, 2, 1])


def read_where_it_went(tokens: torch.Tensor, destination: torch.Tensor):
    """destination says where each token goes; gather needs the
    inverse: for each output place, which token lands there."""
    return destination.argsort()


fix(
    "06.fix_write_as_read",
    "Read with gather what a scatter by destination would write",
    broken=Call(
        "gather", tokens, 0, destination, input_name="tokens", index_name="destination"
    ),  # fmt: skip
    solution=read_where_it_went,
    write=Write(
        "scatter",
        torch.zeros_like(tokens),
        0,
        destination,
        tokens,
        text="scatter_",
        index_name="destination",
        src_name="tokens",
    ),
)


# --- TensorFlow ---------------------------------------------------------------------


def scatter_nd_with_a_repeat():
    """tf.scatter_nd adds the updates of a repeated index."""
    import tensorflow as tf

    return tf.scatter_nd([[1], [1], [3]], [5, 6, 7], [4])


predict(
    "06.predict_scatter_nd",
    "Predict tf.scatter_nd with a repeated index",
    code=scatter_nd_with_a_repeat,
    value=np.array([0, 11, 0, 7], dtype=np.int32),
    write=Write(
        "index_put",
        torch.zeros(4, dtype=torch.int32),
        0,
        torch.tensor([1, 1, 3]),
        torch.tensor([5, 6, 7], dtype=torch.int32),
        accumulate=True,
        text="tf.scatter_nd",
        index_name="indices",
        src_name="updates",
    ),
    mistakes={
        "the output has the shape you pass, [4], with 0 where nothing is written": [
            11,
            7,
        ],
    },
)

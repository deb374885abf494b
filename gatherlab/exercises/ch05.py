"""Chapter 5 exercises: gradients through gather."""

from __future__ import annotations

import numpy as np
import torch

from gatherlab.exercises import Call, cases, fix, implement, predict
from gatherlab.exercises.predict import gather_nd_mistakes

values = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
repeats = torch.tensor([[0, 0, 2], [2, 1, 2]])


def gradient_of_a_sum() -> torch.Tensor | None:
    """Every weight is 1: each entry of x.grad counts its readers."""
    x = torch.tensor(
        [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]],
        requires_grad=True,
    )
    repeats = torch.tensor([[0, 0, 2], [2, 1, 2]])
    torch.gather(x, 1, repeats).sum().backward()
    return x.grad


predict(
    "05.predict_gradient",
    "Predict the gradient of a sum of gathered values",
    code=gradient_of_a_sum,
    explain=Call("gather", values, 1, repeats, index_name="repeats"),
    gradient=True,
)


rows = torch.tensor([[1, 0, 1], [1, 1, 0]])
upstream = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])


def weighted_gradient_along_dim_0() -> torch.Tensor | None:
    """A fresh x (x.grad is None); each read is weighted by upstream."""
    x = torch.tensor(
        [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]],
        requires_grad=True,
    )
    rows = torch.tensor([[1, 0, 1], [1, 1, 0]])
    upstream = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    (torch.gather(x, 0, rows) * upstream).sum().backward()
    return x.grad


predict(
    "05.predict_weighted_gradient",
    "Predict a weighted gradient along dim 0",
    code=weighted_gradient_along_dim_0,
    explain=Call("gather", values, 0, rows, index_name="rows"),
    gradient=True,
    grad_output=upstream,
)


def label_scores(
    log_probs: torch.Tensor,
    labels: torch.Tensor,
) -> torch.Tensor:
    """Each sample's log-probability for its label: NLL loss's core."""
    return torch.gather(log_probs, 1, labels.unsqueeze(1))


def _label_scores_case(rng: np.random.Generator) -> dict[str, torch.Tensor]:
    samples, classes = cases.shape(rng, 2)
    return {
        "log_probs": cases.values(rng, (samples, classes), torch.float64),
        "labels": cases.positions(rng, classes, (samples,)),
    }


implement(
    "05.label_scores",
    "Read each sample's log-probability for its label",
    solution=label_scores,
    example={
        "log_probs": torch.tensor([[-1.2, -0.4, -2.3], [-0.1, -3.0, -2.6]]),
        "labels": torch.tensor([1, 0]),
    },
    generate=_label_scores_case,
    call=Call(
        "gather",
        "log_probs",
        1,
        lambda log_probs, labels: labels.unsqueeze(1),
        index_name="labels.unsqueeze(1)",
    ),
    gradient="log_probs",
)


scores = torch.tensor([[0.2, 0.8, 0.1], [0.9, 0.3, 0.4]])


def integer_positions(
    scores: torch.Tensor, soft_positions: torch.Tensor
) -> torch.Tensor:
    """Positions are whole numbers: round, then make them int64."""
    return soft_positions.round().long()


fix(
    "05.fix_float_positions",
    "Gather at positions that came out of a float computation",
    broken=Call(
        "gather",
        scores,
        1,
        (torch.tensor([[0.4], [0.3]]) - 0.3) / 0.1,
        input_name="scores",
        index_name="soft_positions",
    ),
    solution=integer_positions,
)


def coordinates_by_row():
    """Each row of the index is one (row, column) coordinate."""
    import tensorflow as tf

    grid = tf.constant([[0, 1, 2], [10, 11, 12], [20, 21, 22]])
    return tf.gather_nd(grid, [[0, 2], [1, 1]])


predict(
    "05.predict_gather_nd_axis",
    "Predict which axis of a gather_nd index holds the coordinates",
    code=coordinates_by_row,
    value=np.array([2, 11], dtype=np.int32),
    runs_because="each row of the index, [0, 2] and then [1, 1], is one (row, column) "
    "coordinate inside grid's (3, 3), so tf.gather_nd reads one value per row",
    # each mistake with the rule it breaks, derived from the call's params and
    # indices (coordinates read as (x, y), by column, or as tf.gather's rows)
    mistakes=gather_nd_mistakes(
        [[0, 1, 2], [10, 11, 12], [20, 21, 22]], [[0, 2], [1, 1]]
    ),
    tf_op="gather_nd",
)


def densified_gradient():
    """Row 2 is read twice; convert_to_tensor adds its two slices."""
    import tensorflow as tf

    table = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    weights = tf.constant([[1.0], [2.0], [3.0]])
    with tf.GradientTape() as tape:
        rows = tf.gather(table, [2, 0, 2])
        loss = tf.reduce_sum(rows * weights)
    slices = tape.gradient(loss, table)  # tf.IndexedSlices
    return tf.convert_to_tensor(slices)


_REPEATS_ADD = (
    "IndexedSlices keeps a slice per read, row 2 two (weights 1 and 3), and "
    "tf.convert_to_tensor adds them: row 2 is 1 + 3 = 4, not "
)

predict(
    "05.predict_dense_slices",
    "Predict a densified IndexedSlices gradient",
    code=densified_gradient,
    value=np.array([[2.0, 2.0], [0.0, 0.0], [4.0, 4.0]], dtype=np.float32),
    runs_because="the IndexedSlices knows its dense shape, table's (3, 2), so "
    "tf.convert_to_tensor puts each slice in its row and adds the two slices of row 2",
    # the read behind the gradient: tf.gather along axis 0 reads rows as
    # index_select does; each read row weighted by its row of weights
    explain=Call(
        "index_select",
        torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),
        0,
        torch.tensor([2, 0, 2]),
        input_name="table",
        index_name="[2, 0, 2]",
    ),
    gradient=True,
    grad_output=torch.tensor([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]),
    gradient_name="tf.convert_to_tensor(slices)",
    mistakes={
        _REPEATS_ADD + "its first read alone": [[2, 2], [0, 0], [1, 1]],
        _REPEATS_ADD + "its last read alone": [[2, 2], [0, 0], [3, 3]],
        "that is slices.values, one slice per read in the order of the index "
        "[2, 0, 2]; tf.convert_to_tensor puts each slice in its own row of table "
        "and adds the repeats": [[1, 1], [2, 2], [3, 3]],
    },
)

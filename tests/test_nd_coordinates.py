"""tf.gather_nd's coordinates on the index's first axis (MXNet's layout) named in the
first step (nd-coordinates-first-axis), on variants of the collected code, where it
raises and where it reads other values; and the fact it rests on, in TensorFlow."""

from __future__ import annotations

import numpy as np
import pytest

from gatherlab.exercises import check
from gatherlab.exercises.misconceptions import gather_nd

tf = pytest.importorskip("tensorflow")


def _stacked_default(features, positions):
    # tf.stack's default axis is 0
    rows = tf.broadcast_to(
        tf.range(tf.shape(positions)[0], dtype=positions.dtype)[:, None],
        tf.shape(positions),
    )
    return tf.gather_nd(features, tf.stack([rows, positions]))


def _concatenated(features, positions):
    rows = (
        tf.zeros_like(positions)
        + tf.range(tf.shape(positions)[0], dtype=positions.dtype)[:, None]
    )
    return tf.gather_nd(features, tf.concat([rows[None], positions[None]], axis=0))


@pytest.mark.parametrize("answer", [_stacked_default, _concatenated])
def test_coordinates_on_the_first_axis_are_named(answer):
    result = check("02.tf_gather_nd_pairs", answer)
    assert result.verdict is not None
    assert result.verdict.misconception == "nd-coordinates-first-axis", result.words
    assert "reads a coordinate along the index's last axis" in result.message
    assert "axis=-1" in result.message


def test_the_right_layout_passes():
    def pairs(features, positions):
        rows = tf.broadcast_to(
            tf.range(tf.shape(positions)[0], dtype=positions.dtype)[:, None],
            tf.shape(positions),
        )
        return tf.gather_nd(features, tf.stack([rows, positions], axis=-1))

    assert check("02.tf_gather_nd_pairs", pairs).passed


def test_the_model_of_gather_nd_is_tensorflows():
    rng = np.random.default_rng(3)
    params = rng.integers(0, 50, (3, 4, 2))
    for indices in (
        np.array([[0, 1], [2, 3]]),  # pairs on the last axis
        np.array([[[0, 0], [1, 2]], [[1, 3], [0, 1]]]),
        np.array([[1], [2]]),
        np.array([[0, 1, 1]]),
    ):
        want = tf.gather_nd(params, indices).numpy()
        assert np.array_equal(gather_nd(params, indices), want)
    # stacked on axis 0: each coordinate runs across picks, and may fall outside
    bad = np.stack(
        [np.array([[0, 0], [1, 1], [2, 2]]), np.array([[3, 0], [1, 2], [0, 3]])]
    )
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.gather_nd(params, bad)
    assert gather_nd(params, bad).type == "InvalidArgumentError"
    with pytest.raises(tf.errors.InvalidArgumentError, match="innermost dimension"):
        tf.gather_nd(params, np.zeros((2, 3, 4), dtype=np.int64))

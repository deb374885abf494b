"""The TensorFlow facts the book relies on, and torch.gather's backward rule."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from gatherlab.tf import tensorflow
from tests.gather_cases import calls

tf = tensorflow()
PARAMS = tf.constant([[10.0, 11.0, 12.0], [20.0, 21.0, 22.0]])


@pytest.mark.parametrize(
    ("gather", "message"),
    [
        (
            lambda: tf.gather(PARAMS, [3], axis=1),
            r"indices\[0\] = 3 is not in \[0, 3\)",
        ),
        (lambda: tf.gather(PARAMS, [-1], axis=1), r"indices\[0\] = -1 is not in"),
        (lambda: tf.gather_nd(PARAMS, [[0, 3]]), r"\[0, 3\] does not index into"),
        (lambda: tf.gather_nd(PARAMS, [[-1, 0]]), r"\[-1, 0\] does not index into"),
    ],
)
def test_bad_positions_raise_invalid_argument_on_cpu(gather, message):
    with (
        tf.device("/CPU:0"),
        pytest.raises(tf.errors.InvalidArgumentError, match=message),
    ):
        gather()


@st.composite
def batch_gathers(draw):
    """params, indices, axis and batch_dims that tf.gather accepts."""
    batch = tuple(draw(st.lists(st.integers(1, 3), max_size=2)))
    params_rest = tuple(draw(st.lists(st.integers(1, 3), min_size=1, max_size=3)))
    indices_rest = tuple(draw(st.lists(st.integers(0, 3), max_size=2)))
    params_shape = batch + params_rest
    axis = draw(st.integers(len(batch), len(params_shape) - 1))
    indices = np.zeros(batch + indices_rest, dtype=np.int64)
    if indices.size:
        seed = draw(st.integers(0, 2**16))
        high = params_shape[axis]
        indices = np.random.default_rng(seed).integers(0, high, size=indices.shape)
    return np.zeros(params_shape, np.float32), indices, axis, len(batch)


@settings(max_examples=120, derandomize=True, deadline=None)
@given(batch_gathers())
def test_tf_gather_output_shape_rule(case):
    params, indices, axis, batch_dims = case
    out = tf.gather(params, indices, axis=axis, batch_dims=batch_dims)
    expected = (
        params.shape[:axis] + indices.shape[batch_dims:] + params.shape[axis + 1 :]
    )
    assert tuple(out.shape) == expected


def _gradient(gather):
    params = tf.Variable(PARAMS)
    with tf.GradientTape() as tape:
        out = gather(params)
    return tape.gradient(out, params)


@pytest.mark.parametrize(
    ("gather", "kind"),
    [
        (lambda p: tf.gather(p, [1, 1], axis=0), tf.IndexedSlices),
        (lambda p: tf.gather(p, [2, 2], axis=1), tf.Tensor),
        (lambda p: tf.gather(p, [[2, 0], [1, 1]], axis=1, batch_dims=1), tf.Tensor),
        (lambda p: tf.gather_nd(p, [[1], [1]]), tf.IndexedSlices),
        (lambda p: tf.gather_nd(p, [[1, 0], [1, 0]]), tf.Tensor),
    ],
)
def test_gradient_types(gather, kind):
    gradient = _gradient(gather)
    assert isinstance(gradient, kind)
    if kind is tf.Tensor:
        assert not isinstance(gradient, tf.IndexedSlices)


def test_dense_conversion_sums_repeated_indices():
    slices = _gradient(lambda p: tf.gather(p, [1, 1, 0], axis=0))
    assert slices.indices.numpy().tolist() == [1, 1, 0]  # duplicates kept
    dense = tf.convert_to_tensor(slices)
    assert dense.numpy().tolist() == [[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]]


@settings(max_examples=200, derandomize=True, deadline=None)
@given(calls(ops=("gather",), mutations=("valid",)), st.integers(0, 2**16))
def test_torch_gather_backward_is_scatter_add(call, seed):
    input = call.input.double().requires_grad_()
    try:
        out = torch.gather(input, call.dim, call.index)
    except RuntimeError:  # a drawn size-0 axis can leave no valid position
        return
    generator = torch.Generator().manual_seed(seed)
    upstream = torch.randn(out.shape, generator=generator, dtype=torch.float64)
    out.backward(upstream)
    expected = torch.zeros_like(input).scatter_add_(call.dim, call.index, upstream)
    assert torch.equal(input.grad, expected)

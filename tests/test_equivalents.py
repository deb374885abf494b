"""gl.equivalents: five other ways to write torch.gather, checked against it."""

from __future__ import annotations

import inspect

import numpy as np
import pytest
import torch
from hypothesis import given, settings

from gatherlab import equivalents
from gatherlab._arrays import to_numpy
from gatherlab.tf import tensorflow
from tests.gather_cases import calls

TF_NUMPY = "tf.experimental.numpy.take_along_axis on the cut input"
X = torch.tensor([[10, 11, 12, 13], [20, 21, 22, 23], [30, 31, 32, 33]])


def _run(name, function, input, dim, index):
    if name == "advanced indexing":
        return function(input, dim, index)
    return function(input.numpy(), dim, index.numpy())


@settings(max_examples=250, derandomize=True, deadline=None)
@given(calls(ops=("gather",), mutations=("valid",)))
def test_every_equivalent_matches_torch_gather(call):
    try:
        expected = call.run()
    except RuntimeError:  # a drawn size-0 axis can leave no valid position
        return
    for name, function in equivalents.EQUIVALENTS.items():
        if name == TF_NUMPY and call.input.shape[call.dim] == 0:
            continue  # TensorFlow refuses this empty case: see the test below
        got = to_numpy(_run(name, function, call.input, call.dim, call.index))
        assert got.shape == tuple(expected.shape), name
        assert np.array_equal(got, expected.numpy()), name


def test_index_smaller_than_input_needs_the_input_cut_for_numpy():
    index = torch.tensor([[3, 0]])  # one row, while X has three
    expected = torch.gather(X, 1, index)
    assert expected.tolist() == [[13, 10]]
    # Uncut, NumPy broadcasts the one row of positions over all three rows of X,
    # and so does take_along_dim: the cut is what makes them equal to gather.
    assert np.take_along_axis(X.numpy(), index.numpy(), 1).shape == (3, 2)
    assert torch.take_along_dim(X, index, 1).shape == (3, 2)
    cut_names = [name for name in equivalents.EQUIVALENTS if "take_along_axis" in name]
    assert cut_names and all(name.endswith("on the cut input") for name in cut_names)
    for name, function in equivalents.EQUIVALENTS.items():
        assert to_numpy(_run(name, function, X, 1, index)).tolist() == [[13, 10]], name


def test_tf_gather_with_batch_dims_on_the_original_axis_is_not_gather():
    tf = tensorflow()
    cube = torch.arange(24).reshape(2, 3, 4)
    index = torch.tensor([[[2, 0, 1, 1]], [[0, 0, 2, 1]]])  # gather along dim 1
    expected = torch.gather(cube, 1, index)
    naive = tf.gather(cube.numpy(), index.numpy(), axis=1, batch_dims=1)
    assert naive.shape == (2, 1, 4, 4) != tuple(expected.shape)
    moved = equivalents.gather_with_tf_batch_dims(cube.numpy(), 1, index.numpy())
    assert moved.numpy().tolist() == expected.tolist()


def test_negative_positions_split_the_family():
    index = torch.tensor([[-1], [0], [0]])
    with pytest.raises(RuntimeError, match="index -1 is out of bounds"):
        torch.gather(X, 1, index)
    wrapped = equivalents.gather_by_indexing(X, 1, index)
    assert wrapped.tolist() == [[13], [20], [30]]
    assert equivalents.gather_with_numpy(X.numpy(), 1, index.numpy()).tolist() == (
        wrapped.tolist()
    )


def test_each_equivalent_is_short_enough_to_print():
    for function in equivalents.EQUIVALENTS.values():
        source = inspect.getsource(function)
        assert len(source.splitlines()) <= 25, function.__name__
        assert function.__doc__


def test_tf_take_along_axis_refuses_an_empty_axis_that_numpy_accepts():
    tf = tensorflow()
    input, index = np.zeros((0, 1, 1)), np.zeros((1, 1, 0), dtype=np.int64)
    assert torch.gather(torch.as_tensor(input), 0, torch.as_tensor(index)).shape == (
        1,
        1,
        0,
    )
    assert np.take_along_axis(input[:, :, :0], index, 0).shape == (1, 1, 0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="should be equal to"):
        equivalents.gather_with_tf_numpy(input, 0, index)


def test_same_shape_and_values_compares_across_libraries():
    tf = tensorflow()
    same = equivalents.same_shape_and_values
    assert same(tf.constant([[13, 10]]), torch.tensor([[13, 10]]))
    assert same(np.array([1, 2]), [1, 2])
    assert not same(torch.tensor([[13, 10]]), torch.tensor([13, 10]))  # shape
    assert not same(torch.tensor([13, 11]), np.array([13, 10]))

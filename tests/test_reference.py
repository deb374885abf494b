"""The executable specs in gl.reference agree with PyTorch value for value."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import gatherlab as gl
from gatherlab.tf import tensorflow
from tests.gather_cases import OPS, calls

X = torch.tensor([[10, 11, 12], [20, 21, 22]])
POSITION_RULES = ("negative-index", "index-out-of-range", "empty-input")


def run_spec(call):
    spec = getattr(gl.reference, call.op)
    if call.op == "take":
        return spec(call.input, call.index)
    if call.op == "take_along_dim":
        return spec(call.input, call.index, call.dim)
    return spec(call.input, call.dim, call.index)


@pytest.mark.parametrize("op", OPS)
@settings(max_examples=300, derandomize=True, deadline=None)
@given(data=st.data())
def test_spec_matches_torch_value_for_value(op, data):
    call = data.draw(calls(ops=(op,)), label="call")
    try:
        expected = call.run()
    except Exception:  # the specs only promise what happens to valid calls...
        problems = gl.diagnose(call.input, call.dim, call.index, call.op)
        if problems[0].rule in POSITION_RULES:  # ...and to refused positions
            with pytest.raises(IndexError):
                run_spec(call)
        return
    got = run_spec(call)
    assert isinstance(got, torch.Tensor)
    assert got.dtype == expected.dtype
    assert got.shape == expected.shape
    assert torch.equal(got, expected)


def test_gather_reads_along_dim_and_keeps_the_other_coordinates():
    columns = torch.tensor([[2, 0], [1, 1]])
    assert gl.reference.gather(X, 1, columns).tolist() == [[12, 10], [21, 21]]
    rows = torch.tensor([[1, 0, 1]])
    assert gl.reference.gather(X, 0, rows).tolist() == [[20, 11, 22]]


def test_take_along_dim_wraps_modulo_the_size_as_torch_does():
    index = torch.tensor([[5, -1], [-7, 3]])
    expected = torch.take_along_dim(X, index, 1)
    assert gl.reference.take_along_dim(X, index, 1).tolist() == expected.tolist()
    assert expected.tolist() == [[12, 12], [22, 20]]


def test_take_wraps_negatives_once_and_refuses_beyond():
    assert gl.reference.take(X, torch.tensor([-1, -6])).tolist() == [22, 10]
    with pytest.raises(IndexError, match="-1 is outside 0..5"):
        gl.reference.take(X, torch.tensor([-7]))


def test_zero_d_values_behave_as_in_torch():
    scalar, one = torch.tensor(5), torch.tensor([7, 8])
    pairs = [
        (gl.reference.gather(scalar, 0, torch.tensor([0, 0])), torch.tensor([5, 5])),
        (gl.reference.gather(one, 0, torch.tensor(1)), torch.tensor(8)),
        (gl.reference.index_select(scalar, 0, torch.tensor([0])), torch.tensor(5)),
        (gl.reference.index_select(X, 1, torch.tensor(2)), torch.tensor([[12], [22]])),
        (gl.reference.take(scalar, torch.tensor([[0, -1]])), torch.tensor([[5, 5]])),
        (gl.reference.take_along_dim(scalar, torch.tensor(0)), torch.tensor([5])),
    ]
    for got, expected in pairs:
        assert got.shape == expected.shape and torch.equal(got, expected)
    with pytest.raises(IndexError, match="0-d input has no dim"):
        gl.reference.take_along_dim(scalar, torch.tensor(0), 0)


@pytest.mark.parametrize("op", OPS)
def test_specs_accept_numpy_tensorflow_and_lists(op):
    tf = tensorflow()
    index = [[1, 0], [2, 2]] if op != "index_select" else [2, 0]
    dim = None if op == "take" else 1
    args = (index,) if op == "take" else (dim, index)
    if op == "take_along_dim":
        args = (index, dim)
    spec = getattr(gl.reference, op)
    expected = spec(X, *[torch.tensor(a) if isinstance(a, list) else a for a in args])
    from_numpy = spec(X.numpy(), *args)
    from_tf = spec(tf.constant(X.numpy()), *args)
    from_lists = spec(X.tolist(), *args)
    assert isinstance(from_numpy, np.ndarray)
    assert isinstance(from_tf, tf.Tensor)
    for got in (from_numpy, from_tf.numpy(), from_lists):
        assert np.array_equal(got, expected.numpy())

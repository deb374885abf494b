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
from tests.scatter_cases import ONE_WRITE_WINS, WriteCall, draw_write
from tests.scatter_cases import OPS as WRITE_OPS

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


# --- the writing ops --------------------------------------------------------------


def _written_twice(call: WriteCall) -> dict[tuple[int, ...], list]:
    """The positions that ``call`` writes more than once, with the values written."""
    writes = call.writes()
    received: dict[tuple[int, ...], list] = {}
    for target, value in writes:
        received.setdefault(target, []).append(value)
    return {t: values for t, values in received.items() if len(values) > 1}


@pytest.mark.parametrize("op", WRITE_OPS)
@settings(max_examples=150, derandomize=True, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_writing_spec_matches_torch_value_for_value(op, seed):
    call = draw_write(np.random.default_rng(seed), op)
    expected, got = call.run(), call.spec()
    assert isinstance(got, torch.Tensor)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    if call.op in ONE_WRITE_WINS:
        # PyTorch promises no winner where a position is written twice: it must hold
        # one of the values written there, and everywhere else match the spec.
        for target, values in _written_twice(call).items():
            assert expected[target].item() in [np.asarray(v).item() for v in values]
            got[target] = expected[target]
    if got.dtype.is_floating_point:
        torch.testing.assert_close(got, expected, rtol=1e-12, atol=0)
    else:
        assert torch.equal(got, expected), call


def test_the_generated_writes_repeat_positions_for_every_op():
    """Half the generated calls write some position twice: duplicates are tested."""
    rng = np.random.default_rng(0)
    for op in ONE_WRITE_WINS:
        repeated = sum(bool(_written_twice(draw_write(rng, op))) for _ in range(40))
        assert repeated >= 8, (op, repeated)


def test_scatter_writes_where_gather_reads():
    """The mirror rule: scatter_ puts src[i][j] at self[index[i][j]][j] (dim=0)."""
    index = torch.tensor([[1, 0, 1]])
    src = torch.tensor([[7, 8, 9]])
    written = gl.reference.scatter(torch.zeros(2, 3, dtype=torch.int64), 0, index, src)
    assert written.tolist() == [[0, 8, 0], [7, 0, 9]]
    assert gl.reference.gather(written, 0, index).tolist() == src.tolist()


def test_scatter_reduce_rounds_an_integer_mean_down_as_torch_does():
    target, index = torch.tensor([-5, 7]), torch.tensor([0, 0])
    src = torch.tensor([-2, 0])
    expected = target.clone().scatter_reduce_(0, index, src, "mean")
    assert expected.tolist() == [-3, 7]  # (-5 - 2 + 0) / 3 = -2.33, floored
    got = gl.reference.scatter_reduce(target, 0, index, src, "mean")
    assert got.tolist() == [-3, 7]
    with pytest.raises(ValueError, match="reduce must be one of"):
        gl.reference.scatter_reduce(target, 0, index, src, "max")


def test_writing_specs_refuse_what_torch_refuses():
    x = torch.zeros(2, 3, dtype=torch.int64)
    with pytest.raises(IndexError, match="index\\[0, 0\\] = -1 is outside 0..2"):
        gl.reference.scatter(x, 1, torch.tensor([[-1]]), torch.tensor([[5]]))
    with pytest.raises(RuntimeError):
        x.clone().scatter_(1, torch.tensor([[-1]]), torch.tensor([[5]]))
    with pytest.raises(ValueError, match="index may not be larger than src"):
        gl.reference.scatter(x, 1, torch.tensor([[0, 1]]), torch.tensor([[5]]))
    with pytest.raises(RuntimeError):
        x.clone().scatter_(1, torch.tensor([[0, 1]]), torch.tensor([[5]]))
    column = torch.zeros(3, 1, dtype=torch.int64)  # 3 rows, where x has 2
    with pytest.raises(ValueError, match="apart from dim 1"):
        gl.reference.scatter(x, 1, column, column)
    with pytest.raises(RuntimeError):
        x.clone().scatter_(1, column, column)
    mask = torch.ones(2, 3, dtype=torch.bool)
    with pytest.raises(IndexError, match="mask selects 6 entries but source has 2"):
        gl.reference.masked_scatter(x, mask, torch.tensor([1, 2]))
    with pytest.raises(RuntimeError):
        x.clone().masked_scatter_(mask, torch.tensor([1, 2]))
    # index_fill_, index_put_ and put_ wrap -1 as Python indexing does; others raise
    assert gl.reference.index_fill(x, 1, torch.tensor([-1]), 4).tolist() == (
        x.clone().index_fill_(1, torch.tensor([-1]), 4).tolist()
    )
    with pytest.raises(IndexError, match="index\\[0\\] = -1 is outside 0..2"):
        gl.reference.index_add(x, 1, torch.tensor([-1]), torch.ones(2, 1))


def test_index_put_without_accumulate_keeps_one_write():
    x = torch.zeros(3, dtype=torch.int64)
    rows, values = torch.tensor([1, 1]), torch.tensor([5, 6])
    assert x.clone().index_put_((rows,), values, accumulate=True).tolist() == [0, 11, 0]
    assert gl.reference.index_put(x, (rows,), values, accumulate=True).tolist() == [
        0, 11, 0,
    ]  # fmt: skip
    kept = x.clone().index_put_((rows,), values).tolist()
    assert kept in ([0, 5, 0], [0, 6, 0])

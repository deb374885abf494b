"""gl.trace: a line per output coordinate, the same for torch, NumPy and TensorFlow."""

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
COLUMNS = torch.tensor([[2, 0], [1, 1]])


def test_gather_trace_prints_one_line_per_output_coordinate():
    assert str(gl.trace(X, 1, COLUMNS)).splitlines() == [
        "out[0, 0] ← index[0, 0] = 2 → x[0, 2] = 12",
        "out[0, 1] ← index[0, 1] = 0 → x[0, 0] = 10",
        "out[1, 0] ← index[1, 0] = 1 → x[1, 1] = 21",
        "out[1, 1] ← index[1, 1] = 1 → x[1, 1] = 21",
    ]


def test_index_select_trace_reads_the_shared_position():
    lines = str(gl.trace(X, 1, torch.tensor([2, 0]), op="index_select"))
    assert lines.splitlines() == [
        "out[0, 0] ← index[0] = 2 → x[0, 2] = 12",
        "out[0, 1] ← index[1] = 0 → x[0, 0] = 10",
        "out[1, 0] ← index[0] = 2 → x[1, 2] = 22",
        "out[1, 1] ← index[1] = 0 → x[1, 0] = 20",
    ]


def test_take_trace_goes_through_the_flat_position_and_wraps_negatives():
    lines = str(gl.trace(X, None, torch.tensor([4, -1]), op="take"))
    assert lines.splitlines() == [
        "out[0] ← index[0] = 4 → flat 4 = x[1, 1] = 21",
        "out[1] ← index[1] = -1 (wraps to 5) → flat 5 = x[1, 2] = 22",
    ]


def test_take_along_dim_trace_shows_broadcasting_and_the_modulo_wrap():
    index = torch.tensor([[5, -1]])  # one row of positions, broadcast to both rows
    trace = gl.trace(X, 1, index, op="take_along_dim", source_name="scores")
    assert str(trace).splitlines() == [
        "out[0, 0] ← index[0, 0] = 5 (wraps to 2) → scores[0, 2] = 12",
        "out[0, 1] ← index[0, 1] = -1 (wraps to 2) → scores[0, 2] = 12",
        "out[1, 0] ← index[0, 0] = 5 (wraps to 2) → scores[1, 2] = 22",
        "out[1, 1] ← index[0, 1] = -1 (wraps to 2) → scores[1, 2] = 22",
    ]
    assert torch.take_along_dim(X, index, 1).tolist() == [[12, 12], [22, 22]]


def test_take_along_dim_without_dim_traces_the_flattened_call():
    trace = gl.trace(X, None, torch.tensor([[5], [1]]), op="take_along_dim")
    assert trace.dim is None
    assert str(trace).splitlines() == [
        "out[0] ← index[0, 0] = 5 → flat 5 = x[1, 2] = 22",
        "out[1] ← index[1, 0] = 1 → flat 1 = x[0, 1] = 11",
    ]


def test_zero_d_coordinates_print_without_brackets():
    assert str(gl.trace(torch.tensor([7, 8]), 0, torch.tensor(1))) == (
        "out ← index = 1 → x[1] = 8"
    )


def test_step_lookup_by_output_coordinate():
    trace = gl.trace(X, 1, COLUMNS)
    step = trace[1, 0]
    assert step == gl.Step((1, 0), (1, 0), 1, 1, (1, 1), 21)
    assert trace.line(step) == "out[1, 0] ← index[1, 0] = 1 → x[1, 1] = 21"
    assert gl.trace(X, None, torch.tensor([3, 4]), op="take")[1].source == (1, 1)
    with pytest.raises(KeyError):
        trace[2, 0]
    assert len(trace) == 4 and [s.value for s in trace] == [12, 10, 21, 21]


def test_steps_are_plain_python():
    step = gl.trace(X.float() / 10, 1, COLUMNS)[0, 0]
    assert step == gl.Step((0, 0), (0, 0), 2, 2, (0, 2), pytest.approx(1.2), None)
    assert type(step.value) is float and type(step.position) is int


def test_html_table_shows_every_coordinate():
    page = gl.trace(X, 1, COLUMNS, source_name="<x>")._repr_html_()
    assert page.count("<tr>") == 5  # a header and four steps
    for text in ("out[1, 0]", "index[1, 0]", "&lt;x&gt;[1, 1]", "<td>21</td>"):
        assert text in page


def test_invalid_call_raises_rule_error_with_the_problems():
    with pytest.raises(gl.RuleError) as caught:
        gl.trace(X, 1, torch.tensor([[2, 0], [1, 3]]))
    assert [p.rule for p in caught.value.problems] == ["index-out-of-range"]
    assert str(caught.value) == (
        "index[1, 1] = 3, but dim 1 of input has size 3: valid positions are 0..2"
    )
    with pytest.raises(gl.RuleError, match="not-a-tensor|needs torch tensors"):
        gl.trace(None, 1, COLUMNS)
    with pytest.raises(
        gl.RuleError
    ):  # TensorFlow's int32 is fine, a float index is not
        gl.trace(X, 1, COLUMNS.float())


@pytest.mark.parametrize("op", OPS)
def test_numpy_and_tensorflow_inputs_give_the_torch_trace(op):
    tf = tensorflow()
    index = COLUMNS if op != "index_select" else torch.tensor([2, 0])
    dim = None if op == "take" else 1
    expected = gl.trace(X, dim, index, op=op)
    from_numpy = gl.trace(X.numpy(), dim, index.numpy(), op=op)
    tf_index = tf.constant(index.tolist())
    assert tf_index.dtype == tf.int32  # TensorFlow's default, which torch.take refuses
    from_tf = gl.trace(tf.constant(X.numpy()), dim, tf_index, op=op)
    assert from_numpy.steps == expected.steps
    assert from_tf.steps == expected.steps
    assert from_tf == expected


@pytest.mark.parametrize("op", OPS)
@settings(max_examples=250, derandomize=True, deadline=None)
@given(data=st.data())
def test_trace_rebuilds_the_torch_output_exactly(op, data):
    call = data.draw(calls(ops=(op,), mutations=("valid", "negative", "too-large")))
    try:
        expected = call.run()
    except Exception:  # the library's refusal: trace refuses too
        with pytest.raises(gl.RuleError):
            gl.trace(call.input, call.dim, call.index, op=op)
        return
    trace = gl.trace(call.input, call.dim, call.index, op=op)
    assert len(trace) == expected.numel()
    rebuilt = np.zeros(expected.shape, dtype=expected.numpy().dtype)
    source = call.input.numpy()
    for step in trace:
        rebuilt[step.out] = step.value
        assert source[step.source] == step.value
        assert int(call.index[step.index_at]) == step.position
    assert np.array_equal(rebuilt, expected.numpy())

"""check_gather raises diagnose's rule where PyTorch raises and where it is silent."""

from __future__ import annotations

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import gatherlab as gl
from gatherlab.guard import _small_gather_shapes, check_gather

X = torch.tensor([[10, 11, 12], [20, 21, 22]])

BROKEN = {
    "index-dtype": torch.tensor([[0.0, 1.0], [1.0, 2.0]]),
    "rank-mismatch": torch.tensor([0, 1]),
    "negative-index": torch.tensor([[0, -1], [1, 2]]),
    "index-out-of-range": torch.tensor([[0, 3], [1, 2]]),
    "index-too-large": torch.zeros((3, 1), dtype=torch.long),
}


def rules_raised(*args, **kwargs) -> list[str]:
    with pytest.raises(gl.RuleError) as caught:
        check_gather(*args, **kwargs)
    return [problem.rule for problem in caught.value.problems]


@pytest.mark.parametrize("rule", BROKEN)
def test_each_broken_seed_call_raises_the_rule_torch_breaks(rule):
    index = BROKEN[rule]
    with pytest.raises(RuntimeError):
        torch.gather(X, 1, index)
    assert rules_raised(X, 1, index) == [rule]


def test_the_message_is_diagnoses_plain_words():
    with pytest.raises(gl.RuleError, match=r"index\[0, 1\] = 3, but dim 1 of input"):
        check_gather(X, 1, BROKEN["index-out-of-range"])


@pytest.mark.parametrize("dtype", [torch.int64, torch.int32])
def test_a_valid_call_passes_silently(dtype):
    index = torch.tensor([[2, 0], [1, 1]], dtype=dtype)
    assert check_gather(X, 1, index) is None
    assert check_gather(X, -1, index) is None


def test_values_false_skips_the_bounds_but_keeps_the_shape_rules():
    assert check_gather(X, 1, BROKEN["index-out-of-range"], values=False) is None
    assert rules_raised(X, 1, BROKEN["index-too-large"], values=False) == [
        "index-too-large"
    ]


def test_the_empty_index_passes_as_it_does_in_torch():
    empty = torch.empty((2, 0))
    assert torch.gather(X, 1, empty).shape == (2, 0)
    assert check_gather(X, 1, empty) is None


def test_take_along_dims_silent_wrap_is_caught_with_the_position_it_would_read():
    index = torch.tensor([[0, 5], [1, 2]])
    assert torch.take_along_dim(X, index, 1).tolist() == [[10, 12], [21, 22]]
    with pytest.raises(gl.RuleError, match="silently reads position 2") as caught:
        check_gather(X, 1, index, op="take_along_dim")
    assert caught.value.problems[0].rule == "wrapped-index"
    assert caught.value.problems[0].where == (0, 1)


def test_take_along_dim_rejects_int32_like_torch():
    index = torch.tensor([[0, 1], [1, 2]], dtype=torch.int32)
    assert rules_raised(X, 1, index, op="take_along_dim") == ["index-dtype"]


def test_take_accepts_negative_positions_down_to_minus_numel():
    assert check_gather(X, None, torch.tensor([-6, 5]), op="take") is None
    assert rules_raised(X, None, torch.tensor([-7]), op="take") == [
        "index-out-of-range"
    ]


def test_same_sizes_refuses_an_index_built_for_a_smaller_batch():
    features = torch.arange(24).reshape(4, 3, 2)
    other_batch_positions = torch.tensor([[2, 0], [1, 1]])
    index = other_batch_positions.unsqueeze(-1).expand(-1, -1, 2)
    assert torch.gather(features, 1, index).shape == (2, 2, 2)  # silent in torch
    assert check_gather(features, 1, index) is None
    with pytest.raises(gl.RuleError, match="reads only the first 2 of the 4") as caught:
        check_gather(features, 1, index, same_sizes=True)
    assert [p.rule for p in caught.value.problems] == ["index-smaller"]


def test_same_sizes_catches_the_wrong_axis_unsqueeze():
    labels = torch.tensor([2, 0])
    assert torch.gather(X, 1, labels.unsqueeze(0)).tolist() == [[12, 10]]
    assert rules_raised(X, 1, labels.unsqueeze(0), same_sizes=True) == ["index-smaller"]
    assert check_gather(X, 1, labels.unsqueeze(1), same_sizes=True) is None


def test_non_tensors_are_reported_not_crashed_on():
    assert rules_raised(X, 1, [[0, 1], [1, 2]]) == ["not-a-tensor"]


def test_a_device_mismatch_is_reported_without_reading_values():
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA device")
    assert rules_raised(X.cuda(), 1, torch.tensor([[0, 1], [1, 2]])) == [
        "device-mismatch"
    ]


def test_take_along_dim_without_dim_checks_the_real_layout():
    assert check_gather(X, None, torch.tensor([[0, 5]]), op="take_along_dim") is None
    assert rules_raised(X, None, torch.tensor([[6]]), op="take_along_dim") == [
        "index-out-of-range"
    ]


sizes = st.lists(st.integers(0, 3), max_size=3)


@given(input_shape=sizes, index_shape=sizes, dim=st.integers(-4, 3))
@settings(max_examples=300, deadline=None)
def test_small_gather_shapes_break_the_same_rules_as_the_real_ones(
    input_shape, index_shape, dim
):
    def rules(input_shape, index_shape):
        input = torch.zeros(()).expand(input_shape)
        index = torch.zeros((), dtype=torch.long).expand(index_shape)
        return [problem.rule for problem in gl.diagnose(input, dim, index)]

    small_input, small_index = _small_gather_shapes(
        tuple(input_shape), tuple(index_shape), dim
    )
    assert max(small_input + small_index, default=0) <= 2
    assert rules(small_input, small_index) == rules(input_shape, index_shape)


def test_values_false_never_reads_the_data():
    index = torch.tensor([[0, 1], [1, 2]]).to("meta")  # meta tensors hold no values
    assert check_gather(X.to("meta"), 1, index, values=False) is None
    assert rules_raised(X.to("meta"), 1, index.float(), values=False) == ["index-dtype"]


def test_index_select_keeps_its_own_rules():
    assert check_gather(X, 1, torch.tensor([2, 0]), op="index_select") is None
    assert rules_raised(X, 1, torch.tensor([0, 3]), op="index_select") == [
        "index-out-of-range"
    ]
    assert rules_raised(X, 1, torch.tensor([[0, 1]]), op="index_select") == [
        "index-not-vector"
    ]

"""short_error and call_outcome: an error or a result in the words a page shows."""

from __future__ import annotations

import pytest
import torch

from gatherlab.errors import call_outcome, error_device, short_error
from gatherlab.tf import tensorflow

X = torch.tensor([[10, 11, 12], [20, 21, 22]])


def raised(function, *args, **kwargs) -> BaseException:
    with pytest.raises(Exception) as caught:
        function(*args, **kwargs)
    return caught.value


@pytest.fixture(scope="module")
def tf_error():
    tf = tensorflow()
    return raised(
        tf.gather, tf.constant([[10, 11, 12]]), [[0, 3]], axis=1, batch_dims=1
    )


def test_a_tensorflow_message_loses_its_node_prefix_and_op_name(tf_error):
    assert str(tf_error).startswith("{{function_node")
    assert short_error(tf_error) == (
        "InvalidArgumentError: indices[0,1] = 3 is not in [0, 3)"
    )


def test_device_true_names_the_device_tensorflow_reports(tf_error):
    assert error_device(tf_error) == "CPU:0"
    assert short_error(tf_error, device=True) == (
        "InvalidArgumentError on CPU:0: indices[0,1] = 3 is not in [0, 3)"
    )


def test_gather_nd_drops_the_node_name_clause():
    tf = tensorflow()
    error = raised(tf.gather_nd, tf.constant([[10, 11, 12]]), [[0, 3]])
    assert short_error(error) == (
        "InvalidArgumentError: indices[0] = [0, 3] does not index into param "
        "shape [1,3]"
    )


def test_a_torch_message_is_kept_whole_and_has_no_device():
    error = raised(torch.gather, X, 1, torch.tensor([[0, 3]]))
    assert error_device(error) is None
    expected = "RuntimeError: index 3 is out of bounds for dimension 1 with size 3"
    assert short_error(error) == short_error(error, device=True) == expected


def test_only_the_first_line_is_kept_and_long_lines_are_cut():
    assert short_error(ValueError("first\nsecond")) == "ValueError: first"
    cut = short_error(ValueError("x" * 500))
    assert cut == "ValueError: " + "x" * 239 + "…"
    assert short_error(KeyError()) == "KeyError"


def test_call_outcome_says_what_the_call_did(tf_error):
    assert call_outcome(torch.gather, X, 1, torch.tensor([[2], [0]])) == (
        "returns [[12], [20]]"
    )
    assert call_outcome(lambda: None) == "no error"
    assert call_outcome(len, "abc") == "returns 3"
    assert call_outcome(torch.gather, X, 1, torch.tensor([[-1]])) == (
        "RuntimeError: index -1 is out of bounds for dimension 1 with size 3"
    )
    tf = tensorflow()
    outcome = call_outcome(
        tf.gather, tf.constant([[10, 11, 12]]), [[0, 3]], axis=1, batch_dims=1
    )
    assert outcome == "InvalidArgumentError on CPU:0: indices[0,1] = 3 is not in [0, 3)"


def test_call_outcome_passes_keywords_named_like_its_own_parameters():
    def echo(**kwargs):
        return sorted(kwargs)

    assert call_outcome(echo, function=1, label=2) == "returns ['function', 'label']"

"""Beliefs about what an op does with its values, named in the first step (issue 38,
round 4): a gradient through a read counts its upstream weights, not its reads.
Each class is checked on answers of my own, on several ops and on torch's and
TensorFlow's exercises, and each fact the words state is checked on torch."""

from __future__ import annotations

import numpy as np
import torch

from gatherlab.exercises import EXERCISES, Call
from gatherlab.exercises.predict import prediction_feedback


def first_step(exercise_id: str, answer) -> tuple[str, str | None]:
    result = EXERCISES[exercise_id].check(answer)
    assert not result.passed, str(result)
    verdict = getattr(result, "verdict", None)
    return result.message, getattr(verdict, "misconception", None)


# ------------------------------------------------ gradients: weights, not read counts


def _autograd(op: str, x: torch.Tensor, dim: int, index, upstream) -> np.ndarray:
    x = x.clone().requires_grad_(True)
    if op == "gather":
        out = torch.gather(x, dim, index)
    elif op == "index_select":
        out = torch.index_select(x, dim, index)
    else:
        out = torch.take(x, index)
    (out * upstream).sum().backward()
    return x.grad.numpy()


def test_a_weighted_gradient_counted_as_reads_is_told_each_read_sends_its_weight():
    # each read counted as 1: x[1, 0] read twice gives 2, x[0, 1] once gives 1
    message, named = first_step(
        "05.predict_weighted_gradient", [[0.0, 1.0, 1.0], [2.0, 1.0, 1.0]]
    )
    assert named == "gradient-unweighted", message
    assert "each read sends back its own upstream gradient, not 1" in message
    assert "x[0, 1], read with weight 2, has gradient 2, not 1" in message
    # 1 for every entry read, however often and with whatever weight
    message, named = first_step(
        "05.predict_weighted_gradient", [[0.0, 1.0, 1.0], [1.0, 1.0, 1.0]]
    )
    assert named == "gradient-unweighted", message
    assert "x[0, 1], read with weight 2, has gradient 2, not 1" in message


def test_the_tensorflow_densified_gradient_counted_once_per_row_is_named():
    # the collected answer: 1 for each row read, the weights and the repeat left out
    message, named = first_step(
        "05.predict_dense_slices", [[1.0, 1.0], [0.0, 0.0], [1.0, 1.0]]
    )
    assert named == "gradient-unweighted", message
    assert "table[0, 0], read with weight 2, has gradient 2, not 1" in message
    # my own: each read counted, the repeat added, the weights still left out
    message, named = first_step(
        "05.predict_dense_slices", [[1.0, 1.0], [0.0, 0.0], [2.0, 2.0]]
    )
    assert named == "gradient-unweighted", message
    # a wrong entry no belief explains names TensorFlow's value, not a torch x.grad
    message, named = first_step(
        "05.predict_dense_slices", [[2.0, 2.0], [0.0, 0.0], [5.0, 4.0]]
    )
    assert named is None
    assert message.startswith("tf.convert_to_tensor(slices)[2, 0] should be 4")


def test_unweighted_gradients_of_other_ops_are_named_with_their_repeats_added():
    x = torch.arange(6.0).reshape(2, 3)
    upstream = torch.tensor([[3.0, 1.0], [2.0, 5.0]])
    for op, dim, index in (
        ("gather", 1, torch.tensor([[2, 2], [0, 1]])),
        ("take", 0, torch.tensor([[5, 0], [5, 5]])),
    ):
        expected = _autograd(op, x, dim, index, upstream)
        call = Call(op, x, dim, index, index_name="idx")
        counted = np.zeros_like(expected)
        for step in call.trace():
            counted[step.source] += 1
        verdict = prediction_feedback(
            expected, counted.tolist(), call, gradient=True, grad_output=upstream
        ).verdict
        assert verdict.misconception == "gradient-unweighted", (op, verdict)
    # the words' sum: x[0, 2] read twice by gather, with weights 3 and 1
    call = Call("gather", x, 1, torch.tensor([[2, 2], [0, 1]]))
    expected = _autograd("gather", x, 1, torch.tensor([[2, 2], [0, 1]]), upstream)
    once = (expected != 0).astype(float)
    feedback = prediction_feedback(
        expected, once.tolist(), call, gradient=True, grad_output=upstream
    )
    assert feedback.verdict.misconception == "gradient-unweighted"
    assert "x[0, 2], read with weights 3 and 1, has gradient 3 + 1 = 4, not 1" in (
        feedback.message
    )
    assert expected[0, 2] == 3 + 1  # the repeated read adds its two weights


def test_without_weights_counting_reads_is_right_and_once_per_entry_is_overwriting():
    # every upstream weight 1 (a plain .sum()): the read count is the gradient
    message, named = first_step(
        "05.predict_gradient", [[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]]
    )
    assert named == "gradient-overwritten", message


def test_the_gradient_facts_hold_on_torch():
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    weights = torch.tensor([[1.0], [2.0], [3.0]])
    grad = _autograd("index_select", x, 0, torch.tensor([2, 0, 2]), weights)
    # row 0 read once with weight 2; row 2 twice, weights 1 and 3, added
    assert grad.tolist() == [[2.0, 2.0], [0.0, 0.0], [4.0, 4.0]]

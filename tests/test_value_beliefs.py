"""Beliefs about what an op does with its values, named in the first step (issue 38,
round 4): a gradient through a read counts its upstream weights, not its reads.
Each class is checked on answers of my own, on several ops and on torch's and
TensorFlow's exercises, and each fact the words state is checked on torch."""

from __future__ import annotations

import numpy as np
import torch

from gatherlab.exercises import EXERCISES, Call
from gatherlab.exercises.predict import prediction_feedback
from gatherlab.exercises.verdict import render


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


# ------------------------------------------- an integer 0/1 tensor used as a mask


def test_a_one_hot_subscript_is_named_as_no_mask():
    # the collected code: a one-hot (int64) as the subscript, then the intended shape
    def answer(log_probs, labels):
        mask = torch.nn.functional.one_hot(labels, log_probs.shape[1])
        return log_probs[mask].unsqueeze(1)

    message, named = first_step("05.label_scores", answer)
    assert named == "int-mask-as-bool", message
    assert "an int 0/1 tensor is no mask (a bool one is)" in message
    assert "its 0s and 1s select rows 0 and 1" in message
    assert "gather" not in message  # the learner called no gather
    assert len(message.split()) <= 40


def test_int_masks_given_to_other_reads_are_named_by_the_read_used():
    # my own: the mask built with scatter_, given to torch.gather
    def by_gather(log_probs, labels):
        mask = torch.zeros_like(log_probs, dtype=torch.long)
        mask.scatter_(1, labels[:, None], 1)
        return log_probs.gather(1, mask)

    message, named = first_step("05.label_scores", by_gather)
    assert named == "int-mask-as-bool", message
    assert "its 0s and 1s select positions 0 and 1 along dim 1" in message

    # torch.take with (x > 0)-style integer masks, on another exercise
    def by_take(x, columns):
        mask = torch.zeros_like(x, dtype=torch.long).scatter(1, columns, 1)
        return torch.take(x, mask)

    message, named = first_step("01.pick_columns", by_take)
    assert named == "int-mask-as-bool", message
    assert "its 0s and 1s select flat positions 0 and 1" in message

    # a mask along the dim, expanded for gather (index_select's exercise)
    def rows_mask(x, dim, positions):
        mask = torch.zeros(x.shape[dim], dtype=torch.long)
        mask[positions] = 1
        along = [1] * x.dim()
        along[dim] = mask.numel()
        return x.gather(dim, mask.reshape(along).expand_as(x))

    message, named = first_step("03.select_with_gather", rows_mask)
    assert named == "int-mask-as-bool", message
    assert "its 0s and 1s select" in message
    assert "gather" not in message.partition("\n")[0]


def test_a_tensorflow_int_mask_given_to_tf_gather_is_named_with_boolean_mask():
    import pytest

    tf = pytest.importorskip("tensorflow")

    def answer(features, positions):
        steps = tf.shape(features)[1]
        mask = tf.reduce_max(tf.one_hot(positions, steps, dtype=tf.int64), axis=1)
        return tf.gather(features, mask, axis=1, batch_dims=1)

    message, named = first_step("02.tf_select_steps", answer)
    assert named == "int-mask-as-bool", message
    assert "its 0s and 1s select positions 0 and 1 along dim 1" in message
    result = EXERCISES["02.tf_select_steps"].check(answer)
    assert "tf.boolean_mask" in render(result.verdict)


def test_the_int_mask_facts_hold_on_torch():
    x = torch.tensor([[10.0, 11.0, 12.0], [20.0, 21.0, 22.0]])
    one_hot = torch.tensor([[0, 1, 0], [1, 0, 0]])
    # an integer tensor reads rows 0 and 1 (a whole row per entry) ...
    assert x[one_hot].shape == (2, 3, 3)
    assert torch.equal(x[one_hot][0, 1], x[1]) and torch.equal(x[one_hot][0, 0], x[0])
    # ... torch.gather reads positions 0 and 1 along its dim, torch.take flat ones
    assert torch.equal(
        x.gather(1, one_hot), torch.tensor([[10.0, 11.0, 10.0], [21.0, 20.0, 20.0]])
    )
    assert torch.equal(
        torch.take(x, one_hot), torch.tensor([[10.0, 11.0, 10.0], [11.0, 10.0, 10.0]])
    )
    # the bool mask keeps the entries where it is 1
    assert torch.equal(x[one_hot.bool()], torch.tensor([11.0, 20.0]))


# ------------------------------ tf.gather given an index built for torch.gather


def _expanded_answer(batch_dims: bool):
    def answer(features, positions):
        import tensorflow as tf

        width = tf.shape(features)[2:]
        index = tf.broadcast_to(
            positions[:, :, None], tf.concat([tf.shape(positions), width], 0)
        )
        if batch_dims:
            return tf.gather(features, index, axis=1, batch_dims=1)
        return tf.gather(features, index, axis=1)

    return answer


def test_tf_gather_given_torch_gathers_expanded_index_is_named_as_another_op():
    import pytest

    pytest.importorskip("tensorflow")
    for batch_dims, shape in ((False, "(2, 2, 2, 2, 2)"), (True, "(2, 2, 2, 2)")):
        answer = _expanded_answer(batch_dims)
        message, named = first_step("02.tf_select_steps", answer)
        assert named == "slices-for-expanded-index", message
        assert (
            "tf.gather is no torch.gather: it reads a whole slice per index entry"
            in (message)
        )
        assert f"your result has shape {shape}" in message
        fix = render(EXERCISES["02.tf_select_steps"].check(answer).verdict)
        assert "tf.gather(features, positions, axis=1, batch_dims=1)" in fix


def test_a_torch_subscript_given_the_expanded_index_is_named_as_no_gather():
    def every_row(features, positions):
        index = positions.unsqueeze(-1).expand(-1, -1, features.shape[-1])
        return features[:, index]

    def paired(features, positions):
        index = positions.unsqueeze(-1).expand(-1, -1, features.shape[-1])
        return features[torch.arange(features.shape[0])[:, None, None], index]

    for answer in (every_row, paired):
        message, named = first_step("02.select_steps", answer)
        assert named == "slices-for-expanded-index", message
        assert "a subscript is no torch.gather" in message
        assert "tf.gather" not in message


def test_the_tf_gather_facts_hold_on_tensorflow():
    import pytest

    tf = pytest.importorskip("tensorflow")
    params = tf.reshape(tf.range(2 * 3 * 4), (2, 3, 4))
    index = tf.constant([[[2] * 4, [0] * 4], [[1] * 4, [1] * 4]])  # (2, 2, 4)
    # a whole slice per index entry: the index's shape in place of axis 1
    assert tf.gather(params, index, axis=1).shape == (2, 2, 2, 4, 4)
    # with batch_dims=1, the index's dims after the batch dims in place of axis 1
    assert tf.gather(params, index, axis=1, batch_dims=1).shape == (2, 2, 4, 4)
    positions = index[:, :, 0]
    paired = tf.gather(params, positions, axis=1, batch_dims=1)
    expected = torch.gather(
        torch.tensor(params.numpy()), 1, torch.tensor(index.numpy())
    )
    assert (paired.numpy() == expected.numpy()).all()


# ------------------------- a write called on its values, as if it made a new output


def test_a_write_called_on_the_values_is_told_it_keeps_their_shape():
    # the collected code: scatter_add on the values, their sizes subtracted back
    def collected(values, segments, count):
        sums = values.scatter_add(0, segments, values)
        sizes = values.scatter_add(0, segments, torch.ones_like(values)) - values
        return sums / sizes.clamp(min=1)

    # my own: index_add (torch_scatter's scatter_mean read into torch's API)
    def by_index_add(values, segments, count):
        sums = values.index_add(0, segments, values)
        ones = torch.ones_like(values)
        sizes = torch.zeros_like(values).index_add(0, segments, ones)
        return sums / sizes.clamp(min=1)

    # my own: scatter_reduce called on the values
    def by_reduce(values, segments, count):
        return values.scatter_reduce(0, segments, values, "mean", include_self=False)

    for answer in (collected, by_index_add, by_reduce):
        message, named = first_step("06.segment_means", answer)
        assert named == "write-into-source", (answer.__name__, message)
        assert "a write keeps the shape of the tensor it writes into" in message
        assert "has values's shape (" in message and "not one entry per id" in message
        # worded on a case where the values' length is not the count
        assert not message.startswith("On the visible example"), message


def test_the_values_returned_as_they_are_are_no_write_into_them():
    def answer(losses, labels, classes):
        return losses

    message, named = first_step("06.class_loss_sums", answer)
    assert named != "write-into-source", message


def test_class_sums_written_into_the_losses_are_named_alike():
    def answer(losses, labels, classes):
        return losses.scatter_add(0, labels, losses)

    message, named = first_step("06.class_loss_sums", answer)
    assert named == "write-into-source", message
    fix = render(EXERCISES["06.class_loss_sums"].check(answer).verdict)
    assert "torch.zeros(" in fix and "dtype=losses.dtype" in fix


def test_the_write_facts_hold_on_torch():
    values = torch.tensor([1.0, 2.0, 4.0, 8.0, 16.0])
    segments = torch.tensor([0, 2, 0, 2, 1])
    for out in (
        values.scatter_add(0, segments, values),
        values.index_add(0, segments, values),
        values.scatter_reduce(0, segments, values, "mean", include_self=False),
    ):
        assert out.shape == values.shape  # the shape of the tensor called on
    # started from zeros of the output's shape, the write gives one sum per id
    sums = torch.zeros(3, dtype=values.dtype).scatter_add(0, segments, values)
    assert sums.tolist() == [5.0, 16.0, 10.0]
    try:
        values[:2].scatter_add(0, segments[:2], values[:2]).sum()
        torch.tensor([1.0]).scatter_add(0, torch.tensor([3]), torch.tensor([1.0]))
    except RuntimeError:
        pass
    else:  # pragma: no cover - an id past the tensor's length raises
        raise AssertionError("scatter_add wrote past the end")

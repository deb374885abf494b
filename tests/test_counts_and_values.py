"""A count sized by the ids and values cast to integers before a write, named in the
first step (misconceptions short-count, short-count-raises, values-truncated), on
other exercises and ops than the collected code, torch and TensorFlow, the page alike;
and the facts they rest on, in torch and TensorFlow."""

from __future__ import annotations

import pytest
import torch

from gatherlab.exercises import EXERCISES, check
from gatherlab.exercises.page import payload
from tests.test_page_cases import node_judges

# ------------------------------------------------------------------ sums / sizes


def _sizes_by_bincount(values, segments, count):
    sums = torch.zeros(count, dtype=values.dtype).scatter_add(0, segments, values)
    sizes = torch.bincount(segments).to(values.dtype)
    return sums / torch.maximum(sizes, torch.ones_like(sizes))


def _sums_by_max_id(values, segments, count):
    sums = torch.zeros(int(segments.max()) + 1, dtype=values.dtype)
    sums.index_add_(0, segments, values)
    sizes = torch.zeros(count, dtype=values.dtype)
    sizes.index_add_(0, segments, torch.ones_like(values))
    return sums / sizes.clamp(min=1)


def _tf_sizes_by_bincount(values, segments, count):
    import tensorflow as tf

    ids = tf.constant(segments.numpy())
    sums = tf.math.unsorted_segment_sum(tf.constant(values.numpy()), ids, count)
    sizes = tf.cast(tf.math.bincount(ids), sums.dtype)
    return torch.tensor((sums / tf.maximum(sizes, 1)).numpy())


SHORT_RAISES = [_sizes_by_bincount, _sums_by_max_id]


@pytest.mark.parametrize("answer", SHORT_RAISES, ids=lambda f: f.__name__)
def test_sums_and_sizes_of_two_lengths_are_named_not_blamed_on_an_op(answer):
    result = check("06.segment_means", answer)
    assert result.verdict is not None
    assert result.verdict.misconception == "short-count-raises", result.words
    assert "bincount without minlength" in result.message
    assert "take_along_dim" not in result.words
    assert "minlength=count" in result.words


def test_tensorflow_sizes_by_bincount_are_named_too():
    pytest.importorskip("tensorflow")
    result = check("06.segment_means", _tf_sizes_by_bincount)
    assert result.verdict is not None
    assert result.verdict.misconception == "short-count-raises", result.words
    assert "torch." not in result.message


def _tf_sums_by_max_id(losses, labels, classes):
    import tensorflow as tf

    ids = tf.constant(labels.numpy())
    sums = tf.math.unsorted_segment_sum(
        tf.constant(losses.numpy()), ids, tf.reduce_max(ids) + 1
    )
    return torch.tensor(sums.numpy())


def test_a_result_sized_by_the_largest_id_says_where_the_size_came_from():
    pytest.importorskip("tensorflow")
    result = check("06.class_loss_sums", _tf_sums_by_max_id)
    assert result.verdict is not None
    assert result.verdict.misconception == "short-count", result.words
    # said as the rule of the op that took the count: num_segments is the size
    assert "num_segments is the output's size, classes (3 here)" in result.message
    assert "the largest id in labels + 1" in result.message
    assert "torch." not in result.message


def test_the_facts_a_short_count_rests_on():
    segments = torch.tensor([0, 2, 0, 2])
    assert torch.bincount(segments).tolist() == [2, 0, 2]
    assert torch.bincount(segments, minlength=4).tolist() == [2, 0, 2, 0]
    with pytest.raises(RuntimeError, match="must match the size of tensor b"):
        torch.zeros(4) / torch.bincount(segments)
    tf = pytest.importorskip("tensorflow")
    assert tf.math.bincount(tf.constant([0, 2, 0, 2])).numpy().tolist() == [2, 0, 2]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Incompatible shapes"):
        tf.zeros(4) / tf.cast(tf.math.bincount(tf.constant([0, 2])), tf.float32)


# ------------------------------------------------------------------ truncated values


def _scatter_add_long(losses, labels, classes):
    sums = torch.zeros(classes, dtype=torch.long).scatter_add_(0, labels, losses.long())
    return sums.to(losses.dtype)


def _index_put_int(losses, labels, classes):
    sums = torch.zeros(classes, dtype=losses.dtype)
    return sums.index_put_((labels,), losses.int().to(losses.dtype), accumulate=True)


def _tf_tensor_scatter_int(losses, labels, classes):
    import tensorflow as tf

    updates = tf.cast(tf.constant(losses.numpy()), tf.int32)
    sums = tf.tensor_scatter_nd_add(
        tf.zeros([classes], tf.int32), tf.constant(labels.numpy())[:, None], updates
    )
    return torch.tensor(sums.numpy(), dtype=losses.dtype)


def _gathered_long(log_probs, labels):
    return log_probs.long().gather(1, labels.unsqueeze(1))


def _gathered_long_back(log_probs, labels):
    return log_probs.long().to(log_probs.dtype).gather(1, labels.unsqueeze(1))


def _scatter_add_long_kept(losses, labels, classes):
    return torch.zeros(classes, dtype=torch.long).scatter_add_(0, labels, losses.long())


TRUNCATED = [
    ("06.class_loss_sums", _scatter_add_long),
    ("06.class_loss_sums", _index_put_int),
    ("06.class_loss_sums", _tf_tensor_scatter_int),
    # an integer result too: the truncation, which explains its dtype, comes first
    ("06.class_loss_sums", _scatter_add_long_kept),
    ("05.label_scores", _gathered_long),
    ("05.label_scores", _gathered_long_back),
]


@pytest.mark.parametrize(
    ("exercise_id", "answer"), TRUNCATED, ids=[f.__name__ for _, f in TRUNCATED]
)
def test_values_cast_to_integers_before_a_write_are_named(exercise_id, answer):
    if "tf_" in answer.__name__:
        pytest.importorskip("tensorflow")
    result = check(exercise_id, answer)
    assert result.verdict is not None
    assert result.verdict.misconception == "values-truncated", result.words
    step = "read" if exercise_id.startswith("05.") else "write"
    assert f"cast to integers before the {step}" in result.message
    assert "only positions must be integers" in result.message
    # no op the learner never called is named
    for op in ("index_add_", "scatter_add_", "tf."):
        assert op not in result.message


def test_a_write_of_whole_values_is_no_truncation():
    def one_hot(labels, classes):
        rows = torch.zeros(len(labels), classes, dtype=torch.int64)
        return rows.scatter_(1, labels.unsqueeze(1), 1)

    assert check("06.one_hot", one_hot).passed


def test_the_facts_a_truncation_rests_on():
    losses = torch.tensor([0.5, 1.25, -1.75])
    assert losses.long().tolist() == [0, 1, -1]  # toward 0
    sums = torch.zeros(2).index_add_(0, torch.tensor([0, 0, 1]), losses)
    assert sums.tolist() == [1.75, -1.75]  # float values are written as they are
    tf = pytest.importorskip("tensorflow")
    assert tf.cast(tf.constant([0.5, 1.25, -1.75]), tf.int64).numpy().tolist() == [
        0,
        1,
        -1,
    ]
    scattered = tf.scatter_nd([[0], [0], [1]], tf.constant([0.5, 1.25, -1.75]), [2])
    assert scattered.numpy().tolist() == [1.75, -1.75]


def test_a_wrong_sum_names_no_op_the_answer_never_called():
    # a sum of other values matches no misconception: the rule is said of the result
    def doubled(losses, labels, classes):
        return torch.zeros(classes, dtype=losses.dtype).index_add_(
            0, labels, 2 * losses
        )

    message = check("06.class_loss_sums", doubled).message
    assert "every value written to one position is added to it" in message
    assert "index_add_" not in message


# ------------------------------------------------------------------ the page alike

PAGE_CODE = {
    "06.segment_means": (
        "def answer(values, segments, count):\n"
        "    sums = torch.zeros(count, dtype=values.dtype)\n"
        "    sums = sums.index_add_(0, segments, values)\n"
        "    sizes = torch.bincount(segments).to(values.dtype)\n"
        "    return sums / sizes.clamp(min=1)\n"
    ),
    "06.class_loss_sums": (
        "def answer(losses, labels, classes):\n"
        "    sums = torch.zeros(classes, dtype=torch.long)\n"
        "    return sums.index_add_(0, labels, losses.long()).to(losses.dtype)\n"
    ),
}


def test_the_page_names_them_as_the_notebook_does():
    answers = {k: {"wrong": v} for k, v in PAGE_CODE.items()}
    answers["06.class_loss_sums"]["int"] = (
        "def answer(losses, labels, classes):\n"
        "    sums = torch.zeros(classes, dtype=torch.long)\n"
        "    return sums.scatter_add_(0, labels, losses.long())\n"
    )
    answers["05.label_scores"] = {
        "int": (
            "def answer(log_probs, labels):\n"
            "    return log_probs.long().gather(1, labels.unsqueeze(1))\n"
        )
    }
    payloads = {k: payload(EXERCISES[k]) for k in answers}
    said = node_judges(answers, payloads)
    for exercise_id, pair in answers.items():
        for which, code in pair.items():
            names: dict = {"torch": torch}
            exec(code, names)
            result = check(exercise_id, names["answer"])
            page = said[exercise_id][which]
            assert not page["passed"]
            assert page["mistake"] == result.message.replace("`", ""), (
                exercise_id,
                which,
            )


# ------------------------------------------------------------------ the learner's op


def _indexed_plus_one(x, columns):
    return x[torch.arange(len(x))[:, None], columns] + 1


def _gathered_plus_one(x, columns):
    return torch.gather(x, 1, columns) + 1


def test_a_reads_rule_names_its_op_only_where_the_answer_called_it():
    indexed = check("01.pick_columns", _indexed_plus_one).message
    assert "each entry is out[i, j] = x[i, columns[i, j]]" in indexed
    assert "gather" not in indexed
    gathered = check("01.pick_columns", _gathered_plus_one).message
    assert "gather along dim 1 reads out[i, j] = x[i, columns[i, j]]" in gathered

    # a shape: the rule of the result, in neutral words where gather was not called
    def twice(x, columns):
        return torch.stack([x[torch.arange(len(x))[:, None], columns]] * 2)

    wide = check("01.pick_columns", twice).message
    assert "the result has one value per index entry, in the index's shape" in wide
    # the page alike
    answers = {
        "01.pick_columns": {
            "indexed": "def answer(x, columns):\n"
            "    return x[torch.arange(len(x))[:, None], columns] + 1\n",
            "gathered": "def answer(x, columns):\n"
            "    return torch.gather(x, 1, columns) + 1\n",
        }
    }
    said = node_judges(
        answers, {"01.pick_columns": payload(EXERCISES["01.pick_columns"])}
    )
    assert said["01.pick_columns"]["indexed"]["mistake"] == indexed
    assert said["01.pick_columns"]["gathered"]["mistake"] == gathered

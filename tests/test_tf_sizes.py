"""A TensorFlow or Keras op's size rule named in the first step (issue 38): where a
wrong result's size along the ids' axis, or an id outside it, is explained by the
argument that sets the output's size (num_segments, depth, num_classes, minlength,
maxlength, shape) or by the count the op infers from the ids (tf.math.segment_*,
keras.ops.segment_sum without num_segments, keras.utils.to_categorical, tf.math.bincount
without minlength), the first step states that op's rule and what the learner's
count was (``sizing.sized_by_op``). Own variants on every chapter-6 exercise where
these ops fit, plus the collected answers; and the facts the words rest on (TF 2.21,
Keras 3 on TensorFlow's backend)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from tests.judged import judged as _judged

tf = pytest.importorskip("tensorflow")
keras = pytest.importorskip("keras")


CASES = [
    # (exercise, code, words the first step must hold)
    (
        "06.class_loss_sums",  # the count of distinct ids, as num_segments
        "def answer(losses, labels, classes):\n"
        "    import tensorflow as tf, numpy as np\n"
        "    n = len(np.unique(labels.numpy()))\n"
        "    out = tf.math.unsorted_segment_sum(losses.numpy(), labels.numpy(), n)\n"
        "    return torch.from_numpy(out.numpy())\n",
        (
            "tf.math.unsorted_segment_sum's num_segments is the output's size, "
            "classes (3 here), one slot per id in [0, num_segments), not 2, the "
            "number of distinct ids in labels"
        ),
    ),
    (
        "06.class_loss_sums",  # the number of values, as num_segments
        "def answer(losses, labels, classes):\n"
        "    import tensorflow as tf\n"
        "    out = tf.math.unsorted_segment_sum(losses.numpy(), labels.numpy(),\n"
        "                                       num_segments=len(labels))\n"
        "    return torch.from_numpy(out.numpy())\n",
        "num_segments is the output's size, classes (3 here), one slot per id in "
        "[0, num_segments), not 4, the number of ids in labels",
    ),
    (
        "06.segment_means",  # distinct ids by tf.unique: raises on the example
        "def answer(values, segments, count):\n"
        "    import tensorflow as tf\n"
        "    n = tf.size(tf.unique(tf.constant(segments.numpy())).y)\n"
        "    out = tf.math.unsorted_segment_mean(values.numpy(), segments.numpy(), n)\n"
        "    return torch.from_numpy(out.numpy())\n",
        "your function raised InvalidArgumentError: "
        "tf.math.unsorted_segment_mean's num_segments is the output's size, count "
        "(4 here), one slot per id in [0, num_segments), not 2, the number of "
        "distinct ids in segments",
    ),
    (
        "06.segment_means",  # Keras infers the count (TensorFlow: distinct ids)
        "def answer(values, segments, count):\n"
        "    from keras import ops\n"
        "    sums = ops.segment_sum(values.numpy(), segments.numpy())\n"
        "    sizes = ops.segment_sum(ops.ones_like(values.numpy()), segments.numpy())\n"
        "    means = sums / ops.maximum(sizes, 1)\n"
        "    return torch.from_numpy(ops.convert_to_numpy(means))\n",
        "keras.ops.segment_sum without num_segments sizes its output from the ids, "
        "as the number of distinct ids, on TensorFlow's backend (2 here), but count "
        "(4 here) are due, one slot per id: pass num_segments=count",
    ),
    (
        "06.segment_means",  # sorted segment op: no count, ends at the largest id
        "def answer(values, segments, count):\n"
        "    import tensorflow as tf\n"
        "    order = tf.argsort(segments.numpy())\n"
        "    out = tf.math.segment_mean(tf.gather(values.numpy(), order),\n"
        "                               tf.gather(segments.numpy(), order))\n"
        "    return torch.from_numpy(out.numpy())\n",
        "tf.math.segment_mean takes no count: its output ends at the largest id + 1 "
        "(3 here), where one slot per id in [0, count) is due (4 here)",
    ),
    (
        "06.one_hot",  # depth from the distinct labels: zero rows, no error
        "def answer(labels, classes):\n"
        "    import tensorflow as tf\n"
        "    depth = len(set(labels.tolist()))\n"
        "    out = tf.one_hot(labels.numpy(), depth, dtype=tf.int64)\n"
        "    return torch.from_numpy(out.numpy())\n",
        "tf.one_hot's depth is the number of columns, classes (4 here), one per "
        "class in [0, depth), not 2, the number of distinct ids in labels",
    ),
    (
        "06.one_hot",  # Keras's one_hot as wide as the largest label + 1
        "def answer(labels, classes):\n"
        "    from keras import ops\n"
        "    out = ops.one_hot(labels.numpy(), int(labels.max()) + 1, dtype='int64')\n"
        "    return torch.from_numpy(ops.convert_to_numpy(out))\n",
        "keras.ops.one_hot's num_classes is the number of columns, classes (4 here), "
        "one per class in [0, num_classes), not 3, the largest id in labels + 1",
    ),
    (
        "06.class_loss_sums",  # weighted bincount without minlength
        "def answer(losses, labels, classes):\n"
        "    import tensorflow as tf\n"
        "    ids = tf.constant(labels.numpy(), tf.int32)\n"
        "    out = tf.math.bincount(ids, weights=losses.numpy())\n"
        "    return torch.from_numpy(out.numpy())\n",
        "tf.math.bincount without minlength sizes its output from the ids, as the "
        "largest id + 1 (2 here), but classes (3 here) are due, one slot per id: "
        "pass minlength=classes",
    ),
    (
        "06.class_loss_sums",  # maxlength cut at the distinct ids
        "def answer(losses, labels, classes):\n"
        "    import tensorflow as tf\n"
        "    ids = tf.constant(labels.numpy(), tf.int32)\n"
        "    n = len(set(labels.tolist()))\n"
        "    out = tf.math.bincount(ids, weights=losses.numpy(), maxlength=n)\n"
        "    return torch.from_numpy(out.numpy())\n",
        "tf.math.bincount returns max(largest id + 1, minlength) counts, cut at "
        "maxlength: classes (3 here) are due, but your maxlength was 2, the number "
        "of distinct ids in labels",
    ),
    (
        "06.class_loss_sums",  # scatter_nd's shape from the largest id
        "def answer(losses, labels, classes):\n"
        "    import tensorflow as tf\n"
        "    ids = tf.constant(labels.numpy())[:, None]\n"
        "    out = tf.scatter_nd(ids, losses.numpy(), [int(labels.max()) + 1])\n"
        "    return torch.from_numpy(out.numpy())\n",
        "tf.scatter_nd's shape is the output's shape: along the ids' axis classes "
        "(3 here), one slot per id in [0, classes), not 2, the largest id in labels "
        "+ 1",
    ),
    (
        "06.one_hot",  # to_categorical infers num_classes
        "def answer(labels, classes):\n"
        "    from tensorflow import keras\n"
        "    rows = keras.utils.to_categorical(labels.numpy())\n"
        "    return torch.from_numpy(rows).long()\n",
        "keras.utils.to_categorical without num_classes sizes its output from the "
        "ids, as the largest id + 1 (3 here), but classes (4 here) are due, one "
        "column per id: pass num_classes=classes",
    ),
]


@pytest.mark.parametrize(("exercise_id", "code", "words"), CASES)
def test_the_op_s_size_rule_is_the_first_step(exercise_id, code, words) -> None:
    result = _judged(exercise_id, code)
    assert result.verdict.template == "implement.sized_by_op", result.words
    assert words in result.message, result.message
    assert "torch." not in result.message  # TensorFlow's words, not torch's


def test_a_count_cut_at_the_largest_id_is_still_that_misconception() -> None:
    result = _judged(
        "06.segment_means",
        "def answer(values, segments, count):\n"
        "    import tensorflow as tf\n"
        "    n = int(tf.reduce_max(segments.numpy())) + 1\n"
        "    out = tf.math.unsorted_segment_mean(values.numpy(), segments.numpy(), n)\n"
        "    return torch.from_numpy(out.numpy())\n",
    )
    assert result.verdict.misconception == "short-count"
    assert "not 3, the largest id in segments + 1" in result.message


def test_a_right_size_is_left_to_the_other_checks() -> None:
    # the count right, the values wrong (a mean taken as a sum): no size rule
    result = _judged(
        "06.segment_means",
        "def answer(values, segments, count):\n"
        "    import tensorflow as tf\n"
        "    ids = segments.numpy()\n"
        "    out = tf.math.unsorted_segment_sum(values.numpy(), ids, count)\n"
        "    return torch.from_numpy(out.numpy())\n",
    )
    assert result.verdict.template != "implement.sized_by_op", result.words


def test_a_torch_answer_is_left_to_the_torch_words() -> None:
    result = _judged(
        "06.class_loss_sums",
        "def answer(losses, labels, classes):\n"
        "    return torch.bincount(labels, weights=losses)\n",
    )
    assert result.verdict.template != "implement.sized_by_op", result.words


def test_the_facts_the_words_rest_on() -> None:
    ids = np.array([0, 2, 0])
    data = np.array([1.0, 2.0, 3.0])
    # num_segments is the size: an absent id keeps its slot, one past it raises
    summed = tf.math.unsorted_segment_sum(data, ids, num_segments=4)
    assert summed.numpy().tolist() == [4.0, 0.0, 2.0, 0.0]
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.math.unsorted_segment_sum(data, ids, num_segments=2)
    # the sorted segment ops take no count: the largest id + 1
    assert tf.math.segment_sum(data, [0, 0, 2]).shape == (3,)
    # Keras on TensorFlow: segment_sum counts the distinct ids, segment_max the
    # largest id + 1
    assert keras.backend.backend() == "tensorflow"
    assert keras.ops.segment_sum(data, np.array([0, 0, 1])).shape == (2,)
    with pytest.raises(tf.errors.InvalidArgumentError):
        keras.ops.segment_sum(data, ids)  # 2 distinct ids, id 2
    assert keras.ops.segment_max(data, ids).shape == (3,)
    # one_hot's depth is the width; a label at or past it gets a row of zeros
    rows = tf.one_hot(ids, 2).numpy().tolist()
    assert rows == [[1.0, 0.0], [0.0, 0.0], [1.0, 0.0]]
    keras_rows = keras.ops.convert_to_numpy(keras.ops.one_hot(ids, 2)).tolist()
    assert keras_rows == rows
    assert keras.utils.to_categorical(ids).shape == (3, 3)
    # bincount: the largest id + 1, at least minlength, cut at maxlength (dropped)
    counts = tf.constant(ids, tf.int32)
    assert tf.math.bincount(counts).numpy().tolist() == [2, 0, 1]
    assert tf.math.bincount(counts, minlength=4).numpy().tolist() == [2, 0, 1, 0]
    assert tf.math.bincount(counts, minlength=2).shape == (3,)
    assert tf.math.bincount(counts, maxlength=2).numpy().tolist() == [2, 0]
    # scatter_nd: an index off the shape raises on the CPU
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.scatter_nd([[0], [2]], [1.0, 2.0], [2])


# TensorFlow's dtype defaults where they explain an error: counts in int32
# (tf.math.bincount), the ids' own dtype (tf.ones_like), float32 (tf.zeros)
DTYPE_CASES = [
    (
        "06.segment_means",  # sums / counts: bincount counts in int32
        "def answer(values, segments, count):\n"
        "    import tensorflow as tf\n"
        "    ids = tf.constant(segments.numpy(), tf.int32)\n"
        "    sums = tf.math.unsorted_segment_sum(values.numpy(), ids, count)\n"
        "    sizes = tf.math.bincount(ids, minlength=count)\n"
        "    return torch.from_numpy((sums / tf.maximum(sizes, 1)).numpy())\n",
        "here one is float32, the other int32. Counts are ints: tf.math.bincount "
        "counts in int32 unless given a dtype",
    ),
    (
        "06.segment_means",  # counts of ones_like(ids): the ids' int64
        "def answer(values, segments, count):\n"
        "    import tensorflow as tf\n"
        "    ids = tf.constant(segments.numpy())\n"
        "    sums = tf.math.unsorted_segment_sum(values.numpy(), ids, count)\n"
        "    sizes = tf.math.unsorted_segment_sum(tf.ones_like(ids), ids, count)\n"
        "    return torch.from_numpy(tf.math.divide_no_nan(sums, sizes).numpy())\n",
        "here one is float32, the other int64",
    ),
    (
        "06.class_loss_sums",  # float32 zeros plus float64 sums (a hidden case)
        "def answer(losses, labels, classes):\n"
        "    import tensorflow as tf\n"
        "    ids = labels.numpy()\n"
        "    sums = tf.math.unsorted_segment_sum(losses.numpy(), ids, classes)\n"
        "    return torch.from_numpy((tf.zeros([classes]) + sums).numpy())\n",
        "TensorFlow's arithmetic (/, +, *, tf.maximum, tf.math.divide_no_nan) converts "
        "no dtype, where NumPy and torch would promote: its two sides must have one "
        "dtype, and here one is float, the other double.",
    ),
]


@pytest.mark.parametrize(("exercise_id", "code", "words"), DTYPE_CASES)
def test_tensorflow_s_arithmetic_of_two_dtypes_is_named(exercise_id, code, words):
    result = _judged(exercise_id, code)
    assert result.verdict.template == "implement.raised_explained", result.words
    assert "TensorFlow's arithmetic" in result.message
    assert words in result.message, result.message


def test_the_dtype_facts_hold() -> None:
    ids = tf.constant([0, 2, 0], tf.int64)
    assert tf.math.bincount(ids).dtype == tf.int32
    assert tf.math.bincount(ids, dtype=tf.float64).dtype == tf.float64
    assert tf.ones_like(ids).dtype == tf.int64
    assert tf.size(ids).dtype == tf.int32 and tf.shape(ids).dtype == tf.int32
    assert tf.zeros([2]).dtype == tf.float32
    with pytest.raises(TypeError):
        _ = tf.constant([1.0]) / tf.constant([1])
    assert (torch.tensor([1.0]) / torch.tensor([2])).dtype == torch.float32
    assert (np.array([1.0]) / np.array([2])).dtype == np.float64


# A torch exercise's read within rows made with TensorFlow's reads of params' first
# axis: tf.gather without axis=, tf.gather_nd without batch_dims (tfreads.py)
FIRST_AXIS_CASES = [
    (
        "05.label_scores",
        "def answer(log_probs, labels):\n"
        "    import tensorflow as tf\n"
        "    out = tf.gather(log_probs.numpy(), labels.numpy())\n"
        "    return torch.from_numpy(out.numpy())\n",
        "tf.gather reads along axis 0 unless given axis=, so each entry of labels "
        "picked a whole slice of log_probs along axis 0, not a position within its "
        "own row: your result has shape (2, 3), not (2, 1)",
    ),
    (
        "05.label_scores",
        "def answer(log_probs, labels):\n"
        "    import tensorflow as tf\n"
        "    out = tf.gather_nd(log_probs.numpy(), labels.numpy()[:, None])\n"
        "    return torch.from_numpy(out.numpy())\n",
        "tf.gather_nd without batch_dims reads each coordinate from params' first "
        "axis: your 1-number coordinates picked slices of log_probs along axis 0",
    ),
    (
        "01.pick_columns",  # raises: a column past the number of rows
        "def answer(x, columns):\n"
        "    import tensorflow as tf\n"
        "    out = tf.gather_nd(x.numpy(), columns.numpy()[..., None])\n"
        "    return torch.from_numpy(out.numpy())\n",
        "your function raised InvalidArgumentError: tf.gather_nd without batch_dims "
        "reads each coordinate from params' first axis",
    ),
    (
        "02.select_steps",
        "def answer(features, positions):\n"
        "    import tensorflow as tf\n"
        "    out = tf.gather_nd(features.numpy(), positions.numpy()[..., None])\n"
        "    return torch.from_numpy(out.numpy())\n",
        "your 1-number coordinates picked slices of features along axis 0, not "
        "positions within their rows: a position of 2 or more is past axis 0 there",
    ),
]


@pytest.mark.parametrize(("exercise_id", "code", "words"), FIRST_AXIS_CASES)
def test_a_tensorflow_read_of_the_first_axis_is_named(exercise_id, code, words):
    result = _judged(exercise_id, code)
    assert result.verdict.template == "implement.tf_read_first_axis", result.words
    assert words in result.message, result.message


def test_a_tensorflow_read_along_the_right_axis_keeps_its_words() -> None:
    # axis=1 without batch_dims: every row reads every position (a misconception)
    result = _judged(
        "01.pick_columns",
        "def answer(x, columns):\n"
        "    import tensorflow as tf\n"
        "    out = tf.gather(x.numpy(), columns.numpy(), axis=1)\n"
        "    return torch.from_numpy(out.numpy())\n",
    )
    assert result.verdict.misconception == "every-row-reads-every-position"


def test_the_first_axis_facts_hold() -> None:
    log_probs = np.arange(6.0).reshape(2, 3)
    labels = np.array([2, 0])
    rows = tf.gather(log_probs, [1, 0]).numpy()  # whole rows 1 and 0: axis 0
    assert rows.tolist() == [[3.0, 4.0, 5.0], [0.0, 1.0, 2.0]]
    assert tf.gather_nd(log_probs, [[1], [0]]).numpy().tolist() == rows.tolist()
    paired = tf.gather(log_probs, labels, axis=1, batch_dims=1).numpy().tolist()
    assert paired == [2.0, 3.0]
    batched = tf.gather_nd(log_probs, labels[:, None], batch_dims=1)
    assert batched.numpy().tolist() == [2.0, 3.0]
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.gather_nd(log_probs, labels[:, None])  # 2 is past axis 0's 2 rows


@pytest.mark.parametrize(
    ("exercise_id", "code"),
    [
        (
            "01.pick_columns",  # every row reads every position, with Keras's take
            "def answer(x, columns):\n"
            "    from keras import ops\n"
            "    out = ops.take(x.numpy(), columns.numpy(), axis=1)\n"
            "    return torch.from_numpy(ops.convert_to_numpy(out))\n",
        ),
        (
            "05.label_scores",  # whole rows, with Keras's take along axis 0
            "def answer(log_probs, labels):\n"
            "    from keras import ops\n"
            "    out = ops.take(log_probs.numpy(), labels.numpy(), axis=0)\n"
            "    return torch.from_numpy(ops.convert_to_numpy(out))\n",
        ),
    ],
)
def test_keras_s_take_is_not_told_it_called_tf_gather(exercise_id, code) -> None:
    # keras.ops.take calls tf.gather inside (TensorFlow's backend): not the learner's
    result = _judged(exercise_id, code)
    assert "tf.gather" not in result.words, result.words

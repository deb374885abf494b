"""TensorFlow's and Keras's writes in a torch exercise, named by their own rules in
the first step (issue 38, ``gatherlab/exercises/tfwrites.py``): a write by
coordinates reads each index row from the output's first axis on; a one-hot appends
its class axis to the labels' shape; an overwriting op keeps one update of a
repeated index, where its twin adds. Own variants, and the facts (TF 2.21, Keras 3
on TensorFlow's backend)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.judged import judged as _judged

tf = pytest.importorskip("tensorflow")
keras = pytest.importorskip("keras")


FIRST_AXIS = [
    (  # Keras's scatter_update given torch's one-hot index: raises
        "def answer(labels, classes):\n"
        "    import keras, numpy as np\n"
        "    rows = np.zeros((len(labels), classes), dtype='int64')\n"
        "    ones = np.ones((len(labels), 1), dtype='int64')\n"
        "    out = keras.ops.scatter_update(rows, labels.numpy()[:, None], ones)\n"
        "    return torch.tensor(keras.ops.convert_to_numpy(out))\n",
        "your function raised InvalidArgumentError: keras.ops.scatter_update reads",
    ),
    (  # whole rows of ones: a value
        "def answer(labels, classes):\n"
        "    import tensorflow as tf\n"
        "    rows = tf.zeros((len(labels), classes), dtype=tf.int64)\n"
        "    ones = tf.ones((len(labels), classes), dtype=tf.int64)\n"
        "    out = tf.tensor_scatter_nd_update(rows, labels.numpy()[:, None], ones)\n"
        "    return torch.tensor(out.numpy())\n",
        "On the visible example, tf.tensor_scatter_nd_update reads",
    ),
    (
        "def answer(labels, classes):\n"
        "    import tensorflow as tf\n"
        "    ones, n = tf.ones(len(labels), tf.int64), len(labels)\n"
        "    out = tf.scatter_nd(labels.numpy()[:, None], ones, [n, classes])\n"
        "    return torch.tensor(out.numpy())\n",
        "tf.scatter_nd reads index rows as coordinates from the output's first axis "
        "on: your one-number rows name whole rows (slices of axis 0), not places "
        "along dim 1",
    ),
]


@pytest.mark.parametrize(("code", "words"), FIRST_AXIS)
def test_a_write_by_coordinates_of_one_number_is_told_they_name_rows(code, words):
    result = _judged("06.one_hot", code)
    assert result.verdict.template == "implement.tf_write_first_axis", result.words
    assert words in result.message, result.message
    assert "(row, labels[row])" in result.fix


@pytest.mark.parametrize(
    "call",
    [
        "tf.one_hot(labels.numpy()[:, None], classes, dtype=tf.int64).numpy()",
        "keras.ops.convert_to_numpy("
        "keras.ops.one_hot(labels.numpy()[:, None], classes, dtype='int64'))",
    ],
)
def test_a_one_hot_of_labels_with_a_trailing_axis_is_told_where_the_axis_goes(call):
    result = _judged(
        "06.one_hot",
        "def answer(labels, classes):\n"
        "    import tensorflow as tf, keras\n"
        f"    return torch.tensor({call})\n",
    )
    assert result.verdict.template == "implement.one_hot_axis", result.words
    assert result.verdict.misconception == "extra-axis"
    assert (
        "appends its class axis to the labels' own shape: labels of shape (3, 1) "
        "give (3, 1, 4), not (3, 4)" in result.message
    ), result.message


KEPT = [
    (
        "06.class_loss_sums",
        "def answer(losses, labels, classes):\n"
        "    import keras, numpy as np\n"
        "    zeros = np.zeros(classes, losses.numpy().dtype)\n"
        "    ids = labels.numpy()[:, None]\n"
        "    out = keras.ops.scatter_update(zeros, ids, losses.numpy())\n"
        "    return torch.from_numpy(keras.ops.convert_to_numpy(out))\n",
        "as keras.ops.scatter_update does: it overwrites, where keras.ops.scatter adds",
    ),
    (
        "06.segment_means",  # the sums overwrite, the counts add
        "def answer(values, segments, count):\n"
        "    import tensorflow as tf\n"
        "    v, ids = values.numpy(), segments.numpy()[:, None]\n"
        "    zeros = tf.zeros([count], dtype=tf.as_dtype(v.dtype))\n"
        "    sums = tf.tensor_scatter_nd_update(zeros, ids, v)\n"
        "    sizes = tf.tensor_scatter_nd_add(zeros, ids, tf.ones_like(v))\n"
        "    return torch.from_numpy(tf.math.divide_no_nan(sums, sizes).numpy())\n",
        "as tf.tensor_scatter_nd_update does: it overwrites, where "
        "tf.tensor_scatter_nd_add adds",
    ),
]


@pytest.mark.parametrize(("exercise_id", "code", "words"), KEPT)
def test_an_overwriting_op_that_kept_one_write_is_named(exercise_id, code, words):
    result = _judged(exercise_id, code)
    assert result.verdict.misconception == "kept-one-write", result.words
    assert words in result.message, result.message
    assert "index_add_" not in result.fix  # TensorFlow's twin, not torch's


def test_the_facts_hold() -> None:
    zeros = np.zeros((2, 3))
    rows = tf.tensor_scatter_nd_update(zeros, [[1]], [[1.0, 1.0, 1.0]]).numpy()
    assert rows.tolist() == [[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]]  # a whole row
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.scatter_nd([[1], [0]], [1, 1], [2, 3])  # a row needs 3 values
    assert tf.one_hot([[1], [0]], 3).shape == (2, 1, 3)
    assert keras.ops.one_hot(np.array([[1], [0]]), 3).shape == (2, 1, 3)
    kept = tf.tensor_scatter_nd_update(np.zeros(2), [[1], [1]], [2.0, 3.0]).numpy()
    assert kept[1] in (2.0, 3.0)
    added = tf.tensor_scatter_nd_add(np.zeros(2), [[1], [1]], [2.0, 3.0]).numpy()
    assert added[1] == 5.0
    summed = keras.ops.scatter(np.array([[1], [1]]), np.array([2.0, 3.0]), (2,))
    assert keras.ops.convert_to_numpy(summed).tolist() == [0.0, 5.0]


UPDATES_DTYPE = [
    (
        "06.one_hot",
        "def answer(labels, classes):\n"
        "    import tensorflow as tf\n"
        "    n = len(labels)\n"
        "    rows = tf.range(n, dtype=tf.int64)\n"
        "    at = tf.stack([rows, tf.constant(labels.numpy())], axis=1)\n"
        "    out = tf.scatter_nd(at, [1] * n, [n, classes])\n"
        "    return torch.from_numpy(out.numpy())\n",
        "your result has dtype int32, not int64: tf.scatter_nd returns the dtype of "
        "its updates, int32 here (Python ints convert to int32)",
    ),
    (
        "06.class_loss_sums",  # float32 from Python floats, on a float64 hidden case
        "def answer(losses, labels, classes):\n"
        "    import tensorflow as tf\n"
        "    at = labels.numpy()[:, None]\n"
        "    return torch.from_numpy(\n"
        "        tf.scatter_nd(at, losses.tolist(), [classes]).numpy()\n"
        "    )\n",
        "your result has dtype float32, not float64: tf.scatter_nd returns the "
        "dtype of its updates, float32 here (Python floats convert to float32)",
    ),
]


UPDATES_DTYPE += [
    (
        "06.one_hot",  # on_value=1 and no dtype: int32
        "def answer(labels, classes):\n"
        "    import tensorflow as tf\n"
        "    rows = tf.one_hot(labels.numpy(), classes, on_value=1, off_value=0)\n"
        "    return torch.from_numpy(rows.numpy())\n",
        "tf.one_hot returns the dtype of its on_value, int32 here (Python ints "
        "convert to int32)",
    ),
    (
        "06.class_loss_sums",  # a segment op's data as a list of Python floats
        "def answer(losses, labels, classes):\n"
        "    import tensorflow as tf\n"
        "    data, ids = losses.tolist(), labels.tolist()\n"
        "    out = tf.math.unsorted_segment_sum(data, ids, classes)\n"
        "    return torch.from_numpy(out.numpy())\n",
        "tf.math.unsorted_segment_sum returns the dtype of its data, float32 here "
        "(Python floats convert to float32)",
    ),
]


@pytest.mark.parametrize(("exercise_id", "code", "words"), UPDATES_DTYPE)
def test_a_scatter_nd_result_s_dtype_is_its_updates(exercise_id, code, words):
    result = _judged(exercise_id, code)
    assert result.verdict.template == "differ.dtype_updates", result.words
    assert words in result.message, result.message


def test_the_updates_dtype_facts_hold() -> None:
    assert tf.scatter_nd([[0]], [1], [2]).dtype == tf.int32
    assert tf.scatter_nd([[0]], [1.5], [2]).dtype == tf.float32
    assert tf.scatter_nd([[0]], np.array([1], np.int64), [2]).dtype == tf.int64
    assert tf.one_hot([0], 2, on_value=1, off_value=0).dtype == tf.int32
    assert tf.one_hot([0], 2).dtype == tf.float32
    assert tf.math.unsorted_segment_sum([1.5], [0], 1).dtype == tf.float32


KERAS_ERRORS = [
    (
        "06.class_loss_sums",
        "def answer(losses, labels, classes):\n"
        "    from keras import ops\n"
        "    ids = labels.numpy()\n"
        "    data = losses.numpy()\n"
        "    out = ops.segment_sum(data, ids, num_segments=classes, sorted=True)\n"
        "    return torch.from_numpy(ops.convert_to_numpy(out))\n",
        "with sorted=True call TensorFlow's sorted segment op",
    ),
    (
        "01.pick_columns",
        "def answer(x, columns):\n"
        "    from keras import ops\n"
        "    out = ops.take_along_axis(x.numpy(), columns.numpy())\n"
        "    return torch.from_numpy(ops.convert_to_numpy(out))\n",
        "take_along_axis with axis=None (Keras's default) reads the input flattened",
    ),
]


@pytest.mark.parametrize(("exercise_id", "code", "words"), KERAS_ERRORS)
def test_keras_s_own_errors_are_explained_by_their_rule(exercise_id, code, words):
    result = _judged(exercise_id, code)
    assert result.verdict.template == "implement.raised_explained", result.words
    assert words in result.message, result.message


def test_the_keras_facts_hold() -> None:
    import inspect

    assert (
        inspect.signature(keras.ops.take_along_axis).parameters["axis"].default is None
    )
    with pytest.raises(ValueError, match="cannot be set when sorted is True"):
        keras.ops.segment_sum(np.ones(2), np.array([0, 1]), num_segments=2, sorted=True)
    flat = keras.ops.take_along_axis(np.arange(6).reshape(2, 3), np.array([4]))
    assert keras.ops.convert_to_numpy(flat).tolist() == [4]


@pytest.mark.parametrize("op", ["segment_sum", "segment_max"])
def test_keras_s_sorted_segment_op_is_named_as_the_learner_s_call(op) -> None:
    # sorted=True makes Keras call tf.math.segment_*, which needs sorted ids
    result = _judged(
        "06.segment_means",
        "def answer(values, segments, count):\n"
        "    from keras import ops\n"
        f"    sums = ops.{op}(values.numpy(), segments.numpy(), sorted=True)\n"
        "    return torch.from_numpy(ops.convert_to_numpy(sums))\n",
    )
    assert result.verdict.template == "implement.raised_keras_sorted", result.words
    assert f"keras.ops.{op}(..., sorted=True) calls TensorFlow's sorted" in (
        result.message
    )
    assert "needs its segment ids sorted" in result.message


def test_to_categorical_s_fixed_dtype_is_named() -> None:
    # own variant: the one-hot of Keras's utility, its float64 result returned as is
    result = _judged(
        "06.one_hot",
        "def answer(labels, classes):\n"
        "    import keras\n"
        "    rows = keras.utils.to_categorical(labels.numpy(), classes)\n"
        "    return torch.from_numpy(rows)\n",
    )
    assert result.verdict.template == "differ.dtype_to_categorical", result.words
    assert "keras.utils.to_categorical takes no dtype" in result.message
    # the facts: no dtype argument; float64 for an array, float32 for a tensor
    import inspect

    assert list(inspect.signature(keras.utils.to_categorical).parameters) == [
        "x",
        "num_classes",
    ]
    assert keras.utils.to_categorical(np.array([0, 1]), 3).dtype == np.float64
    assert keras.utils.to_categorical(tf.constant([0, 1]), 3).dtype == tf.float32

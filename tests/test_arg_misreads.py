"""An argument of a TensorFlow or Keras op misread (issue 38,
``gatherlab/exercises/argreads.py``): where changing that one argument makes the
answer right on every case, the first step names the op's rule for it. Own variants
on several exercises, the collected entries, and the facts (TF 2.21, Keras 3)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from gatherlab.exercises import check
from tests.judged import judged as _judged

tf = pytest.importorskip("tensorflow")
keras = pytest.importorskip("keras")


def test_the_facts_one_hot_axis_and_category_encoding_modes():
    labels = np.array([0, 2, 1])
    assert tf.one_hot(labels, 4, axis=0).shape == (4, 3)
    assert tf.one_hot(labels, 4).shape == (3, 4)
    assert keras.ops.one_hot(labels, 4, axis=0).shape == (4, 3)
    layer = keras.layers.CategoryEncoding(num_tokens=4)
    assert layer.output_mode == "multi_hot"  # the default
    assert layer(labels).numpy().tolist() == [1, 1, 1, 0]  # one sample, one row
    counts = keras.layers.CategoryEncoding(num_tokens=4, output_mode="count")
    assert counts(np.array([1, 1, 2])).numpy().tolist() == [0, 2, 1, 0]
    rows = keras.layers.CategoryEncoding(num_tokens=4, output_mode="one_hot")
    assert rows(labels).shape == (3, 4)
    twice = tf.math.bincount(np.array([0, 0, 2]), binary_output=True)
    assert twice.numpy().tolist() == [1, 0, 1]


AXIS = [
    (  # a torch exercise, the one-hot is the result
        "06.one_hot",
        "def answer(labels, classes):\n"
        "    import tensorflow as tf\n"
        "    made = tf.one_hot(labels.numpy(), classes, axis=0, dtype=tf.int64)\n"
        "    return torch.from_numpy(made.numpy())\n",
        "tf.one_hot's axis=0 puts the class axis at 0: labels (3,) give "
        "(4, 3); by default (axis=-1) it goes last.",
    ),
    (  # Keras's, by position, its float32 cast afterwards
        "06.one_hot",
        "def answer(labels, classes):\n"
        "    import keras\n"
        "    made = keras.ops.one_hot(labels.numpy(), classes, 0)\n"
        "    return torch.tensor(keras.ops.convert_to_numpy(made)).long()\n",
        "keras.ops.one_hot's axis=0 puts the class axis at 0",
    ),
    (  # a one-hot inside: the label's score, a broadcast error on the example
        "05.label_scores",
        "def answer(log_probs, labels):\n"
        "    import tensorflow as tf\n"
        "    mask = tf.one_hot(labels.numpy(), log_probs.shape[1], axis=0)\n"
        "    picked = tf.reduce_sum(log_probs.numpy() * mask, axis=1, keepdims=True)\n"
        "    return torch.from_numpy(picked.numpy()).to(log_probs.dtype)\n",
        "tf.one_hot's axis=0 puts the class axis at 0",
    ),
    (  # a TensorFlow exercise: steps picked by a one-hot and einsum
        "02.tf_select_steps",
        "def answer(features, positions):\n"
        "    import tensorflow as tf\n"
        "    steps = tf.shape(features)[1]\n"
        "    mask = tf.one_hot(positions, steps, axis=1, dtype=features.dtype)\n"
        "    return tf.einsum('bkt,btf->bkf', mask, features)\n",
        "tf.one_hot's axis=1 puts the class axis at 1: labels (2, 2) give (2, 3, 2)",
    ),
]


@pytest.mark.parametrize(("exercise_id", "code", "words"), AXIS)
def test_a_one_hot_with_another_axis_is_told_where_its_class_axis_goes(
    exercise_id, code, words
):
    result = _judged(exercise_id, code)
    assert result.verdict.template == "argread.one_hot_axis", result.words
    assert words in result.message, result.message
    assert "by default (axis=-1) it goes last." in result.message


ENCODING = [
    (
        "def answer(labels, classes):\n"
        "    import keras\n"
        "    layer = keras.layers.CategoryEncoding(num_tokens=classes)\n"
        "    return torch.tensor(layer(labels.numpy()).numpy()).long()\n",
        "output_mode='multi_hot' (its default) encodes the last axis as one sample: "
        "1-D labels give one row marking each label present",
    ),
    (
        "def answer(labels, classes):\n"
        "    from tensorflow.keras.layers import CategoryEncoding\n"
        "    layer = CategoryEncoding(classes, 'count', dtype='int64')\n"
        "    return torch.tensor(layer(labels.numpy()).numpy())\n",
        "output_mode='count' encodes the last axis as one sample: 1-D labels give "
        "one row counting each label",
    ),
]


@pytest.mark.parametrize(("code", "words"), ENCODING)
def test_category_encoding_of_a_label_vector_is_told_it_is_one_sample(code, words):
    result = _judged("06.one_hot", code)
    assert result.verdict.template == "argread.category_encoding", result.words
    assert words in result.message, result.message
    assert "output_mode='one_hot'" in result.fix


def test_counts_made_with_binary_output_are_told_it_marks_presence():
    result = _judged(
        "06.segment_means",
        "def answer(values, segments, count):\n"
        "    import tensorflow as tf\n"
        "    ids = segments.numpy()\n"
        "    sums = tf.math.unsorted_segment_sum(values.numpy(), ids, count)\n"
        "    sizes = tf.math.bincount(ids, minlength=count, binary_output=True)\n"
        "    means = sums / tf.maximum(tf.cast(sizes, sums.dtype), 1)\n"
        "    return torch.from_numpy(means.numpy())\n",
    )
    assert result.verdict.template == "argread.bincount_binary", result.words
    assert "binary_output=True gives 1 for each value present" in result.message


NOT_THE_MISTAKE = [
    (  # axis=0, then transposed back: right
        "06.one_hot",
        "def answer(labels, classes):\n"
        "    import tensorflow as tf\n"
        "    made = tf.one_hot(labels.numpy(), classes, axis=0, dtype=tf.int64)\n"
        "    return torch.from_numpy(tf.transpose(made).numpy())\n",
        None,
    ),
    (  # axis=0 and a class too few: changing the axis alone does not fix it
        "06.one_hot",
        "def answer(labels, classes):\n"
        "    import tensorflow as tf\n"
        "    made = tf.one_hot(labels.numpy(), classes - 1, axis=0, dtype=tf.int64)\n"
        "    return torch.from_numpy(made.numpy())\n",
        "argread.one_hot_axis",
    ),
    (  # multi_hot on one label per row: right
        "06.one_hot",
        "def answer(labels, classes):\n"
        "    import keras\n"
        "    layer = keras.layers.CategoryEncoding(classes, output_mode='multi_hot')\n"
        "    return torch.tensor(layer(labels.numpy()[:, None]).numpy()).long()\n",
        None,
    ),
]


@pytest.mark.parametrize(("exercise_id", "code", "template"), NOT_THE_MISTAKE)
def test_an_argument_is_named_only_where_changing_it_alone_fixes_the_answer(
    exercise_id, code, template
):
    names = {"torch": torch}
    exec(code, names)
    result = check(exercise_id, names["answer"])
    if template is None:
        assert result.passed, result.words
    else:
        assert not result.passed
        assert result.verdict.template != template, result.words


def test_the_fact_np_bincount_with_weights_makes_float64():
    weights = np.array([0.5, 2.0], dtype=np.float32)
    assert np.bincount(np.array([0, 2]), weights=weights).dtype == np.float64
    assert np.bincount(np.array([0, 2])).dtype == np.int64  # no weights: counts
    with pytest.raises(TypeError):
        np.bincount(np.array([0, 2]), weights=weights, dtype=np.float32)


BINCOUNT = [
    (
        "06.class_loss_sums",
        "def answer(losses, labels, classes):\n"
        "    import numpy as np\n"
        "    sums = np.bincount(labels.numpy(), losses.numpy(), classes)\n"
        "    return torch.from_numpy(sums)\n",
    ),
    (
        "06.segment_means",
        "def answer(values, segments, count):\n"
        "    import numpy as np\n"
        "    ids = segments.numpy()\n"
        "    sums = np.bincount(ids, weights=values.numpy(), minlength=count)\n"
        "    sizes = np.bincount(ids, minlength=count)\n"
        "    return torch.from_numpy(sums / np.maximum(sizes, 1))\n",
    ),
]


@pytest.mark.parametrize(("exercise_id", "code"), BINCOUNT)
def test_a_float64_made_by_a_weighted_np_bincount_is_told_its_rule(exercise_id, code):
    result = _judged(exercise_id, code)
    assert result.verdict.template == "differ.dtype_np_bincount", result.words
    assert "np.bincount given weights returns float64" in result.message
    assert "a write keeps" not in result.words


def test_a_weighted_np_bincount_converted_back_passes():
    names = {"torch": torch}
    exec(
        "def answer(losses, labels, classes):\n"
        "    import numpy as np\n"
        "    sums = np.bincount(labels.numpy(), losses.numpy(), classes)\n"
        "    return torch.from_numpy(sums).to(losses.dtype)\n",
        names,
    )
    assert check("06.class_loss_sums", names["answer"]).passed


NUMPY_ERRORS = [
    (  # torch's write named on NumPy (a real round-6 mistake's class)
        "06.class_loss_sums",
        "def answer(losses, labels, classes):\n"
        "    import numpy as np\n"
        "    out = np.zeros(classes, dtype=np.float32)\n"
        "    ids, values = labels.numpy(), losses.numpy()\n"
        "    return torch.from_numpy(np.scatter_add(out, ids, values))\n",
        "NumPy has no np.scatter_add: that is torch's op.",
        "np.add.at(out, positions, values)",
    ),
    (
        "06.one_hot",
        "def answer(labels, classes):\n"
        "    import numpy as np\n"
        "    out = np.zeros((len(labels), classes), dtype=np.int64)\n"
        "    return torch.from_numpy(out.scatter_(1, labels.numpy()[:, None], 1))\n",
        "A NumPy array has no scatter_ method: that is a torch.Tensor method.",
        "np.put_along_axis(out, index, values, axis=dim)",
    ),
    (
        "05.label_scores",
        "def answer(log_probs, labels):\n"
        "    import numpy as np\n"
        "    picked = np.gather(log_probs.numpy(), 1, labels.numpy()[:, None])\n"
        "    return torch.from_numpy(picked)\n",
        "NumPy has no np.gather: that is torch's op.",
        "np.take_along_axis(x, index, axis=dim)",
    ),
    (
        "06.one_hot",
        "def answer(labels, classes):\n"
        "    import numpy as np\n"
        "    return torch.from_numpy(np.one_hot(labels.numpy(), classes))\n",
        "NumPy has no np.one_hot",
        "np.eye(classes, dtype=np.int64)[labels]",
    ),
    (
        "01.pick_columns",
        "def answer(x, columns):\n"
        "    import numpy as np\n"
        "    flat = np.take_along_axis(x.numpy(), columns.numpy(), axis=None)\n"
        "    return torch.from_numpy(flat)\n",
        "np.take_along_axis with axis=None reads the array flattened",
        "np.take_along_axis(x, index, axis=1)",
    ),
]


@pytest.mark.parametrize(("exercise_id", "code", "words", "fix"), NUMPY_ERRORS)
def test_numpy_s_errors_for_torch_names_and_a_flat_read_get_their_rule(
    exercise_id, code, words, fix
):
    result = _judged(exercise_id, code)
    assert result.verdict.template == "implement.raised_explained", result.words
    assert words in result.message, result.message
    assert fix in result.words, result.words


def test_category_encoding_given_count_weights_is_told_count_adds_them():
    result = _judged(
        "06.class_loss_sums",
        "def answer(losses, labels, classes):\n"
        "    import keras\n"
        "    layer = keras.layers.CategoryEncoding(num_tokens=classes)\n"
        "    sums = layer(labels.numpy(), count_weights=losses.numpy())\n"
        "    return torch.from_numpy(sums.numpy())\n",
    )
    assert result.verdict.template == "argread.category_encoding_weights"
    assert "output_mode='multi_hot' (its default) marks each label" in result.message


SIZED_BY_KERAS = [
    (  # the Keras call is named, not the TensorFlow op it calls inside
        "06.class_loss_sums",
        "def answer(losses, labels, classes):\n"
        "    import keras\n"
        "    sums = keras.ops.bincount(labels.numpy(), weights=losses.numpy())\n"
        "    return torch.from_numpy(keras.ops.convert_to_numpy(sums))\n",
        "keras.ops.bincount without minlength sizes its output from the ids",
    ),
    (
        "06.class_loss_sums",
        "def answer(losses, labels, classes):\n"
        "    import keras\n"
        "    top = int(labels.max()) + 1\n"
        "    sums = keras.ops.bincount(labels.numpy(), losses.numpy(), top)\n"
        "    return torch.from_numpy(keras.ops.convert_to_numpy(sums))\n",
        "keras.ops.bincount returns max(largest id + 1, minlength) counts",
    ),
    (
        "06.one_hot",
        "def answer(labels, classes):\n"
        "    import keras\n"
        "    top = int(labels.max()) + 1\n"
        "    layer = keras.layers.CategoryEncoding(top, output_mode='one_hot')\n"
        "    return torch.from_numpy(layer(labels.numpy()).numpy()).long()\n",
        "keras.layers.CategoryEncoding's num_tokens is the number of columns",
    ),
]


@pytest.mark.parametrize(("exercise_id", "code", "words"), SIZED_BY_KERAS)
def test_a_keras_size_is_told_as_the_keras_call_the_learner_wrote(
    exercise_id, code, words
):
    result = _judged(exercise_id, code)
    assert result.verdict.template == "implement.sized_by_op", result.words
    assert words in result.message, result.message
    assert "tf.one_hot" not in result.words and "tf.math" not in result.words


def test_the_fact_gather_nd_batch_dims_reads_inside_params_b():
    params = tf.reshape(tf.range(12), (2, 3, 2))
    inside = tf.gather_nd(params, [[[1]], [[2]]], batch_dims=1)  # params[b][p]
    assert inside.numpy().tolist() == [[[2, 3]], [[10, 11]]]
    pair = tf.gather_nd(params, [[[1, 0]], [[1, 1]]], batch_dims=1)
    assert pair.numpy().tolist() == [[2], [9]]  # params[b][1, 0], params[b][1, 1]


GATHER_ND_PAIRS = [
    (
        "02.tf_gather_nd_pairs",
        "def answer(features, positions):\n"
        "    import tensorflow as tf\n"
        "    n = tf.shape(positions)\n"
        "    first = tf.range(n[0], dtype=positions.dtype)[:, None]\n"
        "    rows = tf.broadcast_to(first, n)\n"
        "    pairs = tf.stack([rows, positions], axis=-1)\n"
        "    return tf.gather_nd(features, pairs, batch_dims=1)\n",
    ),
    (  # a torch exercise
        "01.pick_columns",
        "def answer(x, columns):\n"
        "    import tensorflow as tf\n"
        "    rows = tf.broadcast_to(tf.range(x.shape[0])[:, None], columns.shape)\n"
        "    pairs = tf.stack([rows, tf.constant(columns.numpy(), tf.int32)], -1)\n"
        "    picked = tf.gather_nd(x.numpy(), pairs, 1)\n"
        "    return torch.from_numpy(picked.numpy())\n",
    ),
]


@pytest.mark.parametrize(("exercise_id", "code"), GATHER_ND_PAIRS)
def test_pairs_read_with_batch_dims_1_are_told_coordinates_are_inside_a_batch(
    exercise_id, code
):
    result = _judged(exercise_id, code)
    assert result.verdict.template == "argread.gather_nd_batch_dims", result.words
    assert "reads each coordinate inside params[b]" in result.message


READ_AXIS = [
    (  # a TensorFlow exercise (the page words it alike): the features' axis
        "02.tf_select_steps",
        "def answer(features, positions):\n"
        "    import tensorflow as tf\n"
        "    return tf.gather(features, positions, axis=2, batch_dims=1)\n",
        "tf.gather's axis=2 reads along axis 2 of its input, shape (2, 3, 2), but "
        "your positions count along axis 1.",
    ),
    (
        "05.label_scores",
        "def answer(log_probs, labels):\n"
        "    import numpy as np\n"
        "    index = labels.numpy()[:, None]\n"
        "    picked = np.take_along_axis(log_probs.numpy(), index, 0)\n"
        "    return torch.from_numpy(picked)\n",
        "np.take_along_axis's axis=0 reads along axis 0 of its input, shape (2, 3), "
        "but your positions count along axis 1.",
    ),
    (  # Keras's raises (the other axis does not broadcast)
        "01.pick_columns",
        "def answer(x, columns):\n"
        "    import keras\n"
        "    out = keras.ops.take_along_axis(x.numpy(), columns.numpy(), axis=0)\n"
        "    return torch.from_numpy(keras.ops.convert_to_numpy(out))\n",
        "keras.ops.take_along_axis's axis=0 reads along axis 0",
    ),
]


@pytest.mark.parametrize(("exercise_id", "code", "words"), READ_AXIS)
def test_a_read_along_another_axis_is_told_the_axis_it_read(exercise_id, code, words):
    result = _judged(exercise_id, code)
    assert result.verdict.template == "argread.read_axis", result.words
    assert words in result.message, result.message


MISSING_SIZE = [
    (
        "06.class_loss_sums",
        "def answer(losses, labels, classes):\n"
        "    import tensorflow as tf\n"
        "    sums = tf.math.unsorted_segment_sum(losses.numpy(), labels.numpy())\n"
        "    return torch.from_numpy(sums.numpy())\n",
        "tf.math.unsorted_segment_sum's num_segments is a required argument, the "
        "output's size (classes)",
    ),
    (
        "06.one_hot",
        "def answer(labels, classes):\n"
        "    import tensorflow as tf\n"
        "    made = tf.one_hot(labels.numpy(), dtype=tf.int64)\n"
        "    return torch.from_numpy(made.numpy())\n",
        "tf.one_hot's depth is a required argument",
    ),
    (
        "06.one_hot",
        "def answer(labels, classes):\n"
        "    import keras\n"
        "    made = keras.ops.one_hot(labels.numpy(), dtype='int64')\n"
        "    return torch.from_numpy(keras.ops.convert_to_numpy(made))\n",
        "keras.ops.one_hot's num_classes is a required argument",
    ),
]


@pytest.mark.parametrize(("exercise_id", "code", "words"), MISSING_SIZE)
def test_a_size_argument_left_out_is_told_it_is_required(exercise_id, code, words):
    result = _judged(exercise_id, code)
    assert result.verdict.template == "implement.missing_size", result.words
    assert words in result.message, result.message


def test_an_index_of_fewer_dims_is_told_it_is_broadcast():
    assert tf.experimental.numpy.take_along_axis(
        tf.zeros((2, 3, 2)), tf.zeros((2, 2), tf.int64), axis=1
    ).shape == (2, 2, 2)  # (2, 2) read as (1, 2, 2), no error
    result = _judged(
        "02.tf_select_steps",
        "def answer(features, positions):\n"
        "    import keras\n"
        "    return keras.ops.take_along_axis(features, positions, axis=1)\n",
    )
    assert result.verdict.template == "argread.index_rank", result.words
    assert (
        "keras.ops.take_along_axis broadcasts an index of fewer dims than its input: "
        "positions (2, 2) are read as (1, 2, 2) against input (2, 3, 2)"
    ) in result.message


GATHER_NOT_ND = [
    "def answer(features, positions):\n"
    "    import tensorflow as tf\n"
    "    n = tf.shape(positions)\n"
    "    rows = tf.broadcast_to(tf.range(n[0], dtype=positions.dtype)[:, None], n)\n"
    "    pairs = tf.stack([rows, positions], axis=-1)\n"
    "    return tf.gather(features, pairs, axis=1, batch_dims=1)\n",
    "def answer(features, positions):\n"
    "    import tensorflow as tf\n"
    "    return tf.gather(features, positions[..., None], axis=1, batch_dims=1)\n",
]


@pytest.mark.parametrize("code", GATHER_NOT_ND)
def test_tf_gather_where_gather_nd_is_asked_is_told_it_reads_no_coordinates(code):
    result = _judged("02.tf_gather_nd_pairs", code)
    assert result.verdict.template == "implement.gather_not_nd", result.words
    assert "where tf.gather_nd reads the index's last axis as a coordinate" in (
        result.message
    )


def test_tf_gather_of_the_right_shape_is_told_only_which_op_is_asked():
    result = _judged(
        "02.tf_gather_nd_pairs",
        "def answer(features, positions):\n"
        "    import tensorflow as tf\n"
        "    return tf.gather(features, positions, axis=1, batch_dims=1)\n",
    )
    assert result.verdict.template == "implement.not_required", result.words


REDUCE_AXIS = [
    (
        "06.class_loss_sums",
        "def answer(losses, labels, classes):\n"
        "    import tensorflow as tf\n"
        "    rows = tf.one_hot(labels.numpy(), classes, dtype=tf.float32)\n"
        "    sums = tf.reduce_sum(rows * losses.numpy()[:, None], axis=1)\n"
        "    return torch.from_numpy(sums.numpy())\n",
        "argread.reduce_axis",
        "tf.reduce_sum's axis=1 reduces axis 1 of its input, shape (4, 3), where "
        "axis 0 is the one to reduce.",
    ),
    (
        "06.class_loss_sums",
        "def answer(losses, labels, classes):\n"
        "    import numpy as np\n"
        "    rows = np.eye(classes, dtype=np.float32)[labels.numpy()]\n"
        "    return torch.from_numpy(np.sum(rows * losses.numpy()[:, None]))\n",
        "argread.reduce_all",
        "np.sum without axis reduces its whole input, shape (4, 3), to one number, "
        "where axis 0 is the one to reduce.",
    ),
    (  # a mean per segment over the wrong axis of a one-hot mask
        "06.segment_means",
        "def answer(values, segments, count):\n"
        "    import keras\n"
        "    dtype = values.numpy().dtype\n"
        "    mask = keras.ops.one_hot(segments.numpy(), count, dtype=dtype)\n"
        "    sums = keras.ops.sum(mask * values.numpy()[:, None], axis=1)\n"
        "    sizes = keras.ops.maximum(keras.ops.sum(mask, axis=0), 1)\n"
        "    return torch.from_numpy(keras.ops.convert_to_numpy(sums / sizes))\n",
        "argread.reduce_axis",
        "keras.ops.sum's axis=1 reduces axis 1",
    ),
]


@pytest.mark.parametrize(("exercise_id", "code", "template", "words"), REDUCE_AXIS)
def test_a_reduction_along_another_axis_is_told_the_axis_it_reduced(
    exercise_id, code, template, words
):
    result = _judged(exercise_id, code)
    assert result.verdict.template == template, result.words
    assert words in result.message, result.message


@pytest.mark.parametrize(
    "maker", ["np.zeros((len(labels), classes))", "np.eye(classes)"]
)
def test_numpy_s_float64_default_is_named_for_the_call_without_a_dtype(maker):
    assert np.zeros(2).dtype == np.float64 and np.eye(2).dtype == np.float64
    write = (
        "    out[np.arange(len(labels)), labels.numpy()] = 1\n"
        if "zeros" in maker
        else "    out = out[labels.numpy()]\n"
    )
    result = _judged(
        "06.one_hot",
        "def answer(labels, classes):\n"
        "    import numpy as np\n"
        f"    out = {maker}\n" + write + "    return torch.from_numpy(out)\n",
    )
    assert result.verdict.template == "differ.dtype_default_numpy", result.words
    call = maker.split("(")[0]
    assert f"{call} makes float64 unless given a dtype" in result.message


def test_take_along_axis_raising_for_other_sizes_is_told_it_broadcasts():
    with pytest.raises(IndexError):  # torch.gather would read the (3, 3) corner
        np.take_along_axis(np.zeros((1, 5)), np.zeros((3, 3), np.int64), axis=0)
    result = _judged(
        "04.gather_python_style",
        "def answer(input, dim, index):\n"
        "    import numpy as np\n"
        "    picked = np.take_along_axis(input.numpy(), index.numpy(), axis=dim)\n"
        "    return torch.from_numpy(picked)\n",
    )
    assert result.verdict.template == "argread.along_broadcast", result.words
    assert "np.take_along_axis raised IndexError: index (3, 3) and input (1, 5)" in (
        result.message
    )
    assert "x[...]" not in result.words


def test_numpy_float_positions_are_told_numpy_s_conversion():
    result = _judged(
        "06.class_loss_sums",
        "def answer(losses, labels, classes):\n"
        "    import numpy as np\n"
        "    ids = labels.numpy() / 1\n"
        "    sums = np.bincount(ids, losses.numpy(), classes)\n"
        "    return torch.from_numpy(sums.astype(np.float32))\n",
    )
    assert "index.astype(np.int64)" in result.fix, result.words
    assert "index.long()" not in result.words


def test_tf_bincount_s_int32_counts_are_named_as_its_default():
    assert tf.math.bincount(np.array([0, 1])).dtype == tf.int32
    assert tf.math.bincount(np.array([0, 1]), weights=[0.5, 1.0]).dtype == tf.float32
    result = _judged(
        "06.one_hot",
        "def answer(labels, classes):\n"
        "    import tensorflow as tf\n"
        "    ids = labels.numpy()[:, None]\n"
        "    rows = tf.math.bincount(ids, minlength=classes, axis=-1)\n"
        "    return torch.from_numpy(rows.numpy())\n",
    )
    assert result.verdict.template == "differ.dtype_default_op", result.words
    assert "tf.math.bincount makes int32 unless given a dtype" in result.message


def test_a_dtype_made_by_the_learner_s_last_tf_cast_names_that_cast():
    result = _judged(
        "06.segment_means",
        "def answer(values, segments, count):\n"
        "    import tensorflow as tf\n"
        "    ids = segments.numpy()\n"
        "    means = tf.math.unsorted_segment_mean(values.numpy(), ids, count)\n"
        "    return torch.from_numpy(tf.cast(means, tf.float32).numpy())\n",
    )
    assert result.verdict.template == "differ.dtype_tf_cast", result.words
    assert "your last tf.cast made float32" in result.message
    assert "tf.cast(x, tf.float64)" in result.fix


SCATTER_ND_SHAPE = [
    (
        "06.one_hot",
        "def answer(labels, classes):\n"
        "    import tensorflow as tf\n"
        "    ids = labels.numpy()[:, None]\n"
        "    ones = tf.ones(len(labels), tf.int64)\n"
        "    return torch.from_numpy(tf.scatter_nd(ids, ones, [classes]).numpy())\n",
        "tf.scatter_nd makes a new tensor of its shape argument, (4,) here, not (3, 4)",
    ),
]


@pytest.mark.parametrize(("exercise_id", "code", "words"), SCATTER_ND_SHAPE)
def test_scatter_nd_of_another_rank_is_told_its_shape_argument_makes_it(
    exercise_id, code, words
):
    result = _judged(exercise_id, code)
    assert result.verdict.template == "implement.scatter_nd_shape", result.words
    assert words in result.message, result.message
    assert "a write keeps the shape" not in result.words


def test_scatter_nd_of_the_right_values_and_an_extra_axis_keeps_that_belief():
    result = _judged(
        "06.class_loss_sums",
        "def answer(losses, labels, classes):\n"
        "    import tensorflow as tf\n"
        "    ids = labels.numpy()[:, None]\n"
        "    sums = tf.scatter_nd(ids, losses.numpy()[:, None], [classes, 1])\n"
        "    return torch.from_numpy(sums.numpy())\n",
    )
    assert result.verdict.misconception == "extra-axis", result.words

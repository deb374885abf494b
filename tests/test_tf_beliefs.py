"""TensorFlow-specific beliefs, and their torch twins, named in the checker's first
step on any exercise: an op that is not (or no longer) in the library the answer
calls (TensorFlow 1 API gone from TensorFlow 2, another library's op or method), in
the notebook and on the page alike."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch

from gatherlab.error_rules import explain
from gatherlab.exercises import EXERCISES, check
from gatherlab.exercises.page import payload
from tests.test_page_cases import node_judges

tf = pytest.importorskip("tensorflow")

# name -> (module, what the first step says)
ABSENT = {
    "batch_gather": ("tf", "tf.batch_gather is TensorFlow 1 API, gone from"),
    "scatter_nd_add": ("tf", "tf.scatter_nd_add is TensorFlow 1 API"),
    "scatter_update": ("tf", "tf.scatter_update is TensorFlow 1 API"),
    "batch_scatter_update": ("tf", "tf.batch_scatter_update is TensorFlow 1 API"),
    "tensor_scatter_add": ("tf", "renamed tf.tensor_scatter_nd_add in TensorFlow 2"),
    "unsorted_segment_mean": ("tf", "the segment ops live in tf.math"),
    "segment_sum": ("tf", "the segment ops live in tf.math"),
    "to_int64": ("tf", "tf.to_int64 is TensorFlow 1 API"),
    "to_float": ("tf", "tf.to_float is TensorFlow 1 API"),
    "Session": ("tf", "tf.Session is TensorFlow 1 API"),
    "placeholder": ("tf", "tf.placeholder is TensorFlow 1 API"),
    "arg_max": ("tf", "tf.arg_max is TensorFlow 1 API"),
    "log": ("tf", "tf.log is TensorFlow 1 API"),
    "Print": ("tf", "tf.Print is TensorFlow 1 API"),
    "index_select": ("tf", "TensorFlow has no tf.index_select: that is torch's op"),
    "take_along_dim": ("tf", "TensorFlow has no tf.take_along_dim"),
    "gather_nd": ("torch", "torch has no torch.gather_nd: that is TensorFlow's op"),
    "take_along_axis": ("torch", "that is NumPy's name"),
    "tensor_scatter_nd_update": ("torch", "has no torch.tensor_scatter_nd_update"),
}


def _error(call: Any) -> str:
    try:
        call()
    except AttributeError as error:
        return str(error)
    raise AssertionError("no AttributeError")  # pragma: no cover


@pytest.mark.parametrize("name", sorted(ABSENT))
def test_a_name_the_library_lacks_is_explained_by_what_replaced_it(name: str) -> None:
    module_name, said = ABSENT[name]
    module = tf if module_name == "tf" else torch
    text = _error(lambda: getattr(module, name))
    found = explain(text)
    assert found.rule == "api-not-in-library"
    assert said in found.meaning and found.fix
    if "TensorFlow 1 API" in found.meaning or "tf.math" in found.meaning:
        assert hasattr(tf.compat.v1, name)  # "only tf.compat.v1 ... remains" holds
    if "tf.math" in found.meaning:
        assert hasattr(tf.math, name)


def test_torch_methods_on_a_tensorflow_tensor_are_named_as_torch_s() -> None:
    x = tf.constant([1.0, 2.0])
    for name, said in (
        ("scatter_", "no in-place writes at all"),
        ("index_add_", "no in-place writes at all"),
        ("gather", "TensorFlow's ops are functions"),
        ("index_select", "TensorFlow's ops are functions"),
    ):
        assert hasattr(torch.Tensor, name)
        found = explain(_error(lambda name=name: getattr(x, name)))
        assert found.rule == "api-not-in-library" and said in found.meaning
        assert found.meaning.startswith(f"{name} is a torch.Tensor method")


def test_the_tensorflow_2_names_given_exist() -> None:
    for name in ("math.argmax", "math.argmin", "math.log", "random.uniform", "print"):
        module, _, attribute = name.rpartition(".")
        assert hasattr(getattr(tf, module) if module else tf, attribute), name
    assert tf.cast(tf.constant([1]), tf.float64).dtype == tf.float64


def test_the_fixes_they_give_compute_what_the_old_op_did() -> None:
    params = np.arange(24.0).reshape(2, 3, 4)
    index = np.array([[2, 0], [1, 1]])
    old = tf.compat.v1.batch_gather(params, index)
    assert np.array_equal(tf.gather(params, index, batch_dims=1), old)
    assert np.array_equal(tf.gather(params, index, axis=1, batch_dims=1), old)
    x = torch.tensor(params)
    rows = torch.arange(2)[:, None]
    assert np.array_equal(x[rows, torch.tensor(index)].numpy(), old.numpy())


# answers in other exercises than the collected one (02.tf_select_steps), both libraries
ANSWERS = {
    "02.tf_select_steps": (
        "def answer(features, positions):\n"
        "    import tensorflow as tf\n"
        "    return tf.batch_gather(features, positions)\n",
        "tf.batch_gather is TensorFlow 1 API, gone from TensorFlow 2 (only "
        "tf.compat.v1.batch_gather remains).",
    ),
    "02.tf_gather_nd_pairs": (
        "def answer(features, positions):\n"
        "    import tensorflow as tf\n"
        "    return features.gather(positions)\n",
        "gather is a torch.Tensor method: a TensorFlow tensor has none of torch's",
    ),
    "06.segment_means": (
        "def answer(values, segments, count):\n"
        "    import tensorflow as tf\n"
        "    return tf.unsorted_segment_mean(values, segments, count)\n",
        "In TensorFlow 2 the segment ops live in tf.math: tf.unsorted_segment_mean",
    ),
    "02.select_steps": (
        "def answer(features, positions):\n"
        "    rows = torch.arange(len(features))[:, None]\n"
        "    pairs = torch.stack([rows.expand_as(positions), positions], -1)\n"
        "    return torch.gather_nd(features, pairs)\n",
        "torch has no torch.gather_nd: that is TensorFlow's op.",
    ),
    "01.pick_columns": (
        "def answer(x, columns):\n    return torch.take_along_axis(x, columns, 1)\n",
        "torch has no torch.take_along_axis: that is NumPy's name",
    ),
}


def test_the_first_step_names_the_missing_op_in_the_notebook_and_on_the_page() -> None:
    said = {}
    for exercise_id, (code, words) in ANSWERS.items():
        names: dict[str, Any] = {"torch": torch}
        exec(code, names)
        result = check(exercise_id, names["answer"])
        assert not result.passed
        assert "your function raised AttributeError. " + words in result.message, (
            exercise_id,
            result.message,
        )
        said[exercise_id] = result.message
    page = node_judges(
        {k: {"wrong": code} for k, (code, _) in ANSWERS.items()},
        {k: payload(EXERCISES[k]) for k in ANSWERS},
    )
    for exercise_id, message in said.items():
        mistake = page[exercise_id]["wrong"]["mistake"]
        assert mistake.replace("`", "") == message.replace("`", "")


# ------------------------------------------ Python numbers converted without a dtype

NUMBERS = {
    # the collected answer (tensorflow#35938's belief): float64 cases come back float32
    "06.segment_means": (
        "def answer(values, segments, count):\n"
        "    import tensorflow as tf\n"
        "    v = tf.constant(values.tolist())\n"
        "    means = tf.math.unsorted_segment_mean(v, tf.constant(segments.tolist()), "
        "count)\n"
        "    return torch.from_numpy(means.numpy())\n",
        "tf.constant converts Python floats to float32 by default, unlike NumPy "
        "(float64).",
    ),
    # TensorFlow's ints: int32
    "02.tf_select_steps": (
        "def answer(features, positions):\n"
        "    import tensorflow as tf\n"
        "    rows = tf.constant(features.numpy().tolist())\n"
        "    return tf.gather(rows, positions, batch_dims=1)\n",
        "tf.constant converts Python ints to int32 by default, unlike NumPy (int64).",
    ),
    # torch's twin: torch.tensor of Python floats is float32 too
    "06.class_loss_sums": (
        "def answer(losses, labels, classes):\n"
        "    sums = torch.tensor([0.0] * classes)\n"
        "    return sums.index_add(0, labels, losses.float())\n",
        "torch.tensor converts Python floats to float32 by default, unlike NumPy "
        "(float64).",
    ),
}
# the same, where the page can run them (no .numpy())
PAGE_NUMBERS = {
    "06.class_loss_sums": NUMBERS["06.class_loss_sums"][0],
    "06.segment_means": (
        "def answer(values, segments, count):\n"
        "    sums = torch.zeros(count, dtype=values.dtype)\n"
        "    sums = sums.index_add(0, segments, values)\n"
        "    n = torch.zeros(count, dtype=values.dtype).index_add(\n"
        "        0, segments, torch.ones_like(values))\n"
        "    return torch.tensor((sums / n.clamp(min=1)).tolist())\n"
    ),
}


def _judged(exercise_id: str, code: str) -> Any:
    names: dict[str, Any] = {"torch": torch}
    exec(code, names)
    return check(exercise_id, names["answer"])


def test_the_defaults_said_hold() -> None:
    assert tf.constant([0.5]).dtype == tf.float32
    assert tf.constant([1]).dtype == tf.int32
    assert torch.tensor([0.5]).dtype == torch.float32
    assert np.array([0.5]).dtype == np.float64 and np.array([1]).dtype == np.int64
    kept = tf.constant(np.array([0.5])).dtype  # the array itself keeps its dtype
    assert kept == tf.float64
    assert tf.constant([0.5], dtype=tf.float64).dtype == tf.float64


def test_a_conversion_of_python_numbers_is_named_not_a_write_s_buffer() -> None:
    for exercise_id, (code, words) in NUMBERS.items():
        result = _judged(exercise_id, code)
        assert result.verdict.template == "differ.dtype_python_numbers", exercise_id
        assert words in result.message, result.message
        assert "torch.zeros" not in result.message
    # a buffer made float32 by torch.zeros is still the write's dtype, not a conversion
    buffer = _judged(
        "06.class_loss_sums",
        "def answer(losses, labels, classes):\n"
        "    return torch.zeros(classes).index_add(0, labels, losses.float())\n",
    )
    assert buffer.verdict.template == "differ.dtype_write_zeros"
    # floats converted WITH their dtype: no conversion of Python numbers is named,
    # the result's own final .float() is (implement._cast)
    kept = _judged(
        "06.class_loss_sums",
        "def answer(losses, labels, classes):\n"
        "    sums = torch.tensor([0.0] * classes, dtype=losses.dtype)\n"
        "    return sums.index_add(0, labels, losses).float()\n",
    )
    assert kept.verdict.template == "differ.dtype_cast"


def test_the_page_names_the_conversion_as_the_notebook_does() -> None:
    said = {k: _judged(k, code).message for k, code in PAGE_NUMBERS.items()}
    assert all("converts Python floats to float32" in m for m in said.values())
    page = node_judges(
        {k: {"wrong": code} for k, code in PAGE_NUMBERS.items()},
        {k: payload(EXERCISES[k]) for k in PAGE_NUMBERS},
    )
    for exercise_id, message in said.items():
        mistake = page[exercise_id]["wrong"]["mistake"]
        assert mistake.replace("`", "") == message.replace("`", "")


# ------------------------------------------ NumPy-style advanced indexing in TensorFlow

SUBSCRIPTS = {
    # the collected answer (tensorflow#5332's belief)
    "02.tf_select_steps": (
        "def answer(features, positions):\n"
        "    import tensorflow as tf\n"
        "    rows = tf.range(tf.shape(positions)[0], dtype=positions.dtype)[:, None]\n"
        "    return features[rows, positions]\n"
    ),
    # rows broadcast to the positions' shape: another error, the same belief
    "02.tf_gather_nd_pairs": (
        "def answer(features, positions):\n"
        "    import tensorflow as tf\n"
        "    rows = tf.range(tf.shape(positions)[0], dtype=positions.dtype)[:, None]\n"
        "    return features[tf.broadcast_to(rows, tf.shape(positions)), positions]\n"
    ),
}
SUBSCRIPT_WORDS = (
    "your function indexed a TensorFlow tensor with a tensor of positions: its [] "
    "does no NumPy-style advanced indexing"
)


def test_tensorflow_refuses_the_subscripts_it_is_told_it_refuses() -> None:
    x = tf.reshape(tf.range(12.0), (2, 3, 2))
    positions = tf.constant([[0, 2], [1, 1]])
    for subscript in (
        lambda: x[tf.range(2)[:, None], positions],
        lambda: x[:, positions],
        lambda: x[positions],
        lambda: x[tf.range(2), positions[:, 0]],
    ):
        with pytest.raises((TypeError, tf.errors.InvalidArgumentError)):
            subscript()
    assert x[tf.constant(1)].shape == (3, 2)  # a scalar tensor is taken
    picked = tf.gather(x, positions, batch_dims=1)  # the fix it gives
    assert picked.numpy().tolist() == [[[0, 1], [4, 5]], [[8, 9], [8, 9]]]


def test_a_subscript_with_positions_on_a_tensorflow_tensor_is_named() -> None:
    said = {}
    for exercise_id, code in SUBSCRIPTS.items():
        result = _judged(exercise_id, code)
        assert result.verdict.template == "implement.tf_subscript", result.message
        assert SUBSCRIPT_WORDS in result.message
        said[exercise_id] = result.message
    # TensorFlow inside a torch exercise: the same
    inside = _judged(
        "02.last_valid_step",
        "def answer(features, lengths):\n"
        "    import tensorflow as tf\n"
        "    x = tf.constant(features.numpy())\n"
        "    last = x[tf.range(len(lengths)), tf.constant(lengths.numpy()) - 1]\n"
        "    return torch.from_numpy(last.numpy())\n",
    )
    assert SUBSCRIPT_WORDS in inside.message
    # a scalar position off the end is no advanced indexing
    scalar = _judged(
        "02.tf_select_steps",
        "def answer(features, positions):\n"
        "    import tensorflow as tf\n"
        "    return features[tf.constant(7)]\n",
    )
    assert scalar.verdict.template != "implement.tf_subscript"
    page = node_judges(
        {k: {"wrong": code} for k, code in SUBSCRIPTS.items()},
        {k: payload(EXERCISES[k]) for k in SUBSCRIPTS},
    )
    for exercise_id, message in said.items():
        mistake = page[exercise_id]["wrong"]["mistake"]
        assert mistake.replace("`", "") == message.replace("`", "")


# -------------------------------- a plain gather after moving the dim read to the front

FRONT = {
    "02.last_valid_step": (
        "def answer(features, lengths):\n"
        "    return features.transpose(0, 1)[lengths - 1]\n"
    ),
    "02.select_steps": (
        "def answer(features, positions):\n"
        "    return features.transpose(0, 1)[positions]\n"
    ),
    "02.tf_select_steps": (
        "def answer(features, positions):\n"
        "    import tensorflow as tf\n"
        "    return tf.gather(tf.transpose(features, [1, 0, 2]), positions)\n"
    ),
}


def test_a_plain_gather_of_the_dim_moved_first_reads_every_position_in_every_row():
    said = {}
    for exercise_id, code in FRONT.items():
        result = _judged(exercise_id, code)
        assert result.verdict.misconception == "every-row-reads-every-position"
        said[exercise_id] = result.message
    assert "each index entry read a whole slice" in said["02.last_valid_step"]
    assert "without batch_dims=1, tf.gather reads all of" in said["02.tf_select_steps"]
    # the collected answer (riptutorial's 'indices only refer to the first dimension')
    collected = _judged(
        "02.last_valid_step",
        "def answer(features, lengths):\n"
        "    import tensorflow as tf\n"
        "    steps_first = tf.transpose(tf.constant(features.numpy()), [1, 0, 2])\n"
        "    last = tf.gather(steps_first, tf.constant(lengths.numpy()) - 1)\n"
        "    return torch.from_numpy(last.numpy())\n",
    )
    assert collected.verdict.misconception == "every-row-reads-every-position"
    # what it says: out[j, b] is row b read at sequence j's position
    x = np.arange(24.0).reshape(2, 3, 4)
    last = np.array([2, 0])
    moved = tf.gather(tf.transpose(x, [1, 0, 2]), last).numpy()
    assert moved.shape == (2, 2, 4)
    assert np.array_equal(moved[1, 0], x[0, last[1]])
    page = node_judges(
        {k: {"wrong": code} for k, code in FRONT.items()},
        {k: payload(EXERCISES[k]) for k in FRONT},
    )
    for exercise_id, message in said.items():
        mistake = page[exercise_id]["wrong"]["mistake"]
        assert mistake.replace("`", "") == message.replace("`", "")


# ------------------------------------------------- meshgrid's "xy" grid taken as "ij"

MESHGRIDS = {
    "02.tf_gather_nd_pairs": (
        "def answer(features, positions):\n"
        "    import tensorflow as tf\n"
        "    b, p = positions.shape\n"
        "    rows, _ = tf.meshgrid(tf.range(b, dtype=positions.dtype),\n"
        "                          tf.range(p, dtype=positions.dtype))\n"
        "    return tf.gather_nd(features, tf.stack([rows, positions], axis=-1))\n",
        "tf.meshgrid defaults to indexing='xy' in your function",
    ),
    "02.tf_select_steps": (
        "def answer(features, positions):\n"
        "    import tensorflow as tf\n"
        "    grids = tf.meshgrid(tf.range(positions.shape[0], dtype=positions.dtype),\n"
        "                        tf.range(positions.shape[1], dtype=positions.dtype))\n"
        "    pairs = tf.stack([grids[0], positions], axis=-1)\n"
        "    return tf.gather_nd(features, pairs)\n",
        "tf.meshgrid defaults to indexing='xy' in your function",
    ),
    # torch's twin: "xy" asked for, believed to give (batch, picks)
    "02.select_steps": (
        "def answer(features, positions):\n"
        "    b, p = positions.shape\n"
        "    r, _ = torch.meshgrid(torch.arange(b), torch.arange(p), indexing='xy')\n"
        "    return features[r, positions]\n",
        "torch.meshgrid was given indexing='xy' in your function",
    ),
}


def test_tensorflow_and_numpy_meshgrids_are_xy_by_default_as_said() -> None:
    rows, _ = tf.meshgrid(tf.range(2), tf.range(3))
    assert rows.shape == (3, 2) and rows.numpy().tolist() == [[0, 1]] * 3
    rows_ij, _ = tf.meshgrid(tf.range(2), tf.range(3), indexing="ij")
    assert rows_ij.numpy().tolist() == [[0, 0, 0], [1, 1, 1]]
    assert np.meshgrid(np.arange(2), np.arange(3))[0].shape == (3, 2)
    grid = torch.meshgrid(torch.arange(2), torch.arange(3), indexing="xy")[0]
    assert grid.shape == (3, 2)


def test_a_grid_built_in_xy_mode_is_named_in_the_notebook_and_on_the_page() -> None:
    said = {}
    for exercise_id, (code, words) in MESHGRIDS.items():
        result = _judged(exercise_id, code)
        assert result.verdict.template == "implement.meshgrid_xy", result.message
        assert words in result.message
        said[exercise_id] = result.message
    # the collected answers (fourier-neural-operator-flax#1, tensorflow#9740's belief)
    collected = (
        "def answer(features, positions):\n"
        "    import tensorflow as tf\n"
        "    shape = tf.shape(positions, out_type=positions.dtype)\n"
        "    rows, _ = tf.meshgrid(tf.range(shape[0]), tf.range(shape[1]))\n"
        "    pairs = tf.stack([rows, positions], axis=-1)\n"
        "    return tf.gather_nd(features, pairs)\n"
    )
    assert (
        "tf.meshgrid defaults to indexing='xy'"
        in _judged("02.tf_gather_nd_pairs", collected).message
    )
    # NumPy's default in a torch exercise
    numpy_grid = _judged(
        "02.select_steps",
        "def answer(features, positions):\n"
        "    import numpy as np\n"
        "    rows, _ = np.meshgrid(np.arange(positions.shape[0]),\n"
        "                          np.arange(positions.shape[1]))\n"
        "    return features[torch.as_tensor(rows), positions]\n",
    )
    assert "np.meshgrid defaults to indexing='xy'" in numpy_grid.message
    # "xy" and another mistake (positions off by one): not the grid alone
    other = _judged(
        "02.select_steps",
        "def answer(features, positions):\n"
        "    b, p = positions.shape\n"
        "    r, _ = torch.meshgrid(torch.arange(b), torch.arange(p), indexing='xy')\n"
        "    return features[r, positions - 1]\n",
    )
    assert other.verdict.template != "implement.meshgrid_xy"
    page = node_judges(
        {k: {"wrong": code} for k, (code, _) in MESHGRIDS.items()},
        {k: payload(EXERCISES[k]) for k in MESHGRIDS},
    )
    for exercise_id, message in said.items():
        mistake = page[exercise_id]["wrong"]["mistake"]
        assert mistake.replace("`", "") == message.replace("`", "")


# ---------------------------------------- num_segments counted from the ids present


def test_num_segments_counted_from_the_ids_is_told_it_is_the_output_s_size() -> None:
    # the collected answer (MindSpore's doc: num_segments = the number of distinct ids)
    distinct = _judged(
        "06.segment_means",
        "def answer(values, segments, count):\n"
        "    import tensorflow as tf\n"
        "    n = len(set(segments.tolist()))\n"
        "    means = tf.math.unsorted_segment_mean(tf.constant(values.numpy()),\n"
        "                                          tf.constant(segments.numpy()), n)\n"
        "    return torch.from_numpy(means.numpy())\n",
    )
    assert distinct.verdict.template == "implement.sized_by_op"
    assert "num_segments is the output's size, count (" in distinct.message
    assert "one slot per id in [0, num_segments)" in distinct.message
    assert "the number of distinct ids in segments" in distinct.message
    # own variant: a sum sized by the largest id, on another exercise
    largest = _judged(
        "06.class_loss_sums",
        "def answer(losses, labels, classes):\n"
        "    import tensorflow as tf\n"
        "    sums = tf.math.unsorted_segment_sum(tf.constant(losses.numpy()),\n"
        "        tf.constant(labels.numpy()), int(labels.max()))\n"
        "    return torch.from_numpy(sums.numpy())\n",
    )
    assert largest.verdict.template == "implement.sized_by_op"
    assert "num_segments is the output's size, classes (" in largest.message
    assert "the largest id in labels." in largest.message
    # what it says holds: an absent id keeps its slot, one past the end raises
    kept = tf.math.unsorted_segment_mean([1.0, 2.0], [0, 2], num_segments=4)
    assert kept.numpy().tolist() == [1.0, 0.0, 2.0, 0.0]
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.math.unsorted_segment_mean([1.0, 2.0], [0, 2], num_segments=2)


def test_a_tensorflow_op_s_default_dtype_is_named_not_torch_zeros() -> None:
    assert tf.zeros(2).dtype == tf.float32 and tf.one_hot([0], 2).dtype == tf.float32
    one_hot = _judged(
        "06.one_hot",
        "def answer(labels, classes):\n"
        "    import tensorflow as tf\n"
        "    return torch.from_numpy(tf.one_hot(labels.numpy(), classes).numpy())\n",
    )
    assert "tf.one_hot makes float32 unless given a dtype" in one_hot.message
    zeros = _judged(
        "06.class_loss_sums",
        "def answer(losses, labels, classes):\n"
        "    import tensorflow as tf\n"
        "    ids = tf.constant(labels.numpy()[:, None])\n"
        "    losses = tf.cast(losses.numpy(), tf.float32)\n"
        "    sums = tf.tensor_scatter_nd_add(tf.zeros(classes), ids, losses)\n"
        "    return torch.from_numpy(sums.numpy())\n",
    )
    assert "tf.zeros makes float32 unless given a dtype" in zeros.message
    assert "torch.zeros" not in zeros.message.split("\n")[0]
    # given its dtype, tf.zeros is not named
    given = _judged(
        "06.class_loss_sums",
        "def answer(losses, labels, classes):\n"
        "    import tensorflow as tf\n"
        "    ids = tf.constant(labels.numpy()[:, None])\n"
        "    zeros = tf.zeros(classes, dtype=tf.float64)\n"
        "    sums = tf.tensor_scatter_nd_add(zeros, ids, tf.constant(losses.numpy()))\n"
        "    return torch.from_numpy(tf.cast(sums, tf.float32).numpy())\n",
    )
    assert "tf.zeros makes" not in given.message


# -------------------- a torch exercise answered with tf.gather gets tf.gather's words

TF_EVERY_ROW = {
    "time-major, no batch_dims": (
        "def answer(features, lengths):\n"
        "    import tensorflow as tf\n"
        "    steps = tf.transpose(tf.constant(features.numpy()), [1, 0, 2])\n"
        "    return torch.from_numpy(tf.gather(steps, lengths.numpy() - 1).numpy())\n"
    ),
    "axis=1, no batch_dims": (
        "def answer(features, lengths):\n"
        "    import tensorflow as tf\n"
        "    last = tf.gather(features.numpy(), lengths.numpy() - 1, axis=1)\n"
        "    return torch.as_tensor(last.numpy())\n"
    ),
}


@pytest.mark.parametrize("code", TF_EVERY_ROW.values(), ids=list(TF_EVERY_ROW))
def test_a_tf_gather_without_batch_dims_in_a_torch_exercise_is_told_tf_gather_s_rule(
    code: str,
) -> None:
    # what the words say, run in TensorFlow: without batch_dims each index entry reads
    # a whole slice, so every sequence's position is read in every batch entry; with
    # batch_dims=1, sequence b reads only its own lengths[b] - 1
    features = np.arange(24).reshape(2, 4, 3)
    lengths = np.array([4, 2])
    every = tf.gather(features, lengths - 1, axis=1).numpy()
    assert every.shape == (2, 2, 3)
    assert np.array_equal(every[0, 1], features[0, lengths[1] - 1])
    paired = tf.gather(features, lengths - 1, axis=1, batch_dims=1).numpy()
    assert np.array_equal(paired, features[[0, 1], lengths - 1])
    result = _judged("02.last_valid_step", code)
    assert result.verdict.misconception == "every-row-reads-every-position"
    assert "without batch_dims=1, tf.gather reads all of" in result.message
    assert "one element per index entry" not in result.words
    assert "torch.gather(" not in result.words
    assert "`tf.gather(features, lengths - 1, axis=1, batch_dims=1)`" in result.fix
    assert "its own (lengths - 1)[b]" in result.fix


def test_the_same_read_in_torch_keeps_torch_s_words() -> None:
    result = _judged(
        "02.last_valid_step",
        "def answer(features, lengths):\n    return features[:, lengths - 1]\n",
    )
    assert result.verdict.misconception == "every-row-reads-every-position"
    assert "gather reads one element per index entry" in result.message
    assert "tf.gather" not in result.words


def test_a_write_s_dtype_names_torch_zeros_only_where_the_answer_called_it() -> None:
    keras = pytest.importorskip("keras")
    assert keras.ops.one_hot(np.array([0]), 2).dtype == "float32"
    assert torch.zeros(2).dtype == torch.float32
    made = _judged(
        "06.one_hot",
        "def answer(labels, classes):\n"
        "    import keras\n"
        "    rows = keras.ops.one_hot(labels.numpy(), classes)\n"
        "    return torch.from_numpy(keras.ops.convert_to_numpy(rows))\n",
    )
    assert "keras.ops.one_hot makes float32 unless given a dtype" in made.message
    assert "torch.zeros" not in made.message
    # a cast to float32: the op that made the result is told, torch.zeros never
    cast = _judged(
        "06.one_hot",
        "def answer(labels, classes):\n"
        "    import tensorflow as tf\n"
        "    rows = tf.one_hot(labels.numpy(), classes, dtype=tf.int64)\n"
        "    return torch.from_numpy(tf.cast(rows, tf.float32).numpy())\n",
    )
    assert "has dtype float32, not int64" in cast.message
    assert "torch.zeros" not in cast.message
    # torch.zeros without a dtype: its default is named
    zeros = _judged(
        "06.one_hot",
        "def answer(labels, classes):\n"
        "    rows = torch.zeros(len(labels), classes)\n"
        "    return rows.scatter_(1, labels.unsqueeze(1), 1)\n",
    )
    assert "(torch.zeros: float32 by default)" in zeros.message
    assert "Your torch.zeros call gave no dtype" in zeros.hint().fix
    # torch.zeros given float32 itself: its default is not the cause
    given = _judged(
        "06.one_hot",
        "def answer(labels, classes):\n"
        "    rows = torch.zeros(len(labels), classes, dtype=torch.float32)\n"
        "    return rows.scatter_(1, labels.unsqueeze(1), 1)\n",
    )
    assert "has dtype float32, not int64" in given.message
    assert "torch.zeros: float32 by default" not in given.message

"""Statements the final judges found false or misleading (issue 38), each tried as a
class: the collected answer and variants of it, and every fix followed and run."""

from __future__ import annotations

import pytest
import torch

from gatherlab.error_rules import explain
from gatherlab.exercises import EXERCISES, check
from gatherlab.exercises.misconceptions import verdict_of
from gatherlab.exercises.predict import PREDICT_VOICE
from gatherlab.exercises.verdict import steps
from tests.test_real_mistakes import answer_of


def checked(exercise: str, code: str):
    """The check of ``code`` written in ``exercise``'s terms (test_real_mistakes)."""
    return check(exercise, answer_of({"exercise": exercise, "code": code}))


def one_hot(body: str) -> str:
    return "def answer(labels, classes):\n" + "".join(
        f"    {line}\n" for line in body.strip().splitlines()
    )


# ------------------------------------------- write-into-source only where shapes differ


@pytest.mark.parametrize(
    ("exercise", "code"),
    [
        # sort's values for argsort: (4,) is the right shape (mixture-of-depths#5)
        ("06.fix_write_as_read", "answer = destination.sort().values\n"),
        ("06.fix_write_as_read", "answer = destination.flip(0)\n"),
        # a position nobody writes believed to become 0 (e-com-net), and variants
        ("06.predict_include_self", "answer = [5.0, 0.0, 7.0]\n"),
        ("06.predict_include_self", "answer = [1.0, 0.0, 7.0]\n"),
        ("06.predict_include_self", "answer = [4.0, 6.0, 8.0]\n"),
    ],
)
def test_no_shape_claim_where_the_shape_is_right(exercise: str, code: str) -> None:
    result = checked(exercise, code)
    assert not result.passed
    assert result.verdict.misconception != "write-into-source", result.words
    assert "not one entry per id" not in result.words


def test_a_write_called_on_the_values_is_still_named_and_its_fix_runs() -> None:
    code = (
        "def answer(values, segments, count):\n"
        "    return values.scatter_add(0, segments, values)\n"
    )
    result = checked("06.segment_means", code)
    assert result.verdict.misconception == "write-into-source"
    assert "no new output" not in result.words  # x.scatter_add returns a new tensor
    assert "start from torch.zeros((4,), dtype=values.dtype)" in result.fix
    values = torch.tensor([14.0, 11.0, 12.0, 13.0, 15.0, 16.0, 10.0]).double()
    segments = torch.tensor([2, 0, 2, 1, 2, 1, 1])
    before = values.clone()
    followed = torch.zeros((4,), dtype=values.dtype).scatter_add(0, segments, values)
    assert followed.shape == (4,)
    # the out-of-place write leaves the tensor it is called on as it was
    values.scatter_add(0, segments, values)
    assert torch.equal(values, before)


LOSSES = "torch.zeros(classes, dtype=losses.dtype)"


@pytest.mark.parametrize(
    ("exercise", "arguments", "call", "buffer"),
    [
        ("06.class_loss_sums", "losses, labels, classes",
         "losses.index_add(0, labels, losses)", LOSSES),
        ("06.class_loss_sums", "losses, labels, classes",
         "losses.scatter_add(0, labels, losses)", LOSSES),
        ("06.segment_means", "values, segments, count",
         'values.scatter_reduce(0, segments, values, "mean", include_self=False)',
         "torch.zeros(count, dtype=values.dtype)"),
    ],
)  # fmt: skip
def test_the_write_into_source_fix_followed_passes(
    exercise: str, arguments: str, call: str, buffer: str
) -> None:
    code = f"def answer({arguments}):\n    return {call}\n"
    result = checked(exercise, code)
    assert result.verdict.misconception == "write-into-source"
    assert "Call the write on a tensor of the output's shape" in result.fix
    on = call.partition(".")[0]
    assert checked(exercise, code.replace(f"return {on}.", f"return {buffer}.")).passed


# ------------------------------------------------- which ops take a Python number


def test_scatter_out_of_place_takes_a_number_as_the_words_say() -> None:
    x, index = torch.zeros(2, 3, dtype=torch.int64), torch.tensor([[0], [2]])
    want = torch.tensor([[1, 0, 0], [0, 0, 1]])
    assert torch.equal(x.scatter(1, index, 1), want)
    assert torch.equal(torch.scatter(x, 1, index, 1), want)
    assert torch.equal(x.scatter(1, index, 1.7), want)  # converted
    for op in (x.scatter_add, x.scatter_reduce):
        with pytest.raises(TypeError):
            op(1, index, 1, *(["sum"] if op == x.scatter_reduce else []))
    # float ones into an int64 one-hot buffer (MiVOS#19, learn-ai-act-1)
    for src in ("torch.ones(labels.shape[0], 1)", "torch.tensor(1)"):
        code = one_hot(
            "rows = torch.zeros(labels.shape[0], classes, dtype=torch.int64)\n"
            f"return rows.scatter_(1, labels.unsqueeze(1), {src})"
        )
        words = checked("06.one_hot", code).words
        assert "only scatter_" not in words and "scatter_ only" not in words
    added = one_hot(
        "rows = torch.zeros(labels.shape[0], classes, dtype=torch.int64)\n"
        "return rows.scatter_add_(1, labels.unsqueeze(1), 1)"
    )
    words = checked("06.one_hot", added).words
    assert "scatter and scatter_ take a plain number; scatter_add_ does not" in words


# ------------------------------------------------------------- TensorFlow's repeats


def test_tensor_scatter_nd_update_is_not_said_to_refuse_repeats() -> None:
    tf = pytest.importorskip("tensorflow")
    zeros = tf.zeros(4, tf.int32)
    kept = tf.tensor_scatter_nd_update(zeros, [[1], [1], [3]], [5, 6, 7])
    assert kept.numpy()[3] == 7 and kept.numpy()[1] in (5, 6)  # runs, keeps one
    for answer in ("'raises'", "[0, 5, 0, 7]", "[0, 6, 0, 7]", "[0, 30, 0, 7]"):
        words = checked("06.predict_scatter_nd", f"answer = {answer}\n").words
        assert "unlike tf.tensor_scatter_nd_update" not in words


# ------------------------------------- index_fill_'s value: no index_copy_ for one-hot


def test_index_fill_with_values_is_pointed_at_a_write_of_one_value_each() -> None:
    code = one_hot(
        "rows = torch.zeros(labels.shape[0], classes, dtype=torch.int64)\n"
        "ones = torch.ones(labels.shape[0], dtype=torch.int64)\n"
        "return rows.index_fill_(1, labels, ones)"
    )
    result = checked("06.one_hot", code)
    assert "index_copy_" not in result.fix
    assert "scatter_" in result.fix and "index_put_" in result.fix
    # index_copy_ writes a whole column per index entry, not one value per row
    rows = torch.zeros(2, 3, dtype=torch.int64)
    ones = torch.ones(2, 2, dtype=torch.int64)
    copied = rows.index_copy(1, torch.tensor([2, 0]), ones)
    assert copied[:, 2].tolist() == [1, 1]
    # both writes the fix names, followed, pass
    for write in (
        "rows.scatter_(1, labels.unsqueeze(1), 1)",
        "rows.index_put_((torch.arange(labels.shape[0]), labels), "
        "torch.ones(labels.shape[0], dtype=torch.int64))",
    ):
        followed = one_hot(
            "rows = torch.zeros(labels.shape[0], classes, dtype=torch.int64)\n"
            f"return {write}"
        )
        assert checked("06.one_hot", followed).passed


# ---------------------------------- a dtype clash: the buffer takes the result's dtype


@pytest.mark.parametrize(
    ("exercise", "code", "followed"),
    [
        (  # sd-webui-animatediff#168
            "06.class_loss_sums",
            "def answer(losses, labels, classes):\n"
            "    sums = torch.zeros(classes)\n"
            "    return sums.index_put_((labels,), losses, accumulate=True)\n",
            ("torch.zeros(classes)", "torch.zeros(classes, dtype=losses.dtype)"),
        ),
        (
            "06.class_loss_sums",
            "def answer(losses, labels, classes):\n"
            "    sums = torch.zeros(classes)\n"
            "    return sums.index_add_(0, labels, losses)\n",
            ("torch.zeros(classes)", "torch.zeros(classes, dtype=losses.dtype)"),
        ),
        (  # WarpConvNet#17
            "06.segment_means",
            "def answer(values, segments, count):\n"
            "    sums = torch.zeros(count).index_add_(0, segments, values)\n"
            "    ones = torch.ones_like(values)\n"
            "    sizes = torch.zeros(count).index_add_(0, segments, ones)\n"
            "    return sums / sizes.clamp(min=1)\n",
            ("torch.zeros(count)", "torch.zeros(count, dtype=values.dtype)"),
        ),
        (  # Text2Human#21
            "06.one_hot",
            one_hot(
                "rows = torch.zeros(len(labels), classes, dtype=torch.int)\n"
                "ones = labels.new_ones(len(labels))\n"
                "rows[torch.arange(len(labels)), labels] = ones\n"
                "return rows"
            ),
            ("dtype=torch.int)", "dtype=labels.dtype)"),
        ),
    ],
)
def test_a_dtype_fix_offers_the_buffer_the_result_needs(
    exercise: str, code: str, followed: tuple[str, str]
) -> None:
    result = checked(exercise, code)
    assert "create the buffer with it (torch.zeros(..., dtype=" in result.fix
    assert "with the one the result should have" in result.fix
    assert checked(exercise, code.replace(*followed)).passed
    # the other way round gives the buffer's wrong dtype, which the check refuses
    converted = code.replace("losses, accumulate", "losses.to(sums.dtype), accumulate")
    if converted != code:
        assert not checked(exercise, converted).passed


def test_a_tensorflow_dtype_fix_offers_the_tensor_the_result_needs() -> None:
    pytest.importorskip("tensorflow")
    code = one_hot(
        "import tensorflow as tf\n"
        "rows = tf.zeros((len(labels), classes))\n"
        "steps = tf.range(len(labels), dtype=tf.int64)\n"
        "pairs = tf.stack([steps, tf.constant(labels.numpy())], axis=1)\n"
        "ones = tf.ones(len(labels), tf.int64)\n"
        "rows = tf.tensor_scatter_nd_update(rows, pairs, ones)\n"
        "return torch.tensor(rows.numpy())"
    )
    result = checked("06.one_hot", code)
    assert "create the tensor with it (tf.zeros(..., dtype=updates.dtype))" in (
        result.fix
    )
    # the updates' dtype, int64, is the one the result should have
    followed = code.replace("classes))", "classes), dtype=tf.int64)")
    assert checked("06.one_hot", followed).passed
    # casting the updates instead keeps float32, which the check refuses
    cast = code.replace(", ones)", ", tf.cast(ones, rows.dtype))")
    assert not checked("06.one_hot", cast).passed


def test_a_result_of_the_wrong_dtype_is_not_pointed_at_the_values_dtype() -> None:
    # float ones into a float32 buffer: the values' dtype is wrong too
    code = one_hot(
        "rows = torch.zeros(labels.shape[0], classes)\n"
        "return rows.scatter_(1, labels.unsqueeze(1), torch.ones(labels.shape[0], 1))"
    )
    result = checked("06.one_hot", code)
    assert "or the dtype of the values written" not in result.fix
    assert "`dtype=torch.int64`, and write values of that dtype" in result.fix
    followed = code.replace("classes)", "classes, dtype=torch.int64)").replace(
        "[0], 1)", "[0], 1, dtype=torch.int64)"
    )
    assert checked("06.one_hot", followed).passed


# ---------------------------------------- a TensorFlow scatter given one coordinate


def test_one_coordinate_and_one_number_get_a_fix_that_runs() -> None:
    tf = pytest.importorskip("tensorflow")
    loop = (
        "import tensorflow as tf\n"
        "rows = tf.zeros((len(labels), classes), tf.int64)\n"
        "for i, label in enumerate(labels.tolist()):\n"
        "    rows = tf.tensor_scatter_nd_update(rows, {indices}, {updates})\n"
        "return torch.tensor(rows.numpy())"
    )
    one = "tf.constant(1, tf.int64)"
    code = one_hot(loop.format(indices="[i, label]", updates=one))
    result = checked("06.one_hot", code)
    assert "a single number has no shape" not in result.words
    assert "[[i, j]] for one position, not [i, j]" in result.words
    assert "indices [[i, j]] and updates [v]" in result.fix
    followed = one_hot(loop.format(indices="[[i, label]]", updates=f"[{one}]"))
    assert checked("06.one_hot", followed).passed
    # the same error from coordinates of shape (n, depth) and one number: tf.fill
    # fixes it
    said = explain("Updates shape must have rank at least one. Found:[] [Op:X]")
    assert "tf.fill(tf.shape(indices)[:-1], v)" in said.fix
    zeros = tf.zeros((3, 4), tf.int64)
    pairs = tf.constant([[1, 2], [0, 3]])
    ones = tf.fill(tf.shape(pairs)[:-1], tf.constant(1, tf.int64))
    assert tf.tensor_scatter_nd_update(zeros, pairs, ones).numpy().sum() == 2


def test_updates_of_the_wrong_shape_get_a_fix_that_runs() -> None:
    tf = pytest.importorskip("tensorflow")
    zeros = tf.zeros((3, 4), tf.int64)
    # a flat [i, j] with updates [v]; rows as coordinates with one number each
    for indices, updates, fixed, right in (
        ([1, 2], [1], [[1, 2]], tf.constant([1], tf.int64)),
        ([[1], [2]], [1, 2], [[1], [2]], tf.ones((2, 4), tf.int64)),
    ):
        with pytest.raises(tf.errors.InvalidArgumentError) as raised:
            tf.tensor_scatter_nd_update(zeros, indices, tf.constant(updates, tf.int64))
        said = explain(str(raised.value))
        assert "[[i, j]] for one position, not [i, j]" in said.fix
        assert "indices.shape[:-1] + output.shape[depth:]" in said.fix
        depth = len(fixed[0])
        shape = [len(fixed), *zeros.shape[depth:]]
        assert list(right.shape) == shape
        tf.tensor_scatter_nd_update(zeros, fixed, right)  # runs


# ------------------------------------------------ a prediction gets no code to write


def test_a_prediction_gets_no_advice_in_code_terms() -> None:
    # pto-isa#9: flat positions read as dim 1's writes
    result = checked("06.predict_scatter_rows", "answer = [[8, 9, 0], [0, 0, 0]]\n")
    assert result.verdict.misconception == "write-other-dim"
    assert "Write with dim" not in result.words
    assert result.fix == "Each src[i][j] goes to out[index[i][j]][j]."
    # no misconception's fix in a prediction says what to write (a gather's "Use
    # dim=0.", "Remove it with .squeeze(0)")
    code_words = ("Use dim=", "Write with dim", ".squeeze(", "no .T", "Pass the dim")
    for exercise in EXERCISES.values():
        if type(exercise).__name__ != "Predict":
            continue
        search = exercise.search
        for candidate in search.candidates(pairs=False):
            fix = steps(verdict_of(candidate, search, PREDICT_VOICE))[1]
            assert not any(words in fix for words in code_words), (exercise.id, fix)

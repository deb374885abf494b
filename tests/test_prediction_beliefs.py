"""Wrong predictions read with another op's semantics, or along another dim, on the
book's own prediction exercises: the first step names which rule the answer follows,
and the fix says what the op does instead (answers written for these tests, not
collected ones)."""

from __future__ import annotations

import pytest
import torch

from gatherlab.exercises import EXERCISES, Call, Predict


def test_a_gather_predicted_along_the_other_dim_gets_a_traced_fix():
    # torch.gather(x, 0, rows) predicted as if rows counted along dim 1
    result = EXERCISES["01.predict_rows"].check([[11, 11, 10], [20, 20, 21]])
    assert result.verdict.misconception == "other-dim"
    assert "rows count along dim 0 (a row in each column)" in result.message
    assert result.fix == (
        "Each entry of rows sets the coordinate on dim 0; out keeps its own "
        "coordinates on the other dims: out[0, 0] reads x[1, 0] = 20 because "
        "rows[0, 0] = 1."
    )


def _take_along(source: torch.Tensor, index: torch.Tensor, dim: int) -> Predict:
    return Predict(
        "99.wraps",
        "wraps",
        code=lambda: torch.take_along_dim(source, index, dim),
        explain=Call("take_along_dim", source, dim, index),
    )


def test_take_along_dim_predicted_to_clamp_or_read_zero_is_told_it_wraps():
    # the book's exercise: 0 where a position is off the dim, as a TF GPU gather
    result = EXERCISES["04.predict_wrap"].check([[0, 0], [0, 21]])
    assert result.verdict.misconception == "out-of-range-not-wrapped"
    assert result.message == (
        "Not quite: your answer reads 0 at a position outside 0..2, as TensorFlow's "
        "GPU gather does, but torch 2.13's take_along_dim wraps every position "
        "modulo the dim's size, 3."
    )
    assert result.fix == "index[0, 0] = 4 reads position 1 of dim 1 (4 % 3)."
    # another read along dim 0: 5 and -4 clamped into 0..2
    source = torch.tensor([[1, 2], [3, 4], [5, 6]])
    index = torch.tensor([[5, 0], [1, -4]])
    exercise = _take_along(source, index, 0)
    assert exercise.check([[5, 2], [3, 6]]).passed  # 5 % 3 = 2, -4 % 3 = 2
    clamped = exercise.check([[5, 2], [3, 2]])
    assert clamped.verdict.misconception == "out-of-range-not-wrapped"
    assert clamped.message.startswith(
        "Not quite: your answer clamps index[1, 1] = -4 into range, to 0, but"
    )
    assert clamped.fix == "index[1, 1] = -4 reads position 2 of dim 0 (-4 % 3)."


def test_index_select_predicted_sorted_or_without_repeats_keeps_the_index_order():
    # index_select(x, 0, [1, 1, 0]): rows sorted (0, 1, 1), or each row once (1, 0)
    exercise = EXERCISES["03.predict_shared_rows"]
    for answer in (
        [[10, 11, 12], [20, 21, 22], [20, 21, 22]],
        [[20, 21, 22], [10, 11, 12]],
    ):
        result = exercise.check(answer)
        assert result.verdict.misconception == "index-as-set"
        assert "keeps its index's order and repeats" in result.message
    # another index_select, along dim 1: [2, 0, 2] read as columns 0, 2, 2
    source = torch.tensor([[1, 2, 3], [4, 5, 6]])
    positions = torch.tensor([2, 0, 2])
    own = Predict(
        "99.columns",
        "columns",
        code=lambda: torch.index_select(source, 1, positions),
        explain=Call("index_select", source, 1, positions),
    )
    sorted_columns = own.check([[1, 3, 3], [4, 6, 6]])
    assert sorted_columns.verdict.misconception == "index-as-set"
    assert sorted_columns.message.startswith(
        "Not quite: index_select keeps its index's order and repeats: index = "
        "[2, 0, 2] makes 3 reads"
    )


def test_a_densified_gradient_read_at_the_index_is_told_backward_scatters():
    # the weights of the reads taken at rows [2, 0, 2]: a read, not a scatter_add
    result = EXERCISES["05.predict_dense_slices"].check([[3, 3], [1, 1], [3, 3]])
    assert result.verdict.misconception == "gradient-read-back"
    assert result.message.startswith(
        "Not quite: your answer reads the upstream gradient at [2, 0, 2]; backward "
        "adds each output's gradient to the entry of table it read"
    )


def test_tensorflow_read_errors_get_their_rule_not_the_library_words():
    tf = pytest.importorskip("tensorflow")

    def past_the_axis(features, positions):
        return tf.gather(features, positions, axis=1, batch_dims=2)

    said = EXERCISES["02.tf_select_steps"].check(past_the_axis)
    assert said.message == (
        "On the visible example, your function raised InvalidArgumentError. "
        "batch_dims = 2 makes the first 2 axes batch axes, shared by params and "
        "indices, and tf.gather reads an axis after them: axis = 1 is one of them "
        "(batch_dims <= axis)."
    )
    assert "axis=1, batch_dims=1" in said.fix

    def rows_not_broadcast(features, positions):
        rows = tf.range(tf.shape(positions, out_type=positions.dtype)[0])
        return tf.gather_nd(features, tf.stack([rows, positions], axis=-1))

    stacked = EXERCISES["02.tf_gather_nd_pairs"].check(rows_not_broadcast)
    assert stacked.message == (
        "On the visible example, your function raised InvalidArgumentError. "
        "tf.stack joins tensors of one shape along a new axis, and never "
        "broadcasts: part 0 has shape (2,), part 1 (2, 2)."
    )
    assert stacked.fix.startswith("Give every part the shape of the positions first")


def test_gather_nd_with_batch_dims_and_bare_positions_reads_one_coordinate_a_row():
    tf = pytest.importorskip("tensorflow")

    def batch_dims_alone(features, positions):
        return tf.gather_nd(features, positions, batch_dims=1)

    # the same belief in the tf.gather exercise and in the gather_nd one
    for exercise in ("02.tf_select_steps", "02.tf_gather_nd_pairs"):
        said = EXERCISES[exercise].check(batch_dims_alone)
        assert said.verdict.misconception == "nd-coordinates-first-axis"
        assert said.message == (
            "On the visible example, tf.gather_nd reads a coordinate along the "
            "index's last axis, with batch_dims=1 too: positions[b], 2 numbers, is "
            "one coordinate into row b, not 2 positions."
        )
        assert said.fix == (
            "Give each position its own coordinate axis: "
            "tf.gather_nd(features, positions[..., None], batch_dims=1)."
        )


def test_a_read_predicted_with_take_s_flat_positions_is_told_so():
    # gather along dim 1 read as x.flatten()[index]: row 0's values everywhere
    result = EXERCISES["01.predict_columns"].check([[11, 11, 10], [12, 10, 12]])
    assert result.verdict.misconception == "take-along-dim-without-dim"
    assert result.message == (
        "Not quite: the positions in index were read as positions of x flattened, "
        "like take: each position counts over all of x, but gather counts each "
        "position along dim 1 (a column in each row)."
    )
    assert result.fix == (
        "out[1, 0] reads x[1, 2] = 22 because index[1, 0] = 2, not flat position 2 "
        "(12)."
    )
    # index_select along dim 0 read as flat positions: [1, 1, 0] -> 11, 11, 10
    shared = EXERCISES["03.predict_shared_rows"].check([11, 11, 10])
    assert shared.verdict.misconception == "take-along-dim-without-dim"
    assert "but index_select counts each position along dim 0" in shared.message


def test_a_gradient_predicted_as_a_forward_value_or_upstream_in_place():
    exercise = EXERCISES["05.predict_gradient"]  # gather(x, 1, repeats).sum()
    forward = exercise.check([[1.0, 1.0, 3.0], [6.0, 5.0, 6.0]])
    assert forward.verdict.misconception == "gradient-read-back"
    assert forward.message == (
        "Not quite: your answer is the forward output, x read at repeats, not its "
        "gradient; backward adds each output's gradient to the entry of x it read "
        "(a scatter_add)."
    )
    ones = exercise.check([[1, 1, 1], [1, 1, 1]])
    assert ones.verdict.misconception == "gradient-read-back"
    assert ones.message.startswith(
        "Not quite: your answer is the upstream gradient (1 everywhere) left where "
        "the output holds it;"
    )
    assert ones.fix == (
        "x.grad[0, 0] sums the upstream gradients of the outputs that read x[0, 0]: "
        "2, not 1."
    )
    # weighted: the upstream as it is, in x's shape
    weighted = EXERCISES["05.predict_weighted_gradient"].check([[1, 2, 3], [4, 5, 6]])
    assert weighted.verdict.misconception == "gradient-read-back"
    assert "the upstream gradient left where the output holds it" in weighted.message


def test_a_mistake_named_after_a_repaired_slip_is_not_the_learner_s_result():
    # mine: a float index and the wrong dim in 05.label_scores
    result = EXERCISES["05.label_scores"].check(
        lambda lp, labels: torch.gather(lp, 0, labels.float().unsqueeze(1))
    )
    assert result.verdict.template == "repaired"
    assert "your result" not in result.words
    assert "the repaired result is what the same positions give along dim 0" in (
        result.message
    )


def test_a_gather_nd_prediction_of_another_shape_or_value_is_told_its_rule():
    exercise = EXERCISES["05.predict_gather_nd_axis"]
    shape = exercise.check([[0, 2], [1, 1]])
    assert shape.message == (
        "Not quite: tf.gather_nd returns indices.shape[:-1] + "
        "params.shape[indices.shape[-1]:]: your answer has shape (2, 2), not (2,)."
    )
    value = exercise.check([2, 12])
    assert value.message == (
        "out[1] should be 11, but you wrote 12: tf.gather_nd reads each row of "
        "indices as one coordinate, in params' axis order, and returns the value there."
    )


def test_take_read_with_rows_of_the_row_count_is_a_stride_belief():
    # mine: position 7 of the 4 x 5 grid read as row 7 // 4, column 7 % 4 (23)
    result = EXERCISES["03.predict_flat_positions"].check([[41, 10], [44, 23]])
    assert result.verdict.misconception == "flat-stride"
    assert "yours steps to the next row every 4 positions, the number of rows" in (
        result.message
    )
    assert result.fix.startswith(
        "Flat position 13 is row 2, column 3, not row 3, column 1, where rows of 4 "
        "entries put it."
    )


def test_batch_numbers_laid_along_the_columns_are_told_the_pairs_are_wrong():
    tf = pytest.importorskip("tensorflow")

    def xy_grid(features, positions):  # mine: the grid from tf.meshgrid's 'xy' order
        batch, picks = positions.shape
        rows = tf.transpose(tf.meshgrid(tf.range(batch), tf.range(picks))[0])
        rows = tf.cast(tf.transpose(rows), positions.dtype)
        return tf.gather_nd(features, tf.stack([rows, positions], axis=-1))

    # the meshgrid call itself is named where the function makes one; the pairs'
    # belief where the same grid comes another way (a transposed index grid)
    result = EXERCISES["02.tf_gather_nd_pairs"].check(xy_grid)
    assert "indexing='xy'" in result.message

    def transposed_grid(features, positions):  # mine: the 'ij' grid transposed
        batch, picks = positions.shape
        rows = tf.transpose(tf.broadcast_to(tf.range(batch)[:, None], (batch, picks)))
        rows = tf.cast(rows, positions.dtype)
        return tf.gather_nd(features, tf.stack([rows, positions], axis=-1))

    said = EXERCISES["02.tf_gather_nd_pairs"].check(transposed_grid)
    assert said.verdict.misconception == "nd-coordinates-first-axis"
    assert "yours pairs j with it, as tf.meshgrid's default indexing='xy' does" in (
        said.message
    )
    assert "tf.meshgrid(..., indexing='ij')" in said.fix


def test_pairs_whose_row_is_the_pick_number_are_told_the_row_comes_first():
    tf = pytest.importorskip("tensorflow")

    def pick_numbers(features, positions):  # mine: tf.range(picks) as the rows
        shape = tf.shape(positions, out_type=positions.dtype)
        rows = tf.broadcast_to(tf.range(shape[1])[None, :], shape)
        return tf.gather_nd(features, tf.stack([rows, positions], axis=-1))

    result = EXERCISES["02.tf_gather_nd_pairs"].check(pick_numbers)
    assert result.verdict.misconception == "nd-coordinates-first-axis"
    assert "yours pairs j, the pick's number, with it" in result.message


def test_an_indexed_plus_equals_predicted_as_its_right_hand_side_is_a_read():
    # counts[labels] += 1 predicted as counts[labels] + 1, one value per label
    result = EXERCISES["06.predict_repeated_plus_equals"].check([1, 1, 1, 1])
    assert result.verdict.misconception == "read-instead-of-write"
    assert result.message == (
        "Not quite: your answer is the values read at labels plus 1, one per entry "
        "of labels, but += writes them back, so the result keeps the written "
        "tensor's shape, (3,)."
    )
    assert result.fix == "out[labels] += 1 is a write."


@pytest.mark.parametrize("op", ["gather", "index_select"])
def test_a_read_predicted_to_raise_is_told_the_op_s_own_range(op):
    # gather and index_select refuse a negative position in torch 2.13 (indexing and
    # take count it from the end): the range that lets the call run is 0..size-1
    source = torch.arange(8).reshape(2, 4)
    index = torch.tensor([[3, 0], [2, 1]]) if op == "gather" else torch.tensor([3, 0])
    negative = torch.tensor([[-1, 0], [2, 1]]) if op == "gather" else -index
    with pytest.raises(RuntimeError):
        getattr(torch, op)(source, 1, negative)
    assert source[:, -1].tolist() == [3, 7]  # indexing, by contrast, counts back
    exercise = Predict(
        "99.range",
        "range",
        code=lambda: getattr(torch, op)(source, 1, index),
        explain=Call(op, source, 1, index),
    )
    message = exercise.check("an error: out of range").message
    assert "within 0..3 along dim 1" in message
    assert f"{op} refuses a negative one" in message
    assert "-4..3" not in message
    assert "may repeat" not in message  # no position repeats here


@pytest.mark.parametrize(
    ("op", "index", "words"),
    [
        (
            "gather",
            torch.tensor([[2, 0, 2], [1, 1, 1]]),
            "index[0, 0] and index[0, 2] both read x[0, 2]",
        ),
        (
            "index_select",
            torch.tensor([0, 2, 0]),
            "index[0] and index[2] both read x[:, 0]",
        ),
    ],
)
def test_a_read_believed_to_raise_on_repeats_is_told_positions_may_repeat(
    op, index, words
):
    x = torch.tensor([[10, 11, 12], [20, 21, 22]])
    value = getattr(torch, op)(x, 1, index)  # repeats run: each entry is one read
    assert value[0, 0] == value[0, 2]
    exercise = Predict(
        "99.repeats",
        "repeats",
        code=lambda: getattr(torch, op)(x, 1, index),
        explain=Call(op, x, 1, index),
    )
    message = exercise.check("it raises: a position is repeated").message
    assert "a position may repeat, since each entry of index is its own read" in message
    assert words in message

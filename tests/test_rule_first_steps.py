"""A first step that names the rule the learner's value breaks (issue 38, round 3):
each class is checked on answers of my own, on other exercises and ops than the
collected real mistakes, and each op-specific fact the words state is checked against
the library itself."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from gatherlab.exercises import EXERCISES
from gatherlab.exercises.predict import gather_nd_mistakes


def first_step(exercise_id: str, answer) -> tuple[str, str, str | None]:
    result = EXERCISES[exercise_id].check(answer)
    assert not result.passed, str(result)
    verdict = getattr(result, "verdict", None)
    return result.message, result.fix, getattr(verdict, "misconception", None)


@pytest.fixture(scope="module")
def tf():
    return pytest.importorskip("tensorflow")


# ------------------------------------------------- every row read every position


def test_index_select_for_per_row_picks_is_named_in_the_first_step():
    # 01.pick_columns: each row picks its own columns; index_select shares row 0's
    message, fix, named = first_step(
        "01.pick_columns",
        lambda x, columns: torch.stack(
            [torch.index_select(x, 1, columns.reshape(-1)) for _ in [0]]
        )[0],
    )
    assert named == "every-row-reads-every-position", message
    assert "as `x[:, columns]` and index_select do" in message
    assert "gather reads one element per index entry, in the index's shape" in message
    assert "tf.gather" not in message + fix  # a torch exercise gets torch's words


def test_tf_gather_without_batch_dims_names_batch_dims_first(tf):
    message, fix, named = first_step(
        "02.tf_select_steps",
        lambda f, p: tf.gather(f, p, axis=1, batch_dims=0),
    )
    assert named == "every-row-reads-every-position"
    assert message.startswith(
        "On the visible example, without batch_dims=1, tf.gather reads all of"
    )
    assert "torch" not in message + fix and "index_select" not in message + fix


def test_tf_gather_facts_the_words_state(tf):
    params = tf.constant([[[1, 2], [3, 4], [5, 6]], [[7, 8], [9, 10], [11, 12]]])
    positions = tf.constant([[2, 0], [1, 1]])
    alone = tf.gather(params, positions, axis=1)
    assert alone.shape == (2, 2, 2, 2)  # every row reads every row's positions
    paired = tf.gather(params, positions, axis=1, batch_dims=1)
    assert paired.shape == (2, 2, 2)
    assert paired.numpy()[1, 0].tolist() == [9, 10]  # row 1 reads its own position 1


# ------------------------------------------------------------ missing expand


def test_an_unexpanded_index_names_the_no_broadcast_rule_and_the_index_dim():
    # 02.select_steps: features (batch, steps, width), positions (batch, picks);
    # the index is left (batch, picks, 1): dim 2 of the index needs the expand
    def unexpanded(features, positions):
        return torch.gather(features, 1, positions.unsqueeze(-1))

    message, fix, named = first_step("02.select_steps", unexpanded)
    assert named == "missing-expand", message
    assert "gather's result has its index's shape, and the index never broadcasts" in (
        message
    )
    assert "along its dim 2" in fix


def test_gather_never_broadcasts_its_index():
    x = torch.arange(6).reshape(2, 3)
    assert torch.gather(x, 1, torch.tensor([[2], [0]])).shape == (2, 1)
    with pytest.raises(RuntimeError):  # a smaller rank is refused, not broadcast
        torch.gather(x, 1, torch.tensor([2, 0]))


# ---------------------------------------------------------------- flat stride


@pytest.mark.parametrize(
    ("formula", "belief"),
    [
        (lambda r, c, rows, cols: r * c, "multiplies the row by the column"),
        (
            lambda r, c, rows, cols: r * rows + c,
            "multiplies the row by the number of rows",
        ),
        (lambda r, c, rows, cols: c * rows + r, "counts column by column"),
        # (3, 4) swapped is position 23, past the 20 entries: the call raises, and
        # the index itself, not the error, names the swap
        (lambda r, c, rows, cols: c * cols + r, "swaps the pair"),
    ],
)
def test_a_wrong_flat_position_names_the_row_length_rule(formula, belief):
    exercise = EXERCISES["03.fix_pairs_for_take"]
    grid, pairs = exercise.broken.input, exercise.broken.index
    rows, cols = grid.shape
    result = exercise.check(formula(pairs[:, 0], pairs[:, 1], rows, cols))
    assert result.verdict.misconception == "flat-stride", result.message
    assert f"row by row, flat = row * {cols} + column" in result.message
    assert belief in result.message
    if belief == "swaps the pair":
        assert "Row 3, column 4 is at 19, not 23" in result.fix


def test_an_error_alone_names_no_stride():
    # a position off the end that no stride gives stays the error's own words
    exercise = EXERCISES["03.fix_pairs_for_take"]
    result = exercise.check(torch.tensor([6, 25]))
    assert result.verdict.misconception is None
    assert "row by row" not in result.message


def test_take_counts_row_by_row():
    grid = torch.arange(20).reshape(4, 5)
    row, column = 2, 3
    assert torch.take(grid, torch.tensor(row * 5 + column)) == grid[row, column]


# ------------------------------------------------- gather_nd with another op's rules


def test_gather_nd_mistakes_are_derived_and_true(tf):
    params = np.arange(36).reshape(3, 3, 4)
    indices = [[0, 2, 1], [1, 0, 2]]
    found = gather_nd_mistakes(params, indices)
    right = tf.gather_nd(params, indices).numpy()
    for reason, value in found.items():
        assert not np.array_equal(np.asarray(value), right), reason
    reversed_reason = next(r for r in found if "reverse order" in r)
    assert "(axis 0, axis 1, axis 2)" in reversed_reason
    flipped = tf.gather_nd(params, [c[::-1] for c in indices]).numpy()
    assert found[reversed_reason] == flipped.tolist()
    as_rows = next(r for r in found if "as tf.gather does" in r)
    assert found[as_rows] == tf.gather(params, indices).numpy().tolist()


def test_a_reversed_gather_nd_coordinate_is_named():
    exercise = EXERCISES["05.predict_gather_nd_axis"]
    result = exercise.check([20, 11])
    assert "reverse order, as (x, y)" in result.message
    assert "(row, column), so [0, 2] reads 2, not 20" in result.message


# ----------------------------------------------- no misconception: the op's rule


def test_an_unexplained_wrong_value_states_the_ops_formula_first():
    # a shifted answer matches no misconception
    message, fix, named = first_step(
        "01.pick_columns", lambda x, columns: torch.gather(x, 1, columns) + 1
    )
    assert named is None
    assert message.endswith("gather along dim 1 reads out[i, j] = x[i, columns[i, j]].")
    assert "because columns[0, 0] = 2" in fix


def test_the_formula_is_true_for_every_read_op():
    from gatherlab.exercises.call import Call
    from gatherlab.exercises.misconceptions import Case
    from gatherlab.exercises.oprules import read_formula

    x = torch.arange(12).reshape(3, 4)
    calls = [
        Call("gather", x, 1, torch.tensor([[3, 0], [1, 1], [2, 0]]), index_name="idx"),
        Call("gather", x, 0, torch.tensor([[2, 0, 1, 1]]), index_name="idx"),
        Call("take_along_dim", x, 1, torch.tensor([[3], [0], [2]]), index_name="idx"),
        Call("index_select", x, 1, torch.tensor([3, 3, 0]), index_name="idx"),
        Call("take", x, None, torch.tensor([[11, 0], [5, 6]]), index_name="idx"),
    ]
    for call in calls:
        formula = read_formula(Case("", True, {}, None, call))
        assert formula is not None, call.op
        out = call.run()
        left, right = formula.split(" = ")
        for where in np.ndindex(*out.shape):
            names = dict(zip("ijklmn", where, strict=False))
            value = eval(  # the formula's right side, at this output coordinate
                right, {"x": x, "idx": call.index, **names}
            )
            assert int(value) == int(out[where]), (call.op, formula, where)


def test_a_write_exercise_states_the_write_rule():
    # 06.class_loss_sums: index_add_ adds up the losses of one class
    message, _, named = first_step(
        "06.class_loss_sums",
        lambda losses, labels, classes: (
            torch.zeros(classes, dtype=losses.dtype)
            .index_add_(0, labels, losses)
            .cumsum(0)
        ),
    )
    assert named is None
    assert "every value written to one position is added to it" in message
    # a wrong size: the write keeps the shape it writes into
    message, _, _ = first_step(
        "06.class_loss_sums",
        lambda losses, labels, classes: torch.zeros(
            len(losses), dtype=losses.dtype
        ).index_add_(0, labels, losses),
    )
    assert "a write keeps the shape of the tensor it writes into" in message


def test_a_tensorflow_exercise_gets_no_torch_op_in_its_rule(tf):
    message, fix, named = first_step(
        "02.tf_select_steps",
        lambda f, p: tf.gather(f, p, axis=1, batch_dims=1) + 1,
    )
    assert named is None
    assert "each entry is out[i, j, k] = features[i, positions[i, j], k]" in message
    assert "torch" not in message and "gather along dim" not in message

    def first_row_only(features, positions):
        shape = tf.shape(positions, out_type=positions.dtype)
        rows = tf.broadcast_to(tf.range(shape[0])[:, None], shape)
        pairs = tf.stack([rows, positions], axis=-1)
        return tf.gather_nd(features, pairs[:1])

    message, _, _ = first_step("02.tf_gather_nd_pairs", first_row_only)
    assert "tf.gather_nd returns indices.shape[:-1] + params.shape[" in message
    assert "torch" not in message


def test_write_rules_are_true():
    out = torch.zeros(3).index_add_(0, torch.tensor([1, 1]), torch.tensor([2.0, 5.0]))
    assert out[1] == 7  # adds up every value written to one position
    kept = torch.zeros(3).scatter_(0, torch.tensor([2]), torch.tensor([4.0]))
    assert kept.tolist() == [0, 0, 4]  # writes only where an index entry points
    base = torch.tensor([5.0, 0.0])
    reduced = base.scatter_reduce(
        0, torch.tensor([0, 0]), torch.tensor([1.0, 3.0]), "amax"
    )
    assert reduced[0] == 5  # the old value takes part by default (include_self)
    assert base.index_add(0, torch.tensor([0]), torch.tensor([1.0])).shape == base.shape


# ------------------------------------------- a write lost: out of place, a copy


def test_a_dropped_out_of_place_result_names_the_op_without_underscore():
    def dropped(losses, labels, classes):
        sums = torch.zeros(classes, dtype=losses.dtype)
        sums.index_add(0, labels, losses)  # the new tensor is dropped
        return sums

    message, fix, named = first_step("06.class_loss_sums", dropped)
    assert named == "write-lost"
    assert "`index_add` (no `_`) returns a new tensor to keep" in message
    # the fact: the out-of-place op leaves its input as it was
    sums = torch.zeros(2)
    assert sums.index_add(0, torch.tensor([1]), torch.tensor([3.0]))[1] == 3
    assert sums.tolist() == [0, 0]


def test_a_write_into_a_copy_is_named_with_the_copy():
    def into_a_copy(labels, classes):
        rows = torch.zeros(labels.shape[0], classes, dtype=torch.int64)
        rows.clone().scatter_(1, labels.unsqueeze(1), 1)
        return rows

    message, _, named = first_step("06.one_hot", into_a_copy)
    assert named == "write-lost"
    assert "it went into a copy: `x[idx]` with a tensor index" in message
    # no out-of-place op was called: none is blamed
    assert "(no `_`)" not in message


# ------------------------------------------- take_along_dim used as gather


def test_take_along_dim_for_python_style_gather_names_its_wrapping():
    # my own variant: the method form, on the visible example's dim
    message, fix, named = first_step(
        "04.gather_python_style",
        lambda input, dim, index: input.take_along_dim(index, dim),
    )
    assert named == "take-along-dim-as-gather", message
    assert "take_along_dim wraps positions modulo the size" in message
    assert "torch.gather(input, dim, index)" in fix


def test_take_along_dim_wraps_and_broadcasts_where_gather_does_neither():
    x = torch.tensor([[10, 11, 12], [20, 21, 22]])
    index = torch.tensor([[4], [-4]])  # outside -3..2
    assert torch.take_along_dim(x, index, 1).tolist() == [[11], [22]]
    with pytest.raises(RuntimeError):
        torch.gather(x, 1, index)
    assert torch.take_along_dim(x, torch.tensor([[0, 2]]), 1).shape == (2, 2)
    assert torch.gather(x, 1, torch.tensor([[0, 2]])).shape == (1, 2)


# ------------------------------------ take_along_dim without a dim; no gradient


def test_take_along_dim_without_dim_is_named_as_flattened():
    # my own variant: 02.select_steps with an expanded index and no dim
    def no_dim(features, positions):
        index = positions.unsqueeze(-1).expand(-1, -1, features.shape[-1])
        return torch.take_along_dim(features, index)

    message, fix, named = first_step("02.select_steps", no_dim)
    assert named == "take-along-dim-without-dim", message
    assert "take_along_dim without a dim reads features flattened" in message
    x = torch.tensor([[10, 11], [20, 21]])
    assert torch.take_along_dim(x, torch.tensor([[1], [0]])).tolist() == [11, 10]


def test_a_gradient_predicted_all_zero_is_told_gather_passes_gradient():
    exercise = EXERCISES["05.predict_gradient"]
    zeros = np.zeros_like(np.asarray(exercise.solution)).tolist()
    result = exercise.check(zeros)
    assert result.verdict.misconception == "gradient-none"
    assert "gather passes gradient back to the entries it read" in result.message
    x = torch.tensor([[1.0, 2.0]], requires_grad=True)
    torch.gather(x, 1, torch.tensor([[1, 1]])).sum().backward()
    assert x.grad.tolist() == [[0.0, 2.0]]


def test_a_flattened_answer_is_told_the_ops_shape_rule():
    message, _, named = first_step("01.predict_rows", [20, 21, 12, 10, 11, 22])
    assert named == "flattened"
    assert "gather returns the index's shape, (2, 3)" in message


def test_a_write_of_the_wrong_dtype_names_the_buffers_dtype():
    def default_buffer(losses, labels, classes):
        return torch.zeros(classes).index_add_(0, labels, losses.float())

    result = EXERCISES["06.class_loss_sums"].check(default_buffer)
    assert "a write keeps its buffer's dtype" in result.message
    assert "selection keeps the input's dtype" not in result.words
    # the facts: the buffer's dtype is the result's; torch.zeros makes float32
    out = torch.zeros(2).index_add_(0, torch.tensor([1]), torch.tensor([1.0]))
    assert torch.zeros(2).dtype == torch.float32 and out.dtype == torch.float32

"""A read's index laid out along the wrong axis, named by its rule in the FIRST step.

The belief (issue 38, real mistake 444): ``dim`` sets the orientation of the result
("dim=1: a column"), so the positions are laid down a column, or across a row, as
dim seems to ask. The rule it breaks: a gather-family read returns its index's
shape, and dim only says which axis the positions count along. Own variants on other
exercises and ops than the collected one (a row where a column belongs, a column
where a row belongs, a stacked or repeated index, an implement answer), with the torch
facts their words state; and a result transposed, told the rule that places each
value (a prediction of gather and of index_select, an implement answer).
"""

from __future__ import annotations

import torch

from gatherlab.exercises import EXERCISES, check
from gatherlab.exercises.page import fix_names

RULE = "gather's result has its index's shape; dim only says which axis the"


def first_step(exercise_id: str, answer) -> tuple[str, str | None, str]:
    result = check(exercise_id, answer)
    assert not result.passed
    verdict = result.verdict
    return result.message, verdict.misconception if verdict else None, result.fix


def test_shared_columns_laid_down_a_column_are_told_the_index_sets_the_layout():
    names = fix_names(EXERCISES["01.fix_shared_columns"])
    x, wanted = names["x"], names["wanted"]
    for answer in (wanted.view(-1, 1), wanted[:, None]):
        words, named, fix = first_step("01.fix_shared_columns", answer)
        assert named == "unsqueeze-wrong-axis"
        assert RULE in words
        assert "`wanted.unsqueeze(1)` gives, shape (2, 1)" in words
        assert fix == (
            "The positions belong in the index with `.unsqueeze(0)`, then "
            "`.expand(2, -1)`."
        )
    # the facts: a (2, 1) index reads one column per row; the fix reads both in each
    column = torch.gather(x, 1, wanted.view(-1, 1))
    assert column.shape == (2, 1) and column[:, 0].tolist() == [x[0, 2], x[1, 0]]
    fixed = torch.gather(x, 1, wanted.unsqueeze(0).expand(2, -1))
    assert fixed.tolist() == [[x[0, 2], x[0, 0]], [x[1, 2], x[1, 0]]]


def test_a_stacked_column_index_is_named_as_positions_expanded_on_the_wrong_axis():
    names = fix_names(EXERCISES["01.fix_shared_columns"])
    wanted = names["wanted"]
    words, named, _ = first_step(
        "01.fix_shared_columns", torch.stack([wanted, wanted], 1)
    )
    assert named == "unsqueeze-wrong-axis" and RULE in words
    assert "`wanted.unsqueeze(1)` expanded along dim 1 to 2 gives" in words
    assert torch.equal(
        torch.stack([wanted, wanted], 1), wanted.unsqueeze(1).expand(2, 2)
    )


def test_labels_laid_across_a_row_are_told_the_result_has_the_index_shape():
    # a (1, n) row of labels, where one label per row needs a (n, 1) column
    for exercise_id, name in (
        ("01.fix_missing_axis", "labels"),
        ("04.fix_label_axis", "targets"),
    ):
        names = fix_names(EXERCISES[exercise_id])
        positions = names[name]
        words, named, fix = first_step(exercise_id, positions.view(1, -1))
        n = positions.shape[0]
        assert named == "unsqueeze-wrong-axis", words
        assert f"a (1, {n}) index reads all {n} positions from row 0" in words
        assert fix == "The positions belong in the index with `.unsqueeze(1)`."
        source = EXERCISES[exercise_id].broken.input
        read = torch.gather(source, 1, positions.view(1, -1))
        assert read.shape == (1, n)  # the index's shape: row 0 read n times
        assert read[0].tolist() == source[0, positions].tolist()


def test_an_implement_answer_with_a_row_of_labels_is_told_the_rule():
    words, named, _ = first_step(
        "05.label_scores", lambda lp, labels: lp.gather(1, labels[None])
    )
    assert named == "unsqueeze-wrong-axis"
    assert "reads all 2 positions from row 0 only" in words
    assert "`labels.unsqueeze(0)` gives" in words
    lp, labels = torch.rand(3, 4), torch.tensor([3, 0, 2])
    assert lp.gather(1, labels[None]).shape == (1, 3)


def test_take_along_dim_is_told_its_index_shape_broadcast():
    # the words take_along_dim's layout is told in; the fact they state
    from gatherlab.exercises.verdict import messages

    said = messages()["wrong_axis.dim_names_broadcast"]
    assert said.startswith("take_along_dim's result has its index's shape, broadcast")
    x = torch.arange(24).view(2, 3, 4)
    index = torch.tensor([[[2], [0]]])  # (1, 2, 1): broadcast over dims 0 and 2
    out = torch.take_along_dim(x, index, 1)
    assert out.shape == (2, 2, 4)
    assert torch.equal(out, x.gather(1, index.expand(2, 2, 4)))


def test_a_transposed_result_is_told_the_rule_that_places_each_value():
    # a prediction of gather written column by column: the index's shape, (2, 3)
    words, named, _ = first_step("01.predict_columns", [[11, 22], [11, 20], [10, 22]])
    assert named == "transposed-result"
    assert words.startswith(
        "Not quite: gather returns one value per index entry, in the index's shape: "
    )
    x = torch.tensor([[10, 11, 12], [20, 21, 22]])
    assert torch.gather(x, 1, torch.tensor([[1, 1, 0], [2, 0, 2]])).shape == (2, 3)
    # index_select's selected rows stay rows: a square result says where each goes
    words, named, _ = first_step(
        "03.predict_shared_rows", [[20, 20, 10], [21, 21, 11], [22, 22, 12]]
    )
    assert named == "transposed-result"
    assert "index_select along dim 0 reads out[i, j] = x[index[i], j]" in words
    picked = torch.index_select(x, 0, torch.tensor([1, 1, 0]))
    assert all(picked[i, j] == x[[1, 1, 0][i], j] for i in range(3) for j in range(3))
    # an implement answer may read with any op: the rule names none
    words, named, _ = first_step(
        "01.pick_columns", lambda x, columns: x.gather(1, columns).t()
    )
    assert named == "transposed-result"
    assert "each entry is out[i, j] = x[i, columns[i, j]]: your result is" in words
    assert "gather" not in words
    # a gradient transposed: x.grad has x's shape, so the read's rules are not said
    words, named, _ = first_step(
        "05.predict_gradient", [[2.0, 0.0], [0.0, 1.0], [1.0, 2.0]]
    )
    assert named == "transposed-result"
    assert words == (
        "Not quite: your answer is the right result with its last two dims swapped."
    )


def test_a_read_by_hand_along_the_other_dim_is_named_though_it_raises_otherwise():
    # a loop or a subscript reading along the other dim checks none of gather's size
    # rules: where gather along that dim would refuse the index, it runs off the end
    # of an axis (an IndexError); elsewhere it gives the same values
    def swapped(input, dim, index):
        out = torch.empty(index.shape, dtype=input.dtype)
        for i in range(index.shape[0]):
            for j in range(index.shape[1]):
                if dim == 0:
                    out[i, j] = input[i, index[i, j]]
                else:
                    out[i, j] = input[index[i, j], j]
        return out

    result = check("01.gather_loop", swapped)
    assert result.verdict.misconception == "other-dim"
    assert "what the same positions give along dim 1, but" in result.message
    assert "count along dim 0" in result.message
    assert result.fix == (
        "Each entry of index sets the coordinate on dim 0, and out keeps its own "
        "coordinates on the other dims: read along dim 0, not dim 1."
    )

    def down_the_columns(x, columns):
        rows = torch.arange(columns.shape[1]).expand_as(columns)
        return x[columns, rows]

    result = check("01.pick_columns", down_the_columns)
    assert result.verdict.misconception == "other-dim"
    assert "what the same positions give along dim 0, but columns count" in (
        result.message
    )
    assert "read along dim 1, not dim 0" in result.fix
    # the facts: the same values as gather along dim 0 where it runs, and off the
    # end of dim 0 where gather refuses a position past the rows
    x, columns = torch.arange(15).view(5, 3), torch.tensor([[1], [0], [2]])
    assert torch.equal(down_the_columns(x, columns), x.gather(0, columns))
    wide = torch.tensor([[2, 0], [1, 1]])
    small = torch.arange(6).view(2, 3)
    for attempt in (
        lambda: down_the_columns(small, wide),
        lambda: small.gather(0, wide),
    ):
        try:
            attempt()
        except (IndexError, RuntimeError) as error:
            assert "out of bounds" in str(error)
        else:  # pragma: no cover - the fact the test states
            raise AssertionError("a position past the rows must raise")
    # a call of gather with the wrong dim is still told the dim to pass
    result = check("05.label_scores", lambda lp, labels: lp.gather(0, labels[:, None]))
    assert result.verdict.misconception == "other-dim"
    assert result.fix == "Use dim=1."


def test_an_answer_through_numpy_is_told_no_gradient_reaches_the_input():
    # 05.label_scores checks that gradients reach log_probs: a NumPy detour gives the
    # right values, and raises once log_probs requires grad (no checker failure)
    import numpy as np

    def through_numpy(log_probs, labels):
        picked = np.choose(labels.numpy(), log_probs.numpy().T)
        return torch.from_numpy(picked)[:, None]

    result = check("05.label_scores", through_numpy)
    assert result.verdict.template == "implement.detached"
    assert result.message == (
        "Your function returns the right values, but no gradient reaches log_probs "
        "through them."
    )
    assert "with log_probs requiring grad, it raised RuntimeError: " in result.fix
    leaf = torch.zeros(2, 3, requires_grad=True)
    try:
        leaf.numpy()
    except RuntimeError as error:
        assert "requires grad" in str(error)
    else:  # pragma: no cover - the fact the words state
        raise AssertionError("numpy() must refuse a tensor that requires grad")


def test_an_expand_with_minus_one_on_a_new_dim_is_told_where_expand_puts_new_dims():
    # expand lines its sizes up with the tensor's dims from the right: a -1 left of
    # them falls on a new leading dim, which has no size to keep
    def spread(x, dim, positions):
        sizes = [*x.shape[:dim], -1, *x.shape[dim + 1 :]]
        return torch.gather(x, dim, positions.expand(*sizes))

    result = check("03.select_with_gather", spread)
    assert result.verdict.template == "implement.raised_explained"
    assert "expand matches its sizes to the tensor's dims from the right" in (
        result.message
    )
    assert "-1 (keep the size) at dim 1 falls on a new dim" in result.message
    try:
        torch.tensor([0, 2]).expand(3, -1, 2)
    except RuntimeError as error:
        assert "isn't allowed in a leading, non-existing dimension 1" in str(error)
    else:  # pragma: no cover - the fact the words state
        raise AssertionError("a -1 on a new leading dim must raise")
    assert torch.tensor([0, 2]).expand(3, 2, -1).shape == (3, 2, 2)


def test_a_view_of_whole_slices_is_told_view_keeps_the_number_of_elements():
    # index_select returns whole slices: more values than one per index entry
    def selected(input, dim, index):
        return torch.index_select(input, dim, index.flatten()).view(index.shape)

    result = check("01.gather_loop", selected)
    assert result.verdict.template == "implement.raised_explained"
    assert (
        "view and reshape only rearrange a tensor's elements: its 18 values cannot "
        "fill shape [2, 3]."
    ) in result.message
    assert "index_select and x[:, positions] return whole slices" in result.fix
    result = check(
        "05.label_scores",
        lambda lp, labels: lp.index_select(1, labels).view(len(labels), 1),
    )
    assert "view and reshape only rearrange a tensor's elements" in result.message
    x = torch.arange(6).view(2, 3)
    assert torch.index_select(x, 0, torch.tensor([1, 0, 1])).numel() == 9
    assert x[:, torch.tensor([2, 0])].shape == (2, 2)


def test_a_squeeze_that_only_meets_a_case_the_answer_gets_right_is_not_a_mistake():
    # x[:, positions] reads every position in every row, (B, B, F); its squeeze(1)
    # changes only a batch of one, where that read is right: no second mistake (and
    # no "has shape (1, 5), not (1, 5)")
    for answer in (
        lambda features, lengths: features[:, lengths - 1].squeeze(1),
        lambda features, lengths: features.index_select(1, lengths - 1).squeeze(1),
    ):
        result = check("02.last_valid_step", answer)
        assert result.verdict.misconception == "every-row-reads-every-position"
        assert "On hidden case" not in result.message
        assert "your result has shape (2, 2, 2)" in result.message
    features, lengths = torch.arange(5).view(1, 1, 5), torch.tensor([1])
    assert torch.equal(
        features[:, lengths - 1].squeeze(1), features[torch.arange(1), lengths - 1]
    )


def test_a_read_into_a_torch_zeros_buffer_is_told_its_float32_default():
    # a loop's output made by torch.zeros without a dtype: float32, whatever the
    # input's dtype, which a read keeps
    def loop(input, dim, index):
        out = torch.zeros(*index.shape)
        for i in range(index.shape[0]):
            for j in range(index.shape[1]):
                p = index[i, j]
                out[i, j] = input[p, j] if dim % 2 == 0 else input[i, p]
        return out

    def python_style(input, dim, index):
        size = input.shape[dim]
        index = torch.where(index < 0, index + size, index)
        out = torch.zeros(index.shape)
        for i in range(index.shape[0]):
            for j in range(index.shape[1]):
                p = index[i, j]
                out[i, j] = input[p, j] if dim % 2 == 0 else input[i, p]
        return out

    for exercise_id, answer in (
        ("01.gather_loop", loop),
        ("04.gather_python_style", python_style),
    ):
        result = check(exercise_id, answer)
        assert result.verdict.template == "differ.dtype_read_zeros", result.words
        assert result.message.endswith(
            "has dtype float32, not int64: torch.zeros makes float32 unless given a "
            "dtype, and a read keeps its input's dtype."
        )
    assert torch.zeros(2, 3).dtype == torch.float32
    x = torch.arange(6).view(2, 3)
    assert x.gather(1, torch.tensor([[0], [2]])).dtype == x.dtype

    # a buffer of another dtype than the input's, given one, hears no torch.zeros
    def given(input, dim, index):
        return loop(input, dim, index).double()

    result = check("01.gather_loop", given)
    assert result.verdict.template != "differ.dtype_read_zeros"
    assert "torch.zeros" not in result.message


def test_an_int_mask_viewed_to_the_intended_shape_is_told_it_is_no_mask():
    # a one-hot of the labels (int64) used as a mask, then viewed as (-1, 1) or
    # (-1, features) to look like the intended result: its 0s and 1s are positions
    one_hot = torch.nn.functional.one_hot
    result = check(
        "05.label_scores",
        lambda lp, labels: lp[one_hot(labels, lp.shape[1])].reshape(-1, 1),
    )
    assert result.verdict.misconception == "int-mask-as-bool"
    assert "an int 0/1 tensor is no mask (a bool one is)" in result.message
    result = check(
        "02.last_valid_step",
        lambda f, lengths: f[:, one_hot(lengths - 1, f.shape[1])].reshape(
            -1, f.shape[2]
        ),
    )
    assert result.verdict.misconception == "int-mask-as-bool"
    assert "select slices 0 and 1 of dim 1" in result.message
    lp, labels = torch.rand(2, 3), torch.tensor([1, 0])
    assert lp[one_hot(labels, 3)].shape == (2, 3, 3)  # rows 0 and 1, per entry
    assert torch.equal(
        lp[one_hot(labels, 3).bool()], lp.gather(1, labels[:, None])[:, 0]
    )


def _take(source: torch.Tensor, index: torch.Tensor):
    from gatherlab.exercises import Call, Predict

    return Predict(
        "99.take",
        "take",
        code=lambda: torch.take(source, index),
        explain=Call("take", source, None, index),
    )


def test_take_predicted_to_clip_or_zero_a_negative_position_is_told_it_counts_back():
    # the book's exercise: -1 clipped to position 0 (numpy.take's mode='clip')
    result = EXERCISES["03.predict_flat_positions"].check([[33, 10], [10, 22]])
    assert result.verdict.misconception == "out-of-range-not-wrapped"
    assert result.message == (
        "Not quite: your answer clamps index[1, 0] = -1 into range, to 0, but "
        "torch.take counts a negative position from the end of grid flattened (20 "
        "entries), as Python does."
    )
    assert result.fix == "index[1, 0] = -1 reads flat position 19 (-1 + 20), 44."
    # own variant: a 2 x 3 source, -2 read as 0 (a TensorFlow GPU's zero)
    source = torch.tensor([[5, 6, 7], [8, 9, 4]])
    exercise = _take(source, torch.tensor([0, -2, 3]))
    assert exercise.check([5, 9, 8]).passed
    zero = exercise.check([5, 0, 8])
    assert zero.verdict.misconception == "out-of-range-not-wrapped"
    assert "reads 0 at a position outside 0..5" in zero.message
    assert zero.fix == "index[1] = -2 reads flat position 4 (-2 + 6), 9."
    assert torch.take(source, torch.tensor([-2])).item() == source.flatten()[4]
    # a position past the end raises in take: no belief about wrapping is told
    try:
        torch.take(source, torch.tensor([6]))
    except (IndexError, RuntimeError):
        pass
    else:  # pragma: no cover - the fact the words rest on
        raise AssertionError("take must refuse a position past the end")


def test_a_one_dim_index_left_as_it_was_is_told_a_transpose_keeps_it_one_dim():
    # targets.T, labels.t(), wanted.view(-1): still the notebook's 1-D tensor
    for exercise_id, name, make in (
        ("04.fix_label_axis", "targets", lambda t: t.mT if t.ndim > 1 else t.t()),
        ("01.fix_missing_axis", "labels", lambda t: t.t()),
        ("01.fix_shared_columns", "wanted", lambda t: t.view(-1)),
    ):
        positions = fix_names(EXERCISES[exercise_id])[name]
        result = check(exercise_id, make(positions))
        assert result.verdict.template == "fix.still_one_dim"
        assert result.message.startswith(
            f"Still broken: your index is {name} as it was, shape "
            f"({positions.shape[0]},) (.T and .t() leave a 1-D tensor as it is): "
            "index has 1 dims but input has 2"
        )
        assert result.fix.startswith("To fix it, add the missing axis with unsqueeze")
    vector = torch.tensor([3, 0, 2])
    assert vector.t().shape == (3,) and torch.equal(vector.t(), vector)
    # another 1-D index (not one of the cell's tensors) hears no transpose
    result = check("04.fix_label_axis", torch.tensor([2, 0, 3]))
    assert result.verdict.template == "fix.still_broken_rule_hint"


def test_probabilities_read_where_log_probabilities_are_due_are_told_so():
    # exp before or after the read, or nll_loss given probabilities: e ** each value
    nll_loss = torch.nn.functional.nll_loss
    for answer in (
        lambda lp, labels: lp.exp().gather(1, labels.unsqueeze(1)),
        lambda lp, labels: torch.exp(lp.gather(1, labels.unsqueeze(1))),
    ):
        result = check("05.label_scores", answer)
        assert result.verdict.template == "implement.exp_values", result.words
        assert result.message == (
            "On the visible example, out[0, 0] is 0.6703 = exp(-0.4): your function "
            "returned probabilities where the task reads log-probabilities."
        )
    # nll_loss given probabilities: its own rule first (tests/test_loss_beliefs.py)
    result = check(
        "05.label_scores",
        lambda lp, labels: -nll_loss(lp.exp(), labels, reduction="none")[:, None],
    )
    assert result.verdict.template == "implement.loss_rule", result.words
    lp, labels = torch.tensor([[-0.4, -1.1]]), torch.tensor([0])
    assert torch.allclose(-nll_loss(lp, labels, reduction="none"), lp[:, 0])
    assert abs(torch.tensor(-0.4).exp().item() - 0.6703) < 1e-4
    # a softmax (normalised) is no exp of the values: the rule of the read instead
    result = check("05.label_scores", lambda lp, y: lp.softmax(1).gather(1, y[:, None]))
    assert result.verdict.template != "implement.exp_values"


def test_an_index_of_one_row_is_told_it_reads_every_position_from_row_0():
    # a vector of per-row positions unsqueezed at 0 (the DQN's action.unsqueeze(0)):
    # a (1, n) index reads all n positions from row 0, on every exercise and spelling
    labels = fix_names(EXERCISES["01.fix_missing_axis"])["labels"]
    targets = fix_names(EXERCISES["04.fix_label_axis"])["targets"]
    for exercise_id, answer in (
        ("01.fix_missing_axis", labels.unsqueeze(0)),
        ("01.fix_missing_axis", labels.reshape(1, -1)),
        ("04.fix_label_axis", targets[None]),
        ("05.label_scores", lambda lp, labels: lp.gather(1, labels.unsqueeze(0))),
    ):
        words, named, _ = first_step(exercise_id, answer)
        assert named == "unsqueeze-wrong-axis", words
        n = 2 if exercise_id == "05.label_scores" else 3
        assert (
            f"a (1, {n}) index reads all {n} positions from row 0 only; one per row "
            f"needs ({n}, 1)"
        ) in words, words
        assert "gives, shape" not in words  # said once
    # the facts: the (1, n) index reads row 0 at every position; (n, 1) one per row
    x = torch.arange(12).reshape(3, 4)
    wanted = torch.tensor([2, 0, 3])
    assert torch.gather(x, 1, wanted.unsqueeze(0)).tolist() == [x[0, wanted].tolist()]
    assert torch.gather(x, 1, wanted.unsqueeze(1)).flatten().tolist() == [
        x[0, 2],
        x[1, 0],
        x[2, 3],
    ]
    # a dim-0 gather told of its column the same way: (n, 1) reads column 0 only
    assert torch.gather(x, 0, wanted[:2].unsqueeze(1)).flatten().tolist() == [
        x[2, 0],
        x[0, 0],
    ]


def test_a_column_squeezed_to_a_vector_is_told_it_broadcasts_into_a_square():
    # torchrl#1243: a per-sample (n,) log-probability against (n, 1) advantages; any
    # spelling that drops the column (squeeze, [:, 0], flatten, advanced indexing)
    for answer in (
        lambda lp, labels: lp.gather(1, labels.unsqueeze(1)).squeeze(1),
        lambda lp, labels: lp.gather(1, labels[:, None])[:, 0],
        lambda lp, labels: lp.gather(1, labels.view(-1, 1)).flatten(),
        lambda lp, labels: lp[torch.arange(len(labels)), labels],
    ):
        words, named, fix = first_step("05.label_scores", answer)
        assert named == "dropped-axis", words
        assert words.endswith(
            "not (2, 1): the right values, but (2,) broadcasts against (2, 1) "
            "into (2, 2)."
        ), words
        assert fix == "Keep that axis: `.unsqueeze(1)` puts it back."
    # the fact: a vector meets a column as a square
    assert (torch.zeros(2) * torch.zeros(2, 1)).shape == (2, 2)
    # a dim dropped elsewhere (a row of a (2, 2) result) says no broadcast
    words, named, _ = first_step(
        "01.pick_columns", lambda x, columns: x.gather(1, columns)[0]
    )
    assert "broadcasts" not in words

"""Beliefs about a read's range and its index's sizes, named in the first step (issue
38, round 7): a position out of range believed clamped or read as 0 (other
libraries' take and gather), a loop over the input's sizes where the index's are
meant, and a 0/1 index read as a mask. Each class on answers of my own, on other
exercises and ops than the collected ones, and each fact the words state on torch."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from gatherlab.exercises import EXERCISES, Call, Implement, Predict, cases
from gatherlab.exercises.raises import raises_feedback
from gatherlab.exercises.verdict import render


def first_step(exercise_id: str, answer) -> tuple[str, str | None]:
    result = EXERCISES[exercise_id].check(answer)
    assert not result.passed, str(result)
    return result.message, result.verdict.misconception


# ------------------------------------------------ out of range: clamped or 0


def test_torch_reads_raise_for_a_position_out_of_range_and_never_clamp():
    # the facts the words state, on the CPU: gather, index_select, take and
    # take_along_dim without a dim raise; with a dim, take_along_dim wraps
    x = torch.arange(6).reshape(2, 3)
    for call in (
        lambda: torch.gather(x, 1, torch.tensor([[3]])),
        lambda: torch.index_select(x, 1, torch.tensor([3])),
        lambda: torch.take(x, torch.tensor([6])),
        lambda: torch.take(x, torch.tensor([-7])),
        lambda: torch.take_along_dim(x, torch.tensor([6])),
    ):
        with pytest.raises((RuntimeError, IndexError)):
            call()
    assert torch.take_along_dim(x, torch.tensor([[3]]), 1).tolist() == [[0], [3]]


def _clamp_numpy_style(input, dim, index):
    # numpy's take(mode='clip') after the negatives are moved: no error ever
    size = input.size(dim)
    moved = torch.where(index < 0, index + size, index)
    return torch.gather(input, dim, moved.clamp(min=0, max=size - 1))


def _zero_filled(input, dim, index):
    size = input.size(dim)
    moved = torch.where(index < 0, index + size, index)
    bad = (moved < 0) | (moved >= size)
    read = torch.gather(input, dim, moved.clamp(0, size - 1))
    return read.masked_fill(bad, 0)


def test_a_python_style_gather_that_clamps_or_fills_is_told_gather_never_does():
    message, named = first_step("04.gather_python_style", _clamp_numpy_style)
    assert named == "out-of-range-clamped", message
    assert "into range, reading position" in message
    assert "gather never clamps a position or reads 0 for it" in message
    message, named = first_step("04.gather_python_style", _zero_filled)
    assert named == "out-of-range-clamped", message
    assert "your result reads 0 for index" in message
    result = EXERCISES["04.gather_python_style"].check(_zero_filled)
    assert "move only the positions -" in result.fix


def _rows_case(rng: np.random.Generator) -> dict:
    x = cases.values(rng, cases.shape(rng, 2))
    return {"x": x, "rows": cases.positions(rng, x.shape[0], (3,))}


def _bad_rows_case(rng: np.random.Generator) -> dict:
    case = _rows_case(rng)
    case["rows"][1] = case["x"].shape[0] + int(rng.integers(0, 2))
    return case


def _select_rows(x: torch.Tensor, rows: torch.Tensor) -> torch.Tensor:
    """Rows by position; one out of range raises."""
    return torch.index_select(x, 0, rows)


ROWS = Implement(
    "99.rows",
    "rows",
    solution=_select_rows,
    example={"x": torch.tensor([[1, 2], [3, 4]]), "rows": torch.tensor([1, 0, 1])},
    generate=_rows_case,
    call=Call("index_select", "x", 0, "rows"),
    generate_invalid=_bad_rows_case,
)


def test_an_index_select_answer_that_clamps_or_fills_is_named_on_its_own_op():
    clamped = ROWS.check(
        lambda x, rows: torch.index_select(x, 0, rows.clamp(max=x.shape[0] - 1))
    )
    assert clamped.verdict.misconception == "out-of-range-clamped", clamped.words
    assert "index_select never clamps a position or reads 0 for it: one outside " in (
        clamped.message
    )
    assert "let it raise" in clamped.fix

    def filled(x, rows):
        bad = rows >= x.shape[0]
        read = torch.index_select(x, 0, rows.clamp(max=x.shape[0] - 1))
        return read * (~bad).unsqueeze(1)

    zero = ROWS.check(filled)
    assert zero.verdict.misconception == "out-of-range-clamped", zero.words
    assert "reads 0 for rows[1]" in zero.message


def test_which_calls_raise_says_the_read_checks_every_position_never_clamping():
    # the collected answer: D's column 3 on a size-3 dim taken as clamped
    message, _ = first_step("01.which_calls_raise", ["B"])
    assert message.startswith(
        "D raises: gather checks every position and never clamps one into range"
    )
    # my own calls: index_select and take past the end, take_along_dim flattened
    x = torch.arange(6).reshape(2, 3)
    calls = {
        "A": Call("index_select", x, 1, torch.tensor([0, 3])),
        "B": Call("take", x, None, torch.tensor([6])),
        "C": Call("take_along_dim", x, None, torch.tensor([9])),
        "D": Call("gather", x, 1, torch.tensor([[-1]])),
    }
    for label, op in (("A", "index_select"), ("B", "take"), ("C", "take_along_dim")):
        others = [other for other in "ABCD" if other != label]
        words = render(raises_feedback(calls, "ABCD", others).verdict)
        assert words.startswith(
            f"{label} raises: {op} checks every position and never clamps one"
        ), words
    # a negative position: the rule is that gather does not count from the end
    words = render(raises_feedback(calls, "ABCD", ["A", "B", "C"]).verdict)
    assert "never clamps" not in words and "does not wrap" in words
    # several missed: each raising call's fact says it
    words = render(raises_feedback(calls, "ABCD", ["D"]).verdict)
    assert "positions 0..2 only, never clamped (A)" in words
    # take_along_dim with a dim wraps: it is not said to raise
    wraps = Call("take_along_dim", x, 1, torch.tensor([[3]]))
    assert not wraps.problems()


# ------------------------------------------------ a loop over the input's sizes


def _loop_input_everywhere(input, dim, index):
    # every dim of the loop from the input, the index's size nowhere
    rows, cols = input.shape
    out = torch.zeros(rows, cols, dtype=input.dtype)
    for i in range(rows):
        for j in range(cols):
            if dim == 0:
                out[i, j] = input[index[i, j], j]
            else:
                out[i, j] = input[i, index[i, j]]
    return out


def test_a_gather_loop_over_the_input_sizes_is_told_the_result_has_the_index_shape():
    message, named = first_step("01.gather_loop", _loop_input_everywhere)
    assert named == "loop-over-input-sizes", message
    assert "your loop runs over input's sizes" in message
    assert "gather's result has the index's shape" in message
    assert "swaps" not in message and "pairs" not in message


def test_a_pick_columns_loop_over_the_width_is_named_on_another_exercise():
    def loop(x, columns):
        out = torch.zeros(x.shape, dtype=x.dtype)
        for r in range(x.shape[0]):
            for k in range(x.shape[1]):
                out[r, k] = x[r, columns[r, k]]
        return out

    message, named = first_step("01.pick_columns", loop)
    assert named == "loop-over-input-sizes", message
    assert "gather's result has the index's shape" in message


def test_a_loop_over_the_index_sizes_is_not_told_so():
    def right(input, dim, index):
        out = torch.zeros(index.shape, dtype=input.dtype)
        for i in range(index.shape[0]):
            for j in range(index.shape[1]):
                out[i, j] = input[index[i, j], j] if dim == 0 else input[i, index[i, j]]
        return out

    assert EXERCISES["01.gather_loop"].check(right).passed


# ------------------------------------------------ a 0/1 index read as a mask


def test_a_0_1_index_predicted_as_a_mask_is_told_it_holds_positions():
    # the collected answer: rows marked 1 kept, also a sorted set: both said
    message, named = first_step("03.predict_shared_rows", [[10, 11, 12], [20, 21, 22]])
    assert named == "index-as-mask+index-as-set", message
    assert "index_select reads the positions its index holds, not a mask" in message
    assert "reads row 1, row 1, then row 0" in message
    # my own: a gather along dim 0 whose 0/1 index has the input's shape, read as
    # a mask (the entries marked 1) or as a multiplier (0 where the index is 0)
    for answer in ([10, 11, 22], [[10, 11, 0], [0, 0, 22]]):
        message, named = first_step("01.predict_rows", answer)
        assert named == "index-as-mask", message
        assert message.startswith(
            "Not quite: gather reads the positions its index holds, not a mask"
        )


def test_a_take_with_a_0_1_index_predicted_as_a_mask_is_named():
    x = torch.tensor([[5, 6, 7], [8, 9, 4]])
    index = torch.tensor([0, 1, 1, 0])
    exercise = Predict(
        "99.flat",
        "flat",
        code=lambda: torch.take(x, index),
        explain=Call("take", x, None, index),
    )
    assert exercise.check([5, 6, 6, 5]).passed  # positions 0, 1, 1, 0
    result = exercise.check([6, 7])  # flat entries 1 and 2, marked 1
    assert result.verdict.misconception == "index-as-mask", result.words
    assert "reads flat position 0 or 1 for each entry" in result.message
    # an index with a 2 in it is no mask
    two = torch.tensor([2, 1, 0])
    other = Predict(
        "99.flat2",
        "flat2",
        code=lambda: torch.take(x, two),
        explain=Call("take", x, None, two),
    )
    assert other.check([6]).verdict.misconception != "index-as-mask"


def test_a_flat_loop_split_with_the_input_width_is_told_the_index_shape():
    # my own: one flat loop on 01.pick_columns, coordinates from x's width
    def flat(x, columns):
        out = torch.empty(columns.numel(), dtype=x.dtype)
        width = x.shape[1]
        for k, position in enumerate(columns.reshape(-1).tolist()):
            out[k] = x[k // width, position]
        return out.reshape(columns.shape)

    message, named = first_step("01.pick_columns", flat)
    assert named == "loop-over-input-sizes", message
    assert "your loop splits each flat position into coordinates with x's sizes" in (
        message
    )


# ------------------------------------------------ dims counted from 1


def test_a_dim_one_past_the_last_is_told_dims_count_from_0():
    # the fact: a 2-D input has dims -2..1; dim 2 raises
    with pytest.raises(IndexError):
        torch.gather(torch.zeros(2, 3), 2, torch.zeros(2, 1, dtype=torch.long))
    message, _ = first_step(
        "01.pick_columns", lambda x, columns: torch.gather(x, 2, columns)
    )
    assert "dim 2 does not exist on a 2-D input: dims count from 0, so its last" in (
        message
    )
    assert "counting from 1, as R's torch does, names one past the last" in message
    # index_select on my own 3-D read: dim 3 is one past the last, dim 5 is not
    x = torch.zeros(2, 3, 4)
    assert (
        "dims count from 0, so its last is dim 2"
        in Call("index_select", x, 3, torch.tensor([0])).problems()[0].message
    )
    far = Call("index_select", x, 5, torch.tensor([0])).problems()[0]
    assert far.message.endswith("valid dims are -3..2") and "R's" not in far.hint


def test_a_fix_whose_index_is_the_right_one_shifted_and_wrapped_hears_no_wrap():
    # a fix's call is gather, which never wraps: take_along_dim is not named
    result = EXERCISES["01.fix_shared_columns"].check(torch.tensor([[0, 1]] * 2))
    assert "take_along_dim" not in result.words, result.words


# ------------------------------------------------ what a position reads


def test_index_select_read_as_single_elements_is_told_it_keeps_whole_slices():
    # the flat reading of index_select's positions names the slice it keeps
    message, _ = first_step("03.predict_shared_rows", [11, 11, 10])
    assert "index_select counts each position along dim 0 and keeps that whole row" in (
        message
    )
    # my own: along dim 1 of a 2-D input, the columns
    x = torch.tensor([[1, 2, 3], [4, 5, 6]])
    index = torch.tensor([2, 0])
    exercise = Predict(
        "99.cols",
        "cols",
        code=lambda: torch.index_select(x, 1, index),
        explain=Call("index_select", x, 1, index),
    )
    assert exercise.check([[3, 1], [6, 4]]).passed
    result = exercise.check([3, 1])  # flat positions 2 and 0, one value each
    assert "keeps that whole column" in result.message, result.words


def _padded_case(rng: np.random.Generator) -> dict:
    batch, time = (int(n) for n in rng.integers(2, 5, size=2))
    lengths = torch.as_tensor(rng.integers(1, time + 1, size=batch))
    tokens = torch.as_tensor(rng.integers(1, 50, size=(batch, time)))
    tokens[torch.arange(time)[None, :] >= lengths[:, None]] = 0
    return {"tokens": tokens, "lengths": lengths}


def _last_tokens(tokens: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    """Each sequence's last real token, as a column."""
    return tokens.gather(1, (lengths - 1).unsqueeze(1))


LAST = Implement(
    "99.last",
    "last",
    solution=_last_tokens,
    example={
        "tokens": torch.tensor([[5, 7, 0], [3, 4, 9]]),
        "lengths": torch.tensor([2, 3]),
    },
    generate=_padded_case,
    call=Call("gather", "tokens", 1, lambda tokens, lengths: (lengths - 1)[:, None]),
)


def test_the_last_step_read_for_every_sequence_is_told_it_is_padding_there():
    result = LAST.check(lambda tokens, lengths: tokens[:, -1:])
    assert result.verdict.misconception == "last-position", result.words
    assert result.message.endswith(": padding in shorter sequences.")
    # an input with no padding after the positions: no padding said
    message, named = first_step(
        "01.pick_columns", lambda x, columns: x[:, -1:].expand_as(columns)
    )
    assert named == "last-position" and "padding" not in message


def test_the_first_position_read_for_every_entry_is_named_without_padding_words():
    # a sequence summed up by its first step (a [CLS]-style read): position 0
    message, named = first_step("02.last_valid_step", lambda f, lengths: f[:, 0])
    assert named == "last-position", message
    assert "reads position 0, the first along dim 1, for every entry" in message
    result = LAST.check(lambda tokens, lengths: tokens[:, :1])
    assert "padding" not in result.words, result.words
    # a gather along dim 0 of my own: the last row for every entry, no padding
    message, named = first_step("01.predict_columns", [[12, 12, 12], [22, 22, 22]])
    assert named == "last-position" and "padding" not in message


def test_an_index_of_own_places_is_told_nothing_is_reordered():
    # a beam's states kept row for row (arange, expanded): nothing reordered
    kept = torch.arange(6).reshape(-1, 1).expand(-1, 4)
    message, named = first_step("02.fix_beam_rows", kept)
    assert named == "last-position", message
    assert message.endswith(
        "keeps each slice of states in its own place along dim 0 (positions 0, 1, "
        "2, ...), reordering nothing."
    )
    # my own: x itself predicted for a gather along dim 0
    message, named = first_step("01.predict_rows", [[10, 11, 12], [20, 21, 22]])
    assert named == "last-position", message
    assert "keeps each slice of x in its own place along dim 0" in message
    # a write's fix keeps its own words (sorted values as the order)
    named = EXERCISES["06.fix_write_as_read"].check(torch.arange(4)).verdict
    assert named.misconception == "sorted-values-as-order"

"""Feedback that names the cause: each test answers an exercise the way a real mistake
does (taken from bug reports and forum threads) and asserts that the message names the
cause and the next step; and the checker's own bugs are never the learner's fault."""

from __future__ import annotations

import dataclasses
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
import torch

import gatherlab as gl
from gatherlab.errors import DEBUG_ENV
from gatherlab.exercises import EXERCISES, Call, Implement, PredictRaises, cases, check

DIAGNOSE = sys.modules["gatherlab.diagnose"]  # gl.diagnose is the function
NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def message(exercise_id: str, answer) -> str:
    result = EXERCISES[exercise_id].check(answer)
    assert not result.passed, str(result)
    assert result.status == "not yet"
    return result.words


# ---------------------------------------------------------------- truncation, / and //


def test_truncating_soft_positions_is_caught_and_named():
    soft = EXERCISES["05.fix_float_positions"].broken.index
    assert 0.9999 < float(soft[0, 0]) < 1  # a real float computation, not exactly 1
    text = message("05.fix_float_positions", soft.long())
    assert "0.9999999 became 0, although it stands for 1" in text
    assert "round first, `.round().long()`" in text
    unchanged = message("05.fix_float_positions", soft)
    assert "just off whole numbers" in unchanged and ".round().long()" in unchanged
    assert EXERCISES["05.fix_float_positions"].check(soft.round().long()).passed


def test_floats_cut_by_floor_division_are_not_blamed_on_long():
    # `//` already drops the fraction (toward minus infinity), so the .long() after
    # it is no cause, and a float index of whole numbers from `//` did not come from
    # `/`: the message names both cuts, not `.long()` alone and not `/`
    soft = EXERCISES["05.fix_float_positions"].broken.index
    for answer in ((soft // 1).long(), soft // 1, soft.floor(), soft.int()):
        text = message("05.fix_float_positions", answer)
        assert "0.9999999 became 0, although it stands for 1" in text, text
        assert "rounding down (`//`, `.floor()`)" in text, text
        assert "`.long()` truncates toward zero, so" not in text
        assert "where `//` was meant" not in text


def test_whole_floats_from_floor_ceil_round_or_floor_division_keep_the_float_dtype():
    # the learner believed `//` or floor() gives integers: the first thing said is
    # that they keep the float dtype gather refuses, then the truncation if any
    exercise = EXERCISES["05.fix_float_positions"]
    soft = exercise.broken.index
    right = {
        "(soft + 0.5) // 1": (soft + 0.5) // 1,
        "round": soft.round(),
        "ceil": soft.ceil(),
        "floor_divide float64": torch.floor_divide(soft.double() + 0.5, 1),
    }
    for name, answer in right.items():
        assert answer.is_floating_point(), name  # the fact the message states
        with pytest.raises(RuntimeError):
            torch.gather(exercise.broken.input, 1, answer)  # refused, as it says
        text = message("05.fix_float_positions", answer)
        dtype = str(answer.dtype).removeprefix("torch.")
        start = f"Still broken: your index holds whole numbers but is {dtype}"
        assert text.startswith(start), name
        assert "on a float tensor keep its float dtype" in text, name
        assert "add `.long()` at the end" in text, name
        assert exercise.check(answer.long()).passed, name  # the fix, followed
    for floored in (soft.floor(), soft // 1, torch.floor(soft.double())):
        text = message("05.fix_float_positions", floored)
        first = text.split("\n")[0]
        assert "on a float tensor keep its float dtype" in first
        assert "0.9999999 became 0, although it stands for 1" in text
        assert "`.round().long()`" in text
        assert not exercise.check(floored.long()).passed  # .long() alone is not it
    assert exercise.check(soft.round().long()).passed


def test_the_cut_is_named_as_the_values_show_it():
    from gatherlab.exercises import strategies
    from gatherlab.exercises.verdict import render

    exercise = EXERCISES["05.fix_float_positions"]
    soft = torch.tensor([[-0.9999999], [2.9999998]])  # stands for -1 and 3
    fix = dataclasses.replace(exercise, broken=exercise.broken.with_part("index", soft))
    fix.__dict__["reference_answer"] = soft.round().long()
    floored = strategies.float_positions(torch.tensor([[-1], [2]]), fix)
    truncated = strategies.float_positions(torch.tensor([[0], [2]]), fix)
    assert floored is not None and floored.fields["cut"].template == "cut.floor"
    assert truncated is not None and truncated.fields["cut"].template == "cut.trunc"
    assert "became 2, although it stands for 3" in render(floored)


def test_a_beam_index_built_with_true_division_is_told_to_use_floor_division():
    exercise = EXERCISES["02.fix_beam_rows"]
    flat_index = exercise.broken.index
    with_fractions = flat_index + (torch.arange(6) / 3)[:, None]
    text = message("02.fix_beam_rows", with_fractions)
    assert "`//`" in text and "fractions" in text
    assert "convert with index.long()" not in text
    # `/` then `* beam` gives whole floats; `.long()` would keep the wrong rows.
    whole = flat_index + (torch.arange(6) / 3)[:, None] * 3
    text = message("02.fix_beam_rows", whole)
    assert "`.long()` would not help" in text and "`//`" in text
    assert "convert with index.long()" not in text
    assert exercise.check(flat_index + (torch.arange(6) // 3 * 3)[:, None]).passed


def test_the_floor_division_advice_names_its_operands():
    """`//` keeps int64 positions only for integers: on this exercise's floats it gives
    floats rounded down, which the checker rejects, so the advice says to round them."""
    times = torch.tensor([[0.4], [0.3]])
    floored = (times - 0.3) // 0.1
    assert floored.dtype == torch.float32 and floored.tolist() == [[0.0], [0.0]]
    assert not check("05.fix_float_positions", floored).passed
    text = message("05.fix_float_positions", (times - 0.3) / 0.1 * 0.5)
    assert "fractions" in text
    assert "Divide integer positions with `//`" in text
    assert "round float ones with `.round().long()`" in text


def test_the_probabilities_as_an_index_are_named_and_long_is_not_advised():
    predictions = EXERCISES["01.fix_missing_axis"].broken.input
    text = message("01.fix_missing_axis", predictions)
    assert "not positions" in text and "build the positions from labels" in text
    assert "convert with index.long()" not in text
    converted = message("01.fix_missing_axis", predictions.long())
    assert "converted with `.long()`" in converted and "not values" in converted


# ---------------------------------------------------------------- raw errors, a cause


def test_a_missing_axis_error_names_unsqueeze_and_expand():
    text = message(
        "02.select_steps",
        lambda features, positions: torch.gather(features, 1, positions),
    )
    # the error's type and diagnose's rule for the call that raised, with its fix (the
    # page words it the same: torch's own text is left out)
    assert "raised RuntimeError: its call torch.gather breaks a rule" in text
    assert "Index tensor must have the same number of dimensions" not in text
    assert "index has 2 dims but input has 3" in text
    assert "add the missing axis with unsqueeze, then expand it" in text


def test_gathering_along_dim_0_is_told_the_tasks_dim():
    text = message("01.pick_columns", lambda x, columns: torch.gather(x, 0, columns))
    assert "your result is what the same positions give along dim 0" in text
    assert "columns count along dim 1 (a column in each row).\nUse dim=1." in text


def test_a_negative_position_is_told_gather_does_not_wrap():
    text = message(
        "04.gather_python_style",
        lambda input, dim, index: torch.gather(input, dim, index),
    )
    assert "gather does not count negative positions from the end" in text
    assert "torch.where(index < 0, index + input.size(dim), index)" in text


def test_wrapping_every_position_is_told_why_it_must_raise():
    text = message(
        "04.gather_python_style",
        lambda input, dim, index: torch.gather(input, dim, index % input.size(dim)),
    )
    assert "wraps every position with `%`" in text
    assert "raise on anything beyond" in text


def test_a_function_that_reads_along_one_fixed_dim_is_told_to_pass_dim_on():
    # burn's max_dim: the index built along dim, then gather(D - 1, ...)
    def last_dim(x, dim, positions):
        along, sizes = [1] * x.dim(), list(x.shape)
        along[dim] = sizes[dim] = positions.numel()
        return torch.gather(x, x.dim() - 1, positions.reshape(along).expand(sizes))

    result = EXERCISES["03.select_with_gather"].check(last_dim)
    assert result.verdict.misconception == "dim-ignored"
    assert "reads along the last dim" in result.words
    assert "whatever dim is" in result.words and "`x.dim() - 1`" in result.words

    def only_the_dim_1_formula(input, dim, index):  # a loop without the dim-0 case
        out = torch.empty(index.shape, dtype=input.dtype)
        for i in range(index.shape[0]):
            for j in range(index.shape[1]):
                out[i, j] = input[i, int(index[i, j])]
        return out

    loop = EXERCISES["01.gather_loop"].check(only_the_dim_1_formula)
    assert loop.verdict.misconception == "dim-ignored"
    assert "but dim=0 asks for dim 0" in loop.message
    # a function that follows dim is not taken for one that ignores it
    assert EXERCISES["01.gather_loop"].check(gl.exercises.ch01.gather_2d).passed


def test_a_selection_run_wholly_along_one_fixed_dim_is_told_to_pass_dim_on():
    # tfjs-core's Tensor.gather(indices, axis): the axis dropped, so the positions
    # are laid along dim 0 and read there, whatever dim is
    def first_dim(x, dim, positions):
        along, sizes = [1] * x.dim(), list(x.shape)
        along[0] = sizes[0] = positions.numel()
        return torch.gather(x, 0, positions.reshape(along).expand(sizes))

    result = EXERCISES["03.select_with_gather"].check(first_dim)
    assert result.verdict.misconception == "dim-ignored"
    assert "reads along dim 0" in result.words and "`0`" in result.words

    # the same selection along the dim passed is right
    def any_dim(x, dim, positions):
        along, sizes = [1] * x.dim(), list(x.shape)
        along[dim] = sizes[dim] = positions.numel()
        return torch.gather(x, dim, positions.reshape(along).expand(sizes))

    assert EXERCISES["03.select_with_gather"].check(any_dim).passed


def test_a_negative_dim_read_as_dim_0_is_named():
    # PennyLane's take: [slice(None)] * axis is empty for axis=-1
    def as_zero(input, dim, index):
        size = input.size(dim)
        if ((index < -size) | (index >= size)).any():
            raise IndexError("out of range")
        from_start = torch.where(index < 0, index + size, index)
        return torch.gather(input, max(dim, 0), from_start)

    result = EXERCISES["04.gather_python_style"].check(as_zero)
    assert result.verdict.misconception == "negative-dim"
    assert "goes wrong only where dim is negative" in result.words


def test_a_result_gathered_along_another_dim_names_the_dim():
    square = torch.tensor([[10, 11, 12], [20, 21, 22], [30, 31, 32]])
    exercise = Implement(
        "99.square",
        "square",
        solution=lambda x, index: torch.gather(x, 1, index),
        example={"x": square, "index": torch.tensor([[2, 0], [1, 1], [0, 2]])},
        generate=lambda rng: {
            "x": cases.values(rng, (3, 3)),
            "index": cases.positions(rng, 3, (3, 2)),
        },
        call=Call("gather", "x", 1, "index"),
        hidden=3,
    )
    result = exercise.check(lambda x, index: torch.gather(x, 0, index))
    assert result.verdict.misconception == "other-dim"
    assert "what the same positions give along dim 0" in result.words
    assert result.fix == "Use dim=1."


# ---------------------------------------------------------------- wrong strategies


def test_an_index_unsqueezed_in_the_middle_is_told_to_add_the_axis_last():
    text = message(
        "02.select_steps",
        lambda f, p: torch.gather(f, 1, p.unsqueeze(1).expand(-1, p.shape[1], -1)),
    )
    rule = "gather's result has its index's shape; dim only says which axis"
    assert rule in text
    assert "`positions.unsqueeze(1)` expanded along dim 1 to" in text
    assert "`.unsqueeze(2)`" in text
    fix = message("02.fix_wrong_axis", EXERCISES["02.fix_wrong_axis"].broken.index)
    assert rule in fix


def test_a_transposed_index_is_named_though_a_hidden_index_is_1_by_1():
    """On a 1 x 1 index ``.T`` changes nothing, so the learner's value there is the
    expected one: the transposed index still reproduces that case and is named."""
    exercise = EXERCISES["01.pick_columns"]
    assert any(
        tuple(case.args["columns"].shape) == (1, 1) for case in exercise.all_cases
    )  # the case that used to drop the misconception
    result = exercise.check(lambda x, columns: torch.gather(x, 1, columns.T))
    assert result.verdict.misconception == "transposed-index"
    assert "what the transposed index gives" in result.words


def test_an_off_by_one_through_advanced_indexing_is_named_though_it_raises():
    """``features[rows, lengths]`` raises IndexError where a sequence is full (torch's
    own words, no gather call recorded) and reads one step late elsewhere: that is the
    off-by-one, as the gather spelling is, not a bare 'raised IndexError'."""
    exercise = EXERCISES["02.last_valid_step"]
    result = exercise.check(lambda f, lengths: f[torch.arange(f.shape[0]), lengths])
    assert result.verdict.misconception == "off-by-one"
    assert "one position past the right one" in result.words
    # an IndexError off the end that no misconception reproduces keeps torch's words
    bare = exercise.check(
        lambda f, lengths: f[torch.arange(f.shape[0] + 1), lengths - 1]
    )
    assert "raised IndexError" in bare.words


def test_an_index_expanded_to_another_dims_size_is_told_the_width():
    text = message(
        "02.select_steps",
        lambda f, p: torch.gather(f, 1, p.unsqueeze(-1).expand(-1, -1, 2)),
    )
    # the 2 is the visible example's feature count, hard-coded
    assert "works only when features.shape[2] is 2" in text
    assert "`features.shape[2]`" in text
    too_wide = message(
        "02.select_steps",
        lambda f, p: torch.gather(f, 1, p.unsqueeze(-1).expand(-1, -1, f.shape[1])),
    )
    assert "expanded along dim 2 to 3, the size" in too_wide
    assert "to 3, the size of dim 1 of features" in too_wide
    assert "Expand it to `features.shape[2]` there" in too_wide
    # one expanded to a smaller size runs and stops short: the same mistake
    too_narrow = EXERCISES["02.last_valid_step"].check(
        lambda f, lengths: f.gather(
            1, (lengths.view(-1, 1, 1) - 1).expand(-1, 1, f.shape[0])
        ).squeeze(1)
    )
    assert too_narrow.verdict.misconception == "expanded-to-another-size"
    assert "to 3, the size of dim 0 of features" in too_narrow.message


def test_an_index_expanded_as_the_input_is_told_to_keep_its_positions():
    steps = EXERCISES["02.select_steps"].check(
        lambda f, p: torch.gather(f, 1, p.unsqueeze(-1).expand_as(f))
    )
    assert steps.verdict.misconception == "expanded-as-input"
    # any op may make it here (gather, take_along_dim, a subscript): no op named
    assert "the result has its index's shape, one read per entry" in steps.message
    assert "expanded over dim 1 too, to (2, 3, 2)" in steps.message
    assert "one entry per position (2 here), not 3" in steps.words
    scores = EXERCISES["05.label_scores"].check(
        lambda lp, labels: lp.gather(1, labels.unsqueeze(1).expand_as(lp))
    )
    assert scores.verdict.misconception == "expanded-as-input"
    assert "(1 here), not 3" in scores.words

    # pytorch#194521: index_select through gather, expanding only a one-position
    # (scalar) index to x's shape, is named on the cases with one position
    def scalar_to_input_shape(x, dim, positions):
        if positions.numel() == 1:
            scalar = positions.reshape([1] * x.dim())
            return torch.gather(x, dim, scalar.expand(x.shape))
        along, sizes = [1] * x.dim(), list(x.shape)
        along[dim] = sizes[dim] = positions.numel()
        return torch.gather(x, dim, positions.reshape(along).expand(sizes))

    scalar = EXERCISES["03.select_with_gather"].check(scalar_to_input_shape)
    assert scalar.verdict.misconception == "expanded-as-input"
    assert scalar.words.startswith("On hidden case")
    assert "one entry per position (1 here)" in scalar.words
    # with .squeeze(1) after it (a no-op where the size is not 1): a pair
    squeezed = EXERCISES["02.select_steps"].check(
        lambda f, p: torch.gather(f, 1, p.unsqueeze(-1).expand_as(f)).squeeze(1)
    )
    assert squeezed.verdict.misconception == "expanded-as-input+dropped-axis"

    # index_select done through gather, its positions expanded to x.shape
    def to_input_shape(x, dim, positions):
        along = [1] * x.dim()
        along[dim] = -1
        return torch.gather(x, dim, positions.reshape(along).expand(x.shape))

    select = EXERCISES["03.select_with_gather"].check(to_input_shape)
    assert select.verdict.misconception == "expanded-as-input"
    # the op it is written with is named, not the one it stands for
    assert select.message.endswith(
        "gather returns its index's shape, one read per entry, and the index was "
        "expanded over dim 1 too, to (2, 3)."
    )
    assert "one entry per position (2 here), not 3" in select.words
    # an index already expanded along the other dims only is the solution
    assert EXERCISES["02.select_steps"].check(gl.exercises.ch02.select_steps).passed


def test_advanced_indexing_is_told_every_row_read_every_label():
    text = message("05.label_scores", lambda log_probs, labels: log_probs[:, labels])
    # the first step names the other op's semantics the answer used
    first = text.partition("\n")[0]
    assert "each index entry read a whole slice, as `x[:, labels]`" in first
    assert "and index_select do" in first
    assert "gather reads one element per index entry, in the index's shape" in first


def test_index_select_for_a_per_row_pick_is_told_every_row_read_every_column():
    text = message(
        "01.pick_columns",
        lambda x, columns: torch.index_select(x, 1, columns.reshape(-1)),
    )
    assert "each index entry read a whole slice" in text and "index_select" in text


def test_the_old_same_size_rule_is_told_the_call_is_valid():
    def strict_loop(input, dim, index):
        for d in range(2):
            if d != dim % 2 and index.shape[d] != input.shape[d]:
                raise ValueError("index and input must have the same size")
        return EXERCISES["01.gather_loop"].solution(input, dim, index)

    text = message("01.gather_loop", strict_loop)
    assert "your function raises on a smaller index" in text
    assert "off dim, gather needs only index.size(d) <= input.size(d)" in text
    assert "Equal sizes are not the rule" in text


def test_a_beam_major_layout_is_named():
    parents = torch.tensor([[2, 2, 1], [0, 1, 1]])
    beam_major = (parents * 2 + torch.arange(2)[:, None]).reshape(-1, 1)
    result = EXERCISES["02.fix_beam_rows"].check(beam_major.expand(-1, 4))
    assert result.verdict.misconception == "other-group-layout"
    assert "position 0 of every group first (beam-major)" in (result.words)
    assert "at row g * 3 + k" in result.words
    offsets = (parents + torch.arange(2)[:, None] * 2).reshape(-1, 1)
    result = EXERCISES["02.fix_beam_rows"].check(offsets.expand(-1, 4))
    assert result.verdict.misconception == "offset-by-group-count"
    assert "starts group g at row g * 2" in result.words
    assert "where it starts at row g * 3" in result.message


def _grouped_fix() -> gl.exercises.Fix:
    """Two groups of four rows (batch 2, beam 4), another size than chapter 2's."""
    parents = torch.tensor([[3, 0, 1, 1], [2, 2, 0, 3]]).reshape(-1, 1)
    member = torch.arange(8)[:, None] // 4
    return gl.exercises.Fix(
        "99.fix_groups",
        "fix",
        broken=Call("gather", torch.arange(16).reshape(8, 2), 0, parents),
        solution=lambda x, index: index + member * 4,
    )


def test_the_other_group_layout_is_named_for_any_grouped_index():
    exercise = _grouped_fix()
    parents = exercise.broken.index
    member = torch.arange(8)[:, None] // 4
    result = exercise.check(parents * 2 + member)
    assert result.verdict.misconception == "other-group-layout"
    assert "row k * 2 + g" in result.words and "row g * 4 + k" in result.words
    assert exercise.check(parents + member * 4).passed
    # one group's rows only: no layout names it
    assert exercise.check(parents).verdict.misconception == "missing-group-offset"


def test_offsets_by_the_number_of_groups_are_named_for_any_grouped_index():
    exercise = _grouped_fix()
    parents = exercise.broken.index
    member = torch.arange(8)[:, None] // 4
    result = exercise.check(parents + member * 2)
    assert result.verdict.misconception == "offset-by-group-count"
    assert "starts group g at row g * 2" in result.words
    assert "(2 groups of 4 rows: batch-major)" in result.words


def test_the_last_position_for_every_entry_is_named_in_any_gather():
    exercise = gl.exercises.Fix(
        "99.fix_last",
        "fix",
        broken=Call(
            "gather", torch.tensor([[1, 2, 0], [3, 0, 0]]), 1, torch.tensor([[0], [0]])
        ),
        solution=lambda x, index: torch.tensor([[1], [0]]),
    )
    result = exercise.check(torch.tensor([[2], [2]]))
    assert result.verdict.misconception == "last-position"
    assert "position 2, the last along dim 1, for every entry" in result.words
    assert "padding in shorter sequences" in result.words  # 0s after each
    # one entry moved to the last position is too little evidence on a fix's one case
    one = gl.exercises.Fix(
        "99.fix_one_last",
        "fix",
        broken=exercise.broken,
        solution=lambda x, index: torch.tensor([[2], [0]]),
    )
    assert one.check(torch.tensor([[2], [2]])).verdict.misconception is None


def test_predicting_that_take_raises_is_told_it_reads_the_flattened_input():
    text = message("03.predict_flat_positions", "IndexError: 13 is out of range")
    assert text.startswith("It does not raise: take reads the flattened grid")
    assert "(20 entries, positions -20..19)" in text


def test_normalising_after_selecting_is_named():
    text = message(
        "05.label_scores",
        lambda log_probs, labels: torch.log_softmax(
            torch.gather(log_probs, 1, labels.unsqueeze(1)), dim=1
        ),
    )
    assert "every value is 0" in text and "log_softmax" in text
    assert "normalise over all the classes first, then gather" in text


# ---------------------------------------------------------------- no loopholes


def test_a_dummy_gather_does_not_satisfy_require():
    def dummy(x, dim, positions):
        torch.gather(x, dim, torch.zeros_like(x))  # called, result thrown away
        where = [slice(None)] * x.dim()
        where[dim] = positions
        return x[tuple(where)]

    text = message("03.select_with_gather", dummy)
    assert "does not come from torch.gather" in text


def test_a_call_validates_its_op():
    with pytest.raises(ValueError, match="op must be one of"):
        Call("gathr", torch.zeros(2), 0, torch.zeros(1, dtype=torch.long))


def test_which_calls_raise_refuses_a_call_that_raises_for_another_reason():
    class Flaky(Call):
        def run(self):
            raise RuntimeError("CUDA error: out of memory")

    x = torch.tensor([[1, 2], [3, 4]])
    valid = Flaky("gather", x, 1, torch.tensor([[0], [1]]))
    with pytest.raises(ValueError, match="gl.diagnose finds no broken rule"):
        PredictRaises("99.flaky", "flaky", calls={"A": valid})


def test_a_gather_that_runs_says_which_rule_it_does_not_apply():
    """An empty index is not checked at all, int32 positions are accepted, a negative
    dim counts from the end, and an index need not have the input's shape: a learner
    who marks such a call as raising is told so in the first step; the fix gives the
    call, its shape and the rule in full."""
    empty = check("01.which_calls_raise", ["B", "D", "E"])
    assert empty.message == "E runs: an empty index is not checked."
    assert empty.fix.startswith("E runs: torch.gather(x, 1, torch.empty(0))")
    int32 = check("04.which_calls_raise", ["D", "E", "F"])
    assert int32.message == "E runs: gather accepts int32 positions too."
    x = torch.tensor([[10, 11, 12], [20, 21, 22]])
    with pytest.raises(RuntimeError, match="int32/int64"):
        torch.gather(x, 1, torch.tensor([[2], [0]], dtype=torch.int16))
    with pytest.raises(RuntimeError, match="Long"):
        torch.take_along_dim(x, torch.tensor([[2], [0]], dtype=torch.int32), 1)
    # A's index is (1, 4) against x's (2, 3): smaller on dim 0, longer along dim 1
    sizes = check("01.which_calls_raise", ["A", "B", "D"])
    assert sizes.verdict.misconception == "same-size-rule"
    assert sizes.message == (
        "A runs: the index may be longer along dim, smaller elsewhere."
    )
    assert sizes.fix.startswith("A runs: torch.gather(x, 1, torch.tensor(")
    assert "index.size(d) <= input.size(d), not equal sizes" in sizes.fix
    assert torch.gather(x, 1, torch.tensor([[2, 0, 1, 2]])).shape == (1, 4)
    # dim=-1 with an index of x's sizes but along dim: the negative dim is its fact,
    # not the size rule (a learner who expects it to raise doubts the dim)
    negative = check("04.which_calls_raise", ["A", "D", "F"])
    assert negative.message == "A runs: negative dims count from the end."
    assert negative.verdict.misconception is None
    assert "Dim -1 counts from the end, so it is dim 1 of x" in negative.fix
    assert torch.gather(x, -1, torch.tensor([[2, 0], [1, 1]])).shape == (2, 2)
    # a 0-d input: dim -1 counts to dim 0 (its dims wrap as one dim's do)
    scalar = PredictRaises(
        "99.scalar",
        "scalar",
        calls={"A": Call("gather", torch.tensor(5), -1, torch.tensor([0]))},
    )
    said = scalar.check(["A"])
    assert said.message == "A runs: negative dims count from the end."
    assert "so it is dim 0 of x" in said.fix
    # a call with the index of the input's own shape breaks no rule
    same = PredictRaises(
        "99.same", "same", calls={"A": Call("gather", x, 1, torch.zeros(2, 3).long())}
    )
    plain = same.check(["A"])
    assert plain.message == "A runs: its index breaks no rule."
    assert plain.fix.endswith("returns shape (2, 3).")
    assert plain.verdict.misconception is None


def test_every_misjudged_call_is_given_its_rule_in_the_first_step():
    """Several calls judged wrongly: the first step names each with the rule that
    decides it, the calls that run (wrongly picked) first, then the raising calls
    missed, each its own fact; the fix holds every call's full reason."""
    # the collected answers (issue 38: only the first misjudged call was answered)
    assert check("04.which_calls_raise", ["B", "C", "F"]).message == (
        "B and C run: the index may be longer along dim, smaller elsewhere (B); "
        "an empty index is not checked (C). "
        "D raises: torch.take_along_dim takes positions as int64."
    )
    every = check("01.which_calls_raise", ["A", "B", "C", "D", "E"])
    assert every.message == (
        "A, C and E run: the index may be longer along dim, smaller elsewhere "
        "(A, C); an empty index is not checked (E)."
    )
    assert every.verdict.misconception == "same-size-rule"
    # the fix: each rule's detail once, followed it gives the calls' outcomes
    assert every.fix == (
        "The sizes rule: index.size(d) <= input.size(d) on every dim d but dim, where "
        "the index may hold any number of positions. An empty index's dtype and sizes "
        "are not checked: gather returns an empty result of its shape."
    )
    x = torch.arange(6).reshape(2, 3)
    assert torch.gather(x, 1, torch.tensor([[2, 0, 1, 2]])).shape == (1, 4)
    assert torch.gather(x, 1, torch.empty(0, dtype=torch.float32)).shape == (0,)
    fourth = check("04.which_calls_raise", ["A", "B", "C", "D", "E", "F"])
    assert fourth.fix.startswith("In A, dim -1 is dim 1 of x. The sizes rule: ")
    assert fourth.fix.endswith(
        "Other integer dtypes raise; take_along_dim wants int64."
    )
    # other options: a longer index alone, an int32 one with a negative dim, a
    # too-wide index and a position past the end, missed together
    calls = {
        "A": Call("gather", x, 0, torch.tensor([[1, 0, 1], [0, 1, 0], [1, 1, 1]])),
        "B": Call("gather", x, -2, torch.tensor([[1, 0, 1]], dtype=torch.int32)),
        "C": Call("gather", x, 0, torch.tensor([[0, 0, 0, 0]])),
        "D": Call("gather", x, 1, torch.tensor([[5], [0]])),
        "E": Call("gather", x, 1, torch.tensor([[0, 1]])),
        "F": Call("gather", x, 1, torch.tensor([[0, 1], [1, 0]])),
    }
    quiz = PredictRaises("99.options", "options", calls=calls)
    assert quiz.solution == ("C", "D")
    both = quiz.check(["A", "B"])
    assert both.message == (
        "A and B run: the index may be longer along dim (A); negative dims count "
        "from the end and gather accepts int32 positions too (B). "
        "C and D raise: apart from dim 0, index may not be larger than input (C); "
        "positions 0..2 only, never clamped (D)."
    )
    assert torch.gather(x, 0, calls["A"].index).shape == (3, 3)
    assert torch.gather(x, -2, calls["B"].index).shape == (1, 3)
    # calls sharing a fact are named together; a call shorter along dim alone is
    # told so; a missed raising call alone keeps its whole diagnosis
    smaller = quiz.check(["C", "D", "E", "F"])
    assert smaller.message == (
        "E and F run: the index may be smaller on other dims (E); "
        "the index may be shorter along dim (F)."
    )
    assert smaller.verdict.misconception == "same-size-rule"
    facts = quiz.check(["A", "C", "D", "E"]).message
    assert facts.startswith("A and E run: the index may be longer along dim (A); ")
    assert quiz.check(["C"]).message.startswith(
        "D raises: gather checks every position and never clamps one into range: "
        "index[0, 0] = 5, but"
    )
    for label, call in calls.items():
        if label in quiz.solution:
            with pytest.raises(RuntimeError):
                call.run()


@pytest.mark.parametrize(
    "exercise_id", ["01.which_calls_raise", "04.which_calls_raise"]
)
def test_which_calls_raise_solution_lines_run_as_written(exercise_id):
    """Each comment line, pasted without its ``# A raises:``, is code that does what
    the line says (no list where a tensor is meant)."""
    exercise = EXERCISES[exercise_id]
    namespace = {"torch": torch, "x": exercise.calls["A"].input}
    source = exercise.solution_source().replace("\n#     ", " ")
    lines = re.findall(r"^# (\w) (raises|runs): (.*)$", source, re.M)
    assert [label for label, _, _ in lines] == list(exercise.calls)
    for _label, outcome, code in lines:
        if outcome == "runs":
            eval(code, namespace)
        else:
            with pytest.raises((RuntimeError, IndexError)):
                eval(code, namespace)


def _task(notebook: str, exercise_id: str) -> str:
    """The task text: the markdown cell right above the exercise's check cell."""
    cells = json.loads((NOTEBOOKS / notebook).read_text())["cells"]
    check = f'gl.exercises.check("{exercise_id}"'
    at = next(i for i, c in enumerate(cells) if check in "".join(c["source"]))
    assert cells[at - 1]["cell_type"] == "markdown"
    return "".join(cells[at - 1]["source"])


def test_exercise_texts_forbid_only_what_the_check_enforces():
    wrong_axis = _task("02_batched_selection.ipynb", "02.fix_wrong_axis")
    assert "skip" not in wrong_axis and "compares" in wrong_axis
    shared = _task("01_gather_2d.ipynb", "01.fix_shared_columns")
    assert "compares" in shared


# ---------------------------------------------------------------- loud bugs


def _planted_bug(*args):
    raise AttributeError("'Tensor' object has no attribute 'planted'")


def test_a_bug_in_diagnose_is_never_the_learners_mistake(monkeypatch):
    monkeypatch.setattr(DIAGNOSE, "_gather", _planted_bug)
    monkeypatch.delenv(DEBUG_ENV)
    exercise = EXERCISES["01.fix_missing_axis"]
    result = exercise.check(exercise.reference_answer)
    assert not result.passed
    assert "Still broken" not in result.words
    assert result.words.startswith("The checker failed on this answer")
    assert "a bug in gatherlab, not a mistake in your answer" in result.words
    problems = gl.diagnose(torch.zeros(2, 2), 1, torch.zeros(2, 1, dtype=torch.long))
    assert problems[0].rule == "unexpected"  # the stable rule id, never raised


def test_debug_mode_reraises_the_packages_own_errors(monkeypatch):
    monkeypatch.setattr(DIAGNOSE, "_gather", _planted_bug)
    monkeypatch.setenv(DEBUG_ENV, "1")
    exercise = EXERCISES["01.fix_missing_axis"]
    with pytest.raises(AttributeError, match="planted"):
        exercise.check(exercise.reference_answer)
    with pytest.raises(AttributeError, match="planted"):
        gl.diagnose(torch.zeros(2, 2), 1, torch.zeros(2, 1, dtype=torch.long))


def test_the_test_suite_runs_in_debug_mode():
    import os

    assert os.environ.get(DEBUG_ENV) == "1"


def test_a_learners_error_is_still_the_learners(monkeypatch):
    monkeypatch.delenv(DEBUG_ENV)

    def buggy(x, columns):
        raise KeyError("mine")

    result = EXERCISES["01.pick_columns"].check(buggy)
    assert result.words.startswith("On the visible example, your function raised")
    assert "KeyError: 'mine'" in result.words


# ---------------------------------------------------------------- TensorFlow, devices


@pytest.fixture(scope="module")
def tf():
    return pytest.importorskip("tensorflow")


def test_tf_gather_without_batch_dims_is_told_every_row_read_every_position(tf):
    text = message("02.tf_select_steps", lambda f, p: tf.gather(f, p, axis=1))
    first = text.partition("\n")[0]  # the first step names batch_dims, the rule
    assert "without batch_dims=1, tf.gather reads all of [[" in first
    assert (
        EXERCISES["02.tf_select_steps"]
        .check(lambda f, p: tf.gather(f, p, axis=1, batch_dims=1))
        .passed
    )


def test_gather_nd_pairs_stacked_on_the_wrong_axis_are_told_the_last_axis(tf):
    def first_axis(features, positions):
        shape = tf.shape(positions, out_type=positions.dtype)
        rows = tf.broadcast_to(tf.range(shape[0])[:, None], shape)
        return tf.gather_nd(features, tf.stack([rows, positions], axis=0))

    text = message("02.tf_gather_nd_pairs", first_axis)
    assert "reads a coordinate along the index's last axis" in text
    assert "stack the pairs with axis=-1" in text
    batch_dims = message(
        "02.tf_gather_nd_pairs", lambda f, p: tf.gather(f, p, axis=1, batch_dims=1)
    )
    assert "does not come from tensorflow.gather_nd" in batch_dims


def test_gather_nd_coordinates_read_by_column_are_told_the_last_axis():
    text = message("05.predict_gather_nd_axis", [1, 21])
    assert "tf.gather_nd reads its last axis" in text
    assert "as tf.gather does" in message(
        "05.predict_gather_nd_axis",
        [[[0, 1, 2], [20, 21, 22]], [[10, 11, 12], [10, 11, 12]]],
    )


def test_a_densified_gradient_without_the_repeat_is_told_the_slices_add():
    assert "tf.convert_to_tensor adds them" in message(
        "05.predict_dense_slices", [[2, 2], [0, 0], [3, 3]]
    )
    assert "That is slices.values" in message(
        "05.predict_dense_slices", [[1, 1], [2, 2], [3, 3]]
    )


def test_the_negative_coordinate_choice_matches_the_cpu_and_xla(tf):
    """The facts behind 04.tf_negative_coordinate that a CPU can show."""
    x = tf.constant([[10, 11, 12], [20, 21, 22]])
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.gather_nd(x, [[1, -1]])
    clamped = tf.function(lambda t: tf.gather_nd(t, [[1, -1]]), jit_compile=True)
    assert clamped(x).numpy().tolist() == [20]  # [1, -1] clamps to [1, 0]
    assert EXERCISES["04.tf_negative_coordinate"].check("c").passed
    assert "XLA clamps -1 to 0" in message("04.tf_negative_coordinate", "D")


def test_a_0d_index_predicted_as_a_list_is_told_the_shape():
    assert EXERCISES["04.predict_scalar_index"].check(12).passed
    text = message("04.predict_scalar_index", [12])
    assert "0-d" in text and "write the number alone" in text
    assert "counts as a 1-D index with one entry" in message(
        "04.predict_scalar_index", "it raises"
    )


def test_device_choices_explain_every_wrong_pick():
    assert "the next call that waits for the GPU reports its device-side" in (
        message("04.device_side_assert", "A")
    )
    assert "next synchronising call" in (
        EXERCISES["04.device_side_assert"].check("C").message
    )
    assert "devices are checked on the host first" in message("04.device_mismatch", "c")
    assert "Pick one statement" in message("04.device_mismatch", ["A", "B"])
    mismatch = gl.diagnose(
        torch.zeros(2, 3, device="meta"), 1, torch.zeros(2, 1, dtype=torch.long)
    )
    assert mismatch[0].rule == "device-mismatch"  # what the right choice describes


def test_an_index_with_an_extra_axis_is_never_told_to_add_one():
    exercise = EXERCISES["01.fix_missing_axis"]
    text = message("01.fix_missing_axis", exercise.reference_answer[None])
    assert "index has 3 dims but input has 2" in text
    assert "remove the extra axis" in text and "add the missing axis" not in text


def test_the_device_mismatch_choice_matches_cuda():
    """On a GPU machine: the statement 04.device_mismatch calls right is what runs."""
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA device")
    x = torch.tensor([[10, 11, 12], [20, 21, 22]]).cuda()
    index = torch.tensor([[2, 0], [1, 1]])
    with pytest.raises(RuntimeError, match="cuda:0") as raised:
        torch.gather(x, 1, index)
    assert "cpu" in str(raised.value)
    assert torch.ones(1, device="cuda").add(1).item() == 2  # the context is healthy
    assert torch.gather(x, 1, index.to(x.device)).tolist() == [[12, 10], [21, 21]]


# ---------------------------------------------------------------- the model's promises


def test_every_misconception_has_its_words_in_the_one_table():
    from gatherlab.exercises.misconceptions import LIBRARY
    from gatherlab.exercises.verdict import messages

    assert len({item.id for item in LIBRARY}) == len(LIBRARY)
    assert all(item.template in messages() for item in LIBRARY)
    assert all(item.stage in ("call", "case", "output") for item in LIBRARY)


def test_memory_a_loop_never_wrote_is_named_and_never_quoted():
    def skips_the_last_column(input, dim, index):
        out = torch.empty(index.shape, dtype=input.dtype)
        for i in range(index.shape[0]):
            for j in range(index.shape[1] - 1):
                p = int(index[i, j])
                out[i, j] = input[p, j] if dim % 2 == 0 else input[i, p]
        return out

    result = gl.exercises.check("01.gather_loop", skips_the_last_column)
    assert result.verdict.template == "implement.unwritten"
    assert "out[0, 2] of your result was never written" in result.words
    assert not any(char.isdigit() for char in result.words.split("written")[1])


@pytest.mark.parametrize(
    ("exercise_id", "code"),
    [
        # the buffer a write starts from, believed to be zeros
        (
            "06.one_hot",
            "def answer(labels, classes):\n"
            "    out = torch.empty(len(labels), classes, dtype=torch.int64)\n"
            "    return out.scatter_(1, labels.unsqueeze(1), 1)\n",
        ),
        (
            "06.class_loss_sums",
            "def answer(losses, labels, classes):\n"
            "    return losses.new_empty(classes).index_add_(0, labels, losses)\n",
        ),
        (
            "01.gather_loop",
            "def answer(input, dim, index):\n"
            "    out = torch.empty_like(index, dtype=input.dtype)\n"
            "    for i in range(index.shape[0]):\n"
            "        for j in range(index.shape[1]):\n"
            "            p = int(index[i, j])\n"
            "            out[i, j] += input[p, j] if dim % 2 == 0 else input[i, p]\n"
            "    return out\n",
        ),
    ],
)
def test_a_result_right_only_because_empty_memory_held_zeros_is_not_passed(
    exercise_id: str, code: str
) -> None:
    # every case passes with torch.empty's memory zeroed: a second run on memory holding
    # ones finds the positions the function read before it wrote them
    names: dict[str, Any] = {"torch": torch}
    exec(code, names)
    result = gl.exercises.check(exercise_id, names["answer"])
    assert not result.passed
    assert result.verdict.template == "implement.unwritten"
    assert "never written" in result.words


def test_a_nan_the_function_computed_is_no_unwritten_memory():
    # 0 / 0 for an empty segment: NaN on every run, whatever torch.empty holds
    def divides_by_zero_counts(values, segments, count):
        sums = torch.zeros(count).index_add(0, segments, values)
        return sums / torch.bincount(segments, minlength=count)

    result = gl.exercises.check("06.segment_means", divides_by_zero_counts)
    assert result.verdict.template != "implement.unwritten"
    # float32 zeros refuse the float64 hidden cases' values; past that error, the
    # nan is named as what it is
    assert result.verdict.template == "repaired"
    assert result.verdict.misconception == "mean-empty-nan"
    assert "0 / 0 is nan" in result.words


def test_a_repaired_float_index_raises_by_the_rule_of_the_call_it_ran():
    # with the float index made int64, gather along dim 0 reads rows with the column
    # positions: the repaired call raises off the end, which the wrong-dim belief
    # predicts, so the later step is named after the dtype error (the spied call is
    # the repaired one, not the float index the learner passed)
    def float_index_along_rows(x, columns):
        return x.gather(0, columns.float())

    result = gl.exercises.check("01.pick_columns", float_index_along_rows)
    assert result.verdict.template == "repaired"
    assert "With that repaired, another step is wrong too." in result.words
    assert "along dim 0" in result.words
    # the function raised: what the repaired run returned is never "your result"
    assert "your result" not in result.words
    assert "the repaired result is what the same positions give along dim 0" in (
        result.words
    )


def test_an_answer_that_cuts_the_gradient_fails_the_gradient_exercise():
    for cut in (
        lambda lp, labels: lp.detach().gather(1, labels.unsqueeze(1)),
        lambda lp, labels: torch.tensor(
            lp.gather(1, labels.unsqueeze(1)).tolist(), dtype=lp.dtype
        ),
    ):
        result = gl.exercises.check("05.label_scores", cut)
        assert not result.passed
        assert result.verdict.template == "implement.detached"
    assert gl.exercises.check(
        "05.label_scores", lambda lp, labels: lp.gather(1, labels.unsqueeze(1))
    ).passed


def test_a_sum_of_repeated_reads_is_not_taken_for_one_read():
    result = gl.exercises.check(
        "05.label_scores",
        lambda lp, labels: lp.gather(
            1, labels.unsqueeze(1).expand(-1, lp.shape[1])
        ).sum(1, keepdim=True),
    )
    assert result.verdict.misconception == "sum-of-repeated-reads"
    assert "out[0, 0] is -1.2, 3 × -0.4" in result.words
    assert "that is log_probs" not in result.words


def test_a_sum_of_repeated_reads_without_keepdim_is_still_named():
    # pytorch#30574: b.gather(-1, c.unsqueeze(-1).expand_as(b)).sum(-1)
    result = gl.exercises.check(
        "05.label_scores",
        lambda lp, labels: lp.gather(-1, labels.unsqueeze(-1).expand_as(lp)).sum(-1),
    )
    assert result.verdict.misconception == "sum-of-repeated-reads"
    assert "out[0] is -1.2, 3 × -0.4" in result.words


def test_the_selections_reduced_to_one_number_are_named():
    # a one-hot product summed with no dim (tf.reduce_sum without axis)
    def summed(lp, labels):
        return (lp * torch.nn.functional.one_hot(labels, lp.shape[1])).sum()

    result = gl.exercises.check("05.label_scores", summed)
    assert result.verdict.misconception == "reduced-to-one-value"
    assert "is one number, -0.5: the sum of all the values" in result.words
    assert "(2, 1)" in result.words
    loss = gl.exercises.check(
        "05.label_scores", lambda lp, labels: -lp.gather(1, labels.unsqueeze(1)).mean()
    )
    assert loss.verdict.misconception == "reduced-to-one-value"
    assert "0.25: the mean of all the values, negated" in loss.words
    # never a pair's finish: the mean of all the values is no segment mistake
    total = EXERCISES["06.segment_means"].check(lambda v, s, c: v.mean())
    assert total.verdict is None or "+" not in (total.verdict.misconception or "")
    # a prediction is never told about .sum() in code
    columns = EXERCISES["01.predict_columns"].check(sum([11, 11, 10, 22, 20, 22]))
    assert columns.verdict is None or (
        columns.verdict.misconception != "reduced-to-one-value"
    )


def test_a_size_hard_coded_from_the_visible_example_is_named():
    result = gl.exercises.check(
        "05.label_scores", lambda lp, labels: lp[torch.arange(2), labels].unsqueeze(1)
    )
    assert result.verdict.misconception == "hard-coded-size"
    assert "works only when log_probs.shape[0] is 2" in result.words


def test_a_class_count_hard_coded_from_the_visible_example_is_named():
    # the visible example has 4 classes: torch.zeros(n, 4) is right only there
    def four_columns(labels, classes):
        rows = torch.zeros(labels.shape[0], 4, dtype=torch.int64)
        return rows.scatter_(1, labels.unsqueeze(1), 1)

    result = gl.exercises.check("06.one_hot", four_columns)
    assert result.verdict.misconception == "hard-coded-size"
    assert "works only when classes is 4, as in the visible example" in result.words
    assert "must come from the inputs: `classes`" in result.words


def test_every_row_reading_every_position_quotes_the_positions():
    result = gl.exercises.check("05.label_scores", lambda lp, labels: lp[:, labels])
    assert result.verdict.misconception == "every-row-reads-every-position"
    # the visible example's labels are [1, 0]
    assert "`x[:, labels]`" in result.message


def test_a_transposed_result_gets_code_advice_only_where_code_was_written():
    # 01.predict_columns returns [[11, 11, 10], [22, 20, 22]]: a typed value, not code
    typed = gl.exercises.check("01.predict_columns", [[11, 22], [11, 20], [10, 22]])
    assert typed.verdict.misconception == "transposed-result"
    assert "instead of transposing" not in typed.words
    assert "write each row of the result as one inner list" in typed.words
    code = gl.exercises.check("01.pick_columns", lambda x, c: torch.gather(x, 1, c).T)
    assert code.verdict.misconception == "transposed-result"
    assert "build the result in its own orientation" in code.words
    # said of the result, whatever made it: no transpose or index presumed
    assert "instead of transposing" not in code.words


def test_a_message_names_a_read_only_when_the_learners_own_call_made_it():
    def shifted(x, columns):
        return torch.gather(x, 1, columns.flip(0))

    result = gl.exercises.check("01.pick_columns", shifted)
    assert result.verdict.template == "implement.wrong_value_yours_read_rule"
    assert "your torch.gather read x[" in result.words


# ---------------------------------------------------------------- one error, no cause


def test_an_index_fix_that_raises_names_no_misconception_it_did_not_make():
    """An error on a fix's one case is any index breaking the same rule: a 1-based
    index was called "the other dim", a +1 flat position "reads position 23"."""
    one_based = message("01.fix_shared_columns", torch.tensor([[3, 1], [3, 1]]))
    assert "dim 0" not in one_based and "use dim=1" not in one_based
    assert "index[0, 0] = 3, but dim 1 of input has size 3" in one_based
    plus_one = EXERCISES["03.fix_pairs_for_take"].check(torch.tensor([7, 20]))
    assert plus_one.verdict.misconception is None
    assert "23" not in plus_one.words and "index[1] = 20" in plus_one.words
    beam = EXERCISES["02.fix_beam_rows"]
    rows = beam.broken.index + torch.arange(6)[:, None]  # the row, not its member
    assert beam.check(rows).verdict.misconception is None
    assert "use dim=1" not in beam.check(rows).message
    # a dim fix keeps the intended index, so there the error names the dim
    dim_fix = gl.exercises.Fix(
        "99.fix_dim",
        "fix",
        broken=Call(
            "gather",
            torch.tensor([[10, 11, 12], [20, 21, 22]]),
            0,
            torch.tensor([[2, 0], [1, 1]]),
        ),
        solution=lambda x, index: 1,
        part="dim",
    )
    assert dim_fix.check(0).verdict.misconception == "other-dim"


def test_an_index_expanded_to_the_input_shape_is_told_to_keep_the_index_shape():
    """A fix's answer is an index: 'make the result with torch.empty(index.shape)'
    is advice for a loop, which the learner of a fix never wrote."""
    labels = EXERCISES["01.fix_missing_axis"].broken.index
    result = EXERCISES["01.fix_missing_axis"].check(labels.unsqueeze(1).expand(-1, 3))
    assert result.verdict.misconception == "expanded-as-input"
    assert "torch.empty" not in result.words
    assert "expanded over dim 1 too, to (3, 3)" in result.message
    assert "Expand it only along the other dims" in result.words


def test_a_gradient_of_ones_is_not_called_a_softmax_over_one_value():
    """Every entry read once gives a gradient of ones: no softmax was involved."""
    text = message("05.predict_gradient", [[1, 1, 1], [1, 1, 1]])
    assert "softmax" not in text
    # the softmax of one selected value per row is still named
    scores = EXERCISES["05.label_scores"]
    found = scores.check(
        lambda log_probs, labels: torch.gather(
            log_probs, 1, labels.unsqueeze(1)
        ).softmax(1)
    )
    assert found.verdict.misconception == "normalised-after-selecting"


def test_a_gather_under_another_name_is_forbidden_counted_and_spied():
    """`from torch import gather` binds the function itself: replacing torch.gather
    missed it, so a forbidden gather passed and a required one was 'not used'."""
    own_name = torch.gather  # what `from torch import gather` binds
    loop = EXERCISES["01.gather_loop"].check(
        lambda input, dim, index: own_name(input, dim, index)
    )
    assert loop.verdict.template == "implement.forbidden"

    def select(x, dim, positions):
        shape = [positions.numel() if d == dim else 1 for d in range(x.dim())]
        sizes = [positions.numel() if d == dim else s for d, s in enumerate(x.shape)]
        return own_name(x, dim, positions.reshape(shape).expand(sizes))

    assert EXERCISES["03.select_with_gather"].check(select).passed
    # and its error is worded by the rule it broke, as torch.gather's is
    raised = EXERCISES["02.select_steps"].check(
        lambda features, positions: own_name(features, 1, positions)
    )
    assert "its call torch.gather breaks a rule" in raised.words
    assert torch.gather is own_name  # restored


def test_a_max_where_values_add_up_is_named_as_a_max_not_as_one_write():
    """scatter_reduce(..., "amax") keeps the largest value: 'an assignment keeps one
    write' named a mistake the learner did not make."""
    sums = EXERCISES["06.class_loss_sums"].check(
        lambda losses, labels, classes: torch.zeros(
            classes, dtype=losses.dtype
        ).scatter_reduce(0, labels, losses, "amax")
    )
    assert sums.verdict.misconception == "other-reduction"
    assert "takes the max of the values written to each position" in sums.words
    assert "assignment" not in sums.words and "0.5, 2, 0.25" in sums.words
    means = EXERCISES["06.segment_means"].check(
        lambda values, segments, count: torch.zeros(
            count, dtype=values.dtype
        ).scatter_reduce(0, segments, values, "amin", include_self=False)
    )
    assert means.verdict.misconception == "other-reduction"
    assert "takes the min" in means.words and "averages them" in means.words
    # the old values alone are no reduction: a min that keeps every 0 writes nothing
    nothing = EXERCISES["06.predict_scatter_nd"].check([0, 0, 0, 0])
    assert nothing.verdict.misconception != "other-reduction"


def test_positions_moved_the_wrong_way_are_not_told_they_were_left_negative():
    """size - index also raises wherever a position is negative: the words must be
    true of it as of a negative left as it is."""

    def wrong_way(input, dim, index):
        size = input.size(dim)
        return torch.gather(input, dim, torch.where(index < 0, size - index, index))

    result = EXERCISES["04.gather_python_style"].check(wrong_way)
    assert result.verdict.misconception == "python-style-unwrapped"
    assert "a negative position is still refused:" in result.message
    assert "and only to them" in result.words


def test_negative_positions_moved_up_by_the_rank_are_named():
    # OpenVINO's Gather: a negative index plus the number of dims, not the axis size
    def plus_rank(input, dim, index):
        moved = torch.where(index < 0, index + input.dim(), index)
        return torch.gather(input, dim, moved)

    result = EXERCISES["04.gather_python_style"].check(plus_rank)
    assert result.verdict.misconception == "python-style-rank"
    # worded where the function returned a result (a 1-D case: 1 dim), after the
    # visible example, where the moved positions raised
    assert "your function raised an error" in result.message
    assert "adds the number of dims (1)" in result.message
    assert "The size of dim 0 is 4" in result.fix

    def plus_size(input, dim, index):  # the right size: not taken for the rank
        moved = torch.where(index < 0, index + input.size(dim), index)
        return torch.gather(input, dim, moved)

    named = EXERCISES["04.gather_python_style"].check(plus_size).verdict
    assert named is not None and named.misconception != "python-style-rank"


def test_an_answer_that_is_the_index_itself_is_named():
    """Writing the positions where the values they pick are due: said for every read
    whose result has the index's shape, the notebook's predictions and code alike."""
    for exercise_id, answer in (
        ("01.predict_columns", [[1, 1, 0], [2, 0, 2]]),
        ("03.predict_flat_positions", [[13, 0], [-1, 7]]),
        ("04.predict_scalar_index", 2),
    ):
        result = EXERCISES[exercise_id].check(answer)
        assert result.verdict.misconception == "wrote-the-positions", exercise_id
        assert "holds the positions themselves" in result.words
    text = message("01.predict_columns", [[1, 1, 0], [2, 0, 2]])
    assert "out[0, 0] should be 11, the value that position 1 picks" in text
    returned = EXERCISES["01.pick_columns"].check(lambda x, columns: columns)
    assert returned.verdict.misconception == "wrote-the-positions"


# ---------------------------------------------------------------- two steps

LEAD_WORDS = 7  # the longest lead a {lead} or {case} field holds: "On invalid hidden
# case 3 of 50, "


def first_step_words(template: str) -> int:
    """The words of a template's first step, each field one word, a lead seven."""
    from gatherlab.exercises.verdict import messages
    from gatherlab.rules import PLACEHOLDER

    first = messages()[template].partition("\n")[0]
    leads = sum(name in ("lead", "case") for name in PLACEHOLDER.findall(first))
    spaced = PLACEHOLDER.sub(lambda m: f" {m[1]} ", first)
    return len(spaced.split()) + leads * (LEAD_WORDS - 1)


def test_every_template_names_the_mistake_within_the_first_step_limit():
    """A template's first line is what a wrong answer first reads: at most
    FIRST_STEP_WORDS words (counting each field as a word, a lead as seven); a longer
    message puts its fix after a line break, shown on request."""
    from gatherlab.exercises.verdict import FIRST_STEP_WORDS, messages

    over = {t: first_step_words(t) for t in messages()}
    over = {t: n for t, n in over.items() if n > FIRST_STEP_WORDS}
    assert over == {}, "split these: mistake, line break, fix"
    assert all(text.count("\n") <= 1 for text in messages().values())


def test_the_first_steps_of_the_stored_page_answers_are_short():
    """The distribution of first-step words over every failing verdict of the stored
    page cases (tools/cases/page_cases.py, made in the test run: the notebook's
    words, which the page's equal): at least 90 % within FIRST_STEP_WORDS."""
    import gzip
    from collections import Counter

    from gatherlab.exercises.verdict import FIRST_STEP_WORDS
    from tools.cases.generate import fresh

    stored = fresh("tools.cases.page_cases").read_bytes()
    cases = json.loads(gzip.decompress(stored))["cases"]
    failing = [c for c in cases if c["status"] != "passed"]
    counts = [len(c["message"].partition("\n")[0].split()) for c in failing]
    bands = Counter(min(n // 10, 6) for n in counts)
    print(f"\nfirst-step words over {len(counts)} failing stored page answers:")
    for band in sorted(bands):
        label = f"{band * 10}-{band * 10 + 9}" if band < 6 else "60+"
        print(f"  {label:>6} words: {bands[band]:5}  {bands[band] / len(counts):6.1%}")
    within = sum(n <= FIRST_STEP_WORDS for n in counts) / len(counts)
    print(f"  <= {FIRST_STEP_WORDS} words: {within:.1%}; longest {max(counts)}")
    assert len(failing) >= 1000
    assert within >= 0.9


def test_the_fix_comes_on_request_in_the_notebook_and_on_the_page():
    """A wrong answer's fix is folded under "Show how to fix it" in the notebook's
    HTML, given by result.hint() and named in the text form; the page splits the same
    words at the same place (exercises.mjs's steps)."""
    from gatherlab.exercises.result import SHOW_FIX, as_html
    from gatherlab.exercises.verdict import render

    result = check("01.pick_columns", lambda x, columns: x.gather(0, columns))
    assert result.message and result.fix, result.words
    assert result.words == render(result.verdict) == f"{result.message}\n{result.fix}"
    shown = result._repr_html_()
    mistake, fix = (as_html(words) for words in (result.message, result.fix))
    assert shown.index(mistake) < shown.index("<details") < shown.index(SHOW_FIX)
    assert shown.index(SHOW_FIX) < shown.index(fix) < shown.index("</details>")
    assert SHOW_FIX in str(result) and result.fix not in str(result)
    assert str(result.hint()).startswith(result.fix)
    assert all(line in str(result.hint()) for line in result.details)
    passed = check("01.pick_columns", lambda x, columns: x.gather(1, columns))
    assert passed.fix == "" and SHOW_FIX not in passed._repr_html_()


@pytest.mark.filterwarnings("ignore")
def test_a_float_index_rounded_in_a_function_is_told_rounding_keeps_the_float_dtype():
    # floor, ceil, round and // on floats give floats: the first step says so for
    # torch.gather, a subscript and tf.gather alike (the learner believed otherwise)
    keeps = "on a float tensor keep its float dtype"
    answers = {
        "floor division": lambda x, columns: torch.gather(
            x, 1, (columns.float() + 0.2) // 1
        ),
        "ceil": lambda x, columns: torch.gather(x, 1, columns.float().ceil()),
        "subscript of round": lambda x, columns: x[
            torch.arange(x.shape[0])[:, None], columns.float().round()
        ],
    }
    for name, answer in answers.items():
        assert (torch.tensor([1.2]) // 1).dtype == torch.float32
        first = check("01.pick_columns", answer).words.split("\n")[0]
        assert keeps in first, name
    tf = pytest.importorskip("tensorflow")
    assert tf.math.floor(tf.constant([1.5])).dtype == tf.float32
    assert (tf.constant([1.5]) // 1).dtype == tf.float32

    def floored(features: Any, positions: Any) -> Any:
        rounded = tf.math.floor(tf.cast(positions, tf.float32))
        return tf.gather(features, rounded, axis=1, batch_dims=1)

    first = check("02.tf_select_steps", floored).words.split("\n")[0]
    assert "tf.math.floor, tf.math.ceil, tf.round and //" in first and keeps in first

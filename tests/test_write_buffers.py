"""A write's buffer and a mean's count misread (issue 38, round 6), named in the first
step on every writing exercise where the op can appear: a write into a tensor of ones
(a position nothing writes keeps the 1, an adding write adds onto it), a count started
at 1 that the value cannot tell from include_self=True's old 0 (both causes named),
sums divided by the number of segments, and ``out[labels] = 1`` setting whole rows
where each row needed its own position. Our own variants, on several exercises and
ops (index_add_, scatter_reduce, scatter_, index_fill_, a subscript).
"""

from __future__ import annotations

import pytest
import torch

from gatherlab.exercises import check
from gatherlab.exercises.misconceptions import Case
from gatherlab.exercises.writes import Write, _self_mixed


def sums_onto_ones(losses, labels, classes):
    return torch.ones(classes, dtype=losses.dtype).index_add_(0, labels, losses)


def reduce_onto_ones(losses, labels, classes):
    ones = torch.ones(classes, dtype=losses.dtype)
    return ones.scatter_reduce(0, labels, losses, "sum")


def mean_onto_ones(values, segments, count):
    ones = torch.ones(count, dtype=values.dtype)
    return ones.scatter_reduce(0, segments, values, "mean", include_self=False)


def one_hot_onto_ones(labels, classes):
    rows = torch.ones(len(labels), classes, dtype=torch.int64)
    return rows.scatter_(1, labels.unsqueeze(1), 1)


@pytest.mark.parametrize(
    "exercise, answer, which",
    [
        ("06.class_loss_sums", sums_onto_ones, "the written values add onto its 1"),
        ("06.class_loss_sums", reduce_onto_ones, "the written values add onto its 1"),
        ("06.segment_means", mean_onto_ones, "no index entry writes keeps its 1"),
        ("06.one_hot", one_hot_onto_ones, "no index entry writes keeps its 1"),
    ],
    ids=["index_add", "scatter_reduce-sum", "scatter_reduce-mean", "scatter_"],
)
def test_a_write_into_ones_is_named(exercise, answer, which):
    result = check(exercise, answer)
    assert result.verdict.misconception == "include-self-mixed", result.message
    assert "your result starts from a tensor of ones, not zeros" in result.message
    assert which in result.fix and "torch.zeros" in result.fix


def test_a_buffer_that_is_not_zeros_has_no_ones_belief():
    write = Write("index_add", torch.full((3,), 2.0), 0, torch.tensor([0, 0]),
                  torch.tensor([1.0, 1.0]))  # fmt: skip
    case = Case("", True, {}, write.run().numpy(), write=write)
    assert "ones" not in _self_mixed(case, None)


def counts_from_one(values, segments, count):
    sums = torch.zeros(count, dtype=values.dtype).index_add_(0, segments, values)
    sizes = torch.ones(count, dtype=values.dtype)  # "no division by 0"
    sizes.index_add_(0, segments, torch.ones_like(values))
    return sums / sizes


def counts_from_one_by_subscript(values, segments, count):
    sums = torch.zeros(count, dtype=values.dtype).index_put_(
        (segments,), values, accumulate=True
    )
    sizes = 1 + torch.bincount(segments, minlength=count)
    return sums / sizes


def default_include_self(values, segments, count):
    return torch.zeros(count, dtype=values.dtype).scatter_reduce(
        0, segments, values, "mean"
    )


@pytest.mark.parametrize(
    "answer", [counts_from_one, counts_from_one_by_subscript, default_include_self]
)
def test_one_count_too_many_names_both_causes(answer):
    result = check("06.segment_means", answer)
    assert result.verdict.misconception == "include-self-mixed", result.message
    if answer is default_include_self:
        # the code shows which cause it is: scatter_reduce's default, named first
        assert "scatter_reduce's default include_self=True" in result.message
        assert "counts started at 1" not in result.message
        return
    assert "divides each written position's sum by one more than its count" in (
        result.message
    )
    assert "include_self=True" in result.fix and "counts started at 1" in result.fix


def test_an_old_value_mixed_into_a_max_keeps_its_words():
    from gatherlab.exercises.misconceptions import Search, explain
    from gatherlab.exercises.predict import PREDICT_VOICE
    from gatherlab.exercises.verdict import render

    write = Write("scatter_reduce", torch.full((3,), 2.0), 0, torch.tensor([0, 1]),
                  torch.tensor([1.0, 3.0]), reduce="amax", include_self=False,
                  text="scatter_reduce")  # fmt: skip
    case = Case("", True, {}, write.run().numpy(), write=write, writes_code=False)
    found = explain(Search([case]), [[2.0, 3.0, 2.0]], PREDICT_VOICE)
    assert found is not None and found.misconception == "include-self-mixed"
    words = render(found)
    assert "mixes each position's old value into the max" in words
    assert "counts started at 1" not in words


def divided_by_segments(values, segments, count):
    sums = torch.zeros(count, dtype=values.dtype).index_add_(0, segments, values)
    return sums / count


def test_sums_over_the_number_of_segments_are_named():
    result = check("06.segment_means", divided_by_segments)
    assert result.verdict.misconception == "mean-total-count", result.message
    assert "by 4, the number of segments (count), where a mean divides by the " in (
        result.message
    )


def whole_rows_by_subscript(labels, classes):
    rows = torch.zeros(len(labels), classes, dtype=torch.int64)
    rows[labels] = 1
    return rows


def whole_rows_by_index_fill(labels, classes):
    rows = torch.zeros(len(labels), classes, dtype=torch.int64)
    return rows.index_fill_(0, labels, 1)


@pytest.mark.parametrize("answer", [whole_rows_by_subscript, whole_rows_by_index_fill])
def test_whole_rows_set_by_the_labels_are_named(answer):
    result = check("06.one_hot", answer)
    assert result.verdict.misconception == "write-every-row", result.message
    assert result.message == (
        "On the visible example, whole rows were set, not one position in each row: "
        "your result is what `out[labels] = 1` gives."
    )
    assert "out[torch.arange(len(labels)), labels] = 1" in result.fix


def flat_without_offset(labels, classes):
    rows = torch.zeros(len(labels), classes, dtype=torch.int64)
    return rows.put_(labels, torch.ones_like(labels))


def flat_view_without_offset(labels, classes):
    rows = torch.zeros(len(labels), classes, dtype=torch.int64)
    rows.view(-1)[labels] = 1
    return rows


def index_unsqueezed_at_0(labels, classes):
    rows = torch.zeros(len(labels), classes, dtype=torch.int64)
    return rows.scatter_(1, labels.unsqueeze(0), 1)


@pytest.mark.parametrize(
    "answer", [flat_without_offset, flat_view_without_offset, index_unsqueezed_at_0]
)
def test_every_position_in_row_0_names_both_causes(answer):
    # the value cannot tell a transposed scatter_ index from flat positions without
    # the row offset: both are named, each true of its code
    result = check("06.one_hot", answer)
    assert result.verdict.misconception == "write-index-transposed", result.message
    assert result.message == (
        "On the visible example, your result puts every position of labels into row "
        "0, as the transposed index (labels.unsqueeze(0)) or flat positions without "
        "a row offset (put_, view(-1)) do."
    )
    assert "flat positions i * 4 + labels[i]" in result.fix
    flat = torch.zeros(3, 4, dtype=torch.int64)
    flat.put_(torch.arange(3) * 4 + torch.tensor([2, 0, 2]), torch.ones(3).long())
    assert flat.tolist() == [[0, 0, 1, 0], [1, 0, 0, 0], [0, 0, 1, 0]]


# --- a result's dtype made by the learner's own final conversion ---------------------


def one_hot_as_floats(labels, classes):
    return (torch.arange(classes) == labels[:, None]).float()


def one_hot_to_float32(labels, classes):
    rows = torch.zeros(len(labels), classes, dtype=torch.int64)
    return rows.scatter_(1, labels.unsqueeze(1), 1).to(torch.float32)


def sums_as_float32(losses, labels, classes):
    sums = torch.zeros(classes, dtype=losses.dtype).index_add_(0, labels, losses)
    return sums.float()


def columns_as_floats(x, columns):
    return x.gather(1, columns).float()


@pytest.mark.parametrize(
    "exercise, answer, call, fix",
    [
        ("06.one_hot", one_hot_as_floats, ".float()", ".long()"),
        ("06.one_hot", one_hot_to_float32, ".to(torch.float32)", ".long()"),
        ("06.class_loss_sums", sums_as_float32, ".float()", ".double()"),
        ("01.pick_columns", columns_as_floats, ".float()", ".long()"),
    ],
    ids=["comparison-float", "to-float32", "sums-float", "gather-float"],
)
def test_a_final_conversion_is_named_as_the_dtype_s_maker(exercise, answer, call, fix):
    result = check(exercise, answer)
    assert result.verdict.template == "differ.dtype_cast", result.message
    assert f": your final `{call}` converts it to float32." in result.message
    assert f"(`{fix}`)" in result.fix


def test_a_conversion_that_did_not_make_the_result_is_not_named():
    def float_buffers(values, segments, count):
        sums = torch.zeros(count).index_add_(0, segments, values.float())
        sizes = torch.zeros(count).index_add_(0, segments, torch.ones(len(values)))
        return sums / sizes.clamp(min=1)

    result = check("06.segment_means", float_buffers)
    assert result.verdict.template != "differ.dtype_cast", result.message
    assert "torch.zeros" in result.message


# --- a value repeated in a scatter's index, predicted to raise ------------------------


def test_a_repeated_index_value_writing_apart_is_said_to_be_allowed():
    result = check("06.predict_scatter_rows", "raises")
    assert result.message.startswith(
        "It does not raise: scatter_ loops over the entries of index, shape (1, 3), "
        "not over the output's (2, 3): an index smaller than the output breaks no "
        "rule, nor a repeated value: each entry writes its own place, out[1, 0], "
        "out[0, 1], out[1, 2]."
    ), result.message


@pytest.mark.parametrize(
    "op, dim, index, places",
    [
        ("scatter_add", 1, [[2, 2], [0, 0]], "out[0, 2], out[1, 0]"),
        (
            "scatter",
            0,
            [[1, 1, 0], [0, 0, 1]],
            "out[1, 0], out[1, 1], out[0, 2], out[0, 0], out[0, 1], out[1, 2]",
        ),
    ],
    ids=["scatter_add-repeat-apart", "scatter-rows"],
)
def test_own_repeats_written_apart_name_each_place(op, dim, index, places):
    from gatherlab.exercises.predict import runs_because
    from gatherlab.exercises.verdict import render

    base = torch.zeros(2, 3)
    ix = torch.tensor(index)
    write = Write(op, base, dim, ix, torch.ones(ix.shape), text=f"{op}_")
    said = render(runs_because(None, base, write))
    if op == "scatter_add":  # [[2, 2], [0, 0]] along dim 1 writes out[0, 2] twice
        assert "allows a repeated position" in said, said
    else:
        assert f"each entry writes its own place, {places}, none of them twice" in said


# --- a float32 made by torch.eye / ones / empty without a dtype ----------------------


def one_hot_by_eye(labels, classes):
    return torch.eye(classes)[labels]


def one_hot_into_ones(labels, classes):
    rows = torch.ones(len(labels), classes) - 1
    return rows.scatter_(1, labels.unsqueeze(1), 1)


def one_hot_into_empty(labels, classes):
    rows = torch.empty(len(labels), classes).fill_(0)
    return rows.scatter_(1, labels.unsqueeze(1), 1)


@pytest.mark.parametrize(
    "answer, call",
    [
        (one_hot_by_eye, "torch.eye"),
        (one_hot_into_ones, "torch.ones"),
        (one_hot_into_empty, "torch.empty"),
    ],
    ids=["eye", "ones", "empty"],
)
def test_a_torch_op_s_default_float32_is_named(answer, call):
    result = check("06.one_hot", answer)
    assert result.verdict.template == "differ.dtype_default_torch", result.message
    assert result.message == (
        "On the visible example, your result has dtype float32, not int64, "
        "F.one_hot's dtype for integer labels: "
        f"{call} makes float32 unless given a dtype, and your call gave none."
    )
    assert torch.eye(2).dtype == torch.ones(1).dtype == torch.float32


@pytest.mark.parametrize(
    "exercise, answer",
    [
        (
            "06.one_hot",
            lambda labels, classes: labels[:, None] == torch.arange(classes),
        ),
        ("01.pick_columns", lambda x, columns: x.gather(1, columns) > 0),
    ],
    ids=["one-hot-comparison", "gather-comparison"],
)
def test_a_bool_result_is_told_true_false_are_not_numbers(exercise, answer):
    result = check(exercise, answer)
    assert result.verdict.template == "differ.dtype_bool", result.message
    assert "True / False, as a comparison gives them, are not the numbers due" in (
        result.message
    )
    assert "`.long()`" in result.fix

"""Ops whose output's slots the data decides, where the exercise gives the count
(issue 38, round 6): ``torch.histc`` and ``np.histogram`` without a range spread their
bins over the ids' own min..max, and ``torch.unique`` lists only the ids present (its
counts and its inverse number them 0, 1, ..., not by id). An answer that passes with
each such op given one slot per id is told that rule in the first step
(``Implement._counted_slots``). The collected mistake (sacmehta/ESPNet#85: histc for
the sizes of 06.segment_means) and our own variants on other exercises and spellings.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from gatherlab.exercises import check


def histc_sizes(values, segments, count):  # the collected mistake
    sums = torch.zeros(count, dtype=values.dtype).index_add_(0, segments, values)
    sizes = torch.histc(segments.to(values.dtype), bins=count)
    return sums / sizes.clamp(min=1)


def histc_method_sizes(values, segments, count):
    sums = torch.zeros(count, dtype=values.dtype).index_add_(0, segments, values)
    sizes = segments.float().histc(count)  # the method, float32 like the values
    return sums / sizes.clamp(min=1)


def numpy_histogram_sums(losses, labels, classes):
    sums, _ = np.histogram(labels.numpy(), bins=classes, weights=losses.numpy())
    return torch.from_numpy(sums)


def numpy_histogram_means(values, segments, count):
    sums, _ = np.histogram(segments.numpy(), bins=count, weights=values.numpy())
    sizes, _ = np.histogram(segments.numpy(), bins=count)
    return torch.from_numpy(sums / np.maximum(sizes, 1)).to(values.dtype)


@pytest.mark.parametrize(
    "exercise, answer, call, span",
    [
        (
            "06.segment_means",
            histc_sizes,
            "torch.histc",
            "spreads its bins over the ids' min..max, 0 to 2, not one bin per id 0..3",
        ),
        (
            "06.segment_means",
            histc_method_sizes,
            "torch.histc",
            "spreads its bins over the ids' min..max, 0 to 2, not one bin per id 0..3",
        ),
        (
            "06.class_loss_sums",
            numpy_histogram_sums,
            "np.histogram",
            "spreads its bins over the ids' min..max, 0 to 1, not one bin per id 0..2",
        ),
        (
            "06.segment_means",
            numpy_histogram_means,
            "np.histogram",
            "spreads its bins over the ids' min..max, 0 to 2, not one bin per id 0..3",
        ),
    ],
    ids=["histc-collected", "histc-method", "histogram-weights", "histogram-means"],
)
def test_bins_over_the_data_range_are_named_first(exercise, answer, call, span):
    result = check(exercise, answer)
    assert result.verdict.template == "implement.slots_range", result.message
    assert result.message == f"On the visible example, {call} without a range {span}."
    given = "range=(0, " if call.startswith("np.") else "min=0, max="
    assert "minlength=" in result.fix and given in result.fix


def test_the_ranges_said_are_the_ops_own():
    # torch.histc widens a one-value range by 1 each way, np.histogram by 0.5: the
    # words say the range the op used, checked against the op's bin edges
    ids = torch.tensor([1.0, 1.0, 1.0])
    assert torch.histc(ids, bins=2).tolist() == [0.0, 3.0]  # bins over 0..2
    assert np.histogram(ids.numpy(), bins=2)[1].tolist() == [0.5, 1.0, 1.5]
    # with min=0 and max=bins each bin is one id, as the fix says
    right = torch.histc(torch.tensor([0.0, 2.0, 0.0, 2.0]), bins=4, min=0, max=4)
    assert right.tolist() == [2.0, 0.0, 2.0, 0.0]


def unique_counts(values, segments, count):
    sums = torch.zeros(count, dtype=values.dtype).index_add_(0, segments, values)
    _, sizes = torch.unique(segments, return_counts=True)
    return sums / sizes.clamp(min=1)


def unique_inverse_sums(losses, labels, classes):
    _, slot = torch.unique(labels, return_inverse=True)
    return torch.zeros(classes, dtype=losses.dtype).index_add_(0, slot, losses)


def unique_inverse_one_hot(labels, classes):
    _, slot = labels.unique(return_inverse=True)
    rows = torch.zeros(len(labels), classes, dtype=torch.int64)
    return rows.scatter_(1, slot.unsqueeze(1), 1)


@pytest.mark.parametrize(
    "exercise, answer, what",
    [
        (
            "06.segment_means",
            unique_counts,
            "count k belongs to the k-th of them, not to id k",
        ),
        (
            "06.class_loss_sums",
            unique_inverse_sums,
            "return_inverse numbers them 0, 1, ..., not by the ids themselves",
        ),
        (
            "06.one_hot",
            unique_inverse_one_hot,
            "return_inverse numbers them 0, 1, ..., not by the ids themselves",
        ),
    ],
    ids=["counts", "inverse-sums", "inverse-one-hot"],
)
def test_unique_taken_for_every_id_is_named_first(exercise, answer, what):
    result = check(exercise, answer)
    assert result.verdict.template == "implement.slots_present", result.message
    assert "torch.unique lists only the ids present (" in result.message
    assert f"in sorted order: {what}, and an absent id has no slot." in result.message
    assert "bincount(" in result.fix


def test_the_ids_present_are_the_cases():
    # the visible example of 06.segment_means has segments 0 and 2 of 4
    result = check("06.segment_means", unique_counts)
    assert "(0, 2 here)" in result.message
    assert result.message.startswith("On the visible example")


def right_histc(values, segments, count):
    sums = torch.zeros(count, dtype=values.dtype).index_add_(0, segments, values)
    sizes = torch.histc(segments.to(values.dtype), bins=count, min=0, max=count)
    return sums / sizes.clamp(min=1)


def right_unique(values, segments, count):
    sums = torch.zeros(count, dtype=values.dtype).index_add_(0, segments, values)
    ids, sizes = segments.unique(return_counts=True)
    out = torch.zeros(count, dtype=values.dtype)
    out[ids] = sums[ids] / sizes
    return out


def histc_and_another_mistake(values, segments, count):
    sums = torch.zeros(count, dtype=values.dtype).index_add_(0, segments, values)
    sizes = torch.histc(segments.to(values.dtype), bins=count)
    return sums / sizes.clamp(min=1) + 1  # wrong even with the bins as ids


@pytest.mark.parametrize("answer", [right_histc, right_unique])
def test_the_ops_used_rightly_pass(answer):
    assert check("06.segment_means", answer).passed


def test_a_second_mistake_keeps_the_rule_unsaid():
    result = check("06.segment_means", histc_and_another_mistake)
    assert not result.passed
    assert result.verdict.template != "implement.slots_range"


def test_unique_lists_only_the_ids_present_and_bincount_every_id():
    # the facts the words state, in torch 2.13
    ids = torch.tensor([3, 0, 3])
    values, inverse, counts = torch.unique(ids, return_inverse=True, return_counts=True)
    assert values.tolist() == [0, 3] and counts.tolist() == [1, 2]
    assert inverse.tolist() == [1, 0, 1]  # numbered 0, 1, ..., not by id
    assert torch.bincount(ids, minlength=5).tolist() == [1, 0, 0, 2, 0]


# --- a library's NotImplementedError is an error of the answer, not the stub ---------


def histc_of_int_ids(values, segments, count):
    sums = torch.zeros(count, dtype=values.dtype).index_add_(0, segments, values)
    sizes = torch.histc(segments, bins=count, min=0, max=count)  # int64 ids
    return sums / sizes.clamp(min=1)


def bincount_of_float_ids(losses, labels, classes):
    return torch.bincount(labels.to(losses.dtype), minlength=classes)


def bincount_of_rows(labels, classes):
    counts = torch.bincount(labels.unsqueeze(0), minlength=classes)
    return torch.zeros(len(labels), classes, dtype=torch.int64) + counts


@pytest.mark.parametrize(
    "exercise, answer, error, rule",
    [
        (
            "06.segment_means",
            histc_of_int_ids,
            "NotImplementedError",
            "torch.histc has no kernel for Long values: it bins floating-point values",
        ),
        (
            "06.class_loss_sums",
            bincount_of_float_ids,
            "NotImplementedError",
            "torch.bincount has no kernel for Float values: it counts integer ids",
        ),
        (
            "06.one_hot",
            bincount_of_rows,
            "RuntimeError",
            "torch.bincount counts the ids of a 1-D tensor of integers 0 or more",
        ),
    ],
    ids=["histc-long", "bincount-float", "bincount-2d"],
)
def test_a_count_op_refusing_a_dtype_is_explained(exercise, answer, error, rule):
    result = check(exercise, answer)
    assert result.status == "not yet"  # attempted: not "replace the stub"
    assert result.message.startswith(
        f"On the visible example, your function raised {error}. {rule}"
    )


def test_the_stub_is_still_not_attempted():
    def stub(values, segments, count):
        raise NotImplementedError

    assert check("06.segment_means", stub).status == "not attempted yet"


def test_the_range_noted_is_the_one_the_op_used():
    from gatherlab.exercises.patching import Inferred, counting_slots

    found: list[Inferred] = []
    with counting_slots(found, 3):
        counts = torch.histc(torch.tensor([1.0, 1.0]), bins=3)
        sums, _ = np.histogram(np.array([1, 1]), bins=3)
    assert counts.tolist() == [0.0, 2.0, 0.0] and sums.tolist() == [0, 2, 0]
    assert [(f.call, f.low, f.high) for f in found] == [
        ("torch.histc", 0.0, 2.0),  # torch widens one value by 1 each way
        ("np.histogram", 0.5, 1.5),  # NumPy by 0.5
    ]


# --- the ids present enumerated as if every id were there ----------------------------


def rank_as_column(labels, classes):
    rows = torch.zeros(len(labels), classes, dtype=torch.int64)
    for k, c in enumerate(torch.unique(labels)):
        rows[:, k] += (labels == c).long()
    return rows


def rank_as_class(losses, labels, classes):
    sums = torch.zeros(classes, dtype=losses.dtype)
    for k, c in enumerate(labels.unique()):
        sums[k] = losses[labels == c].sum()
    return sums


def rank_as_segment(values, segments, count):
    sums = torch.zeros(count, dtype=values.dtype)
    sizes = torch.zeros(count, dtype=values.dtype)
    for k, s in enumerate(segments.unique()):
        sums[k] = values[segments == s].sum()
        sizes[k] = (segments == s).sum()
    return sums / sizes.clamp(min=1)


@pytest.mark.parametrize(
    "exercise, answer",
    [
        ("06.one_hot", rank_as_column),
        ("06.class_loss_sums", rank_as_class),
        ("06.segment_means", rank_as_segment),
    ],
    ids=["one-hot", "class-sums", "segment-means"],
)
def test_an_id_s_rank_among_the_present_ids_is_named(exercise, answer):
    result = check(exercise, answer)
    assert result.verdict.template == "implement.slots_present", result.message
    assert "in sorted order: entry k of it is the k-th present id, not id k" in (
        result.message
    )


def test_a_count_of_the_present_ids_keeps_its_sized_words():
    def sized_by_present(values, segments, count):
        n = len(segments.unique())
        sums = torch.zeros(n, dtype=values.dtype).index_add_(0, segments, values)
        return sums

    result = check("06.segment_means", sized_by_present)
    assert result.verdict.template == "implement.raised_sized", result.message


def test_a_short_mean_with_nan_names_both():
    def two_bincounts(values, segments, count):
        return torch.bincount(segments, weights=values) / torch.bincount(segments)

    result = check("06.segment_means", two_bincounts)
    assert result.verdict.misconception == "short-count", result.message
    assert "bincount without minlength ends at the largest id, 2; and an empty " in (
        result.message
    )
    assert "0 / 0 = nan" in result.message


# One entry per id present, made without torch.unique's counts or inverse: a loop over
# the ids present, a dict of the ids seen. Named present-ids-only where an id below
# the largest is missing (misconceptions' writes.py); our own variants beside the
# collected one (a loop of masked means over segments.unique()).
def present_loop_means(values, segments, count):  # the collected form
    return torch.stack([values[segments == g].mean() for g in torch.unique(segments)])


def present_dict_sums(losses, labels, classes):
    sums = {}
    for label, loss in zip(labels.tolist(), losses.tolist(), strict=True):
        sums[label] = sums.get(label, 0.0) + loss
    return torch.tensor([sums[k] for k in sorted(sums)], dtype=losses.dtype)


@pytest.mark.parametrize(
    ("exercise_id", "answer"),
    [
        ("06.segment_means", present_loop_means),
        ("06.class_loss_sums", present_dict_sums),
    ],
)
def test_one_entry_per_id_present_is_told_ids_are_slot_numbers(exercise_id, answer):
    result = check(exercise_id, answer)
    assert not result.passed
    assert result.verdict.misconception == "present-ids-only", result.message
    assert "one per id present (" in result.message
    assert "ids are slot numbers" in result.message

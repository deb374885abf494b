"""The writing-op family of the misconception model (``gatherlab/exercises/writes.py``).

Each chapter-6 exercise names the ``Write`` behind its value; the family's mistakes are
defined on that write, once, and must name what a learner's wrong write did.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from gatherlab._arrays import to_numpy
from gatherlab.exercises import EXERCISES, Fix, Implement, Predict, check
from gatherlab.exercises.misconceptions import LIBRARY, Search, equal
from gatherlab.exercises.writes import Write

WRITING = [i for i, e in EXERCISES.items() if getattr(e, "write", None) is not None]
FAMILY = {
    "write-other-dim",
    "read-instead-of-write",
    "write-off-by-one",
    "write-index-transposed",
    "write-every-row",
    "kept-one-write",
    "accumulated-repeats",
    "include-self-dropped",
    "include-self-mixed",
    "mean-without-count",
    "mean-empty-nan",
    "mean-total-count",
    "short-count",
    "write-lost",
}


def test_every_chapter_6_exercise_names_its_write_and_the_family_is_registered():
    assert WRITING == [i for i in EXERCISES if i.startswith("06.")]
    assert len(WRITING) == 8
    assert FAMILY <= {m.id for m in LIBRARY}


@pytest.mark.parametrize("exercise_id", WRITING)
def test_the_write_computes_the_exercises_value_on_every_case(exercise_id):
    exercise = EXERCISES[exercise_id]
    for case in exercise.search.cases:
        if not isinstance(case.expected, np.ndarray):
            continue  # an invalid case: its expected outcome is an error
        assert isinstance(case.write, Write)
        assert equal(to_numpy(case.write.run()), case.expected), case.name


@pytest.mark.parametrize("exercise_id", WRITING)
def test_no_exercise_lists_a_mistake_the_family_names(exercise_id):
    exercise = EXERCISES[exercise_id]
    if not isinstance(exercise, Predict):
        return
    search = Search(exercise.search.cases)
    for wrong in exercise.mistakes.values():
        found = search.matching([np.asarray(wrong)])
        assert found is None or not set(found.id.split("+")) & FAMILY, found.id


def _one_hot(index_of, dim=1):
    def answer(labels, classes):
        rows = torch.zeros(len(labels), classes, dtype=torch.int64)
        return rows.scatter_(dim, index_of(labels), 1)

    return answer


def _every_row(labels, classes):
    rows = torch.zeros(len(labels), classes, dtype=torch.int64)
    rows[:, labels] = 1
    return rows


def _assigned(losses, labels, classes):
    sums = torch.zeros(classes, dtype=losses.dtype)
    sums[labels] = losses
    return sums


def _bincount(losses, labels, classes):
    return torch.bincount(labels, weights=losses)


def _averaged(include_self):
    def answer(losses, labels, classes):
        sums = torch.zeros(classes, dtype=losses.dtype)
        return sums.scatter_reduce(0, labels, losses, "mean", include_self=include_self)

    return answer


def _mean(divide):
    def answer(values, segments, count):
        sums = torch.zeros(count, dtype=values.dtype).index_add_(0, segments, values)
        ones = torch.ones_like(values)
        sizes = torch.zeros(count, dtype=values.dtype).index_add_(0, segments, ones)
        return divide(sums, sizes, values)

    return answer


def _plus_equals_mean(values, segments, count):
    # pytorch#59511's `+=` through an index, for the sums and the sizes alike
    sums = torch.zeros(count, dtype=values.dtype)
    sums[segments] += values
    sizes = torch.zeros(count, dtype=values.dtype)
    sizes[segments] += 1
    return sums / sizes.clamp(min=1)


def _dropped_result(losses, labels, classes):
    sums = torch.zeros(classes, dtype=losses.dtype)
    sums.index_add(0, labels, losses)  # out of place: its result is dropped
    return sums


def _default_mean(values, segments, count):
    zeros = torch.zeros(count, dtype=values.dtype)
    return zeros.scatter_reduce(0, segments, values, "mean")


NAMED = [
    ("06.one_hot", _one_hot(lambda labels: labels.unsqueeze(1), 0), "write-other-dim"),
    (
        "06.one_hot",
        _one_hot(lambda labels: labels.unsqueeze(0)),
        "write-index-transposed",
    ),
    (
        "06.one_hot",
        _one_hot(lambda labels: (labels + 1).unsqueeze(1)),
        "write-off-by-one",
    ),
    ("06.one_hot", _every_row, "write-every-row"),
    ("06.class_loss_sums", _assigned, "kept-one-write"),
    ("06.class_loss_sums", _bincount, "short-count"),
    ("06.class_loss_sums", _averaged(True), "mean-instead-of-sum"),
    ("06.class_loss_sums", _averaged(False), "mean-instead-of-sum"),
    ("06.segment_means", _default_mean, "include-self-mixed"),
    ("06.segment_means", _plus_equals_mean, "kept-one-write"),
    ("06.class_loss_sums", _dropped_result, "write-lost"),
    ("06.predict_scatter_nd", [0, 0, 0, 0], "write-lost"),
    ("06.segment_means", _mean(lambda s, n, v: s), "mean-without-count"),
    ("06.segment_means", _mean(lambda s, n, v: s / n), "mean-empty-nan"),
    ("06.segment_means", _mean(lambda s, n, v: s / len(v)), "mean-total-count"),
    ("06.predict_scatter_rows", [[8, 9, 0], [0, 0, 0]], "write-other-dim"),
    ("06.predict_repeated_plus_equals", [3, 0, 1], "accumulated-repeats"),
    ("06.predict_include_self", [3.0, 5.0, 7.0], "include-self-dropped"),
    ("06.predict_scatter_nd", [0, 6, 0, 7], "kept-one-write"),
    ("06.predict_scatter_nd", [0, 5, 0, 7], "kept-one-write"),
]


@pytest.mark.parametrize(("exercise_id", "answer", "named"), NAMED)
def test_a_wrong_write_gets_its_misconception_named(exercise_id, answer, named):
    result = check(exercise_id, answer)
    assert not result.passed
    assert result.verdict is not None and result.verdict.misconception == named
    assert len(result.words) < 400, result.words


def _flat_one_hot(shift):
    def answer(labels, classes):
        rows = torch.zeros(len(labels), classes, dtype=torch.int64)
        flat = torch.arange(len(labels)) * classes + labels + shift
        rows.view(-1)[flat] = 1  # past a row's end, into the next row
        return rows

    return answer


def _widest_label(labels, classes):
    rows = torch.zeros(len(labels), int(labels.max()) + 1, dtype=torch.int64)
    return rows.scatter_(1, labels.unsqueeze(1), 1)


def test_a_write_one_past_through_a_flat_view_spills_into_the_next_row():
    result = check("06.one_hot", _flat_one_hot(1))
    assert result.verdict is not None
    assert result.verdict.misconception == "write-off-by-one"
    assert "one position past the one labels names" in result.words
    assert "it lands in the next row" in result.words
    # within the row, where the last column's + 1 raises, the words say so
    raised = check("06.one_hot", _one_hot(lambda labels: (labels + 1).unsqueeze(1)))
    assert "raises where that runs off the end" in raised.words


def test_a_count_as_wide_as_the_largest_position_is_named_without_blaming_bincount():
    for exercise_id, answer in (
        ("06.one_hot", _widest_label),
        ("06.class_loss_sums", _bincount),
    ):
        result = check(exercise_id, answer)
        assert result.verdict is not None
        assert result.verdict.misconception == "short-count", result.words
        assert "`labels.max() + 1`" in result.words
        assert "stops at the largest value unless" not in result.words
        assert "torch.bincount stops" not in result.words
    # the visible one-hot has 4 classes and its largest label is 2
    message = check("06.one_hot", _widest_label).message
    assert "3 entries along dim 1, not 4: labels.max()+1" in message


def test_a_read_by_the_write_positions_is_named_in_the_fix():
    exercise = EXERCISES["06.fix_write_as_read"]
    assert isinstance(exercise, Fix)
    result = check(exercise.id, exercise.broken.index)  # the destinations, unchanged
    assert result.verdict is not None
    assert result.verdict.misconception == "read-instead-of-write"
    assert "argsort" in result.words


def test_the_message_quotes_the_learners_own_values():
    message = check("06.class_loss_sums", _assigned).message
    # visible example: losses [0.5, 1.25, 2.0, 0.25] of classes [1, 0, 1, 1]
    assert "out[1] is 0.25" in message and "0.5 + 2 + 0.25 = 2.75" in message


def test_a_mean_where_the_values_add_up_quotes_the_learners_mean():
    message = check("06.class_loss_sums", _averaged(False)).words
    # visible example: losses [0.5, 1.25, 2.0, 0.25] of classes [1, 0, 1, 1]
    assert "out[1] is 0.9167" in message
    assert "0.9167 is the mean of 0.5, 2, 0.25" in message
    assert "should be 2.75" in message


def test_an_error_on_the_visible_example_is_not_taken_for_a_wrong_write():
    # an index of the wrong rank raises on every case, as labels - 1 does wherever a
    # label is 0: only the error's own words are shown, no misconception is guessed
    exercise = EXERCISES["06.one_hot"]
    assert isinstance(exercise, Implement)
    for answer in (
        _one_hot(lambda labels: labels),
        _one_hot(lambda labels: labels.unsqueeze(1) - 1),
    ):
        result = check(exercise.id, answer)
        assert result.verdict is not None and result.verdict.misconception is None
        assert "raised RuntimeError" in result.words


def test_a_raises_prediction_is_told_the_rule_the_write_satisfies():
    # onnx#4548: repeated scatter_nd indices believed to be an error
    result = check("06.predict_scatter_nd", "it raises")
    assert "allows a repeated position" in result.words
    assert "out[1] gets 5 + 6" in result.words
    assert "within 0..3" in result.fix


def test_an_error_of_any_op_is_explained_by_the_error_table():
    # uzh-rpg/rpg_e2vid#5's float index given to index_add_: the rule and the fix,
    # torch's own words only as a quoted detail
    def float_index(losses, labels, classes):
        sums = torch.zeros(classes, dtype=losses.dtype)
        return sums.index_add_(0, labels.float(), losses)

    result = check("06.class_loss_sums", float_index)
    assert result.verdict.template == "implement.raised_explained"
    assert "Convert with index.long()" in result.words
    assert "index_add_(): Expected dtype" not in result.words
    assert result.details[-1] == (
        "The library said: RuntimeError: index_add_(): Expected dtype int32/int64 "
        "for index but got: Float"
    )


def test_an_answer_stopped_by_an_error_is_judged_past_it_too():
    # a float index and the wrong dim: the error, then what the write does once the
    # index is int64
    def two_slips(labels, classes):
        rows = torch.zeros(labels.shape[0], classes, dtype=torch.int64)
        return rows.scatter_(0, labels.float().unsqueeze(1), 1)

    result = check("06.one_hot", two_slips)
    assert result.verdict.template == "repaired"
    assert result.verdict.misconception == "write-other-dim"
    assert "index has dtype float32" in result.words
    assert "With that repaired, another step is wrong too." in result.words
    assert result.fix == "Write with dim=1."


def test_an_answer_whose_one_mistake_is_its_error_gets_no_second():
    def float_labels(labels, classes):
        rows = torch.zeros(labels.shape[0], classes, dtype=torch.int64)
        return rows.scatter_(1, labels.float().unsqueeze(1), 1)

    result = check("06.one_hot", float_labels)
    assert result.verdict.template == "implement.raised_rule"
    assert result.verdict.misconception is None


def _added_into_a_read(losses, labels, classes):
    sums = torch.zeros(classes, dtype=losses.dtype)
    sums[labels].add_(losses)  # a tensor index reads a copy: add_ changes the copy
    return sums


def _scatter_add_dropped(values, segments, count):
    sums = torch.zeros(count, dtype=values.dtype)
    sums.scatter_add(0, segments, values)  # out of place, its result dropped
    return sums / torch.bincount(segments, minlength=count).clamp(min=1)


def _written_through_two_indexings(labels, classes):
    rows = torch.zeros(len(labels), classes, dtype=torch.int64)
    rows[torch.arange(len(labels))][:, labels] = 1
    return rows


@pytest.mark.parametrize(
    ("exercise_id", "answer", "where"),
    [
        ("06.class_loss_sums", _dropped_result, "`index_add` (no `_`) returns"),
        ("06.class_loss_sums", _added_into_a_read, "`x[idx]` with a tensor index"),
        ("06.segment_means", _scatter_add_dropped, "`scatter_add` (no `_`) returns"),
        ("06.one_hot", _written_through_two_indexings, "`x[idx]` with a tensor index"),
    ],
)
def test_a_lost_write_is_told_where_it_went(exercise_id, answer, where):
    # the op the function called decides it: an out-of-place form called (the
    # exercise's or another) dropped its result; none called, the write went into a copy
    result = check(exercise_id, answer)
    assert result.verdict.misconception == "write-lost"
    assert where in result.message
    assert ("went into a copy" in result.message) == ("tensor index" in where)


@pytest.mark.parametrize(
    ("exercise_id", "code"),
    [
        # the inverse permutation written through a tensor index with an in-place op
        (
            "06.fix_write_as_read",
            "fixed_index = torch.zeros_like(destination)\n"
            "fixed_index[destination].copy_(torch.arange(len(destination)))\n",
        ),
        # the out-of-place scatter's result dropped: the index stays the zeros too
        (
            "06.fix_write_as_read",
            "fixed_index = torch.zeros_like(destination)\n"
            "fixed_index.scatter(0, destination, torch.arange(len(destination)))\n",
        ),
        # our own: one label per row filled into a column through a tensor index
        (
            "04.fix_label_axis",
            "fixed_index = torch.zeros(len(targets), 1, dtype=torch.int64)\n"
            "fixed_index[torch.arange(len(targets))].add_(targets.unsqueeze(1))\n",
        ),
    ],
)
def test_an_index_no_write_reached_is_told_so(exercise_id, code):
    from gatherlab.exercises.page import fix_names

    names = {"torch": torch, **fix_names(EXERCISES[exercise_id])}
    exec(code, names)
    result = check(exercise_id, names["fixed_index"])
    assert result.verdict.template == "fix.index_all_zeros"
    assert "holds only 0s: no write reached it" in result.message
    # both causes named, since the index's value cannot tell them apart
    both = "`x[idx]` with a tensor index is a copy, and an out-of-place op"
    assert both in result.message
    # the fact: an in-place op on x[idx] with a tensor index changes a copy
    x = torch.zeros(3, dtype=torch.int64)
    x[torch.tensor([0, 2])].add_(5)
    assert x.tolist() == [0, 0, 0]

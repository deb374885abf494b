"""Chapter 6's torch writes: the rule an answer broke, named in the first step
(issue 38, round 7). Own variants on several exercises and ops for each class,
beside the collected answers of tests/data/real_mistakes.json:

- a forbidden op's answer is checked again with the ban lifted; a mistake it makes
  even so comes first, the ban after it (``implement._refused``);
- torch's and NumPy's sizing ops (F.one_hot's num_classes, bincount's minlength) size
  a result from the ids where the count is left out or wrong (``sizing.sized_by_op``);
- scatter_reduce's and index_reduce_'s default include_self=True, named first where
  a mean counted each old 0 (``implement._include_self_first``);
- a repeated position kept as one write is told the one overwriting op the answer used
  (``implement._kept_by_own_op``);
- np.bincount's float64 sums, and a dim one past the last (dims counted from 1).

The page words each as the notebook does (tests/js/page_words.test.mjs) where it runs
the op.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from gatherlab import error_rules
from gatherlab.exercises import check
from tests.judged import judged as _judged

# ------------------------------------------------------------- a forbidden op's value


def test_a_forbidden_op_whose_value_is_wrong_too_is_told_that_mistake_first():
    # torch.gather is forbidden in 01.gather_loop: an off-by-one index is named first
    result = check(
        "01.gather_loop", lambda input, dim, index: torch.gather(input, dim, index + 1)
    )
    assert result.verdict.template == "implement.forbidden_also"
    assert result.verdict.misconception == "off-by-one"
    assert "positions count from 0" in result.message
    assert "also asks you not to use torch.gather" in result.fix
    # index_select in 03.select_with_gather, its positions shifted the same way
    result = check(
        "03.select_with_gather",
        lambda x, dim, positions: torch.index_select(x, dim, positions + 1),
    )
    assert result.verdict.misconception == "off-by-one"
    assert "not to use torch.index_select" in result.fix


def test_a_forbidden_op_with_the_right_value_is_told_the_ban_alone():
    for exercise_id, answer, name in (
        (
            "06.one_hot",
            lambda labels, classes: torch.nn.functional.one_hot(labels, classes),
            "torch.nn.functional.one_hot",
        ),
        # the lifted check's "not built with gather" is the ban's own point
        (
            "03.select_with_gather",
            lambda x, dim, positions: torch.index_select(x, dim, positions),
            "torch.index_select",
        ),
    ):
        result = check(exercise_id, answer)
        assert result.verdict.template == "implement.forbidden", result.words
        assert f"asks you not to use {name}" in result.message
    # a dtype slip besides the ban: the slip first
    result = check(
        "06.one_hot",
        lambda labels, classes: torch.nn.functional.one_hot(labels, classes).float(),
    )
    assert result.verdict.template == "implement.forbidden_also"
    assert "`.float()` converts it to float32" in result.message


# ------------------------------------------------------------------ sizes from the ids

SIZES = [
    # (exercise, code, words the first step must hold, misconception)
    (
        "06.one_hot",  # F.one_hot without num_classes (forbidden here: named first)
        "def answer(labels, classes):\n"
        "    import torch.nn.functional as F\n"
        "    return F.one_hot(labels)\n",
        "torch.nn.functional.one_hot without num_classes takes the largest id + 1 "
        "(3 here) as its size, not classes (4 here)",
        "short-count",
    ),
    (
        "06.class_loss_sums",  # the distinct labels as num_classes, in a matmul
        "def answer(losses, labels, classes):\n"
        "    import torch.nn.functional as F\n"
        "    hot = F.one_hot(labels, len(labels.unique())).to(losses.dtype)\n"
        "    return (hot * losses[:, None]).sum(0)\n",
        "torch.nn.functional.one_hot's num_classes is the width, classes (3 here), "
        "not 2, the number of distinct ids",
        None,
    ),
    (
        "06.one_hot",  # one column too many
        "def answer(labels, classes):\n"
        "    import torch.nn.functional as F\n"
        "    return F.one_hot(labels, num_classes=classes + 1)\n",
        "not 5: classes already counts every id, so the extra column stays all 0",
        None,
    ),
    (
        "06.segment_means",  # bincount's minlength from the distinct ids
        "def answer(values, segments, count):\n"
        "    k = len(segments.unique())\n"
        "    sums = torch.bincount(segments, weights=values, minlength=k)\n"
        "    return sums / torch.bincount(segments, minlength=k).clamp(min=1)\n",
        "torch.bincount returns max(largest id + 1, minlength) counts: count (4 here) "
        "are due, but your minlength was 2, the number of distinct ids in segments",
        None,
    ),
    (
        "06.class_loss_sums",  # NumPy's bincount without minlength
        "def answer(losses, labels, classes):\n"
        "    import numpy as np\n"
        "    sums = np.bincount(labels.numpy(), weights=losses.numpy())\n"
        "    return torch.from_numpy(sums).to(losses.dtype)\n",
        "np.bincount without minlength takes the largest id + 1 (2 here) as its size",
        "short-count",
    ),
]


@pytest.mark.parametrize(("exercise_id", "code", "words", "belief"), SIZES)
def test_a_size_inferred_or_given_wrong_is_told_the_ops_rule(
    exercise_id, code, words, belief
):
    result = _judged(exercise_id, code)
    assert words in result.message, result.message
    assert result.verdict.misconception == belief
    # never a cause the code does not have
    assert "labels.max()+1 or bincount" not in result.message


def test_a_bincount_without_minlength_keeps_short_counts_words():
    # short-count's own words name bincount without minlength (and a nan after it)
    result = _judged(
        "06.segment_means",
        "def answer(values, segments, count):\n"
        "    sums = torch.bincount(segments, weights=values)\n"
        "    return sums / torch.bincount(segments)\n",
    )
    assert result.verdict.misconception == "short-count"
    assert "bincount without minlength ends at the largest id" in result.message


def test_a_one_hot_given_too_few_columns_that_raises_is_told_the_width_rule():
    result = _judged(
        "06.one_hot",
        "def answer(labels, classes):\n"
        "    import torch.nn.functional as F\n"
        "    return F.one_hot(labels, len(labels.unique()))\n",
    )
    assert result.message.startswith(
        "On the visible example, your function raised RuntimeError: "
        "torch.nn.functional.one_hot's num_classes is the width"
    )
    assert "raises (on the CPU)" in result.fix
    with pytest.raises(RuntimeError, match="smaller than num_classes"):
        torch.nn.functional.one_hot(torch.tensor([2, 0, 2]), 2)


def test_the_facts_the_size_words_rest_on():
    labels = torch.tensor([2, 0, 2])
    assert torch.nn.functional.one_hot(labels).shape == (3, 3)  # max + 1 columns
    # classes + 1 columns for 3 classes: the extra one stays all 0
    assert not torch.nn.functional.one_hot(labels, 4)[:, 3].any()
    assert torch.bincount(labels, minlength=2).shape == (3,)  # a least size
    assert torch.bincount(labels, minlength=5).shape == (5,)
    weights = np.array([0.5, 1.0, 2.0], dtype=np.float32)
    assert np.bincount(labels.numpy(), weights=weights).dtype == np.float64
    ints = np.array([1, 2, 3], dtype=np.int32)
    assert np.bincount(labels.numpy(), weights=ints).dtype == np.float64


# ------------------------------------------------------------------ include_self


@pytest.mark.parametrize(
    "code",
    [
        "def answer(values, segments, count):\n"
        "    out = torch.zeros(count, dtype=values.dtype)\n"
        "    return out.scatter_reduce_(0, segments, values, reduce='mean')\n",
        "def answer(values, segments, count):\n"
        "    out = torch.zeros(count, dtype=values.dtype)\n"
        "    return out.index_reduce_(0, segments, values, 'mean')\n",
    ],
)
def test_a_mean_that_counted_the_old_zero_names_include_self_first(code):
    result = _judged("06.segment_means", code)
    assert result.verdict.misconception == "include-self-mixed"
    assert "default include_self=True, which counts the old 0" in result.message
    assert result.fix.startswith("Pass include_self=False")


def test_counts_started_at_one_keep_both_causes():
    # no scatter_reduce: the value alone cannot tell an old 0 from a count from 1
    result = _judged(
        "06.segment_means",
        "def answer(values, segments, count):\n"
        "    sums = torch.zeros(count, dtype=values.dtype)\n"
        "    sums.index_add_(0, segments, values)\n"
        "    sizes = torch.ones(count, dtype=values.dtype)\n"
        "    sizes.index_add_(0, segments, torch.ones_like(values))\n"
        "    return sums / sizes\n",
    )
    assert "include_self=True" not in result.message
    assert result.verdict.misconception == "include-self-mixed"


def test_the_include_self_facts():
    out = torch.zeros(2).scatter_reduce(
        0, torch.tensor([0, 0]), torch.tensor([1.0, 4.0]), "mean"
    )
    assert out[0].item() == pytest.approx(5 / 3)  # (0 + 1 + 4) / 3


# ------------------------------------------------------------------ one write kept


@pytest.mark.parametrize(
    ("code", "op"),
    [
        (
            "    sums[labels] += losses\n    return sums\n",
            "as indexed assignment does",
        ),
        (
            "    return sums.index_put_((labels,), losses)\n",
            "as index_put_ without accumulate=True does",
        ),
        ("    return sums.scatter_(0, labels, losses)\n", "as scatter_ does"),
        ("    return sums.index_copy_(0, labels, losses)\n", "as index_copy_ does"),
    ],
)
def test_one_write_kept_names_the_op_the_answer_used(code, op):
    result = _judged(
        "06.class_loss_sums",
        "def answer(losses, labels, classes):\n"
        "    sums = torch.zeros(classes, dtype=losses.dtype)\n" + code,
    )
    assert result.verdict.misconception == "kept-one-write"
    assert op in result.message
    assert "scatter_ and index_put_ do" not in result.message


def test_one_write_kept_in_a_mean_names_the_assignment():
    result = _judged(
        "06.segment_means",
        "def answer(values, segments, count):\n"
        "    sums = torch.zeros(count, dtype=values.dtype)\n"
        "    sums[segments] = values\n"
        "    sizes = torch.zeros(count, dtype=values.dtype)\n"
        "    sizes.index_add_(0, segments, torch.ones_like(values))\n"
        "    return sums / sizes.clamp(min=1)\n",
    )
    assert result.verdict.misconception == "kept-one-write"
    assert "as indexed assignment does" in result.message


# ------------------------------------------------------------------ dtype, dims


def test_np_bincounts_float64_is_named():
    result = _judged(
        "06.segment_means",
        "def answer(values, segments, count):\n"
        "    import numpy as np\n"
        "    sums = np.bincount(segments.numpy(), weights=values.numpy(),"
        " minlength=count)\n"
        "    sizes = torch.bincount(segments, minlength=count).clamp(min=1)\n"
        "    return torch.from_numpy(sums) / sizes\n",
    )
    assert "np.bincount given weights returns float64" in result.message
    assert "dtype=" not in result.words  # np.bincount takes no dtype


@pytest.mark.parametrize(
    ("text", "op"),
    [
        (
            "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
            None,
        ),
        ("Expected axis in the range [-2, 2), but got 2", "tf.gather"),
        (
            "Dimension out of range (expected to be in range of [-3, 2], but got 3)",
            None,
        ),
    ],
)
def test_a_dim_one_past_the_last_says_dims_count_from_0(text, op):
    found = error_rules.explain(text, op=op)
    assert found.meaning.startswith("dims count from 0, so dim ")
    assert "one past the last" in found.meaning
    # a dim further out is not called one past the last
    other = error_rules.explain(
        "Dimension out of range (expected to be in range of [-2, 1], but got 3)"
    )
    assert "one past" not in other.meaning


def test_a_scatter_along_dim_2_of_a_table_says_dims_count_from_0():
    result = _judged(
        "06.one_hot",
        "def answer(labels, classes):\n"
        "    rows = torch.zeros(len(labels), classes, dtype=torch.int64)\n"
        "    return rows.scatter_(2, labels[:, None], 1)\n",
    )
    assert "dims count from 0, so dim 2 is one past the last, dim 1" in result.message


# ------------------------------------------------------------------ index grids


@pytest.mark.parametrize(
    "subscript",
    [
        "rows[torch.arange(len(labels)), labels.unsqueeze(1)] = 1",
        "rows[torch.arange(len(labels)).view(-1, 1), labels] = 1",
        "rows[torch.arange(len(labels))[:, None], labels[None, :]] = 1",
    ],
)
def test_index_tensors_that_broadcast_to_a_grid_are_named(subscript):
    result = _judged(
        "06.one_hot",
        "def answer(labels, classes):\n"
        "    rows = torch.zeros(len(labels), classes, dtype=torch.int64)\n"
        f"    {subscript}\n"
        "    return rows\n",
    )
    assert result.verdict.misconception == "write-every-row"
    assert "broadcast to a (3, 3) grid of positions" in (result.message)
    assert "(N,) each" in result.fix


def test_every_row_written_without_a_grid_keeps_its_words():
    result = _judged(
        "06.one_hot",
        "def answer(labels, classes):\n"
        "    rows = torch.zeros(len(labels), classes, dtype=torch.int64)\n"
        "    rows[:, labels] = 1\n"
        "    return rows\n",
    )
    assert result.verdict.misconception == "write-every-row"
    assert "grid" not in result.message


def test_the_grid_facts():
    rows = torch.zeros(3, 4, dtype=torch.int64)
    rows[torch.arange(3), torch.tensor([2, 0, 2]).unsqueeze(1)] = 1
    assert rows.sum().item() == 6  # every row at columns 2 and 0


# ------------------------------------------------------------- raised: column, NumPy


@pytest.mark.parametrize(
    ("exercise_id", "code", "shapes"),
    [
        (
            "06.class_loss_sums",
            "def answer(losses, labels, classes):\n"
            "    sums = torch.zeros(classes, dtype=losses.dtype)\n"
            "    sums[labels] = losses.view(-1, 1)\n"
            "    return sums\n",
            "Values (4, 1) do not broadcast to the (4,) positions selected",
        ),
        (
            "06.one_hot",
            "def answer(labels, classes):\n"
            "    rows = torch.zeros(len(labels), classes, dtype=torch.int64)\n"
            "    ones = torch.ones(len(labels), 1, dtype=torch.int64)\n"
            "    rows[torch.arange(len(labels)), labels] = ones\n"
            "    return rows\n",
            "Values (3, 1) do not broadcast to the (3,) positions selected",
        ),
    ],
)
def test_a_column_of_values_for_a_flat_selection_is_told_broadcasting(
    exercise_id, code, shapes
):
    result = _judged(exercise_id, code)
    assert shapes in result.message
    assert "makes a (" in result.message and "grid" in result.message
    assert "drop the trailing 1" in result.fix


@pytest.mark.parametrize("name", ["scatter_add", "index_add"])
def test_a_numpy_function_that_does_not_exist_is_told_np_add_at(name):
    result = _judged(
        "06.segment_means",
        "def answer(values, segments, count):\n"
        "    import numpy as np\n"
        f"    sums = np.{name}(segments.numpy(), values.numpy(), count)\n"
        "    return torch.from_numpy(sums)\n",
    )
    assert f"NumPy has no np.{name}: that is torch's op" in result.message
    assert "np.add.at(out, positions, values)" in result.fix
    assert not hasattr(np, name)


# ------------------------------------------------------------- one buffer, two writes


@pytest.mark.parametrize(
    ("writes", "op"),
    [
        (
            "    sums = base.scatter_add_(0, segments, values)\n"
            "    sizes = base.scatter_add_(0, segments, torch.ones_like(values))\n",
            "scatter_add_",
        ),
        (
            "    sums = base.index_put_((segments,), values, accumulate=True)\n"
            "    ones = torch.ones_like(values)\n"
            "    sizes = base.index_put_((segments,), ones, accumulate=True)\n",
            "index_put_",
        ),
        (
            "    sums = base.index_add_(0, segments, values)\n"
            "    sizes = torch.bincount(segments, minlength=count).to(values.dtype)\n"
            "    sizes = base.index_add_(0, segments, torch.ones_like(values))\n",
            "index_add_",
        ),
    ],
)
def test_two_in_place_writes_into_one_buffer_are_told_it_is_one_tensor(writes, op):
    result = _judged(
        "06.segment_means",
        "def answer(values, segments, count):\n"
        "    base = torch.zeros(count, dtype=values.dtype)\n"
        + writes
        + "    return sums / sizes.clamp(min=1)\n",
    )
    assert result.message.startswith(
        f"On the visible example, {op} writes into the tensor it is called on and "
        "returns it"
    )
    assert "its own buffer" in result.fix


def test_the_in_place_facts():
    base = torch.zeros(2)
    sums = base.index_add_(0, torch.tensor([0, 0]), torch.tensor([1.0, 4.0]))
    assert sums is base  # an in-place op returns the tensor it wrote into


# ------------------------------------------------------------- a buffer's given dtype


@pytest.mark.parametrize(
    ("exercise_id", "code", "words"),
    [
        (
            "06.one_hot",
            "def answer(labels, classes):\n"
            "    rows = torch.zeros(len(labels), classes, dtype=torch.float32)\n"
            "    return rows.scatter_(1, labels.unsqueeze(1), 1.0)\n",
            "your torch.zeros call asked for dtype=float32",
        ),
        (
            "06.class_loss_sums",
            "def answer(losses, labels, classes):\n"
            "    sums = torch.zeros(classes, dtype=torch.float64)\n"
            "    return sums.index_add_(0, labels, losses.double())\n",
            "your torch.zeros call asked for dtype=float64",
        ),
        (
            "06.one_hot",
            "def answer(labels, classes):\n"
            "    rows = torch.empty(len(labels), classes, dtype=torch.int32).fill_(0)\n"
            "    rows[torch.arange(len(labels)), labels] = 1\n"
            "    return rows\n",
            "your torch.empty call asked for dtype=int32",
        ),
    ],
)
def test_a_buffer_made_with_another_dtype_is_told_its_maker(exercise_id, code, words):
    result = _judged(exercise_id, code)
    assert words in result.message
    assert "a write keeps its buffer's dtype" in result.message


def test_a_dtype_made_after_the_write_keeps_the_general_words():
    result = _judged(
        "06.class_loss_sums",
        "def answer(losses, labels, classes):\n"
        "    sums = torch.zeros(classes, dtype=losses.dtype)\n"
        "    sums.index_add_(0, labels, losses)\n"
        "    return sums * torch.ones(classes, dtype=torch.float64)\n",
    )
    assert "asked for dtype" not in result.message


# ------------------------------------------------------------- a count cut short


@pytest.mark.parametrize(
    ("exercise_id", "code", "how"),
    [
        (
            "06.class_loss_sums",  # the largest label + 1, in a matmul
            "def answer(losses, labels, classes):\n"
            "    width = labels.max() + 1\n"
            "    table = torch.zeros(width, len(losses), dtype=losses.dtype)\n"
            "    table[labels, torch.arange(len(losses))] = 1\n"
            "    return table @ losses\n",
            "labels.max()+1 ends at the largest id",
        ),
        (
            "06.segment_means",
            "def answer(values, segments, count):\n"
            "    n = int(segments.max()) + 1\n"
            "    sums = torch.zeros(n, dtype=values.dtype)\n"
            "    sums.index_add_(0, segments, values)\n"
            "    sizes = torch.zeros(n, dtype=values.dtype)\n"
            "    sizes.index_add_(0, segments, torch.ones_like(values))\n"
            "    return sums / sizes.clamp(min=1)\n",
            "segments.max()+1 ends at the largest id",
        ),
        (
            "06.class_loss_sums",
            "def answer(losses, labels, classes):\n"
            "    return torch.bincount(labels, weights=losses)\n",
            "bincount without minlength ends at the largest id",
        ),
    ],
)
def test_a_count_cut_at_the_largest_id_names_the_answers_own_way(
    exercise_id, code, how
):
    result = _judged(exercise_id, code)
    assert result.verdict.misconception == "short-count"
    assert f": {how}" in result.message
    assert " or bincount without minlength" not in result.message


# ------------------------------------------------------------- floor division


@pytest.mark.parametrize(
    ("division", "op"),
    [
        ("sums // sizes.clamp(min=1)", "`//`"),
        ("torch.div(sums, sizes.clamp(min=1), rounding_mode='floor')", "rounding_mode"),
        ("torch.floor_divide(sums, sizes.clamp(min=1))", "torch.floor_divide"),
    ],
)
def test_a_floor_division_where_a_mean_is_due_is_named(division, op):
    result = _judged(
        "06.segment_means",
        "def answer(values, segments, count):\n"
        "    sums = torch.zeros(count, dtype=values.dtype)\n"
        "    sums.index_add_(0, segments, values)\n"
        "    sizes = torch.bincount(segments, minlength=count).to(values.dtype)\n"
        f"    return {division}\n",
    )
    assert result.message.startswith(f"On the visible example, {op}")
    assert "is floor division: it rounds each quotient down" in result.message
    assert (torch.tensor([5.0]) // 2).item() == 2.0  # floats too

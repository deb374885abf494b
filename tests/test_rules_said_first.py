"""A mistake named by its rule in the FIRST step (result.message), not by its symptom
with the rule only in the fix: a negative dim counts from the end, positions count
from 0, ``.squeeze()`` with no dim drops every size-1 dim, a read returns its index's
shape (an index expanded over dim too reads each position again), expand and repeat add
new dims only in front, flattened (group, position) rows are group by group. Own
variants on other exercises and ops than the collected mistakes (issue 38), each with
the torch fact its words state.
"""

from __future__ import annotations

import torch

from gatherlab.exercises import EXERCISES, check
from gatherlab.exercises.page import fix_names


def first_step(exercise_id: str, answer) -> tuple[str, str | None]:
    result = check(exercise_id, answer)
    assert not result.passed
    verdict = result.verdict
    return result.message, verdict.misconception if verdict else None


def test_a_negative_dim_is_told_it_counts_from_the_end_and_how_to_normalise():
    # a loop with only dim == 1 as the column formula: dim=-1 takes the row one
    def loop(input, dim, index):
        out = torch.empty(index.shape, dtype=input.dtype)
        for i in range(index.shape[0]):
            for j in range(index.shape[1]):
                p = index[i, j]
                out[i, j] = input[i, p] if dim == 1 else input[p, j]
        return out

    words, named = first_step("01.gather_loop", loop)
    assert named == "negative-dim"
    assert "-1 counts from the end (dim 1 here), so use `dim % 2`" in words
    x, index = torch.tensor([[1, 2], [3, 4]]), torch.tensor([[1, 0], [0, 0]])
    assert torch.equal(x.gather(-1, index), x.gather(1, index))
    assert -1 % 2 == 1 and -2 % 2 == 0


def test_a_position_off_by_one_is_told_positions_count_from_zero():
    rule = "positions count from 0: the last of n is at n - 1"
    # one before: positions - 1 (select_steps); one past: labels + 1 (label_scores)
    before, named = first_step(
        "02.select_steps",
        lambda f, p: torch.gather(
            f, 1, (p - 1).unsqueeze(-1).expand(-1, -1, f.shape[2])
        ),
    )
    assert named == "off-by-one" and "one position before the right one" in before
    assert rule in before.partition("\n")[0]
    past, named = first_step(
        "05.label_scores", lambda lp, labels: lp.gather(1, (labels + 1).unsqueeze(1))
    )
    assert named == "off-by-one" and rule in past
    assert torch.arange(4)[4 - 1] == 3


def test_squeeze_with_no_dim_is_told_it_drops_every_size_one_dim():
    # label_scores keeps (N, 1): .squeeze() drops dim 1, and dim 0 where N is 1
    words, named = first_step(
        "05.label_scores",
        lambda lp, labels: lp.gather(1, labels.unsqueeze(1)).squeeze(),
    )
    assert named == "dropped-axis"
    assert words.endswith(
        "not (2, 1): `.squeeze()` with no dim drops every size-1 dim, whichever the "
        "input has (here dim 1)."
    )
    assert "only on some inputs" not in words  # dim 1 is 1 on every input here
    # select_steps with one pick per sequence on a hidden case
    words, named = first_step(
        "02.select_steps",
        lambda f, p: torch.gather(
            f, 1, p.unsqueeze(-1).expand(-1, -1, f.shape[2])
        ).squeeze(),
    )
    assert named == "dropped-axis" and "drops every size-1 dim" in words
    assert torch.ones(1, 1).squeeze().shape == () and torch.ones(1, 1).squeeze(
        1
    ).shape == (1,)
    # squeeze(1) where the dim was meant: the right values without it, put back
    words, _ = first_step(
        "05.label_scores",
        lambda lp, labels: lp.gather(1, labels.unsqueeze(1)).squeeze(1),
    )
    # and why the size-1 dim matters: (2,) meets (2, 1) as a (2, 2) grid
    assert "the right values, but (2,) broadcasts against (2, 1) into (2, 2)" in words
    assert (torch.ones(2) + torch.ones(2, 1)).shape == (2, 2)


def test_an_index_expanded_over_dim_too_is_told_the_result_has_its_shape():
    # the op is named only where it is known to be the one that read
    words, named = first_step(
        "05.label_scores",
        lambda lp, labels: torch.take_along_dim(lp, labels[:, None].expand_as(lp), 1),
    )
    assert named == "expanded-as-input"
    assert words.startswith(
        "On the visible example, the result has its index's shape, one read per "
        "entry, and the index was expanded over dim 1 too, to (2, 3)."
    )
    # a fix's op is its broken call's: repeat in place of expand
    labels = fix_names(EXERCISES["03.fix_label_probabilities"])["labels"]
    words, named = first_step(
        "03.fix_label_probabilities", labels.long().unsqueeze(1).repeat(1, 3)
    )
    assert named == "expanded-as-input"
    assert "take_along_dim returns its index's shape, one read per entry" in words
    lp = torch.rand(3, 3)
    wide = labels.long().unsqueeze(1).repeat(1, 3)
    assert torch.take_along_dim(lp, wide, 1).shape == wide.shape


def test_sizes_listed_past_the_dims_are_told_expand_adds_them_in_front():
    names = fix_names(EXERCISES["02.fix_wrong_axis"])
    positions = names["positions"]
    # repeat with three sizes for a 2-D tensor, as expand with three
    words, named = first_step("02.fix_wrong_axis", positions.repeat(2, 1, 1))
    assert named == "unsqueeze-wrong-axis"
    assert words == (
        "The call runs now, but expand and repeat add new dims only in front: your "
        "call's result is what positions repeated along a new dim 0 gives, shape "
        "(2, 2, 2)."
    )
    expanded = positions.expand(2, *positions.shape)
    assert torch.equal(expanded, positions.repeat(2, 1, 1))
    assert all(torch.equal(expanded[b], positions) for b in range(2))
    # a new axis put in the middle by unsqueeze is no expand: no expand rule
    words, _ = first_step("02.fix_wrong_axis", positions.unsqueeze(1))
    assert "dim only says which axis the positions count along" in words
    assert "expand" not in words


def test_rows_of_groups_read_beam_major_are_told_the_batch_major_layout():
    names = fix_names(EXERCISES["02.fix_beam_rows"])
    flat_index, beam = names["flat_index"], names["beam"]
    batch = flat_index.shape[0] // beam
    # rows taken as beam-major for the entries too: row p is in group p % batch
    rows = torch.arange(flat_index.shape[0]).remainder(batch)
    words, named = first_step("02.fix_beam_rows", flat_index * batch + rows[:, None])
    assert named == "other-group-layout"
    assert words == (
        f"The call runs now, but your call's result is what row k * {batch} + g "
        f"gives, where states keeps each group together: row g * {beam} + k "
        "(batch-major)."
    )
    # the entries' groups right (p // beam), the rows' layout beam-major
    member = torch.arange(flat_index.shape[0]) // beam
    words, named = first_step("02.fix_beam_rows", flat_index * batch + member[:, None])
    assert named == "other-group-layout" and "row g * 3 + k (batch-major)" in words


def test_an_unexpanded_index_select_with_gather_is_told_gather_never_broadcasts():
    rule = "gather's result has its index's shape, and the index never broadcasts"

    # positions laid along dim with view, never expanded (take_along_axis broadcasts)
    def viewed(x, dim, positions):
        shape = [1] * x.dim()
        shape[dim] = -1
        return x.gather(dim, positions.view(shape))

    words, named = first_step("03.select_with_gather", viewed)
    assert named == "missing-expand" and rule in words
    assert "your result has shape (1, 2), one entry along dim 0, not 2" in words

    # expanded along the first other dim only: a 3-D case names the dim left
    def first_other_only(x, dim, positions):
        shape, sizes = [1] * x.dim(), [-1] * x.dim()
        shape[dim] = -1
        others = [d for d in range(x.dim()) if d != dim]
        if others:
            sizes[others[0]] = x.shape[others[0]]
        return x.gather(dim, positions.view(shape).expand(sizes))

    words, named = first_step("03.select_with_gather", first_other_only)
    assert named == "missing-expand" and rule in words
    assert words.startswith("On hidden case")
    x = torch.arange(6).reshape(2, 3)
    assert x.gather(1, torch.tensor([[2, 0]])).shape == (1, 2)  # no broadcast


def test_an_index_with_fewer_dims_than_gathers_input_is_told_one_element_per_entry():
    slice_rule = "gather reads one element per index entry, not a whole slice"
    # 2-D positions into 3-D features, as tf.gather(..., batch_dims=1) would take
    words, _ = first_step("02.select_steps", lambda f, p: torch.gather(f, 1, p))
    assert slice_rule in words.partition("\n")[0]
    # a fix's answer with the wanted columns as they are
    wanted = fix_names(EXERCISES["01.fix_shared_columns"])["wanted"]
    words, _ = first_step("01.fix_shared_columns", wanted)
    assert words.startswith(
        "Still broken: your index is wanted as it was, shape (2,) (.T and .t() leave "
        f"a 1-D tensor as it is): index has 1 dims but input has 2: {slice_rule}"
    )
    # more dims than the input: no slice is meant, the plain rule
    words, _ = first_step("01.fix_shared_columns", wanted.view(1, 1, -1))
    assert "index has 3 dims but input has 2: gather needs the same number" in words
    assert "slice" not in words


def test_a_length_read_with_take_along_dim_is_told_it_wraps_one_past_the_end():
    # take_along_dim wraps the length of a full sequence to position 0
    words, named = first_step(
        "02.last_valid_step",
        lambda f, lengths: torch.take_along_dim(f, lengths.view(-1, 1, 1), 1).squeeze(
            1
        ),
    )
    assert named == "off-by-one"
    assert words == (
        "On the visible example, your result reads one position past the right one "
        "(modulo the dim's size, as take_along_dim wraps it): positions count from 0: "
        "the last of n is at n - 1."
    )
    steps = torch.tensor([[[5], [6]]])
    assert torch.take_along_dim(steps, torch.tensor([[[2]]]), 1).item() == 5


def test_index_select_written_with_gather_is_told_gathers_shape_rule():
    # the positions along dim 0 of a (1, n) index whatever dim is: no misconception
    # covers every case, and the rule stated is gather's, which the answer must call
    words, _ = first_step(
        "03.select_with_gather", lambda x, dim, p: torch.gather(x, dim, p.unsqueeze(0))
    )
    assert words == (
        "On the visible example, gather returns one value per index entry, in the "
        "index's shape: your result has shape (1, 2), not (2, 2)."
    )


def test_a_check_of_equal_sizes_off_dim_is_told_the_rule_first():
    # every dim compared, dim included (my variant of ONNX's equal-size check)
    def equal_shapes(input, dim, index):
        if tuple(index.shape) != tuple(input.shape):
            raise ValueError("index must have the input's shape")
        return EXERCISES["01.gather_loop"].solution(input, dim, index)

    words, named = first_step("01.gather_loop", equal_shapes)
    assert named == "same-size-rule"
    assert "off dim, gather needs only index.size(d) <= input.size(d)" in words
    x = torch.arange(6).reshape(2, 3)
    assert x.gather(1, torch.tensor([[2]])).tolist() == [[2]]  # smaller: valid


def test_a_fixs_index_with_every_position_in_every_row_is_told_so():
    names = fix_names(EXERCISES["04.fix_label_axis"])
    targets = names["targets"]
    # repeat in place of expand: each row holds all the targets
    words, named = first_step("04.fix_label_axis", targets.repeat(len(targets), 1))
    assert named == "every-row-reads-every-position"
    read = str(targets.tolist())
    assert (
        f"each row of your index holds all of {read}, so every row reads all" in words
    )
    assert "gather reads one element per index entry, so row i needs only its own" in (
        words
    )
    # the same in take_along_dim's fix: its own op named
    labels = fix_names(EXERCISES["03.fix_label_probabilities"])["labels"]
    words, named = first_step(
        "03.fix_label_probabilities", labels.long().expand(len(labels), -1)
    )
    assert named == "every-row-reads-every-position"
    assert "take_along_dim reads one element per index entry" in words


def test_entries_grouped_by_a_tiled_count_are_told_each_group_is_together():
    names = fix_names(EXERCISES["02.fix_beam_rows"])
    flat_index, beam = names["flat_index"], names["beam"]
    rows = flat_index.shape[0]
    batch = rows // beam
    # the group of entry p taken as p % batch (my variant: a remainder, no repeat)
    member = torch.arange(rows) % batch
    words, named = first_step("02.fix_beam_rows", flat_index + (member * beam)[:, None])
    assert named == "other-group-layout"
    assert words == (
        f"The call runs now, but your call's result is what entry p in group p % "
        f"{batch} gives (as `.repeat` tiles groups), where states keeps each group "
        f"together: entry p is in group p // {beam}."
    )
    assert torch.equal(torch.arange(batch).repeat(beam), member)
    grouped = torch.arange(batch).repeat_interleave(beam)
    assert torch.equal(grouped, torch.arange(rows) // beam)


def test_a_wrong_last_step_no_misconception_names_is_told_the_read_formula():
    # the steps counted as the nonzero ones (a real step may be all zeros): no
    # misconception; the first step states what every entry must be
    def counted(features, lengths):
        real = (features.abs().sum(-1) > 0).sum(1)
        index = (real - 1).view(-1, 1, 1).expand(-1, 1, features.shape[2])
        return features.gather(1, index).squeeze(1)

    words, named = first_step("02.last_valid_step", counted)
    assert named is None
    assert words.endswith("each entry is out[i, k] = features[i, (lengths - 1)[i], k].")
    features = torch.arange(24).reshape(2, 4, 3)
    lengths = torch.tensor([4, 2])
    solution = EXERCISES["02.last_valid_step"].solution(features, lengths)
    assert all(torch.equal(solution[i], features[i, lengths[i] - 1]) for i in range(2))

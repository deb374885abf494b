"""Beliefs about subscripts and index shapes named in the first step (issue 38,
round 3): index tensors broadcast together from the right, x[a][b] is not x[a, b],
a 0-d index is one position; and a fix's float index is refused by the fix's own op.
Each class is checked on answers of my own, and each fact the words state is checked
on torch."""

from __future__ import annotations

import torch

from gatherlab.exercises import EXERCISES, Fix


def first_step(exercise_id: str, answer) -> tuple[str, str | None]:
    result = EXERCISES[exercise_id].check(answer)
    assert not result.passed, str(result)
    verdict = getattr(result, "verdict", None)
    return result.message, getattr(verdict, "misconception", None)


def test_row_numbers_without_a_trailing_dim_broadcast_from_the_right():
    # torch.arange(len(x)) spelled another way than the collected thread's
    def answer(x, columns):
        rows = torch.arange(len(x))
        return x[rows, columns]

    message, named = first_step("01.pick_columns", answer)
    assert named == "index-broadcast-right", message
    assert "index tensors broadcast from the right" in message
    assert "out[i, j] reads row j" in message
    assert len(message.split()) <= 40


def test_the_broadcast_facts_hold_on_torch():
    x = torch.tensor([[10, 11, 12], [20, 21, 22]])
    columns = torch.tensor([[2, 0], [1, 1]])
    out = x[torch.arange(2), columns]
    for i in range(2):
        for j in range(2):
            assert out[i, j] == x[j, columns[i, j]]  # row j, not row i
    fixed = x[torch.arange(2)[:, None], columns]
    assert torch.equal(fixed, torch.gather(x, 1, columns))
    try:
        x[torch.arange(2), torch.tensor([[0, 1, 2]] * 2)]
    except IndexError:
        pass
    else:  # pragma: no cover - the words say it raises
        raise AssertionError("(2,) against (2, 3) broadcast")


def test_a_chained_subscript_is_named_as_indexing_the_result_again():
    def answer(x, columns):
        rows = torch.arange(x.shape[0]).view(-1, 1)
        return x[rows][columns]

    message, named = first_step("01.pick_columns", answer)
    assert named == "chained-index", message
    assert "`x[a][b]` indexes `x[a]` again along its dim 0" in message
    # the fact: the second subscript indexes x[a] along its dim 0
    x = torch.tensor([[10, 11, 12], [20, 21, 22]])
    rows = torch.arange(2).view(-1, 1)
    columns = torch.tensor([[1], [0]])
    assert torch.equal(x[rows][columns], x[rows][columns.reshape(-1)].view(2, 1, 1, 3))
    assert torch.equal(x[rows, columns], torch.gather(x, 1, columns))


def test_a_0d_index_read_as_no_index_is_named():
    exercise = EXERCISES["04.predict_scalar_index"]
    vector = exercise.explain.input
    message, named = first_step("04.predict_scalar_index", vector.tolist())
    assert named == "zero-d-index-as-none", message
    assert 'a 0-d index is one position, not "no index"' in message
    index = exercise.explain.index
    out = torch.gather(vector, 0, index)
    assert out.shape == () and out.item() == vector[int(index)].item()
    assert f"returns one value, {out.item()}, of shape ()" in message


def test_a_near_whole_float_index_names_the_fixs_own_op():
    # every fix exercise: its broken op refuses the float index, not "gather"
    for exercise in EXERCISES.values():
        if not isinstance(exercise, Fix):
            continue
        right = torch.as_tensor(exercise.reference_answer)
        if right.is_floating_point() or right.numel() == 0:
            continue
        near = right.to(torch.float32) - 1e-5
        near[right == 0] = 1e-5
        result = exercise.check(near)
        if "just off whole numbers" not in result.message:
            continue
        op = exercise.broken.op
        assert f"{op} refuses a float index" in result.message, exercise.id
        others = {"gather", "take", "take_along_dim", "index_select"} - {op}
        assert not any(f"{o} refuses" in result.message for o in others)
    # the take exercise reaches it, and take does refuse a float index
    result = EXERCISES["03.fix_pairs_for_take"].check(torch.tensor([[1.0001, 6.9999]]))
    assert "take refuses a float index" in result.message, result.message
    try:
        torch.take(torch.arange(4), torch.tensor([1.0]))
    except (RuntimeError, IndexError):
        pass
    else:  # pragma: no cover
        raise AssertionError("take accepted a float index")


def test_an_index_read_as_a_sorted_set_is_named_for_take_too():
    # take's 2-D index read as the set of its positions, sorted, each read once
    grid = EXERCISES["03.predict_flat_positions"].explain
    flat = grid.input.reshape(-1)
    distinct = (grid.index.reshape(-1) % flat.numel()).unique()
    message, named = first_step("03.predict_flat_positions", flat[distinct].tolist())
    assert named == "index-as-set", message
    assert "take keeps its index's order and repeats" in message
    assert len(message.split()) <= 30
    # the fact: one read per entry, in the index's order, repeats included
    x = torch.tensor([[10, 11, 12], [20, 21, 22]])
    index = torch.tensor([1, 1, 0])
    out = torch.index_select(x, 0, index)
    assert out.shape == (3, 3) and torch.equal(out[0], out[1])
    assert torch.equal(out[2], x[0])
    assert torch.equal(
        torch.take(x, torch.tensor([4, 4, 0])), torch.tensor([21, 21, 10])
    )

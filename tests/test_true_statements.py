"""Statements the final judges of issue 38 found false, each fixed as a class and
checked on answers of my own besides the collected one: words about a result only on
a case with a result, advice that fixes the code when followed (run here), and a
misconception named only where its op is the exercise's."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from gatherlab import error_rules
from gatherlab.exercises import EXERCISES, Predict, check
from gatherlab.exercises.misconceptions import LIBRARY, worded_on
from gatherlab.exercises.page import payload
from gatherlab.exercises.verdict import Phrase, render

# ------------------------------------- words about a result, on a case that has one


def _lengths_as_positions(features, lengths):  # PaddlePaddle#38655
    index = lengths.view(-1, 1, 1).expand(-1, 1, features.shape[2])
    return features.gather(1, index).squeeze(1)


def _lengths_indexed(features, lengths):  # mine: the same, by advanced indexing
    return features[torch.arange(features.shape[0]), lengths]


def _rows_for_steps(features, positions):  # pytorch#50331
    return features[positions]


def _rows_for_steps_selected(features, positions):  # mine: index_select's rows
    return features.index_select(0, positions.reshape(-1)).view(
        *positions.shape, *features.shape[1:]
    )


def _case_number(name: Phrase) -> int:
    if name.template == "case.visible":
        return 0
    assert name.template == "case.hidden", name
    return int(str(name.fields["number"]))


@pytest.mark.parametrize(
    ("exercise_id", "answer"),
    [
        ("02.last_valid_step", _lengths_as_positions),
        ("02.last_valid_step", _lengths_indexed),
        ("02.select_steps", _rows_for_steps),
        ("02.select_steps", _rows_for_steps_selected),
    ],
)
def test_a_result_is_described_only_on_a_case_where_the_function_returned_one(
    exercise_id, answer
):
    exercise = EXERCISES[exercise_id]
    result = check(exercise_id, answer)
    verdict = result.verdict
    assert verdict is not None and verdict.misconception, result.words
    lead = verdict.fields["lead"]
    assert isinstance(lead, Phrase)
    number = _case_number(lead.fields["case"])  # type: ignore[arg-type]
    run = exercise._run(answer, exercise.all_cases[number].args)
    assert run.error is None  # "your result ..." there is a real result
    if lead.template == "lead.raised_then":  # the case that raised is said too
        raised = _case_number(lead.fields["raised"])  # type: ignore[arg-type]
        assert raised < number
        assert exercise._run(answer, exercise.all_cases[raised].args).error
        assert "your function raised an error" in result.message


def test_a_misconception_is_worded_on_the_first_case_it_changes_to_a_value():
    expected = [np.array([1]), np.array([2]), np.array([3])]
    from gatherlab.exercises.misconceptions import Raised

    outcomes = [Raised("IndexError"), np.array([2]), np.array([4])]
    assert worded_on(expected, outcomes) == 2  # case 1 is unchanged
    assert worded_on(expected, [Raised("IndexError")] * 3) == 0  # only errors


# ------------------------------------- one index tensor of (row, column) pairs


PAIRS_ERROR = "index 2 is out of bounds for dimension 0 with size 2"


def _stacked(x: torch.Tensor, columns: torch.Tensor) -> torch.Tensor:
    rows = torch.arange(x.shape[0])[:, None].expand_as(columns)
    return torch.stack([rows, columns], dim=-1)


def test_one_index_tensor_of_pairs_is_named_and_its_split_reads_each_pair():
    x = torch.arange(6).view(2, 3)
    columns = torch.tensor([[2, 0], [1, 1]])
    pairs = _stacked(x, columns)
    with pytest.raises(IndexError, match="out of bounds for dimension 0"):
        x[pairs]
    found = error_rules.explain(
        PAIRS_ERROR, shapes={"input": (2, 3), "index": tuple(pairs.shape)}
    )
    assert "indexes dim 0 only" in found.meaning
    assert "swap" not in found.fix and "check their order" not in found.meaning
    # the advice, followed: each pair read at its own (row, column)
    assert torch.equal(x[pairs[..., 0], pairs[..., 1]], x.gather(1, columns))
    assert torch.equal(x[tuple(pairs.unbind(-1))], x.gather(1, columns))
    # three dims: triples, one tensor, dim 0 again
    y = torch.arange(24).view(2, 3, 4)
    triples = torch.tensor([[1, 2, 3], [0, 2, 1]])
    with pytest.raises(IndexError) as raised:
        y[triples]
    found = error_rules.explain(
        str(raised.value), shapes={"input": (2, 3, 4), "index": (2, 3)}
    )
    assert "indexes dim 0 only" in found.meaning
    assert y[tuple(triples.unbind(-1))].tolist() == [23, 9]


def test_a_pair_the_wrong_way_round_keeps_the_swap_advice():
    # two index tensors (no index shape: a tuple), or an op's own index: no stacking
    for known in ({"shapes": {"input": (2, 3)}}, {"op": "torch.gather"}):
        shapes = {"input": (2, 3), "index": (2, 2, 2)}
        found = error_rules.explain(PAIRS_ERROR, **{"shapes": shapes, **known})
        assert "indexes dim 0 only" not in found.meaning
    found = error_rules.explain(PAIRS_ERROR, shapes={"input": (2, 3)})
    assert "check their order" in found.meaning and "swap" in found.fix


def test_the_collected_pairs_answer_is_told_to_split_them():
    def answer(x, columns):  # pytorch#43128
        return x[_stacked(x, columns)]

    words = check("01.pick_columns", answer).words
    assert "indexes dim 0 only" in words and "pairs[..., 0], pairs[..., 1]" in words

    def split(x, columns):
        pairs = _stacked(x, columns)
        return x[pairs[..., 0], pairs[..., 1]]

    assert check("01.pick_columns", split).passed


# ------------------------------------- a size-1 dim dropped: advice that fixes it


def _squeezed_all(features, lengths):  # annotated-transformer#38
    index = (lengths - 1).view(-1, 1, 1).expand(-1, 1, features.shape[2])
    return features.gather(1, index).squeeze()


def test_a_squeeze_that_drops_a_dim_on_some_inputs_is_told_to_name_its_dim():
    words = check("02.last_valid_step", _squeezed_all).words
    assert "`.squeeze()` with no dim drops every size-1 dim" in words
    assert ".unsqueeze(" not in words  # it would break the visible example

    def unsqueezed(features, lengths):
        return _squeezed_all(features, lengths).unsqueeze(1)

    assert not check("02.last_valid_step", unsqueezed).passed

    def named(features, lengths):
        index = (lengths - 1).view(-1, 1, 1).expand(-1, 1, features.shape[2])
        return features.gather(1, index).squeeze(1)

    assert check("02.last_valid_step", named).passed


def test_a_dim_dropped_on_every_input_is_told_to_put_it_back():
    def squeezed(log_probs, labels):  # mine: the (n, 1) result squeezed every time
        return torch.gather(log_probs, 1, labels.unsqueeze(1)).squeeze(1)

    words = check("05.label_scores", squeezed).words
    assert "`.unsqueeze(1)` puts it back" in words

    def followed(log_probs, labels):
        return squeezed(log_probs, labels).unsqueeze(1)

    assert check("05.label_scores", followed).passed


# ------------------------------------- gradients: None, and forward beliefs


GRADIENTS = [k for k, e in EXERCISES.items() if isinstance(e, Predict) and e.gradient]


@pytest.mark.parametrize("exercise_id", GRADIENTS)
def test_a_gradient_predicted_none_is_told_the_input_gets_one(exercise_id):
    exercise = EXERCISES[exercise_id]
    for answer in (None, "None", "  None\n"):
        verdict = exercise.check(answer).verdict
        assert verdict is not None and verdict.template == "predict.gradient_none"
        words = render(verdict)
        assert "is not None" in words and "only the integer index gets none" in words
        assert "write the value you expect" not in words
    # the page says the same for the typed word
    assert (
        payload(exercise)["verdicts"]["none"] == exercise.check(None).verdict.to_json()
    )
    # and the entry it names holds the gradient autograd computes there
    fields = exercise.check(None).verdict.fields
    solution = np.asarray(exercise.solution)
    where = tuple(int(c) for c in str(fields["where"]).split("[")[-1][:-1].split(","))
    assert solution[where] != 0 and float(str(fields["expected"])) == solution[where]


def test_a_value_predicted_none_is_still_asked_for_a_value():
    value = next(
        k for k, e in EXERCISES.items() if isinstance(e, Predict) and not e.gradient
    )
    for answer in (None, "None"):
        assert "is None: write the value you expect" in check(value, answer).words
    assert payload(EXERCISES[value])["verdicts"]["none"]["template"] == "differ.none"


@pytest.mark.parametrize("exercise_id", GRADIENTS)
def test_no_forward_misconception_is_tried_on_a_gradient(exercise_id):
    search = EXERCISES[exercise_id].search
    tried = {m.id for m in LIBRARY if search._keys(m, None)}
    forward = {
        "take-along-dim-as-gather",
        "take-along-dim-without-dim",
        "other-dim",
        "whole-rows",
        "negated",
        "sum-of-repeated-reads",
    }
    assert not tried & forward, tried & forward


def test_the_forward_value_of_a_weighted_gather_is_not_blamed_on_take_along_dim():
    # tfjs#7942: the upstream read at the gathered rows, no take_along_dim anywhere
    answer = [[4.0, 2.0, 6.0], [4.0, 5.0, 3.0]]
    result = check("05.predict_weighted_gradient", answer)
    assert "take_along_dim" not in result.words
    assert not (result.verdict.misconception or "").startswith("take-along")
    # mine: the unweighted gradient's forward value, x read at repeats
    forward = torch.gather(
        torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]),
        1,
        torch.tensor([[0, 0, 2], [2, 1, 2]]),
    ).tolist()
    assert "take_along_dim" not in check("05.predict_gradient", forward).words


# ------------------------------------- TensorFlow: a position past the end


def test_a_tf_position_past_the_end_is_not_told_to_stay_in_range_or_clamp():
    found = error_rules.explain(
        "indices[0,0] = 2 is not in [0, 2) [Op:GatherV2]", shapes={}
    )
    assert "Keep every position" not in found.fix
    assert "clip_by_value" not in found.fix and "Find where 2 was made" in found.fix
    negative = error_rules.explain("indices[1] = -1 is not in [0, 3) [Op:GatherV2]")
    assert "add the axis size (3)" in negative.fix


# ------------------------------------- numbers that match the learner's answer


def test_a_flat_position_read_down_the_columns_names_the_entry_read():
    from gatherlab.exercises.ch03 import grid

    answer = [[23, 10], [44, 41]]  # xtensor#1537: counted down the columns
    words = check("03.predict_flat_positions", answer).words
    assert "Flat position 13 is row 2, column 3, not row 1, column 3" in words
    rows = grid.shape[0]
    assert grid[13 % rows, 13 // rows] == answer[0][0]  # row 1, column 3 is 23
    assert grid[2, 3] == torch.take(grid, torch.tensor(13))


def test_an_index_expanded_at_the_front_is_named_with_its_expand():
    from gatherlab.exercises.page import fix_names

    names = fix_names(EXERCISES["02.fix_wrong_axis"])
    features, positions = names["features"], names["positions"]
    answer = positions.expand(features.shape[0], positions.shape[1], features.shape[2])
    words = check("02.fix_wrong_axis", answer).words  # pytorch#658
    # expand's rule in the first step: sizes listed past the tensor's own dims
    # make new dims in front, the old ones lined up from the right
    assert "expand and repeat add new dims only in front" in words.partition("\n")[0]
    assert "positions repeated along a new dim 0 gives" in words
    named = positions.unsqueeze(0).expand(2, -1, -1)
    assert torch.equal(features.gather(1, named), features.gather(1, answer))
    # mine: unsqueeze(0) as is, no expand
    words = check("02.fix_wrong_axis", positions.unsqueeze(0)).words
    assert "is what `positions.unsqueeze(0)` gives" in words


def test_a_sum_read_instead_of_written_is_shown_as_an_adding_write():
    def read(losses, labels, classes):  # numpy-100#61
        return losses[labels]

    words = check("06.class_loss_sums", read).words
    assert "out[labels[i]] += losses[i], where repeats add up, is a write" in words


def test_a_short_count_of_several_dims_says_along_which():
    def short(labels, classes):  # alchemine's: (3, 3) for (3, 4)
        onehot = torch.zeros(len(labels), int(max(labels)) + 1, dtype=torch.int64)
        return onehot.scatter(1, labels.unsqueeze(1), 1)

    words = check("06.one_hot", short).words
    assert "has 3 entries along dim 1, not 4: labels.max()+1" in words


def test_the_facts_the_none_and_squeeze_words_state_hold():
    # a gather's input gets a gradient; its integer index cannot carry one
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    index = torch.tensor([[0, 0, 2], [2, 1, 2]])
    torch.gather(x, 1, index).sum().backward()
    assert x.grad is not None and index.grad is None
    with pytest.raises(RuntimeError, match="floating point"):
        index.requires_grad_(True)
    # squeeze() drops every size-1 dim; squeeze(1) only dim 1
    one = torch.zeros(5, 1, 1)
    assert one.squeeze().shape == (5,) and one.squeeze(1).shape == (5, 1)
    tf = pytest.importorskip("tensorflow")
    ones = tf.zeros([5, 1, 1])
    assert tf.squeeze(ones).shape == (5,)
    assert tf.squeeze(ones, axis=1).shape == (5, 1)


def test_a_gradient_read_at_the_positions_is_told_backward_adds_it_back():
    from gatherlab.exercises import Call
    from gatherlab.exercises.predict import prediction_feedback

    # tfjs#7942: the upstream read at the gathered rows
    answer = [[4.0, 2.0, 6.0], [4.0, 5.0, 3.0]]
    result = check("05.predict_weighted_gradient", answer)
    assert result.verdict.misconception == "gradient-read-back"
    assert "backward adds each output's gradient to the entry of x" in result.message
    # mine: along dim 1, with an input unlike its upstream, so the read-back and the
    # forward value differ
    x = torch.tensor([[10.0, 20.0, 30.0], [40.0, 50.0, 60.0]], requires_grad=True)
    index = torch.tensor([[2, 2, 0], [1, 0, 0]])
    upstream = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    (torch.gather(x, 1, index) * upstream).sum().backward()
    call = Call("gather", x.detach(), 1, index, index_name="index")

    def said(answer):
        return prediction_feedback(
            x.grad, answer, call, gradient=True, grad_output=upstream
        ).verdict

    read_back = torch.gather(upstream, 1, index)
    assert said(read_back.tolist()).misconception == "gradient-read-back"
    forward = torch.gather(x.detach(), 1, index)
    # the forward value is told it is one, never that it reads the upstream gradient
    forward_said = said(forward.tolist())
    assert forward_said.fields["read"].template == "read_back.forward"
    assert "reads the upstream gradient" not in render(forward_said)
    assert "is the forward output, x read at index, not its gradient" in render(
        forward_said
    )
    # what the words say backward does: the gradient is upstream added back
    added = torch.zeros(2, 3).scatter_add(1, index, upstream)
    assert torch.equal(added, x.grad)

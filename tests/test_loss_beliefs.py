"""Label scores read with F.nll_loss or F.cross_entropy (issue 38, round 7): the first
step says the loss op's own rule (nll_loss takes no log, cross_entropy takes
log_softmax itself, both reduce unless reduction='none'), not only the symptom.
Answers of my own, on the book's exercise and on one of my own, and the facts
the words state checked on torch."""

from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F

from gatherlab.exercises import EXERCISES, Call, Implement, cases


def test_the_loss_rules_the_words_state_hold_in_torch():
    scores = torch.tensor([[0.5, -1.0, 2.0], [3.0, 0.25, -0.5]])
    labels = torch.tensor([2, 0])
    picked = scores.gather(1, labels.unsqueeze(1)).squeeze(1)
    # nll_loss takes no log: minus the entry, of whatever it is given
    assert torch.equal(F.nll_loss(scores, labels, reduction="none"), -picked)
    # one number unless reduction='none': the mean by default
    assert F.nll_loss(scores, labels).shape == ()
    assert torch.isclose(F.nll_loss(scores, labels), -picked.mean())
    # cross_entropy takes log_softmax of each row first
    logs = torch.log_softmax(scores, 1).gather(1, labels.unsqueeze(1)).squeeze(1)
    assert torch.allclose(F.cross_entropy(scores, labels, reduction="none"), -logs)


def first_step(exercise, answer) -> str:
    result = exercise.check(answer)
    assert not result.passed, str(result)
    return result.message


LABEL_SCORES = EXERCISES["05.label_scores"]


def test_nll_loss_on_probabilities_is_told_it_takes_no_log_in_the_first_step():
    # the collected answer: exp first, then nll_loss believed to take the log
    def answer(log_probs, labels):
        return -F.nll_loss(log_probs.exp(), labels, reduction="none").unsqueeze(1)

    message = first_step(LABEL_SCORES, answer)
    assert "F.nll_loss takes no log: it returns -input[s, labels[s]]" in message
    assert "given probabilities" in message
    # my own: the loss module on a softmax, which calls the same function
    module = first_step(
        LABEL_SCORES,
        lambda log_probs, labels: (
            -torch.nn.NLLLoss(reduction="none")(log_probs.softmax(1), labels).unsqueeze(
                1
            )
        ),
    )
    assert module.startswith("On the visible example, F.nll_loss takes no log")


def test_a_loss_left_at_its_default_reduction_is_told_it_returns_one_number():
    message = first_step(
        LABEL_SCORES, lambda log_probs, labels: -F.nll_loss(log_probs, labels)
    )
    assert "F.nll_loss returns one number for all samples unless given " in message
    assert "reduction='none' (its default is 'mean')" in message


def test_cross_entropy_and_the_minus_sign_are_named():
    ce = first_step(
        LABEL_SCORES,
        lambda log_probs, labels: (
            -F.cross_entropy(log_probs, labels, reduction="none").unsqueeze(1)
        ),
    )
    assert "F.cross_entropy takes the log itself" in ce
    sign = first_step(
        LABEL_SCORES,
        lambda log_probs, labels: F.nll_loss(
            log_probs, labels, reduction="none"
        ).unsqueeze(1),
    )
    assert "so your result is minus the entry each label reads" in sign
    # right values in the wrong shape: the shape is said, not the loss rule
    shape = first_step(
        LABEL_SCORES,
        lambda log_probs, labels: -F.nll_loss(log_probs, labels, reduction="none"),
    )
    assert "nll_loss" not in shape


def _scores_case(rng: np.random.Generator) -> dict:
    samples, classes = cases.shape(rng, 2)
    return {
        "scores": cases.values(rng, (samples, classes), torch.float64),
        "targets": cases.positions(rng, classes, (samples,)),
    }


def _target_scores(scores: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    """One score per sample, at its target: a 1-D result."""
    return scores.gather(1, targets.unsqueeze(1)).squeeze(1)


SCORES = Implement(
    "99.scores",
    "scores",
    solution=_target_scores,
    example={
        "scores": torch.tensor(
            [[0.5, -1.0, 2.0], [3.0, 0.25, -0.5]], dtype=torch.float64
        ),
        "targets": torch.tensor([2, 0]),
    },
    generate=_scores_case,
    call=Call("gather", "scores", 1, lambda scores, targets: targets.unsqueeze(1)),
    finish=lambda out: out.squeeze(1),
)


def test_the_loss_rule_is_said_on_another_task_with_other_names():
    # no log-probabilities here: nll_loss on the scores keeps its minus sign
    message = first_step(
        SCORES, lambda scores, targets: F.nll_loss(scores, targets, reduction="none")
    )
    assert "F.nll_loss takes no log: it returns -input[s, labels[s]]" in message
    assert "so your result is minus the entry each label reads" in message
    mean = first_step(SCORES, lambda scores, targets: -F.cross_entropy(scores, targets))
    assert mean.startswith(
        "On the visible example, F.cross_entropy returns one number for all samples"
    )
    # a loss op that gives the right values is not blamed
    assert SCORES.check(
        lambda scores, targets: -F.nll_loss(scores, targets, reduction="none")
    ).passed


def test_a_loss_whose_values_go_on_into_other_ops_is_not_said_to_be_the_read():
    # the loss read the right scores; the mistake is the running sum after it
    def answer(scores, targets):
        return (-F.nll_loss(scores, targets, reduction="none")).cumsum(0)

    result = SCORES.check(answer)
    assert not result.passed
    assert "nll_loss" not in result.message, result.words

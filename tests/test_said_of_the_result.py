"""Sentences chosen by the exercise, not by the learner's code, are said of the task
or the result, never of code the learner did not write (issue 38, round 7: "a write
keeps the shape of the tensor it writes into" to code that made no write, "instead of
transposing" to code that did not transpose). Answers of my own that make no write
and no transpose."""

from __future__ import annotations

import torch

from gatherlab.exercises import check


def test_a_result_of_another_shape_made_without_a_write_hears_no_write_advice():
    # stacked losses: no write at all
    result = check(
        "06.class_loss_sums", lambda losses, labels, classes: torch.stack([losses] * 2)
    )
    assert result.message.startswith(
        "On the visible example, the result is the whole tensor the task's write "
        "fills, in its shape, every slot included: your result has shape (2, 4)"
    )
    assert "a write keeps" not in result.words
    assert "make that tensor" not in result.words
    # the fact: index_add_ returns the whole tensor it wrote into, in its shape
    sums = torch.zeros(3).index_add_(0, torch.tensor([1, 1]), torch.tensor([0.5, 2.0]))
    assert sums.shape == (3,) and sums.tolist() == [0.0, 2.5, 0.0]


def test_a_result_in_the_other_orientation_made_without_a_transpose_is_not_told_so():
    # a comparison grid built column-wise: no .T, no index
    result = check(
        "06.one_hot",
        lambda labels, classes: (torch.arange(classes)[:, None] == labels).long(),
    )
    assert result.verdict.misconception == "transposed-result", result.words
    assert "transposing" not in result.words and "the index" not in result.fix
    assert "build the result in its own orientation" in result.fix

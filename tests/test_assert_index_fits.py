"""assert_index_fits: the two asserts chapter 4 writes next to a gather call."""

from __future__ import annotations

import pytest
import torch

from gatherlab.guard import assert_index_fits

X = torch.tensor([[10, 11, 12], [20, 21, 22]])


@pytest.mark.parametrize(
    "index",
    [
        torch.tensor([[2, 0], [1, 1]]),
        torch.tensor([[2], [0]], dtype=torch.int32),
        torch.tensor([[0, 1, 2, 2, 1]]).expand(2, -1),
    ],
)
def test_an_index_covering_every_row_with_valid_positions_passes(index):
    assert assert_index_fits(X, 1, index) is None
    torch.gather(X, 1, index)  # and gather agrees that it is valid


@pytest.mark.parametrize(
    "index",
    [torch.empty((2, 0), dtype=torch.long), torch.empty((2, 0))],
)
def test_the_empty_index_gather_accepts_passes(index):
    assert torch.gather(X, 1, index).shape == (2, 0)
    assert assert_index_fits(X, 1, index) is None


def test_an_empty_index_still_needs_the_full_sizes():
    with pytest.raises(AssertionError, match="dim 0: index size 0, input size 2"):
        assert_index_fits(X, 1, torch.empty((0, 0), dtype=torch.long))


@pytest.mark.parametrize(
    ("dim", "index", "message"),
    [
        (1, torch.tensor([[2, 0]]), "dim 0: index size 1, input size 2"),
        (0, torch.tensor([[1, 0]]), "dim 1: index size 2, input size 3"),
        (1, torch.tensor([[0, 5], [-1, 2]]), r"positions -1\.\.5, valid 0\.\.2"),
        (-1, torch.tensor([[0, 3], [1, 2]]), r"positions 0\.\.3, valid 0\.\.2"),
        (1, torch.tensor([2, 0]), "index has 1 dims, input 2"),
    ],
)
def test_what_gather_runs_or_refuses_quietly_fails_the_assert(dim, index, message):
    with pytest.raises(AssertionError, match=message):
        assert_index_fits(X, dim, index)

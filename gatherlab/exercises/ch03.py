"""Chapter 3 exercises: index_select, gather, take_along_dim or take?"""

from __future__ import annotations

import numpy as np
import torch

from gatherlab.exercises import Call, cases, fix, implement, predict

x = torch.tensor([[10, 11, 12], [20, 21, 22]])
grid = 10 * torch.arange(1, 5)[:, None] + torch.arange(5)


def select_shared_rows() -> torch.Tensor:
    """index_select along dim 0 with one shared list of rows."""
    return torch.index_select(x, 0, torch.tensor([1, 1, 0]))


predict(
    "03.predict_shared_rows",
    "Predict index_select along dim 0",
    code=select_shared_rows,
    explain=Call("index_select", x, 0, torch.tensor([1, 1, 0])),
)


def select_with_gather(
    x: torch.Tensor, dim: int, positions: torch.Tensor
) -> torch.Tensor:
    """index_select via gather: positions on dim, expanded elsewhere."""
    along_dim = [1] * x.dim()
    along_dim[dim] = positions.numel()
    sizes = list(x.shape)
    sizes[dim] = positions.numel()
    index = positions.reshape(along_dim).expand(sizes)
    return torch.gather(x, dim, index)


def _shared_positions_case(rng: np.random.Generator) -> dict:
    x = cases.values(rng, cases.shape(rng, int(rng.integers(1, 4))))
    dim = int(rng.integers(0, x.dim()))
    picks = int(rng.integers(1, 6))  # may exceed the size along dim: positions repeat
    return {
        "x": x,
        "dim": dim,
        "positions": cases.positions(rng, x.shape[dim], (picks,)),
    }


implement(
    "03.select_with_gather",
    "Write index_select with gather",
    solution=select_with_gather,
    example={"x": x, "dim": 1, "positions": torch.tensor([2, 0])},
    generate=_shared_positions_case,
    call=Call("index_select", "x", "dim", "positions"),
    forbid=(
        "torch.index_select",
        "torch.Tensor.index_select",
        "torch.take_along_dim",
        "torch.Tensor.take_along_dim",
    ),
    require=("torch.gather", "torch.Tensor.gather"),
)


predictions = torch.tensor(
    [[0.2, 0.3, 0.5], [0.1, 0.8, 0.1], [0.6, 0.2, 0.2]], dtype=torch.float64
)
labels = torch.tensor([2, 1, 0], dtype=torch.int32)


def label_positions(predictions: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    """take_along_dim wants int64 positions with as many dims as the input."""
    return labels.long().unsqueeze(1)


fix(
    "03.fix_label_probabilities",
    "Read each sample's probability for its label with take_along_dim",
    broken=Call(
        "take_along_dim",
        predictions,
        1,
        labels,
        input_name="predictions",
        index_name="labels",
    ),
    solution=label_positions,
)


def take_flat_positions() -> torch.Tensor:
    """take with 2-D flat positions, one of them negative."""
    return torch.take(grid, torch.tensor([[13, 0], [-1, 7]]))


predict(
    "03.predict_flat_positions",
    "Predict take with flat positions",
    code=take_flat_positions,
    explain=Call(
        "take",
        grid,
        None,
        torch.tensor([[13, 0], [-1, 7]]),
        input_name="grid",
    ),
)


def flat_positions(grid: torch.Tensor, pairs: torch.Tensor) -> torch.Tensor:
    """take counts row by row: row * number of columns + column."""
    return pairs[:, 0] * grid.shape[1] + pairs[:, 1]


fix(
    "03.fix_pairs_for_take",
    "Turn (row, column) pairs into flat positions for take",
    broken=Call(
        "take",
        grid,
        None,
        torch.tensor([[1, 1], [3, 4]]),
        input_name="grid",
        index_name="pairs",
    ),
    solution=flat_positions,
)

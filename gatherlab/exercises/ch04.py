"""Chapter 4 exercises: error cases, loud and silent, in the chapter's order."""

from __future__ import annotations

import numpy as np
import torch

from gatherlab.exercises import Call, cases, fix, implement, predict, predict_raises
from gatherlab.exercises.call import Op

x = torch.tensor([[10, 11, 12], [20, 21, 22]])


def gather_python_style(
    input: torch.Tensor, dim: int, index: torch.Tensor
) -> torch.Tensor:
    """Positions -size..-1 count from the end: add size, then gather."""
    size = input.size(dim)
    if ((index < -size) | (index >= size)).any():
        raise IndexError(f"positions must lie in -{size}..{size - 1}")
    from_start = torch.where(index < 0, index + size, index)
    return torch.gather(input, dim, from_start)


def _python_style_case(rng: np.random.Generator) -> dict:
    ndim = int(rng.integers(1, 4))
    shape = cases.shape(rng, ndim)
    dim = int(rng.integers(-ndim, ndim))
    along = dim % ndim
    index_shape = tuple(
        int(rng.integers(1, size + 3)) if d == along else int(rng.integers(1, size + 1))
        for d, size in enumerate(shape)
    )
    index = cases.positions(rng, shape[along], index_shape)
    negative = torch.as_tensor(rng.random(index_shape) < 0.4)
    return {
        "input": cases.values(rng, shape),
        "dim": dim,
        "index": torch.where(negative, index - shape[along], index),
    }


def _out_of_range_case(rng: np.random.Generator) -> dict:
    """A valid case with one position outside -size..size-1: gather must raise."""
    case = _python_style_case(rng)
    size = case["input"].size(case["dim"])
    beyond = int(rng.integers(0, 3))
    wrong = size + beyond if rng.random() < 0.5 else -size - 1 - beyond
    index = case["index"].clone()
    index.view(-1)[int(rng.integers(0, index.numel()))] = wrong
    return {**case, "index": index}


implement(
    "04.gather_python_style",
    "Gather with Python-style negative positions",
    solution=gather_python_style,
    example={"input": x, "dim": 1, "index": torch.tensor([[0, -1], [-3, 2]])},
    generate=_python_style_case,
    call=Call("gather", "input", "dim", "index"),
    generate_invalid=_out_of_range_case,
)


def _labelled(op: Op, dim: int | None, index: torch.Tensor, text: str) -> Call:
    return Call(op, x, dim, index, index_name=text)


predict_raises(
    "04.which_calls_raise",
    "Which of these calls raise?",
    calls={
        "A": _labelled(
            "gather",
            -1,
            torch.tensor([[2, 0], [1, 1]]),
            "torch.tensor([[2, 0], [1, 1]])",
        ),
        "B": _labelled(
            "gather",
            0,
            torch.tensor([[1], [0], [1]]),
            "torch.tensor([[1], [0], [1]])",
        ),
        "C": _labelled("gather", 1, torch.empty((3, 0)), "torch.empty((3, 0))"),
        "D": _labelled(
            "take_along_dim",
            1,
            torch.tensor([[2], [0]], dtype=torch.int32),
            "torch.tensor([[2], [0]], dtype=torch.int32)",
        ),
        "E": _labelled(
            "gather",
            1,
            torch.tensor([[2], [0]], dtype=torch.int32),
            "torch.tensor([[2], [0]], dtype=torch.int32)",
        ),
        "F": _labelled(
            "gather", 1, torch.tensor([[0], [-3]]), "torch.tensor([[0], [-3]])"
        ),
    },
)


logits = torch.tensor([[10, 11, 12, 13], [20, 21, 22, 23], [30, 31, 32, 33]])
targets = torch.tensor([3, 0, 2])


def one_label_per_row(logits: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
    """The targets run down the rows: shape (batch, 1), one per row."""
    return targets.unsqueeze(1)


fix(
    "04.fix_label_axis",
    "Read each row's score for its own label",
    broken=Call(
        "gather",
        logits,
        1,
        targets.unsqueeze(0),
        input_name="logits",
        index_name="index",
    ),
    solution=one_label_per_row,
)


def take_along_dim_wraps() -> torch.Tensor:
    """With a dim, torch 2.13 reads each position modulo the size."""
    positions = torch.tensor([[4, -2], [3, 1]])
    return torch.take_along_dim(x, positions, dim=1)


predict(
    "04.predict_wrap",
    "Predict take_along_dim with out-of-range positions",
    code=take_along_dim_wraps,
    explain=Call("take_along_dim", x, 1, torch.tensor([[4, -2], [3, 1]])),
    runs_because=("in torch 2.13 take_along_dim wraps every position modulo the size"),
)

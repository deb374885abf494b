"""Chapter 1 exercises: gather on a matrix, in the order the chapter places them."""

from __future__ import annotations

import numpy as np
import torch

from gatherlab.exercises import Call, cases, fix, implement, predict, predict_raises

x = torch.tensor([[10, 11, 12], [20, 21, 22]])


def pick_new_columns() -> torch.Tensor:
    """Row 0 reads columns 1, 1, 0 and row 1 reads columns 2, 0, 2."""
    return torch.gather(x, 1, torch.tensor([[1, 1, 0], [2, 0, 2]]))


predict(
    "01.predict_columns",
    "Predict a gather along dim 1",
    code=pick_new_columns,
    explain=Call("gather", x, 1, torch.tensor([[1, 1, 0], [2, 0, 2]])),
)


def select_rows() -> torch.Tensor:
    """Each entry of rows names a row; the column stays its own."""
    rows = torch.tensor([[1, 1, 0], [0, 0, 1]])
    return torch.gather(x, 0, rows)


predict(
    "01.predict_rows",
    "Predict a gather along dim 0",
    code=select_rows,
    explain=Call(
        "gather", x, 0, torch.tensor([[1, 1, 0], [0, 0, 1]]), index_name="rows"
    ),
)


def pick_columns(
    x: torch.Tensor,
    columns: torch.Tensor,
) -> torch.Tensor:
    """Row r of the result holds x[r, columns[r, k]] for every k."""
    return torch.gather(x, 1, columns)


def _pick_columns_case(rng: np.random.Generator) -> dict[str, torch.Tensor]:
    rows, width = cases.shape(rng, 2)
    picks = int(rng.integers(1, 6))  # may exceed the width: positions repeat
    return {
        "x": cases.values(rng, (rows, width)),
        "columns": cases.positions(rng, width, (rows, picks)),
    }


implement(
    "01.pick_columns",
    "Pick different columns in every row",
    solution=pick_columns,
    example={"x": x, "columns": torch.tensor([[2, 0], [1, 1]])},
    generate=_pick_columns_case,
    call=Call("gather", "x", 1, "columns"),
)


def every_row_reads(x: torch.Tensor, wanted: torch.Tensor) -> torch.Tensor:
    """One index row holding the shared columns, repeated for every row."""
    return wanted.unsqueeze(0).expand(x.shape[0], -1)


fix(
    "01.fix_shared_columns",
    "Every row reads columns 2 and 0",
    broken=Call("gather", x, 1, torch.tensor([2, 0]), index_name="wanted"),
    solution=every_row_reads,
)


def _labelled(dim: int, index: list[list[int]]) -> Call:
    """A call whose text is code that runs as written: torch.tensor(...) included."""
    return Call(
        "gather", x, dim, torch.tensor(index), index_name=f"torch.tensor({index})"
    )


predict_raises(
    "01.which_calls_raise",
    "Which of these calls raise?",
    calls={
        "A": _labelled(1, [[2, 0, 1, 2]]),
        "B": _labelled(1, [[0], [0], [0]]),
        "C": _labelled(0, [[1], [0], [1], [0]]),
        "D": _labelled(1, [[3]]),
        "E": Call("gather", x, 1, torch.empty(0), index_name="torch.empty(0)"),
    },
)


predictions = torch.tensor([[0.2, 0.3, 0.5], [0.1, 0.8, 0.1], [0.6, 0.2, 0.2]])


def label_index(predictions: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    """As many dims as predictions: one column, holding each row's label."""
    return labels.unsqueeze(1)


fix(
    "01.fix_missing_axis",
    "Read each sample's probability for its label",
    broken=Call(
        "gather",
        predictions,
        1,
        torch.tensor([2, 1, 0]),
        input_name="predictions",
        index_name="labels",
    ),
    solution=label_index,
)


def gather_2d(
    input: torch.Tensor,
    dim: int,
    index: torch.Tensor,
) -> torch.Tensor:
    """torch.gather's two 2-D formulas, one output entry at a time."""
    dim = dim % 2  # dim=-1 names dim 1
    out = torch.empty(index.shape, dtype=input.dtype)
    rows, columns = index.shape
    for i in range(rows):
        for j in range(columns):
            position = int(index[i, j])
            if dim == 0:
                out[i, j] = input[position, j]  # index picks the row
            else:
                out[i, j] = input[i, position]  # index picks the column
    return out


def _gather_2d_case(rng: np.random.Generator) -> dict:
    shape = cases.shape(rng, 2)
    dim = int(rng.choice([0, 1, -1]))
    along = dim % 2
    index_shape = tuple(
        int(rng.integers(1, size + 3)) if d == along else int(rng.integers(1, size + 1))
        for d, size in enumerate(shape)
    )
    dtype = (torch.int64, torch.float32)[int(rng.integers(2))]  # kept, as asked
    return {
        "input": cases.values(rng, shape, dtype),
        "dim": dim,
        "index": cases.positions(rng, shape[along], index_shape),
    }


implement(
    "01.gather_loop",
    "Write gather for a matrix as a loop",
    solution=gather_2d,
    example={"input": x, "dim": 0, "index": torch.tensor([[1, 0, 1], [0, 1, 0]])},
    generate=_gather_2d_case,
    call=Call("gather", "input", "dim", "index"),
    forbid=("torch.gather", "torch.Tensor.gather"),
)

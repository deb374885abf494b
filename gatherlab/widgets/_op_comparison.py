"""Chapter 3 explorer: one input and one index through gather and its neighbours, in
PyTorch and TensorFlow; each shows its output and the source cells it read, or the rule
it breaks.

The view computes every op in the browser (``js/core.mjs``: torch's four as gl.trace
does, advanced indexing and TensorFlow's as the agreement cases prove). Python runs the
libraries themselves for the inputs it sees: the starting tensors (saved with the page)
and, with a kernel, typed ones, so a refusal shows the library's own message.

Which source cells an op read is found by running the same call on an "address" tensor
(``arange(x.size).reshape(x.shape)``): its output holds the flat position of every value
read, whatever the op or framework.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from gatherlab.diagnose import Problem, diagnose, rule_problem
from gatherlab.widgets._base import Explorer, as_json, problem_json
from gatherlab.widgets._parse import checked_array
from gatherlab.widgets._run import attempt, tensorflow_or_none

DEFAULT_X = [[10, 11, 12], [20, 21, 22]]
DEFAULT_INDEX = [[2, 0], [1, 1]]


@dataclass(frozen=True)
class OpResult:
    """One op's call: its output and the source cells it read, or why it did not run."""

    name: str
    code: str
    output: np.ndarray | None = None
    reads: tuple[tuple[int, ...], ...] = ()
    problems: tuple[Problem, ...] = ()
    error: str = ""  # what the library raised, for calls without a gl.diagnose check


def _coordinates(index: np.ndarray, dim: int) -> list[np.ndarray]:
    """Per axis, the coordinate each output reads: index on dim, arange elsewhere."""
    grids: list[Any] = list(np.indices(index.shape, sparse=True))
    grids[dim] = index
    return grids


def _arange_code(size: int, axis: int, rank: int) -> str:
    view = ", ".join(":" if k == axis else "None" for k in range(rank))
    return f"torch.arange({size})[{view}]"


def _run(
    name: str, code: str, x: np.ndarray, call: Callable[[np.ndarray], Any]
) -> OpResult:
    """Run ``call`` on x and on x's addresses: the output, and which cells it read."""
    output, error = attempt(lambda: call(x))
    if output is None:
        return OpResult(name, code, error=error)
    addresses, _ = attempt(lambda: call(np.arange(x.size).reshape(x.shape)))
    assert addresses is not None  # the same call on positions instead of values
    reads = tuple(
        tuple(int(c) for c in np.unravel_index(int(a), x.shape))
        for a in addresses.reshape(-1)
    )
    return OpResult(name, code, output, reads)


def _torch_ops(x: np.ndarray, index: np.ndarray, dim: int) -> list[OpResult]:
    import torch

    positions = torch.as_tensor(index)
    calls = [
        ("gather", f"torch.gather(x, {dim}, index)", dim,
         lambda v: torch.gather(torch.as_tensor(v), dim, positions)),
        ("take_along_dim", f"torch.take_along_dim(x, index, dim={dim})", dim,
         lambda v: torch.take_along_dim(torch.as_tensor(v), positions, dim)),
        ("index_select", f"torch.index_select(x, {dim}, index)", dim,
         lambda v: torch.index_select(torch.as_tensor(v), dim, positions)),
        ("take", "torch.take(x, index)", None,
         lambda v: torch.take(torch.as_tensor(v), positions)),
    ]  # fmt: skip
    results = []
    for name, code, op_dim, call in calls:
        problems = diagnose(torch.as_tensor(x), op_dim, positions, name)
        if problems:
            results.append(OpResult(name, code, problems=tuple(problems)))
        else:
            results.append(_run(name, code, x, call))
    results.append(_advanced_indexing(x, index, dim))
    return results


def _advanced_indexing(x: np.ndarray, index: np.ndarray, dim: int) -> OpResult:
    import torch

    name = "advanced indexing"
    if index.ndim != x.ndim or index.dtype.kind not in "iu" or index.size == 0:
        code = "x[coordinates]"
        return OpResult(name, code, problems=(rule_problem("form", "indexing"),))
    parts = [
        "index" if d == dim else _arange_code(index.shape[d], d, x.ndim)
        for d in range(x.ndim)
    ]
    coordinates = [torch.as_tensor(np.asarray(g)) for g in _coordinates(index, dim)]
    code = f"x[{', '.join(parts)}]"
    return _run(name, code, x, lambda v: torch.as_tensor(v)[tuple(coordinates)])


def _tensorflow_ops(x: np.ndarray, index: np.ndarray, dim: int) -> list[OpResult]:
    tf = tensorflow_or_none()
    names = ("tf.gather batch_dims", "tf.gather", "tf.gather_nd")
    if tf is None:
        missing = (rule_problem("no-tensorflow", "no-tensorflow"),)
        return [OpResult(name, name, problems=missing) for name in names]
    results = [
        _run(
            names[0],
            f"tf.gather(x, index, axis={dim}, batch_dims={dim})",
            x,
            lambda v: tf.gather(
                tf.constant(v), tf.constant(index), axis=dim, batch_dims=dim
            ),
        ),
        _run(
            names[1],
            f"tf.gather(x, index, axis={dim})",
            x,
            lambda v: tf.gather(tf.constant(v), tf.constant(index), axis=dim),
        ),
    ]
    code = "tf.gather_nd(x, coordinates)"
    if index.ndim != x.ndim or index.dtype.kind not in "iu":
        rule = rule_problem("form", "gather-nd")
        return [*results, OpResult(names[2], code, problems=(rule,))]
    grids = np.broadcast_arrays(*_coordinates(index, dim))
    coordinates = np.stack(grids, axis=-1)
    results.append(
        _run(names[2], code, x, lambda v: tf.gather_nd(tf.constant(v), coordinates))
    )
    return results


def compute(x: np.ndarray, index: np.ndarray, dim: int) -> list[OpResult]:
    """Every op's result for this input, index and dim, PyTorch first."""
    if not -x.ndim <= dim < x.ndim:
        raise ValueError(
            f"dim must be in {-x.ndim}..{x.ndim - 1} for x of shape {x.shape}"
        )
    dim %= x.ndim
    return _torch_ops(x, index, dim) + _tensorflow_ops(x, index, dim)


LIBRARY_OPS = ("advanced indexing", "tf.gather batch_dims", "tf.gather", "tf.gather_nd")


def as_entry(result: OpResult) -> dict[str, Any]:
    """One op's result as the view reads it."""
    entry: dict[str, Any] = {"name": result.name, "code": result.code}
    if result.output is not None:
        entry["output"] = as_json(result.output)
        entry["reads"] = [list(at) for at in result.reads]
    elif result.problems:
        entry["problems"] = [problem_json(p) for p in result.problems]
    else:
        entry["error"] = result.error
    return entry


def library_ops(values: dict[str, Any]) -> dict[str, Any]:
    """What only the libraries compute: advanced indexing and TensorFlow's ops (the
    view computes the four torch ops itself)."""
    x, index, dim = values["x"], values["index"], values["dim"]
    if not -x.ndim <= dim < x.ndim:  # a 0-d x, or one with fewer dims than dim
        rule = rule_problem("form", "dim", dim=dim, ndim=x.ndim)
        return {
            "ops": [as_entry(OpResult(n, n, problems=(rule,))) for n in LIBRARY_OPS]
        }
    results = compute(x, index, dim)
    return {"ops": [as_entry(r) for r in results if r.name in LIBRARY_OPS]}


def op_comparison(x: Any = None, index: Any = None, dim: int = 1) -> Explorer:
    """The chapter 3 explorer (defaults: the seed's x and index, dim 1)."""
    x = checked_array(DEFAULT_X if x is None else x, "x")
    index = checked_array(DEFAULT_INDEX if index is None else index, "index")
    if not -x.ndim <= dim < x.ndim:
        raise ValueError(
            f"dim must be in {-x.ndim}..{x.ndim - 1} for x of shape {x.shape}"
        )
    return Explorer(
        "op_comparison",
        3,
        {"x": x, "index": index, "dim": dim % x.ndim},
        {},
        library_keys=("x", "index", "dim"),
        library=library_ops,
    )

"""Chapter 5 explorer: the gradient of ``(torch.gather(x, dim, index) * weights).sum()``

Each source cell's gradient is the sum of the upstream weights of the outputs that read
it; the heat map shows those sums ("1+2=3") next to autograd's own gradient in PyTorch
and for ``tf.gather_nd``, which must agree.

The view computes the sums by hand in the browser for any typed index and weights;
autograd's gradients are computed here, by the libraries, for every weight choice:
saved with the page for the starting tensors, and for typed ones when a kernel runs.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from gatherlab.diagnose import Problem, diagnose
from gatherlab.widgets._base import Explorer, as_json
from gatherlab.widgets._parse import checked_array
from gatherlab.widgets._run import attempt, tensorflow_or_none

DEFAULT_X = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
DEFAULT_INDEX = [[2, 2, 0], [1, 1, 1]]
DEFAULT_WEIGHTS = [[1.0, 2.0, 4.0], [1.0, 3.0, 5.0]]
WEIGHTS_NOTE = (
    "Picking a weight choice copies its weights into the weights box; typed weights "
    "become the first choice."
)


def check_index(x: np.ndarray, dim: int, index: np.ndarray) -> tuple[Problem, ...]:
    """The rules ``torch.gather(x, dim, index)`` breaks (none: it can be traced)."""
    import torch

    return tuple(diagnose(torch.as_tensor(x), dim, torch.as_tensor(index)))


def check_weights(weights: np.ndarray, index: np.ndarray) -> str:
    """Why these upstream weights do not fit the output, or "" when they do."""
    if weights.shape != index.shape:
        return (
            f"weights has shape {weights.shape}, but it multiplies the output, whose "
            f"shape is the index's: {index.shape}"
        )
    return ""


def _torch_gradient(x: np.ndarray, dim: int, index: np.ndarray, weights: np.ndarray):
    import torch

    source = torch.tensor(x, dtype=torch.float64, requires_grad=True)
    selected = torch.gather(source, dim, torch.as_tensor(index))
    (selected * torch.as_tensor(weights, dtype=torch.float64)).sum().backward()
    return source.grad


def _tensorflow_gradient(
    x: np.ndarray, dim: int, index: np.ndarray, weights: np.ndarray
):
    tf = tensorflow_or_none()
    if tf is None:
        raise ImportError("TensorFlow is not installed here")
    grids: list[Any] = list(np.indices(index.shape, sparse=True))
    grids[dim] = index
    coordinates = np.stack(np.broadcast_arrays(*grids), axis=-1)
    source = tf.Variable(x.astype(np.float64))
    with tf.GradientTape() as tape:
        selected = tf.gather_nd(source, coordinates)
        loss = tf.reduce_sum(selected * tf.constant(weights, dtype=tf.float64))
    return tf.convert_to_tensor(tape.gradient(loss, source))


def autograd(x: np.ndarray, dim: int, index: np.ndarray, weights: np.ndarray):
    """Autograd's gradient of ``(gather(x, dim, index) * weights).sum()`` in PyTorch
    and for ``tf.gather_nd``: ``[(name, {"output"} or {"error"}), ...]``."""
    wrapped = dim % x.ndim
    found = []
    gradients: list[tuple[str, Callable[..., Any]]] = [
        ("torch: x.grad", _torch_gradient),
        ("tf.gather_nd: tape.gradient", _tensorflow_gradient),
    ]
    for name, gradient in gradients:
        output, error = attempt(partial(gradient, x, wrapped, index, weights))
        found.append(
            [name, {"error": error} if output is None else {"output": as_json(output)}]
        )
    return found


def presets(index: np.ndarray, weights: np.ndarray) -> list[np.ndarray]:
    """The weight choices the view offers: ``weights``, all ones, one output alone."""
    one_hot = np.zeros(index.shape)
    if one_hot.size:
        one_hot[(0,) * index.ndim] = 1.0
    return [weights, np.ones(index.shape), one_hot]


def library_result(values: dict[str, Any]) -> dict[str, Any]:
    """Both autograds for every weight choice, when the call and weights fit."""
    x, dim = values["x"].astype(np.float64), values["dim"]
    index, weights = values["index"], values["weights"].astype(np.float64)
    if check_index(x, dim, index) or check_weights(weights, index):
        return {}
    return {"gradients": [autograd(x, dim, index, w) for w in presets(index, weights)]}


def gradient_accumulation(
    x: Any = None, index: Any = None, weights: Any = None, dim: int = 1
) -> Explorer:
    """The chapter 5 explorer (defaults: the seed's x, index and weights; dim 1)."""
    first = "chapter weights" if weights is None else "your weights"
    x = checked_array(DEFAULT_X if x is None else x, "x").astype(np.float64)
    index = checked_array(DEFAULT_INDEX if index is None else index, "index")
    weights = checked_array(DEFAULT_WEIGHTS if weights is None else weights, "weights")
    problems = check_index(x, dim, index)
    if problems or check_weights(weights, index):
        raise ValueError(
            problems[0].message if problems else check_weights(weights, index)
        )
    return Explorer(
        "gradient_accumulation",
        5,
        {"x": x, "index": index, "weights": weights.astype(np.float64), "dim": dim,
         "first": first},
        {"note": WEIGHTS_NOTE},
        library_keys=("x", "index", "weights", "dim"),
        library=library_result,
    )  # fmt: skip

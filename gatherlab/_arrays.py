"""Framework-neutral helpers: recognise torch, NumPy and TensorFlow values; convert.

Nothing here imports TensorFlow; a TensorFlow tensor is recognised by its type's module.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np


def framework_of(value: Any) -> str | None:
    """Return "torch", "numpy" or "tensorflow" for a tensor-like value, else None."""
    module = type(value).__module__ or ""
    if module.startswith("torch"):
        import torch

        return "torch" if isinstance(value, torch.Tensor) else None
    if isinstance(value, np.ndarray):
        return "numpy"
    if module.startswith("tensorflow") and hasattr(value, "numpy"):
        return "tensorflow"
    return None


def to_numpy(value: Any) -> np.ndarray:
    """A NumPy copy of a torch tensor, TensorFlow tensor, NumPy array or nested list."""
    kind = framework_of(value)
    if kind == "torch":
        return value.detach().cpu().numpy()
    if kind == "tensorflow":
        return np.asarray(value.numpy())
    return np.asarray(value)


def like(template: Any, values: np.ndarray) -> Any:
    """Wrap NumPy ``values`` in ``template``'s framework: torch, TensorFlow, NumPy."""
    kind = framework_of(template)
    if kind == "torch":
        import torch

        # np.array, not np.ascontiguousarray: that one turns a 0-d result into 1-D.
        return torch.from_numpy(np.array(values, order="C")).to(template.device)
    if kind == "tensorflow":
        from gatherlab.tf import tensorflow

        return tensorflow().constant(values)
    return values


def dtype_name(value: Any) -> str:
    """``int64`` for torch, NumPy and TensorFlow values alike."""
    dtype = getattr(value, "dtype", None)
    return getattr(dtype, "name", None) or str(dtype).replace("torch.", "")


def wrap_dim(dim: int, ndim: int) -> int:
    """Wrap a negative ``dim`` as Python does; a 0-d tensor has one dim, as in torch."""
    rank = max(ndim, 1)
    if not -rank <= dim < rank:
        raise IndexError(f"dim {dim} is out of range for a tensor with {ndim} dims")
    return dim % rank


def coord(position: tuple[int, ...]) -> str:
    """Format a coordinate the way the book writes it: ``(1, 2)`` becomes ``"1, 2"``."""
    return ", ".join(str(int(p)) for p in position)


def entry(name: str, at: tuple[int, ...]) -> str:
    """``index[1, 2]`` for an entry of a tensor, plain ``index`` for a 0-d one."""
    return f"{name}[{coord(at)}]" if at else name


def fresh(value: Any) -> Any:
    """An independent copy of a value, so no caller can change the original."""
    kind = framework_of(value)
    if kind == "torch":
        return value.clone()
    if kind == "numpy":
        return value.copy()
    if kind == "tensorflow":
        return value  # TensorFlow tensors are immutable
    return copy.deepcopy(value)


def broadcast_for_take_along_dim(
    source_shape: tuple[int, ...], index_shape: tuple[int, ...], dim: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The shapes take_along_dim broadcasts input and indices to.

    Every dim but ``dim`` is broadcast; along ``dim`` each keeps its size.
    """

    def along_dim(shape: tuple[int, ...], sizes: tuple[int, ...]) -> tuple:
        """``sizes`` with the entry at ``dim`` taken from ``shape``."""
        merged = list(sizes)
        merged[dim] = shape[dim]
        return tuple(merged)

    others = np.broadcast_shapes(
        tuple(1 if d == dim else s for d, s in enumerate(source_shape)),
        tuple(1 if d == dim else s for d, s in enumerate(index_shape)),
    )
    return along_dim(source_shape, others), along_dim(index_shape, others)

"""``torch.gather(input, dim, index)`` written five other ways, short enough to show.

All five give gather's values for in-range, non-negative positions. They differ where
gather raises: advanced indexing and the NumPy-style functions wrap -1 to the last
entry.
The chapters print these functions with ``inspect.getsource``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from gatherlab.tf import tensorflow

if TYPE_CHECKING:
    import torch


def index_extent(index_shape: tuple[int, ...], dim: int) -> tuple[slice, ...]:
    """The slice of input that gather reads: all of ``dim``, and on every other dim
    only the first ``index.shape[d]`` entries."""
    return tuple(
        slice(None) if d == dim else slice(0, size)
        for d, size in enumerate(index_shape)
    )


def gather_by_indexing(
    input: torch.Tensor, dim: int, index: torch.Tensor
) -> torch.Tensor:
    """Advanced indexing: ``index`` along ``dim``, an ``arange`` on each other dim."""
    import torch

    dim = dim % index.dim()
    coordinates = []
    for d, size in enumerate(index.shape):
        if d == dim:
            coordinates.append(index)
        else:
            # arange(size) laid along dim d, so that it broadcasts against index
            shape = [1] * index.dim()
            shape[d] = size
            coordinates.append(torch.arange(size, device=index.device).reshape(shape))
    return input[tuple(coordinates)]


def gather_with_numpy(input: np.ndarray, dim: int, index: np.ndarray) -> np.ndarray:
    """``np.take_along_axis``: the same rule, once input is cut to index's extent."""
    dim = dim % index.ndim
    # take_along_axis broadcasts the other dims, where gather reads only the first
    # index.shape[d] entries: cut input to that extent so both read the same entries.
    return np.take_along_axis(input[index_extent(index.shape, dim)], index, axis=dim)


def gather_with_tf_batch_dims(input: Any, dim: int, index: Any) -> Any:
    """``tf.gather`` with ``batch_dims``: move ``dim`` last, gather there, move back."""
    tf = tensorflow()
    tnp = tf.experimental.numpy
    rank = len(index.shape)
    dim = dim % rank
    # batch_dims needs equal sizes on every batch dim: cut input to index's extent.
    params = tf.convert_to_tensor(input)[index_extent(index.shape, dim)]
    # With dim last, the first rank - 1 dims are batch dims: each row of index picks
    # from the matching row of params, which is gather's rule.
    gathered = tf.gather(
        tnp.moveaxis(params, dim, -1),
        tnp.moveaxis(index, dim, -1),
        axis=rank - 1,
        batch_dims=rank - 1,
    )
    return tnp.moveaxis(gathered, -1, dim)


def gather_with_tf_numpy(input: Any, dim: int, index: Any) -> Any:
    """``tf.experimental.numpy.take_along_axis``: NumPy's rule, run by TensorFlow."""
    tf = tensorflow()
    dim = dim % len(index.shape)
    # Like NumPy it broadcasts the other dims: cut input to index's extent first.
    # (TensorFlow 2.21 refuses an input whose dim has size 0, even for an empty index.)
    params = tf.convert_to_tensor(input)[index_extent(index.shape, dim)]
    return tf.experimental.numpy.take_along_axis(params, index, axis=dim)


def gather_with_tf_gather_nd(input: Any, dim: int, index: Any) -> Any:
    """``tf.gather_nd`` with the full coordinate of every read spelled out."""
    tf = tensorflow()
    index = tf.convert_to_tensor(index)
    dim = dim % index.shape.rank
    # One grid per dim holding that dim's coordinate; on dim itself, the index.
    grids = tf.meshgrid(
        *[tf.range(size, dtype=index.dtype) for size in index.shape], indexing="ij"
    )
    grids[dim] = index
    coordinates = tf.stack(grids, axis=-1)  # shape: index.shape + (rank,)
    return tf.gather_nd(input, coordinates)


EQUIVALENTS = {
    "advanced indexing": gather_by_indexing,
    "np.take_along_axis": gather_with_numpy,
    "tf.gather with batch_dims": gather_with_tf_batch_dims,
    "tf.experimental.numpy.take_along_axis": gather_with_tf_numpy,
    "tf.gather_nd": gather_with_tf_gather_nd,
}

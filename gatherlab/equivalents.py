"""``torch.gather(input, dim, index)`` written five other ways, short enough to show.

All five give gather's values for in-range, non-negative positions. They differ where
gather raises: advanced indexing and the NumPy-style functions wrap -1 to the last
entry. And ``np.take_along_axis`` and TensorFlow's copy of it are not gather on their
own: they broadcast, so a one-row index reads every row of the input, where gather
reads row 0 only. The two functions built on them therefore cut the input to the
index's extent first, and their names in ``EQUIVALENTS`` say so.
The chapters print these functions with ``inspect.getsource``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from gatherlab._arrays import to_numpy
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
    """Gather's values from ``np.take_along_axis``, which broadcasts: cut input first.

    Uncut, a (1, k) index on a (2, n) input reads both rows (gather reads one).
    """
    dim = dim % index.ndim
    # gather reads only the first index.shape[d] entries of each other dim d;
    # take_along_axis would stretch a size-1 index over all of them instead.
    read_by_gather = input[index_extent(index.shape, dim)]
    return np.take_along_axis(read_by_gather, index, axis=dim)


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
    """Gather's values from ``tf.experimental.numpy.take_along_axis``: cut input first.

    Like NumPy's, it broadcasts a size-1 index over every row of an uncut input.
    """
    tf = tensorflow()
    dim = dim % len(index.shape)
    # (TensorFlow 2.21 refuses an input whose dim has size 0, even for an empty index.)
    read_by_gather = tf.convert_to_tensor(input)[index_extent(index.shape, dim)]
    return tf.experimental.numpy.take_along_axis(read_by_gather, index, axis=dim)


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


def same_shape_and_values(result: Any, expected: Any) -> bool:
    """True when both have the same shape and values, in any library."""
    return np.array_equal(to_numpy(result), to_numpy(expected))


EQUIVALENTS = {
    "advanced indexing": gather_by_indexing,
    "np.take_along_axis on the cut input": gather_with_numpy,
    "tf.gather with batch_dims": gather_with_tf_batch_dims,
    "tf.experimental.numpy.take_along_axis on the cut input": gather_with_tf_numpy,
    "tf.gather_nd": gather_with_tf_gather_nd,
}

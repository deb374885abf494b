"""A generated set of bad calls of the gather and scatter families, for the error table.

``torch_calls()`` and ``tensorflow_calls()`` yield ``(label, thunk)`` pairs: every op
the book teaches, called with each way of breaking it (a negative or too-large
position, an index of the wrong dtype, rank or size, a dim out of range, a source of
the wrong dtype or size, arguments of the wrong type). ``messages()`` runs them and
returns each distinct error as ``TypeName: message``; tests/test_error_rules.py
requires every one to be recognised by gatherlab.error_rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import torch

Thunk = Callable[[], Any]
BAD_INDEX_DTYPES = (torch.int32, torch.int16, torch.uint8, torch.float32, torch.bool)


def _x() -> torch.Tensor:
    return torch.arange(6.0).reshape(2, 3)


def _positions(values: list, dtype: torch.dtype = torch.int64) -> torch.Tensor:
    return torch.tensor(values).to(dtype)


def _readers(index: torch.Tensor) -> dict[str, Thunk]:
    """Every reading op given ``index`` as its positions along dim 1 of a (2, 3) x."""
    x = _x()
    flat = index.reshape(-1)
    rows = torch.arange(index.shape[0]).unsqueeze(1) if index.dim() == 2 else None
    calls: dict[str, Thunk] = {
        "gather": lambda: torch.gather(x, 1, index),
        "take_along_dim": lambda: torch.take_along_dim(x, index, dim=1),
        "take_along_dim, no dim": lambda: torch.take_along_dim(x, index),
        "take": lambda: torch.take(x, index),
        "index_select": lambda: torch.index_select(x, 1, flat),
        "embedding": lambda: torch.nn.functional.embedding(flat, x),
        "one_hot": lambda: torch.nn.functional.one_hot(flat, 3),
    }
    if rows is not None:
        calls["x[rows, index]"] = lambda: x[rows, index]
    return calls


def _writers(index: torch.Tensor, src: torch.Tensor) -> dict[str, Thunk]:
    """Every writing op given ``index`` along dim 1 of a (2, 3) x and ``src``."""
    flat = index.reshape(-1)[:2]  # the first two positions, for the 1-D ops
    flat_src = src.reshape(-1)[: flat.numel()]
    rows = torch.zeros(flat.shape, dtype=torch.int64)
    calls: dict[str, Thunk] = {
        "scatter_": lambda: _x().scatter_(1, index, src),
        "scatter_add_": lambda: _x().scatter_add_(1, index, src),
        "scatter_reduce_": lambda: _x().scatter_reduce_(1, index, src, "amax"),
        "index_add_": lambda: _x().index_add_(1, flat, src[:, : flat.numel()]),
        "index_copy_": lambda: _x().index_copy_(1, flat, src[:, : flat.numel()]),
        "index_fill_": lambda: _x().index_fill_(1, flat, -1.0),
        "index_put_": lambda: _x().index_put_((rows, flat), flat_src),
        "index_put_ accumulate": lambda: _x().index_put_(
            (rows, flat), flat_src, accumulate=True
        ),
        "put_": lambda: _x().put_(flat, flat_src),
        "put_ accumulate": lambda: _x().put_(flat, flat_src, accumulate=True),
    }
    return calls


def torch_calls() -> Iterator[tuple[str, Thunk]]:
    """Bad calls of every torch op of the two families, one broken thing at a time."""
    good = [[2, 0], [1, 1]]
    src = torch.tensor([[10.0, 11.0], [20.0, 21.0]])
    broken_positions = {
        "negative": [[2, -1], [1, 1]],
        "very negative": [[2, -7], [1, 1]],
        "at size": [[2, 3], [1, 1]],
        "far": [[2, 1000], [1, 1]],
    }
    for name, values in broken_positions.items():
        index = _positions(values)
        for op, thunk in {**_readers(index), **_writers(index, src)}.items():
            yield f"{op}: {name}", thunk
    for dtype in BAD_INDEX_DTYPES:
        index = _positions(good, dtype)
        for op, thunk in {**_readers(index), **_writers(index, src)}.items():
            yield f"{op}: {dtype}", thunk
    one_d, three_d = _positions([2, 0]), _positions([[[2, 0], [1, 1]]])
    for name, index in {"1-D": one_d, "3-D": three_d}.items():
        for op, thunk in {**_readers(index), **_writers(index, src)}.items():
            yield f"{op}: {name} index", thunk
    tall = _positions([[2, 0], [1, 1], [0, 0]])
    for op, thunk in {**_readers(tall), **_writers(tall, src)}.items():
        yield f"{op}: 3 index rows", thunk
    yield (
        "gather: empty input dim",
        lambda: torch.gather(
            torch.zeros(32, 0), 1, torch.zeros(32, 1, dtype=torch.int64)
        ),
    )
    yield (
        "gather: index wider than src",
        lambda: _x().scatter_(1, _positions([[0, 1, 2]]), src),
    )
    x = _x()
    index = _positions(good)
    for dim in (2, -3):
        yield f"gather: dim {dim}", lambda dim=dim: torch.gather(x, dim, index)
        yield (
            f"index_select: dim {dim}",
            lambda dim=dim: torch.index_select(x, dim, index[0]),
        )
        yield f"scatter_: dim {dim}", lambda dim=dim: _x().scatter_(dim, index, src)
    yield "gather: float dim", lambda: torch.gather(x, 1.0, index)  # type: ignore[arg-type]
    yield "gather: list index", lambda: torch.gather(x, 1, good)  # type: ignore[arg-type]
    yield "gather: numpy index", lambda: torch.gather(x, 1, index.numpy())  # type: ignore[arg-type]
    yield "gather: four positional", lambda: x.gather(1, index, 0)  # type: ignore[call-arg]
    yield "gather: out=", lambda: x.gather(1, index, out=x)  # type: ignore[call-arg]
    yield "gather: 0-d input", lambda: torch.gather(torch.tensor(5.0), 0, index)
    yield (
        "index_select: 0-d input, 2 positions",
        lambda: torch.index_select(torch.tensor(5.0), 0, index[0]),
    )
    yield (
        "index_select: empty input",
        lambda: torch.index_select(torch.zeros(2, 0), 1, index[0]),
    )
    yield "take: empty input", lambda: torch.take(torch.zeros(0), index)
    yield "take_along_dim: broadcast", lambda: torch.take_along_dim(x, tall, dim=1)
    yield (
        "take_along_dim: not flattenable",
        lambda: torch.take_along_dim(x.t(), index.t()),
    )
    yield "scatter_: int src", lambda: _x().scatter_(1, index, src.long())
    yield "index_add_: int source", lambda: _x().index_add_(1, index[0], src.long())
    yield "index_copy_: int source", lambda: _x().index_copy_(1, index[0], src.long())
    yield (
        "index_put_: int values",
        lambda: _x().index_put_((index[0], index[1]), torch.tensor([1, 2])),
    )
    yield (
        "index_put_: values too many",
        lambda: _x().index_put_((index[0], index[1]), torch.tensor([1.0, 2.0, 3.0])),
    )
    yield "index_add_: count", lambda: _x().index_add_(1, index[0][:1], src)
    yield "index_copy_: count", lambda: _x().index_copy_(1, index[0][:1], src)
    yield "put_: count", lambda: _x().put_(index[0], torch.tensor([1.0, 2.0, 3.0]))
    yield "scatter_reduce_: reduce", lambda: _x().scatter_reduce_(1, index, src, "max")
    yield "scatter_: reduce", lambda: _x().scatter_(1, index, src, reduce="sum")
    yield (
        "masked_scatter_: int mask",
        lambda: _x().masked_scatter_(
            torch.ones(2, 3, dtype=torch.int32), torch.arange(6.0)
        ),
    )
    yield "boolean mask: shape", lambda: x[torch.tensor([True, False, True])]
    yield "expand: size", lambda: index.unsqueeze(-1).expand(2, 3, 4)
    yield (
        "in-place on overlapping",
        lambda: (
            torch.zeros(1).expand(3).index_put_((torch.tensor([0]),), torch.tensor(1.0))
        ),
    )
    yield "assert_async", lambda: torch._assert_async(torch.tensor([True, False]))
    leaf = torch.zeros(3, requires_grad=True)
    yield "leaf in-place", lambda: leaf.scatter_(0, torch.tensor([1]), 5.0)
    yield "int requires_grad", lambda: torch.tensor([1, 2]).requires_grad_()
    yield "device", lambda: torch.gather(x.to("meta"), 1, index)


def tensorflow_calls() -> Iterator[tuple[str, Thunk]]:
    """Bad calls of tf.gather, tf.gather_nd and the tensor_scatter_nd / segment ops."""
    import tensorflow as tf

    x = tf.reshape(tf.range(6.0), (2, 3))
    updates = tf.constant([5.0, 6.0])
    for name, bad in {"negative": -1, "at size": 3, "far": 1000}.items():
        yield (
            f"tf.gather: {name}",
            lambda bad=bad: tf.gather(x, [[2, bad], [1, 1]], axis=1),
        )
        yield (
            f"tf.gather batch_dims: {name}",
            lambda bad=bad: tf.gather(x, [[2, bad], [1, 1]], axis=1, batch_dims=1),
        )
        pairs = [[0, bad], [1, 1]]
        yield f"tf.gather_nd: {name}", lambda pairs=pairs: tf.gather_nd(x, pairs)
        for op in ("update", "add", "sub", "min", "max"):
            scatter = getattr(tf, f"tensor_scatter_nd_{op}")
            yield (
                f"tf.tensor_scatter_nd_{op}: {name}",
                lambda s=scatter, p=pairs: s(x, p, updates),
            )
        yield (
            f"tf.scatter_nd: {name}",
            lambda pairs=pairs: tf.scatter_nd(pairs, updates, (2, 3)),
        )
        yield (
            f"unsorted_segment_sum: {name}",
            lambda bad=bad: tf.math.unsorted_segment_sum(x, [0, bad], 3),
        )
    for dtype in (tf.float32, tf.bool, tf.uint8):
        positions = tf.cast(tf.constant([[2, 0], [1, 1]]), dtype)
        yield f"tf.gather: {dtype.name}", lambda p=positions: tf.gather(x, p, axis=1)
        yield f"tf.gather_nd: {dtype.name}", lambda p=positions: tf.gather_nd(x, p)
        yield (
            f"tensor_scatter_nd_update: {dtype.name}",
            lambda p=positions: tf.tensor_scatter_nd_update(x, p, updates),
        )
        yield (
            f"tensor_scatter_nd_add: {dtype.name}",
            lambda p=positions: tf.tensor_scatter_nd_add(x, p, updates),
        )
    rows = tf.constant([0, 1])
    cols64 = tf.constant([2, 1], dtype=tf.int64)
    yield "tf.stack int32 and int64", lambda: tf.stack([rows, cols64], axis=1)
    yield "tf.stack: shapes", lambda: tf.stack([rows, tf.constant([[2, 1]])], axis=-1)
    yield (
        "tf.gather: batch_dims past axis",
        lambda: tf.gather(tf.reshape(x, (2, 3, 1)), [[0], [1]], axis=1, batch_dims=2),
    )
    yield (
        "tf.gather: batch_dims, no axis left",
        lambda: tf.gather(x, [[0], [1]], axis=1, batch_dims=2),
    )
    yield "tf.gather: axis", lambda: tf.gather(x, [0, 1], axis=2)
    yield "tf.gather: batch_dims", lambda: tf.gather(x, [0, 1], axis=1, batch_dims=1)
    yield (
        "tf.gather: batch sizes",
        lambda: tf.gather(x, [[0], [1], [2]], axis=1, batch_dims=1),
    )
    yield "tf.gather_nd: scalar", lambda: tf.gather_nd(x, 1)
    yield "tf.gather_nd: too deep", lambda: tf.gather_nd(x, [[0, 1, 2]])
    yield (
        "tensor_scatter_nd_update: updates shape",
        lambda: tf.tensor_scatter_nd_update(x, [[0, 1], [1, 1]], [5.0, 6.0, 7.0]),
    )
    yield (
        "tensor_scatter_nd_update: updates dtype",
        lambda: tf.tensor_scatter_nd_update(x, [[0, 1], [1, 1]], tf.constant([5, 6])),
    )
    yield (
        "tensor_scatter_nd_update: slices",
        lambda: tf.tensor_scatter_nd_update(x, [[0], [1]], [5.0, 6.0]),
    )
    yield "tf.scatter_nd: shape", lambda: tf.scatter_nd([[0, 5]], [1.0], (2, 3))
    yield "tf.gather: float params int32 mix", lambda: tf.gather(x, tf.constant([0.5]))
    yield (
        "tf.gather_nd: batch_dims",
        lambda: tf.gather_nd(x, [[0], [1], [1]], batch_dims=1),
    )
    for axis in ([0, 1], (0, 1), tf.constant([1])):  # several axes: one is taken
        yield "tf.gather: axis list", lambda a=axis: tf.gather(x, [[0, 1]], axis=a)
    cube = tf.reshape(tf.range(24.0), (2, 3, 4))
    for mask in ([True, False, True], [[True]]):  # not the leading dims' shape
        yield "tf.boolean_mask: shape", lambda m=mask: tf.boolean_mask(cube, m)
    values = tf.constant([1.0, 2.0, 3.0])
    for name in ("sum", "mean", "max", "min", "prod"):
        segment = getattr(tf.math, f"segment_{name}")
        for ids in ([1, 0, 1], [0, -1, 1], [0, 0, -1], [-1, -1, 0], [0, 1]):
            yield (
                f"tf.math.segment_{name}: {ids}",
                lambda s=segment, i=ids: s(values, tf.constant(i)),
            )


def messages(calls: Iterator[tuple[str, Thunk]]) -> dict[str, str]:
    """Each distinct error the calls raise, ``TypeName: message`` -> the first label."""
    found: dict[str, str] = {}
    for label, thunk in calls:
        try:
            thunk()
        except Exception as error:  # every library error is what is collected
            text = f"{type(error).__name__}: {error}".strip()
            found.setdefault(text, label)
    return found

"""Facts the review corrected in chapters 4 and 5, pinned on the installed versions.

Each test fails when a library changes the behaviour a chapter now states, so the
sentence can be revisited (the chapters' outputs repeat it, but say less about why).
"""

from __future__ import annotations

import pytest
import torch

from gatherlab.tf import tensorflow

tf = tensorflow()
X = tf.constant([[10, 11, 12], [20, 21, 22]])


def test_xla_clamps_bad_positions_on_the_cpu_where_eager_raises():
    bad_rows = tf.constant([[0, 3], [1, -1]])
    bad_coordinates = tf.constant([[0, 3], [1, 2], [1, -1]])
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.gather(X, bad_rows, axis=1, batch_dims=1)
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.gather_nd(X, bad_coordinates)

    @tf.function(jit_compile=True)
    def gather(params, indices):
        return tf.gather(params, indices, axis=1, batch_dims=1)

    @tf.function(jit_compile=True)
    def gather_nd(params, indices):
        return tf.gather_nd(params, indices)

    with tf.device("/CPU:0"):
        assert gather(X, bad_rows).numpy().tolist() == [[10, 12], [21, 20]]
        as_int64 = tf.cast(bad_rows, tf.int64)  # -1 lands at the other end
        assert gather(X, as_int64).numpy().tolist() == [[10, 12], [21, 22]]
        assert gather_nd(X, bad_coordinates).numpy().tolist() == [12, 22, 20]


def test_batch_dims_refuses_an_index_with_fewer_batch_rows():
    with pytest.raises(tf.errors.InvalidArgumentError, match="should be equal"):
        tf.gather(X, [[2, 0]], axis=1, batch_dims=1)


def _gradient(read):
    matrix = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(read(matrix))
    return tape.gradient(loss, matrix)


@pytest.mark.parametrize(
    ("read", "sliced"),
    [
        (lambda m: tf.gather(m, [[1], [0]], axis=0), True),
        (lambda m: tf.gather(m, [1, 1], axis=-2), False),
        (lambda m: tf.gather_nd(m, [[1], [0]]), True),
        (lambda m: tf.gather_nd(m, [[[1]], [[0]]]), False),
    ],
    ids=["axis 0, 2-D index", "axis -2", "gather_nd [N, 1]", "gather_nd [N, 1, 1]"],
)
def test_indexed_slices_only_for_axis_0_or_n_by_1_coordinates(read, sliced):
    assert isinstance(_gradient(read), tf.IndexedSlices) is sliced


def test_tensorflow_gives_no_gradient_for_the_positions():
    values = tf.Variable([10.0, 20.0, 30.0])
    positions = tf.Variable([1, 2])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.gather(values, positions))
    _, for_positions = tape.gradient(loss, [values, positions])
    assert for_positions is None


def test_an_inference_tensor_joins_autograd_unless_it_must_be_saved():
    source = torch.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
    with torch.inference_mode():
        picked = torch.gather(source, 1, torch.tensor([[2, 0]]))
    weight = torch.tensor([[0.5, 0.5]], requires_grad=True)
    (weight + picked).sum().backward()
    assert weight.grad.tolist() == [[1.0, 1.0]]
    with pytest.raises(RuntimeError, match="cannot be saved for backward"):
        (weight * picked).sum().backward()
    assert not picked.clone().is_inference()
    with pytest.raises(RuntimeError, match="Inplace update to inference tensor"):
        picked.add_(1)
    assert picked.tolist() == [[4.0, 2.0]]  # refused, yet written (chapter 5 says so)


@pytest.mark.parametrize(
    ("optimizer", "options", "accepts"),
    [
        (torch.optim.SGD, {}, True),
        (torch.optim.SGD, {"weight_decay": 0.01}, False),
        (torch.optim.Adagrad, {}, True),
        (torch.optim.Adagrad, {"weight_decay": 0.01}, False),
        (torch.optim.SparseAdam, {}, True),
        (torch.optim.Adam, {}, False),
        (torch.optim.AdamW, {}, False),
        (torch.optim.RMSprop, {}, False),
    ],
)
def test_which_optimizers_step_on_a_sparse_gather_gradient(optimizer, options, accepts):
    table = torch.randn(10, 4, requires_grad=True)
    rows = torch.tensor([[1], [3]]).expand(-1, 4)
    torch.gather(table, 0, rows, sparse_grad=True).sum().backward()
    before = table.detach().clone()
    with torch.sparse.check_sparse_tensor_invariants():
        if accepts:
            optimizer([table], lr=0.1, **options).step()
            changed = (table.detach() != before).any(dim=1)
            assert changed.nonzero().flatten().tolist() == [1, 3]
        else:
            with pytest.raises(RuntimeError):
                optimizer([table], lr=0.1, **options).step()

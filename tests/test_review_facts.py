"""Facts the review corrected in chapters 4 and 5, pinned on the installed versions.

Each test fails when a library changes the behaviour a chapter now states, so the
sentence can be revisited (the chapters' outputs repeat it, but say less about why).
"""

from __future__ import annotations

import pytest
import torch

from gatherlab.compiled import graph_breaks
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


# The third review's corrections and topics (chapters 1 to 5), pinned the same way.


def test_keras_auto_jit_compile_is_off_on_a_cpu_only_machine():
    import keras

    if any(d.device_type != "CPU" for d in tf.config.list_physical_devices()):
        pytest.skip("TensorFlow lists an accelerator: 'auto' would resolve to XLA")
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    model.compile(optimizer="sgd", loss="mse")
    assert model.jit_compile is False


def test_a_leaf_that_requires_grad_refuses_in_place_changes_with_no_graph():
    leaf = torch.randn(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        leaf.sub_(1)
    with torch.no_grad():
        leaf.sub_(1)
    assert leaf.is_leaf


def test_a_dense_use_beside_an_axis_0_gather_makes_the_gradient_dense():
    matrix = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    with tf.GradientTape() as tape:
        alone = tf.reduce_sum(tf.gather(matrix, [1, 1], axis=0))
    assert isinstance(tape.gradient(alone, matrix), tf.IndexedSlices)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.gather(matrix, [1, 1], axis=0))
        loss += 0.5 * tf.reduce_sum(matrix**2)
    mixed = tape.gradient(loss, matrix)
    assert not isinstance(mixed, tf.IndexedSlices)
    assert mixed.numpy().tolist() == [[1.0, 2.0, 3.0], [6.0, 7.0, 8.0]]


_X = torch.tensor([[10, 11, 12], [20, 21, 22]])
_READERS = {
    "gather": lambda i: torch.gather(_X, 1, i),
    "index_select": lambda i: torch.index_select(_X, 1, i[0]),
    "advanced indexing": lambda i: _X[torch.arange(2)[:, None], i],
    "scatter_add": lambda i: torch.zeros_like(_X).scatter_add(1, i, _X[:, :2]),
    "F.embedding": lambda i: torch.nn.functional.embedding(i, _X.T),
    "take_along_dim, no dim": lambda i: torch.take_along_dim(_X, i),
    "take_along_dim, dim": lambda i: torch.take_along_dim(_X, i, 1),
    "take": lambda i: torch.take(_X, i),
}


@pytest.mark.parametrize("name", sorted(_READERS))
def test_which_readers_take_an_int32_index(name):
    index = torch.tensor([[2, 0], [1, 1]], dtype=torch.int32)
    if name in ("take_along_dim, dim", "take"):
        with pytest.raises(RuntimeError, match="(?i)long"):
            _READERS[name](index)
    else:
        assert torch.equal(_READERS[name](index), _READERS[name](index.long()))


def test_gathers_docstring_still_calls_the_index_a_long_tensor():
    assert "index (LongTensor)" in torch.gather.__doc__  # pytorch#173886 was closed


def test_rocm_kernel_assertions_abort_in_the_shipped_headers():
    from pathlib import Path

    macros = Path(torch.__file__).parent / "include/torch/headeronly/macros/Macros.h"
    text = macros.read_text()
    rocm = text.index("#if !defined(C10_USE_ROCM_KERNEL_ASSERT) && defined(USE_ROCM)")
    assert "abort();" in text[rocm : rocm + 200]


@pytest.mark.parametrize(
    ("select", "breaks"),
    [
        (lambda x, m: x[m] * 2, 1),
        (lambda x, m: torch.masked_select(x, m) * 2, 1),
        (lambda x, m: m.nonzero() * 2, 1),
        (lambda x, m: torch.where(m, x, 0) * 2, 0),
        (lambda x, m: m.int().argmax(dim=1) * 2, 0),
        (lambda x, m: torch.topk(x * m, 2, dim=1).indices * 2, 0),
    ],
    ids=["x[mask]", "masked_select", "nonzero", "where", "argmax", "topk"],
)
def test_only_data_dependent_shapes_break_the_compiled_graph(select, breaks):
    values = torch.arange(20.0).reshape(4, 5)
    assert len(graph_breaks(select, values, values > 12)) == breaks


def test_each_readers_backward_is_its_scatter_into_a_dense_zero_gradient():
    table = torch.randn(4, 3, requires_grad=True)
    rows = torch.tensor([1, 1, 3])
    upstream = torch.randn(3, 3)
    cases = [
        (
            torch.index_select(table, 0, rows),
            "IndexSelectBackward0",
            torch.zeros(4, 3).index_add_(0, rows, upstream),
        ),
        (
            table[rows],
            "IndexBackward0",
            torch.zeros(4, 3).index_put_((rows,), upstream, accumulate=True),
        ),
        (
            torch.gather(table, 0, rows[:, None].expand(-1, 3)),
            "GatherBackward0",
            torch.zeros(4, 3).scatter_add_(0, rows[:, None].expand(-1, 3), upstream),
        ),
    ]
    for out, node, expected in cases:
        assert type(out.grad_fn).__name__ == node
        (grad,) = torch.autograd.grad(out, table, upstream)
        assert grad.layout == torch.strided and torch.equal(grad, expected)


def test_flat_positions_wrap_in_int32_without_an_error():
    row = torch.tensor([21_475], dtype=torch.int32)
    assert (row * 100_000 + 99_999).item() == -2_147_367_297
    assert (row.long() * 100_000 + 99_999).item() == 2_147_599_999


def test_assert_async_raises_at_once_on_the_cpu():
    torch._assert_async(torch.tensor(True))
    with pytest.raises(RuntimeError, match="nonzero"):
        torch._assert_async(torch.tensor(False))


def test_a_plain_tf_function_raises_like_eager_mode_on_the_cpu():
    @tf.function
    def gather(params, indices):
        return tf.gather(params, indices, axis=1, batch_dims=1)

    with tf.device("/CPU:0"), pytest.raises(tf.errors.InvalidArgumentError):
        gather(X, tf.constant([[0, 3], [1, 2]]))

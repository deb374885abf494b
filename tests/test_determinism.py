"""gl.determinism: the docstring's two lists read as entries, joined with every op."""

from __future__ import annotations

import pytest
import torch

from gatherlab import determinism

SAMPLE = """
    The following normally-nondeterministic operations will act
    deterministically when ``mode=True``:

        * :func:`torch.Tensor.index_put` with ``accumulate=True`` when called on a CPU
          tensor
        * :func:`torch.gather` when called on a CUDA tensor that requires grad

    The following normally-nondeterministic operations will throw a
    :class:`RuntimeError` when ``mode=True``:

        * :func:`torch.Tensor.put_` when ``accumulate=False``

    A handful of CUDA operations are nondeterministic if the CUDA version is
"""


def test_the_two_lists_are_read_with_their_conditions_and_devices():
    entries = determinism.docstring_entries(SAMPLE)
    assert [(e.op, e.effect, e.devices()) for e in entries] == [
        ("torch.Tensor.index_put", "deterministic", ("CPU",)),
        ("torch.gather", "deterministic", ("CUDA",)),
        ("torch.Tensor.put_", "raises", ("CPU", "CUDA")),
    ]
    assert (
        entries[0].condition == "with ``accumulate=True`` when called on a CPU tensor"
    )


def test_every_docstring_name_the_family_uses_is_in_this_torch():
    named = {entry.op for entry in determinism.docstring_entries()}
    used = {op for row in determinism.FAMILY for op in row.entry_ops}
    assert used - named <= {
        "torch.nn.Embedding",
        f"{determinism.T}index_fill",
        f"{determinism.T}masked_scatter",
    }


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("gather", ["scatter_add"]),
        ("x[rows]", ["index_put(accumulate=True)"]),
        ("take", ["put(accumulate=True)"]),
        ("index_select", ["index_add"]),
    ],
)
def test_each_readers_backward_runs_the_write_the_table_names(name, expected):
    assert determinism.backward_ops(determinism._calls()[name]) == expected


def test_the_mode_is_measured_and_put_back():
    calls = determinism._calls()
    assert determinism.cpu_outcome(calls["put_ (accumulate=False)"]) == (
        "raises RuntimeError"
    )
    assert determinism.cpu_outcome(calls["index_put_ (accumulate=True)"]) == "runs"
    assert not torch.are_deterministic_algorithms_enabled()

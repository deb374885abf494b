"""Cases the scatter explorer's browser code must answer as gl.reference and torch do.

``tools/cases/generate.py`` writes ``tests/js/generated/scatter_cases.json.gz``:
calls of ``scatter_`` and ``scatter_reduce_`` (every reduction, with and without the old
value), drawn by ``tests.scatter_cases.draw_write`` with a seeded generator, most then
broken in one way (a position out of range, an index larger than src or than x, a rank
or dtype mismatch). Each valid call stores the spec's writes and torch's output (the
spec agreeing with torch, the last write kept where PyTorch promises none); each broken
one stores the spec's message, torch having raised too. ``tests/js/scatter.test.mjs``
(``node --test``, in ``make test``) runs them against ``gatherlab/browser/explorers/
scatter.mjs``; ``tests/test_widgets.py`` regenerates a sample so the file cannot go
stale.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import numpy as np
import torch

import gatherlab as gl
from tests.scatter_cases import REDUCE_OPS, draw_write
from tools.cases.agreement_cases import _tensor

ROOT = Path(__file__).resolve().parents[2]
SEED = 20261206
CALLS = 1200
OPS = ("scatter", "scatter_add", *REDUCE_OPS)
BREAKS = ("valid", "valid", "valid", "too-large", "negative", "bigger-than-src",
          "bigger-than-x", "rank", "float-index", "src-dtype")  # fmt: skip


def _mode(op: str) -> tuple[str, bool]:
    """(reduce, include_self) as the explorer names them; scatter_add is sum with it."""
    if op == "scatter":
        return "none", True
    if op == "scatter_add":
        return "sum", True
    _, reduce, include = op.split(".")
    return reduce, include == "self"


def _broken(rng: np.random.Generator, how: str, x, dim: int, index, src):
    """The call's (index, src) broken in one way."""
    along = dim % x.ndim
    if how in ("too-large", "negative"):
        index = index.clone()
        flat = int(rng.integers(index.numel()))
        wrong = x.shape[along] + int(rng.integers(0, 3))
        index.view(-1)[flat] = (
            wrong if how == "too-large" else -1 - int(rng.integers(2))
        )
    elif how == "bigger-than-src":  # src one shorter than the index along d
        d = int(rng.integers(x.ndim))
        src = src.narrow(d, 0, index.shape[d] - 1)
    elif how == "bigger-than-x":  # the index one longer than x along a dim not dim
        others = [d for d in range(x.ndim) if d != along]
        if others:
            d = others[int(rng.integers(len(others)))]
            extra = x.shape[d] + 1 - index.shape[d]
            index = torch.cat([index] + [index.narrow(d, 0, 1)] * extra, dim=d)
            src = torch.cat([src] + [src.narrow(d, 0, 1)] * (extra + 1), dim=d)
    elif how == "rank":
        index = index.unsqueeze(0) if rng.integers(2) else index
        src = src if index.ndim != x.ndim else src.unsqueeze(0)
    elif how == "float-index":
        index = index.to(torch.float64)
    elif how == "src-dtype":
        src = src.to(torch.float64 if not src.dtype.is_floating_point else torch.int64)
    return index.contiguous(), src.contiguous()


def draw_case(rng: np.random.Generator) -> dict[str, Any]:
    """One call, valid or broken, with what gl.reference says and torch confirms."""
    op = OPS[int(rng.integers(len(OPS)))]
    call = draw_write(rng, op)
    while not isinstance(call.args[2], torch.Tensor):  # the explorer's src is a tensor
        call = draw_write(rng, op)
    dim, index, src = call.args
    how = BREAKS[int(rng.integers(len(BREAKS)))]
    index, src = _broken(rng, how, call.target, dim, index, src)
    reduce, include_self = _mode(op)
    case = {
        "x": _tensor(call.target),
        "dim": dim,
        "index": _tensor(index),
        "src": _tensor(src),
        "reduce": reduce,
        "include_self": include_self,
    }
    out = call.target.clone()
    try:
        writes = gl.reference.scatter_writes(call.target, dim, index, src)
    except (IndexError, ValueError, TypeError) as error:
        try:
            if reduce == "none":
                out.scatter_(dim, index, src)
            else:
                out.scatter_reduce_(dim, index, src, reduce, include_self=include_self)
        except (RuntimeError, IndexError):
            case["message"] = str(error)
            return case
        raise AssertionError(f"torch ran where the spec refused: {case}") from error
    if reduce == "none":
        out.scatter_(dim, index, src)
        expected = gl.reference.scatter(call.target, dim, index, src)
    else:
        out.scatter_reduce_(dim, index, src, reduce, include_self=include_self)
        expected = gl.reference.scatter_reduce(
            call.target, dim, index, src, reduce, include_self
        )
    kept_one = reduce == "none" and len({t for t, _ in writes}) < len(writes)
    if not kept_one:  # where a position is written twice, torch promises no winner
        assert torch.allclose(out.double(), expected.double(), rtol=1e-12), case
    case["writes"] = [
        [list(target), np.asarray(value).item()] for target, value in writes
    ]
    case["output"] = _tensor(expected)
    return case


# scatter_ with a Python number as src, as a learner's function may write it (the
# explorer's src is a tensor): (x's shape, dim, index, the number); the page fills the
# number to the index's shape.
SCALAR_CALLS = (
    ((2, 3), 1, [1, 2], 1),
    ((2, 3), 1, [[2], [0]], 7),
    ((2, 3), 0, [[1, 0, 1]], -4),
    ((2, 3), 1, [[3], [0]], 1),
    ((3,), 0, [[0]], 5),
)


def scalar_cases() -> list[dict[str, Any]]:
    """Each of SCALAR_CALLS with the spec's writes and output, or its refusal (torch
    refusing too)."""
    found = []
    for shape, dim, positions, number in SCALAR_CALLS:
        x = torch.arange(int(np.prod(shape))).reshape(shape)
        index = torch.tensor(positions)
        filled = torch.full(index.shape, number, dtype=x.dtype)
        case = {"x": _tensor(x), "dim": dim, "index": _tensor(index),
                "src": _tensor(filled), "scalar": True, "reduce": "none",
                "include_self": True}  # fmt: skip
        try:
            writes = gl.reference.scatter_writes(x, dim, index, number)
        except (IndexError, ValueError) as error:
            try:
                x.clone().scatter_(dim, index, number)
            except RuntimeError:
                case["message"] = str(error)
                found.append(case)
                continue
            raise AssertionError(f"torch ran where the spec refused: {case}") from error
        out = x.clone().scatter_(dim, index, number)
        assert torch.equal(out, gl.reference.scatter(x, dim, index, number)), case
        case["writes"] = [[list(t), np.asarray(v).item()] for t, v in writes]
        case["output"] = _tensor(out)
        found.append(case)
    return found


# A 0-d tensor as src, a learner's torch.tensor(1) for the number scatter_ takes: (x's
# shape, dim, index, the src's one value); torch and the spec refuse each.
ZERO_D_SRC_CALLS = (
    ((2, 3), 1, [[0], [2]], 5),
    ((4,), 0, [1, 3], 1),
)


def zero_d_src_cases() -> list[dict[str, Any]]:
    """Each of ZERO_D_SRC_CALLS with the spec's refusal, torch refusing too."""
    found = []
    for shape, dim, positions, number in ZERO_D_SRC_CALLS:
        x = torch.arange(int(np.prod(shape))).reshape(shape)
        index, src = torch.tensor(positions), torch.tensor(number)
        try:
            gl.reference.scatter_writes(x, dim, index, src)
        except ValueError as refused:
            message = str(refused)
        else:
            raise AssertionError(f"the spec ran a 0-d src: {shape, dim, positions}")
        try:
            x.clone().scatter_(dim, index, src)
        except RuntimeError:
            found.append(
                {"x": _tensor(x), "dim": dim, "index": _tensor(index),
                 "src": _tensor(src), "reduce": "none", "include_self": True,
                 "message": message}
            )  # fmt: skip
            continue
        raise AssertionError(f"torch ran a 0-d src: {shape, dim, positions}")
    return found


def cases(count: int = CALLS, seed: int = SEED) -> list[dict[str, Any]]:
    rng = np.random.default_rng(seed)
    return [draw_case(rng) for _ in range(count)] + scalar_cases() + zero_d_src_cases()


def write(path: Path) -> str:
    data = cases()
    text = json.dumps(data, separators=(",", ":"))
    path.write_bytes(gzip.compress(text.encode(), mtime=0))
    refused = sum("message" in c for c in data)
    return f"{len(data)} calls ({refused} refused)"

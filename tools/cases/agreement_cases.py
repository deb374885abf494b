"""Cases that the explorers' browser code must answer exactly as gatherlab and torch do.

``tools/cases/generate.py`` writes ``tests/js/generated/agreement_cases.json.gz``:
calls of gather, take_along_dim, index_select and take (ranks 0-4, size-0 and size-1
axes, negative dims, valid and broken in one drawn way) with ``gl.diagnose``'s problems
or ``gl.trace``'s steps and trace lines, each valid call's output checked against torch
and each invalid one checked to raise in torch; texts for the tensor parser with
``parse_tensor``'s result or message; and floats with their ``repr`` and ``.4g``
forms. ``tests/js/agreement.test.mjs`` (``node --test``, in ``make test``) runs them
against ``gatherlab/browser/explorers/core.mjs`` (and python.mjs's ``floatRepr``);
the file is made again whenever gatherlab, torch or this file changed, so a wording
change anywhere reaches those tests.
The calls are drawn as ``tests/gather_cases.py`` draws them for the property tests, with
a seeded NumPy generator instead of hypothesis, so the file is reproducible.
The browser only ever holds contiguous tensors on one device, so strides, devices and
non-tensor arguments are not drawn.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import numpy as np
import torch

import gatherlab as gl
from gatherlab.trace import format_value
from gatherlab.widgets import _op_comparison as op_comparison
from gatherlab.widgets._parse import ParseError, parse_tensor
from tests.gather_cases import BAD_DTYPES, OPS, _valid_range, break_index

ROOT = Path(__file__).resolve().parents[2]
SEED = 20261201
CALLS = 6000
MUTATIONS = ("valid", "valid", "negative", "too-large", "dtype", "rank", "bigger-index",
             "empty", "dim-out-of-range")  # fmt: skip
SIZES = (1, 2, 3, 4, 1, 2, 3, 0)
FLOATS = (0.5, 1.25, -2.0, 3.0, 0.1, 1e-05, 12345.0, 2.5e-3, -0.75, 100.0)


def _shape(rng: np.random.Generator, low: int, high: int) -> tuple[int, ...]:
    return tuple(
        int(rng.choice(SIZES)) for _ in range(int(rng.integers(low, high + 1)))
    )


def _index_shape(rng, op: str, shape: tuple, dim: int | None) -> tuple[int, ...]:
    if op == "index_select":
        return [(), (0,), (1,), (2,), (3,), (5,)][int(rng.integers(6))]
    if op == "take" or dim is None:
        return _shape(rng, 0 if op == "take" else 1, 3)
    if not shape:
        return ()
    sizes = []
    for d, size in enumerate(shape):
        if d == dim % len(shape):
            sizes.append(int(rng.integers(1, 5)))
        elif op == "gather":
            sizes.append(int(rng.choice((size, size, max(size - 1, 0)))))
        else:
            sizes.append(int(rng.choice((size, size, 1, 2))))
    return tuple(sizes)


# Calls for the message shapes the seeded draw never makes (tests/test_widgets.py checks
# that every shape core.mjs can word has a case): take_along_dim with a dim on a 0-d
# input, with a 0-d index (the draw gives a 0-d input a 1-D index: rank-mismatch).
FIXED_CALLS = (
    ("take_along_dim", np.array(5), 0, torch.tensor(0)),
    ("take_along_dim", np.array(2.5), -1, torch.tensor(3)),
)


def draw_call(rng: np.random.Generator) -> tuple[str, np.ndarray, int | None, Any]:
    """One call: op, input, dim and a torch index, valid or broken in one way."""
    op = str(rng.choice(OPS))
    mutation = str(rng.choice(MUTATIONS))
    shape = _shape(rng, 0 if rng.integers(12) == 0 else 1, 4)
    rank = len(shape)
    dim = int(rng.integers(-max(rank, 1), max(rank, 1)))
    if op == "take" or (op == "take_along_dim" and rng.integers(5) == 0):
        dim = None
    index_shape = _index_shape(rng, op, shape, dim)
    low, high = _valid_range(op, shape or (1,), dim)  # a 0-d input has one entry
    index = (
        rng.integers(low, high, size=index_shape)
        if high > low
        else np.zeros(index_shape, dtype=np.int64)
    ).astype(np.int64)
    if rng.integers(4) == 0:
        source = rng.choice(FLOATS, size=shape) * rng.choice((1, -1), size=shape)
    else:
        source = rng.integers(-99, 100, size=shape)
    size = int(np.prod(shape)) if dim is None else (shape[dim % rank] if rank else 1)
    index, dim = break_index(
        index,
        dim,
        rank,
        op,
        mutation,
        size,
        where=lambda s: int(rng.integers(0, s)),
        amount=lambda low, high: int(rng.integers(low, high + 1)),
        pick=lambda options: int(rng.choice(options)),
        coin=lambda: bool(rng.integers(2)),
    )
    positions = torch.as_tensor(np.ascontiguousarray(index))
    if mutation == "dtype":
        positions = positions.to(BAD_DTYPES[int(rng.integers(len(BAD_DTYPES)))])
    return op, source, dim, positions


def _tensor(values: Any) -> dict[str, Any]:
    array = values.numpy() if isinstance(values, torch.Tensor) else np.asarray(values)
    data = array.reshape(-1).tolist()
    if array.dtype == np.bool_:
        data = [int(v) for v in data]
    return {"shape": list(array.shape), "data": data, "dtype": array.dtype.name}


def _run(op: str, source: torch.Tensor, dim: int | None, index: torch.Tensor):
    if op == "take":
        return torch.take(source, index)
    if op == "take_along_dim":
        return torch.take_along_dim(source, index, dim)
    return getattr(torch, op)(source, dim, index)


def call_case(op: str, source: np.ndarray, dim: int | None, index: Any) -> dict:
    """The case for one call, with what gatherlab says and torch confirms."""
    input = torch.as_tensor(source)
    case = {"op": op, "input": _tensor(source), "dim": dim, "index": _tensor(index)}
    problems = gl.diagnose(input, dim, index, op)
    try:
        output = _run(op, input, dim, index)
    except (RuntimeError, IndexError) as error:
        assert problems, f"torch raised but diagnose passed: {case}: {error}"
        case["problems"] = [
            {"rule": p.rule, "message": p.message, "hint": p.hint,
             "where": None if p.where is None else list(p.where)}
            for p in problems
        ]  # fmt: skip
        return case
    assert not problems, f"torch ran but diagnose objects: {case}: {problems}"
    traced = gl.trace(source, dim, index.numpy(), op)
    assert np.array_equal(
        np.array([s.value for s in traced], dtype=source.dtype),
        output.numpy().reshape(-1),
    ), f"trace disagrees with torch: {case}"
    case["shape"] = list(output.shape)
    case["dim_used"] = traced.dim
    case["steps"] = [
        [list(s.out), list(s.index_at), s.position, s.used, list(s.source),
         np.asarray(s.value).item(), s.flat]
        for s in traced
    ]  # fmt: skip
    case["lines"] = str(traced).splitlines()
    return case


PARSE_TEXTS = (
    "[[2, 0], [1, 1]]", "[1, 2, 3]", "[[1.5, 2], [3, 4]]", "[]", "[[]]", "7", "-3",
    "[[1, 2], [3]]", "[[1, 2], 3]", "[1, 2", "abc", "[1,, 2]", "[1 2]", "(1, 2)",
    "[(1, 2), (3, 4)]", "[1e3, 2]", "[.5, -1.]", "[[[[1]]]]", "[[[[[1]]]]]",
    "[" + ", ".join(["1"] * 37) + "]", "  [ 1 ,2 ]  ", "[1, 'a']", "[-0, +4]",
    "[[0, 1], [2, 3]],", "[1,]", "['x']", "[[1, 2], [3, 4]] x", "",
    "[[1, True], [3]]", "None", "[1, \"b\"]", "[[1, 2], [3, 'c']]", "1, 2", "[1], [2],",
    # what literal_eval reads beyond plain lists (the parser is the evaluator's grammar)
    "1_000", "[0x10, 0o7, 0b1]", "[1, 2]  # two", "...", "[\"it's\"]", "[--1]",
    "[-(2), +(3.5)]", "'a' 'b'", "[1e3, 1E-2]", "[[1, 2],\n [3, 4]]", "[1]\n[2]", "()",
    "(7)", "[1, None]", "[-True]", "[1_0.5]", "[1.]", "[x]", "[1 +]",
)  # fmt: skip
# Floats for Python's repr and gatherlab.trace.format_value (.4g): ties, both notations'
# edges, the smallest and largest doubles.
REPR_FLOATS = (
    0.1, -0.0, 0.0, 1.0, 1e16, 1e15, 9999999999999998.0, 1.5e-05, 1e-04, 0.00012,
    123.456, 1e22, -2.5, 5e-324, 1.7976931348623157e308, 100.0, 1000.0, 1234.0,
    1234.5, 12345.0, 99999.0, 0.00012345, 2.5e-3, 1e21, 12345678901234567.0,
    0.30000000000000004, -1e-07, 1 / 3, -9999.5, 0.5, 2.0**60,
)  # fmt: skip


def parse_case(text: str) -> dict:
    try:
        array = parse_tensor(text)
    except ParseError as error:
        return {"text": text, "error": str(error)}
    return {"text": text, "tensor": _tensor(array)}


def repr_case(value: float) -> dict:
    """A float with Python's repr of it and gatherlab's .4g form."""
    return {"value": value, "repr": repr(value), "format": format_value(value)}


def draw_library_call(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, int]:
    """x (rank 1-3), an index of x's rank mostly, positions around the valid range."""
    x = rng.integers(-9, 10, size=_shape(rng, 1, 3))
    dim = int(rng.integers(x.ndim))
    rank = x.ndim if rng.integers(4) else int(rng.integers(0, 4))
    shape = tuple(int(rng.choice((0, 1, 2, 2, 3))) for _ in range(rank))
    size = x.shape[dim]
    index = rng.integers(-size - 1, size + 2, size=shape)
    if rng.integers(8) == 0:
        index = index + 0.5
    return x, index, dim


def library_case(x: np.ndarray, index: np.ndarray, dim: int) -> dict:
    """What advanced indexing and TensorFlow's ops do, as the explorer saves it."""
    results = op_comparison.compute(x, index, dim)
    ops = [op_comparison.as_entry(r) for r in results]
    chosen = [op for op in ops if op["name"] in op_comparison.LIBRARY_OPS]
    return {"x": _tensor(x), "index": _tensor(index), "dim": dim, "ops": chosen}


def cases(count: int = CALLS, seed: int = SEED) -> dict[str, list]:
    """``count`` call cases drawn from ``seed``, a sixth as many calls of the ops only
    the libraries run, and the parser cases."""
    rng, library_rng = np.random.default_rng(seed), np.random.default_rng(seed + 1)
    calls = [call_case(*draw_call(rng)) for _ in range(count)]
    calls += [call_case(*call) for call in FIXED_CALLS]
    library = [library_case(*draw_library_call(library_rng)) for _ in range(count // 6)]
    parse = [parse_case(t) for t in PARSE_TEXTS]
    reprs = [repr_case(v) for v in REPR_FLOATS]
    return {"calls": calls, "library": library, "parse": parse, "reprs": reprs}


def write(path: Path) -> str:
    data = cases()
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    path.write_bytes(gzip.compress(text.encode(), mtime=0))
    invalid = sum("problems" in c for c in data["calls"])
    return (
        f"{len(data['calls'])} calls ({invalid} invalid), "
        f"{len(data['library'])} library-op calls, {len(data['parse'])} parser texts"
    )

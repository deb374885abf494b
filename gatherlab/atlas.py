"""The behaviour atlas: what each selection op really does on each edge case, measured.

Every op of the book runs on the same small cases (a valid call, a negative position,
a position equal to the size, int32 and float positions, an index smaller or larger
than the input...) in each mode it has (eager; ``torch.compile``; ``tf.function`` with
XLA). Each outcome is recorded as values and shape, or as the error class and the
first line of its message. ``measure`` does that for the installed library;
``atlas.json`` beside this file stores the outcomes with the versions that produced
them (one column per library release, measured by ``tools/measure/measure_atlas.py``);
``table`` and ``changes`` render the stored columns for the chapters, and the tests
re-measure the installed versions and fail where the stored atlas disagrees.

This module imports only the standard library at load time (torch, NumPy and TensorFlow
are imported when measured), so the measuring tool can run it in a bare environment.
"""

from __future__ import annotations

import datetime
import html
import json
import platform
import re
import textwrap
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gatherlab.errors import TF_NODE, TF_OP

ATLAS_PATH = Path(__file__).with_name("atlas.json")
LIBRARIES = ("torch", "numpy", "tensorflow")

# The input of every case: each value spells its place, 10 * (row + 1) + column.
X = [[10, 11, 12], [20, 21, 22]]
FAR = 10**6
EMPTY_PAIRS = "no (row, column) pairs: shape (0, 2)"

# How an op reads its positions: one per output along dim 1 (a row of positions per
# row of x), one list shared by every row, flat positions through x.flatten(), or full
# (row, column) coordinates.
FAMILIES = ("per_row", "shared", "flat", "coords")


@dataclass(frozen=True)
class Case:
    """One edge case: its words, and (input, positions, dtype) for each family."""

    name: str
    words: str
    arguments: dict[str, tuple[Any, Any, str]]


def _case(name: str, words: str, dtype: str = "int64", **by_family: Any) -> Case:
    arguments = {}
    for family, value in by_family.items():
        input, positions = value if isinstance(value, tuple) else (X, value)
        arguments[family] = (input, positions, dtype)
    return Case(name, words, arguments)


def _first_position(
    name: str, words: str, along_dim: Any, flat: Any, dtype: str = "int64", cast=int
) -> Case:
    """A case whose first position is ``along_dim`` (``flat`` for flat positions);
    the other positions are valid."""
    zero, one = cast(0), cast(1)
    return _case(
        name,
        words,
        dtype,
        per_row=[[cast(along_dim), zero], [one, one]],
        shared=[cast(along_dim), zero],
        flat=[[cast(flat), zero], [cast(4), one]],
        coords=[[zero, cast(along_dim)], [one, one]],
    )


def _valid(dtype: str, cast: Callable[[int], Any] = int) -> Case:
    return _first_position(
        dtype, f"valid positions stored as {dtype}", 2, 5, dtype, cast
    )


# The first position of each bad case is the bad one; the others are valid.
CASES: tuple[Case, ...] = (
    _first_position("valid", "valid int64 positions", 2, 5),
    _first_position("negative", "position -1", -1, -1),
    _first_position("negative_int32", "position -1 stored as int32", -1, -1, "int32"),
    _first_position(
        "at_size", "a position equal to the size (3 along dim 1, 6 flat)", 3, 6
    ),
    _first_position("far", f"a position far out of range ({FAR})", FAR, FAR),
    _valid("int32"),
    _valid("int16"),
    _valid("float32", float),
    _case(
        "bool",
        "a bool index",
        "bool",
        per_row=[[True, False], [True, True]],
        shared=[True, False, True],
        flat=[[True, False], [True, True]],
        coords=[[False, True], [True, True]],
    ),
    _case(
        "zero_d",
        "a 0-d index (the single position 1)",
        per_row=1,
        shared=1,
        flat=1,
        coords=1,
    ),
    _case(
        "empty",
        "an empty index",
        per_row=[[], []],
        shared=[],
        flat=[[], []],
        coords=(X, EMPTY_PAIRS),
    ),
    _case("smaller", "an index with 1 row, where x has 2", per_row=[[2, 0]]),
    _case(
        "larger",
        "an index with 3 rows, where x has 2",
        per_row=[[2, 0], [1, 1], [0, 0]],
    ),
    _case(
        "broadcast",
        "x with 1 row (10, 11, 12) and an index of shape (2, 1)",
        per_row=([[10, 11, 12]], [[2], [0]]),
    ),
    _first_position("device", "valid positions on another device than x", 2, 5),
)
CASE_NAMES = tuple(case.name for case in CASES)

# torch.compile is slow on a small CPU: only these cases are measured compiled. The
# int64 ones share one compiled graph per op (same shapes and dtype).
COMPILE_CASES = ("valid", "negative", "negative_int32", "at_size", "far", "int32")


@dataclass(frozen=True)
class Op:
    """One way of reading positions: its library, family, modes and the call."""

    name: str
    library: str
    family: str
    modes: tuple[str, ...]
    call: Callable[[Any, Any], Any]


def _torch() -> Any:
    import torch

    return torch


def _np() -> Any:
    import numpy as np

    return np


def _tf() -> Any:
    from gatherlab.tf import tensorflow

    return tensorflow()


def _advanced_indexing(x: Any, index: Any) -> Any:
    rows = _torch().arange(x.shape[0], device=index.device)[:, None]
    return x[rows, index]


def _tf_take_along_axis(x: Any, index: Any) -> Any:
    return _tf().experimental.numpy.take_along_axis(x, index, axis=1)


OPS: tuple[Op, ...] = (
    Op(
        "torch.gather(x, 1, index)",
        "torch",
        "per_row",
        ("eager", "compile"),
        lambda x, i: _torch().gather(x, 1, i),
    ),
    Op(
        "torch.take_along_dim(x, index, dim=1)",
        "torch",
        "per_row",
        ("eager", "compile"),
        lambda x, i: _torch().take_along_dim(x, i, dim=1),
    ),
    Op(
        "x[arange(2)[:, None], index]",
        "torch",
        "per_row",
        ("eager", "compile"),
        _advanced_indexing,
    ),
    Op(
        "torch.index_select(x, 1, index)",
        "torch",
        "shared",
        ("eager", "compile"),
        lambda x, i: _torch().index_select(x, 1, i),
    ),
    Op(
        "torch.take(x, index)",
        "torch",
        "flat",
        ("eager", "compile"),
        lambda x, i: _torch().take(x, i),
    ),
    Op(
        "torch.take_along_dim(x, index)",
        "torch",
        "flat",
        ("eager", "compile"),
        lambda x, i: _torch().take_along_dim(x, i),
    ),
    Op(
        "np.take_along_axis(x, index, axis=1)",
        "numpy",
        "per_row",
        ("eager",),
        lambda x, i: _np().take_along_axis(x, i, axis=1),
    ),
    Op(
        "np.take(x, index, axis=1)",
        "numpy",
        "shared",
        ("eager",),
        lambda x, i: _np().take(x, i, axis=1),
    ),
    Op(
        "np.take(x, index)",
        "numpy",
        "flat",
        ("eager",),
        lambda x, i: _np().take(x, i),
    ),
    Op(
        "tf.gather(x, index, axis=1, batch_dims=1)",
        "tensorflow",
        "per_row",
        ("eager", "xla"),
        lambda x, i: _tf().gather(x, i, axis=1, batch_dims=1),
    ),
    Op(
        "tnp.take_along_axis(x, index, axis=1)",
        "tensorflow",
        "per_row",
        ("eager", "xla"),
        _tf_take_along_axis,
    ),
    Op(
        "tf.gather(x, index, axis=1)",
        "tensorflow",
        "shared",
        ("eager", "xla"),
        lambda x, i: _tf().gather(x, i, axis=1),
    ),
    Op(
        "tf.gather_nd(x, index)",
        "tensorflow",
        "coords",
        ("eager", "xla"),
        lambda x, i: _tf().gather_nd(x, i),
    ),
)
OP_NAMES = tuple(op.name for op in OPS)
OPS_BY_NAME = {op.name: op for op in OPS}


# --- writing by index -------------------------------------------------------------
#
# The writing ops (scatter_ and its family, TensorFlow's scatter and segment ops,
# NumPy's) run on cases of their own: a bad position is the only position written, so
# the changed entry shows where it went. Every op writes into x = X in place where it
# can (the outcome's memory reads "view"), values ``100, 101, ...``, one per position.
# Every stored column has them; a column measured before an op was added would lack
# it, and ``changes`` and ``by_release`` then leave that column out for the op.

WRITE_FAMILIES = ("per_row", "shared", "flat", "coords", "mask")
DUPLICATE = "duplicates"


def _write_case(name: str, words: str, dtype: str = "int64", **by_family: Any) -> Case:
    arguments = {}
    for family, positions in by_family.items():
        is_bool = family == "mask" and isinstance(positions[0][0], bool)  # X's shape
        arguments[family] = (X, positions, "bool" if is_bool else dtype)
    return Case(name, words, arguments)


def _only_position(name: str, words: str, along_dim: Any, flat: Any) -> Case:
    return _write_case(
        name,
        words,
        per_row=[[along_dim]],
        shared=[along_dim],
        flat=[flat],
        coords=[[0, along_dim]],
    )


_MASK = [[False, False, True], [True, False, False]]
WRITE_CASES: tuple[Case, ...] = (
    _write_case(
        "valid",
        "two valid positions, 2 then 0 (row 0 and row 1 for pairs)",
        per_row=[[2, 0]],
        shared=[2, 0],
        flat=[5, 0],
        coords=[[0, 2], [1, 0]],
        mask=_MASK,
    ),
    _write_case(
        DUPLICATE,
        "position 1 written twice (x[0, 1] = 11 receives 100, then 101)",
        per_row=[[1, 1]],
        shared=[1, 1],
        flat=[1, 1],
        coords=[[0, 1], [0, 1]],
    ),
    _only_position("negative", "the one position is -1", -1, -1),
    _only_position("at_size", "the one position equals the size (3; 6 flat)", 3, 6),
    _only_position("far", f"the one position is far out of range ({FAR})", FAR, FAR),
    _write_case(
        "int32",
        "valid positions stored as int32 (a 0/1 int32 mask)",
        "int32",
        per_row=[[2, 0]],
        shared=[2, 0],
        flat=[5, 0],
        coords=[[0, 2], [1, 0]],
        mask=[[int(v) for v in row] for row in _MASK],
    ),
    _write_case(
        "float32",
        "valid positions stored as float32",
        "float32",
        per_row=[[2.0, 0.0]],
        shared=[2.0, 0.0],
        flat=[5.0, 0.0],
        coords=[[0.0, 2.0], [1.0, 0.0]],
    ),
    _write_case(
        "empty",
        "no positions",
        per_row=[[]],
        shared=[],
        flat=[],
        coords=EMPTY_PAIRS,
    ),
)
WRITE_CASE_NAMES = tuple(case.name for case in WRITE_CASES)
WRITE_COMPILE_CASES = ("valid", DUPLICATE, "negative", "at_size", "far", "int32")


def _written(like: Any, count: int, library: str, sign: int = 1) -> Any:
    """The values written, ``100, 101, ...`` (negated for the min ops, so that they
    win), in the library of ``like``."""
    values = [sign * (100 + k) for k in range(count)]
    if library == "torch":
        return _torch().tensor(values, dtype=like.dtype, device=like.device)
    if library == "numpy":
        return _np().array(values, dtype=like.dtype)
    return _tf().constant(values, dtype=like.dtype)


def _torch_write(method: str, **options: Any) -> Callable[[Any, Any], Any]:
    """``x.<method>(1, index, src)`` in place, src shaped for the index."""

    sign = -1 if options.get("reduce") == "amin" else 1

    def call(x: Any, index: Any) -> Any:
        if method in ("scatter_", "scatter_add_", "scatter_reduce_"):
            src = _written(x, index.numel(), "torch", sign).reshape(index.shape)
            return getattr(x, method)(1, index, src, **options)
        if method == "index_fill_":
            return x.index_fill_(1, index, -1)
        src = _written(x, 2 * index.numel(), "torch").reshape(2, index.numel())
        return getattr(x, method)(1, index, src)

    return call


def _pairs(index: Any) -> tuple[Any, Any]:
    return index[:, 0], index[:, 1]


def _torch_index_put(accumulate: bool) -> Callable[[Any, Any], Any]:
    def call(x: Any, index: Any) -> Any:
        values = _written(x, index.shape[0], "torch")
        return x.index_put_(_pairs(index), values, accumulate=accumulate)

    return call


def _torch_put(accumulate: bool) -> Callable[[Any, Any], Any]:
    def call(x: Any, index: Any) -> Any:
        values = _written(x, index.numel(), "torch")
        return x.put_(index, values, accumulate=accumulate)

    return call


def _masked_scatter(x: Any, mask: Any) -> Any:
    return x.masked_scatter_(mask, _written(x, x.numel(), "torch"))


def _put_along_axis(x: Any, index: Any) -> Any:
    values = _written(x, index.size, "numpy").reshape(index.shape)
    _np().put_along_axis(x, index, values, axis=1)
    return x


def _add_at(x: Any, index: Any) -> Any:
    _np().add.at(x, tuple(index.T), _written(x, index.shape[0], "numpy"))
    return x


def _fancy_assign(x: Any, index: Any) -> Any:
    x[tuple(index.T)] = _written(x, index.shape[0], "numpy")
    return x


def _np_put(x: Any, index: Any) -> Any:
    _np().put(x, index, _written(x, index.size, "numpy"))
    return x


def _tf_scatter(name: str) -> Callable[[Any, Any], Any]:
    sign = -1 if name == "min" else 1

    def call(x: Any, index: Any) -> Any:
        values = _written(x, index.shape[0], "tensorflow", sign)
        if name == "scatter_nd":
            return _tf().scatter_nd(index, values, _tf().shape(x, out_type=index.dtype))
        return getattr(_tf(), f"tensor_scatter_nd_{name}")(x, index, values)

    return call


def _tf_segment(name: str) -> Callable[[Any, Any], Any]:
    """``unsorted_segment_<name>`` of rows ``100..`` (a row of 3 per id), 3 segments."""

    def call(x: Any, index: Any) -> Any:
        count = index.shape[0]
        data = _tf().reshape(_written(x, 3 * count, "tensorflow"), (count, 3))
        if name == "mean":
            data = _tf().cast(data, "float64")  # the mean op takes floats only
        return getattr(_tf().math, f"unsorted_segment_{name}")(data, index, 3)

    return call


_TORCH_MODES = ("eager", "compile")
_TF_MODES = ("eager", "xla")
WRITE_OPS: tuple[Op, ...] = (
    Op("x.scatter_(1, index, src)", "torch", "per_row", _TORCH_MODES,
       _torch_write("scatter_")),
    Op("x.scatter_add_(1, index, src)", "torch", "per_row", _TORCH_MODES,
       _torch_write("scatter_add_")),
    *(
        Op(
            f"x.scatter_reduce_(1, index, src, {reduce!r}, include_self={include})",
            "torch",
            "per_row",
            _TORCH_MODES,
            _torch_write("scatter_reduce_", reduce=reduce, include_self=include),
        )
        for reduce in ("sum", "prod", "mean", "amax", "amin")
        for include in (True, False)
    ),
    Op("x.index_add_(1, index, src)", "torch", "shared", _TORCH_MODES,
       _torch_write("index_add_")),
    Op("x.index_copy_(1, index, src)", "torch", "shared", _TORCH_MODES,
       _torch_write("index_copy_")),
    Op("x.index_fill_(1, index, -1)", "torch", "shared", _TORCH_MODES,
       _torch_write("index_fill_")),
    Op("x.index_put_((rows, cols), values)", "torch", "coords", _TORCH_MODES,
       _torch_index_put(False)),
    Op("x.index_put_((rows, cols), values, accumulate=True)", "torch", "coords",
       _TORCH_MODES, _torch_index_put(True)),
    Op("x.put_(index, values)", "torch", "flat", _TORCH_MODES, _torch_put(False)),
    Op("x.put_(index, values, accumulate=True)", "torch", "flat", _TORCH_MODES,
       _torch_put(True)),
    Op("x.masked_scatter_(mask, values)", "torch", "mask", _TORCH_MODES,
       _masked_scatter),
    Op("np.put_along_axis(x, index, values, axis=1)", "numpy", "per_row", ("eager",),
       _put_along_axis),
    Op("np.put(x, index, values)", "numpy", "flat", ("eager",), _np_put),
    Op("np.add.at(x, (rows, cols), values)", "numpy", "coords", ("eager",), _add_at),
    Op("x[rows, cols] = values", "numpy", "coords", ("eager",), _fancy_assign),
    *(
        Op(f"tf.tensor_scatter_nd_{name}(x, index, values)", "tensorflow", "coords",
           _TF_MODES, _tf_scatter(name))
        for name in ("update", "add", "min", "max")
    ),
    Op("tf.scatter_nd(index, values, shape)", "tensorflow", "coords", _TF_MODES,
       _tf_scatter("scatter_nd")),
    *(
        Op(f"tf.math.unsorted_segment_{name}(rows, index, 3)", "tensorflow", "shared",
           _TF_MODES, _tf_segment(name))
        for name in ("sum", "mean", "max")
    ),
)  # fmt: skip
WRITE_OP_NAMES = tuple(op.name for op in WRITE_OPS)
OPS_BY_NAME.update({op.name: op for op in WRITE_OPS})


# --- messages -------------------------------------------------------------------

# torch.compile's C++ kernels name their generated file and line first.
_KERNEL_PLACE = re.compile(r"^kernel, \S+:\d+, ")
_PATH = re.compile(r"(/[^\s/:'\"]+)+/")
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def message_line(error: BaseException) -> str:
    """The first line of an error message, without machine paths or TensorFlow's names.

    ``tf.function`` puts the traced user code first (``in user code:``); its own
    message is then the last line, which is the one kept.
    """
    lines = [line.strip() for line in str(error).strip().splitlines()] or [""]
    line = lines[0]
    if line == "in user code:":
        line = next(text for text in reversed(lines) if text)
        line = re.sub(r"^\w+(Error|Exception): ", "", line)
    line = _KERNEL_PLACE.sub("", line)
    line = TF_OP.sub("", TF_NODE.sub("", line))
    return _ADDRESS.sub(" at 0x…", _PATH.sub(".../", line)).strip()


# --- measuring ------------------------------------------------------------------


def _other_device(library: str) -> str | None:
    if library == "torch":
        torch = _torch()
        if torch.cuda.is_available():
            return "cuda"
        mps = getattr(torch.backends, "mps", None)
        if mps is not None and mps.is_available():
            return "mps"
        return None
    if library == "tensorflow":
        gpus = _tf().config.list_logical_devices("GPU")
        return gpus[0].name if gpus else None
    return None


def _positions(case: Case, family: str, library: str) -> tuple[Any, Any]:
    """(x, index) in the op's library, both on the CPU (index moved for "device")."""
    input, positions, dtype = case.arguments[family]
    if isinstance(positions, str) and positions == EMPTY_PAIRS:
        positions = _np().zeros((0, 2), dtype="int64")
    np = _np()
    x_np = np.array(input, dtype="int64")
    index_np = np.array(positions, dtype=dtype)
    if library == "numpy":
        return x_np, index_np
    if library == "torch":
        torch = _torch()
        index = torch.from_numpy(index_np.copy())
        if case.name == "device":
            index = index.to(_other_device("torch"))
        return torch.from_numpy(x_np.copy()), index
    tf = _tf()
    with tf.device("/CPU:0"):
        x = tf.constant(x_np)
    device = _other_device("tensorflow") if case.name == "device" else "/CPU:0"
    with tf.device(device):
        index = tf.constant(index_np)
    return x, index


def _memory(library: str, x: Any, out: Any) -> str | None:
    """``view`` when the output shares the input's memory, else ``copy``."""
    if library == "torch":
        if out.numel() == 0:
            return None
        same = out.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
        return "view" if same else "copy"
    if library == "numpy":
        return "view" if _np().shares_memory(x, out) else "copy"
    return None  # TensorFlow tensors are immutable: no view to observe


def _record(library: str, x: Any, out: Any) -> dict[str, Any]:
    np = _np()
    if library == "torch":
        values = out.detach().cpu().numpy()
    elif library == "tensorflow":
        values = np.asarray(out.numpy())
    else:
        values = np.asarray(out)
    outcome: dict[str, Any] = {
        "status": "ok",
        "values": values.tolist(),
        "shape": list(values.shape),
        "dtype": str(values.dtype),
    }
    memory = _memory(library, x, out)
    if memory is not None:
        outcome["memory"] = memory
    return outcome


def _compiled(op: Op, mode: str, cache: dict[tuple[str, str], Any]) -> Callable:
    """The op's call as its mode runs it: eager, torch.compile, or tf.function/XLA."""
    if mode == "eager":
        return op.call
    key = (op.name, mode)
    if key not in cache:
        if mode == "compile":
            # The writing ops share closures' code objects, and dynamo counts
            # recompilations per code object: start each op with a clean slate.
            _torch()._dynamo.reset()
            cache[key] = _torch().compile(op.call, dynamic=False, fullgraph=True)
        else:
            cache[key] = _tf().function(op.call, jit_compile=True, autograph=False)
    return cache[key]


def measure_one(
    op: Op, case: Case, mode: str, cache: dict[tuple[str, str], Any] | None = None
) -> dict[str, Any]:
    """Run one op on one case in one mode and return its outcome record."""
    if op.family not in case.arguments:
        return {
            "status": "n/a",
            "why": f"no {case.name} case for {op.family} positions",
        }
    if case.name == "device":
        if op.library == "numpy":
            return {"status": "n/a", "why": "NumPy arrays live in host memory only"}
        if _other_device(op.library) is None:
            return {"status": "no device", "why": f"{op.library} sees no GPU"}
    fn = _compiled(op, mode, {} if cache is None else cache)
    x, index = _positions(case, op.family, op.library)
    try:
        if op.library == "tensorflow":
            with _tf().device("/CPU:0"):
                out = fn(x, index)
        else:
            out = fn(x, index)
    except Exception as error:  # the atlas records every library error
        return {
            "status": "error",
            "error": type(error).__name__,
            "message": message_line(error),
        }
    return _record(op.library, x, out)


def _version(library: str) -> str:
    if library == "torch":
        return _torch().__version__
    if library == "numpy":
        return _np().__version__
    from gatherlab.notebook import tensorflow_version

    installed = tensorflow_version()  # read without importing TensorFlow
    if installed[:1].isdigit():
        return installed
    # No TensorFlow here: tables show the release the stored atlas measured.
    (stored,) = (key for key in load()["columns"] if key.startswith("tensorflow "))
    return stored.split(" ", 1)[1]


def release(version: str) -> str:
    """A version without its build tag: ``2.13.0+cpu`` and ``2.13.0+cu130`` are one."""
    return version.split("+", 1)[0]


def column_key(library: str, version: str | None = None) -> str:
    """The atlas column of a library release, e.g. ``torch 2.13.0``."""
    return f"{library} {release(version or _version(library))}"


def provenance(library: str) -> dict[str, Any]:
    """Where a column came from: versions, build, Python, machine, date, device."""
    np = _np()
    record: dict[str, Any] = {
        "library": library,
        "version": _version(library),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "machine": f"{platform.system()} {platform.machine()}",
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d"),
        "other_device": _other_device(library) or "none",
    }
    if library == "torch":
        torch = _torch()
        record["build"] = {
            "cuda": torch.version.cuda,
            "git": (torch.version.git_version or "")[:12],
        }
    if library == "tensorflow":
        info = _tf().sysconfig.get_build_info()
        record["build"] = {"cuda": info.get("cuda_version"), "xla": True}
    return record


def measure(
    library: str,
    *,
    ops: Iterable[str] | None = None,
    cases: Iterable[str] | None = None,
    modes: Iterable[str] | None = None,
) -> dict[str, dict[str, dict[str, Any]]]:
    """Outcomes for the installed ``library``: ``{op: {mode: {case: outcome}}}``.

    ``ops``, ``cases`` and ``modes`` narrow the measurement (the tests re-measure
    only a few compiled cases). Compiled modes run ``COMPILE_CASES`` only (the
    writing ops ``WRITE_COMPILE_CASES``).
    """
    cache: dict[tuple[str, str], Any] = {}
    outcomes: dict[str, dict[str, dict[str, Any]]] = {}
    for op, mode, case in _selection(library, ops, modes, cases):
        outcome = measure_one(op, case, mode, cache)
        outcomes.setdefault(op.name, {}).setdefault(mode, {})[case.name] = outcome
    return outcomes


def _cases_of(op: Op) -> tuple[tuple[Case, ...], tuple[str, ...]]:
    """An op's cases, and those measured compiled: the writing ops have their own."""
    if op.name in WRITE_OP_NAMES:
        return WRITE_CASES, WRITE_COMPILE_CASES
    return CASES, COMPILE_CASES


def _selection(
    library: str,
    ops: Iterable[str] | None,
    modes: Iterable[str] | None,
    cases: Iterable[str] | None = None,
) -> Iterable[tuple[Op, str, Case]]:
    """Every (op, mode, case) of the library that the filters let through, in order:
    the reading ops, then the writing ops; compiled modes have their compile cases."""
    wanted_ops = set(ops) if ops is not None else None
    wanted_modes = set(modes) if modes is not None else None
    wanted_cases = set(cases) if cases is not None else None
    for op in (*OPS, *WRITE_OPS):
        if op.library != library or (wanted_ops and op.name not in wanted_ops):
            continue
        op_cases, compiled = _cases_of(op)
        for mode in op.modes:
            if wanted_modes is not None and mode not in wanted_modes:
                continue
            for case in op_cases:
                if wanted_cases is not None and case.name not in wanted_cases:
                    continue
                if mode == "eager" or case.name in compiled:
                    yield op, mode, case


# --- the stored atlas -----------------------------------------------------------


def load(path: Path = ATLAS_PATH) -> dict[str, Any]:
    """The stored atlas: ``{"columns": {key: {"provenance", "outcomes"}}}``."""
    return json.loads(path.read_text(encoding="utf-8"))


def save(atlas: dict[str, Any], path: Path = ATLAS_PATH) -> None:
    """Write the atlas with sorted columns and one outcome per line (short diffs)."""
    columns = sorted(atlas["columns"].items(), key=_column_order)
    blocks = []
    for key, stored in columns:
        ops = []
        for op, modes in stored["outcomes"].items():
            mode_blocks = []
            for mode, cases in modes.items():
                lines = ",\n".join(
                    f"     {json.dumps(case)}: {json.dumps(outcome)}"
                    for case, outcome in cases.items()
                )
                mode_blocks.append(f"    {json.dumps(mode)}: {{\n{lines}\n    }}")
            ops.append(
                f"   {json.dumps(op)}: {{\n" + ",\n".join(mode_blocks) + "\n   }"
            )
        blocks.append(
            f"  {json.dumps(key)}: {{\n"
            f'   "provenance": {json.dumps(stored["provenance"])},\n'
            f'   "outcomes": {{\n' + ",\n".join(ops) + "\n   }\n  }"
        )
    text = '{\n "columns": {\n' + ",\n".join(blocks) + "\n }\n}\n"
    assert json.loads(text) == {"columns": dict(columns)}
    path.write_text(text, encoding="utf-8")


def _column_order(item: tuple[str, Any]) -> tuple:
    library, version = item[0].split(" ", 1)
    numbers = tuple(int(part) for part in re.findall(r"\d+", version))
    return (LIBRARIES.index(library), numbers)


def disagreements(
    stored: dict[str, Any], measured: dict[str, Any], *, skip_devices: bool = False
) -> list[str]:
    """Every (op, mode, case) whose measured outcome differs from the stored one.

    Only the measured entries are compared, so a narrowed measurement checks its part.
    With ``skip_devices`` the "device" case is left out (its outcome depends on the
    machine having a GPU, not on the release).
    """
    problems = []
    for op, modes in measured.items():
        for mode, cases in modes.items():
            for case, outcome in cases.items():
                if skip_devices and case == "device":
                    continue
                kept = stored.get(op, {}).get(mode, {}).get(case)
                if kept != outcome:
                    problems.append(
                        f"{op} [{mode}] {case}: stored {kept}, now {outcome}"
                    )
    return problems


def shown_key(library: str, version: str | None, atlas: dict) -> tuple[str, str]:
    """The column a table shows for ``version`` (default: the installed release), and
    a note when that release was never measured: then the nearest stored release of
    the library stands in (the newest not after it, else the oldest), so a chapter run
    on another torch, such as a hosted notebook's, shows the atlas instead of stopping.
    A ``version`` asked for by name must be stored (``column`` raises otherwise)."""
    key = column_key(library, version)
    if version is not None or key in atlas["columns"]:
        return key, ""
    stored = sorted(
        (
            item
            for item in atlas["columns"].items()
            if item[0].startswith(f"{library} ")
        ),
        key=_column_order,
    )
    if not stored:
        return key, ""
    installed = _column_order((key, None))
    earlier = [
        name for name, data in stored if _column_order((name, data)) <= installed
    ]
    stand_in = earlier[-1] if earlier else stored[0][0]
    note = (
        f"{key} is not in the atlas: the columns are {stand_in}'s, the nearest "
        "measured release."
    )
    return stand_in, note


def column(library: str, version: str | None = None, atlas: dict | None = None) -> dict:
    """One stored column (``provenance``, ``outcomes``); KeyError lists the stored."""
    atlas = atlas or load()
    key = column_key(library, version)
    if key not in atlas["columns"]:
        stored = ", ".join(atlas["columns"])
        raise KeyError(f"no stored column {key!r} (stored: {stored})")
    return atlas["columns"][key]


# --- rendering ------------------------------------------------------------------


def outcome_text(outcome: dict[str, Any] | None, width: int | None = None) -> str:
    """One line: values and shape, or ``Error: message``, cut at ``width``."""
    if outcome is None:
        return "not measured"
    status = outcome["status"]
    if status == "ok":
        text = f"{outcome['values']} shape {tuple(outcome['shape'])}"
    elif status == "error":
        text = f"{outcome['error']}: {outcome['message']}"
    else:
        text = f"{status} ({outcome['why']})"
    if width is not None and len(text) > width:
        text = text[: width - 1] + "…"
    return text


def _bad_reading(op: Op, case: str, outcome: dict[str, Any]) -> str:
    """What an op did with the case's bad first position, in words.

    Every value of x is distinct, so the value read names the position read: -1
    reading the last entry is Python's rule; a position past the end may wrap
    (``position % size``), read the last entry (clamped), or give 0.
    """
    status = outcome["status"]
    if status == "error":
        return f"raises {outcome['error']}"
    if status != "ok":
        return status
    positions = next(c for c in CASES if c.name == case).arguments[op.family][1]
    bad = positions[0][1] if op.family == "coords" else _first(positions)
    line = [v for row in X for v in row] if op.family == "flat" else X[0]
    got, size = _first(outcome["values"]), len(line)
    if bad >= 0 and got == line[bad % size]:
        return "wraps"
    if got == line[-1]:
        return "reads the last"
    if got == line[0]:
        return "reads the first"
    return "gives 0" if got == 0 else f"reads {got}"


def _first(nested: Any) -> Any:
    while isinstance(nested, list):
        nested = nested[0]
    return nested


def _accepts(outcome: dict[str, Any]) -> str:
    if outcome["status"] == "ok":
        return "accepted"
    if outcome["status"] == "error":
        return f"raises {outcome['error']}"
    return outcome["status"]


def _broadcasting(outcomes: dict[str, Any]) -> str:
    smaller, stretched = outcomes.get("smaller"), outcomes.get("broadcast")
    if smaller is None or smaller["status"] == "n/a":
        return "n/a"
    parts = []
    if smaller["status"] == "ok":
        if tuple(smaller["shape"]) == (2, 2):
            parts.append("index stretched")
        else:
            parts.append(f"no: (1, 2) index gives {tuple(smaller['shape'])}")
    else:
        parts.append(f"(1, 2) index raises {smaller['error']}")
    if stretched is not None and stretched["status"] == "ok":
        parts.append("x stretched")
    else:
        parts.append("(1, 3) x raises")
    return "; ".join(parts)


BEHAVIOURS: dict[str, Callable[[Op, dict[str, Any]], str]] = {
    "negative": lambda op, o: _bad_reading(op, "negative", o["negative"]),
    "negative int32": lambda op, o: _bad_reading(
        op, "negative_int32", o["negative_int32"]
    ),
    "equal to size": lambda op, o: _bad_reading(op, "at_size", o["at_size"]),
    "far out": lambda op, o: _bad_reading(op, "far", o["far"]),
    "int32": lambda op, o: _accepts(o["int32"]),
    "broadcasting": lambda op, o: _broadcasting(o),
    "copy or view": lambda op, o: o["valid"].get("memory", "n/a (immutable)"),
}


# The columns of the chapters' decision tables (the int32 variant of -1 matters only
# where a compiler clamps, so it is asked for by name).
DEFAULT_BEHAVIOURS = (
    "negative",
    "equal to size",
    "far out",
    "int32",
    "broadcasting",
    "copy or view",
)


@dataclass(frozen=True)
class Table:
    """A rendered table: Markdown in the book, aligned text in a terminal and nbval."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    caption: str

    def _repr_html_(self) -> str:
        def row(cells: Sequence[str], tag: str) -> str:
            inner = "".join(f"<{tag}>{html.escape(cell)}</{tag}>" for cell in cells)
            return f"<tr>{inner}</tr>"

        body = "\n".join(row(cells, "td") for cells in self.rows)
        caption = html.escape(self.caption)
        # The caption takes its box's text colour: the theme's muted caption colour
        # is unreadable on the light box pydata-sphinx-theme gives HTML outputs in
        # its dark scheme.
        return (
            '<table class="gl-atlas">\n<caption style="color:inherit">'
            f"{caption}</caption>\n"
            f"<thead>{row(self.header, 'th')}</thead>\n<tbody>\n{body}\n</tbody>\n"
            "</table>"
        )

    def __str__(self) -> str:
        widths = [
            max(len(row[k]) for row in (self.header, *self.rows))
            for k in range(len(self.header))
        ]
        lines = [
            "  ".join(
                cell.ljust(width) for cell, width in zip(row, widths, strict=True)
            )
            for row in (self.header, *self.rows)
        ]
        caption = textwrap.fill(self.caption, 88)
        return f"{caption}\n" + "\n".join(line.rstrip() for line in lines)

    __repr__ = __str__


def _provenance_line(keys: Iterable[str], atlas: dict) -> str:
    """``Measured on the CPU with torch 2.7.1+cu126, 2.8.0+cu128 (Python 3.11.7).``"""
    by_library: dict[str, list[str]] = {}
    pythons = []
    for key in keys:
        record = atlas["columns"][key]["provenance"]
        by_library.setdefault(record["library"], []).append(record["version"])
        if record["python"] not in pythons:
            pythons.append(record["python"])
    versions = "; ".join(f"{lib} {', '.join(v)}" for lib, v in by_library.items())
    return f"Measured on the CPU with {versions} (Python {', '.join(pythons)})."


def _changed(outcome: dict[str, Any], baseline: dict[str, Any]) -> list[tuple]:
    """The coordinates where a write's result differs from the no-write result."""
    np = _np()
    got, before = np.array(outcome["values"]), np.array(baseline["values"])
    if got.shape != before.shape:
        return []
    return [tuple(int(c) for c in at) for at in np.argwhere(got != before)]


def _landing(outcome: dict[str, Any], baseline: dict[str, Any]) -> str:
    """Where a write of a bad position went: raised, nothing changed, or the entries
    it changed (every value written differs from X's, so a written entry changes)."""
    if outcome["status"] != "ok":
        return _accepts(outcome)
    changed = _changed(outcome, baseline)
    if not changed:
        return "writes nothing"
    return "writes " + ", ".join(f"[{', '.join(map(str, at))}]" for at in changed)


def _collision(outcome: dict[str, Any], baseline: dict[str, Any]) -> str:
    """What the entry written twice holds (the first changed entry)."""
    if outcome["status"] != "ok":
        return _accepts(outcome)
    changed = _changed(outcome, baseline)
    if not changed:
        return "writes nothing"
    value = outcome["values"]
    for c in changed[0]:
        value = value[c]
    return f"[{', '.join(map(str, changed[0]))}] holds {value}"


def _in_place(outcome: dict[str, Any]) -> str:
    if outcome["status"] != "ok":
        return _accepts(outcome)
    memory = outcome.get("memory")
    return "in place" if memory == "view" else "new tensor"


WRITE_BEHAVIOURS: dict[str, Callable[[Op, dict[str, Any]], str]] = {
    "duplicates": lambda op, o: _collision(o[DUPLICATE], o["baseline"]),
    "negative": lambda op, o: _landing(o["negative"], o["baseline"]),
    "equal to size": lambda op, o: _landing(o["at_size"], o["baseline"]),
    "far out": lambda op, o: _landing(o["far"], o["baseline"]),
    "int32": lambda op, o: _accepts(o["int32"]),
    "float32": lambda op, o: _accepts(o["float32"]),
    "in place": lambda op, o: _in_place(o["valid"]),
}
DEFAULT_WRITE_BEHAVIOURS = ("duplicates", "negative", "equal to size", "int32")


FAMILY_WORDS = {
    "shared": "one list for every row",
    "per_row": "one list per row",
    "flat": "flat positions",
    "coords": "(row, column) pairs",
    "mask": "a bool mask",
}


def ops_for(library: str | None = None) -> list[str]:
    """Op names grouped by the positions they read (shared, per row, flat, pairs)."""
    order = list(FAMILY_WORDS)
    chosen = [op for op in OPS if library in (None, op.library)]
    return [op.name for op in sorted(chosen, key=lambda op: order.index(op.family))]


def _behaviours(
    op: Op, outcomes: dict[str, Any], mode: str, behaviours: Sequence[str]
) -> list[str]:
    """The op's behaviours in words, from one column's outcomes; a writing op's are
    compared with what writing nothing leaves (its eager "empty" outcome)."""
    per_case = outcomes[op.name][mode]
    if op.name not in WRITE_OP_NAMES:
        return [BEHAVIOURS[behaviour](op, per_case) for behaviour in behaviours]
    per_case = {**per_case, "baseline": outcomes[op.name]["eager"]["empty"]}
    return [WRITE_BEHAVIOURS[behaviour](op, per_case) for behaviour in behaviours]


def table(
    ops: Sequence[str],
    behaviours: Sequence[str] = DEFAULT_BEHAVIOURS,
    *,
    mode: str = "eager",
    versions: dict[str, str] | None = None,
    atlas: dict | None = None,
) -> Table:
    """One row per op: the positions it reads, then one column per behaviour
    (``WRITE_BEHAVIOURS`` for the writing ops, e.g. ``DEFAULT_WRITE_BEHAVIOURS``).

    Read from the stored atlas; ``versions`` picks a release per library (default:
    the installed one, or the nearest stored one: ``shown_key``), ``mode`` the eager
    or compiled column.
    """
    atlas = atlas or load()
    versions = versions or {}
    rows, used, notes = [], [], []
    for name in ops:
        op = OPS_BY_NAME[name]
        key, note = shown_key(op.library, versions.get(op.library), atlas)
        if key not in used:
            used.append(key)
            notes += [note] if note else []
        outcomes = column(op.library, key.split(" ", 1)[1], atlas)["outcomes"]
        cells = _behaviours(op, outcomes, mode, behaviours)
        rows.append((name, FAMILY_WORDS[op.family], *cells))
    header = ("op", "positions", *behaviours)
    caption = " ".join([_provenance_line(used, atlas), *notes])
    return Table(header, tuple(rows), caption)


def changes(
    library: str = "torch",
    *,
    ops: Iterable[str] | None = None,
    modes: Iterable[str] | None = None,
    width: int | None = None,
    atlas: dict | None = None,
) -> Table:
    """Every (op, mode, case) whose stored outcome differs between stored releases
    (among the releases that measured it: the others read "not measured")."""
    atlas = atlas or load()
    keys = [key for key in atlas["columns"] if key.startswith(f"{library} ")]
    rows = []
    for op, mode, case in _selection(library, ops, modes):
        found = [
            atlas["columns"][key]["outcomes"]
            .get(op.name, {})
            .get(mode, {})
            .get(case.name)
            for key in keys
        ]
        measured = [outcome for outcome in found if outcome is not None]
        if any(outcome != measured[0] for outcome in measured):
            texts = [outcome_text(outcome, width) for outcome in found]
            rows.append((op.name, mode, case.name, *texts))
    header = ("op", "mode", "case", *(key.split(" ", 1)[1] for key in keys))
    return Table(header, tuple(rows), _provenance_line(keys, atlas))


def by_release(
    op_name: str,
    behaviours: Sequence[str] = ("negative", "equal to size", "far out", "int32"),
    *,
    cases: Sequence[str] | None = None,
    mode: str = "eager",
    width: int | None = None,
    atlas: dict | None = None,
) -> Table:
    """One row per stored release of the op's library that measured it: its behaviours,
    or with
    ``cases`` the outcomes of those cases themselves (messages cut at ``width``)."""
    atlas = atlas or load()
    op = OPS_BY_NAME[op_name]
    keys = [
        key
        for key, stored in atlas["columns"].items()
        if key.startswith(f"{op.library} ") and op_name in stored["outcomes"]
    ]
    rows = []
    for key in keys:
        outcomes = atlas["columns"][key]["outcomes"]
        per_case = outcomes[op_name][mode]
        if cases is None:
            cells = _behaviours(op, outcomes, mode, behaviours)
        else:
            cells = [outcome_text(per_case.get(case), width) for case in cases]
        rows.append((key.split(" ", 1)[1], *cells))
    header = (op.library, *(behaviours if cases is None else cases))
    caption = f"{op_name} [{mode}]. " + _provenance_line(keys, atlas)
    return Table(header, tuple(rows), caption)


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m gatherlab.atlas LIBRARY``: print the installed library's column."""
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("library", choices=LIBRARIES)
    args = parser.parse_args(argv)
    column = {
        "key": column_key(args.library),
        "provenance": provenance(args.library),
        "outcomes": measure(args.library),
    }
    print(json.dumps(column))


if __name__ == "__main__":
    main()

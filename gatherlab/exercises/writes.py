"""The writing-op family of the misconception model (chapter 6: writing by index).

``Write`` describes the intended write the way ``Call`` describes a read:
``base.<op>(dim, index, src)`` with ``op`` one of ``scatter``, ``scatter_add``,
``scatter_reduce`` (``reduce``, ``include_self``), ``index_add``, ``index_put``
(``accumulate``; ``base[index] = src``) or ``plus_equals`` (``base[index] += src``).
An exercise hands its ``Write`` to its cases (``Case.write``); the misconceptions
registered here read it, so every writing exercise gets them and none lists its own:
written along the other dim, read where it should write (a gather by the write's
positions), one write kept where repeats add up (an assignment, ``+=``, ``scatter_``,
``index_put_`` without ``accumulate``) and the reverse, the old values left out of a
``scatter_reduce`` or mixed in (``include_self``, a tensor of ones written into, counts
started at 1), a mean without its count, with 0 / 0 for an empty segment or over the
wrong count (all the values, the number of segments), positions off by one, a
transposed index (or flat positions without a row offset), every row written at every
position (``out[:, labels] = 1``) or whole rows (``out[labels] = 1``), and a count cut
at the largest position (``torch.bincount`` without ``minlength``, 0 / 0 before it).
Sizes and bins the data decides (``torch.histc``'s range, ``torch.unique``'s ids
present) are found by a second run instead (``Implement._counted_slots``).

The package's ``__init__`` imports this module (through ``predict``), and Python runs
that ``__init__`` before any of its modules, so the library holds this family (after
the reading one) whichever module a program imports first.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np

from gatherlab._arrays import entry, to_numpy
from gatherlab.exercises.call import TORCH_ERRORS, Part, _resolve
from gatherlab.exercises.compare import shape_text
from gatherlab.exercises.misconceptions import (
    SIZES_DO_NOT_BROADCAST,
    Case,
    Outcome,
    Raised,
    Shaped,
    _first_difference,
    misconception,
    run,
)
from gatherlab.exercises.oprules import REDUCE_WORDS
from gatherlab.exercises.verdict import Field, phrase
from gatherlab.trace import format_value

WriteOp = Literal[
    "scatter", "scatter_add", "scatter_reduce", "index_add", "index_put", "plus_equals"
]


@dataclass(frozen=True)
class Write:
    """``base.<op>(dim, index, src)``; parts may name arguments or compute from them.

    ``text`` is the op as the learner's code or the chapter names it (``index_add_``,
    ``tf.scatter_nd``); ``index_name`` and ``src_name`` are the learner's names for
    the positions and the values written (by default the arguments the parts name).
    """

    op: WriteOp
    base: Part
    dim: int
    index: Part
    src: Part
    reduce: str = "sum"
    include_self: bool = True
    accumulate: bool = False
    text: str = ""
    index_name: str = ""
    src_name: str = ""

    def __post_init__(self) -> None:
        for part, name, default in (
            ("index", "index_name", "index"),
            ("src", "src_name", "src"),
        ):
            if not getattr(self, name):
                value = getattr(self, part)
                object.__setattr__(
                    self, name, value if isinstance(value, str) else default
                )

    def bind(self, args: Mapping[str, Any]) -> Write:
        """The same write with every part taken from ``args`` (an exercise case)."""
        return replace(
            self,
            base=_resolve(self.base, args),
            index=_resolve(self.index, args),
            src=_resolve(self.src, args),
        )

    @property
    def indexed_dim(self) -> int:
        """The dim of ``base`` that the positions index (``index_put`` and
        ``x[i] += v`` index the first)."""
        return (
            self.dim if self.op.startswith("scatter") or self.op == "index_add" else 0
        )

    @property
    def adds(self) -> bool:
        """Whether repeated positions add up (else each write replaces the last)."""
        if self.op == "scatter_reduce":
            return self.reduce == "sum"
        if self.op == "index_put":
            return self.accumulate
        return self.op in ("scatter_add", "index_add")

    def run(self) -> Any:
        """The write with PyTorch, on a copy of ``base`` (raising where torch does)."""
        import torch

        out = self.base.clone()
        if self.op == "scatter":
            return out.scatter_(self.dim, self.index, self.src)
        if self.op == "scatter_add":
            return out.scatter_add_(self.dim, self.index, self.src)
        if self.op == "scatter_reduce":
            return out.scatter_reduce_(
                self.dim,
                self.index,
                self.src,
                self.reduce,
                include_self=self.include_self,
            )
        if self.op == "index_add":
            return out.index_add_(self.dim, self.index, self.src)
        values = torch.as_tensor(self.src, dtype=out.dtype)
        if self.op == "index_put":
            return out.index_put_((self.index,), values, accumulate=self.accumulate)
        out[self.index] += values
        return out

    def writes(self) -> list[tuple[tuple[int, ...], Any]]:
        """Every (output coordinate, value written there), in the source's order."""
        base = to_numpy(self.base)
        index = to_numpy(self.index)
        src = self.src
        found = []
        if self.op.startswith("scatter"):
            values = np.broadcast_to(to_numpy(src), index.shape)
            for at in np.ndindex(index.shape):
                to = list(at)
                to[self.dim] = int(index[at]) % max(base.shape[self.dim], 1)
                found.append((tuple(to), values[at]))
            return found
        along = np.moveaxis(base, self.dim, 0)
        values = np.broadcast_to(to_numpy(src), (len(index), *along.shape[1:]))
        for i, position in enumerate(index.reshape(-1)):
            for rest in np.ndindex(along.shape[1:]):
                to = [int(position) % max(base.shape[self.dim], 1), *rest]
                to.insert(self.dim, to.pop(0))
                found.append((tuple(to), values[(i, *rest)]))
        return found


# The writing ops' errors carry no rule (diagnose covers reads), and one RuntimeError
# is no evidence of another: an index of the wrong rank raises like one off the end.
# So a variant's error on the visible example is matched by no learner's error (a
# misconception must explain the example with a value); on a hidden case it is
# matched by an error of its type, where the variant's values explain the rest.
UNMATCHED_ERROR = Raised("WriteError")


def write_error(case: Case, type_name: str = "Error") -> Raised:
    """A write's error of type ``type_name`` as an outcome on ``case`` (see above)."""
    return UNMATCHED_ERROR if case.visible else Raised(type_name)


def run_write(write: Write, case: Case) -> Outcome:
    """The write's outcome on ``case``: its value, or its error (see above)."""
    try:
        return to_numpy(write.run())
    except TORCH_ERRORS as error:
        return write_error(case, type(error).__name__)


def _writes_of(case: Case) -> Write | None:
    write = case.write
    return write if isinstance(write, Write) else None


def _at(values: Outcome, where: tuple[int, ...]) -> str:
    try:
        return format_value(np.asarray(values)[where])
    except (IndexError, ValueError):
        return "?"


def _parts(write: Write, where: tuple[int, ...]) -> list[Any]:
    return [value for to, value in write.writes() if to == where]


def _joined(values: list[Any], between: str = " + ") -> str:
    return between.join(format_value(v) for v in values) or "nothing"


def _op(write: Write) -> str:
    return write.text or f"{write.op}_"


def _base_words(case: Case, outcome: Outcome) -> tuple[Write, tuple[int, ...]]:
    write = _writes_of(case)
    assert write is not None
    where = _first_difference(outcome, case.expected)
    return write, where or (0,) * np.ndim(case.expected)


# ---------------------------------------------------------------- dims and positions


def _other_dim_words(case: Case, key: Any, outcome: Outcome) -> dict[str, Field]:
    write = _writes_of(case)
    assert write is not None
    rank = to_numpy(write.base).ndim
    along: Field = ""
    if rank == 2:
        along = phrase("along.write_column" if write.dim == 1 else "along.write_row")
    return {
        "other": str((write.dim + key) % rank),
        "dim": str(write.dim),
        "index": write.index_name,
        "along": along,
        "fix": _other_dim_fix(case, write, rank),
    }


def _other_dim_fix(case: Case, write: Write, rank: int) -> str:
    """Code advice where the learner writes the call; for a prediction, which writes
    no call, where each entry goes (rank 2), else nothing."""
    if case.writes_code:
        return f"Write with dim={write.dim}."
    if rank != 2:
        return ""
    to = "[{i}[i][j]][j]" if write.dim == 0 else "[i][{i}[i][j]]"
    return f"Each {write.src_name}[i][j] goes to out{to.format(i=write.index_name)}."


@misconception("write-other-dim", "call", _other_dim_words, family="write")
def _other_dim(case: Case, base: Any) -> Mapping[Any, Outcome]:
    write = _writes_of(case)
    if write is None or write.op in ("index_put", "plus_equals"):
        return {}
    rank = to_numpy(write.base).ndim
    return {
        shift: run_write(replace(write, dim=(write.dim + shift) % rank), case)
        for shift in range(1, rank)
    }


def _read_words(case: Case, key: Any, outcome: Outcome) -> dict[str, Field]:
    write = _writes_of(case)
    assert write is not None
    index, src = write.index_name, write.src_name
    if case.call is not None:  # the exercise reads: it needs the inverse positions
        fix = (
            " Reading it needs the inverse positions, the entry that lands at each "
            f"place (`{index}.argsort()` for a permutation)."
        )
    elif case.writes_code:
        fix = f" Write with {_op(write)}, which puts each entry where {index} says."
    else:
        fix = ""
    if key == "plus":  # x[idx] += v's right-hand side, the read before the write
        shape = shape_text(np.shape(case.expected))
        return {
            "what": phrase("read_write.what_plus", index=index, src=src, shape=shape),
            "model": phrase("read_write.plus", index=index, src=src),
            "fix": fix,
        }
    # the write as one line per entry: an adding write's repeats add up
    model = phrase(f"read_write.{'add' if write.adds else 'set'}", index=index, src=src)
    # a read by a permutation's positions applies it again (where the exercise
    # reads what the write puts where: its inverse undoes it)
    again: Field = ""
    if case.call is not None and _permutation(write):
        again = phrase("read_write.again")
    what = phrase("read_write.what_read", index=index, src=src, again=again)
    return {"what": what, "fix": fix, "model": model}


def _permutation(write: Write) -> bool:
    """Whether the write's positions are a 1-D permutation of 0..n-1."""
    import torch

    index = write.index
    if not isinstance(index, torch.Tensor) or index.dim() != 1:
        return False
    ordered = index.sort().values
    return bool(torch.equal(ordered, torch.arange(len(index), dtype=index.dtype)))


@misconception("read-instead-of-write", "call", _read_words, family="write")
def _read_instead(case: Case, base: Any) -> Mapping[Any, Outcome]:
    import torch

    write = _writes_of(case)
    if write is not None and write.op == "plus_equals":
        # `x[idx] += v` taken for its right-hand side, x[idx] + v: one value per
        # entry of idx, where the write puts them back into x
        try:
            read = write.base[write.index] + write.src
        except TORCH_ERRORS as error:
            return {"plus": write_error(case, type(error).__name__)}
        return {"plus": to_numpy(read)}
    if write is None or not isinstance(write.src, torch.Tensor):
        return {}
    try:
        if write.op.startswith("scatter"):
            read = torch.gather(write.src, write.dim, write.index)
        else:
            read = write.src.index_select(write.dim, write.index.reshape(-1))
    except TORCH_ERRORS as error:
        return {"gather": write_error(case, type(error).__name__)}
    return {"gather": to_numpy(read)}


def _sorted_words(case: Case, key: Any, outcome: Outcome) -> dict[str, Field]:
    write = _writes_of(case)
    assert write is not None and case.call is not None
    return {
        "index": write.index_name,
        "sorted": str(to_numpy(_sorted_positions(write)).reshape(-1).tolist()),
        "input": case.call.input_name,
    }


def _sorted_positions(write: Write) -> Any:
    return write.index.sort(dim=write.dim).values


@misconception("sorted-values-as-order", "call", _sorted_words, family="write")
def _sorted_as_order(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """A read of what a write by a permutation puts where (the write's positions
    read through their inverse, ``argsort``) given the permutation's values sorted
    (``.sort().values``: 0, 1, ..., n - 1), not the positions that sort it
    (``.sort().indices``): every entry read in place."""
    import torch

    write = _writes_of(case)
    if write is None or case.call is None or not case.index_answer:
        return {}
    if not isinstance(write.index, torch.Tensor) or write.index.dim() != 1:
        return {}
    if not _permutation(write):
        return {}  # no permutation: its sort is no order to read in
    return {
        "sorted": run(replace(case.call, index=_sorted_positions(write)), case.finish)
    }


def _off_by_one_words(case: Case, key: Any, outcome: Outcome) -> dict[str, Field]:
    write = _writes_of(case)
    assert write is not None
    shift, spill = key if isinstance(key, tuple) else (key, False)
    off = phrase("off.spills", row="next" if shift > 0 else "previous")
    return {
        "direction": "past" if shift > 0 else "before",
        "index": write.index_name,
        "off": off if spill else phrase("off.raises"),
    }


def _spilled(write: Write, shift: int, case: Case) -> Outcome:
    """The write with every position moved by ``shift`` in the flattened ``base`` (a
    write through ``out.view(-1)`` at ``row * width + position + 1``): past a row's
    end it lands in the next row, and only past the tensor's end it raises."""
    import torch

    base = write.base
    writes = write.writes()
    if base.dim() < 2 or not writes:
        return write_error(case)
    coordinates = np.array([to for to, _ in writes]).T
    flat = np.ravel_multi_index(tuple(coordinates), tuple(base.shape)) + shift
    if (flat < 0).any() or (flat >= base.numel()).any():  # off the whole tensor
        return write_error(case)
    values = torch.as_tensor(np.array([value for _, value in writes]))
    flattened = replace(
        write,
        base=base.reshape(-1),
        dim=0,
        index=torch.as_tensor(flat, dtype=torch.int64),
        src=values.to(base.dtype),
    )
    found = run_write(flattened, case)
    if isinstance(found, Raised):
        return found
    return np.asarray(found).reshape(tuple(base.shape))


@misconception("write-off-by-one", "call", _off_by_one_words, family="write")
def _off_by_one(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """Each position one past (or before) the one the index names: within its row,
    raising off the row's end (``index + 1``), or in the flattened tensor, spilling
    into the next (previous) row there (``out.view(-1)[row * width + index + 1]``)."""
    write = _writes_of(case)
    if write is None:
        return {}
    found: dict[Any, Outcome] = {
        shift: run_write(replace(write, index=write.index + shift), case)
        for shift in (1, -1)
    }
    if to_numpy(write.base).ndim >= 2:
        for shift in (1, -1):
            found[(shift, True)] = _spilled(write, shift, case)
    return found


def _transposed_words(case: Case, key: Any, outcome: Outcome) -> dict[str, Field]:
    write = _writes_of(case)
    assert write is not None
    shape = tuple(write.index.shape)
    base = tuple(write.base.shape)
    if len(shape) == 2 and shape[-1] == 1 and write.dim == 1 and len(base) == 2:
        # one position per row, along the columns: the transposed index writes them
        # all into row 0, as flat positions without a row offset do (put_, view(-1))
        index = write.index_name
        return {
            "what": phrase("transposed.row_0", index=index),
            "fix": phrase("transposed.row_0_fix", index=index, width=str(base[1])),
        }
    return {
        "what": phrase("transposed.what"),
        "fix": phrase("transposed.fix", shape=str(shape)),
    }


@misconception("write-index-transposed", "call", _transposed_words, family="write")
def _transposed(case: Case, base: Any) -> Mapping[Any, Outcome]:
    write = _writes_of(case)
    if write is None or not write.op.startswith("scatter") or write.index.dim() != 2:
        return {}
    return {"T": run_write(replace(write, index=write.index.T), case)}


def _every_row_words(case: Case, key: Any, outcome: Outcome) -> dict[str, Field]:
    write = _writes_of(case)
    assert write is not None
    index, value, dim = write.index_name, format_value(write.src), str(write.dim)
    if key == "rows":  # out[labels] = v: the rows the positions name, set whole
        return {
            "what": phrase("every_row.rows"),
            "code": f"out[{index}] = {value}",
            "why": phrase("every_row.rows_why", index=index, value=value, dim=dim),
        }
    return {
        "what": phrase("every_row.all"),
        "code": f"out[:, {index}] = {value}",
        "why": phrase("every_row.all_why", dim=dim),
    }


@misconception("write-every-row", "call", _every_row_words, family="write")
def _every_row(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """``out[:, labels] = 1``: every row written at every position, not its own; or
    ``out[labels] = 1`` (a write along dim 1): a subscript's first index picks whole
    rows, so the rows the positions name are set whole (a position past the last
    row raises)."""
    write = _writes_of(case)
    if write is None or write.op != "scatter" or not isinstance(write.src, int):
        return {}
    out = to_numpy(write.base).copy()
    positions = to_numpy(write.index).reshape(-1)
    size = out.shape[write.dim] if out.ndim else 0
    if out.ndim != 2 or ((positions < -size) | (positions >= size)).any():
        return {"all": UNMATCHED_ERROR}
    rows = out.copy()
    if write.dim == 1:
        out[:, positions] = write.src
    else:
        out[positions, :] = write.src
    found: dict[Any, Outcome] = {"all": out}
    if write.dim == 1:
        if ((positions < -rows.shape[0]) | (positions >= rows.shape[0])).any():
            found["rows"] = write_error(case, "IndexError")
        else:
            rows[positions, :] = write.src
            found["rows"] = rows
    return found


def _lost_words(case: Case, key: Any, outcome: Outcome) -> dict[str, Field]:
    write, where = _base_words(case, outcome)
    op = _op(write)
    fix = ""
    if case.writes_code:
        fix = (
            "An out-of-place op (`x.index_add(...)`) returns a new tensor: keep "
            "its result. A write through two indexings (`x[rows][:, cols] = v`) or "
            "into a clone changes only the copy: index once, `x[rows, cols] = v`."
        )
    # the op's out-of-place twin (scatter for scatter_), where it has one; an op
    # written as code or a sentence (`counts[labels] += 1`) has none
    out = op[:-1] if op.endswith("_") and op[:-1].isidentifier() else ""
    how = phrase("lost.out_of_place", out=out) if out else phrase("lost.copy")
    if not case.writes_code:  # a prediction: the code keeps what it writes
        how = phrase("lost.predicted")
    return {
        "where": entry("out", where),
        "got": _at(outcome, where),
        "expected": _at(case.expected, where),
        "how": how,
        "fix": fix,
    }


@misconception("write-lost", "call", _lost_words, family="write")
def _lost(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """The tensor as it was before the write: an out-of-place write whose result
    was dropped, or a write into a copy (``x[a][b] = v``, a clone) of the tensor
    returned."""
    write = _writes_of(case)
    if write is None:
        return {}
    return {"unchanged": to_numpy(write.base)}


def _unwritten_words(case: Case, key: Any, outcome: Outcome) -> dict[str, Field]:
    write = _writes_of(case)
    assert write is not None
    where = _unwritten_changed(write, outcome, case.expected)
    assert where is not None
    reduce = write.op == "scatter_reduce" and write.include_self
    return {
        "op": _op(write),
        "where": entry("out", where),
        "got": _at(outcome, where),
        "expected": _at(case.expected, where),
        "old": phrase("unwritten.reduce") if reduce else "",
    }


def _unwritten_changed(
    write: Write, outcome: Outcome, expected: Outcome
) -> tuple[int, ...] | None:
    """The first position no index entry writes where ``outcome`` differs from the
    old value ``expected`` keeps there (None where there is none)."""
    written = {to for to, _ in write.writes()}
    got, want = np.asarray(outcome), np.asarray(expected)
    if got.shape != want.shape:
        return None
    for at in np.ndindex(want.shape):
        if at not in written and not np.isclose(got[at], want[at], equal_nan=True):
            return at
    return None


@misconception("unwritten-reset", "call", _unwritten_words, family="write")
def _unwritten_reset(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """The result built from the written values alone, as if the write made a fresh
    zero tensor (a scatter library's ``scatter(src, index)``, ``tf.scatter_nd``): a
    position no index entry writes becomes 0 where the op leaves the old value
    there. With the old values still reduced in where something is written, or a
    fresh zero tensor written into, or only the written values reduced."""
    import torch

    write = _writes_of(case)
    expected = case.expected
    if write is None or not isinstance(expected, np.ndarray) or expected.ndim == 0:
        return {}
    old = to_numpy(write.base)
    if old.shape != expected.shape:
        return {}
    try:
        written = {to for to, _ in write.writes()}
    except (IndexError, ValueError):
        return {}
    unwritten = [at for at in np.ndindex(old.shape) if at not in written]
    if not any(old[at] != 0 for at in unwritten):
        return {}  # nothing to reset: the belief gives the expected value
    kept = expected.copy()
    for at in unwritten:
        kept[at] = 0
    found: dict[Any, Outcome] = {"zeroed": kept}
    fresh = run_write(replace(write, base=torch.zeros_like(write.base)), case)
    if not isinstance(fresh, Raised):
        found["fresh"] = fresh
    if write.op == "scatter_reduce" and write.include_self:
        own = run_write(
            replace(write, base=torch.zeros_like(write.base), include_self=False),
            case,
        )
        if not isinstance(own, Raised):
            found["written-only"] = own
    return found


# ---------------------------------------------------------------- repeated positions


def _one_write(write: Write, first: bool, onto_old: bool) -> np.ndarray:
    """Each position keeps one write: the last (or first), onto the old value or not."""
    old = to_numpy(write.base)
    out = old.copy()
    done: set[tuple[int, ...]] = set()
    for to, value in write.writes():
        if first and to in done:
            continue
        done.add(to)
        out[to] = old[to] + value if onto_old else value
    return out


def _kept_words(case: Case, key: Any, outcome: Outcome) -> dict[str, Field]:
    write, where = _base_words(case, outcome)
    parts = _parts(write, where)
    old = to_numpy(write.base)[where]
    mean = _averages(write)
    if (old != 0 and not mean) or (mean and write.include_self):
        parts = [old, *parts]
    fix = ""
    # a mean's key says which of its two writes kept one: the sums alone (the
    # sizes counted every write) or both (_kept_in_a_mean)
    both = mean and isinstance(key, tuple) and "one" in key
    if case.writes_code:
        steps = (
            ", for the sums and the sizes."
            if both
            else ", for the sums (the sizes count every write)."
        )
        fix = (
            "Add the repeated writes with index_add_, scatter_add_ or "
            "index_put_(..., accumulate=True)" + (steps if mean else ".")
        )
    expected = _at(case.expected, where)
    should = (
        phrase(
            "kept.mean",
            op=_op(write),
            parts=_joined(parts),
            count=str(len(parts)),
            expected=expected,
        )
        if mean
        else phrase("kept.adds", op=_op(write), parts=_joined(parts), expected=expected)
    )
    return {
        "where": entry("out", where),
        "got": _at(outcome, where),
        "should": should,
        "fix": fix,
        "both": phrase("kept.both") if both else "",
        "rule": phrase("kept.rule") if case.writes_code else "",
    }


def _averages(write: Write) -> bool:
    """Whether the values written to a position average (a mean is a sum over a
    count: both made by writes, each of which can keep one write)."""
    return write.op == "scatter_reduce" and write.reduce == "mean"


def _kept_in_a_mean(write: Write) -> dict[Any, Outcome]:
    """A mean whose sums (and counts) kept one write per repeated position: the
    last (or first) value over the right count (the sums kept one), or alone (both
    kept one: a count of 1); an empty position 0 (a count clamped to 1) or nan."""
    old = to_numpy(write.base)
    if old.dtype.kind != "f":
        return {}
    written: dict[tuple[int, ...], list[Any]] = {}
    for to, value in write.writes():
        written.setdefault(to, []).append(float(value))
    if write.include_self:
        written = {to: [float(old[to]), *values] for to, values in written.items()}
    found: dict[Any, Outcome] = {}
    for kept in ("last", "first"):
        for counts in ("counted", "one"):
            for empty in (0.0, np.nan):
                out = np.full(old.shape, empty, dtype=old.dtype)
                for to, values in written.items():
                    value = values[-1] if kept == "last" else values[0]
                    out[to] = value / len(values) if counts == "counted" else value
                found[(kept, counts, "nan" if np.isnan(empty) else "0")] = out
    return found


@misconception("kept-one-write", "call", _kept_words, family="write")
def _kept_one(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """Repeats kept as one write where they add up (or average: a mean's sums and
    counts)."""
    write = _writes_of(case)
    if write is not None and _averages(write):
        return _kept_in_a_mean(write)
    if write is None or not write.adds:
        return {}
    return {
        "last": _one_write(write, first=False, onto_old=False),
        "first": _one_write(write, first=True, onto_old=False),
        "plus-equals": _one_write(write, first=False, onto_old=True),
    }


def _accumulated_words(case: Case, key: Any, outcome: Outcome) -> dict[str, str]:
    write, where = _base_words(case, outcome)
    fix = ""
    if case.writes_code:
        fix = (
            " To add or count repeats, use index_put_(..., accumulate=True), "
            "index_add_ or torch.bincount."
        )
    return {
        "count": str(len(_parts(write, where))),
        "where": entry("out", where),
        "op": _op(write),
        "expected": _at(case.expected, where),
        "got": _at(outcome, where),
        "fix": fix,
    }


@misconception("accumulated-repeats", "call", _accumulated_words, family="write")
def _accumulated(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """Repeats added up where the op keeps one of the writes (unspecified which)."""
    write = _writes_of(case)
    if write is None or write.adds or write.op == "scatter_reduce":
        return {}
    out = to_numpy(write.base).copy()
    for to, value in write.writes():  # for +=, each value is an increment
        out[to] = out[to] + value
    return {"add": out}


# ---------------------------------------------------------------- scatter_reduce


def _reduce_words(case: Case, key: Any, outcome: Outcome) -> dict[str, str]:
    write, where = _base_words(case, outcome)
    return {
        "reduce": REDUCE_WORDS.get(write.reduce, write.reduce),
        "op": _op(write),
        "where": entry("out", where),
        "old": _at(to_numpy(write.base), where),
        "parts": _joined(_parts(write, where), ", "),
        "expected": _at(case.expected, where),
        "got": _at(outcome, where),
    }


def _mixed_words(case: Case, key: Any, outcome: Outcome) -> dict[str, Field]:
    """include-self-mixed's words. Key "ones": the write into a tensor of ones
    (``torch.ones`` for the sums, the rows or the counts), whose 1 a position keeps
    or adds to. For a mean whose old value is 0 the value cannot tell an old 0
    reduced in (include_self=True) from a count started at 1 (``sizes =
    torch.ones(...)`` against a division by 0): each sum over one more than its
    count, both causes named; else the old value mixed into the reduction."""
    write, where = _base_words(case, outcome)
    found = _reduce_words(case, key, outcome) if write.op == "scatter_reduce" else {}
    if key == "ones":
        written = {to for to, _ in write.writes()}
        which = "ones.adds" if where in written else "ones.kept"
        mixes = phrase("ones.mixes")
        cause = phrase("ones.cause", which=phrase(which))
    elif write.reduce == "mean" and to_numpy(write.base)[where] == 0:
        mixes = phrase("self_mixed.count")
        cause = phrase("self_mixed.either", old=found["old"], parts=found["parts"])
    else:
        mixes = phrase("self_mixed.old", reduce=found["reduce"])
        cause = phrase("self_mixed.include", old=found["old"], parts=found["parts"])
    return {
        "where": entry("out", where),
        "got": _at(outcome, where),
        "expected": _at(case.expected, where),
        "mixes": mixes,
        "cause": cause,
    }


@misconception("include-self-dropped", "call", _reduce_words, family="write")
def _self_dropped(case: Case, base: Any) -> Mapping[Any, Outcome]:
    write = _writes_of(case)
    if write is None or write.op != "scatter_reduce" or not write.include_self:
        return {}
    return {"False": run_write(replace(write, include_self=False), case)}


@misconception("include-self-mixed", "call", _mixed_words, family="write")
def _self_mixed(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """The old values mixed in where only the written values count: a
    scatter_reduce with include_self=True where False is due, or any write into a
    tensor of ones where it starts from zeros (a position nothing writes keeps the
    1, an adding write adds onto it)."""
    import torch

    write = _writes_of(case)
    if write is None or not isinstance(write.base, torch.Tensor):
        return {}
    found: dict[Any, Outcome] = {}
    if write.op == "scatter_reduce" and not write.include_self:
        found["True"] = run_write(replace(write, include_self=True), case)
    if not bool(write.base.ne(0).any()):  # a buffer of zeros taken as ones
        ones = run_write(replace(write, base=torch.ones_like(write.base)), case)
        if not isinstance(ones, Raised):
            found["ones"] = ones
    return found


def _mean_words(case: Case, key: Any, outcome: Outcome) -> dict[str, str]:
    write, where = _base_words(case, outcome)
    parts = _parts(write, where)
    return {
        "where": entry("out", where),
        "got": _at(outcome, where),
        "parts": _joined(parts, ", "),
        "count": str(len(parts)),
        "total": str(int(np.size(to_numpy(write.index)))),
        "expected": _at(case.expected, where),
    }


def _total_words(case: Case, key: Any, outcome: Outcome) -> dict[str, Field]:
    """mean-total-count's words: the one number every sum was divided by, all the
    values' count or (key "segments") the number of segments."""
    found: dict[str, Field] = {**_mean_words(case, key, outcome)}
    found["what"] = phrase("total.values")
    if key == "segments":
        write = _writes_of(case)
        assert write is not None
        total = int(np.shape(case.expected)[write.indexed_dim])
        found["total"] = str(total)
        found["what"] = phrase("total.segments", count=_count_name(case, total))
    return found


def _means(case: Case) -> Write | None:
    write = _writes_of(case)
    if write is None or write.op != "scatter_reduce" or write.reduce != "mean":
        return None
    return write


@misconception("mean-without-count", "call", _mean_words, family="write")
def _without_count(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """Each segment's sum, never divided (or divided by counts that kept one write)."""
    write = _means(case)
    if write is None:
        return {}
    return {"sum": run_write(replace(write, reduce="sum"), case)}


@misconception("mean-empty-nan", "call", _mean_words, family="write")
def _empty_nan(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """The sums divided by counts that are 0 for an empty segment: 0 / 0 is nan."""
    write = _means(case)
    if write is None or not isinstance(case.expected, np.ndarray):
        return {}
    out = case.expected.astype(np.result_type(case.expected.dtype, np.float16))
    written = {to for to, _ in write.writes()}
    for at in np.ndindex(out.shape):
        if at not in written:
            out[at] = np.nan
    return {"nan": out}


@misconception("mean-total-count", "call", _total_words, family="write")
def _total_count(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """Every segment's sum divided by the number of all values."""
    write = _means(case)
    if write is None:
        return {}
    sums = run_write(replace(write, reduce="sum"), case)
    total = int(np.size(to_numpy(write.index)))
    if isinstance(sums, Raised) or total == 0:
        return {}
    found: dict[Any, Outcome] = {"all": sums / total}
    # or by the number of segments (the count argument)
    segments = int(np.shape(sums)[write.indexed_dim]) if np.ndim(sums) else 0
    if segments:
        found["segments"] = sums / segments
    return found


def _averaged_words(case: Case, key: Any, outcome: Outcome) -> dict[str, str]:
    write, where = _base_words(case, outcome)
    parts = _parts(write, where)
    if key == "with-old":
        parts = [to_numpy(write.base)[where], *parts]
    return {
        "where": entry("out", where),
        "got": _at(outcome, where),
        "parts": _joined(parts, ", "),
        "count": str(len(parts)),
        "op": _op(write),
        "expected": _at(case.expected, where),
    }


@misconception("mean-instead-of-sum", "call", _averaged_words, family="write")
def _averaged(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """The values written to a position averaged where they add up (a ``mean``
    reduction, or sums divided by counts): with the old value or without it."""
    write = _writes_of(case)
    if write is None or not write.adds or write.op == "plus_equals":
        return {}
    old = to_numpy(write.base)
    sums = np.zeros(old.shape, dtype=np.float64)
    counts = np.zeros(old.shape, dtype=np.int64)
    for to, value in write.writes():
        sums[to] += float(value)
        counts[to] += 1
    if old.dtype.kind != "f":
        return {}
    written = counts > 0
    without = np.where(written, sums / np.maximum(counts, 1), old)
    with_old = np.where(written, (sums + old) / (counts + 1), old)
    return {
        "without-old": without.astype(old.dtype),
        "with-old": with_old.astype(old.dtype),
    }


# The reductions a learner may reach for where the values should add up or average.
OTHER_REDUCTIONS: dict[str, Callable[[list[Any]], Any]] = {
    "amax": np.max,
    "amin": np.min,
    "prod": np.prod,
}


def _reduced_words(case: Case, key: Any, outcome: Outcome) -> dict[str, str]:
    write, where = _base_words(case, outcome)
    reduce, with_old = key
    parts = _parts(write, where)
    if with_old:
        parts = [to_numpy(write.base)[where], *parts]
    return {
        "reduction": REDUCE_WORDS[reduce],
        "where": entry("out", where),
        "got": _at(outcome, where),
        "parts": _joined(parts, ", "),
        "op": _op(write),
        "combines": "adds them up" if write.adds else "averages them",
        "expected": _at(case.expected, where),
    }


@misconception("other-reduction", "call", _reduced_words, family="write")
def _other_reduction(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """The values written to a position combined by a max, a min or a product where
    they add up (or average): with the old value (scatter_reduce's default
    include_self=True) or without it."""
    write = _writes_of(case)
    if write is None or not (write.adds or write.reduce == "mean"):
        return {}
    if write.op == "plus_equals":
        return {}
    old = to_numpy(write.base)
    written: dict[tuple[int, ...], list[Any]] = {}
    for to, value in write.writes():
        written.setdefault(to, []).append(value)
    found: dict[Any, Outcome] = {}
    for reduce, combine in OTHER_REDUCTIONS.items():
        for with_old in (False, True):
            out = old.copy()
            for to, values in written.items():
                out[to] = combine([old[to], *values] if with_old else values)
            if not np.array_equal(out, old):  # else it is "nothing written"
                found[(reduce, with_old)] = out
    return found


# ---------------------------------------------------------------- counts


def _short_words(case: Case, key: Any, outcome: Outcome) -> dict[str, Field]:
    write = _writes_of(case)
    assert write is not None
    dim = write.indexed_dim
    # a result of several dims is short along one of them (3 columns, not 3 rows)
    along = phrase("short.along", dim=str(dim)) if np.ndim(outcome) > 1 else ""
    nan: Field = phrase("short.nan") if key == "size-from-positions-nan" else ""
    return {
        "along": along,
        "nan": nan,
        "got": str(int(np.shape(outcome)[dim])),
        "dim": str(dim),
        "top": str(int(to_numpy(write.index).max(initial=-1))),
        "full": str(int(np.shape(case.expected)[dim])),
        "index": write.index_name,
        # both ways to a count cut at the largest id; the answer's own call, where
        # it made one of them (implement._short_by_own_call)
        "how": phrase("short.how_either", index=write.index_name),
    }


def _counted_write(case: Case) -> tuple[Write, np.ndarray, int, np.ndarray] | None:
    """The case's write, its expected result, the dim the write indexes and its
    positions, where the result has that dim and some position is written: what a
    count taken from the positions (short-count, present-ids-only) is made of."""
    write = _writes_of(case)
    expected = case.expected
    if write is None or not isinstance(expected, np.ndarray) or expected.ndim == 0:
        return None
    dim = write.indexed_dim
    index = to_numpy(write.index)
    if index.size == 0 or dim >= expected.ndim:
        return None
    return write, expected, dim, index


@misconception("short-count", "call", _short_words, family="write")
def _short_count(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """The result cut, along the dim the write indexes, at the largest position
    written: a size taken from the positions (``labels.max() + 1``, torch.bincount
    without minlength, a one-hot as wide as the largest label) where the classes or
    segments after it, which nothing is written to, still need their entries."""
    counted = _counted_write(case)
    if counted is None:
        return {}
    write, expected, dim, index = counted
    top = int(index.max())
    if top < 0:
        return {}
    short = np.take(expected, range(top + 1), axis=dim)
    found: dict[Any, Outcome] = {"size-from-positions": short}
    if _means(case) is not None and short.dtype.kind == "f":
        # a mean cut at the largest id whose counts are not clamped either: an empty
        # segment before it is 0 / 0, nan (bincount(ids, weights=v) / bincount(ids))
        written = {to for to, _ in write.writes()}
        nan = short.copy()
        for at in np.ndindex(nan.shape):
            if at not in written:
                nan[at] = np.nan
        found["size-from-positions-nan"] = nan
    return found


def _present_words(case: Case, key: Any, outcome: Outcome) -> dict[str, Field]:
    write = _writes_of(case)
    assert write is not None
    dim = write.indexed_dim
    present = np.unique(to_numpy(write.index))
    full = int(np.shape(case.expected)[dim])
    return {
        "along": phrase("short.along", dim=str(dim)) if np.ndim(outcome) > 1 else "",
        "got": str(int(np.shape(outcome)[dim])),
        "full": str(full),
        "index": write.index_name,
        "present": ", ".join(str(int(i)) for i in present),
        "last": str(full - 1),
        "count": _count_name(case, full),
    }


@misconception("present-ids-only", "call", _present_words, family="write")
def _present_ids_only(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """One entry per id present, in sorted order (a loop over ``ids.unique()``, a
    write into zeros of ``len(ids.unique())`` at each id's rank), where every id
    0..count-1 has its own entry, an absent one too: after a missing id every entry
    sits one slot early, and the last ones are missing. Where no id is missing below
    the largest it is short-count's value (registered first, it names that)."""
    counted = _counted_write(case)
    if counted is None or int(counted[3].min()) < 0:
        return {}
    _, expected, dim, index = counted
    present = np.unique(index)
    if int(present[-1]) >= expected.shape[dim]:
        return {}
    return {"present-ids": np.take(expected, present, axis=dim)}


def _count_name(case: Case, full: int) -> str:
    """The learner's name for the number of classes or segments: the int argument
    equal to the result's size, else words."""
    for name, value in case.args.items():
        if isinstance(value, int) and not isinstance(value, bool) and value == full:
            return name
    return "the number of segments"


def _short_sizes_words(case: Case, key: Any, outcome: Outcome) -> dict[str, str]:
    write = _writes_of(case)
    assert write is not None and isinstance(case.expected, np.ndarray)
    dim = write.indexed_dim
    index = to_numpy(write.index)
    full = int(case.expected.shape[dim])
    return {
        "index": write.index_name,
        "top": str(int(index.max(initial=-1))),
        "short": str(int(index.max(initial=-1)) + 1),
        "full": str(full),
        "count": _count_name(case, full),
    }


@misconception("short-count-raises", "call", _short_sizes_words, family="write")
def _short_sizes(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """A mean's sums and sizes made at two sizes: one of them (the sizes by
    bincount without minlength, or the sums by a write sized ``ids.max() + 1``) stops
    at the largest id, the other has every segment, so dividing them raises where the
    last segments have no values (sizes that do not broadcast), and gives the mean
    elsewhere (a size of 1 broadcasts: every other sum is 0 there)."""
    write = _means(case)
    expected = case.expected
    if write is None or not isinstance(expected, np.ndarray) or expected.ndim != 1:
        return {}
    index = to_numpy(write.index).reshape(-1)
    short, full = int(index.max(initial=-1)) + 1, int(expected.shape[0])
    if short == full:
        return {"sizes-from-ids": expected, "sums-from-ids": expected}
    if short != 1:
        raised = Raised("RuntimeError", SIZES_DO_NOT_BROADCAST)
        return {"sizes-from-ids": raised, "sums-from-ids": raised}
    # one sum (of segment 0) over every segment's size, or every sum over segment
    # 0's size (the other sums are 0: the mean)
    sizes = np.maximum(np.bincount(index, minlength=full), 1)
    first = float(expected[0]) * sizes[0]
    return {
        "sizes-from-ids": expected,
        "sums-from-ids": (first / sizes).astype(expected.dtype),
    }


def _truncated_values(case: Case) -> tuple[Any, str, str] | None:
    """The float values an op writes (a write's src) or reads (a read's input, where
    the learner's answer is no index), their name and the step: None where they
    are not floats."""
    import torch

    write = _writes_of(case)
    if write is not None:
        values, name, step = write.src, write.src_name, "write"
    elif case.call is not None and not case.index_answer and case.writes_code:
        values, name, step = case.call.input, case.call.input_name, "read"
    else:
        return None
    if not isinstance(values, torch.Tensor) or not values.is_floating_point():
        return None
    return values, name, step


def _truncated_words(case: Case, key: Any, outcome: Outcome) -> dict[str, str]:
    found = _truncated_values(case)
    assert found is not None
    values, name, step = found
    where = _first_difference(outcome, case.expected) or (0,) * np.ndim(case.expected)
    flat = to_numpy(values).reshape(-1)
    fraction = next((v for v in flat if float(v) != float(np.trunc(v))), flat[0])
    return {
        "where": entry("out", where),
        "got": _at(np.asarray(outcome) + 0, where),  # -0.0 as 0
        "expected": _at(case.expected, where),
        "src": name,
        "step": step,
        "value": format_value(fraction),
        "truncated": format_value(np.trunc(fraction).astype(np.int64)),
    }


@misconception("values-truncated", "call", _truncated_words, family="write")
def _values_truncated(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """The values an op writes or reads cast to an integer dtype first
    (``.long()``, ``tf.cast(values, tf.int64)``), in the belief that the op needs
    integers there as it does for its positions: each value is truncated toward 0
    before the op."""
    found = _truncated_values(case)
    if found is None:
        return {}
    values = found[0].trunc()
    # where every value is whole the op is unchanged (the words need a case with a
    # fraction, which the search words it on)
    write = _writes_of(case)
    if write is not None:
        return {"int": run_write(replace(write, src=values), case)}
    assert case.call is not None
    return {"int": run(replace(case.call, input=values), case.finish)}


# ---------------------------------------------------------------- the tensor written


def _into_source_words(case: Case, key: Any, outcome: Outcome) -> dict[str, str]:
    write = _writes_of(case)
    assert write is not None
    base = to_numpy(write.base)
    src = to_numpy(write.src)
    shape = shape_text(tuple(base.shape))
    if case.framework == "tensorflow":
        start = f"tf.zeros({shape}, {write.src_name}.dtype)"
    else:
        start = f"torch.zeros({shape}, dtype={write.src_name}.dtype)"
    return {
        "src": write.src_name,
        "shape": shape_text(tuple(src.shape)),
        "index": write.index_name,
        "start": start,
    }


@misconception("write-into-source", "call", _into_source_words, family="write")
def _into_source(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """The write called on the values it writes (``values.scatter_add(0, ids,
    values)``, ``src.index_add(...)``), in the belief that it makes a new output
    sized by the ids, as torch_scatter's ``scatter(src, index)`` does: a torch write
    keeps the shape of the tensor it is called on, so the result has the values'
    shape (any values: what the learner computes with it varies), or the write
    raises where an id is past the values' own length."""
    write = _writes_of(case)
    if write is None or write.op in ("index_put", "plus_equals"):
        return {}
    source, src = to_numpy(write.base), to_numpy(write.src)
    if src.ndim != source.ndim:
        return {}
    index = to_numpy(write.index)
    dim = write.indexed_dim
    if index.size and (index.min() < 0 or index.max() >= src.shape[dim]):
        return {"source": Raised("Error")}
    # the values returned as they are show no write at all: told on the visible
    # example where an id repeats (a write into them changes them there; on random
    # cases a mean may equal the value it replaces)
    shown = case.visible and np.unique(index).size < index.size
    return {"source": Shaped(tuple(src.shape), but_not=src if shown else None)}


# ---------------------------------------------------------------- sized from the ids

# A position off the end of the dim written along, in the words of torch's writes and
# subscripts, of the rule a scatter breaks (diagnose's and the page's), and of
# TensorFlow's segment ops: the position and the size (or the last position)
OUT_OF_RANGE = (
    re.compile(
        r"index (?P<position>-?\d+) is out of bounds for dimension \d+ with size "
        r"(?P<size>\d+)"
    ),
    re.compile(r"\] = (?P<position>-?\d+) is outside 0\.\.(?P<last>-?\d+)"),
    re.compile(
        r"segment_ids\[[\d,]+\] = (?P<position>-?\d+) is out of range "
        r"\[0, (?P<size>\d+)\)"
    ),
)
# TensorFlow's scatter_nd family: a coordinate and the shape; the first axis it is off
OFF_THE_SHAPE = re.compile(
    r"indices\[[\d,]+\] = \[(?P<coordinate>[-\d, ]+)\] does not index into shape "
    r"\[(?P<shape>[\d,]*)\]"
)
# index_add_'s words for a position off the end of a 1-D tensor: the size is the call's
NO_SIZE_GIVEN = "index out of range in self"


def _off_the_shape(message: str) -> tuple[int, int, int] | None:
    """(axis, position, size) of the first axis a TensorFlow coordinate is off."""
    found = OFF_THE_SHAPE.search(message)
    if found is None:
        return None
    coordinate = [int(c) for c in found["coordinate"].split(",")]
    shape = [int(c) for c in found["shape"].split(",") if c]
    for axis, (position, size) in enumerate(zip(coordinate, shape, strict=False)):
        if not 0 <= position < size:
            return axis, position, size
    return None


def ids_of(case: Case) -> dict[str, Any] | None:
    """What a write's size is checked against (``sized_from_ids``): the largest id
    the exercise's write takes, how many distinct ids there are, the dim they index,
    the names of the ids and of the count, the count (the result's size there) and
    how many ids there are;
    None where the case has no write or no ids. The page gets it per case."""
    write = _writes_of(case)
    expected = case.expected
    if write is None or not isinstance(expected, np.ndarray):
        return None
    ids = to_numpy(write.index).reshape(-1)
    dim = write.indexed_dim
    if ids.size == 0 or ids.dtype.kind not in "iu" or dim >= expected.ndim:
        return None
    full = int(expected.shape[dim])
    return {
        "top": int(ids.max()),
        "distinct": int(np.unique(ids).size),
        "dim": dim,
        "index": write.index_name,
        "count": _count_name(case, full),
        "full": full,
        "length": int(ids.size),  # how many ids there are
    }


def sized_from_ids(
    ids: Mapping[str, Any] | None,
    message: str,
    size: int | None = None,
    least: int = 1,
) -> dict[str, Field] | None:
    """The fields of ``implement.raised_sized``: an error of a position off the end
    of a tensor with fewer slots than the count, as many as the largest id or as the
    distinct ids (a width of ``labels.max()``, a count of ``len(ids.unique())``):
    ids are slot numbers, so the largest needs the largest + 1 slots, and an absent
    id still has its slot. ``size`` is the written tensor's size along the dim, where
    the words give none (``NO_SIZE_GIVEN``); ``least`` the fewest slots told (0:
    ``labels.max()`` of labels all 0 follows the ids too). exercises.mjs's
    sizedFromIds is its twin."""
    if ids is None:
        return None
    position = along = None
    for pattern in OUT_OF_RANGE:
        found = pattern.search(message)
        if found is not None:
            position = int(found["position"])
            named = found.groupdict()
            size = int(named["size"]) if named.get("size") else int(named["last"]) + 1
            break
    else:
        off = _off_the_shape(message)
        if off is not None:
            along, position, size = off
        elif NO_SIZE_GIVEN not in message:
            return None
    if along is not None and along != ids["dim"]:
        return None  # a coordinate off another axis than the ids': another mistake
    if size is None or size >= ids["full"] or size < least:
        return None
    if position is not None and 0 <= position < size:
        return None
    top, distinct = int(ids["top"]), int(ids["distinct"])
    largest, counted = size == top, size == distinct
    if not (largest or counted):
        return None
    which = (
        "sized.both"
        if largest and counted
        else ("sized.largest" if largest else "sized.distinct")
    )
    return {
        "slots": f"{size} slot" if size == 1 else f"{size} slots",
        "dim": str(ids["dim"]),
        "which": (
            phrase(which, index=str(ids["index"]))
            if which == "sized.distinct"
            else phrase(which, index=str(ids["index"]), top=str(top))
        ),
        "top": str(top),
        "need": str(top + 1),
        "index": str(ids["index"]),
        "count": str(ids["count"]),
        "full": str(ids["full"]),
    }

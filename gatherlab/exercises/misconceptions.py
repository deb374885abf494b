"""The misconception model: named, small transformations of the intended computation.

A misconception is defined once, for an op family, never for one exercise: "gather
along the other dim", "every row read every position" (index_select or ``x[:, idx]``
semantics), "a flat position with the wrong stride", "a sum of repeated reads"... Each
one computes, for one case of an exercise (its inputs, the intended call bound to them,
the expected value), the outcome the mistake produces: a value, an error
(``Raised``) or ``NOT_EXPECTED`` (anything but the expected value: a size hard-coded
from the visible example). ``explain`` keeps the misconceptions that reproduce the
learner's outcome on every case, single ones first and then pairs (a wrong call, then a
wrong finish such as a missing ``unsqueeze``; pairs only where there are several
cases, one case being too little evidence for two mistakes at once), and returns the
first one's verdict.

Stages: ``call`` misconceptions change the intended call (its dim, index, op), ``case``
ones the case as a whole (sizes of the visible example, a negative dim), ``output`` ones
the value a call returned (a dim squeezed, a sign, a sum of repeats). A pair is a
``call`` or ``case`` misconception followed by an ``output`` one.

Adding an exercise adds no misconception: ``cases`` of any exercise are run through the
whole library, and each entry decides from the case whether it applies.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from gatherlab._arrays import entry, framework_of, to_numpy
from gatherlab.exercises.call import (
    EXPANDED,
    TORCH_ERRORS,
    Call,
    shared_positions,
    step_at,
)
from gatherlab.exercises.compare import shape_text
from gatherlab.exercises.verdict import (
    Field,
    Phrase,
    Verdict,
    fields_of,
    messages,
    phrase,
    picked,
)
from gatherlab.trace import format_value


@dataclass(frozen=True)
class Raised:
    """An outcome that is an error: its type's name and, if known, diagnose's rule.

    The type ``"Error"`` stands for any error, ``CHECK`` for one the learner's own
    code raises (no gather-family call broke a rule).
    """

    type: str
    rule: str | None = None
    # the index that raised, as (shape, values), where it is known on both sides: a
    # fix's learner index, and the index a misconception builds (a flat position
    # with the wrong stride). The same index is evidence where one error is not.
    index: tuple[tuple[int, ...], tuple[Any, ...]] | None = field(
        default=None, compare=False
    )


def raised_index(index: Any) -> tuple[tuple[int, ...], tuple[Any, ...]] | None:
    """An index as ``Raised.index`` holds it; None where it has no values to read (a
    meta tensor, an object that is no array)."""
    try:
        values = np.asarray(to_numpy(index))
    except Exception:  # anything a learner can pass as an index
        return None
    if values.dtype.kind not in "biuf":
        return None
    return tuple(values.shape), tuple(values.reshape(-1).tolist())


CHECK = "Check"  # an error a learner's own check raises: no call broke a rule
# Any error that is no broken gather rule, or a position off the end (what indexing
# with a position on the wrong axis raises, as IndexError or a framework's own error)
OFF_AN_AXIS = Raised("Error", "index-out-of-range")
# The rule of an error no gather-family call's rule explains: an elementwise op (sums
# / sizes) between tensors whose sizes do not broadcast (implement._indexing_rule,
# exercises.mjs's indexingRule)
SIZES_DO_NOT_BROADCAST = "sizes-do-not-broadcast"


class _NotExpected:
    """The outcome "anything but the expected value" (a size hard-coded elsewhere)."""

    def __repr__(self) -> str:
        return "NOT_EXPECTED"


NOT_EXPECTED = _NotExpected()


@dataclass(frozen=True)
class Shaped:
    """The outcome "any value of this shape" (values a learner's loop never wrote),
    but ``but_not`` where given (a value that shows another mistake: an input
    returned as it is)."""

    shape: tuple[int, ...]
    but_not: Any = field(default=None, compare=False)


Outcome = Any  # np.ndarray | Raised | _NotExpected


def equal(first: Outcome, second: Outcome) -> bool:
    """Two outcomes alike: values of one shape that agree (floats to 1e-5), or two
    errors whose rules agree where both are known (else their types, where both
    are known: ``Raised("Error")`` stands for any error; a rule known on one side only
    matches two IndexErrors, off the end)."""
    if isinstance(first, Raised) or isinstance(second, Raised):
        if not (isinstance(first, Raised) and isinstance(second, Raised)):
            return False
        if "Error" in (first.type, second.type) and None in (first.rule, second.rule):
            return True  # "any error"
        if first.rule is not None and second.rule is not None:
            return first.rule == second.rule  # a broken rule is matched by the rule
        if first.rule is not None or second.rule is not None:
            # only an IndexError off the end (implement._indexing_rule) and one whose
            # rule nobody recorded (a misconception's own indexing off the end)
            both = first.type == second.type == "IndexError"
            return both and (first.rule or second.rule) == "index-out-of-range"
        return first.type == second.type or CHECK in (first.type, second.type)
    if isinstance(first, Shaped) or isinstance(second, Shaped):
        both = isinstance(first, Shaped) and isinstance(second, Shaped)
        return both and first.shape == second.shape
    if isinstance(first, _NotExpected) or isinstance(second, _NotExpected):
        return first is second
    a, b = np.asarray(first), np.asarray(second)
    if a.shape != b.shape or a.dtype.kind not in "biuf" or b.dtype.kind not in "biuf":
        return False
    if a.dtype.kind == "f" or b.dtype.kind == "f":
        return bool(np.allclose(a, b, rtol=1e-5, atol=1e-6, equal_nan=True))
    return bool(np.array_equal(a, b))


def reproduces(predicted: Outcome, learner: Outcome, expected: Outcome) -> bool:
    """Whether a misconception's outcome on a case is the learner's outcome there.
    A learner's error with its index known (a fix) is reproduced only by the same
    index: any wrong index raises that error."""
    if isinstance(learner, Raised) and learner.index is not None:
        return isinstance(predicted, Raised) and predicted.index == learner.index
    if predicted is NOT_EXPECTED:
        return not equal(learner, expected)
    if isinstance(predicted, Shaped):
        if predicted.but_not is not None and equal(learner, predicted.but_not):
            return False
        return isinstance(learner, np.ndarray) and learner.shape == predicted.shape
    return equal(predicted, learner)


@dataclass
class Case:
    """One case of an exercise, as the misconceptions read it.

    ``name`` leads the case's sentences (a ``case.*`` phrase, "On hidden case 3 of
    50"; "" where one case needs no name); ``args`` are its torch inputs by name;
    ``call`` is the intended call bound to them (None where no call explains the
    value); ``finish`` turns that call's output into the expected value (e.g.
    ``squeeze(1)``); ``positions`` names the positions the learner holds.
    """

    name: Field
    visible: bool
    args: Mapping[str, Any]
    expected: Outcome
    call: Call | None = None
    finish: Callable[[Any], Any] | None = None
    positions: str = "the positions"
    gradient: bool = False
    grad_output: Any = None
    writes_code: bool = True  # False for a prediction: no advice in code terms
    index_answer: bool = False  # True for a fix: the learner's answer is the index
    visible_expected: Any = None  # the visible example's expected value
    visible_shapes: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    visible_numbers: Mapping[str, int] = field(default_factory=dict)  # its int args
    write: Any = None  # the intended write (``writes.Write``), for writing exercises
    # the name of a gradient's value where it is no ``x.grad`` (TensorFlow's)
    gradient_name: str = ""
    # the framework the learner's functions receive ("tensorflow": a TF exercise,
    # whose cases stay torch tensors but whose words must be TensorFlow's)
    framework: str = "torch"
    # the TensorFlow op a TensorFlow exercise asks for ("gather_nd", else "")
    tf_op: str = ""
    # the torch op the learner's function must call ("gather" where it must call
    # torch.gather or Tensor.gather, whatever the intended call is), else ""
    reads_with: str = ""
    # the framework whose read the learner's function called where it is not the
    # exercise's ("tensorflow": a torch exercise answered with tf.gather), else ""
    read_in: str = ""


@dataclass(frozen=True)
class Voice:
    """How a kind of exercise talks: ``lead(case)`` starts a sentence (a ``lead.*``
    phrase), ``yours`` names the learner's value (``your result``, ``your answer``)."""

    lead: Callable[[Case], Phrase]
    yours: str
    # the lead of words shown on a later case than the first one the answer fails,
    # where that one raised: (case that raised, case worded on) -> Phrase
    after_error: Callable[[Case, Case], Phrase] | None = None


def run(call: Call, finish: Callable[[Any], Any] | None = None) -> Outcome:
    """The call's outcome: its (finished) value, or the rule it breaks as ``Raised``."""
    problems = call.problems()
    if problems:
        return Raised("RuntimeError", problems[0].rule)
    try:
        value = call.run()
        if finish is not None:
            value = finish(value)
    except TORCH_ERRORS as error:
        return Raised(type(error).__name__)
    return to_numpy(value)


def _torch(values: np.ndarray) -> Any:
    import torch

    return torch.as_tensor(np.array(values))


# A library entry: (case, base) -> {variant key: outcome}; base is the value an output
# misconception transforms (the expected value, or a call misconception's outcome).
Variants = Callable[[Case, Any], Mapping[Any, Outcome]]
# (case, key, outcome) -> the template's fields other than lead and yours
Words = Callable[[Case, Any, Outcome], Mapping[str, Field]]


@dataclass(frozen=True)
class Misconception:
    """A named mistake: its ``stage``, its ``variants`` and the ``words`` it needs.

    The public threads behind each one are in ``tests/data/real_mistakes.json``.
    """

    id: str
    stage: str  # "call", "case" or "output"
    variants: Variants
    words: Words
    # "read" (a gather-family read: ``Case.call``), "write" (a write by index:
    # ``Case.write``) or "value" (any value, whatever op made it)
    family: str = "read"

    @property
    def template(self) -> str:
        return f"mc.{self.id}"


LIBRARY: list[Misconception] = []
FAMILIES = ("read", "value", "write")
# A missing expand is tried before a moved axis: an unexpanded index is both.
PRIORITY = {"missing-expand": -1}


def misconception(
    id: str, stage: str, words: Words, family: str = ""
) -> Callable[[Variants], Variants]:
    """Register the decorated variants function as misconception ``id`` of
    ``family`` (by default "value" for an output misconception, else "read"). The
    library stays in one order whatever module registered first."""

    def register(variants: Variants) -> Variants:
        kind = family or ("value" if stage == "output" else "read")
        LIBRARY.append(Misconception(id, stage, variants, words, kind))
        # the order of registration, the writing family last (stable sort)
        LIBRARY.sort(key=lambda m: (m.family == "write", PRIORITY.get(m.id, 0)))
        return variants

    return register


# ---------------------------------------------------------------- helpers


def _gathering(case: Case) -> bool:
    call = case.call
    return call is not None and call.op in ("gather", "take_along_dim")


def _gathered(case: Case) -> tuple[np.ndarray, int, np.ndarray] | None:
    """A gather's input, its dim and its positions without the dims they were
    expanded over (``shared_positions``); None where the call is no gather."""
    if not _gathering(case):
        return None
    assert case.call is not None
    dim = _axis(case.call)
    index = to_numpy(case.call.index)
    return to_numpy(case.call.input), dim, shared_positions(index, dim)


def reader(case: Case) -> str:
    """The torch read the learner's code is known to make: a fix's broken call (its
    answer is that call's index), an exercise's one required op (index_select written
    with gather: "gather"); "" where the learner may read with any op."""
    call = case.call
    if case.index_answer and call is not None and case.framework == "torch":
        return call.op
    return case.reads_with


def _axis(call: Call) -> int:
    rank = max(to_numpy(call.input).ndim, 1)
    return int(call.axis or 0) % rank


def _along(call: Call, dim: int) -> Field:
    if to_numpy(call.input).ndim == 2 and call.op != "index_select":
        return phrase("along.column" if dim == 1 else "along.row")
    return ""


def _first_difference(got: Outcome, expected: Outcome) -> tuple[int, ...] | None:
    if not isinstance(got, np.ndarray) or not isinstance(expected, np.ndarray):
        return None
    if got.shape != expected.shape:
        return None
    wrong = ~np.isclose(got, expected, rtol=1e-5, atol=1e-6, equal_nan=True)
    hits = np.argwhere(wrong)
    return tuple(int(c) for c in hits[0]) if len(hits) else None


def _shape(outcome: Outcome) -> str:
    return shape_text(np.shape(outcome)) if isinstance(outcome, np.ndarray) else "?"


def _no_words(case: Case, key: Any, outcome: Outcome) -> dict[str, str]:
    return {}


# ---------------------------------------------------------------- call misconceptions


def counted(positions: str) -> str:
    """The positions' name as the subject of "count": a plural name as it is
    ("rows", "the positions"), else ``the positions in index``."""
    return positions if positions.endswith("s") else f"the positions in {positions}"


def _traced(call: Call, expected: Outcome, outcome: Outcome) -> str:
    """``out[0, 0] reads x[1, 0] = 20 because rows[0, 0] = 1``: what the intended
    call reads where ``outcome`` first differs from it (the first coordinate where
    their shapes differ); "" where it cannot be traced."""
    where = _first_difference(outcome, expected)
    if where is None:
        where = (0,) * np.ndim(expected)
    step = step_at(call, where)
    if step is None:
        return ""
    return f"{entry('out', where)} reads {call.reads(step)}"


def _other_dim_words(case: Case, key: Any, outcome: Outcome) -> dict[str, Field]:
    assert case.call is not None
    dim = _axis(case.call)
    rank = max(to_numpy(case.call.input).ndim, 1)
    trace = _traced(case.call, case.expected, outcome)
    shift = key[1] if isinstance(key, tuple) else key
    other = str((dim + shift) % rank)
    # the learner's own reads (a loop, a subscript) take no dim argument to change
    fix = (
        phrase(
            "other_dim.own_read",
            index=case.call.index_name,
            dim=str(dim),
            other=other,
        )
        if isinstance(key, tuple)
        else phrase("other_dim.use", dim=str(dim))
    )
    return {
        "fix": fix,
        "other": other,
        "dim": str(dim),
        "along": _along(case.call, dim),
        "positions": counted(case.positions),
        "index": case.call.index_name,
        "trace": phrase("other_dim.trace", trace=trace) if trace else "",
    }


@misconception(
    "other-dim",
    "call",
    _other_dim_words,
)
def _other_dim(case: Case, base: Any) -> Mapping[Any, Outcome]:
    call = case.call
    if call is None or call.op not in ("gather", "take_along_dim", "index_select"):
        return {}
    rank = max(to_numpy(call.input).ndim, 1)
    dim = _axis(call)
    found: dict[Any, Outcome] = {}
    for shift in range(1, rank):  # keyed by the offset from the task's dim
        found[shift] = outcome = run(
            call.with_part("dim", (dim + shift) % rank), case.finish
        )
        if case.writes_code and not case.index_answer and call.op == "gather":
            # a learner's own loop or subscript reading along the other dim checks
            # none of gather's size rules: where the call raises, it runs off the
            # end of an axis instead (an IndexError), or raises its own error
            raised = isinstance(outcome, Raised)
            found[("indexed", shift)] = OFF_AN_AXIS if raised else outcome
    return found


FIXED_DIMS = {"last": "the last dim", "first": "dim 0"}


def _fixed_dim(key: str, rank: int) -> int:
    return rank - 1 if key == "last" else 0


def _dim_ignored_words(case: Case, key: Any, outcome: Outcome) -> dict[str, str]:
    assert case.call is not None
    name = case.call.input_name
    rank = max(to_numpy(case.call.input).ndim, 1)
    which = key[0]
    return {
        "which": FIXED_DIMS[which],
        "fixed": str(_fixed_dim(which, rank)),
        "dim": str(case.args["dim"]),
        "axis": str(_axis(case.call)),
        "code": f"{name}.dim() - 1" if which == "last" else "0",
    }


def _selected_along(case: Case, built: int, read: int) -> Outcome:
    """index_select written with gather: the positions laid along dim ``built`` and
    expanded over the others, then gathered along dim ``read``."""
    assert case.call is not None
    source, positions = case.call.input, case.call.index
    along, sizes = [1] * source.dim(), list(source.shape)
    along[built] = sizes[built] = positions.numel()
    index = positions.reshape(along).expand(sizes)
    return run(Call("gather", source, read, index), case.finish)


@misconception("dim-ignored", "call", _dim_ignored_words)
def _dim_ignored(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """A function of ``dim`` that reads along one fixed dim whatever dim is: the last
    one (``gather(x, x.dim() - 1, index)`` for ``gather(x, dim, index)``, a loop with
    only the formula for the last dim) or dim 0. For index_select written with gather,
    the gather runs along the fixed dim with the index built along dim, or the whole
    selection does (a ``Tensor.gather(indices, axis)`` that drops its axis)."""
    call = case.call
    dim = case.args.get("dim")
    if call is None or call.op not in ("gather", "take_along_dim", "index_select"):
        return {}
    if not isinstance(dim, int) or isinstance(dim, bool):
        return {}
    source = call.input
    rank = max(to_numpy(source).ndim, 1)
    found: dict[Any, Outcome] = {}
    for which in FIXED_DIMS:
        fixed = _fixed_dim(which, rank)
        if call.op != "index_select":
            outcomes = {"read": run(call.with_part("dim", fixed), case.finish)}
        else:
            outcomes = {
                "read": _selected_along(case, _axis(call), fixed),
                "whole": _selected_along(case, fixed, fixed),
            }
        for part, outcome in outcomes.items():
            # gather's error, or the IndexError a loop with that dim's formula raises
            found[which, part] = (
                Raised("Error") if isinstance(outcome, Raised) else outcome
            )
    return found


def _every_position_words(case: Case, key: Any, outcome: Outcome) -> dict[str, Field]:
    assert case.call is not None
    dim = _axis(case.call)
    positions = shared_positions(to_numpy(case.call.index), dim)
    flat = key.startswith("flat")
    read = positions.reshape(-1) if flat else positions
    fields: dict[str, Field] = {
        "input": case.call.input_name,
        "count": str(int(positions.size if flat else positions.shape[-1])),
        "read": str(read.tolist()),
        "shape": _shape(outcome),
        "dim": str(dim),
        "positions": case.positions,
        # the slice that reads every position along dim: x[idx] on dim 0
        "slice": ":, " * dim + case.positions,
        "op": case.call.op,
    }
    # the op that reads every position in every row, in the framework the learner's
    # read ran in: tf.gather with an axis and no batch_dims (a whole slice per index
    # entry), or torch's x[:, idx] and index_select
    tensorflow = (case.read_in or case.framework) == "tensorflow"
    how = "every_row.tensorflow" if tensorflow else "every_row.torch"
    if tensorflow:
        # tf.gather's positions as the exercise computes them ("lengths - 1")
        name = case.call.index_name
        own = name.removesuffix(EXPANDED) if name.endswith(EXPANDED) else case.positions
        fields["positions"] = own
        fields["row"] = f"({own})[b]" if " " in own else f"{own}[b]"
    if case.index_answer and case.framework == "torch":
        # a fix's answer is the index: its rows hold every position (expanded)
        how = "every_row.fix"
    fields["how"] = picked(how, fields)
    fields["own"] = picked(f"{how}_own", fields)
    fields["pairing"] = picked(f"{how}_pairing", fields)
    return fields


@misconception(
    "every-row-reads-every-position",
    "call",
    _every_position_words,
)
def _every_position(case: Case, base: Any) -> Mapping[Any, Outcome]:
    gathered = _gathered(case)
    if gathered is None:
        return {}
    source, dim, positions = gathered
    if (
        positions.size == 0
        or positions.min() < 0
        or positions.max() >= source.shape[dim]
    ):
        return {}
    found = {"flat": np.take(source, positions.reshape(-1), axis=dim)}
    if positions.ndim > 1:
        found["kept"] = np.take(source, positions, axis=dim)
    if dim > 0 and source.ndim > 2:
        # the dim read moved to the front first (tf.gather(tf.transpose(x), idx),
        # x.transpose(0, 1)[idx]): the index's dims come first, then every other dim
        # (on a 2-D input that is index-broadcast's outcome, x[rows, idx[:, None]])
        for key, value in list(found.items()):
            read = positions.reshape(-1) if key == "flat" else positions
            found[f"{key}_front"] = np.moveaxis(
                value, tuple(range(dim, dim + read.ndim)), tuple(range(read.ndim))
            )
    return found


def _broadcast_words(case: Case, key: Any, outcome: Outcome) -> dict[str, str]:
    assert case.call is not None
    dim = _axis(case.call)
    count = int(np.size(shared_positions(to_numpy(case.call.index), dim)))
    return {
        "input": case.call.input_name,
        "positions": case.positions,
        "shape": _shape(outcome),
        "count": str(count),
        "other": str(1 - dim),
    }


@misconception("index-broadcast", "call", _broadcast_words)
def _index_broadcast(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """``x[torch.arange(n), labels.view(-1, 1)]``: the numbers along the other dim,
    shape (n,), and the positions, shape (n, 1), broadcast to (n, n), each position
    read in every row (or column)."""
    if not _gathering(case):
        return {}
    assert case.call is not None
    source, dim = to_numpy(case.call.input), _axis(case.call)
    index = to_numpy(case.call.index)
    if source.ndim != 2 or index.ndim != 2:
        return {}
    positions = shared_positions(index, dim).reshape(-1)
    other = 1 - dim
    numbers = np.arange(index.shape[other])
    if (
        positions.size == 0
        or positions.min() < 0
        or positions.max() >= source.shape[dim]
    ):
        return {key: OFF_AN_AXIS for key in ("broadcast", "flat", "column")}
    coordinates = [np.empty(0, dtype=np.int64)] * 2
    coordinates[dim] = positions[:, None]
    coordinates[other] = numbers[None, :]
    read = source[tuple(coordinates)]
    found = {"broadcast": read, "flat": read.reshape(-1)}
    if np.shape(case.expected)[1:] == (1,):  # then .view(-1, 1) to one column
        found["column"] = read.reshape(-1, 1)
    return found


def _per_row_positions(case: Case) -> tuple[np.ndarray, np.ndarray] | None:
    """A 2-D gather along dim 1 whose positions are (n, k), in code a learner
    writes: its input and positions; None otherwise."""
    gathered = _gathered(case)
    if gathered is None or not case.writes_code:
        return None
    source, dim, positions = gathered
    if source.ndim != 2 or dim != 1 or positions.ndim != 2:
        return None
    if positions.size == 0:
        return None
    return source, positions


def _subscript_words(case: Case, key: Any, outcome: Outcome) -> dict[str, str]:
    assert case.call is not None
    gathered = _per_row_positions(case)
    shape = shape_text(gathered[1].shape) if gathered is not None else "?"
    return {
        "input": case.call.input_name,
        "positions": case.positions,
        "shape": shape,
    }


def _right_words(case: Case, key: Any, outcome: Outcome) -> dict[str, Field]:
    words: dict[str, Field] = dict(_subscript_words(case, key, outcome))
    if isinstance(outcome, Raised):
        words["result"] = phrase("broadcast.raises", shape=words["shape"])
    else:
        words["result"] = phrase("broadcast.row_j")
    return words


@misconception("index-broadcast-right", "call", _right_words)
def _index_broadcast_right(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """``x[torch.arange(n), columns]`` with columns of shape (n, k): index tensors
    broadcast together from the right, so the (n,) row numbers line up with the
    last dim of columns (out[i, j] reads row j), or do not broadcast (k != n)."""
    found = _per_row_positions(case)
    if found is None:
        return {}
    source, positions = found
    rows = np.arange(source.shape[0])
    try:
        shape = np.broadcast_shapes(rows.shape, positions.shape)
    except ValueError:
        return {"right": Raised("IndexError")}  # the shapes do not broadcast
    if positions.min() < -source.shape[1] or positions.max() >= source.shape[1]:
        return {"right": OFF_AN_AXIS}
    return {"right": source[np.broadcast_to(rows, shape), positions]}


@misconception("chained-index", "call", _subscript_words)
def _chained_index(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """``x[rows][columns]`` for ``x[rows, columns]``: the second subscript indexes
    the first one's result along its dim 0 again (rows of shape (n, 1) give
    (n, 1, m), then (n, k, 1, m))."""
    found = _per_row_positions(case)
    if found is None:
        return {}
    source, positions = found
    n = source.shape[0]
    if positions.min() < -n or positions.max() >= n:
        return {"pairs": OFF_AN_AXIS}
    return {"pairs": source[np.arange(n)[:, None]][positions]}


def _marked(case: Case) -> tuple[Call, np.ndarray, np.ndarray] | None:
    """A predicted read whose integer index holds only 0s and 1s, a 1 among them:
    the call, its index and its input; None otherwise."""
    call = case.call
    if call is None or case.writes_code or case.gradient:
        return None
    index, source = to_numpy(call.index), to_numpy(call.input)
    if index.dtype.kind not in "iu" or index.size == 0 or source.ndim == 0:
        return None
    if not np.isin(index, (0, 1)).all() or not index.any():
        return None
    return call, index, source


def _mask_words(case: Case, key: Any, outcome: Outcome) -> dict[str, Field]:
    found = _marked(case)
    assert found is not None
    call, index, source = found
    dim = 0 if call.op == "take" else _axis(call)
    if call.op == "index_select" and source.ndim == 2:
        kind = "column" if dim else "row"
        named = [f"{kind} {int(p)}" for p in index.reshape(-1)]
        listed = ", ".join(named[:-1]) + f", then {named[-1]}"
        if len(named) > 4 or len(named) < 2:
            reads = phrase("mask.reads_each", kind=kind)
        else:
            reads = phrase("mask.reads_listed", reads=listed)
    elif call.op == "take":
        reads = phrase("mask.reads_flat")
    else:
        reads = phrase("mask.reads_along", dim=str(dim))
    # the rows marked 1 are also the index's positions as a sorted set: both said
    both = call.op != "gather" and _sorted_set(case) is not None
    both = both and equal(_sorted_set(case), outcome)
    return {
        "op": call.op,
        "index": call.index_name,
        "values": str(index.tolist()),
        "reads": reads,
        "set": phrase("mask.or_set") if both else "",
    }


def _sorted_set(case: Case) -> Outcome | None:
    """index-as-set's reading of the case (each position once, sorted)."""
    return _index_as_set(case, None).get("set")


@misconception("index-as-mask", "call", _mask_words)
def _index_as_mask(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """A predicted read whose index holds only 0s and 1s believed to be a mask (as
    a bool tensor, or an old uint8 one, is in a subscript): the entries marked 1
    kept (``select``; index_select's and take's positions where the index is 1,
    gather's input entries where it is 1), or the input with 0 where the index is 0
    (``keep``, a mask as a multiplier); where each entry is one read of position 0
    or 1."""
    found = _marked(case)
    if found is None:
        return {}
    call, index, source = found
    if call.op == "index_select":
        dim = _axis(call)
        marked = np.flatnonzero(index.reshape(-1))
        if marked.max() >= source.shape[dim]:
            return {}
        return {"select": np.take(source, marked, axis=dim)}
    if call.op == "take":
        marked = np.flatnonzero(index.reshape(-1))
        if marked.max() >= source.size:
            return {}
        return {"select": source.reshape(-1)[marked]}
    if index.shape != source.shape:
        return {}
    mask = index.astype(bool)
    return {"select": source[mask], "keep": np.where(mask, source, 0)}


def _as_set_words(case: Case, key: Any, outcome: Outcome) -> dict[str, str]:
    assert case.call is not None
    index = np.asarray(to_numpy(case.call.index))
    return {
        "op": case.call.op,
        "index": case.call.index_name,
        "values": str(index.tolist()),
        "count": str(index.size),
    }


@misconception("index-as-set", "call", _as_set_words)
def _index_as_set(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """An index_select or take index read as a set of positions (each once, sorted,
    as an index set of another library is), where every entry makes one read, in
    the index's order, repeats included."""
    call = case.call
    if call is None or call.op not in ("index_select", "take") or case.gradient:
        return {}
    index = np.asarray(to_numpy(call.index))
    source = to_numpy(call.input)
    if index.dtype.kind not in "iu" or index.size == 0:
        return {}
    if index.ndim > 1 and call.op != "take":
        return {}
    if call.op == "take":
        source, dim = source.reshape(-1), 0
    else:
        dim = _axis(call)
    size = source.shape[dim] if source.ndim else 0
    if index.min() < -size or index.max() >= size:
        return {}
    wrapped = index % size
    found = {"set": np.take(source, np.unique(wrapped), axis=dim)}
    # the repeats kept but sorted; each position once in its first place
    if index.ndim == 1:
        found["sorted"] = np.take(source, np.sort(wrapped), axis=dim)
        _, first = np.unique(wrapped, return_index=True)
        found["once"] = np.take(source, wrapped[np.sort(first)], axis=dim)
    return found


def _whole_rows_words(case: Case, key: Any, outcome: Outcome) -> dict[str, str]:
    assert case.call is not None
    return {
        "input": case.call.input_name,
        "dim": str(_axis(case.call)),
        "positions": case.positions,
    }


@misconception(
    "whole-rows",
    "call",
    _whole_rows_words,
)
def _whole_rows(case: Case, base: Any) -> Mapping[Any, Outcome]:
    gathered = _gathered(case)
    if gathered is None:
        return {}
    source, dim, positions = gathered
    if dim == 0 or positions.size == 0:
        return {}
    if positions.min() < 0 or positions.max() >= source.shape[0]:
        return {"rows": Raised("IndexError"), "kept": Raised("IndexError")}
    return {
        "rows": np.take(source, positions.reshape(-1), axis=0),
        "kept": np.take(source, positions, axis=0),
    }


def _mask_of(case: Case) -> tuple[np.ndarray, int, np.ndarray] | None:
    """The 0/1 mask of the positions the case's read takes, as a learner builds it
    (a one-hot of the labels, ``(x > 0).long()``): over the input's dims up to the
    one it selects along (a gather's positions without the dims they were expanded
    over; index_select's along its dim), 1 where a position is read. With the input
    and that dim; None where the read is no gather or index_select, or its dim has
    no positions."""
    call = case.call
    if call is None or call.op not in ("gather", "take_along_dim", "index_select"):
        return None
    source, dim = to_numpy(call.input), _axis(call)
    index = to_numpy(call.index)
    if source.ndim == 0 or source.shape[dim] == 0 or index.size == 0:
        return None
    if index.dtype.kind not in "iu" or index.min() < 0:
        return None
    if index.max() >= source.shape[dim]:
        return None
    if call.op == "index_select":
        mask = np.zeros(source.shape[dim], dtype=np.int64)
        mask[index.reshape(-1)] = 1
        return source, dim, mask
    positions = shared_positions(index, dim)
    if positions.ndim != dim + 1:
        return None
    mask = np.zeros(source.shape[: dim + 1], dtype=np.int64)
    for at in np.ndindex(positions.shape):
        mask[at[:dim] + (int(positions[at]),)] = 1
    return source, dim, mask


def _int_mask_words(case: Case, key: Any, outcome: Outcome) -> dict[str, str]:
    """What m's 0s and 1s are read as; no op named: ``x[:, m]``, index_select, an
    expanded gather and tf.gather with an axis read alike."""
    assert case.call is not None
    read = key[0] if isinstance(key, tuple) else key
    source = to_numpy(case.call.input)
    dim = _axis(case.call)
    axis = 0 if read == "rows" else dim
    if read == "take":
        what = "flat positions 0 and 1"
    elif read == "paired":
        what = f"positions 0 and 1 along dim {dim}, one per entry"
    elif source.ndim == 2:
        what = "columns 0 and 1" if axis else "rows 0 and 1"
    else:
        what = f"slices 0 and 1 of dim {axis}"
    if case.framework == "tensorflow":
        mask = "tf.boolean_mask takes a mask, as bool (tf.cast(mask, tf.bool))"
    else:
        mask = "make the mask bool (mask.bool())"
    return {
        "what": what,
        "shape": _shape(outcome),
        "mask": mask,
        "positions": case.positions,
    }


@misconception("int-mask-as-bool", "call", _int_mask_words)
def _int_mask(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """An integer 0/1 tensor (a one-hot, ``(x > 0).long()``, an int mask) used where
    a bool mask is meant: only a bool tensor masks; an integer one holds positions,
    so every 0 and 1 reads position 0 or 1: ``x[m]`` and ``tf.gather(x, m)`` whole
    slices along dim 0 (``rows``), ``x[:, m]`` / ``tf.gather(x, m, axis=d)`` along the
    read's dim (``along``), ``torch.gather(x, d, m)`` / tf.gather with batch_dims one
    position per entry (``paired``), ``torch.take(x, m)`` flat positions (``take``).
    Each also with a size-1 dim put where the expected value has one (the learner's
    ``.unsqueeze`` to the intended shape)."""
    if not case.writes_code:
        return {}
    found = _mask_of(case)
    if found is None:
        return {}
    source, dim, mask = found
    reads: dict[str, Callable[[], np.ndarray]] = {
        "rows": lambda: np.take(source, mask, axis=0)
    }
    # along the read's dim (dim 0 too: a dim given as an argument may be 0)
    reads["along"] = lambda: np.take(source, mask, axis=dim)
    if mask.ndim == dim + 1 and dim > 0:

        def paired() -> np.ndarray:
            out = np.empty(mask.shape + source.shape[dim + 1 :], dtype=source.dtype)
            for at in np.ndindex(mask.shape):
                out[at] = source[at[:dim] + (int(mask[at]),)]
            return out

        reads["paired"] = paired
    if case.framework == "torch":
        reads["take"] = lambda: source.reshape(-1)[mask]
    expected = np.shape(case.expected) if isinstance(case.expected, np.ndarray) else ()
    found_reads: dict[Any, Outcome] = {}
    for read, reading in reads.items():
        try:
            value = reading()
        except IndexError:  # a dim of one position: 1 is off its end
            found_reads[read] = OFF_AN_AXIS
            found_reads.update({(read, d): OFF_AN_AXIS for d in range(len(expected))})
            found_reads[(read, "view")] = OFF_AN_AXIS
            continue
        found_reads[read] = value
        for d, size in enumerate(expected):
            if size == 1 and d <= value.ndim:
                found_reads[(read, d)] = np.expand_dims(value, d)
        # or viewed as the intended shape, its first dim left to -1 (`.view(-1, 1)`)
        trailing = int(np.prod(expected[1:])) if len(expected) > 1 else 1
        viewable = expected and value.size and value.size % max(trailing, 1) == 0
        found_reads[(read, "view")] = (
            value.reshape(-1, *expected[1:]) if viewable else Raised("RuntimeError")
        )
    return found_reads


def _wrong_axis_words(case: Case, key: Any, outcome: Outcome) -> dict[str, Field]:
    right, wrong, expanded = key
    assert case.call is not None
    size = np.shape(to_numpy(case.call.index))[wrong]
    names = {"positions": case.positions, "wrong": str(wrong)}
    # the rule an index laid along the wrong axis breaks: the result takes the
    # index's layout, whatever dim says (dim names only what each entry counts along)
    rule = (
        phrase("wrong_axis.dim_names_broadcast")
        if case.call.op == "take_along_dim"
        else phrase("wrong_axis.dim_names", op=case.call.op)
    )
    then: Field = phrase("wrong_axis.then_expand")
    if case.index_answer:
        # a fix's one index: the sizes the positions are expanded to, said in full
        index = np.shape(to_numpy(case.call.index))
        unsqueezed = list(index)
        unsqueezed[right] = 1
        sizes = ", ".join(
            "-1" if n == u else str(n) for n, u in zip(index, unsqueezed, strict=True)
        )
        then = phrase("wrong_axis.then_sizes", sizes=sizes) if index[right] != 1 else ""
    if expanded == "expanded" and size != 1 and wrong == 0:
        # what expand itself makes of sizes listed past the tensor's own dims: they
        # go in front (positions.expand(b, k, f) for positions of shape (b, k))
        rule = phrase("wrong_axis.leading")
        made = phrase("wrong_axis.front", positions=case.positions)
    elif expanded == "expanded" and size != 1:
        made = phrase("wrong_axis.expanded", **names, size=str(size))
    else:
        made = phrase("wrong_axis.as_is", **names)
    shape: Field = phrase("wrong_axis.shape", shape=_shape(outcome))
    laid = np.shape(outcome)
    if (
        case.call.op == "gather"
        and expanded == "as is"
        and wrong != _axis(case.call)
        and len(laid) == 2
        and laid[right] > 1
    ):
        # a 2-D gather's index of size 1 along a dim it does not count along: every
        # entry sits at 0 there, so all its positions read that one row (or column)
        needed = [laid[right], laid[right]]
        needed[right] = 1
        rule = phrase(
            "wrong_axis.one_slice",
            index=shape_text(laid),
            count=str(laid[right]),
            axis="row" if wrong == 0 else "column",
            needed=shape_text(tuple(needed)),
        )
        shape = ""  # the rule says it
    return {
        **names,
        "right": str(right),
        "made": made,
        "rule": rule,
        "shape": shape,
        "then": then,
    }


@misconception(
    "unsqueeze-wrong-axis",
    "call",
    _wrong_axis_words,
)
def _wrong_axis(case: Case, base: Any) -> Mapping[Any, Outcome]:
    if not _gathering(case):
        return {}
    assert case.call is not None
    index, dim = to_numpy(case.call.index), _axis(case.call)
    # the positions without the dims they were expanded over: after dim (a row's
    # positions read for every feature), or else before it too (positions shared
    # by every row, `wanted.unsqueeze(0).expand(rows, -1)`)
    ones: list[int] = []
    for dims in (range(dim + 1, index.ndim), range(index.ndim)):
        collapsed = index
        for d in dims:
            first = np.take(collapsed, [0], axis=d)
            if d != dim and (collapsed == first).all():
                collapsed = first
        ones = [d for d in range(collapsed.ndim) if collapsed.shape[d] == 1]
        if ones:
            break
    if not ones or index.ndim < 2:
        return {}
    right = ones[-1]
    positions = np.squeeze(collapsed, axis=right)
    found = {}
    for wrong in range(index.ndim):
        if wrong == right:
            continue
        moved = np.expand_dims(positions, wrong)
        target = list(moved.shape)
        target[wrong] = index.shape[wrong]  # the new axis expanded, as the index's
        for expanded, shape in (("as is", moved.shape), ("expanded", target)):
            variant = _torch(np.broadcast_to(moved, shape))
            outcome = run(case.call.with_part("index", variant), case.finish)
            found[(right, wrong, expanded)] = outcome
    return found


def _index_words(case: Case, key: Any, outcome: Outcome) -> dict[str, str]:
    assert case.call is not None
    return {"index": case.call.index_name, "positions": case.positions}


@misconception(
    "transposed-index",
    "call",
    _index_words,
)
def _transposed_index(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """The index built with its last two axes swapped (``index.T``). Where both are
    of size 1 the transpose is the index itself: the variant is then the expected
    value, still a case it reproduces (a hidden 1 x 1 case must not drop it)."""
    if not _gathering(case):
        return {}
    assert case.call is not None
    index = to_numpy(case.call.index)
    if index.ndim < 2:
        return {}
    swapped = _torch(np.swapaxes(index, -1, -2))
    return {"T": run(case.call.with_part("index", swapped), case.finish)}


def _swapped_words(case: Case, key: Any, outcome: Outcome) -> dict[str, str]:
    assert case.call is not None
    dim = _axis(case.call)
    first, second = sorted((dim, key))
    return {
        "positions": case.positions,
        "input": case.call.input_name,
        "dim": str(dim),
        "other": str(key),
        "first": str(first),
        "second": str(second),
    }


@misconception("coordinates-swapped", "call", _swapped_words)
def _swapped(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """Each position used as the coordinate on another dim, and that dim's own
    coordinate on dim: ``x[labels, rows]`` for ``x[rows, labels]``, or
    ``tf.stack([positions, rows], -1)`` for (batch, position) pairs of gather_nd."""
    if not _gathering(case):
        return {}
    assert case.call is not None
    source, dim = to_numpy(case.call.input), _axis(case.call)
    index = to_numpy(case.call.index)
    if source.ndim < 2 or index.ndim != source.ndim or index.dtype.kind not in "iu":
        return {}
    found: dict[Any, Outcome] = {}
    grid = np.indices(index.shape)
    for other in range(source.ndim):
        if other == dim:
            continue
        coordinates: list[np.ndarray] = list(grid)
        coordinates[dim], coordinates[other] = grid[other], index
        if any(
            (c < 0).any() or (c >= size).any()
            for c, size in zip(coordinates, source.shape, strict=True)
        ):
            found[other] = OFF_AN_AXIS  # x[labels, rows] runs off an axis
            continue
        values = source[tuple(coordinates)]
        if case.finish is not None:
            try:
                values = to_numpy(case.finish(_torch(values)))
            except TORCH_ERRORS:
                continue
        found[other] = values
    return found


def _nd_coordinates(case: Case) -> tuple[np.ndarray, np.ndarray] | None:
    """A TensorFlow gather_nd exercise's input and intended coordinates: for a
    gather along ``dim`` whose index is its positions expanded over the dims after
    it, one coordinate (the dims before ``dim``, then the position) per position,
    on the index's last axis (``tf.stack([rows, positions], axis=-1)``)."""
    if case.framework != "tensorflow" or case.tf_op != "gather_nd":
        return None
    if not _gathering(case):
        return None
    assert case.call is not None
    source, dim = to_numpy(case.call.input), _axis(case.call)
    index = to_numpy(case.call.index)
    if index.ndim != source.ndim or index.dtype.kind not in "iu":
        return None
    positions = shared_positions(index, dim)
    if positions.ndim != dim + 1:
        return None
    grid = np.indices(positions.shape)
    return source, np.stack([*grid[:dim], positions], axis=-1)


def gather_nd(params: np.ndarray, indices: np.ndarray) -> Outcome:
    """tf.gather_nd's value or error (on the CPU): each row of the index's last axis
    is one coordinate, its length at most params' rank, every entry in range."""
    depth = indices.shape[-1]
    if depth > params.ndim:
        return Raised("InvalidArgumentError")
    rows = indices.reshape(-1, depth)
    if ((rows < 0) | (rows >= np.array(params.shape[:depth]))).any():
        return Raised("InvalidArgumentError")
    picked = (
        params[tuple(rows.T)]
        if depth
        else np.broadcast_to(params, (len(rows), *params.shape))
    )
    return picked.reshape(*indices.shape[:-1], *params.shape[depth:])


def _batch_positions(case: Case) -> tuple[np.ndarray, np.ndarray] | None:
    """A TensorFlow exercise's read of positions along axis 1, within each row of a
    batch: its params and the positions, one row per batch row; None otherwise."""
    if case.framework != "tensorflow" or not _gathering(case):
        return None
    assert case.call is not None
    source, dim = to_numpy(case.call.input), _axis(case.call)
    index = to_numpy(case.call.index)
    if dim != 1 or index.ndim != source.ndim or index.dtype.kind not in "iu":
        return None
    positions = shared_positions(index, dim)
    return (source, positions) if positions.ndim == 2 else None


def _batch_one_coordinate(case: Case) -> Outcome | None:
    """tf.gather_nd(params, positions, batch_dims=1), believed to pair each position
    with its batch row: batch_dims=1 does give row b positions[b], but gather_nd
    reads that row's last axis as one coordinate (its K numbers index K axes of
    params[b]), so it reads one entry (or raises) per row, not K of them."""
    found = _batch_positions(case)
    if found is None:
        return None
    source, positions = found
    depth = positions.shape[-1]
    if depth == 0 or depth > source.ndim - 1:
        return Raised("InvalidArgumentError")
    if ((positions < 0) | (positions >= np.array(source.shape[1 : 1 + depth]))).any():
        return Raised("InvalidArgumentError")
    rows = np.arange(source.shape[0])
    return source[(rows, *positions.T)]


def _nd_axis_words(case: Case, key: Any, outcome: Outcome) -> dict[str, Field]:
    assert case.call is not None
    if key in ("xy", "picks"):
        return {"said": phrase(f"nd_axis.{key}", positions=case.positions)}
    if key == "batch-dims":
        found = _batch_positions(case)
        assert found is not None
        _, positions = found
        batch = {
            "positions": case.positions,
            "count": str(positions.shape[-1]),
            "input": case.call.input_name,
        }
        return {"said": phrase("nd_axis.batch_dims", **batch)}
    coordinates = _nd_coordinates(case)
    assert coordinates is not None
    right = coordinates[1]
    wrong = np.moveaxis(right, -1, 0)
    first = {
        "length": str(wrong.shape[-1]),
        "width": str(right.shape[-1]),
        "right": shape_text(right.shape),
    }
    return {"said": phrase("nd_axis.first", **first)}


def _xy_rows(source: np.ndarray, right: np.ndarray) -> dict[str, Outcome]:
    """(batch, position) pairs whose batch numbers vary along the index's second
    axis, as tf.meshgrid's default indexing='xy' lays them (its first output has
    shape (picks, batch)): rows[b, j] = j, and tf.stack refuses it where picks and
    batch differ (``xy``); the pick's number taken for the row however it was made
    (``picks``: tf.range(picks) broadcast over the rows)."""
    if right.ndim != 3 or right.shape[-1] != 2:
        return {}
    batch, picks = right.shape[:2]
    pairs = right.copy()
    pairs[..., 0] = np.arange(picks)[None, :]
    # the pick's number for its row, however made (tf.range(picks) broadcast)
    found = {"picks": gather_nd(source, pairs)}
    found["xy"] = found["picks"] if batch == picks else Raised("InvalidArgumentError")
    return found


@misconception("nd-coordinates-first-axis", "call", _nd_axis_words)
def _nd_first_axis(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """tf.gather_nd's coordinates read along another axis of the index than its
    last: stacked along the first (``tf.stack([rows, positions], axis=0)``, MXNet's
    gather_nd layout; a coordinate's length is then the last axis' size, and it
    raises or reads other entries: ``axis-0``), or each position of a batch row
    taken for a coordinate of its own under batch_dims=1, where the row's positions
    are one coordinate (``batch-dims``)."""
    if not isinstance(case.expected, np.ndarray):
        return {}
    found: dict[Any, Outcome] = {}
    coordinates = _nd_coordinates(case)
    if coordinates is not None:
        source, right = coordinates
        found["axis-0"] = gather_nd(source, np.moveaxis(right, -1, 0))
        found.update(_xy_rows(source, right))
    one = _batch_one_coordinate(case)
    if one is not None:
        found["batch-dims"] = one
    return found


def _offset_words(case: Case, key: Any, outcome: Outcome) -> dict[str, str]:
    assert case.call is not None
    along, size = key[:2]
    return {
        "input": case.call.input_name,
        "index": case.call.index_name,
        "dim": str(_axis(case.call)),
        "along": str(along),
        "size": str(size),
    }


def _grouped(case: Case) -> Iterator[tuple[Any, np.ndarray, np.ndarray, int]]:
    """The group structures of a gather's intended index along a flattened dim: for
    each axis ``along`` of the index and group ``size`` (dividing both the dim and
    that axis) under which every position lies in its entry's group, the key
    ``(along, size)``, each entry's group ``member`` (p // size), its position
    ``local`` within the group and the number of groups (a batch member's beams)."""
    if not _gathering(case):
        return
    assert case.call is not None
    source, dim = to_numpy(case.call.input), _axis(case.call)
    index = to_numpy(case.call.index)
    if index.ndim == 0 or index.dtype.kind not in "iu" or index.size == 0:
        return
    extent = source.shape[dim]
    for along in range(index.ndim):
        coordinate = np.indices(index.shape)[along]
        for size in range(2, extent):
            if extent % size or index.shape[along] % size:
                continue
            member = coordinate // size
            local = index - member * size
            if not member.any() or (local < 0).any() or (local >= size).any():
                continue
            yield (along, size), member, local, extent // size


def _regrouped(case: Case, index: np.ndarray) -> Outcome:
    assert case.call is not None
    variant = _torch(index.astype(np.int64))
    return run(case.call.with_part("index", variant), case.finish)


@misconception("missing-group-offset", "call", _offset_words)
def _missing_offset(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """Positions counted within each group of ``size`` rows of a flattened dim (a
    beam within its batch member, an item within its sequence) used as they are,
    without the group's first row: ``parents`` for ``parents + member * beam``."""
    return {key: _regrouped(case, local) for key, _, local, _ in _grouped(case)}


def _layout_words(case: Case, key: Any, outcome: Outcome) -> dict[str, Field]:
    assert case.call is not None
    extent = to_numpy(case.call.input).shape[_axis(case.call)]
    words: dict[str, Field] = {
        **_offset_words(case, key, outcome),
        "groups": str(extent // key[1]),
    }
    along, size = key[:2]
    groups = extent // size
    count = to_numpy(case.call.index).shape[along]
    if len(key) > 2 and key[2] == "tiled":
        words["said"] = phrase(
            "group_layout.tiled",
            groups=str(groups),
            size=str(size),
            input=case.call.input_name,
            count=str(count),
            tiled=str([p % groups for p in range(count)]),
            grouped=str([p // size for p in range(count)]),
        )
    else:
        words["said"] = phrase(
            "group_layout.rows",
            groups=str(groups),
            size=str(size),
            input=case.call.input_name,
        )
    return words


@misconception("other-group-layout", "call", _layout_words)
def _other_layout(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """The flat row of position k in group g computed in the other layout, group
    position major (``k * groups + g``: beam-major, beam 0 of every member first),
    where the dim holds its groups one after another (``g * size + k``)."""
    found = {}
    for key, member, local, groups in _grouped(case):
        found[key] = _regrouped(case, local * groups + member)
        # the other layout for the entries too: entry p taken to be in group
        # p % groups (row p = k * groups + g), as the rows it reads are
        coordinate = np.indices(local.shape)[key[0]]
        found[(*key, "rows")] = _regrouped(case, local * groups + coordinate % groups)
        # the rows' layout right, the entries' groups tiled (p % groups, as
        # torch.arange(groups).repeat(size) gives them) where they are p // size
        tiled = local + (coordinate % groups) * key[1]
        found[(*key, "tiled")] = _regrouped(case, tiled)
    return found


@misconception("offset-by-group-count", "call", _layout_words)
def _group_count_offset(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """Each group's first row taken as its number times the number of groups
    (``k + g * groups``: member b's beams at b * batch) where it is its number
    times the group size (``g * size + k``); the same where the two are equal."""
    return {
        key: _regrouped(case, local + member * groups)
        for key, member, local, groups in _grouped(case)
        if groups != key[1]
    }


def _last_words(case: Case, key: Any, outcome: Outcome) -> dict[str, Field]:
    assert case.call is not None
    dim = _axis(case.call)
    padded = key == "last" and _padded(case)
    index = case.call.index_name
    if key == "own":
        reads = phrase("last.reads_own", input=case.call.input_name, dim=str(dim))
    else:
        extent = to_numpy(case.call.input).shape[dim]
        reads = phrase(
            "last.reads",
            last="0" if key == "first" else str(extent - 1),
            which="the first" if key == "first" else "the last",
            dim=str(dim),
        )
    if key == "own":
        instead: Field = ""
        fix = phrase("last.fix_places")
    else:
        instead = phrase("last.instead", index=index)
        fix = (
            phrase("last.fix_padded") if padded else phrase("last.fix_own", index=index)
        )
    return {
        "reads": reads,
        "instead": instead,
        "padding": phrase("last.padding") if padded else "",
        "fix": fix,
    }


def _padded(case: Case) -> bool:
    """Whether the read's input is padded after each entry's own position: every
    value past it along dim is 0, and some entry's position is not the last (so
    the last position holds padding there)."""
    assert case.call is not None
    source = to_numpy(case.call.input)
    dim = _axis(case.call)
    own = shared_positions(to_numpy(case.call.index), dim)
    if own.ndim != dim + 1 or source.ndim <= dim:
        return False
    extent = source.shape[dim]
    own = own % extent
    if (own == extent - 1).all():
        return False
    for at in np.ndindex(own.shape):
        after = source[at[:dim] + (slice(int(own[at]) + 1, None),)]
        if after.size and (after != 0).any():
            return False
    return True


@misconception("last-position", "call", _last_words)
def _last_position(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """The last position along the gathered dim read for every entry (``x[:, -1]``)
    where the index gives each its own (a padded sequence's last real step)."""
    if not _gathering(case):
        return {}
    assert case.call is not None
    index = to_numpy(case.call.index)
    extent = to_numpy(case.call.input).shape[_axis(case.call)]
    if index.size == 0 or index.dtype.kind not in "iu" or extent == 0:
        return {}
    own = shared_positions(index, _axis(case.call)) % extent
    if case.index_answer and int((own != extent - 1).sum()) < 2:
        # a fix's one case: one entry moved to the last is too little evidence
        return {}
    # also where the intended positions are the last ones already (the same value);
    # or the first for every entry (a sequence summed up by its first step)
    found = {"last": _regrouped(case, np.full_like(index, extent - 1))}
    if not case.index_answer:  # a fix's index of 0s is a buffer left as made
        found["first"] = _regrouped(case, np.zeros_like(index))
    # each entry read from its own place along dim (positions 0, 1, 2, ...: a
    # beam's state kept in its slot, nothing reordered); a write's own words
    # (sorted values as the order) name that where the task writes
    dim = _axis(case.call)
    source_ndim = to_numpy(case.call.input).ndim
    # (not a fix's one-column index: its own places are 0s, a buffer left as made)
    if (
        case.write is None
        and index.ndim == source_ndim
        and index.shape[dim] <= extent
        and not (case.index_answer and index.shape[dim] == 1)
    ):
        shape = [1] * index.ndim
        shape[dim] = index.shape[dim]
        places = np.arange(index.shape[dim]).reshape(shape)
        found["own"] = _regrouped(case, np.broadcast_to(places, index.shape))
    return found


def _off_by_one_words(case: Case, key: Any, outcome: Outcome) -> dict[str, str]:
    shift, wraps = key if isinstance(key, tuple) else (key, False)
    return {
        "direction": "past" if shift > 0 else "before",
        "back": "back" if shift > 0 else "forward",
        "wrap": " (modulo the dim's size, as take_along_dim wraps it)" if wraps else "",
    }


@misconception(
    "off-by-one",
    "call",
    _off_by_one_words,
)
def _off_by_one(case: Case, base: Any) -> Mapping[Any, Outcome]:
    call = case.call
    if call is None or call.op == "take":
        return {}
    index = call.index
    if framework_of(index) != "torch" or index.is_floating_point():
        return {}
    found: dict[Any, Outcome] = {
        shift: run(call.with_part("index", index + shift), case.finish)
        for shift in (1, -1)
    }
    own_read = case.writes_code and not case.index_answer  # a fix's call is gather
    if call.op == "gather" and own_read and case.framework == "torch":
        # read with take_along_dim, which wraps the shifted positions modulo the size
        # (a length as the last position reads position 0 of a full sequence)
        wrapping = replace(call, op="take_along_dim")
        for shift in (1, -1):
            shifted = wrapping.with_part("index", index + shift)
            found[(shift, True)] = run(shifted, case.finish)
    return found


def _stride_words(case: Case, key: Any, outcome: Outcome) -> dict[str, Field]:
    assert case.call is not None
    source = to_numpy(case.call.input)
    rows, columns = source.shape
    raw = to_numpy(case.call.index).reshape(-1)
    flat = raw % source.size
    wrong = _strided(flat, rows, columns, raw < 0)[key]
    at = int(np.argmax(wrong != flat))
    row, column = divmod(int(flat[at]), columns)
    name, pairs = case.call.input_name, case.positions
    code = f"{pairs}[:, 0] * {name}.shape[1] + {pairs}[:, 1]"
    numbers = {"row": str(row), "column": str(column), "right": str(int(flat[at]))}
    if key == "read-column-major":  # the position itself is right; its reading is not
        down = int(flat[at])
        place = phrase(
            "stride.place_read",
            **numbers,
            your_row=str(down % rows),
            your_column=str(down // rows),
        )
    elif key == "read-rows":  # a row of `rows` entries
        read = int(flat[at])
        place = phrase(
            "stride.place_read_rows",
            **numbers,
            rows=str(rows),
            your_row=str(read // rows),
            your_column=str(read % rows),
        )
    else:  # the learner's flat position for (row, column)
        place = phrase("stride.place", **numbers, yours_at=str(int(wrong[at])))
    return {
        "input": name,
        "columns": str(columns),
        "rows": str(rows),
        "place": place,
        "fix": (
            phrase("stride.fix_code", code=code, columns=str(columns))
            if case.writes_code
            else phrase("stride.fix_read", columns=str(columns))
        ),
        # the belief behind the wrong flat position
        "belief": picked(f"stride.{key}", {"rows": str(rows), "columns": str(columns)}),
    }


def _strided(
    flat: np.ndarray, rows: int, columns: int, negative: np.ndarray | None = None
) -> dict[str, np.ndarray]:
    """The flat positions each stride belief makes of ``flat`` (``negative``: where
    the position was written counting from the end, which the reading beliefs keep
    reading so, as take does)."""
    row, column = np.divmod(flat, columns)
    kept = np.zeros(flat.shape, bool) if negative is None else negative
    return {
        "rows": row * rows + column,  # the row times the number of rows
        "column-major": column * rows + row,  # counted column by column
        "swapped": column * columns + row,  # (column, row) read as (row, column)
        "product": row * column,  # the row times the column: no stride at all
        # each flat position read counting down the columns (column-major order)
        "read-column-major": (flat % rows) * columns + flat // rows,
        # each flat position read row by row with a row of `rows` entries
        "read-rows": np.where(kept, flat, (flat // rows) * columns + flat % rows),
    }


@misconception(
    "flat-stride",
    "call",
    _stride_words,
)
def _flat_stride(case: Case, base: Any) -> Mapping[Any, Outcome]:
    call = case.call
    if call is None or call.op != "take" or to_numpy(call.input).ndim != 2:
        return {}
    source = to_numpy(call.input)
    rows, columns = source.shape
    index = to_numpy(call.index)
    flat = index.reshape(-1) % source.size
    found: dict[Any, Outcome] = {}
    negative = index.reshape(-1) < 0
    for key, wrong in _strided(flat, rows, columns, negative).items():
        variant = _torch(wrong.reshape(index.shape).astype(np.int64))
        outcome = run(call.with_part("index", variant), case.finish)
        if isinstance(outcome, Raised):  # off the end: the same index is evidence
            outcome = replace(outcome, index=raised_index(variant))
        found[key] = outcome
    return found


def _python_words(case: Case, key: Any, outcome: Outcome) -> dict[str, str]:
    assert case.call is not None
    source = to_numpy(case.call.input)
    dim = _axis(case.call)
    words = {"dim": str(dim), "size": str(source.shape[dim])}
    other = key[0] if isinstance(key, tuple) else key
    if other in OTHER_DIMS:
        words["other"] = OTHER_DIMS[other]
    return words


OTHER_DIMS = {"last": "-1", "first": "0"}


def _raw_positions(case: Case) -> np.ndarray | None:
    """The positions as the learner gets them, where they may count from the end."""
    call = case.call
    raw = case.args.get("index")
    if call is None or call.op != "gather" or framework_of(raw) != "torch":
        return None
    return to_numpy(raw)


def _normalised(case: Case, raw: np.ndarray, size: int, checked: bool) -> Outcome:
    """Python-style positions moved up by ``size``: checked against it first (the
    learner's own IndexError), or not (then gather raises, or reads, what they give)."""
    assert case.call is not None
    if checked and ((raw < -size) | (raw >= size)).any():
        return Raised("IndexError")
    moved = np.where(raw < 0, raw + size, raw)
    found = run(case.call.with_part("index", _torch(moved.astype(np.int64))))
    if not checked and isinstance(found, Raised):  # gather's own error
        found = Raised("Error", None)
    return found


@misconception(
    "python-style-size-of-another-dim",
    "call",
    _python_words,
)
def _size_of_another_dim(case: Case, base: Any) -> Mapping[Any, Outcome]:
    raw = _raw_positions(case)
    if raw is None:
        return {}
    assert case.call is not None
    shape = to_numpy(case.call.input).shape or (1,)
    sizes = {"last": shape[-1], "first": shape[0]}
    return {
        (key, checked): _normalised(case, raw, size, checked)
        for key, size in sizes.items()
        for checked in (True, False)
    }


@misconception(
    "python-style-unwrapped",
    "call",
    _python_words,
)
def _unwrapped(case: Case, base: Any) -> Mapping[Any, Outcome]:
    raw = _raw_positions(case)
    if raw is None:
        return {}
    assert case.call is not None
    found = run(case.call.with_part("index", _torch(raw)))
    if isinstance(found, Raised):  # gather's error, or the learner's own check's
        found = Raised("Error", None)
    return {"raw": found}


@misconception("take-along-dim-as-gather", "call", _no_words)
def _take_along_dim(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """take_along_dim used where gather's rules are meant: it wraps every position
    modulo the size (an out-of-range one is read, not refused) and broadcasts the
    index against the input's other dims (a size that does not broadcast raises)."""
    call = case.call
    if call is None or call.op != "gather" or case.framework != "torch":
        return {}
    raw = _raw_positions(case)
    index = call.index if raw is None else _torch(raw)
    if framework_of(index) != "torch" or index.is_floating_point():
        return {}
    variant = replace(call, op="take_along_dim", index=index)
    return {"wraps": run(variant, case.finish)}


def _flattened_words(case: Case, key: Any, outcome: Outcome) -> dict[str, Field]:
    assert case.call is not None
    dim = _axis(case.call)
    fields: dict[str, Field] = {
        "input": case.call.input_name,
        "index": case.positions,
        "dim": str(dim),
    }
    if key == "flat":
        one_d = "flat_read.one_d_code" if case.writes_code else "flat_read.one_d"
        return {
            "input": case.call.input_name,
            "reads": phrase("flat_read.without_dim"),
            "result": picked(one_d, fields),
        }
    along = {"op": case.call.op, "dim": str(dim), "along": _along(case.call, dim)}
    if case.call.op == "index_select":  # a whole slice per position, not one value
        source = to_numpy(case.call.input)
        kind = (
            {0: "row", 1: "column"}.get(dim, "slice") if source.ndim == 2 else "slice"
        )
        along["along"] = phrase("along.slice", kind=kind)
    result = phrase("flat_read.along", **along)
    where = _first_difference(outcome, case.expected)
    step = step_at(case.call, where or (0,) * np.ndim(case.expected))
    if step is not None:
        position = int(to_numpy(case.call.index)[step.index_at])
        flat = to_numpy(case.call.input).reshape(-1)
        result = phrase(
            "flat_read.along_traced",
            **along,
            where=entry("out", step.out),
            reads=case.call.reads(step),
            position=str(position),
            value=format_value(flat[position]),
        )
    return {
        "input": case.call.input_name,
        "reads": phrase("flat_read.as_take", index=counted(case.positions)),
        "result": result,
    }


@misconception("take-along-dim-without-dim", "call", _flattened_words)
def _take_along_flat(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """A read along a dim believed to count its positions over the whole input
    flattened, as torch.take does: take_along_dim called without its dim (it then
    reads the input flattened and returns a 1-D result of the index's entries:
    ``flat``), or a gather, take_along_dim or index_select read as take (the
    index's shape kept: ``take``)."""
    call = case.call
    if call is None or case.framework != "torch" or case.gradient:
        return {}
    if call.op not in ("gather", "take_along_dim", "index_select"):
        return {}
    source, index = to_numpy(call.input), call.index
    if source.ndim < 2 or framework_of(index) != "torch" or index.is_floating_point():
        return {}
    found: dict[Any, Outcome] = {}
    if call.op != "index_select":
        import torch

        try:
            found["flat"] = to_numpy(torch.take_along_dim(call.input, index.long()))
        except TORCH_ERRORS:
            found["flat"] = Raised("Error", None)
    positions = to_numpy(index)
    if (
        positions.size
        and -source.size <= positions.min() <= positions.max() < source.size
    ):
        found["take"] = source.reshape(-1)[positions]
    return found


def _clamped_words(case: Case, key: Any, outcome: Outcome) -> dict[str, Field]:
    assert case.call is not None
    source, index = to_numpy(case.call.input), to_numpy(case.call.index)
    flat = case.call.op == "take"
    dim = 0 if flat else _axis(case.call)
    size = int(source.size if flat else source.shape[dim])
    moved = _clamped(index, size, key)
    outside = np.argwhere((moved != index % size) & ((index < 0) | (index >= size)))
    at = tuple(int(c) for c in outside[0]) if len(outside) else (0,) * index.ndim
    position = int(index[at])
    fields: dict[str, Field] = {
        "entry": entry(case.call.index_name, at),
        "position": str(position),
        "size": str(size),
        "dim": str(dim),
        "used": str(position % size),
    }
    known = {**fields, "last": str(size - 1), "clamped": str(int(moved[at]))}
    how = "not_wrapped.zero" if key == "zero" else "not_wrapped.clamp"
    if flat:  # take: a negative position counts from the end of the flattened input
        value = format_value(source.reshape(-1)[position % size])
        rule = phrase("not_wrapped.take", input=case.call.input_name, size=str(size))
        reads = picked("not_wrapped.reads_flat", {**fields, "value": value})
    else:
        rule = phrase("not_wrapped.take_along_dim", size=str(size))
        reads = picked("not_wrapped.reads_dim", fields)
    return {"how": picked(how, known), "rule": rule, "reads": reads}


def _clamped(index: np.ndarray, size: int, key: str) -> np.ndarray:
    """The positions as the belief ``key`` moves them: ``clamp`` into 0..size-1;
    ``python``: a negative one counting from the end first; ``zero``: kept."""
    if key == "python":
        index = np.where((index < 0) & (index >= -size), index + size, index)
    return np.clip(index, 0, size - 1) if key != "zero" else index


def _outside(case: Case) -> tuple[Call, np.ndarray, np.ndarray, int] | None:
    """A take_along_dim read (with a dim) with a position outside 0..size-1: the
    call, its index, where the index is outside and the size; None otherwise."""
    call = case.call
    if call is None or case.gradient:
        return None
    source, index = to_numpy(call.input), to_numpy(call.index)
    if call.op == "take" and index.dtype.kind in "iu" and source.size:
        # take refuses positions past the end; a negative one counts from the end
        negative = (index < 0) & (index >= -source.size)
        return (call, index, negative, int(source.size)) if negative.any() else None
    if call.op != "take_along_dim":
        return None
    if call.axis is None or index.dtype.kind not in "iu" or source.ndim == 0:
        return None
    size = int(source.shape[_axis(call)])
    outside = (index < 0) | (index >= size)
    if size == 0 or not outside.any() or index.ndim != source.ndim:
        return None
    return call, index, outside, size


@misconception("out-of-range-not-wrapped", "call", _clamped_words)
def _not_wrapped(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """torch 2.13's take_along_dim (with a dim), which reads every position modulo
    the size, believed to clamp a position outside 0..size-1 into range (as XLA's
    gather does: ``clamp``; after a negative one counts from the end: ``python``)
    or to read 0 there (as TensorFlow's gather does on a GPU: ``zero``)."""
    found = _outside(case)
    if found is None:
        return {}
    call, index, outside, size = found
    # take counts a negative position from the end, as "python" does: no belief
    keys = ("clamp",) if call.op == "take" else ("clamp", "python")
    variants: dict[Any, Outcome] = {
        key: run(call.with_part("index", _torch(moved.astype(np.int64))))
        for key in keys
        for moved in [_clamped(index, size, key)]
    }
    read = run(call.with_part("index", _torch((index % size).astype(np.int64))))
    if isinstance(read, np.ndarray) and read.shape == outside.shape:
        variants["zero"] = np.where(outside, 0, read)
    return variants


def _checked_read(case: Case) -> tuple[Call, np.ndarray, np.ndarray, int, int] | None:
    """A read that checks its positions (gather, index_select, take): the call, its
    index, where the index is outside the op's range, the size and the range's low
    end (take counts a negative position from the end: -size); None for another
    read or no integer index."""
    call = case.call
    if call is None or case.gradient or call.op not in CHECKED_READS:
        return None
    source, index = to_numpy(call.input), to_numpy(call.index)
    if index.dtype.kind not in "iu" or index.size == 0 or source.ndim == 0:
        return None
    if call.op == "index_select" and index.ndim > 1:
        return None
    flat = call.op == "take"
    size = int(source.size if flat else source.shape[_axis(call)])
    if size == 0:
        return None
    low = -size if flat else 0
    return call, index, (index < low) | (index >= size), size, low


CHECKED_READS = ("gather", "index_select", "take")


def _filled(case: Case, call: Call, index: np.ndarray, outside: np.ndarray) -> Outcome:
    """The read with 0 wherever its index is outside the range (every position read
    as one in range, then those entries' values replaced by 0)."""
    read = run(call.with_part("index", _torch(np.where(outside, 0, index))))
    if not isinstance(read, np.ndarray):
        return read
    if call.op == "index_select":  # a whole slice per index entry
        dim = _axis(call)
        shape = [1] * read.ndim
        shape[dim] = outside.size
        mask = outside.reshape(shape)
    else:
        mask = outside
    if np.broadcast_shapes(mask.shape, read.shape) != read.shape:
        return None
    value = np.where(mask, np.zeros((), dtype=read.dtype), read)
    if case.finish is not None:
        value = to_numpy(case.finish(_torch(value)))
    return value


def _range_words(case: Case, key: Any, outcome: Outcome) -> dict[str, Field]:
    found = _checked_read(case)
    assert found is not None and case.call is not None
    call, index, outside, size, low = found
    at = tuple(int(c) for c in np.argwhere(outside)[0])
    # the position as the learner gave it, where the exercise moved it (Python-style
    # negatives shifted before the read): a raw argument of the index's shape
    raw = case.args.get(call.index_name)
    given, shifted = index, False
    if raw is not None and framework_of(raw) == "torch" and raw.shape == index.shape:
        given = to_numpy(raw)
        shifted = bool((given != index).any())  # negatives counted from the end
    clamped = int(np.clip(index[at], low, size - 1)) % size
    how = picked(
        "clamped.how_zero" if key == "zero" else "clamped.how_clamp",
        {
            "entry": entry(call.index_name, at),
            "position": str(int(given[at])),
            "clamped": str(clamped),
        },
    )
    known = {"op": call.op, "size": str(size), "high": str(size - 1)}
    fix = picked("clamped.fix_shift" if shifted else "clamped.fix_plain", known)
    return {**known, "how": how, "low": str(low), "fix": fix}


@misconception("out-of-range-clamped", "call", _range_words)
def _range_clamped(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """gather, index_select and take, which raise for a position outside their
    range (0..size-1; take's -size..size-1), believed to clamp it into range (numpy's
    take with mode='clip', MXNet's take, WebNN's and XLA's gather: ``clamp``) or to
    read 0 there (ONNX backends, TensorFlow's gather on a GPU: ``zero``). A case
    with no such position reads as the call does."""
    found = _checked_read(case)
    if found is None:
        return {}
    call, index, outside, size, low = found
    if not outside.any():
        same = run(call, case.finish)
        return {"clamp": same, "zero": same}
    moved = np.clip(index, low, size - 1).astype(np.int64)
    return {
        "clamp": run(call.with_part("index", _torch(moved)), case.finish),
        "zero": _filled(case, call, index, outside),
    }


def _rank_words(case: Case, key: Any, outcome: Outcome) -> dict[str, str]:
    assert case.call is not None
    return {**_python_words(case, key, outcome), "rank": str(case.call.input.dim())}


@misconception("python-style-rank", "call", _rank_words)
def _rank_added(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """Negative positions moved up by the input's number of dims (its rank, the
    length of its shape) where the size of the gathered dim was meant."""
    raw = _raw_positions(case)
    if raw is None:
        return {}
    assert case.call is not None
    rank = case.call.input.dim()
    return {checked: _normalised(case, raw, rank, checked) for checked in (True, False)}


@misconception(
    "python-style-modulo",
    "call",
    _python_words,
)
def _modulo(case: Case, base: Any) -> Mapping[Any, Outcome]:
    raw = _raw_positions(case)
    if raw is None:
        return {}
    assert case.call is not None
    size = to_numpy(case.call.input).shape[_axis(case.call)]
    if size == 0:
        return {}
    return {"mod": run(case.call.with_part("index", _torch(raw % size)))}


def _as_input_words(case: Case, key: Any, outcome: Outcome) -> dict[str, str]:
    assert case.call is not None
    dim = _axis(case.call)
    source = to_numpy(case.call.input).shape
    op = reader(case)
    known = op in ("gather", "take_along_dim")  # the ops that take this index
    return {
        "returns": f"{op} returns its index's shape"
        if known
        else ("the result has its index's shape"),
        "input": case.call.input_name,
        "shape": shape_text(source),
        "dim": str(dim),
        "count": str(_positions_along(case.call, dim).shape[dim]),
        "size": str(source[dim]),
    }


def _positions_along(call: Call, dim: int) -> np.ndarray:
    """The positions laid along ``dim``: a gather's without the dims they were
    expanded over; index_select's 1-D positions on a dim of their own."""
    index = to_numpy(call.index)
    if call.op == "index_select":
        along = [1] * to_numpy(call.input).ndim
        along[dim] = index.size
        return index.reshape(along)
    return shared_positions(index, dim)


@misconception("expanded-as-input", "call", _as_input_words)
def _expanded_as_input(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """The positions expanded to the input's whole shape (``.expand_as(input)``,
    ``.expand(input.shape)``), dim included, where gather needs one entry per
    position along dim: the result has the input's size along dim (each position
    read once per entry there), or expand raises where there are neither 1 nor that
    many positions. For index_select done through gather, the same expansion.
    ``one-position``: the same expansion only where there is one position (a
    scalar index), the positions kept as they are elsewhere."""
    call = case.call
    if call is None or not case.writes_code:
        return {}
    dim = _axis(call)
    if call.op == "index_select":
        gather = Call("gather", call.input, dim, call.index)
    elif _gathering(case):
        gather = call
    else:
        return {}
    source = to_numpy(call.input)
    positions = _positions_along(call, dim)
    if positions.ndim > source.ndim or positions.ndim <= dim:
        return {}
    shape = positions.shape + (1,) * (source.ndim - positions.ndim)
    if shape[dim] == source.shape[dim]:  # it expands only the other dims, as it should
        expanded: Outcome = base
        one_position = base
    elif any(p not in (1, s) for p, s in zip(shape, source.shape, strict=True)):
        # expand's own error; code that expands so only where there is one position
        # (where expand does not raise: pytorch#194521's scalar index) is right here
        expanded, one_position = Raised("Error"), base
    else:
        index = _torch(np.broadcast_to(positions.reshape(shape), source.shape))
        found = run(gather.with_part("index", index), case.finish)
        expanded = Raised("Error") if isinstance(found, Raised) else found
        one_position = expanded
    return {"as-input": expanded, "one-position": one_position}


def _slices_words(case: Case, key: Any, outcome: Outcome) -> dict[str, str]:
    assert case.call is not None
    dim = _axis(case.call)
    positions = shared_positions(to_numpy(case.call.index), dim)
    name, batch = case.call.input_name, key == "slices"
    if case.framework == "tensorflow":
        replaced = "the index's dims after batch_dims" if batch else "the index's shape"
        belief = (
            f"tf.gather is no torch.gather: it reads a whole slice per index entry, "
            f"{replaced} in place of axis {dim}"
        )
        fix = (
            f"tf.gather({name}, {case.positions}, axis={dim}, batch_dims={dim}) pairs "
            f"each batch row with its own positions"
        )
    else:
        belief = (
            "a subscript is no torch.gather: it reads a whole slice per index entry, "
            "not one element"
        )
        fix = "torch.gather takes the expanded index; a subscript the positions"
    return {
        "belief": belief,
        "shape": _shape(outcome),
        "expected": _shape(case.expected),
        "positions": case.positions,
        "count": shape_text(positions.shape),
        "dim": str(dim),
        "fix": fix,
    }


@misconception("slices-for-expanded-index", "call", _slices_words)
def _slices(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """An index expanded over the dims after ``dim``, as gather needs, given to an op
    that takes a whole slice for each index entry: each copy reads the whole slice,
    so the result has those dims twice. ``slices``: batch rows paired (tf.gather
    with batch_dims, ``x[rows, index]``); ``every-row``: not paired, every batch row
    reads every entry (tf.gather with an axis alone, ``x[:, index]``)."""
    if not _gathering(case) or not case.writes_code or case.finish is not None:
        return {}
    assert case.call is not None
    source, dim = to_numpy(case.call.input), _axis(case.call)
    index = to_numpy(case.call.index)
    if index.ndim != source.ndim or dim >= index.ndim - 1 or index.size == 0:
        return {}
    if shared_positions(index, dim).shape == index.shape:
        return {}  # nothing expanded: a slice per entry is the whole-rows mistake
    if index.dtype.kind not in "iu" or index.min() < 0:
        return {}
    if index.max() >= source.shape[dim]:
        return {}
    out = np.empty(index.shape + source.shape[dim + 1 :], dtype=source.dtype)
    for at in np.ndindex(index.shape):
        out[at] = source[at[:dim] + (int(index[at]),)]
    found: dict[str, Outcome] = {"slices": out}
    if dim > 0:
        found["every-row"] = np.take(source, index, axis=dim)
    return found


def _other_size_words(case: Case, key: Any, outcome: Outcome) -> dict[str, str]:
    assert case.call is not None
    d, other = key
    source = to_numpy(case.call.input).shape
    return {
        "d": str(d),
        "other": str(other),
        "size": str(source[other]),
        "full": str(to_numpy(case.call.index).shape[d]),
        "input": case.call.input_name,
    }


@misconception("expanded-to-another-size", "call", _other_size_words)
def _expanded_to_other(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """The index expanded, along a dim after ``dim``, to another dim's size."""
    if not _gathering(case) or not case.writes_code:
        return {}
    assert case.call is not None
    index, dim = to_numpy(case.call.index), _axis(case.call)
    source = to_numpy(case.call.input).shape
    found = {}
    for d in range(dim + 1, index.ndim):
        first = np.take(index, [0], axis=d)
        if index.shape[d] == 0 or not (index == first).all():
            continue
        for other in range(len(source)):
            if other == d:
                continue
            shape = list(index.shape)
            shape[d] = source[other]
            variant = _torch(np.broadcast_to(first, shape))
            found[(d, other)] = run(case.call.with_part("index", variant), case.finish)
    return found


# ---------------------------------------------------------------- case misconceptions


def _input_shape_words(case: Case, key: Any, outcome: Outcome) -> dict[str, str]:
    """The next step for what the learner wrote: a result (a loop's ``out``), an
    index (a fix: expanded to the input's shape) or a value (a prediction)."""
    assert case.call is not None
    index, input = case.call.index_name, case.call.input_name
    if case.index_answer:
        advice = f"give {index} that shape (do not expand it to the shape of {input})"
    elif case.writes_code:
        advice = (
            f"make the result with the shape of {index} "
            "(`torch.empty(index.shape, dtype=input.dtype)`)"
        )
    else:
        advice = "one value for each entry of the index"
    return {
        "input": input,
        "shape": _shape(np.zeros(to_numpy(case.call.input).shape)),
        "expected": _shape(case.expected),
        "advice": advice,
    }


@misconception("result-of-input-shape", "case", _input_shape_words)
def _input_shape(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """A result made with the input's shape, where gather's has the index's."""
    if not _gathering(case) or not isinstance(base, np.ndarray):
        return {}
    assert case.call is not None
    shape = tuple(to_numpy(case.call.input).shape)
    index = tuple(to_numpy(case.call.index).shape)
    if len(index) != len(shape) or any(
        i > s for i, s in zip(index, shape, strict=True)
    ):
        return {"input": Raised("IndexError")}  # a loop over the index runs off it
    return {"input": base if shape == base.shape else Shaped(shape)}


def _loop_words(case: Case, key: Any, outcome: Outcome) -> dict[str, Field]:
    assert case.call is not None
    source = to_numpy(case.call.input)
    index = to_numpy(case.call.index)
    where = _first_difference(outcome, case.expected)
    if isinstance(outcome, Raised):
        what = phrase("loop.raised")
    elif where is not None:
        got, want = np.asarray(outcome)[where], np.asarray(case.expected)[where]
        what = phrase(
            "loop.value",
            where=entry("out", where),
            got=format_value(got),
            expected=format_value(want),
        )
    else:
        what = phrase("loop.shape", shape=_shape(outcome))
    how = "loop.split" if key == "flat" else "loop.over"
    return {
        "what": what,
        "how": phrase(how, input=case.call.input_name),
        "op": case.call.op,
        "input": case.call.input_name,
        "index": case.call.index_name,
        "input_shape": _shape(source),
        "index_shape": _shape(index),
        "dim": str(_axis(case.call)),
    }


@misconception("loop-over-input-sizes", "call", _loop_words)
def _loop_over_input(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """A loop written for gather that runs over the input's sizes where the index's
    are meant (its output has the index's shape in every dim): on the dims other
    than dim (``others``), or on every dim (``all``). Where the index is smaller
    there, the loop reads it past its end; where it is longer along dim, ``all``
    stops at the input's size."""
    if not _gathering(case) or not case.writes_code or case.index_answer:
        return {}
    assert case.call is not None
    source, index = to_numpy(case.call.input), to_numpy(case.call.index)
    expected = case.expected
    if (
        source.ndim != index.ndim
        or source.ndim == 0
        or not isinstance(expected, np.ndarray)
    ):
        return {}
    if case.finish is not None or expected.shape != index.shape:
        return {}
    dim = _axis(case.call)
    smaller = [i < s for i, s in zip(index.shape, source.shape, strict=True)]
    others = any(small for d, small in enumerate(smaller) if d != dim)
    # the loop reads the index past its end: torch's IndexError of a subscript (a
    # check of the learner's own, raising another error, is another belief)
    past = Raised("IndexError", "index-out-of-range")
    found: dict[str, Outcome] = {"others": past if others else expected}
    if others or smaller[dim]:
        found["all"] = past
    else:
        found["all"] = np.take(expected, np.arange(source.shape[dim]), axis=dim)
    found["flat"] = _split_by_input(source, dim, index)
    return found


def _split_by_input(source: np.ndarray, dim: int, index: np.ndarray) -> Outcome:
    """A loop over the index's entries in flat order that splits each flat output
    position into coordinates with the input's sizes (``divmod(k, input.shape[1])``)
    where the index's are meant, then reads along dim at the entry's position; an
    IndexError where a coordinate runs off the input."""
    strides = [int(np.prod(source.shape[d + 1 :])) for d in range(source.ndim)]
    out = np.empty(index.size, dtype=source.dtype)
    for k, position in enumerate(index.reshape(-1)):
        at = [k // strides[0]]
        at += [k // strides[d] % source.shape[d] for d in range(1, source.ndim)]
        at[dim] = int(position)
        if any(not 0 <= c < n for c, n in zip(at, source.shape, strict=True)):
            return Raised("IndexError", "index-out-of-range")
        out[k] = source[tuple(at)]
    return out.reshape(index.shape)


def _positions_words(case: Case, key: Any, outcome: Outcome) -> dict[str, str]:
    assert case.call is not None
    where = _first_difference(outcome, case.expected)
    at = where if where is not None else (0,) * np.ndim(case.expected)
    return {
        "index": case.call.index_name,
        "input": case.call.input_name,
        "where": entry("out", at),
        "position": format_value(np.asarray(outcome)[at]),
        "expected": format_value(np.asarray(case.expected)[at]),
    }


@misconception("wrote-the-positions", "case", _positions_words)
def _wrote_the_positions(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """The positions themselves where the values they pick are due: a read's index,
    whose shape is the result's (gather, take_along_dim, take), given back."""
    call = case.call
    if call is None or case.gradient or case.finish is not None:
        return {}
    if case.index_answer or not isinstance(base, np.ndarray):
        return {}
    index = np.asarray(to_numpy(call.index))
    if index.shape != base.shape or index.dtype.kind not in "iu":
        return {}
    return {"index": index.astype(base.dtype)}


def _zero_d_words(case: Case, key: Any, outcome: Outcome) -> dict[str, str]:
    assert case.call is not None
    return {
        "op": case.call.op,
        "input": case.call.input_name,
        "index": case.call.index_name,
        "position": format_value(to_numpy(case.call.index)),
        "expected": format_value(np.asarray(case.expected)),
    }


@misconception("zero-d-index-as-none", "call", _zero_d_words)
def _zero_d_as_none(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """A 0-d index read as "no index": the input given back unchanged, where a read
    with a 0-d index reads one position and returns a 0-d value."""
    call = case.call
    if call is None or case.gradient or case.finish is not None:
        return {}
    index = np.asarray(to_numpy(call.index))
    expected = case.expected
    if index.ndim != 0 or not isinstance(expected, np.ndarray) or expected.ndim:
        return {}
    return {"unchanged": to_numpy(call.input)}


@misconception(
    "ignores-inputs",
    "case",
    _no_words,
    family="value",
)
def _ignores_inputs(case: Case, base: Any) -> Mapping[Any, Outcome]:
    visible = case.visible_expected
    return {} if visible is None else {"constant": visible}


def _size_words(case: Case, key: Any, outcome: Outcome) -> dict[str, str]:
    name, d, size = key
    what = name if d is None else f"{name}.shape[{d}]"
    now = case.args[name] if d is None else case.args[name].shape[d]
    return {"what": what, "size": str(size), "now": str(now), "source": what}


@misconception(
    "hard-coded-size",
    "case",
    _size_words,
    family="value",
)
def _hard_coded_size(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """A size of the visible example written as a number: a tensor's size on a dim
    (``torch.arange(2)`` for the rows) or an int argument's value (``torch.zeros(n,
    4)`` for ``classes``); right where the case has that size, wrong elsewhere."""
    found: dict[Any, Outcome] = {}
    for name, shape in case.visible_shapes.items():
        now = tuple(case.args[name].shape)
        for d, size in enumerate(shape):
            if d < len(now):
                found[(name, d, size)] = base if now[d] == size else NOT_EXPECTED
    for name, number in case.visible_numbers.items():
        now_number = case.args[name]
        found[(name, None, number)] = base if now_number == number else NOT_EXPECTED
    return found


def _same_size_words(case: Case, key: Any, outcome: Outcome) -> dict[str, str]:
    assert case.call is not None
    index = to_numpy(case.call.index).shape
    source = to_numpy(case.call.input).shape
    dim = _axis(case.call)
    d = next(
        (d for d in range(len(index)) if index[d] != source[d] and (key or d != dim)),
        0,
    )
    return {"d": str(d), "index": str(index[d]), "input": str(source[d])}


@misconception("same-size-rule", "case", _same_size_words)
def _same_size(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """A check of gather's old rule (equal sizes, apart from dim, or on every dim)."""
    if not _gathering(case):
        return {}
    assert case.call is not None
    index = to_numpy(case.call.index).shape
    source = to_numpy(case.call.input).shape
    dim = _axis(case.call)
    found = {}
    for every in (False, True):
        differ = any(
            i != s and (every or d != dim)
            for d, (i, s) in enumerate(zip(index, source, strict=False))
        )
        found[every] = Raised(CHECK) if differ else base
    return found


def _negative_dim_words(case: Case, key: Any, outcome: Outcome) -> dict[str, str]:
    rank = max(to_numpy(case.call.input).ndim, 1) if case.call else 1
    dim = case.args["dim"]
    return {"dim": str(dim), "rank": str(rank), "axis": str(dim % rank)}


@misconception(
    "negative-dim",
    "case",
    _negative_dim_words,
    family="value",
)
def _negative_dim(case: Case, base: Any) -> Mapping[Any, Outcome]:
    dim = case.args.get("dim")
    if not isinstance(dim, int) or isinstance(dim, bool):
        return {}
    if isinstance(base, Raised):  # a case that must raise still raises (a range check)
        return {"negative": base, "as-0": base}
    found: dict[Any, Outcome] = {"negative": NOT_EXPECTED if dim < 0 else base}
    call = case.call
    if call is not None and call.op in ("gather", "take_along_dim", "index_select"):
        # a negative dim read as dim 0 (``[slice(None)] * dim`` is empty for -1)
        along_0 = run(call.with_part("dim", 0), case.finish) if dim < 0 else base
        found["as-0"] = Raised("Error") if isinstance(along_0, Raised) else along_0
    return found


# ---------------------------------------------------------------- output misconceptions


def _squeezed_words(case: Case, key: Any, outcome: Outcome) -> dict[str, Field]:
    expected = np.shape(case.expected)
    ones = [d for d, size in enumerate(expected) if size == 1]
    every = key == "all"  # .squeeze() with no dim: every size-1 dim went
    if every:
        key = ones[-1] if ones else 0
    shown = case.visible_expected
    visible = np.shape(shown) if shown is not None else ()
    # size 1 on this case, not on the visible example: a dim only .squeeze() drops
    some = len(visible) > key and visible[key] != 1
    how = "every" if every else "squeeze" if some else "back"
    if every:
        keep = phrase(
            f"dropped_axis.every.{case.framework}",
            dims=" and ".join(str(d) for d in ones),
        )
    elif how == "back" and len(expected) == 2 and expected[1] == 1 < expected[0]:
        # a column (n, 1) squeezed to (n,): against the (n, 1) tensors it meets, the
        # vector broadcasts into an (n, n) matrix, so the size-1 dim is no detail
        keep = phrase(
            f"dropped_axis.broadcasts.{case.framework}",
            d=str(key),
            shape=_shape(outcome),
            expected=shape_text(expected),
            square=shape_text((expected[0], expected[0])),
        )
    else:
        keep = phrase(f"dropped_axis.{how}.{case.framework}", d=str(key))
    return {
        "d": str(key),
        "shape": _shape(outcome),
        "expected": shape_text(expected),
        "keep": keep,
    }


@misconception(
    "dropped-axis",
    "output",
    _squeezed_words,
)
def _dropped_axis(case: Case, base: Any) -> Mapping[Any, Outcome]:
    if not isinstance(base, np.ndarray):
        return {}
    # .squeeze(d) leaves a dim of another size as it is
    found: dict[Any, Outcome] = {
        d: np.squeeze(base, d) if base.shape[d] == 1 else base for d in range(base.ndim)
    }
    found["all"] = np.squeeze(base)  # .squeeze() with no dim
    return found


@misconception(
    "extra-axis",
    "output",
    _squeezed_words,
)
def _extra_axis(case: Case, base: Any) -> Mapping[Any, Outcome]:
    if not isinstance(base, np.ndarray):
        return {}
    return {d: np.expand_dims(base, d) for d in range(base.ndim + 1)}


SELECT_RANKS = 3  # other dims told apart in an index_select written with gather


def _selected_with_gather(case: Case) -> bool:
    """index_select written with gather (the exercise requires it): the positions
    laid along dim in an index of the input's rank, expanded over the other dims."""
    call = case.call
    return (
        call is not None and call.op == "index_select" and case.reads_with == "gather"
    )


def _select_expand_words(case: Case, key: Any, outcome: Outcome) -> dict[str, Field]:
    """missing-expand's words for index_select written with gather: its index has
    the input's rank, so the result's dim d is the index's dim d."""
    assert case.call is not None
    dim = _axis(case.call)
    expected = np.shape(case.expected)
    got = np.shape(outcome) if isinstance(outcome, np.ndarray) else expected
    short = [d for d, (g, e) in enumerate(zip(got, expected, strict=False)) if g != e]
    d = short[0] if short else 0
    source = np.shape(to_numpy(case.call.input))
    sizes = ", ".join("-1" if i == dim else str(n) for i, n in enumerate(source))
    return {
        "d": str(d),
        "full": str(expected[d]) if d < len(expected) else "?",
        "shape": _shape(outcome),
        "index_d": str(d),
        "sizes": sizes,
        "rule": phrase("expand_rule.gather"),
    }


def _missing_expand_words(case: Case, key: Any, outcome: Outcome) -> dict[str, Field]:
    if _selected_with_gather(case):
        return _select_expand_words(case, key, outcome)
    full = np.shape(case.expected)[key] if key < np.ndim(case.expected) else "?"
    index_d = _unexpanded_dim(case, key, outcome)
    assert case.call is not None
    shape = np.shape(to_numpy(case.call.index))
    sizes = ", ".join(
        str(size) if d == index_d else "-1" for d, size in enumerate(shape)
    )
    return {
        "d": str(key),
        "full": str(full),
        "shape": _shape(outcome),
        "index_d": str(index_d),
        "sizes": sizes,
        "rule": phrase(f"expand_rule.{case.call.op}"),
    }


def _unexpanded_dim(case: Case, key: Any, outcome: Outcome) -> int:
    """The dim of the intended index left at size 1: the result's dim ``key`` is
    the index's own only without a finish (``squeeze(1)`` moves the dims after it),
    so the index with one entry along each of its dims is run until one gives the
    learner's outcome."""
    assert case.call is not None
    index = to_numpy(case.call.index)
    for d in range(index.ndim):
        if index.shape[d] == 1:
            continue
        short = _torch(np.take(index, [0], axis=d))
        got = run(case.call.with_part("index", short), case.finish)
        if isinstance(got, np.ndarray) and equal(got, outcome):
            return d
    return int(key)


@misconception("missing-expand", "output", _missing_expand_words)
def _missing_expand(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """An index left with size 1 where it needed expand: one entry along a dim
    (torch's rule: a TensorFlow exercise's ops broadcast or take slices). For
    index_select written with gather, the positions reshaped along dim and left
    unexpanded (as numpy's take_along_axis would broadcast them): one entry along
    some of the other dims (keyed by them), or along every one."""
    if not isinstance(base, np.ndarray) or not case.writes_code:
        return {}
    if case.framework != "torch":
        return {}
    if _selected_with_gather(case):
        assert case.call is not None
        others = [d for d in range(base.ndim) if d != _axis(case.call)]
        # the other dims left unexpanded, by their order among them (the same key
        # on inputs of any rank; one a rank lacks leaves nothing unexpanded)
        lefts: dict[Any, list[int]] = {"every": others}
        for j in range(SELECT_RANKS):
            lefts[("only", j)] = others[j : j + 1]
            lefts[("but", j)] = others[:j] + others[j + 1 :]
        found: dict[Any, Outcome] = {}
        for key, left in lefts.items():
            value = base
            for d in left:
                value = np.take(value, [0], axis=d)
            found[key] = value
        return found
    if not _gathering(case):
        return {}
    return {d: np.take(base, [0], axis=d) for d in range(base.ndim)}


def _flattened_shape_words(case: Case, key: Any, outcome: Outcome) -> dict[str, Field]:
    words: dict[str, Field] = {**_squeezed_words(case, key, outcome)}
    expected = words["expected"]
    # the read returns its index's shape where no finish changes it
    call = case.call
    reads = case.finish is None and case.write is None
    if call is not None and reads and call.op in ("gather", "take", "take_along_dim"):
        words["keeps"] = phrase("flattened.index", op=call.op, expected=expected)
    else:
        words["keeps"] = phrase("flattened.other", expected=expected)
    return words


@misconception("flattened", "output", _flattened_shape_words)
def _flattened(case: Case, base: Any) -> Mapping[Any, Outcome]:
    if not isinstance(base, np.ndarray) or base.ndim < 2:
        return {}
    return {0: base.reshape(-1)}


@misconception(
    "negated",
    "output",
    _no_words,
)
def _negated(case: Case, base: Any) -> Mapping[Any, Outcome]:
    if not isinstance(base, np.ndarray) or base.dtype.kind != "f" or base.size == 0:
        return {}
    return {"minus": -base}


def _reduced_words(case: Case, key: Any, outcome: Outcome) -> dict[str, str]:
    op, sign = key
    return {
        "got": format_value(np.asarray(outcome).item()),
        "op": op,
        "negated": ", negated (a loss)" if sign < 0 else "",
        "expected": shape_text(np.shape(case.expected)),
    }


@misconception("reduced-to-one-value", "output", _reduced_words)
def _reduced(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """The values the task asks for, reduced to one number by a sum or mean with no
    dim (``(log_probs * one_hot).sum()``, ``tf.reduce_sum(q * actions)`` without an
    axis): the whole batch added up where one value per entry was meant; negated,
    that is a loss (``-log_probs.gather(...).mean()``) where the scores were asked."""
    if not isinstance(base, np.ndarray) or base.size == 0 or not case.writes_code:
        return {}
    if base.dtype.kind not in "iuf":
        return {}
    found: dict[Any, Outcome] = {}
    for sign in (1, -1):
        found[("sum", sign)] = np.asarray(sign * base.sum())
        found[("mean", sign)] = np.asarray(sign * base.mean())
    return found


def _repeat_words(case: Case, key: Any, outcome: Outcome) -> dict[str, str]:
    assert case.call is not None
    summed = key[0] if isinstance(key, tuple) else key
    count = to_numpy(case.call.input).shape[summed]
    values = np.asarray(outcome)
    where = _first_difference(values, case.expected) or _first_nonzero(values)
    got = values[where] if values.size else 0
    return {
        "count": str(count),
        "where": entry("out", where),
        "got": format_value(got),
        "expected": format_value(got / count if count else got),
    }


def _first_nonzero(values: np.ndarray) -> tuple[int, ...]:
    hits = np.argwhere(values != 0)
    return tuple(int(c) for c in hits[0]) if len(hits) else (0,) * values.ndim


@misconception("sum-of-repeated-reads", "output", _repeat_words)
def _sum_of_repeats(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """Reads repeated along dim d of the input (an expand), then summed; the sum
    keeps the summed dim (``keepdim=True``) or drops it (``.sum(-1)``), and a dim the
    result has with size 1 is the one a sum over the copies leaves."""
    call = case.call
    if not isinstance(base, np.ndarray) or base.size == 0 or call is None:
        return {}
    shape = to_numpy(call.input).shape
    found: dict[Any, Outcome] = {d: base * size for d, size in enumerate(shape)}
    for d, size in enumerate(shape):
        for summed in range(base.ndim):
            if base.shape[summed] == 1:
                found[(d, summed)] = np.squeeze(base * size, axis=summed)
    return found


def _normalised_words(case: Case, key: Any, outcome: Outcome) -> dict[str, str]:
    return {"value": key[0], "op": key[1]}


@misconception(
    "normalised-after-selecting",
    "output",
    _normalised_words,
)
def _normalised_after(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """Softmax (log_softmax) over a row of one selected value: all 1 (all 0). Only a
    selection of values with one per row has such rows; a gradient is none."""
    if not isinstance(base, np.ndarray) or base.dtype.kind != "f" or base.size == 0:
        return {}
    if case.gradient or base.ndim == 0 or base.shape[-1] != 1:
        return {}
    return {
        ("0", "log_softmax"): np.zeros_like(base),
        ("1", "softmax"): np.ones_like(base),
    }


def _transposed_words(case: Case, key: Any, outcome: Outcome) -> dict[str, Field]:
    """Advice in code terms for code; for a typed prediction, where entries go. A
    read's rule first: its shape formula where the swap changed the shape, else
    where each value goes (an implement answer may read with any op: no op named)."""
    from gatherlab.exercises.oprules import shape_rule, value_rule

    rule: Field = ""
    # a gradient has its input's shape: the read's own rules are not its rules
    if case.write is None and case.call is not None and not case.gradient:
        neutral = case.writes_code and not case.index_answer
        square = np.shape(outcome) == np.shape(case.expected)
        said = (
            value_rule(case, neutral=neutral)
            if square
            else shape_rule(case, neutral=neutral)
        )
        rule = "" if said is None else phrase("transposed.rule", rule=said)
    return {
        "advice": phrase("transposed.code" if case.writes_code else "transposed.value"),
        "rule": rule,
    }


@misconception("transposed-result", "output", _transposed_words)
def _transposed_result(case: Case, base: Any) -> Mapping[Any, Outcome]:
    if not isinstance(base, np.ndarray) or base.ndim < 2:
        return {}
    return {"T": np.swapaxes(base, -1, -2)}


# ---------------------------------------------------------------- gradients


def _gradient(case: Case, combine: str, dim: int | None = None) -> Outcome:
    """x.grad of the case's call, each read weighted by the upstream gradient; the
    reads of one entry combined by ``combine`` (``add``, as autograd does, ``last``,
    ``first`` or ``once``)."""
    call = case.call
    assert call is not None
    if dim is not None:
        call = call.with_part("dim", dim)
        if call.problems():
            return None
    source = to_numpy(call.input)
    weights = None if case.grad_output is None else to_numpy(case.grad_output)
    grad = np.zeros(source.shape, dtype=np.float64)
    seen: set[tuple[int, ...]] = set()
    for step in call.trace():
        weight = 1.0 if weights is None else float(np.asarray(weights[step.out]))
        if combine == "add":
            grad[step.source] += weight
        elif combine == "last" or step.source not in seen:
            grad[step.source] = 1.0 if combine == "once" else weight
        seen.add(step.source)
    return grad


def gradient_of(case: Case) -> str:
    """What a gradient case's value is called: ``x.grad``, or its own name."""
    assert case.call is not None
    return case.gradient_name or f"{case.call.input_name}.grad"


def _gradient_words(case: Case, key: Any, outcome: Outcome) -> dict[str, str]:
    assert case.call is not None
    where = _first_difference(outcome, case.expected) or (0,) * np.ndim(outcome)
    name = case.call.input_name
    readers = [s for s in case.call.trace() if s.source == where]
    grad = gradient_of(case)
    weights = None if case.grad_output is None else to_numpy(case.grad_output)
    parts = [
        format_value(1 if weights is None else np.asarray(weights[s.out]).item())
        for s in readers
    ]
    words = {
        "where": entry(grad, where),
        "entry": entry(name, where),
        "count": str(len(readers)),
        "sum": " + ".join(parts) or "0",
        "expected": format_value(np.asarray(case.expected)[where]),
        "got": format_value(np.asarray(outcome)[where]),
    }
    if isinstance(key, int):
        words = {"other": str(key), "dim": str(_axis(case.call))}
    return words


def _weighted(case: Case) -> bool:
    """Whether the reads of a gradient case carry upstream weights other than 1."""
    if case.grad_output is None:
        return False
    return bool((to_numpy(case.grad_output) != 1).any())


def _unweighted_words(case: Case, key: Any, outcome: Outcome) -> dict[str, str]:
    assert case.call is not None
    where = _first_difference(outcome, case.expected) or (0,) * np.ndim(outcome)
    weights = to_numpy(case.grad_output)
    parts = [
        format_value(np.asarray(weights[s.out]).item())
        for s in case.call.trace()
        if s.source == where
    ]
    expected = format_value(np.asarray(case.expected)[where])
    return {
        "entry": entry(case.call.input_name, where),
        "weights": ("weight " if len(parts) == 1 else "weights ") + " and ".join(parts),
        "sum": " + ".join(parts) + " = " + expected if len(parts) > 1 else expected,
        "got": format_value(np.asarray(outcome)[where]),
    }


@misconception("gradient-unweighted", "call", _unweighted_words)
def _unweighted(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """The upstream weights left out of a gradient: each read counted as 1
    (``count``), or each entry read given 1 however often it is read (``once``).
    Only where the reads are weighted; with every weight 1 counting is right, and
    one per entry is the overwriting belief (gradient-overwritten)."""
    if not case.gradient or case.call is None or not _weighted(case):
        return {}
    unit = replace(case, grad_output=None)
    return {"count": _gradient(unit, "add"), "once": _gradient(unit, "once")}


@misconception(
    "gradient-overwritten",
    "call",
    _gradient_words,
)
def _overwritten(case: Case, base: Any) -> Mapping[Any, Outcome]:
    if not case.gradient or case.call is None:
        return {}
    combines = ("last", "first") if _weighted(case) else ("last", "first", "once")
    return {combine: _gradient(case, combine) for combine in combines}


def _no_gradient_words(case: Case, key: Any, outcome: Outcome) -> dict[str, str]:
    expected = np.asarray(case.expected)
    where = tuple(int(c) for c in np.argwhere(expected != 0)[0])
    assert case.call is not None
    return {
        "where": entry(gradient_of(case), where),
        "expected": format_value(expected[where]),
    }


@misconception("gradient-none", "call", _no_gradient_words)
def _no_gradient(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """No gradient through the selection believed (values picked by an integer
    index taken for constants): every entry of the input's gradient 0."""
    if not case.gradient or case.call is None:
        return {}
    expected = np.asarray(case.expected)
    if expected.dtype.kind not in "biuf" or not expected.any():
        return {}
    return {"zeros": np.zeros_like(expected)}


@misconception(
    "gradient-other-dim",
    "call",
    _gradient_words,
)
def _gradient_other_dim(case: Case, base: Any) -> Mapping[Any, Outcome]:
    if not case.gradient or case.call is None:
        return {}
    rank = to_numpy(case.call.input).ndim
    dim = _axis(case.call)
    found = {
        (dim + shift) % rank: _gradient(case, "add", (dim + shift) % rank)
        for shift in range(1, rank)
    }
    return {k: v for k, v in found.items() if v is not None}


def _read_back_words(case: Case, key: Any, outcome: Outcome) -> dict[str, Field]:
    assert case.call is not None
    words = _gradient_words(case, key, outcome)
    index = case.positions
    read = {
        "read": phrase("read_back.read", index=index),
        "forward": phrase("read_back.forward", input=case.call.input_name, index=index),
        "in-place": phrase(
            "read_back.in_place",
            ones="" if _weighted(case) else phrase("read_back.ones"),
        ),
    }[key]
    return {
        "read": read,
        "where": words["where"],
        "entry": words["entry"],
        "expected": words["expected"],
        "got": words["got"],
        "input": case.call.input_name,
    }


@misconception("gradient-read-back", "call", _read_back_words)
def _read_back(case: Case, base: Any) -> Mapping[Any, Outcome]:
    """The backward of a gather taken for a read, where each output's upstream
    gradient is added to the entry it read (a scatter_add): the upstream gradient
    read at the positions of the index (``read``; only where the reads are
    weighted: with every weight 1 it reads all ones), the input itself read there,
    the forward output (``forward``), or the upstream gradient left where the
    output holds it, as if each output had read the entry in its own place
    (``in-place``). Only where that value has the input's shape."""
    call = case.call
    if not case.gradient or call is None or call.op not in ("gather", "index_select"):
        return {}
    forward = run(call)
    if not isinstance(forward, np.ndarray):
        return {}
    weights = (
        np.ones(forward.shape)
        if case.grad_output is None
        else to_numpy(case.grad_output)
    )
    try:  # the upstream of every output entry (a weight per read broadcast)
        upstream = np.broadcast_to(weights, forward.shape).astype(np.float64)
    except ValueError:
        return {}
    found: dict[Any, Outcome] = {}
    if _weighted(case):
        found["read"] = run(call.with_part("input", _torch(upstream)))
    found["forward"] = forward
    found["in-place"] = upstream
    shape = np.shape(case.expected)
    return {
        key: value
        for key, value in found.items()
        if isinstance(value, np.ndarray) and np.shape(value) == shape
    }


# A gradient case's value is the input's gradient: a misconception about the forward
# read (a wrong dim, a broadcast index, take_along_dim) gives a forward value there,
# so only the gradient's own beliefs and the shape-only ones are tried on it.
GRADIENT_SHAPE_ONLY = {"dropped-axis", "extra-axis", "flattened", "transposed-result"}


def _on_gradients(item: Misconception) -> bool:
    return item.id.startswith("gradient-") or item.id in GRADIENT_SHAPE_ONLY


# Finishes never used in a pair: one number says too little to tell a mistake under it.
SINGLE_ONLY = {"reduced-to-one-value"}


def _finishes() -> list[Misconception]:
    """The output misconceptions a pair may end with."""
    return [m for m in LIBRARY if m.stage == "output" and m.id not in SINGLE_ONLY]


# ---------------------------------------------------------------- the search


@dataclass(frozen=True)
class Candidate:
    """A misconception variant (or a pair of them) and its outcome on every case."""

    parts: tuple[tuple[Misconception, Any], ...]
    outcomes: tuple[Outcome, ...]

    @property
    def id(self) -> str:
        return "+".join(m.id for m, _ in self.parts)


def shows(outcome: Outcome, expected: Outcome) -> bool:
    """Whether a misconception's outcome on a case tells it from the expected value:
    "any value of the expected value's shape" does not (a shape-only misconception
    whose shape is right on every case names nothing, whatever the mistake)."""
    if outcome is NOT_EXPECTED:
        return True
    if isinstance(outcome, Shaped) and np.shape(expected) == outcome.shape:
        return False
    return not equal(outcome, expected)


def _differs(outcomes: Sequence[Outcome], cases: Sequence[Case]) -> bool:
    return any(shows(o, c.expected) for o, c in zip(outcomes, cases, strict=True))


class Search:
    """The misconceptions' outcomes on a fixed list of cases, computed case by case
    and only as far as a learner's outcomes keep matching (memoised)."""

    def __init__(self, cases: Sequence[Case], one_error_names: bool = False) -> None:
        self.cases = list(cases)
        # True where an answer can raise only as a misconception's call does (a fix
        # of the dim alone: the index is the intended one), so one error is evidence.
        self.one_error_names = one_error_names
        self._memo: dict[tuple[int, int, Any], Mapping[Any, Outcome]] = {}

    def _variants(
        self, item: Misconception, number: int, first: tuple[Misconception, Any] | None
    ) -> Mapping[Any, Outcome]:
        """``item``'s variants on case ``number``, applied to the expected value or
        to the outcome of ``first`` (a call or case misconception) there."""
        memo_key = (LIBRARY.index(item), number, first and (id(first[0]), first[1]))
        if memo_key not in self._memo:
            case = self.cases[number]
            base: Any = case.expected
            if case.gradient and not (
                _on_gradients(item) and (first is None or _on_gradients(first[0]))
            ):
                base = None  # no forward misconception describes a gradient
            elif first is not None:
                base = self._variants(first[0], number, None).get(first[1])
            if base is None:
                found: Mapping[Any, Outcome] = {}
            elif first is None or isinstance(base, np.ndarray):
                found = item.variants(case, base)
            else:  # an error, or "not the expected value", stays what it is
                found = {key: base for key in item.variants(case, case.expected)}
            self._memo[memo_key] = {k: v for k, v in found.items() if v is not None}
        return self._memo[memo_key]

    def _surviving(
        self,
        item: Misconception,
        first: tuple[Misconception, Any] | None,
        learner: Sequence[Outcome],
    ) -> list[Any]:
        if self.one_error(learner[0]):
            return []
        keys: list[Any] | None = None
        for number, case in enumerate(self.cases):
            variants = self._variants(item, number, first)
            keys = [
                key
                for key in (list(variants) if keys is None else keys)
                if key in variants
                and reproduces(variants[key], learner[number], case.expected)
            ]
            if not keys:
                return []
        # a variant giving the expected outcome on every case is no evidence (an
        # answer right in value, wrong in dtype, matches it): as ``candidates``
        outcomes = [self._variants(item, n, first) for n in range(len(self.cases))]
        return [k for k in keys or [] if _differs([o[k] for o in outcomes], self.cases)]

    def one_error(self, outcome: Outcome) -> bool:
        """Too little evidence: one case, and on it an error. Any index that breaks
        the rule a misconception's call breaks (a position off the end, whichever)
        gives that error, so it names no mistake: the error's own words say more."""
        single = len(self.cases) < 2 and not self.one_error_names
        return single and isinstance(outcome, Raised) and outcome.index is None

    def candidate(self, parts: tuple[tuple[Misconception, Any], ...]) -> Candidate:
        """The candidate with its outcome on every case."""
        first = parts[0] if len(parts) == 2 else None
        item, key = parts[-1]
        outcomes = tuple(
            self._variants(item, number, first)[key]
            for number in range(len(self.cases))
        )
        return Candidate(parts, outcomes)

    def matching(self, learner: Sequence[Outcome]) -> Candidate | None:
        """The first misconception (single, else a pair) reproducing ``learner``."""
        for item in LIBRARY:
            for key in self._surviving(item, None, learner):
                found = self.candidate(((item, key),))
                if _differs(found.outcomes, self.cases):
                    return found
        if len(self.cases) < 2:  # one case is too little evidence for a pair
            return None
        finishes = _finishes()
        for first in LIBRARY:
            if first.stage == "output":
                continue
            for key in self._variants(first, 0, None):
                for item in finishes:
                    for second in self._surviving(item, (first, key), learner):
                        found = self.candidate(((first, key), (item, second)))
                        if _differs(found.outcomes, self.cases):
                            return found
        return None

    def _keys(
        self, item: Misconception, first: tuple[Misconception, Any] | None
    ) -> list[Any]:
        """The variants of ``item`` that apply to every case, in case 0's order."""
        keys = list(self._variants(item, 0, first))
        for number in range(1, len(self.cases)):
            variants = self._variants(item, number, first)
            keys = [key for key in keys if key in variants]
        return keys

    def candidates(self, pairs: bool = True) -> Iterator[Candidate]:
        """Every candidate that changes an outcome, in the order ``matching`` tries
        them: single misconceptions, then (``pairs``) pairs."""
        for item in LIBRARY:
            for key in self._keys(item, None):
                found = self.candidate(((item, key),))
                if _differs(found.outcomes, self.cases) and not self.one_error(
                    found.outcomes[0]
                ):
                    yield found
        if len(self.cases) < 2 or not pairs:
            return
        finishes = _finishes()
        for first in LIBRARY:
            if first.stage == "output":
                continue
            for key in self._keys(first, None):
                alone = self.candidate(((first, key),)).outcomes
                for item in finishes:
                    for second in self._keys(item, (first, key)):
                        found = self.candidate(((first, key), (item, second)))
                        if first_change(alone, found.outcomes) or not equal(
                            alone[0], found.outcomes[0]
                        ):
                            yield found


def first_change(before: Sequence[Outcome], after: Sequence[Outcome]) -> int:
    """The first case on which a misconception changes the outcome."""
    for number, (old, new) in enumerate(zip(before, after, strict=True)):
        if isinstance(new, Shaped) and np.shape(old) == new.shape:
            continue  # any value of the shape the value has: no change shows there
        if new is NOT_EXPECTED or not equal(old, new):
            return number
    return 0


def worded_on(
    before: Sequence[Outcome],
    after: Sequence[Outcome],
    item: Misconception | None = None,
) -> int:
    """The case a part (of misconception ``item``) is worded on: where its words
    describe the learner's result (``{yours}``: "your result reads ..."), the first
    case it changes to a value, since a case that raised has no result (the first it
    changes at all where every change is an error); else the first it changes."""
    if item is not None and "yours" not in fields_of(item.template):
        return first_change(before, after)
    for number, (old, new) in enumerate(zip(before, after, strict=True)):
        if isinstance(new, Raised):
            continue
        if isinstance(new, Shaped) and np.shape(old) == new.shape:
            continue
        if new is NOT_EXPECTED or not equal(old, new):
            return number
    return first_change(before, after)


def verdict_of(candidate: Candidate, search: Search, voice: Voice) -> Verdict:
    """The candidate's verdict: each part worded on the first case it shows a
    result on (``worded_on``). A pair's second part on another case than the first's
    says which, as the first does, in a sentence of its own (``pair.apart``)."""
    cases = search.cases
    texts: list[Phrase] = []
    numbers: list[int] = []
    before: Sequence[Outcome] = [case.expected for case in cases]
    for position, (item, key) in enumerate(candidate.parts):
        own = search.candidate(candidate.parts[: position + 1])
        number = worded_on(before, own.outcomes, item)
        before = own.outcomes
        case, outcome = cases[number], own.outcomes[number]
        if texts and equal(outcome, case.expected):
            # the second part changes only a case where the answer is right (a
            # squeeze(1) of a dim of size 1 only there): it explains no failure,
            # and "has shape S, not S" would say nothing true
            first = texts[0]
            return Verdict(
                False, first.template, first.fields, candidate.parts[0][0].id
            )
        lead = voice.lead(case)
        raised_at = first_change([c.expected for c in cases], own.outcomes)
        if raised_at < number and voice.after_error is not None and not numbers:
            lead = voice.after_error(cases[raised_at], case)
        fields = {
            **item.words(case, key, outcome),
            "lead": lead if number not in numbers[:1] else "",
            "yours": voice.yours,
        }
        # a prediction writes no code: a template whose fix is code has a ".value"
        # form without it (or with a fix in terms of the value)
        template = item.template
        if not case.writes_code and f"{template}.value" in messages():
            template = f"{template}.value"
        wanted = fields_of(template)
        texts.append(Phrase(template, {name: fields[name] for name in wanted}))
        numbers.append(number)
    if len(texts) == 1:
        named = candidate.id
        if candidate.id == "index-as-mask" and texts[0].fields.get("set"):
            named = f"{named}+index-as-set"
        return Verdict(False, texts[0].template, texts[0].fields, named)
    first, second = texts
    joined = "pair" if numbers[0] == numbers[1] else "pair.apart"
    return Verdict(False, joined, {"first": first, "second": second}, candidate.id)


def explain(search: Search, learner: Sequence[Outcome], voice: Voice) -> Verdict | None:
    """The verdict of the first misconception reproducing ``learner`` on all cases."""
    found = search.matching(learner)
    return None if found is None else verdict_of(found, search, voice)

"""Predict: the learner writes down what a piece of code returns before running it.

The feedback is ``prediction_feedback``, a function of plain data (the expected value,
the learner's answer, the explaining call), so it can be mirrored outside Python.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar

import numpy as np

from gatherlab._arrays import entry, to_numpy
from gatherlab.exercises.base import Exercise
from gatherlab.exercises.call import Call, contributions
from gatherlab.exercises.compare import differences, shape_text
from gatherlab.exercises.feedback import capitalised
from gatherlab.exercises.implement import expected_reads, first_wrong
from gatherlab.exercises.misconceptions import Case, Search, Voice, gradient_of
from gatherlab.exercises.misconceptions import explain as explain_misconception
from gatherlab.exercises.oprules import REDUCE_WORDS, shape_rule, value_rule
from gatherlab.exercises.rendering import as_shown, assigned, body
from gatherlab.exercises.result import Feedback, Result, not_attempted
from gatherlab.exercises.typed import normalized
from gatherlab.exercises.verdict import (
    Field,
    Phrase,
    Verdict,
    fields_of,
    phrase,
    verdict,
)
from gatherlab.exercises.wrong import transposed
from gatherlab.trace import format_value

SAYS_IT_RAISES = re.compile(r"rais|error|exception|fail|throw|crash", re.IGNORECASE)


def runs_because(explain: Call | None, expected: Any, write: Any = None) -> Phrase:
    """Why the code runs: the rules its call or write satisfies (a repeated write
    position is allowed; every position is within its dim), or, for calls whose
    reason is the op itself (take flattens), that reason; else the shape it
    returns."""
    shape = shape_text(to_numpy(expected).shape)
    if write is not None:
        return _write_runs(write)
    if explain is None:
        return phrase("runs.shape", shape=shape)
    if explain.op == "take_along_dim":
        return _wraps(explain, shape)
    if explain.op == "take":
        flat = to_numpy(explain.input).reshape(-1)
        size = int(flat.size)
        index = to_numpy(explain.index).reshape(-1)
        negative: Field = ""
        if size and (index < 0).any():
            position = int(index[index < 0][0])
            negative = phrase(
                "runs.negative",
                input=explain.input_name,
                position=str(position),
                value=format_value(flat[position]),
            )
        return phrase(
            "runs.take",
            input=explain.input_name,
            size=str(size),
            last=str(size - 1),
            negative=negative,
        )
    source = to_numpy(explain.input)
    dim = int(explain.axis or 0) % max(source.ndim, 1)
    size = int(source.shape[dim]) if source.ndim else 1
    # gather and index_select take positions 0..size-1 only (torch 2.13 refuses a
    # negative one, unlike indexing and take)
    template = "runs.select" if explain.op == "index_select" else "runs.gather"
    return phrase(
        template,
        index=explain.index_name,
        input=explain.input_name,
        dim=str(dim),
        size=str(size),
        last=str(size - 1),
        shape=shape,
        repeats=_repeated_read(explain, dim),
    )


def _repeated_read(explain: Call, dim: int) -> Field:
    """The first two index entries that read the same value of the input (a
    repeated position is no error: each entry is its own read), or ""."""
    index = to_numpy(explain.index)
    seen: dict[tuple[Any, ...], tuple[int, ...]] = {}
    for at in np.ndindex(index.shape):
        position = int(index[at])
        if explain.op == "index_select":
            read: tuple[Any, ...] = (position,)
            text = f"{explain.input_name}[{', '.join([':'] * dim + [str(position)])}]"
        else:
            read = (*at[:dim], position, *at[dim + 1 :])
            text = entry(explain.input_name, read)
        if read in seen:
            return phrase(
                "runs.repeats_read",
                index=explain.index_name,
                first=entry(explain.index_name, seen[read]),
                second=entry(explain.index_name, at),
                read=text,
            )
        seen[read] = at
    return ""


def _wraps(explain: Call, shape: str) -> Phrase:
    """take_along_dim with a dim runs on any position: torch 2.13 wraps each one
    modulo the size (the first position outside 0..size-1 shows how)."""
    source, index = to_numpy(explain.input), to_numpy(explain.index)
    dim = int(explain.axis or 0) % max(source.ndim, 1)
    size = int(source.shape[dim]) if source.ndim else 1
    outside = np.argwhere((index < 0) | (index >= size))
    if not size or not len(outside):
        return phrase("runs.shape", shape=shape)
    at = tuple(int(c) for c in outside[0])
    position = int(index[at])
    return phrase(
        "runs.wraps",
        dim=str(dim),
        size=str(size),
        entry=entry(explain.index_name, at),
        position=str(position),
        used=str(position % size),
    )


def _smaller_index(op: str, index: np.ndarray, base: np.ndarray) -> bool:
    """A scatter whose index, of the output's rank, is smaller than the output."""
    return (
        op.startswith("scatter")
        and index.ndim == base.ndim
        and index.shape != base.shape
        and all(i <= b for i, b in zip(index.shape, base.shape, strict=True))
    )


def _write_runs(write: Any) -> Phrase:
    """A write runs: a repeated position is no error (``repeats`` says what the op
    does with it) and every position is within the dim it indexes."""
    base = to_numpy(write.base)
    dim = write.indexed_dim
    size = int(base.shape[dim]) if base.ndim else 1
    written: dict[tuple[int, ...], list[Any]] = {}
    for to, value in write.writes():
        written.setdefault(to, []).append(value)
    repeated = [(to, values) for to, values in written.items() if len(values) > 1]
    place = {
        "op": write.text or f"{write.op}_",
        "index": write.index_name,
        "positions": str(to_numpy(write.index).reshape(-1).tolist()),
        "dim": str(dim),
        "last": str(size - 1),
        "size": str(size),
    }
    index = to_numpy(write.index)
    values = index.reshape(-1)
    # the belief that an index may not repeat a value (old docs: 'all values in a
    # row along dim must be unique'): where no place is written twice, each entry
    # writes its own place
    apart = (
        not repeated
        and write.op.startswith("scatter")
        and values.size > len(set(values.tolist()))
    )
    places = ", ".join(entry("out", to) for to, _ in write.writes())
    if not repeated and _smaller_index(write.op, index, base):
        # the belief that the index must cover the output: scatter loops over the
        # index's own entries
        place["index_shape"] = shape_text(index.shape)
        place["base_shape"] = shape_text(base.shape)
        also = phrase("runs.apart", places=places) if apart else ""
        return phrase("runs.write_smaller", apart=also, **place)
    if apart:
        return phrase("runs.write_apart", places=places, **place)
    if not repeated:
        return phrase("runs.write_once", **place)
    where, parts = repeated[0]
    if write.op == "scatter_reduce" and write.include_self and parts:
        parts = [base[where], *parts]  # the old value takes part (include_self)
    fields = {
        "where": entry("out", where),
        "parts": " + ".join(format_value(v) for v in parts),
        "values": ", ".join(format_value(v) for v in parts),
    }
    if write.op == "scatter_reduce":
        template = "repeats.reduce"
        fields["reduce"] = REDUCE_WORDS.get(write.reduce, write.reduce)
    else:
        template = "repeats.add" if write.adds else "repeats.replace"
    repeats = Phrase(template, {name: fields[name] for name in fields_of(template)})
    return phrase("runs.write", repeats=repeats, **place)


PREDICT_VOICE = Voice(lambda case: phrase("lead.not_quite"), "your answer")


def prediction_case(
    expected: Any,
    explain: Call | None = None,
    *,
    gradient: bool = False,
    grad_output: Any = None,
    write: Any = None,
    gradient_name: str = "",
    tf_op: str = "",
) -> Case:
    """A prediction's one case, as the misconceptions read it (``write``: the write
    behind the value, a ``writes.Write``; ``tf_op``: the TensorFlow op whose value
    it is, "gather_nd", where no call explains it)."""
    positions = explain.index_name if explain is not None else "the positions"
    return Case(
        "",
        True,
        {},
        to_numpy(expected),
        explain,
        positions=positions,
        gradient=gradient,
        grad_output=grad_output,
        writes_code=False,
        write=write,
        gradient_name=gradient_name,
        framework="tensorflow" if tf_op else "torch",
        tf_op=tf_op,
    )


def _gradient_reason(explain: Call, where: tuple[int, ...], grad_output: Any) -> str:
    readers = contributions(explain, where, grad_output)
    read = entry(explain.input_name, where)
    if readers:
        return f"{' and '.join(readers)} read {read}"
    return f"no output position reads {read}"


def prediction_feedback(
    expected: Any,
    answer: Any,
    explain: Call | None = None,
    *,
    runs: str = "",
    write: Any = None,
    gradient: bool = False,
    grad_output: Any = None,
    mistakes: Mapping[str, Any] | None = None,
    search: Search | None = None,
) -> Feedback:
    """The verdict on a prediction ``answer`` of the value ``expected``.

    ``explain`` is the call behind the value (traced for the first wrong coordinate);
    ``runs`` says why the code does not raise; ``mistakes`` maps the reason for a known
    wrong prediction to that prediction. Otherwise the misconception model (``search``,
    built from the same arguments when not given) names the mistake, or the message
    says what is known: the first wrong coordinate and what it should read.
    """
    if isinstance(answer, str) and SAYS_IT_RAISES.search(answer):
        why = runs or runs_because(explain, expected, write)
        return Feedback(verdict(False, "predict.says_raises", why=why))
    difference = differences(expected, answer, "your answer", strict=False)
    if difference is None:
        return Feedback(verdict(True, "passed.predict"))
    for reason, wrong in (mistakes or {}).items():
        if differences(wrong, answer, strict=False) is None:
            return Feedback(verdict(False, "known", reason=capitalised(reason)))
    if difference.where is None and not difference.shape:
        return Feedback(difference.verdict())
    if search is None:
        case = prediction_case(
            expected, explain, gradient=gradient, grad_output=grad_output
        )
        search = Search([case])
    found = explain_misconception(search, [to_numpy(answer)], PREDICT_VOICE)
    if found is not None:
        return Feedback(found)
    return Feedback(predicted_fallback(search.cases[0], to_numpy(answer)))


def predicted_fallback(case: Case, got: np.ndarray) -> Verdict:
    """What is known of a wrong prediction without a misconception (the page
    computes the same fields): a shape, or the first wrong coordinate."""
    want = np.asarray(case.expected)
    if got.shape != want.shape:
        shapes: dict[str, Field] = {
            "got_shape": shape_text(got.shape),
            "expected_shape": shape_text(want.shape),
        }
        # the rule of the op the code calls, where one gives the shape
        rule = None if case.gradient else shape_rule(case)
        if rule is not None:
            return Verdict(False, "predict.wrong_shape_rule", {**shapes, "rule": rule})
        return Verdict(False, "predict.wrong_shape", shapes)
    where = first_wrong(got, want)
    fields: dict[str, Field] = {
        "where": entry("out", where),
        "got": format_value(got[where]),
    }
    reads = predicted_reads(case, where)
    rule = None if case.gradient else value_rule(case)
    if rule is not None:  # the rule every value follows, before the wrong entry
        fields.update(rule=rule, expected=format_value(want[where]))
        template = (
            "predict.wrong_value_rule"
            if reads is None
            else ("predict.wrong_value_reads_rule")
        )
        return Verdict(
            False, template, {**fields, **({"reads": reads} if reads else {})}
        )
    if reads is None:
        return Verdict(
            False,
            "predict.wrong_value",
            {**fields, "expected": format_value(want[where])},
        )
    if case.gradient:
        assert case.call is not None
        fields["where"] = entry(gradient_of(case), where)
        return Verdict(
            False,
            "predict.wrong_gradient",
            {**fields, "expected": format_value(want[where]), "reason": reads},
        )
    return Verdict(False, "predict.wrong_value_reads", {**fields, "reads": reads})


def predicted_reads(case: Case, where: tuple[int, ...]) -> str | None:
    """What the expected value at ``where`` comes from: the entry the call reads,
    or (for a gradient) the outputs that read the entry; None without a call."""
    call = case.call
    if call is None:
        return None
    if case.gradient:
        return _gradient_reason(call, where, case.grad_output)
    return expected_reads(call, np.shape(case.expected), where)


def _coordinate(values: Any) -> str:
    return "[" + ", ".join(str(int(v)) for v in values) + "]"


def gather_nd_mistakes(params: Any, indices: Any) -> dict[str, Any]:
    """The predictions of ``tf.gather_nd(params, indices)`` made with another op's
    semantics, each with the rule it breaks, derived from the call (any params and
    indices whose last axis holds full coordinates): the coordinates read in reverse
    order, (x, y) for (row, column); the index's columns read as the coordinates;
    every number read as a whole slice, as tf.gather does. A variant that gives the
    expected value, or runs off params, is left out."""
    source, index = np.asarray(params), np.asarray(indices)
    depth = index.shape[-1]
    coordinates = index.reshape(-1, depth)
    expected = np.asarray([source[tuple(c)] for c in coordinates])
    found: dict[str, Any] = {}

    def inside(rows: np.ndarray) -> bool:
        return all(
            ((rows[:, k] >= 0) & (rows[:, k] < source.shape[k])).all()
            for k in range(rows.shape[1])
        )

    if depth >= 2:
        flipped = coordinates[:, ::-1]
        at = next((k for k, c in enumerate(coordinates) if (c != c[::-1]).any()), None)
        if at is not None and inside(flipped):
            value = np.asarray([source[tuple(c)] for c in flipped])
            if not np.array_equal(value, expected):
                right = _coordinate(coordinates[at])
                axes = ", ".join(f"axis {k}" for k in range(depth))
                axes = "row, column" if depth == 2 else axes
                found[
                    f"you read each coordinate in reverse order, as (x, y): "
                    f"tf.gather_nd reads a coordinate in params' axis order "
                    f"({axes}), so {right} reads {source[tuple(coordinates[at])]}, "
                    f"not {source[tuple(flipped[at])]}"
                ] = value.reshape(index.shape[:-1]).tolist()
    if index.ndim == 2 and index.shape[0] == depth:
        columns = index.T
        if inside(columns):
            value = np.asarray([source[tuple(c)] for c in columns])
            if value.shape != expected.shape or not np.array_equal(value, expected):
                pairs = ", ".join(
                    "(" + ", ".join(str(int(v)) for v in c) + ")" for c in columns
                )
                rows = ", then ".join(_coordinate(c) for c in coordinates)
                found[
                    f"you read the index's columns as the pairs, {pairs}: "
                    f"tf.gather_nd reads its last axis: each index row, {rows}, "
                    "is one (row, column) coordinate"
                ] = value.tolist()
    if (index >= 0).all() and (index < source.shape[0]).all():
        found[
            "you read every number as a row, as tf.gather does: tf.gather_nd takes "
            "each row of the index as one full coordinate, here (row, column), and "
            "returns one value per coordinate"
        ] = source[index].tolist()
    return found


@dataclass(eq=False, kw_only=True)
class Predict(Exercise):
    """Write down what ``code()`` returns (a value, a shape, a gradient) before running.

    ``explain`` is the gather-family call behind the value; with ``gradient=True`` the
    value is the gradient of that call's input, for the upstream ``grad_output``.
    ``runs_because`` says why the code does not raise, for a learner who predicts an
    error; ``mistakes`` maps a reason to the wrong prediction it explains; ``write``
    (a ``writes.Write``) is the write behind the value, for the writing-op family.
    ``value`` stores what ``code()`` returns where running it needs a library the
    learner may not have (TensorFlow): the check then compares with it, and a test
    compares it with ``code()`` where the library is installed.
    """

    code: Callable[[], Any]
    value: Any = None
    explain: Call | None = None
    gradient: bool = False
    grad_output: Any = None
    # the gradient's name where it is no ``x.grad`` (a TensorFlow tape's)
    gradient_name: str = ""
    runs_because: str = ""
    mistakes: Mapping[str, Any] = field(default_factory=dict)
    write: Any = None  # the write behind the value (``writes.Write``)
    tf_op: str = ""  # the TensorFlow op of a value no call explains ("gather_nd")
    kind: ClassVar[str] = "predict"

    @cached_property
    def solution(self) -> Any:
        """The value the code returns: the answer to predict."""
        return self.code() if self.value is None else self.value

    @cached_property
    def search(self) -> Search:
        """The misconception search over the prediction's one case."""
        case = prediction_case(
            self.solution,
            self.explain,
            gradient=self.gradient,
            grad_output=self.grad_output,
            write=self.write,
            gradient_name=self.gradient_name,
            tf_op=self.tf_op,
        )
        return Search([case])

    @property
    def reference_answer(self) -> Any:
        return self.solution

    def solution_source(self) -> str:
        """The code as comments, ending with the line the learner writes."""
        shown: list[str] = []
        if self.code.__name__ != "<lambda>":
            header, code, last = body(self.code)
            code[last] = code[last].removeprefix("return ")
            shown = [*header, *(f"# {line}".rstrip() for line in code)]
        return "\n".join([*shown, assigned("prediction", as_shown(self.solution))])

    def _check(self, answer: Any) -> Result:
        if answer is ...:
            return not_attempted(self.id, "predict")
        if isinstance(answer, str) and normalized(answer) == "None":
            answer = None  # typed on the page as the notebook's `prediction = None`
        if answer is None and self.gradient:
            return self._gradient_none().result(self.id)
        verdict = prediction_feedback(
            self.solution,
            answer,
            self.explain,
            runs=self.runs_because,
            write=self.write,
            gradient=self.gradient,
            grad_output=self.grad_output,
            mistakes=self.mistakes,
            search=self.search,
        )
        return verdict.result(self.id)

    def _gradient_none(self) -> Feedback:
        """A gradient predicted None: the belief that no gradient reaches the input
        through an integer index (only the index itself gets none)."""
        case = self.search.cases[0]
        expected = np.asarray(case.expected)
        nonzero = [tuple(int(c) for c in at) for at in np.argwhere(expected != 0)]
        where = nonzero[0] if nonzero else (0,) * expected.ndim
        gradient = gradient_of(case)
        return Feedback(
            verdict(
                False,
                "predict.gradient_none",
                grad=gradient,
                where=entry(gradient, where),
                expected=format_value(expected[where]),
            )
        )

    def wrong_answers(self) -> dict[str, Any]:
        expected = to_numpy(self.solution)
        answers = {
            "transposed": transposed(expected),
            "off by one": (expected + 1).tolist(),
            "extra dim": expected[None].tolist(),
            "flattened": expected.reshape(-1).tolist(),
            "None": None,
            "text": "no idea",
            **{f"known mistake: {why}": wrong for why, wrong in self.mistakes.items()},
        }
        return {
            name: answer
            for name, answer in answers.items()
            if differences(self.solution, answer, strict=False) is not None
        }

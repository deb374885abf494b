"""Fix: a call is broken; the learner supplies the corrected index (or dim)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, ClassVar, Literal

import numpy as np

from gatherlab._arrays import entry, framework_of, like, to_numpy
from gatherlab.errors import short_error
from gatherlab.exercises import strategies
from gatherlab.exercises.base import Exercise
from gatherlab.exercises.call import TORCH_ERRORS, Call, step_at
from gatherlab.exercises.compare import (
    Difference,
    differences,
    expand_sizes,
    kind_of,
    shape_text,
)
from gatherlab.exercises.misconceptions import (
    Case,
    Raised,
    Search,
    Voice,
    explain,
    raised_index,
)
from gatherlab.exercises.oprules import shape_rule, value_rule
from gatherlab.exercises.rendering import as_assignment, source
from gatherlab.exercises.result import Result, failed, judged, not_attempted
from gatherlab.exercises.verdict import (
    Field,
    Hinted,
    Verdict,
    completed,
    phrase,
    picked,
    verdict,
)
from gatherlab.exercises.wrong import off_by_one, transposed
from gatherlab.trace import format_value

FIX_VOICE = Voice(lambda case: phrase("lead.runs_now_but"), "your call's result")
STILL_BROKEN_VOICE = Voice(lambda case: phrase("lead.still_broken"), "your call")
RUNS_NOW = phrase("lead.runs_now")  # the lead of a difference in the call's result

FixPart = Literal["index", "dim"]
# hint(answer, got, expected, where): the exercise's own words for a wrong result, a
# hint.* template and its fields (or None).
FixHint = Callable[[Any, Any, Any, tuple[int, ...]], Hinted | None]


@dataclass(eq=False, kw_only=True)
class Fix(Exercise):
    """A call is broken; the learner supplies the corrected ``index`` (or ``dim``).

    ``solution(input, index)`` computes the corrected part from the broken call's input
    and index. Its body is written with the names the notebook defines (its parameters
    named as the notebook names them, or module values that mirror the notebook's): the
    solution shows that body, ending with the line the learner writes,
    ``fixed_index = ...`` (``answer_name``). The check runs the learner's call and says,
    with ``gl.diagnose``, ``gl.trace`` and the recognisers of common wrong strategies,
    what is still wrong. ``hint(answer, got, expected, where)`` may name an exercise's
    own cause of a wrong value.
    """

    broken: Call
    solution: Callable[[Any, Any], Any]
    part: FixPart = "index"
    answer_name: str = ""
    hint: FixHint | None = None
    positions: str = ""  # the notebook's name for the positions (the index's name)
    write: Any = None  # the write the fixed read mirrors (``writes.Write``), if any
    kind: ClassVar[str] = "fix"

    def __post_init__(self) -> None:
        if not self.answer_name:
            self.answer_name = f"fixed_{self.part}"
        if not self.positions:
            self.positions = self.broken.index_name

    @cached_property
    def reference_answer(self) -> Any:
        return self.solution(self.broken.input, self.broken.index)

    @cached_property
    def expected(self) -> Any:
        """The output the fixed call returns."""
        return self.broken.with_part(self.part, self.reference_answer).run()

    def solution_source(self) -> str:
        if self.solution.__name__ == "<lambda>":
            return source(self.solution)
        return as_assignment(self.solution, self.answer_name)

    @cached_property
    def intended(self) -> Call:
        """The broken call with the reference answer in place."""
        fixed = self.broken.with_part(self.part, self.reference_answer)
        if self.part == "index":
            fixed = replace(fixed, index_name=self.answer_name)
        return fixed

    @cached_property
    def search(self) -> Search:
        """The misconception search over the exercise's one case."""
        case = Case(
            "",
            True,
            {},
            to_numpy(self.expected),
            self.intended,
            positions=self.positions,
            write=self.write,
            index_answer=self.part == "index",
        )
        return Search([case], one_error_names=self.part == "dim")

    def _check(self, answer: Any) -> Result:
        if answer is ...:
            return not_attempted(self.id, "fix")
        is_int = isinstance(answer, (int, np.integer)) and not isinstance(answer, bool)
        if self.part == "dim" and not is_int:
            return failed(self.id, "fix.dim_not_int", kind=kind_of(answer))
        if self.part == "index":
            cause = strategies.float_positions(answer, self)
            if cause is not None:
                return judged(self.id, cause)
        fixed = self.broken.with_part(self.part, answer)
        problems = fixed.problems()
        if problems:
            problem = problems[0]
            raised = Raised("RuntimeError", problem.rule)
            if self.part == "index":  # the index itself: evidence for one error
                raised = replace(raised, index=raised_index(answer))
            found = explain(self.search, [raised], STILL_BROKEN_VOICE)
            if found is not None:
                return judged(self.id, found)
            same = (
                self._unchanged_one_dim(answer)
                if problem.rule == "rank-mismatch"
                else None
            )
            if same is not None and problem.hint:
                # a transform that left the 1-D positions as they were (.T of a
                # 1-D tensor, a view(-1)): the index is still the notebook's tensor
                return failed(
                    self.id,
                    "fix.still_one_dim",
                    name=same,
                    shape=shape_text(tuple(answer.shape)),
                    problem=problem.message,
                    hint=problem.hint,
                )
            if problem.hint:
                return failed(
                    self.id,
                    "fix.still_broken_rule_hint",
                    problem=problem.message,
                    hint=problem.hint,
                )
            return failed(self.id, "fix.still_broken_rule", problem=problem.message)
        try:
            got = fixed.run()
        except TORCH_ERRORS as error:
            return failed(
                self.id,
                "fix.still_broken_raised",
                call=fixed.text(),
                error=short_error(error),
            )
        difference = differences(self.expected, got, "the result")
        if difference is None:
            named = (
                replace(fixed, index_name=self.answer_name)
                if self.part == "index"
                else fixed
            )
            works = verdict(True, "passed.fix", part=self.part, call=named.text())
            return judged(self.id, works)
        if difference.where is None and not difference.shape:
            return judged(self.id, difference.verdict(RUNS_NOW))
        found = explain(self.search, [to_numpy(got)], FIX_VOICE)
        if found is not None:
            return judged(self.id, found)
        if self.part == "index" and _only_zeros(answer, self.reference_answer):
            return failed(self.id, "fix.index_all_zeros", name=self.answer_name)
        if difference.where is None:
            return judged(self.id, self._expand_advice(answer, difference))
        hint = (
            self.hint(answer, got, self.expected, difference.where)
            if self.hint
            else None
        )
        if hint is not None:
            return judged(self.id, completed(hint[0], {}, hint[1]))
        return judged(self.id, self._wrong_value(fixed, got, difference.where))

    def _wrong_value(self, fixed: Call, got: Any, where: tuple[int, ...]) -> Verdict:
        """What the intended call reads at ``where``, and what the learner's reads;
        first the rule every value of the call follows (``oprules.value_rule``)."""
        right, yours = step_at(self.intended, where), step_at(fixed, where)
        fields: dict[str, Field] = {"where": entry("out", where)}
        rule = value_rule(self.search.cases[0])
        if rule is not None:
            fields.update(
                rule=rule,
                expected=format_value(to_numpy(self.expected)[where]),
                got=format_value(to_numpy(got)[where]),
            )
            if right is None:
                return Verdict(False, "fix.wrong_value_rule", fields)
            fields["reads"] = self.intended.reads(right)
            if yours is None:
                return Verdict(False, "fix.wrong_value_reads_rule", fields)
            fields["your_read"] = fixed.source_text(yours)
            return Verdict(False, "fix.wrong_value_yours_read_rule", fields)
        if right is None:
            want = to_numpy(self.expected)[where]
            got_there = to_numpy(got)[where]
            return Verdict(
                False,
                "fix.wrong_value",
                {
                    **fields,
                    "expected": format_value(want),
                    "got": format_value(got_there),
                },
            )
        reads = self.intended.reads(right)
        if yours is None:
            return Verdict(
                False,
                "fix.wrong_value_reads",
                {**fields, "reads": reads, "got": format_value(to_numpy(got)[where])},
            )
        return Verdict(
            False,
            "fix.wrong_value_yours_read",
            {**fields, "reads": reads, "your_read": fixed.source_text(yours)},
        )

    def _unchanged_one_dim(self, answer: Any) -> str | None:
        """The name of the notebook's 1-D tensor that a 1-D index answer equals in
        shape, dtype and values (``targets.T`` is ``targets``); None for any other
        answer (exercises.mjs's unchangedOneDim alike)."""
        if framework_of(answer) != "torch" or answer.ndim != 1:
            return None
        for name, value in fix_names(self).items():
            same = (
                framework_of(value) == "torch"
                and value.ndim == 1
                and value.dtype == answer.dtype
                and tuple(value.shape) == tuple(answer.shape)
                and bool((value == answer).all())
            )
            if same:
                return name
        return None

    def gives_expected(self, index: Any) -> bool:
        """Whether the broken call with this part gives the intended result."""
        fixed = self.broken.with_part(self.part, index)
        if fixed.problems():
            return False
        return differences(self.expected, fixed.run(), strict=False) is None

    def _expand_advice(self, answer: Any, difference: Difference) -> Verdict:
        """The shape ``difference``, unless its advice is an expand that would read
        wrong values: then where the index's new axis belongs (checked by running the
        call)."""
        plain = difference.verdict(RUNS_NOW)
        said = self._ruled(plain)
        advice = difference.advice
        if advice is None or advice[0] != "advice.size_expand" or self.part != "index":
            return said
        target = tuple(to_numpy(self.reference_answer).shape)
        index = answer
        short = [d for d, size in enumerate(index.shape) if size == 1 != target[d]]
        words = picked("advice.size", advice[1])  # without the expand
        head = {**plain.fields, "advice": words}
        rule = shape_rule(self.search.cases[0])  # said first, as _ruled says it
        if rule is None or len(short) != 1 or self.gives_expected(index.expand(target)):
            return said
        d, rank = short[0], len(target)
        for new in (n for n in range(rank) if n != d):
            moved = index.squeeze(d).unsqueeze(new)
            if not self.gives_expected(moved.expand(target)):
                continue
            place = {0: "axis.first", rank - 1: "axis.last"}.get(new, "axis.at")
            along = {0: "slice.row", 1: "slice.column"}.get(new, "slice.along")
            along = along if rank == 2 else "slice.along"
            return verdict(
                False,
                "fix.expand_repeats",
                rule=rule,
                got_shape=head["got_shape"],
                expected_shape=head["expected_shape"],
                advice=head["advice"],
                d=str(d),
                along=picked(along, {"dim": str(new)}),
                positions=str(to_numpy(index.squeeze(d)).tolist()),
                place=picked(place, {"dim": str(new)}),
                new=str(new),
                sizes=expand_sizes(target, new),
            )
        return self._ruled(Verdict(False, "differ.shape", head))

    def _ruled(self, said: Verdict) -> Verdict:
        """A shape difference (``differ.shape``) with the rule of the call's op that
        gives the result its shape first (``oprules.shape_rule``), where one does."""
        rule = shape_rule(self.search.cases[0])
        if said.template != "differ.shape" or rule is None:
            return said
        return Verdict(False, "differ.shape_rule", {**said.fields, "rule": rule})

    def wrong_answers(self) -> dict[str, Any]:
        right = self.reference_answer
        answers: dict[str, Any] = {
            "the broken call unchanged": getattr(self.broken, self.part)
        }
        answers["None"] = None
        if self.part == "dim":
            rank = max(to_numpy(self.broken.input).ndim, 1)
            answers["wrong dim"] = (right + 1) % rank
            answers["a float"] = float(right)
        else:
            answers["a list"] = to_numpy(right).tolist()
            answers["transposed index"] = transposed(right)
            answers["off-by-one index"] = off_by_one(right)
            answers["extra dim"] = like(right, to_numpy(right)[None])
            answers["float index"] = like(right, to_numpy(right).astype("float32"))
        return {
            name: answer for name, answer in answers.items() if not _same(answer, right)
        }


def _same(answer: Any, right: Any) -> bool:
    return differences(right, answer, strict=True) is None


def _only_zeros(answer: Any, reference: Any) -> bool:
    """An index of several entries, all 0, where the right one is not: the zeros a
    buffer was made of, which no write reached (exercises.mjs's onlyZeros alike)."""
    values = to_numpy(answer) if framework_of(answer) is not None else None
    if values is None or values.size < 2 or values.dtype.kind not in "iu":
        return False
    return not values.any() and bool(to_numpy(reference).any())


def fix_names(exercise: Any) -> dict[str, Any]:
    """The names a fix's lines may read in its notebook: the broken call's input and
    index, and the tensors and numbers the solution reads there (``beam``)."""
    broken = exercise.broken
    names = {broken.input_name: broken.input, broken.index_name: broken.index}
    held = exercise.solution.__globals__
    for name in exercise.solution.__code__.co_names:
        value = held.get(name)
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if number or (hasattr(value, "shape") and hasattr(value, "dtype")):
            names.setdefault(name, value)
    return names

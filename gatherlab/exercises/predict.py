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
from gatherlab.exercises.misconceptions import Case, Search, Voice
from gatherlab.exercises.misconceptions import explain as explain_misconception
from gatherlab.exercises.rendering import as_shown, assigned, body
from gatherlab.exercises.result import Feedback, Result, not_attempted
from gatherlab.exercises.verdict import Phrase, Verdict, phrase, verdict
from gatherlab.exercises.wrong import transposed
from gatherlab.trace import format_value

SAYS_IT_RAISES = re.compile(r"rais|error|exception|fail|throw|crash", re.IGNORECASE)


def runs_because(explain: Call | None, expected: Any) -> Phrase:
    """Why the code runs: for calls whose reason is the op itself (take flattens),
    that reason; else the shape of what it returns."""
    if explain is None or explain.op != "take":
        return phrase("runs.shape", shape=shape_text(to_numpy(expected).shape))
    size = int(to_numpy(explain.input).size)
    return phrase(
        "runs.take", input=explain.input_name, size=str(size), last=str(size - 1)
    )


PREDICT_VOICE = Voice(lambda case: phrase("lead.not_quite"), "your answer")


def prediction_case(
    expected: Any,
    explain: Call | None = None,
    *,
    gradient: bool = False,
    grad_output: Any = None,
    write: Any = None,
) -> Case:
    """A prediction's one case, as the misconceptions read it (``write``: the write
    behind the value, a ``writes.Write``)."""
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
        why = runs or runs_because(explain, expected)
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
        return verdict(
            False,
            "predict.wrong_shape",
            got_shape=shape_text(got.shape),
            expected_shape=shape_text(want.shape),
        )
    where = first_wrong(got, want)
    fields = {"where": entry("out", where), "got": format_value(got[where])}
    reads = predicted_reads(case, where)
    if reads is None:
        return Verdict(
            False,
            "predict.wrong_value",
            {**fields, "expected": format_value(want[where])},
        )
    if case.gradient:
        assert case.call is not None
        fields["where"] = entry(f"{case.call.input_name}.grad", where)
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
    runs_because: str = ""
    mistakes: Mapping[str, Any] = field(default_factory=dict)
    write: Any = None  # the write behind the value (``writes.Write``)
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
        verdict = prediction_feedback(
            self.solution,
            answer,
            self.explain,
            runs=self.runs_because,
            gradient=self.gradient,
            grad_output=self.grad_output,
            mistakes=self.mistakes,
            search=self.search,
        )
        return verdict.result(self.id)

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

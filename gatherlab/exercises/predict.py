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

from gatherlab._arrays import entry, to_numpy
from gatherlab.exercises.base import Exercise
from gatherlab.exercises.call import Call, contributions, step_at
from gatherlab.exercises.compare import Difference, differences, shape_text, value_text
from gatherlab.exercises.feedback import (
    UNANSWERED_HINT,
    capitalised,
    misread,
    wrong_value_message,
)
from gatherlab.exercises.rendering import as_shown, assigned, body
from gatherlab.exercises.result import Feedback, Result, feedback, not_attempted
from gatherlab.exercises.wrong import transposed

SAYS_IT_RAISES = re.compile(r"rais|error|exception|fail|throw|crash", re.IGNORECASE)


def runs_because(explain: Call | None) -> str:
    """Why the code runs, for calls whose reason is the op itself (take flattens)."""
    if explain is None or explain.op != "take":
        return ""
    size = int(to_numpy(explain.input).size)
    return (
        f"take reads the flattened {explain.input_name} ({size} entries, positions "
        f"-{size}..{size - 1}), not its rows, so every position here is valid"
    )


def _shape_reason(explain: Call | None, gradient: bool) -> str:
    """`` (x.grad has the shape of x, (2, 3))``: why the answer has its shape."""
    if explain is None:
        return ""
    if gradient:
        name = explain.input_name
        shape = shape_text(to_numpy(explain.input).shape)
        return f" ({name}.grad has the shape of {name}, {shape})"
    reason = explain.shape_reason()
    return f" ({reason})" if reason else ""


def _gradient_message(difference: Difference, explain: Call, grad_output: Any) -> str:
    where = difference.where or ()
    readers = contributions(explain, where, grad_output)
    read = entry(explain.input_name, where)
    reason = (
        f"{' and '.join(readers)} read {read}"
        if readers
        else f"no output position reads {read}"
    )
    return (
        misread(
            where,
            f"be {value_text(difference.expected)} because {reason}",
            f"you wrote {value_text(difference.got)}",
            name=f"{explain.input_name}.grad",
        )
        + "."
    )


def prediction_feedback(
    expected: Any,
    answer: Any,
    explain: Call | None = None,
    *,
    runs: str = "",
    gradient: bool = False,
    grad_output: Any = None,
    mistakes: Mapping[str, Any] | None = None,
) -> Feedback:
    """The verdict on a prediction ``answer`` of the value ``expected``.

    ``explain`` is the call behind the value (traced for the first wrong coordinate);
    ``runs`` says why the code does not raise; ``mistakes`` maps the reason for a known
    wrong prediction to that prediction, so the feedback can name the cause.
    """
    if isinstance(answer, str) and SAYS_IT_RAISES.search(answer):
        shape = shape_text(to_numpy(expected).shape)
        why = (
            runs
            or runs_because(explain)
            or f"the code returns a value of shape {shape}"
        )
        return feedback(
            False,
            f"It does not raise: {why}. Write the value it returns, as nested lists.",
        )
    difference = differences(
        expected, answer, "your answer", strict=False, hints="none"
    )
    if difference is None:
        return feedback(True, "That is exactly what the code returns.")
    for reason, wrong in (mistakes or {}).items():
        if differences(wrong, answer, strict=False) is None:
            return feedback(False, f"{capitalised(reason)}.")
    if difference.where is None:
        reason = _shape_reason(explain, gradient) if difference.shape else ""
        return feedback(False, f"{capitalised(difference.message)}{reason}.")
    if gradient and explain is not None:
        return feedback(False, _gradient_message(difference, explain, grad_output))
    message = wrong_value_message(difference, explain, "you wrote")
    step = step_at(explain, difference.where) if explain is not None else None
    details = (explain.trace_line(step),) if explain and step is not None else ()
    return feedback(False, message, details)


@dataclass(eq=False, kw_only=True)
class Predict(Exercise):
    """Write down what ``code()`` returns (a value, a shape, a gradient) before running.

    ``explain`` is the gather-family call behind the value; with ``gradient=True`` the
    value is the gradient of that call's input, for the upstream ``grad_output``.
    ``runs_because`` says why the code does not raise, for a learner who predicts an
    error; ``mistakes`` maps a reason to the wrong prediction it explains.
    """

    code: Callable[[], Any]
    explain: Call | None = None
    gradient: bool = False
    grad_output: Any = None
    runs_because: str = ""
    mistakes: Mapping[str, Any] = field(default_factory=dict)
    kind: ClassVar[str] = "predict"

    @cached_property
    def solution(self) -> Any:
        """The value the code returns: the answer to predict."""
        return self.code()

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
            return not_attempted(self.id, f"Predict first: {UNANSWERED_HINT}.")
        verdict = prediction_feedback(
            self.solution,
            answer,
            self.explain,
            runs=self.runs_because,
            gradient=self.gradient,
            grad_output=self.grad_output,
            mistakes=self.mistakes,
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

"""Which of these calls raise? The answer is a label or a list of labels ([]: none).

The feedback is ``raises_feedback``, a function of plain data (the calls, the labels
that raise, the learner's answer), so it can be mirrored outside Python.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

import torch

from gatherlab.errors import short_error
from gatherlab.exercises.base import Exercise
from gatherlab.exercises.call import TORCH_ERRORS, Call
from gatherlab.exercises.compare import kind_of, shape_text
from gatherlab.exercises.rendering import assigned, wrapped
from gatherlab.exercises.result import Feedback, Result, not_attempted
from gatherlab.exercises.verdict import Verdict, render, verdict

LABEL_SEPARATORS = re.compile(r"[\s,;'\"\[\]()]+")


def _outcome(call: Call) -> str:
    """The error the call raises in words, or "" when it runs."""
    try:
        call.run()
    except TORCH_ERRORS as error:
        return short_error(error)
    return ""


def _runs_words(call: Call, wrong: bool) -> tuple[str, str | None, dict[str, str]]:
    """The template, misconception and extra fields for a gather that runs where a
    learner may expect a rule it does not apply: an empty index is not checked at
    all, an int32 index is accepted, and an index need not have the input's shape
    (the rule the index was once held to: the same sizes but along dim). That last
    is said only where the learner marked the call ``wrong``ly: a solution's listing
    would repeat it for nearly every call."""
    index = call.index
    if call.op == "gather" and isinstance(index, torch.Tensor):
        if index.numel() == 0:
            return "raises.wrong_runs_empty", None, {}
        if index.dtype == torch.int32:
            return "raises.wrong_runs_int32", None, {}
        if wrong and index.shape != call.input.shape:
            dim = int(call.axis or 0)
            fields = {
                "input": call.input_name,
                "input_shape": shape_text(tuple(call.input.shape)),
                "dim": str(dim),
            }
            if dim >= 0:
                return "raises.wrong_runs_sizes", "same-size-rule", fields
            fields["axis"] = str(dim % max(call.input.dim(), 1))
            return "raises.wrong_runs_sizes_negative_dim", "same-size-rule", fields
    return "raises.wrong_runs", None, {}


def reason(label: str, call: Call, raises: bool, wrong: bool = True) -> Verdict:
    """``B raises: <diagnosis>.`` or ``A runs: <call> returns shape (2, 2).``, as a
    failing verdict (a pass lists every call's reason under its message, not
    ``wrong``)."""
    if not raises:
        shape = shape_text(tuple(call.run().shape))
        template, misconception, extra = _runs_words(call, wrong)
        return verdict(
            False,
            template,
            misconception,
            label=label,
            call=call.text(),
            shape=shape,
            **extra,
        )
    problems = call.problems()
    why = problems[0].message if problems else _outcome(call)
    return verdict(False, "raises.wrong_raises", label=label, why=why)


def listed(labels: Iterable[str]) -> str:
    """``B and D``, ``A, B and C``; ``none of them`` for no labels."""
    names = list(labels)
    if not names:
        return "none of them"
    if len(names) == 1:
        return names[0]
    return f"{', '.join(names[:-1])} and {names[-1]}"


def labels_in(answer: Any, known_labels: Iterable[str]) -> set[str] | None:
    """The labels an answer names, any case: ``["b", "d"]``, ``"BD"``, ``"b, d"``.

    None when the answer is not text; a word that is no label is kept as written, so
    the message can quote it.
    """
    if isinstance(answer, str):
        words = [answer]
    elif isinstance(answer, Iterable) and not isinstance(answer, Mapping):
        words = list(answer)
        if not all(isinstance(word, str) for word in words):
            return None
    else:
        return None
    known = {label.upper(): label for label in known_labels}
    labels = set()
    for word in words:
        for part in LABEL_SEPARATORS.split(word.strip()):
            upper = part.upper()
            if not part or upper == "NONE":
                continue
            if upper in known:
                labels.add(known[upper])
            elif all(letter in known for letter in upper):
                labels.update(known[letter] for letter in upper)  # "BD"
            else:
                labels.add(part)
    return labels


def raises_feedback(
    calls: Mapping[str, Call], raising: Iterable[str], answer: Any
) -> Feedback:
    """The verdict on ``answer`` when the calls labelled ``raising`` raise."""
    raising = tuple(raising)
    labels = labels_in(answer, calls)
    if labels is None:
        example = repr(list(calls)[:2])
        return Feedback(
            verdict(False, "raises.not_labels", kind=kind_of(answer), example=example)
        )
    unknown = sorted(labels - set(calls))
    if unknown:
        return Feedback(
            verdict(
                False, "raises.unknown", label=repr(unknown[0]), labels=", ".join(calls)
            )
        )
    missed = [label for label in raising if label not in labels]
    extra = [label for label in calls if label in labels and label not in raising]
    if not missed and not extra:
        reasons = tuple(
            wrapped(render(reason(label, call, label in raising, False)), "    ")
            for label, call in calls.items()
        )
        return Feedback(verdict(True, "raises.right", labels=listed(raising)), reasons)
    first = (missed + extra)[0]
    return Feedback(reason(first, calls[first], first in raising))


@dataclass(eq=False, kw_only=True)
class PredictRaises(Exercise):
    """Which of these calls raise? The answer: a label or a list of them ([]: none).

    Each call is run when the exercise is made; a call that raises although
    ``gl.diagnose`` finds no broken rule (or runs although it finds one) is refused,
    so a typo in a call can never make a wrong answer right.
    """

    calls: Mapping[str, Call]
    solution: tuple[str, ...] = field(default=(), init=False)  # the labels that raise
    kind: ClassVar[str] = "predict"

    def __post_init__(self) -> None:
        raising = []
        for label, call in self.calls.items():
            error, problems = _outcome(call), call.problems()
            if bool(error) != bool(problems):
                said = error or "it runs"
                rules = problems[0].message if problems else "no broken rule"
                raise ValueError(
                    f"{self.id} call {label}: {said}, but gl.diagnose finds {rules}"
                )
            if error:
                raising.append(label)
        self.solution = tuple(raising)

    @property
    def reference_answer(self) -> list[str]:
        return list(self.solution)

    def solution_source(self) -> str:
        lines = [
            wrapped(
                f"# {label} {'raises' if label in self.solution else 'runs'}: "
                f"{call.text()}",
                "#     ",
            )
            for label, call in self.calls.items()
        ]
        return "\n".join([*lines, assigned("raising", repr(list(self.solution)))])

    def _check(self, answer: Any) -> Result:
        if answer is ...:
            return not_attempted(self.id, "predict")
        return raises_feedback(self.calls, self.solution, answer).result(self.id)

    def wrong_answers(self) -> dict[str, Any]:
        answers = {
            "the other calls": [
                label for label in self.calls if label not in self.solution
            ],
            "none": [],
            "all": list(self.calls),
            "a label that does not exist": "Z",
            "None": None,
        }
        return {
            name: answer
            for name, answer in answers.items()
            if labels_in(answer, self.calls) != set(self.solution)
        }

"""Choose: which statement is true? For behaviour a CPU cannot show (a GPU's errors, an
XLA compilation), the learner picks one labelled statement; each wrong pick is answered
with its own reason.

The feedback is ``choice_feedback``, a function of plain data, so it can be mirrored
outside Python.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from gatherlab.exercises.base import Exercise
from gatherlab.exercises.raises import labels_in
from gatherlab.exercises.rendering import comment
from gatherlab.exercises.result import Feedback, Result, not_attempted
from gatherlab.exercises.verdict import verdict


def choice_feedback(
    options: Mapping[str, str], right: str, why: Mapping[str, str], answer: Any
) -> Feedback:
    """The verdict on ``answer`` (one label) when ``right`` is the true statement;
    ``why[label]`` says why that statement is true or false."""
    labels = labels_in(answer, options)
    if labels is None or len(labels) != 1:
        example = repr(next(iter(options)))
        return Feedback(verdict(False, "choose.pick_one", example=example))
    (label,) = labels
    if label not in options:
        return Feedback(
            verdict(
                False, "choose.unknown", label=repr(label), labels=", ".join(options)
            )
        )
    if label == right:
        return Feedback(verdict(True, "choose.right", why=why[right]))
    return Feedback(verdict(False, "choose.wrong", label=label, why=why[label]))


@dataclass(eq=False, kw_only=True)
class Choose(Exercise):
    """Pick the true statement among ``options``; ``why`` explains every option."""

    options: Mapping[str, str]
    right: str
    why: Mapping[str, str]
    kind: ClassVar[str] = "choose"

    def __post_init__(self) -> None:
        if self.right not in self.options or set(self.why) != set(self.options):
            raise ValueError(f"{self.id}: every option needs a reason and one is right")

    @property
    def reference_answer(self) -> str:
        return self.right

    def solution_source(self) -> str:
        return "\n".join(
            [
                comment(f"{self.right}: {self.why[self.right]}."),
                f"choice = {self.right!r}",
            ]
        )

    def _check(self, answer: Any) -> Result:
        if answer is ...:
            return not_attempted(self.id, "choose")
        verdict = choice_feedback(self.options, self.right, self.why, answer)
        return verdict.result(self.id)

    def wrong_answers(self) -> dict[str, Any]:
        others = {
            f"option {label}": label for label in self.options if label != self.right
        }
        return {**others, "None": None, "two labels": list(self.options)[:2]}

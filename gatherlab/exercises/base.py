"""What every kind of exercise has, and the one place a check's own bug is caught."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from gatherlab.errors import package_bug
from gatherlab.exercises.result import Result, SolutionView, failed


class CheckerError(RuntimeError):
    """A check found gatherlab itself at fault (e.g. a diagnosis that failed)."""


@dataclass(eq=False)
class Exercise:
    """A stable id ``"NN.name"``, a title, a kind; subclasses add the solution."""

    id: str
    title: str
    module: str = field(default="", init=False, repr=False)  # set on registering
    kind: ClassVar[str] = ""

    @property
    def chapter(self) -> int:
        """The chapter number, from the id's ``NN.`` prefix."""
        return int(self.id.split(".", 1)[0])

    @property
    def reference_answer(self) -> Any:
        """An answer that passes: what ``show_solution`` checks."""
        raise NotImplementedError

    def check(self, answer: Any) -> Result:
        """Check an answer; never raises, whatever the answer is.

        Errors of the learner's code are explained inside ``_check``; an error that
        reaches this point comes from gatherlab itself, so it is reported as a bug of
        the checker, never as the learner's mistake (and re-raised with
        ``GATHERLAB_DEBUG=1``).
        """
        try:
            return self._check(answer)
        except Exception as error:
            return failed(self.id, "exercise.checker_failed", error=package_bug(error))

    def _check(self, answer: Any) -> Result:
        raise NotImplementedError

    def solution_source(self) -> str:
        """The reference solution as the learner should read it."""
        raise NotImplementedError

    def show_solution(self) -> SolutionView:
        """The solution's source followed by its (passing) check."""
        return SolutionView(
            self.id, self.solution_source(), self.check(self.reference_answer)
        )

    def wrong_answers(self) -> dict[str, Any]:
        """Generic wrong answers of this kind, by name; each must fail with a reason."""
        raise NotImplementedError

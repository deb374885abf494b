"""What a check returns: pass or not, one short message, and how it shows in a notebook.

Every message is a ``Verdict`` rendered from ``messages.json`` (``verdict.py``), in two
steps: ``message`` names the mistake; ``fix``, how to fix it, and the failing case's
lines behind it (``details``) show in JupyterLab folded under "Show how to fix it" (a
``<details>`` element, as on the book's page), and on request as ``result.hint()``.

Both the text and the HTML forms are deterministic, because nbval compares them exactly.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from gatherlab.exercises.verdict import Field, Verdict, steps, verdict

PASSED, FAILED, NOT_ATTEMPTED = "passed", "not yet", "not attempted yet"
# A check that cannot run here (a library it needs is missing): no verdict on the
# answer, so no cross under a right one (a solution's box, without TensorFlow).
SKIPPED = "not checked here"
MARKS = {PASSED: "✔", FAILED: "✘", NOT_ATTEMPTED: "✏", SKIPPED: "–"}
COLOURS = {
    PASSED: "#2e7d32",
    FAILED: "#c62828",
    NOT_ATTEMPTED: "#757575",
    SKIPPED: "#757575",
}
# Long lines wrap inside the book's narrow column instead of running off the page.
WRAP = "white-space:pre-wrap;overflow-wrap:anywhere"
BACKTICKS = re.compile(r"`([^`]+)`")
SHOW_FIX = "Show how to fix it"  # the fold's summary, as on the page (exercises.mjs)


def as_html(text: str) -> str:
    """Escaped text with ```code``` spans rendered as ``<code>`` elements."""
    return BACKTICKS.sub(r"<code>\1</code>", html.escape(text))


@dataclass(frozen=True)
class Result:
    """The outcome of ``check(answer)``: ``passed``, a one-sentence ``message`` and,
    asked for, the ``fix``."""

    exercise_id: str
    status: str  # PASSED, FAILED, NOT_ATTEMPTED or SKIPPED
    message: str  # the first step: what is wrong
    # extra lines: the inputs of the failing case, a trace
    details: tuple[str, ...] = ()
    verdict: Verdict | None = None  # the data the message was rendered from
    fix: str = ""  # the second step: how to fix it ("" where the message says all)

    @property
    def passed(self) -> bool:
        return self.status == PASSED

    @property
    def words(self) -> str:
        """Both steps, the fix on a line of its own (``verdict.render``'s words)."""
        return "\n".join(filter(None, (self.message, self.fix)))

    def hint(self) -> Hint:
        """The second step: how to fix it, and the failing case's lines."""
        return Hint(self.fix, self.details)

    def __str__(self) -> str:
        head = f"{MARKS[self.status]} {self.exercise_id}: {self.status}. {self.message}"
        told = (f"{SHOW_FIX}: .hint()",) if self.fix else self.details
        return "\n".join((head, *told))

    __repr__ = __str__

    def _repr_html_(self) -> str:
        later = self.hint()._repr_html_() if self.details or self.fix else ""
        if self.fix:
            later = (
                '<details class="gl-check-fix" style="margin-top:0.3em">'
                f'<summary style="cursor:pointer">{SHOW_FIX}</summary>{later}</details>'
            )
        return (
            f'<div class="gl-check gl-check-{self.status.replace(" ", "-")}" '
            f'style="border-left:4px solid {COLOURS[self.status]};padding:0.3em 0.7em">'
            f"{MARKS[self.status]} <strong>{html.escape(self.exercise_id)}: "
            f"{self.status}.</strong> {as_html(self.message)}{later}</div>"
            f"{page_marker(self)}"
        )


@dataclass(frozen=True)
class Hint:
    """A result's second step: its ``fix`` in words, then its ``details`` lines."""

    fix: str
    details: tuple[str, ...] = ()

    def __str__(self) -> str:
        return "\n".join(filter(None, (self.fix, *self.details)))

    __repr__ = __str__

    def _repr_html_(self) -> str:
        fix = as_html(self.fix)
        fix = f'<p style="margin:0.3em 0 0 0">{fix}</p>' if self.fix else ""
        lines = html.escape("\n".join(self.details))
        details = (
            f'<pre style="margin:0.3em 0 0 0;{WRAP}">{lines}</pre>'
            if self.details
            else ""
        )
        return fix + details


def page_marker(result: Result) -> str:
    """Where the built page puts a stub's answer box: an empty hidden block naming
    the exercise. The book's build gives it the exercise's payload, computed from the
    package (``gatherlab.exercises.page``; tools/build/lean_pages.py), so a chapter
    stores the verdict a reader sees and nothing the checker derives."""
    if result.status != NOT_ATTEMPTED:
        return ""
    name = html.escape(result.exercise_id)
    return f'<div class="gl-page-check" data-exercise="{name}" hidden></div>'


def judged(exercise_id: str, verdict: Verdict, details: tuple[str, ...] = ()) -> Result:
    """The result a verdict gives: its status, and its message rendered."""
    status = PASSED if verdict.passed else FAILED
    message, fix = steps(verdict)
    return Result(exercise_id, status, message, details, verdict, fix)


def failed(
    exercise_id: str, template: str, details: tuple[str, ...] = (), **fields: Field
) -> Result:
    """A wrong answer: template ``template`` of ``messages.json`` with ``fields``."""
    return judged(exercise_id, Verdict(False, template, fields), details)


def skipped(exercise_id: str, template: str, **fields: Field) -> Result:
    """A check that cannot run here: template ``template`` with ``fields``."""
    said = Verdict(False, template, fields)
    message, fix = steps(said)
    return Result(exercise_id, SKIPPED, message, (), said, fix)


def not_attempted(exercise_id: str, kind: str) -> Result:
    """The stub is still in place (template ``unanswered.<kind>``)."""
    said = verdict(False, f"unanswered.{kind}")
    message, fix = steps(said)
    return Result(exercise_id, NOT_ATTEMPTED, message, (), said, fix)


@dataclass(frozen=True)
class Feedback:
    """A verdict before it has an exercise id, with its extra lines."""

    verdict: Verdict
    details: tuple[str, ...] = ()

    @property
    def passed(self) -> bool:
        return self.verdict.passed

    @property
    def message(self) -> str:
        return steps(self.verdict)[0]

    def result(self, exercise_id: str) -> Result:
        """The verdict as the ``Result`` of exercise ``exercise_id``."""
        return judged(exercise_id, self.verdict, self.details)


@dataclass(frozen=True)
class SolutionView:
    """The reference solution's source (or value) followed by its passing check."""

    exercise_id: str
    source: str
    result: Result

    def __str__(self) -> str:
        return f"{self.source}\n\n{self.result}"

    __repr__ = __str__

    def _repr_html_(self) -> str:
        return (
            '<div class="gl-solution">'
            f'<pre><code><span style="{WRAP}">{html.escape(self.source)}</span>'
            "</code></pre>"
            f"{self.result._repr_html_()}</div>"
        )

"""A check's verdict as data, and the one table that turns it into words.

``Verdict`` holds whether an answer passed, the template that words it, the fields the
template names (strings, already formatted as ``gatherlab.trace.format_value`` formats
numbers) and the misconception found, if one was. ``messages.json`` maps a template id
to text with ``{field}`` placeholders; ``render`` substitutes them, nothing more, so the
book's page (which loads the same file) words a verdict exactly as the notebook does.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from gatherlab.rules import PLACEHOLDER, fill

MESSAGES_PATH = Path(__file__).with_name("messages.json")
# An exercise's own explanation of a wrong answer (its ``hint`` function's return): a
# template of messages.json (``hint.*``) and the fields it adds to the checker's.
Hinted = tuple[str, Mapping[str, str]]


@cache
def messages() -> dict[str, str]:
    """Template id to template text, read once from ``messages.json``."""
    table: dict[str, str] = json.loads(MESSAGES_PATH.read_text(encoding="utf-8"))
    return table


@dataclass(frozen=True)
class Verdict:
    """``passed``, a ``template`` id, its string ``fields``, a ``misconception``."""

    passed: bool
    template: str
    fields: Mapping[str, str] = field(default_factory=dict)
    misconception: str | None = None

    def __post_init__(self) -> None:
        if self.template not in messages():
            raise ValueError(f"no message template {self.template!r}")
        wanted = set(PLACEHOLDER.findall(messages()[self.template]))
        given = set(self.fields)
        if wanted != given or not all(isinstance(v, str) for v in self.fields.values()):
            raise ValueError(
                f"template {self.template!r} needs the string fields "
                f"{sorted(wanted)}, got {sorted(given)}"
            )

    def to_json(self) -> dict[str, Any]:
        """The verdict as the page reads it (``V`` in ``page.py``'s contract)."""
        return {
            "passed": self.passed,
            "template": self.template,
            "fields": dict(self.fields),
            "misconception": self.misconception,
        }


def render(verdict: Verdict) -> str:
    """The verdict in words: its template with every ``{field}`` substituted."""
    return fill(messages()[verdict.template], verdict.fields)


def verdict(
    passed: bool, template: str, misconception: str | None = None, **fields: str
) -> Verdict:
    """``Verdict(passed, template, fields, misconception)`` with keyword fields."""
    return Verdict(passed, template, fields, misconception)


def fields_of(template: str) -> set[str]:
    """The ``{field}`` names template ``template`` uses."""
    return set(PLACEHOLDER.findall(messages()[template]))


def completed(
    template: str, known: Mapping[str, str], own: Mapping[str, str] | None = None
) -> Verdict:
    """A failing verdict whose template picks, from the fields the checker ``known``
    (the case, the coordinate, the values), those it names, plus its ``own`` fields
    (an exercise's hint fills those)."""
    wanted = fields_of(template)
    fields = {k: v for k, v in known.items() if k in wanted}
    return Verdict(False, template, {**fields, **(own or {})})

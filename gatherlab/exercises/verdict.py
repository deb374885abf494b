"""A check's verdict as data, and the one table that turns it into words.

``Verdict`` holds whether an answer passed, the template that words it, the fields the
template names and the misconception found, if one was. A field is a string (a number
formatted as ``gatherlab.trace.format_value`` formats it, a coordinate, a shape, a code
name) or a ``Phrase``: a piece of a sentence, itself a template of the table and its
fields (a lead such as "On hidden case 3 of 50, ", a pair's two verdicts).
``messages.json`` maps a template id to text with ``{field}`` placeholders; ``render``
substitutes them, a phrase by its own words without a final period (it is a clause of
the sentence around it), nothing more, so the book's page (which loads the same file and
renders alike, exercises.mjs's ``render``) words a verdict exactly as the notebook does.

Feedback comes in two steps (``steps``): a template's first line names the mistake in
the reader's terms (at most ``FIRST_STEP_WORDS`` words, counting each field as one:
``tests/test_feedback.py`` holds every template to it); the text after its line break,
if any, is the fix and what lies behind it, shown on request ("Show how to fix it", in
the notebook's output and on the page alike). A phrase's own fix joins the fix of the
verdict around it, before the verdict's own.
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
FIRST_STEP_WORDS = 30  # a first step's words: what a wrong answer first reads
# An exercise's own explanation of a wrong answer (its ``hint`` function's return): a
# template of messages.json (``hint.*``) and the fields it adds to the checker's.
Hinted = tuple[str, Mapping[str, str]]


@cache
def messages() -> dict[str, str]:
    """Template id to template text, read once from ``messages.json``."""
    table: dict[str, str] = json.loads(MESSAGES_PATH.read_text(encoding="utf-8"))
    return table


def _check_fields(template: str, fields: Mapping[str, Field]) -> None:
    if template not in messages():
        raise ValueError(f"no message template {template!r}")
    wanted = fields_of(template)
    given = set(fields)
    if wanted != given or not all(isinstance(v, str | Phrase) for v in fields.values()):
        raise ValueError(
            f"template {template!r} needs the fields (strings or phrases) "
            f"{sorted(wanted)}, got {sorted(given)}"
        )


def field_json(value: Field) -> Any:
    """A field as the page reads it: a string, or a phrase's ``P``."""
    return value if isinstance(value, str) else value.to_json()


def _fields_json(fields: Mapping[str, Field]) -> dict[str, Any]:
    return {k: field_json(v) for k, v in fields.items()}


@dataclass(frozen=True)
class Phrase:
    """A piece of a sentence: a ``template`` id and its ``fields``."""

    template: str
    fields: Mapping[str, Field] = field(default_factory=dict)

    def __post_init__(self) -> None:
        _check_fields(self.template, self.fields)

    def to_json(self) -> dict[str, Any]:
        """The phrase as the page reads it (``P`` in ``page.py``'s contract)."""
        return {"template": self.template, "fields": _fields_json(self.fields)}


# A verdict's field: words that are data (a number, a coordinate, a name), or a phrase.
Field = str | Phrase


@dataclass(frozen=True)
class Verdict:
    """``passed``, a ``template`` id, its ``fields``, a ``misconception``."""

    passed: bool
    template: str
    fields: Mapping[str, Field] = field(default_factory=dict)
    misconception: str | None = None

    def __post_init__(self) -> None:
        _check_fields(self.template, self.fields)

    def to_json(self) -> dict[str, Any]:
        """The verdict as the page reads it (``V`` in ``page.py``'s contract)."""
        return {
            "passed": self.passed,
            "template": self.template,
            "fields": _fields_json(self.fields),
            "misconception": self.misconception,
        }


def steps(verdict: Verdict | Phrase) -> tuple[str, str]:
    """The verdict's two steps in words, ``(mistake, fix)``: its template's first line
    and the rest (``""`` where it has none), with every ``{field}`` substituted, a
    phrase by its first step without its final period; the phrases' fixes come
    first in the fix, in the order the template names them, then the verdict's own."""
    mistake, _, fix = messages()[verdict.template].partition("\n")
    words: dict[str, str] = {}
    later: list[str] = []
    for name in [*PLACEHOLDER.findall(mistake), *PLACEHOLDER.findall(fix)]:
        value = verdict.fields[name]
        if name in words:
            continue
        if isinstance(value, str):
            words[name] = value
            continue
        own, own_fix = steps(value)
        words[name] = own.removesuffix(".")
        later += [own_fix] if own_fix else []
    return fill(mistake, words), " ".join(
        filter(None, [*later, fill(fix, words).strip()])
    )


def render(verdict: Verdict | Phrase) -> str:
    """The verdict in words: its two ``steps``, the fix on a line of its own."""
    return "\n".join(filter(None, steps(verdict)))


def phrase(template: str, **fields: Field) -> Phrase:
    """``Phrase(template, fields)`` with keyword fields."""
    return Phrase(template, fields)


def verdict(
    passed: bool, template: str, misconception: str | None = None, **fields: Field
) -> Verdict:
    """``Verdict(passed, template, fields, misconception)`` with keyword fields."""
    return Verdict(passed, template, fields, misconception)


def fields_of(template: str) -> set[str]:
    """The ``{field}`` names template ``template`` uses."""
    return set(PLACEHOLDER.findall(messages()[template]))


def picked(template: str, known: Mapping[str, Field]) -> Phrase:
    """The phrase of ``template`` with the fields of ``known`` it names."""
    return Phrase(
        template, {k: v for k, v in known.items() if k in fields_of(template)}
    )


def completed(
    template: str, known: Mapping[str, Field], own: Mapping[str, Field] | None = None
) -> Verdict:
    """A failing verdict whose template picks, from the fields the checker ``known``
    (the case, the coordinate, the values), those it names, plus its ``own`` fields
    (an exercise's hint fills those)."""
    wanted = fields_of(template)
    fields = {k: v for k, v in known.items() if k in wanted}
    return Verdict(False, template, {**fields, **(own or {})})

"""Sphinx extension (_config.yml, local_extensions): exercise anchors a reader can see.

sphinx-exercise numbers each exercise as the book does ("Exercise 2.3") but gives its
box the id ``notebooks/02_batched_selection-exercise-2`` (counted from 0, with a slash)
and no link, and every box's body the same id, ``exercise-content``. This gives each
box the id of its number, ``exercise-2-3``, makes its "Exercise 2.3" label a visible
link to it (an instructor can send it), and makes the bodies' id a class.
"""

from __future__ import annotations

import re
from typing import Any

from sphinx.application import Sphinx

BOX = re.compile(
    r'<div class="exercise admonition" id="[^"]*">(\s*<p class="admonition-title">)'
    r'<span class="caption-number">Exercise (\d+(?:\.\d+)*) </span>'
)
BODY = re.compile(r'<section id="exercise-content">')


def anchor(number: str) -> str:
    """``exercise-2-3`` for "Exercise 2.3"."""
    return "exercise-" + number.replace(".", "-")


def linked(body: str) -> str:
    """``body`` with each exercise box's id and label taken from its number."""

    def box(match: re.Match[str]) -> str:
        number = match[2]
        name = anchor(number)
        return (
            f'<div class="exercise admonition" id="{name}">{match[1]}'
            f'<a class="caption-number gl-exercise-anchor" href="#{name}">'
            f"Exercise {number}</a> "
        )

    return BODY.sub('<section class="exercise-content">', BOX.sub(box, body))


def link(
    app: Sphinx, pagename: str, templatename: str, context: dict, doctree: Any
) -> None:
    if "body" in context:
        context["body"] = linked(context["body"])


def setup(app: Sphinx) -> dict[str, Any]:
    # Before lean_pages (priority 900), which reads the body for the classes it keeps.
    app.connect("html-page-context", link, priority=800)
    return {"parallel_read_safe": True, "parallel_write_safe": True}

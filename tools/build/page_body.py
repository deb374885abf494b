"""Sphinx extension (_config.yml, local_extensions): rewrites of a page's HTML body.

Each rewrite is a function from the body's HTML to the new HTML; ``setup`` applies them
in turn to every page before lean_pages reads the body for the assets and classes it
keeps.

- ``folded``, the how-to note. Every chapter notebook opens with the same note on
  working in it (run the cells in order, type each answer in place of ``...``,
  ``make reset-lab``; CONTRIBUTING.md). In JupyterLab or Colab that is the first thing
  a reader needs. In the online book it is not: there the exercises are answered in the
  page's own boxes and no cell runs, yet the note filled a phone's whole first screen
  above the chapter's title. It moves, in the built page only, under the title as a
  closed ``<details>`` whose summary says who it is for; the notebooks keep it first.
- ``linked``, exercise anchors a reader can see. sphinx-exercise numbers each exercise
  as the book does ("Exercise 2.3") but gives its box the id
  ``notebooks/02_batched_selection-exercise-2`` (counted from 0, with a slash) and no
  link, and every box's body the same id, ``exercise-content``. This gives each box the
  id of its number, ``exercise-2-3``, makes its "Exercise 2.3" label a visible link to
  it (an instructor can send it), and makes the bodies' id a class.
"""

from __future__ import annotations

import re
from typing import Any

from sphinx.application import Sphinx

# The note as myst-nb writes it: a block quote before the chapter's first section.
NOTE = re.compile(
    r"\A\s*<blockquote>\s*<div>(<p><strong>Working in this notebook\.</strong>.*?)"
    r"</div></blockquote>\s*",
    re.S,
)
TITLE = re.compile(r"<h1>.*?</h1>", re.S)
SUMMARY = "Running this chapter in JupyterLab or Colab"

BOX = re.compile(
    r'<div class="exercise admonition" id="[^"]*">(\s*<p class="admonition-title">)'
    r'<span class="caption-number">Exercise (\d+(?:\.\d+)*) </span>'
)
BODY = re.compile(r'<section id="exercise-content">')


def folded(body: str) -> str:
    """``body`` with its how-to note, if it opens with one, folded under its title."""
    note = NOTE.match(body)
    if note is None:
        return body
    rest = body[note.end() :]
    title = TITLE.search(rest)
    if title is None:
        return body
    fold = (
        f'\n<details class="howto">\n<summary>{SUMMARY}</summary>\n'
        f"{note.group(1)}</details>"
    )
    return rest[: title.end()] + fold + rest[title.end() :]


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


REWRITES = (folded, linked)


def rewrite(
    app: Sphinx, pagename: str, templatename: str, context: dict, doctree: Any
) -> None:
    if "body" in context:
        for each in REWRITES:
            context["body"] = each(context["body"])


def setup(app: Sphinx) -> dict[str, Any]:
    # Before lean_pages (priority 900), which reads the body for the assets it needs
    # and the classes it keeps.
    app.connect("html-page-context", rewrite, priority=800)
    return {"parallel_read_safe": True, "parallel_write_safe": True}

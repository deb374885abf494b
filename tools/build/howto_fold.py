"""Sphinx extension (_config.yml, local_extensions): the how-to note folded in the page.

Every chapter notebook opens with the same note on working in it (run the cells in
order, type each answer in place of ``...``, ``make reset-lab``; CONTRIBUTING.md). In
JupyterLab or Colab that is the first thing a reader needs. In the online book it is
not: there the exercises are answered in the page's own boxes and no cell runs, yet
the note filled a phone's whole first screen above the chapter's title. This extension
moves it, in the built page only, under the title as a closed ``<details>`` whose
summary says who it is for; the notebooks keep it first.
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


def fold(
    app: Sphinx, pagename: str, templatename: str, context: dict, doctree: Any
) -> None:
    if "body" in context:
        context["body"] = folded(context["body"])


def setup(app: Sphinx) -> dict[str, Any]:
    # Before lean_pages (priority 900), which reads the body for the assets it needs.
    app.connect("html-page-context", fold, priority=800)
    return {"parallel_read_safe": True, "parallel_write_safe": True}

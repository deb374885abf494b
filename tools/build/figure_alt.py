"""Sphinx extension (_config.yml, local_extensions): alt text saying what figures show.

myst-nb writes a figure output as an image whose alt text is its own file path
(``../_images/ae16….png``), which a screen reader reads out. Every figure of the book
is drawn by one call of ``gl.figures`` in its cell; this gives each such image the
words of ``gatherlab.figures.ALT_TEXT`` for that function, filled with the call's
arguments as the cell writes them (so the text names the tensors and the dim the
figure draws). An image whose cell calls no ``gl.figures`` function keeps its alt.
"""

from __future__ import annotations

import ast
import string
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx

from gatherlab.figures import ALT_TEXT


def _figure_call(source: str) -> ast.Call | None:
    """The last ``gl.figures.<name>(...)`` call of a cell's source, if any."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    found = None
    for node in ast.walk(tree):
        function = getattr(node, "func", None)
        if (
            isinstance(node, ast.Call)
            and isinstance(function, ast.Attribute)
            and function.attr in ALT_TEXT
        ):
            found = node
    return found


def alt_text(source: str) -> str | None:
    """The alt text for the figure the cell ``source`` draws (None: not a figure)."""
    call = _figure_call(source)
    if call is None:
        return None
    assert isinstance(call.func, ast.Attribute)
    template = ALT_TEXT[call.func.attr]
    positional = [ast.get_source_segment(source, arg) or "" for arg in call.args]
    named = {
        keyword.arg: ast.get_source_segment(source, keyword.value) or ""
        for keyword in call.keywords
        if keyword.arg
    }
    fields = [name for _, name, _, _ in string.Formatter().parse(template) if name]
    values = {**{str(k): v for k, v in enumerate(positional)}, **named}
    if not all(field in values for field in fields):
        return None
    return template.format(*positional, **named)


def _cell_source(image: nodes.Node) -> str | None:
    """The code of the notebook cell an output image belongs to."""
    node = image.parent
    while node is not None and "cell" not in node.get("classes", []):
        node = node.parent
    if node is None:
        return None
    for block in node.findall(nodes.literal_block):
        return block.astext()
    return None


def describe(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    for image in doctree.findall(nodes.image):
        source = _cell_source(image)
        words = alt_text(source) if source else None
        if words:
            image["alt"] = words


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("doctree-resolved", describe)
    return {"parallel_read_safe": True, "parallel_write_safe": True}

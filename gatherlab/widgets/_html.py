"""Render tensors, messages and legends as small HTML strings (pure functions).

Colours come from the Okabe–Ito palette, which stays distinguishable with the common
colour-vision deficiencies; every highlighted cell is also bold and has its own border
style, so the marks never rely on colour alone. Styles are inline so the HTML looks the
same in JupyterLab, in the static book and in a saved notebook.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping

import numpy as np

from gatherlab._arrays import coord
from gatherlab.diagnose import Problem
from gatherlab.trace import format_value

Coord = tuple[int, ...]

# role -> (background, text colour, border, what the legend calls it)
MARKS: dict[str, tuple[str, str, str, str]] = {
    "out": ("#E69F00", "#000", "3px solid #000", "output chosen"),
    "index": ("#56B4E9", "#000", "3px dashed #000", "index entry it used"),
    "source": ("#0072B2", "#fff", "3px double #000", "source value it read"),
    "fault": ("#D55E00", "#fff", "3px dotted #000", "entry that breaks the rule"),
}
HEAT_RGB = (0, 158, 115)  # Okabe–Ito bluish green, apart from the marks' hues
CELL = "border:1px solid #999;padding:2px 8px;text-align:center;min-width:1.6em"
HEAD = "padding:1px 5px;color:#555;font-weight:normal;font-size:85%;line-height:1.3"
# Each view carries this once, so cells need no style of their own (a third of the
# size); only highlighted cells keep inline styles, which work even without it.
# Headers are centred like the cells below them; row labels and the corner naming the
# first axis (class l) hug the grid on their right.
STYLE = (
    "<style>.gl-t{border-collapse:collapse;font-family:monospace;margin:0}"
    f".gl-t td{{{CELL}}}.gl-t th,.gl-h{{{HEAD}}}.gl-t th{{text-align:center}}"
    ".gl-t th.l{text-align:right}</style>"
)
ERROR = "#D55E00"
QUIET = "color:#555;font-size:90%;margin:2px 0"  # notes and source lines
MAX_SHOWN = 144  # larger outputs (tf.gather can multiply sizes) show their shape only


def escape(text: object) -> str:
    """HTML-escape any value's ``str``."""
    return html.escape(str(text))


def _cell(
    text: str, role: str | None, heat: float | None, where: str = "", width: str = ""
) -> str:
    """One cell; a marked one names its role and coordinate in data attributes, which
    tests and browser checks read. ``width`` is a minimum width shared by the table
    (a table cell's width acts as one; content-box keeps the padding outside it)."""
    least = f";box-sizing:content-box;width:{width}" if width else ""
    if role is not None:
        background, colour, border, _ = MARKS[role]
        style = f"background:{background};color:{colour};border:{border}{least}"
        mark = f'data-mark="{role}" data-at="{escape(where)}"'
        return f'<td {mark} style="{style};font-weight:bold">{escape(text)}</td>'
    if heat is not None and heat > 0:
        r, g, b = (round(255 - (255 - c) * heat) for c in HEAT_RGB)
        colour = "#fff" if heat > 0.55 else "#000"
        style = f"background:rgb({r},{g},{b});color:{colour};font-weight:bold{least}"
        return f'<td style="{style}">{escape(text)}</td>'
    if least:
        return f'<td style="{least[1:]}">{escape(text)}</td>'
    return f"<td>{escape(text)}</td>"


def _grid(
    name: str,
    values: np.ndarray,
    prefix: Coord,
    marks: Mapping[Coord, str],
    labels: Mapping[Coord, str],
    heat: np.ndarray | None,
    first_dim: int,
    width: str,
) -> str:
    """One 1-D or 2-D block as a table whose header rows and column name the axes.

    The axis names take a row of their own above the column numbers, so the row
    labels' column stays narrow and the numbers sit over their cells.
    """
    block = values.reshape(1, -1) if values.ndim == 1 else values
    rows, cols = block.shape
    across = f'<th colspan="{cols}">dim {first_dim + values.ndim - 1} →</th>'
    numbers = "".join(f"<th>{c}</th>" for c in range(cols))
    if values.ndim == 1:
        head = f"<tr>{across}</tr><tr>{numbers}</tr>"
    else:
        corner = f'<th class="l">dim {first_dim} ↓</th>'
        head = f"<tr>{corner}{across}</tr><tr><th></th>{numbers}</tr>"
    body = []
    for r in range(rows):
        cells = []
        for c in range(cols):
            at = prefix + ((c,) if values.ndim == 1 else (r, c))
            text = labels.get(at, format_value(values[at[len(prefix) :]]))
            shade = None if heat is None else heat[at]
            cells.append(_cell(text, marks.get(at), shade, at_text(at, name), width))
        label = "" if values.ndim == 1 else f'<th class="l">{r}</th>'
        body.append(f"<tr>{label}{''.join(cells)}</tr>")
    return f'<table class="gl-t">{head}{"".join(body)}</table>'


def tensor(
    values: np.ndarray,
    name: str,
    marks: Mapping[Coord, str] | None = None,
    labels: Mapping[Coord, str] | None = None,
    heat: np.ndarray | None = None,
    note: str = "",
    even_columns: bool = False,
) -> str:
    """A titled table: name and shape above, axes labelled, marked cells highlighted.

    ``marks`` maps a coordinate to a role of :data:`MARKS`; ``labels`` replaces a cell's
    text; ``heat`` (values in 0..1, the tensor's shape) shades unmarked cells;
    ``even_columns`` gives every column the width of the longest text, so labels of
    different lengths (``0``, ``1+3+5=9``) do not make the columns uneven.
    """
    values = np.asarray(values)
    marks, labels = marks or {}, labels or {}
    width = ""
    if even_columns and 0 < values.size <= MAX_SHOWN:
        texts = (
            labels.get(c, format_value(values[c])) for c in np.ndindex(values.shape)
        )
        width = f"{max(len(text) for text in texts)}ch"
    title = (
        f'<div style="font-family:monospace;margin-bottom:2px"><b>{escape(name)}</b>'
        f' <span style="color:#555">shape {escape(tuple(values.shape))}'
        f"{' ' + escape(note) if note else ''}</span></div>"
    )
    if values.size == 0:
        body = '<div style="color:#555">(empty: no values)</div>'
    elif values.size > MAX_SHOWN:
        body = f'<div style="color:#555">({values.size} values: too many to show)</div>'
    elif values.ndim == 0:
        text = labels.get((), format_value(values))
        cell = _cell(text, marks.get(()), None, f"{name}[()]")
        body = f'<table class="gl-t"><tr>{cell}</tr></table>'
    elif values.ndim <= 2:
        body = _grid(name, values, (), marks, labels, heat, 0, width)
    else:  # one 2-D block per coordinate of the leading dims
        lead = values.ndim - 2
        body = "".join(
            f'<div class="gl-h">{escape(name)}[{coord(at)}]</div>'
            + _grid(name, values[at], at, marks, labels, heat, lead, width)
            for at in np.ndindex(values.shape[:lead])
        )
    return f'<div style="display:inline-block;vertical-align:top">{title}{body}</div>'


def styled(view: str) -> str:
    """A view ready for an HTML widget: the table style block, then the view."""
    return STYLE + view


def row(*blocks: str) -> str:
    """Blocks side by side, wrapping on narrow screens."""
    items = "".join(f"<div>{block}</div>" for block in blocks if block)
    return (
        '<div style="display:flex;flex-wrap:wrap;gap:8px 20px;align-items:flex-start">'
        f"{items}</div>"
    )


def code(text: str) -> str:
    """One line of code or trace output, monospaced."""
    return f'<div style="font-family:monospace;margin:4px 0">{escape(text)}</div>'


def code_block(lines: Iterable[str]) -> str:
    """Several lines of code or trace output."""
    body = "\n".join(escape(line) for line in lines)
    return (
        f'<div style="font-family:monospace;margin:4px 0;white-space:pre">{body}</div>'
    )


def heading(text: str) -> str:
    """A small bold title inside a view."""
    return f'<div style="font-weight:bold;margin:6px 0 2px">{escape(text)}</div>'


def note(text: str) -> str:
    """A quiet one-line remark."""
    return f'<div style="{QUIET}">{escape(text)}</div>'


def problems(
    found: Iterable[Problem], title: str = "This call breaks a rule", hints: bool = True
) -> str:
    """``gl.diagnose`` problems in plain words (with their hints) in an error box."""
    items = "".join(
        f"<li>{escape(p.message)}"
        + (
            f'<br><span style="color:#555">hint: {escape(p.hint)}</span>'
            if p.hint and hints
            else ""
        )
        + "</li>"
        for p in found
    )
    return (
        f'<div style="border-left:5px solid {ERROR};padding:2px 10px;margin:4px 0">'
        f'<b style="color:#A63D00">✗ {escape(title)}</b>'
        f'<ul style="margin:2px 0;padding-left:1.2em">{items}</ul></div>'
    )


def sources(links: Iterable[tuple[str, str]], lead: str = "Sources") -> str:
    """A quiet line of links, ``(text, url)`` each, for claims not run here."""
    items = ", ".join(
        f'<a href="{escape(url)}" target="_blank" rel="noopener">{escape(text)}</a>'
        for text, url in links
    )
    return f'<div style="{QUIET}">{escape(lead)}: {items}</div>'


def error(text: str, title: str = "Not applied") -> str:
    """A message about the reader's input (kept next to the last valid view)."""
    return (
        f'<div style="border-left:5px solid {ERROR};padding:2px 10px;margin:4px 0">'
        f'<b style="color:#A63D00">✗ {escape(title)}:</b> {escape(text)}</div>'
    )


def ok(text: str) -> str:
    """A short confirmation line (a tick and words, not colour alone)."""
    return f'<div style="margin:4px 0"><b>✓</b> {escape(text)}</div>'


def legend(*roles: str, meanings: Mapping[str, str] | None = None) -> str:
    """A key naming what each highlight style means (``meanings`` renames a role)."""
    swatches = []
    for role in roles:
        background, colour, border, meaning = MARKS[role]
        meaning = (meanings or {}).get(role, meaning)
        style = f"{CELL};background:{background};color:{colour};border:{border}"
        swatches.append(
            f'<span style="{style};display:inline-block;font-weight:bold">'
            f"&#8203;</span> {escape(meaning)}"
        )
    return f'<div style="font-size:90%;margin:4px 0">{" &nbsp; ".join(swatches)}</div>'


def at_text(position: Coord, name: str) -> str:
    """``x[0, 2]``."""
    return f"{name}[{coord(position)}]"

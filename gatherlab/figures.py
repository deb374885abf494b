"""Figures for the chapters: deterministic matplotlib drawings built from gatherlab.

Every function returns a ``matplotlib.figure.Figure``; a chapter shows it as the last
expression of a cell. Nothing here is random, so the same call draws the same image.
"""

from __future__ import annotations

import io
from typing import Any

import numpy as np
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch, Rectangle

from gatherlab._arrays import to_numpy, wrap_dim
from gatherlab.trace import format_value, trace

PANEL_GAP = 1.8  # grid units between two grids, room for the arrows and row numbers
CELL_INCHES = 0.6
ARC_ABOVE, ARC_BELOW = 0.62, 0.9  # how far gather_diagram's arrows leave the grids
LABEL_BOX = {"boxstyle": "square,pad=0.05", "facecolor": "white", "linewidth": 0}
# The book's one legend, in every figure and explorer (the explorers' stylesheet,
# gatherlab/browser/explorers/explorer.css, holds the same colours; a test compares):
# role -> (fill, text colour on it, what the legend calls it). Okabe–Ito hues.
MARKS = {
    "index": ("#56B4E9", "#000000", "index entry"),
    "source": ("#0072B2", "#FFFFFF", "source value it reads"),
    "out": ("#E69F00", "#000000", "output it fills"),
    "fault": ("#D55E00", "#000000", "entry that breaks a rule"),
}
COLOURS = {
    "edge": "#4d4d4d",
    "label": "#5c5c5c",
    "line": "#cfe3f1",  # the source line the index chooses along (a pale source blue)
    "position_arrow": "#1f6fa8",  # from the index entry to the value it names
    "value_arrow": "#a86a00",  # from the source value to the output it fills
}
FAULT_TEXT = "#a63d00"  # the fault hue, dark enough for text on white
INK = {fill: ink for fill, ink, _ in MARKS.values()}  # text colour on each mark


# What each figure shows, for its alt text in the built book (tools/build/figure_alt.py
# fills these from the call in the figure's cell: {0}, {1}... are its positional
# arguments as written, {name} a keyword argument, {dim_words} "dim N" when the call
# names a dim).
ALT_TEXT = {
    "gather_diagram": (
        "Three grids: the input {0}, the index {2} and the output of a gather along "
        "dim {1}. Arrows trace the output entry at {at} back through its index entry "
        "to the input value it reads."
    ),
    "three_ways_on_a_grid": (
        "The grid {0} drawn three times: index_select reads the same columns "
        "{shared_columns} in every row, gather reads the columns {per_row_columns} one "
        "list per row, and take reads the flat positions {flat_positions}, counted row "
        "by row; each read cell names the output entry it fills."
    ),
    "batched_selection_diagram": (
        "Each batch member of {0} as a block of time steps by features, the time steps "
        "{1} picks for it highlighted, and arrows to the output rows they fill."
    ),
    "gradient_contributions": (
        "A heat map of the gradient that a gather along dim {1}, with {2} as its "
        "index, sends back to {0}: each cell shows its total and the upstream values "
        "{3} that add up to it; cells never read get 0."
    ),
    "writes_diagram": (
        "The writes of {0}.scatter_ along dim {1}: the index {2}, the values {3} and "
        "the result, with an arrow from each value to the entry it writes; an entry "
        "written more than once is a collision, marked with a question mark."
    ),
    "broken_index_grid": (
        "The input {0}, then each broken index of {2} with the entries that break a "
        "rule of a gather along dim {1} marked, and the rule's name above it."
    ),
}


def fill(role: str) -> str:
    """The fill colour of a legend role."""
    return MARKS[role][0]


class Legend:
    """The one colour legend of the book's figures and explorers, shown once per
    chapter (``legend()`` as a cell's last expression): HTML in the book and
    JupyterLab, a line of text elsewhere."""

    def __repr__(self) -> str:
        return "Colours: " + ", ".join(
            f"{role} = {meaning}" for role, (_, _, meaning) in MARKS.items()
        )

    def _repr_html_(self) -> str:
        swatches = " &nbsp; ".join(
            f'<span style="display:inline-block;padding:1px 8px;background:{colour};'
            f'color:{ink};font-weight:bold">{role}</span> {meaning}'
            for role, (colour, ink, meaning) in MARKS.items()
        )
        return (
            '<div class="gl-legend-book" role="note">'
            f"<b>Colours in this chapter's figures and explorer:</b> {swatches}</div>"
        )


def legend() -> Legend:
    """The colour legend every figure and explorer uses."""
    return Legend()


class BookFigure(Figure):
    """A Figure that shows itself as one PNG in a notebook, with or without pyplot."""

    def _repr_png_(self) -> bytes:
        buffer = io.BytesIO()
        self.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
        return buffer.getvalue()


def _as_grid(values: np.ndarray) -> np.ndarray:
    """A 1-D array drawn as one row; a 2-D array as it is."""
    return values.reshape(1, -1) if values.ndim == 1 else values


def _draw_grid(
    ax: Any,
    values: np.ndarray,
    left: float,
    title: str,
    fills: dict[tuple[int, ...], str],
    row_numbers: bool,
) -> None:
    """One labelled grid whose top-left corner is at (left, 0); row r spans -r-1..-r."""
    rows, columns = values.shape
    for (r, c), value in np.ndenumerate(values):
        ax.add_patch(
            Rectangle(
                (left + c, -r - 1),
                1,
                1,
                facecolor=fills.get((r, c), "white"),
                zorder=1,
                edgecolor=COLOURS["edge"],
                linewidth=1.2,
            )
        )
        shade = fills.get((r, c), "white")
        ax.text(
            left + c + 0.5,
            -r - 0.5,
            format_value(value),
            ha="center",
            va="center",
            color=INK.get(shade, "black"),
            zorder=4,  # above the arrows, on a patch of the cell's colour
            bbox={"boxstyle": "square,pad=0.1", "facecolor": shade, "linewidth": 0},
        )
    for c in range(columns):
        ax.text(left + c + 0.5, 0.25, str(c), ha="center", va="bottom", fontsize=8,
                color=COLOURS["label"], zorder=4, bbox=LABEL_BOX)  # fmt: skip
    if row_numbers:
        for r in range(rows):
            ax.text(left - 0.2, -r - 0.5, str(r), ha="right", va="center", fontsize=8,
                    color=COLOURS["label"])  # fmt: skip
    ax.text(left + columns / 2, 0.85, title, ha="center", va="bottom", fontsize=11)


def _arrow(ax: Any, start: tuple, end: tuple, bend: float, colour: str) -> None:
    ax.add_patch(
        FancyArrowPatch(
            start,
            end,
            connectionstyle=f"arc3,rad={bend}",
            arrowstyle="-|>",
            mutation_scale=16,
            linewidth=2,
            color=colour,
            zorder=3,
        )
    )


def gather_diagram(
    input: Any,
    dim: int,
    index: Any,
    at: int | tuple[int, ...] | None = None,
    source_name: str = "x",
) -> Figure:
    """Source, index and output grids of a 1-D or 2-D gather; ``at`` traces one output.

    For the output coordinate ``at``, its index entry, the source line it picks along,
    the source value it reads and the output cell receiving it are coloured and joined
    by arrows. Invalid calls raise :class:`gatherlab.RuleError` (from ``trace``).
    """
    source, positions = to_numpy(input), to_numpy(index)
    if source.ndim not in (1, 2):
        raise ValueError(f"gather_diagram draws 1-D or 2-D inputs, not {source.ndim}-D")
    dim = wrap_dim(dim, source.ndim)
    steps = trace(source, dim, positions, source_name=source_name)
    output = np.empty(positions.shape, dtype=source.dtype)
    for step in steps:
        output[step.out] = step.value

    source_grid, index_grid, output_grid = map(_as_grid, (source, positions, output))
    grid_dim = 1 if source.ndim == 1 else dim  # a 1-D input is drawn as one row
    fills: dict[str, dict[tuple[int, ...], str]] = {
        "source": {},
        "index": {},
        "out": {},
    }
    chosen = None
    if at is not None:
        chosen = steps[at]
        out_cell = (0, *chosen.out) if positions.ndim == 1 else chosen.out
        source_cell = (0, *chosen.source) if source.ndim == 1 else chosen.source
        for k in range(source_grid.shape[grid_dim]):
            line_cell = list(source_cell)
            line_cell[grid_dim] = k
            fills["source"][tuple(line_cell)] = COLOURS["line"]
        fills["source"][source_cell] = fill("source")
        fills["index"][out_cell] = fill("index")
        fills["out"][out_cell] = fill("out")

    widths = [grid.shape[1] for grid in (source_grid, index_grid, output_grid)]
    lefts = [0.0, widths[0] + PANEL_GAP, widths[0] + widths[1] + 2 * PANEL_GAP]
    height = max(grid.shape[0] for grid in (source_grid, index_grid, output_grid))
    shape = "×".join(str(s) for s in source.shape)
    index_shape = "×".join(str(s) for s in positions.shape)
    titles = [
        f"{source_name}  ({shape})",
        f"index  ({index_shape})",
        f"out  ({index_shape})",
    ]
    total_width = lefts[2] + widths[2]
    figure = BookFigure(
        figsize=(CELL_INCHES * (total_width + 1.2), CELL_INCHES * (height + 4.2))
    )
    ax = figure.add_subplot()
    two_d = source.ndim == 2
    for grid, left, title, key in zip(
        (source_grid, index_grid, output_grid),
        lefts,
        titles,
        ("source", "index", "out"),
        strict=True,
    ):
        _draw_grid(ax, grid, left, title, fills[key], row_numbers=two_d)

    if chosen is not None:
        # Arrows leave and enter the grids at their outer edges, in the traced cells'
        # columns, so they never cross a cell; the colours say which row. Each arc
        # keeps a fixed height, below the titles and above the caption.
        out_column, source_column = out_cell[1], source_cell[1]
        index_top = (lefts[1] + out_column + 0.2, 0)
        source_top = (lefts[0] + source_column + 0.8, 0)
        above = 2 * ARC_ABOVE / (index_top[0] - source_top[0])
        _arrow(ax, index_top, source_top, above, COLOURS["position_arrow"])
        source_bottom = (source_top[0], -source_grid.shape[0])
        output_bottom = (lefts[2] + out_column + 0.2, -output_grid.shape[0])
        # The lowest point clears the tallest grid, whichever two grids it joins.
        depth = (source_bottom[1] + output_bottom[1]) / 2 + height + ARC_BELOW
        below = 2 * depth / (output_bottom[0] - source_bottom[0])
        _arrow(ax, source_bottom, output_bottom, below, COLOURS["value_arrow"])
        ax.text(
            total_width / 2,
            -height - ARC_BELOW - 0.5,
            steps.line(chosen),
            ha="center",
            va="top",
            fontsize=11,
            family="monospace",
        )
    ax.set_xlim(-0.9, total_width + 0.3)
    ax.text(
        total_width / 2,
        1.6,
        f"torch.gather({source_name}, dim={dim}, index=index)",
        ha="center",
        va="bottom",
        fontsize=12,
        family="monospace",
    )
    ax.set_ylim(-height - ARC_BELOW - 1.1, 2.2)
    ax.set_aspect("equal")
    ax.axis("off")
    figure.subplots_adjust(left=0, right=1, top=1, bottom=0)
    return figure


def _output_labels(
    picks: list[tuple[tuple[int, int], str]],
) -> dict[tuple[int, int], str]:
    """Map each picked cell to the output coordinates it lands in (cells may repeat)."""
    labels: dict[tuple[int, int], list[str]] = {}
    for cell, label in picks:
        labels.setdefault(cell, []).append(label)
    return {cell: " ".join(names) for cell, names in labels.items()}


def three_ways_on_a_grid(
    grid: Any, shared_columns: Any, per_row_columns: Any, flat_positions: Any
) -> Figure:
    """One 2-D grid drawn three times: index_select's shared columns, gather's per-row
    picks and take's flat positions (chapter 3's map of which op reads what).

    Each read cell is coloured and names the output coordinate it lands in; every cell
    shows its flat position in the top-left corner, the number ``take`` counts with.
    """
    values = to_numpy(grid)
    rows, columns = values.shape
    shared = [int(c) for c in to_numpy(shared_columns).reshape(-1)]
    per_row = to_numpy(per_row_columns)
    flat = [int(p) for p in to_numpy(flat_positions).reshape(-1)]
    shared_picks = [
        ((r, c), f"out[{r},{k}]") for r in range(rows) for k, c in enumerate(shared)
    ]
    per_row_picks = [
        ((r, int(per_row[r, k])), f"out[{r},{k}]") for r, k in np.ndindex(per_row.shape)
    ]
    flat_picks = [
        (divmod(p % values.size, columns), f"out[{k}]") for k, p in enumerate(flat)
    ]
    panels = [
        (
            f"index_select(grid, 1,\n             {shared})",
            "the same columns\nin every row",
            (rows, len(shared)),
            shared_picks,
        ),
        (
            f"gather(grid, 1,\n       {per_row.tolist()})",
            "its own column(s)\nin each row",
            per_row.shape,
            per_row_picks,
        ),
        (
            f"take(grid, {flat})",
            "positions counted\nthrough the flattened grid",
            (len(flat),),
            flat_picks,
        ),
    ]
    text_width = 5.4  # grid units left of each grid, for the call and its description
    width, height = text_width + columns + 0.6, 3 * (rows + 1)
    figure = BookFigure(figsize=(CELL_INCHES * width, CELL_INCHES * height))
    for ax, (call, meaning, out_shape, picks) in zip(
        figure.subplots(3, 1), panels, strict=True
    ):
        labels = _output_labels(picks)
        _draw_grid(ax, values, text_width, "", dict.fromkeys(labels, fill("source")),
                   row_numbers=True)  # fmt: skip
        for r, c in np.ndindex(rows, columns):
            ink = INK[fill("source")] if (r, c) in labels else COLOURS["label"]
            ax.text(text_width + c + 0.06, -r - 0.06, str(r * columns + c), ha="left",
                    va="top", fontsize=7, color=ink)  # fmt: skip
        for (r, c), label in labels.items():
            ax.text(text_width + c + 0.5, -r - 0.84, label, ha="center", va="center",
                    fontsize=7.5, color=INK[fill("source")])  # fmt: skip
        shape = tuple(int(size) for size in out_shape)
        ax.text(-0.6, -0.1, call, ha="left", va="top", fontsize=11, family="monospace")
        ax.text(-0.6, -rows / 2 - 0.1, f"{meaning}\noutput shape {shape}", ha="left",
                va="top", fontsize=11, color=COLOURS["label"])  # fmt: skip
        ax.set_xlim(-0.7, text_width + columns + 0.2)
        ax.set_ylim(-rows - 0.2, 0.8)
        ax.set_aspect("equal")
        ax.axis("off")
    figure.subplots_adjust(left=0, right=1, top=1, bottom=0, hspace=0.05)
    return figure


def batched_selection_diagram(
    features: Any, positions: Any, source_name: str = "features"
) -> Figure:
    """Chapter 2's picture: each batch member's (time, feature) block, its picked time
    rows, and the output rows they fill, in pick order (a row picked twice sends two
    arrows).

    ``features`` is (batch, time, feature) and ``positions`` is (batch, picks); the
    output is what ``gather`` returns with the positions expanded over the features.
    """
    values, picks = to_numpy(features), to_numpy(positions).astype(int)
    if values.ndim != 3 or picks.ndim != 2 or picks.shape[0] != values.shape[0]:
        raise ValueError(
            "batched_selection_diagram needs features of shape (batch, time, feature) "
            f"and positions of shape (batch, picks), not {values.shape} and "
            f"{picks.shape}"
        )
    batch, time, width = values.shape
    out_left = width + 2 * PANEL_GAP
    height = max(time, picks.shape[1])
    figure = BookFigure(
        figsize=(
            CELL_INCHES * (out_left + width + 3.2),
            CELL_INCHES * batch * (height + 2.6),
        )
    )
    for b in range(batch):
        ax = figure.add_subplot(batch, 1, b + 1)
        picked_rows = {int(t) for t in picks[b]}
        source_fills: dict[tuple[int, ...], str] = {
            (t, f): fill("source") for t in picked_rows for f in range(width)
        }
        output = values[b][picks[b]]
        output_fills = dict.fromkeys(np.ndindex(output.shape), fill("out"))
        _draw_grid(ax, values[b], 0, f"{source_name}[{b}]", source_fills, True)
        _draw_grid(ax, output, out_left, f"selected[{b}]", output_fills, True)
        for j, t in enumerate(picks[b]):
            start, end = (width, -t - 0.5), (out_left - 0.45, -j - 0.5)
            _arrow(ax, start, end, 0.0, COLOURS["value_arrow"])
            ax.text(out_left + width + 0.2, -j - 0.5, f"from t={t}", va="center",
                    fontsize=9, color=COLOURS["label"])  # fmt: skip
        ax.text(-0.9, 1.7, f"batch member {b}: positions {picks[b].tolist()}",
                fontsize=11, fontweight="bold", va="bottom")  # fmt: skip
        ax.set_xlim(-0.9, out_left + width + 2.3)
        ax.set_ylim(-height - 0.3, 2.3)
        ax.set_aspect("equal")
        ax.axis("off")
    figure.subplots_adjust(left=0, right=1, top=1, bottom=0, hspace=0.05)
    return figure


def gradient_contributions(
    input: Any, dim: int, index: Any, upstream: Any, source_name: str = "x"
) -> Figure:
    """Heat map of the gradient gather sends to a 2-D input, one cell per source entry.

    Each cell shows the total it receives (large) and the upstream values that make it
    up (small): every output passes its upstream value back to the entry it read.
    """
    source, weights = to_numpy(input), to_numpy(upstream)
    steps = trace(source, dim, index, source_name=source_name)
    parts: dict[tuple[int, ...], list[float]] = {}
    for step in steps:
        parts.setdefault(step.source, []).append(float(weights[step.out]))
    totals = np.zeros(source.shape, dtype=float)
    for at, values in parts.items():
        totals[at] = sum(values)

    rows, columns = map(int, totals.shape)
    figure = BookFigure(figsize=(CELL_INCHES * 1.6 * columns + 1.6, 1.1 * rows + 1.0))
    ax = figure.add_subplot()
    top = max(totals.max(), 1) * 1.25
    image = ax.imshow(totals, cmap="Blues", vmin=0, vmax=top)
    for (r, c), total in np.ndenumerate(totals):
        terms = " + ".join(format_value(v) for v in parts.get((r, c), [])) or "not read"
        ink = "white" if total > 0.55 * top else "black"  # keep contrast on dark cells
        ax.text(c, r - 0.12, format_value(total), ha="center", va="center",
                fontsize=15, weight="bold", color=ink)  # fmt: skip
        ax.text(c, r + 0.25, terms, ha="center", va="center", fontsize=8.5,
                color=ink)  # fmt: skip
    ax.set_xticks(range(columns), [str(c) for c in range(columns)])
    ax.set_yticks(range(rows), [str(r) for r in range(rows)])
    ax.set_xlabel(f"column of {source_name}")
    ax.set_ylabel(f"row of {source_name}")
    ax.set_title(
        f"gradient of {source_name}\n(sum of the weights that read each entry)"
    )
    figure.colorbar(image, ax=ax, fraction=0.04, pad=0.03)
    return figure


def _fault_cells(source_shape: tuple, dim: int, positions: np.ndarray) -> set:
    """Cells of ``positions`` that break a rule; a bad dtype or rank marks them all."""
    grid = _as_grid(positions)
    cells = set(np.ndindex(grid.shape))
    if positions.dtype.kind != "i" or positions.ndim != len(source_shape):
        return cells
    size = source_shape[dim]
    return {
        cell
        for cell in cells
        if not 0 <= grid[cell] < size
        or any(cell[d] >= s for d, s in enumerate(source_shape) if d != dim)
    }


def _entry_text(value: Any, floating: bool) -> str:
    """Floats keep their point (``1.0``) so a float index reads as one."""
    return f"{float(value):.1f}" if floating else format_value(value)


def broken_index_grid(
    input: Any, dim: int, cases: dict[str, Any], source_name: str = "x"
) -> Figure:
    """The input, then each broken index with the entries it is refused for in red.

    Each panel names the rule ``gatherlab.diagnose`` reports for
    ``torch.gather(input, dim, index)``; a wrong dtype or rank marks the whole index.
    """
    from gatherlab.diagnose import diagnose

    source = to_numpy(input)
    dim = wrap_dim(dim, source.ndim)
    panels: list[tuple[str, Any, dict[Any, Any], str]] = [
        (f"{source_name} (the input)", source, {}, "")
    ]
    for name, index in cases.items():
        positions = to_numpy(index)
        rule = diagnose(input, dim, index)[0].rule
        faults = _fault_cells(source.shape, dim, positions)
        floating = positions.dtype.kind == "f"
        texts = np.array([_entry_text(v, floating) for v in positions.reshape(-1)])
        fills = dict.fromkeys(faults, fill("fault"))
        panels.append((name, texts.reshape(positions.shape), fills, rule))
    columns = 3
    rows = -(-len(panels) // columns)
    figure = BookFigure(figsize=(CELL_INCHES * 5.2 * columns, CELL_INCHES * 5.4 * rows))
    for number, (title, values, fills, rule) in enumerate(panels):
        ax = figure.add_subplot(rows, columns, number + 1)
        grid = _as_grid(np.asarray(values))
        _draw_grid(ax, grid, 0, "", fills, row_numbers=True)
        ax.text(grid.shape[1] / 2, 1.0, title, ha="center", va="bottom", fontsize=12,
                fontweight="bold")  # fmt: skip
        if not number:
            ax.text(grid.shape[1] / 2, -grid.shape[0] - 0.35,
                    f"positions along dim {dim}: 0..{source.shape[dim] - 1}",
                    ha="center", va="top", fontsize=10)  # fmt: skip
        elif grid.shape[0] > source.shape[0]:
            # Where the input's rows end: an index row below has no row to read from.
            ax.plot([-0.6, grid.shape[1] + 0.3], [-source.shape[0]] * 2, ls="--",
                    color=COLOURS["label"], lw=1)  # fmt: skip
            ax.text(grid.shape[1] + 0.4, -source.shape[0], f"{source_name} ends",
                    va="center", fontsize=9, color=COLOURS["label"])  # fmt: skip
        if rule:
            ax.text(grid.shape[1] / 2, -grid.shape[0] - 0.35, rule, ha="center",
                    va="top", fontsize=11, family="monospace",
                    color=FAULT_TEXT)  # fmt: skip
        ax.set_xlim(-1.0, 4.2)
        ax.set_ylim(-3.9, 1.7)
        ax.set_aspect("equal")
        ax.axis("off")
    figure.subplots_adjust(left=0, right=1, top=1, bottom=0, wspace=0.05, hspace=0.05)
    return figure


def writes_diagram(
    input: Any, dim: int, index: Any, src: Any, source_name: str = "x"
) -> Figure:
    """The writes of a 1-D or 2-D ``scatter_(dim, index, src)``, collisions marked.

    Index, src and the result side by side: one arrow from each src entry to the
    output entry it writes (``gl.reference.scatter_writes``). An entry written once is
    filled in the output colour and shows its value; an entry written more than once
    is a collision: a ``?`` in the fault colour (``scatter_`` promises none of the
    values), its arrows in that colour too, and the caption lists what competed.
    """
    from gatherlab.reference import scatter_writes

    target, positions, values = map(to_numpy, (input, index, src))
    if target.ndim not in (1, 2):
        raise ValueError(f"writes_diagram draws 1-D or 2-D inputs, not {target.ndim}-D")
    writes = scatter_writes(target, dim, positions, values)
    dim = wrap_dim(dim, target.ndim)
    by_target: dict[tuple[int, ...], list[tuple[tuple[int, ...], Any]]] = {}
    for source_coord, (out_coord, value) in zip(
        np.ndindex(positions.shape), writes, strict=True
    ):
        by_target.setdefault(out_coord, []).append((source_coord, value))

    def cell(coord: tuple[int, ...]) -> tuple[int, int]:
        return (0, coord[0]) if len(coord) == 1 else (coord[0], coord[1])

    index_grid = _as_grid(positions)
    src_grid = _as_grid(values[tuple(slice(0, s) for s in positions.shape)])
    out_grid = _as_grid(target).astype(object)
    fills: dict[str, dict[tuple[int, ...], str]] = {"index": {}, "src": {}, "out": {}}
    collisions = {at: hits for at, hits in by_target.items() if len(hits) > 1}
    for at, hits in by_target.items():
        shown = cell(at)
        if at in collisions:
            out_grid[shown] = "?"
            fills["out"][shown] = fill("fault")
        else:
            out_grid[shown] = hits[0][1]
            fills["out"][shown] = fill("out")
        for source_coord, _ in hits:
            fills["src"][cell(source_coord)] = fill("source")
            fills["index"][cell(source_coord)] = fill("index")

    grids = (index_grid, src_grid, out_grid)
    widths = [grid.shape[1] for grid in grids]
    lefts = [0.0, widths[0] + PANEL_GAP, widths[0] + widths[1] + 2 * PANEL_GAP + 1.0]
    height = max(grid.shape[0] for grid in grids)
    shape = "×".join(str(s) for s in positions.shape)
    titles = [f"index  ({shape})", f"src  ({shape} used)", f"{source_name} after"]
    total_width = lefts[2] + widths[2]
    figure = BookFigure(
        figsize=(CELL_INCHES * (total_width + 1.2), CELL_INCHES * (height + 3.6))
    )
    ax = figure.add_subplot()
    for grid, left, title, key in zip(
        grids, lefts, titles, ("index", "src", "out"), strict=True
    ):
        _draw_grid(ax, grid, left, title, fills[key], row_numbers=target.ndim == 2)
    rows = src_grid.shape[0]
    for at, hits in sorted(by_target.items()):
        colour = FAULT_TEXT if at in collisions else COLOURS["value_arrow"]
        out_row, out_column = cell(at)
        for source_coord, _ in hits:
            row, column = cell(source_coord)
            # Arcs over the grids for the top row, under them for the bottom row (a
            # 1-D src alternates), so that no arrow runs across a cell's value.
            above = row == 0 if rows > 1 else column % 2 == 0
            y_src = 0.0 if above else -float(rows)
            y_out = 0.0 if above else -float(out_grid.shape[0])
            if rows > 2 and 0 < row < rows - 1:
                start = (lefts[1] + column + 0.8, -row - 0.5)
                end = (lefts[2] + out_column + 0.2, -out_row - 0.5)
                _arrow(ax, start, end, 0.0, colour)
                continue
            start = (lefts[1] + column + 0.5, y_src)
            end = (lefts[2] + out_column + 0.5, y_out)
            reach = 2 * (ARC_ABOVE if above else ARC_BELOW) / (end[0] - start[0])
            _arrow(ax, start, end, -reach if above else reach, colour)
    said = [
        f"{source_name}{list(at)} written {len(hits)} times: "
        + ", ".join(format_value(v) for _, v in hits)
        for at, hits in sorted(collisions.items())
    ]
    ax.text(
        total_width / 2,
        -height - ARC_BELOW - 0.4,
        "\n".join(said) or "every entry written at most once: no collision",
        ha="center",
        va="top",
        fontsize=10.5,
        family="monospace",
        color=FAULT_TEXT if said else "black",
    )
    ax.text(
        total_width / 2,
        1.6,
        f"{source_name}.scatter_(dim={dim}, index=index, src=src)",
        ha="center",
        va="bottom",
        fontsize=12,
        family="monospace",
    )
    ax.set_xlim(-0.9, total_width + 0.3)
    ax.set_ylim(-height - ARC_BELOW - 0.9 - 0.45 * max(len(said), 1), 2.2)
    ax.set_aspect("equal")
    ax.axis("off")
    figure.subplots_adjust(left=0, right=1, top=1, bottom=0)
    return figure

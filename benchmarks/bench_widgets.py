"""Time every explorer's controls headlessly: a control change to an updated view.

Run: ``.venv/bin/python benchmarks/bench_widgets.py``. For each explorer it builds the
default widget, then drives each control in turn: the choices (what ``jslink`` does in a
browser, applied in Python) and the edit boxes (alternating two valid texts, so every
change re-renders). It prints the median and 90th percentile per control, the build
time, and the size of the widget state a saved notebook stores (the page's HTML budget).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable

import ipywidgets as widgets
from ipywidgets.embed import dependency_state

from gatherlab.tf import quiet_tensorflow_logs

quiet_tensorflow_logs()

from gatherlab.widgets import EXPLORERS, Explorer  # noqa: E402

# explorer -> edit box description -> two valid texts to alternate between
EDITS = {
    "gather_2d": {"index": ("[[0, 1], [1, 0]]", "[[2, 0], [1, 1]]")},
    "batched_selection": {"positions": ("[[0, 1], [2, 2]]", "[[2, 0], [1, 1]]")},
    "op_comparison": {"index": ("[[0, 1], [1, 0]]", "[[2, 0], [1, 1]]")},
    "error_lab": {"index": ("[[0, 3], [1, 2]]", "[[2, 0], [1, 1]]")},
    "gradient_accumulation": {
        "weights": ("[[1, 1, 1], [2, 2, 2]]", "[[1, 2, 4], [1, 3, 5]]"),
        "index": ("[[0, 1, 2], [2, 1, 0]]", "[[2, 2, 0], [1, 1, 1]]"),
    },
}


def controls(explorer: Explorer) -> list[widgets.Widget]:
    """Every widget in the explorer once, depth first (a Stack may show one widget as
    several of its children)."""
    found, pending = {}, [explorer]
    while pending:
        widget = pending.pop()
        found.setdefault(id(widget), widget)
        pending.extend(reversed(getattr(widget, "children", ())))
    return list(found.values())


def timed(change: Callable[[int], None], repeats: int) -> list[float]:
    """Milliseconds per call of ``change(k)`` for k = 0..repeats-1."""
    times = []
    for k in range(repeats):
        started = time.perf_counter()
        change(k)
        times.append((time.perf_counter() - started) * 1000)
    return times


def state_bytes(explorer: Explorer) -> int:
    """Bytes of widget state a saved notebook keeps for this explorer and its links."""
    state = dependency_state([explorer, *explorer.links], drop_defaults=True)
    return len(json.dumps(state))


def bench(name: str, repeats: int) -> list[tuple[str, list[float]]]:
    started = time.perf_counter()
    explorer = EXPLORERS[name]()
    rows = [("build", [(time.perf_counter() - started) * 1000])]
    choices = [
        w
        for w in controls(explorer)
        if isinstance(w, (widgets.ToggleButtons, widgets.Dropdown))
        and any(link.source[0] is w for link in explorer.links)
    ]
    for choice in choices:

        def pick(k: int, choice: widgets.Widget = choice) -> None:
            choice.index = (choice.index + 1) % len(choice.options)
            explorer.apply_links()

        rows.append((f"choice {choice.description}", timed(pick, repeats)))
    widgets_found = controls(explorer)
    boxes = {w.description: w for w in widgets_found if isinstance(w, widgets.Text)}
    for description, texts in EDITS[name].items():
        box = boxes[description]

        def edit(k: int, box: widgets.Text = box, texts: tuple = texts) -> None:
            box.value = texts[k % 2]

        rows.append((f"edit {description}", timed(edit, repeats)))
    rows.append(("state KB", [state_bytes(explorer) / 1000]))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=30)
    args = parser.parse_args()
    EXPLORERS["op_comparison"]()  # import torch and TensorFlow before timing anything
    print(f"{'explorer':<22} {'control':<18} {'median ms':>10} {'p90 ms':>8}")
    for name in EXPLORERS:
        for control, values in bench(name, args.repeats):
            ordered = sorted(values)
            p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
            median = statistics.median(values)
            print(f"{name:<22} {control:<18} {median:>10.2f} {p90:>8.2f}")


if __name__ == "__main__":
    main()

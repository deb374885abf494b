"""Time the kernel side of every explorer: building it, and answering a typed edit.

Run: ``.venv/bin/python benchmarks/bench_widgets.py``. The view computes gathers,
traces and rule messages in the browser (``benchmarks/bench_pages.py`` times pages);
with a kernel, a typed edit also reaches Python, which adds what only the libraries
compute (TensorFlow's ops, PyTorch's messages, autograd). This prints, per explorer,
the build time, the median and 90th percentile of that reply for two alternating
valid edits, and the size of the widget state a saved notebook stores.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable

from gatherlab.tf import quiet_tensorflow_logs

quiet_tensorflow_logs()

from gatherlab.widgets import EXPLORERS  # noqa: E402

# explorer -> input name -> two valid values to alternate between
EDITS = {
    "gather_2d": {"index": ([[0, 1], [1, 0]], [[2, 0], [1, 1]])},
    "batched_selection": {"positions": ([[0, 1], [2, 2]], [[2, 0], [1, 1]])},
    "op_comparison": {"index": ([[0, 1], [1, 0]], [[2, 0], [1, 1]])},
    "error_lab": {"index": ([[0, 3], [1, 2]], [[2, 0], [1, 1]])},
    "gradient_accumulation": {
        "weights": ([[1.0, 1, 1], [2, 2, 2]], [[1.0, 2, 4], [1, 3, 5]]),
        "index": ([[0, 1, 2], [2, 1, 0]], [[2, 2, 0], [1, 1, 1]]),
    },
}


def timed(change: Callable[[int], None], repeats: int) -> list[float]:
    """Milliseconds per call of ``change(k)`` for k = 0..repeats-1."""
    times = []
    for k in range(repeats):
        started = time.perf_counter()
        change(k)
        times.append((time.perf_counter() - started) * 1000)
    return times


def bench(name: str, repeats: int) -> list[tuple[str, list[float]]]:
    started = time.perf_counter()
    explorer = EXPLORERS[name]()
    rows = [("build", [(time.perf_counter() - started) * 1000])]
    for input_name, values in EDITS[name].items():

        def edit(k: int, input_name: str = input_name, values: tuple = values) -> None:
            explorer.edit(**{input_name: values[k % 2]})

        rows.append((f"edit {input_name}", timed(edit, repeats)))
    state = explorer.get_state()
    rows.append(("state KB", [len(json.dumps(state)) / 1000]))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=30)
    args = parser.parse_args()
    EXPLORERS["op_comparison"]()  # import torch and TensorFlow before timing anything
    print(f"{'explorer':<22} {'measure':<18} {'median ms':>10} {'p90 ms':>8}")
    for name in EXPLORERS:
        for measure, values in bench(name, args.repeats):
            ordered = sorted(values)
            p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
            median = statistics.median(values)
            print(f"{name:<22} {measure:<18} {median:>10.2f} {p90:>8.2f}")


if __name__ == "__main__":
    main()

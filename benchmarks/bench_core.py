"""Time gl.trace and gl.diagnose on a 64x64 input with a 64x64 index.

Widgets call both on every keystroke, so each should take under 5 ms. Run with
``.venv/bin/python benchmarks/bench_core.py``; it prints the median of many repeats.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import torch

import gatherlab as gl

BUDGET_MS = 5.0
SIZE = 64


def median_ms(work: Callable[[], object], repeats: int = 200) -> float:
    """Median wall time of ``work`` in milliseconds, after one warm-up call."""
    work()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def main() -> None:
    generator = torch.Generator().manual_seed(0)
    input = torch.randn(SIZE, SIZE, generator=generator)
    index = torch.randint(0, SIZE, (SIZE, SIZE), generator=generator)
    flat_index = torch.randint(-SIZE * SIZE, SIZE * SIZE, (SIZE, SIZE))
    row = index[0]
    trace = gl.trace(input, 1, index)
    timings = {
        "gl.trace gather": lambda: gl.trace(input, 1, index),
        "gl.trace take_along_dim": lambda: gl.trace(input, 1, index, "take_along_dim"),
        "gl.trace take": lambda: gl.trace(input, None, flat_index, "take"),
        "gl.trace index_select": lambda: gl.trace(input, 1, row, "index_select"),
        "gl.trace numpy input": lambda: gl.trace(input.numpy(), 1, index.numpy()),
        "gl.diagnose gather (valid)": lambda: gl.diagnose(input, 1, index),
        "gl.diagnose gather (out of range)": lambda: gl.diagnose(input, 1, index + 1),
        "gl.diagnose take": lambda: gl.diagnose(input, None, flat_index, "take"),
        "trace[32, 7] on a fresh trace": lambda: gl.trace(input, 1, index)[32, 7],
        "every Step of a fresh trace": lambda: list(gl.trace(input, 1, index)),
        "str(trace) (4096 lines)": lambda: str(trace),
    }
    print(f"{SIZE}x{SIZE} input, {SIZE}x{SIZE} index (median of 200 runs)")
    for name, work in timings.items():
        ms = median_ms(work)
        flag = "" if ms < BUDGET_MS or not name.startswith("gl.") else "  over budget"
        print(f"time: {name:36s} {ms:8.3f} ms{flag}")


if __name__ == "__main__":
    main()

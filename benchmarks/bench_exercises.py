"""Time ``check`` for every registered exercise: each must answer in under 0.5 s.

Run with ``.venv/bin/python benchmarks/bench_exercises.py``. The passing solution is the
slowest answer (it runs every hidden case), so it is what the median times; the first
check of an exercise also builds its hidden cases, and is reported on its own.
TensorFlow is imported before the timings, as the chapters do before their TensorFlow
exercises.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from gatherlab.exercises import EXERCISES, Exercise
from gatherlab.tf import tensorflow

LIMIT_S = 0.5
REPEATS = 15


def seconds(action: Callable[[], Any]) -> float:
    """Wall time of one call."""
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def timings(exercise: Exercise) -> tuple[float, float, float]:
    """First check, median check of the solution, slowest check of a wrong answer."""
    answer = exercise.reference_answer
    first = seconds(lambda: exercise.check(answer))
    median = statistics.median(
        seconds(lambda: exercise.check(answer)) for _ in range(REPEATS)
    )
    wrong = max(
        (
            seconds(lambda a=a: exercise.check(a))
            for a in exercise.wrong_answers().values()
        ),
        default=0.0,
    )
    return first, median, wrong


def main() -> int:
    print(f"loading the registry (every chNN module): {seconds(EXERCISES.load):.3f} s")
    # The chapters import TensorFlow before their TensorFlow exercises; its import is
    # no part of a check.
    print(f"importing TensorFlow: {seconds(tensorflow):.3f} s")
    print(
        f"{'exercise':32} {'kind':10} {'first ms':>9} {'median ms':>10} "
        f"{'worst wrong ms':>15}"
    )
    slow = []
    for exercise_id, exercise in EXERCISES.items():
        first, median, wrong = timings(exercise)
        row = f"{first * 1e3:9.3f} {median * 1e3:10.3f} {wrong * 1e3:15.3f}"
        print(f"{exercise_id:32} {exercise.kind:10} {row}")
        if max(first, median, wrong) >= LIMIT_S:
            slow.append(exercise_id)
    if slow:
        print(f"slower than {LIMIT_S} s: {', '.join(slow)}")
        return 1
    print(f"every check answers in under {LIMIT_S} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

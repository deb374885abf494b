"""Wall-clock timing with its spread: one median is never shown without the range.

``time_call`` times one callable; ``time_candidates`` times several under the same
settings and ``format_timings`` prints them with a ``time:`` prefix, which the nbval
sanitizer replaces (timings vary between runs, so no test compares them).
"""

from __future__ import annotations

import statistics
import timeit
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import cast


@dataclass(frozen=True)
class TimingStats:
    """Seconds per call over ``repeat`` repeats of ``number`` calls each."""

    median: float
    low: float
    high: float
    repeat: int
    number: int

    @property
    def spread(self) -> float:
        """``high / low``: 1.0 means every repeat took the same time."""
        return self.high / self.low if self.low > 0 else float("inf")

    def overlaps(self, other: TimingStats) -> bool:
        """True when the two ranges share a time: their order is not settled."""
        return self.low <= other.high and other.low <= self.high


def time_call(
    fn: Callable[[], object],
    *,
    repeat: int = 7,
    number: int = 20,
    warmup: int = 3,
    sync: Callable[[], object] | None = None,
) -> TimingStats:
    """Median, fastest and slowest seconds per call of ``fn()``, after warm-up calls.

    ``sync`` (e.g. ``torch.cuda.synchronize``) waits for queued device work: it runs
    after the warm-up and once after each repeat's ``number`` calls, inside the timed
    span, so a figure covers the calls' launches and their work, with one wait shared
    by the ``number`` calls rather than one per call.
    """
    if repeat < 1 or number < 1:
        raise ValueError("repeat and number must be at least 1")
    for _ in range(warmup):
        fn()  # the first calls pay for allocations and caches
    if sync is None:
        timed, calls = fn, number
    else:
        sync()

        def timed() -> None:
            for _ in range(number):
                fn()
            sync()

        calls = 1
    runs = timeit.repeat(timed, number=calls, repeat=repeat)
    per_call = [run / number for run in runs]
    return TimingStats(
        median=statistics.median(per_call),
        low=min(per_call),
        high=max(per_call),
        repeat=repeat,
        number=number,
    )


def time_candidates(
    candidates: Mapping[str, Callable[[], object]],
    *,
    repeat: int = 7,
    number: int = 20,
    rounds: int = 1,
    sync: Callable[[], object] | None = None,
) -> dict[str, TimingStats]:
    """``time_call`` for each candidate; with ``rounds > 1`` the candidates take turns.

    Interleaving rounds spreads a burst of load over every candidate instead of
    penalising whichever one was running; a candidate's repeats of all rounds are
    pooled into one ``TimingStats``. ``sync`` is passed to each ``time_call``.
    """
    per_call: dict[str, list[float]] = {name: [] for name in candidates}
    for _ in range(rounds):
        for name, fn in candidates.items():
            stats = time_call(fn, repeat=repeat, number=number, sync=sync)
            per_call[name].extend([stats.low, stats.median, stats.high])
    pooled = {}
    for name, times in per_call.items():
        pooled[name] = TimingStats(
            median=statistics.median(times),
            low=min(times),
            high=max(times),
            repeat=repeat * rounds,
            number=number,
        )
    return pooled


def results_agree(candidates: Mapping[str, Callable[[], object]]) -> bool:
    """True when every candidate returns the same tensor: check this before timing."""
    import torch

    results = [cast(torch.Tensor, candidate()) for candidate in candidates.values()]
    return all(torch.equal(results[0], result) for result in results)


def _duration(seconds: float) -> str:
    """``time: 97.2 µs`` or ``time: 14.4 ms``: the prefix the nbval sanitizer knows."""
    if seconds >= 1e-3:
        return f"time: {seconds * 1e3:.1f} ms"
    return f"time: {seconds * 1e6:.1f} µs"


def format_timings(timings: Mapping[str, TimingStats]) -> str:
    """Two lines per candidate, in the given order: median and range, then overlaps.

    No ranking is printed: the second line names the candidates whose ranges overlap
    this one's, whose order a rerun may reverse.
    """
    width = max(len(name) for name in timings)
    lines = []
    for name, stats in timings.items():
        ties = [
            other
            for other, o_stats in timings.items()
            if other != name and stats.overlaps(o_stats)
        ]
        lines.append(
            f"{name:{width}}  {_duration(stats.median)} median,"
            f" from {_duration(stats.low)} to {_duration(stats.high)}"
        )
        lines.append(f"{'':{width}}  overlaps: {', '.join(ties) if ties else 'none'}")
    return "\n".join(lines)

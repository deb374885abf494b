"""gl.timing: medians come with their range, and no ranking is claimed from overlaps."""

from __future__ import annotations

import re

import pytest
import torch

from gatherlab.timing import (
    TimingStats,
    format_timings,
    results_agree,
    time_call,
    time_candidates,
)


def test_time_call_runs_warmup_then_repeat_times_number_calls():
    calls = []
    stats = time_call(lambda: calls.append(1), repeat=4, number=5, warmup=2)
    assert len(calls) == 2 + 4 * 5
    assert (stats.repeat, stats.number) == (4, 5)
    assert 0 < stats.low <= stats.median <= stats.high
    assert stats.spread >= 1.0


def test_time_call_with_sync_waits_once_per_repeat_not_once_per_call():
    events = []
    stats = time_call(
        lambda: events.append("call"),
        repeat=3,
        number=4,
        warmup=2,
        sync=lambda: events.append("sync"),
    )
    batch = ["call"] * 4 + ["sync"]
    assert events == ["call", "call", "sync"] + batch * 3
    assert (stats.repeat, stats.number) == (3, 4)


def test_time_candidates_passes_sync_to_every_candidate():
    waits = []
    time_candidates(
        {"a": lambda: None, "b": lambda: None},
        repeat=2,
        number=3,
        sync=lambda: waits.append(1),
    )
    assert len(waits) == 2 * (1 + 2)  # per candidate: after warm-up, then per repeat


def test_time_call_refuses_zero_repeats():
    with pytest.raises(ValueError, match="at least 1"):
        time_call(lambda: None, repeat=0, number=1)


def test_time_candidates_pools_every_round_of_every_candidate():
    counts = {"a": 0, "b": 0}

    def bump(name):
        def run():
            counts[name] += 1

        return run

    candidates = {name: bump(name) for name in counts}
    timings = time_candidates(candidates, repeat=2, number=3, rounds=2)
    assert list(timings) == ["a", "b"]
    # each round: 3 warm-up calls and 2 repeats of 3 calls
    assert counts == {"a": 2 * (3 + 6), "b": 2 * (3 + 6)}
    assert timings["a"].repeat == 4


def test_overlapping_ranges_are_named_and_separate_ones_are_not():
    fast = TimingStats(median=1e-6, low=0.9e-6, high=1.2e-6, repeat=7, number=20)
    close = TimingStats(median=1.1e-6, low=1.0e-6, high=1.5e-6, repeat=7, number=20)
    slow = TimingStats(median=9e-6, low=8e-6, high=10e-6, repeat=7, number=20)
    assert fast.overlaps(close) and close.overlaps(fast)
    assert not fast.overlaps(slow)
    lines = format_timings({"fast": fast, "close": close, "slow": slow}).splitlines()
    assert lines[0].startswith("fast ") and lines[1].endswith("overlaps: close")
    assert lines[5].endswith("overlaps: none")
    # every figure carries the "time:" prefix that tests/sanitize.cfg replaces
    assert re.findall(r"time: [0-9.]+ .s", lines[0]) == [
        "time: 1.0 µs",
        "time: 0.9 µs",
        "time: 1.2 µs",
    ]
    assert "time: 10.0 ms" in format_timings(
        {"slow": TimingStats(9e-3, 8e-3, 1e-2, 7, 1)}
    )
    assert "x)" not in "\n".join(lines)  # no ratio to a "fastest" from one run


def test_results_agree_only_when_every_candidate_returns_the_same_tensor():
    x = torch.tensor([[10, 11, 12], [20, 21, 22]])
    cols = torch.tensor([2, 0])
    same = {
        "index_select": lambda: torch.index_select(x, 1, cols),
        "x[:, cols]": lambda: x[:, cols],
    }
    assert results_agree(same)
    assert not results_agree({**same, "one row": lambda: x[:1, cols]})

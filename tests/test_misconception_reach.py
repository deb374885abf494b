"""Each misconception belongs to an op's semantics, not to an exercise: it reaches every
exercise whose solution uses its op (a read for the reading family, a write for the
writing family, any value for the value family), with no per-exercise list.

``reach()`` runs every misconception on every exercise of its family and records which
of them it reproduces there (some variant that differs from the expected value on the
exercise's cases); ``pytest -s`` prints the table.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from gatherlab.exercises import EXERCISES
from gatherlab.exercises.misconceptions import LIBRARY, Raised, Search

CASES = 8  # the visible example and the first hidden cases (fast), then invalid ones


def _search(exercise_id: str) -> Search | None:
    search = getattr(EXERCISES[exercise_id], "search", None)
    if search is None:
        return None
    invalid = [case for case in search.cases if isinstance(case.expected, Raised)]
    return Search(search.cases[:CASES] + invalid)


def _families(search: Search) -> set[str]:
    found = {"value"}
    if any(case.call is not None for case in search.cases):
        found.add("read")
    if any(case.write is not None for case in search.cases):
        found.add("write")
    return found


def reach() -> dict[str, list[str]]:
    """Misconception id -> the exercises (of its family) where some variant of it
    changes the outcome (an answer it would name)."""
    table: dict[str, list[str]] = {item.id: [] for item in LIBRARY}
    for exercise_id in EXERCISES:
        search = _search(exercise_id)
        if search is None:
            continue
        families = _families(search)
        reached = {found.id for found in search.candidates(pairs=False)}
        for item in LIBRARY:
            if item.family in families and item.id in reached:
                table[item.id].append(exercise_id)
    return table


@pytest.fixture(scope="module")
def table() -> dict[str, list[str]]:
    found = reach()
    for name, exercises in found.items():
        print(f"{name}: {', '.join(exercises) or '-'}")
    return found


def test_every_family_is_one_of_read_write_or_value():
    assert {item.family for item in LIBRARY} == {"read", "write", "value"}


def test_every_misconception_reaches_an_exercise_of_its_op(table):
    assert [name for name, exercises in table.items() if not exercises] == []


def test_a_kept_write_reaches_every_exercise_whose_write_adds_or_averages(table):
    # `sums[labels] += losses` where repeats add up, and the same `+=` for a mean's
    # sums and counts (pytorch#59511 on 06.segment_means): one definition, both
    assert {"06.class_loss_sums", "06.segment_means"} <= set(table["kept-one-write"])
    assert "06.predict_scatter_nd" in table["kept-one-write"]


def test_the_reading_family_reaches_the_torch_and_tensorflow_spellings(table):
    # tf.gather_nd / tf.gather exercises are explained by the same reads as torch's
    assert {"02.select_steps", "02.tf_select_steps"} <= set(table["off-by-one"])


def test_the_library_is_the_same_whatever_was_imported_first():
    # it was 37 entries or 52 depending on whether chapter 6 had been imported
    code = (
        "import importlib, sys\n"
        "importlib.import_module(sys.argv[1])\n"
        "from gatherlab.exercises.misconceptions import LIBRARY\n"
        "print(','.join(m.id for m in LIBRARY))\n"
    )
    seen = set()
    for first in (
        "gatherlab.exercises.misconceptions",
        "gatherlab.exercises.writes",
        "gatherlab.exercises.ch06",
        "gatherlab.exercises.implement",
    ):
        result = subprocess.run(
            [sys.executable, "-c", code, first],
            capture_output=True,
            text=True,
            check=True,
        )
        seen.add(result.stdout.strip())
    assert len(seen) == 1
    assert len(seen.pop().split(",")) == len(LIBRARY)

"""Exercises answered in the built book, with no kernel: the page's payload contract.

Every stub carries one hidden ``[data-exercise]`` block (``gatherlab/exercises/page.py``
documents its JSON) with the exercise's cases, each misconception's outputs and the
verdicts, which the page renders from ``gatherlab/exercises/messages.json`` as the
notebook does. ``tests/js/page_exercise_cases.json.gz`` (``tools/page_cases.py``, ``make
regen``) holds every payload and answers with Python's verdicts, for the page's own
test; here: that file is current, and every payload keeps the contract.
"""

from __future__ import annotations

import gzip
import html
import json
import re

import pytest

import gatherlab as gl
from gatherlab.exercises import EXERCISES
from gatherlab.exercises.page import payload, typed_answer, verdict_for
from gatherlab.exercises.verdict import PLACEHOLDER, messages
from tools import page_cases

PAYLOAD = re.compile(r"data-payload='([^']*)'")
KINDS = {"implement", "fix", "predict", "raises", "choose"}


def stub_answer(exercise_id: str) -> object:
    """What a committed notebook checks: ``...``, or a function that raises."""
    if EXERCISES[exercise_id].kind == "implement":

        def stub(*args: object) -> object:
            raise NotImplementedError

        return stub
    return ...


def stored() -> dict:
    return json.loads(gzip.decompress(page_cases.CASES_FILE.read_bytes()))


def test_the_stored_cases_are_what_python_says_now() -> None:
    """Regenerate with `make regen` (after feedback changes)."""
    data = page_cases.build()
    assert len(data["cases"]) >= 1000
    assert page_cases.dumped(data) == page_cases.dumped(stored()), (
        "tests/js/page_exercise_cases.json.gz is stale: run `make regen`"
    )


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("prediction = [[1, 2], [3, 4]]", [[1, 2], [3, 4]]),
        ("  ((1, 2),)  # a guess", ((1, 2),)),
        ("B, D", "B, D"),
        ("['B', 'D']", ["B", "D"]),
        ("none", "none"),
        ("...", ...),
        ("-(1)", -1),
        ("--1", "--1"),
        ("{1: 2}", "{1: 2}"),
        ("9007199254740993", "9007199254740993"),
        ("[1] \\", "[1] \\"),
    ],
)
def test_typed_text_reads_as_python_reads_it(text: str, value: object) -> None:
    assert typed_answer(text) == value
    assert type(typed_answer(text)) is type(value)


def _verdicts(data: dict) -> list[dict]:
    found = [data["passed"], *data["verdicts"].values()]
    found += list(data.get("misconceptions", {}).values())
    found += [choice["verdict"] for choice in data.get("choices", [])]
    return found


@pytest.mark.parametrize("exercise_id", list(EXERCISES))
def test_each_payload_keeps_the_contract(exercise_id: str) -> None:
    data = payload(EXERCISES[exercise_id])
    assert data["id"] == exercise_id and data["kind"] in KINDS
    for verdict in _verdicts(data):
        assert set(verdict) == {"passed", "template", "fields", "misconception"}
        wanted = set(PLACEHOLDER.findall(messages()[verdict["template"]]))
        assert set(verdict["fields"]) == wanted
        assert all(isinstance(v, str) for v in verdict["fields"].values())
    assert data["passed"]["passed"] is True
    if data["kind"] in ("raises", "choose"):
        assert data["choices"]
        return
    assert data["cases"] and data["cases"][0]["visible"]
    for case in data["cases"]:
        assert {"name", "visible", "inputs", "expected", "reads"} <= set(case)
        for entry in case["misconceptions"]:
            assert entry["id"] in data["misconceptions"]
            assert set(entry["output"]) & {
                "data",
                "error",
                "not_expected",
                "any_of_shape",
            }
        ids = [entry["id"] for entry in case["misconceptions"]]
        assert ids == [entry["id"] for entry in data["cases"][0]["misconceptions"]]
    assert set(data["fallback"]) == {"template", "reads_template", "shape_template"}


@pytest.mark.parametrize("exercise_id", list(EXERCISES))
def test_each_stub_shows_its_payload_once(exercise_id: str) -> None:
    """A stub's HTML carries its payload; a solution's passing check adds nothing."""
    shown = gl.exercises.check(exercise_id, stub_answer(exercise_id))._repr_html_()
    assert shown.count("data-exercise=") == 1
    assert f'data-exercise="{exercise_id}"' in shown and " hidden>" in shown
    carried = json.loads(html.unescape(PAYLOAD.search(shown).group(1)))
    assert carried == stored()["payloads"][exercise_id]
    solution_html = gl.exercises.show_solution(exercise_id)._repr_html_()
    assert "data-exercise" not in solution_html


def test_the_python_side_of_a_page_case_is_the_notebooks_verdict() -> None:
    exercise = EXERCISES["01.predict_columns"]
    verdict, words = verdict_for("01.predict_columns", [[11, 11, 10], [22, 20, 22]])
    assert verdict["passed"] and words == exercise.check(exercise.solution).message
    verdict, words = verdict_for("03.predict_shared_rows", [[11, 11, 10], [21, 21, 20]])
    assert verdict["misconception"] == "other-dim"
    assert (
        words
        == gl.exercises.check(
            "03.predict_shared_rows", [[11, 11, 10], [21, 21, 20]]
        ).message
    )

"""Predict exercises answered in the built book, with no kernel.

The stub of every predict and which-calls-raise exercise carries one hidden
``[data-exercise]`` block (``gatherlab/exercises/page.py``) that
``book/static/exercise_check.js`` turns into an answer box; other exercises carry a note
that their check needs a live notebook. The agreement of the script with Python is
``tests/js/page_exercises.test.mjs`` (Node, on its ``page_exercise_cases.json``); here:
that file is current, and in Chromium (other hosts blocked) each chapter page answers a
wrong prediction with Python's coordinate feedback and a right one with a pass, from the
keyboard too. Screenshots land in ``_build/screenshots`` (``$BROWSER_TEST_OUTPUT``).
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import numpy as np
import pytest
from playwright.sync_api import Browser, Locator, Page, expect

import gatherlab as gl
from gatherlab._arrays import to_numpy
from gatherlab.exercises import EXERCISES
from gatherlab.exercises.page import payload, typed_answer
from tests import page_cases
from tests.chromium import needs_chromium

ROOT = Path(__file__).resolve().parent.parent

PAGE_IDS = [i for i in EXERCISES if payload(EXERCISES[i]) is not None]
LIVE_IDS = [i for i in EXERCISES if i not in PAGE_IDS]
CHAPTERS = sorted(
    f"notebooks/{path.stem}" for path in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")
)
PAYLOAD = re.compile(r'data-payload="([^"]*)"')
BOX_NAMES = {  # the answer box's label, by kind (exercise_check.js, ASK)
    "predict": "Your prediction",
    "predict_raises": "Calls that raise",
    "choose": "The true statement",
}


def chapter_of(exercise_id: str) -> str:
    return next(c for c in CHAPTERS if c.split("/")[-1][:2] == exercise_id[:2])


def stub_answer(exercise_id: str) -> object:
    """What a committed notebook checks: ``...``, or a function that raises."""
    if EXERCISES[exercise_id].kind == "implement":

        def stub(*args: object) -> object:
            raise NotImplementedError

        return stub
    return ...


# ---------------------------------------------------------------- without a browser


def test_the_stored_cases_are_what_python_says_now() -> None:
    """Regenerate: `.venv/bin/python -m tests.page_cases` (after feedback changes)."""
    data = page_cases.build()
    stored = page_cases.CASES_FILE.read_text(encoding="utf-8")
    assert len(data["cases"]) >= 1000
    assert page_cases.dumped(data) == stored, (
        "tests/js/page_exercise_cases.json is stale: run `.venv/bin/python -m "
        "tests.page_cases`, then `node --test tests/js/`"
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


@pytest.mark.parametrize("exercise_id", list(EXERCISES))
def test_each_stub_shows_one_block_or_one_note(exercise_id: str) -> None:
    """Predict stubs carry their data once; the others say they need a live notebook;
    a solution's passing check adds nothing (so each exercise has exactly one block)."""
    data = payload(EXERCISES[exercise_id])  # raises here if the payload cannot be built
    shown = gl.exercises.check(exercise_id, stub_answer(exercise_id))._repr_html_()
    blocks = shown.count("data-exercise=")
    notes = shown.count("data-exercise-note=")
    if data is not None:
        assert (blocks, notes) == (1, 0)
        assert f'data-exercise="{exercise_id}"' in shown
        assert " hidden>" in shown  # inert where no script runs (JupyterLab)
    else:
        assert (blocks, notes) == (0, 1)
        assert "checked in a live notebook" in shown
    solution_html = gl.exercises.show_solution(exercise_id)._repr_html_()
    assert "data-exercise" not in solution_html


# ---------------------------------------------------------------- in the browser


def wrong_and_right(exercise_id: str) -> tuple[str, str]:
    """A wrong answer with coordinate (or per-call, per-statement) feedback, and the
    right one."""
    exercise = EXERCISES[exercise_id]
    data = payload(exercise)
    if data["kind"] == "predict":
        expected = to_numpy(exercise.solution)
        wrong = expected.astype(np.float64 if data["float"] else np.int64)
        wrong.reshape(-1)[wrong.size // 2] += 1
        return repr(wrong.tolist()), repr(expected.tolist())
    right = exercise.reference_answer  # the calls that raise, or the true statement
    right = [right] if isinstance(right, str) else list(right)
    other = [label for label in data["labels"] if label not in right][:1]
    return ", ".join(right[1:] + other), repr(right)


def python_says(exercise_id: str, text: str) -> gl.exercises.Result:
    return EXERCISES[exercise_id].check(typed_answer(text))


def contrast(locator: Locator, foreground: str, background: str) -> float:
    """WCAG contrast ratio of two computed colours of an element."""
    colours = locator.evaluate(
        """(element, names) => names.map(name => getComputedStyle(element)[name]
            .match(/[0-9.]+/g).slice(0, 3).map(Number))""",
        [foreground, background],
    )

    def luminance(rgb: list[float]) -> float:
        channels = [c / 255 for c in rgb]
        linear = [
            c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
            for c in channels
        ]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    high, low = sorted((luminance(c) for c in colours), reverse=True)
    return (high + 0.05) / (low + 0.05)


def check_exercise(page: Page, exercise_id: str, shots: Path) -> None:
    """A wrong answer (typed, Enter) gets Python's feedback; the right one (Tab to
    Check, Space) passes."""
    block = page.locator(f'[data-exercise="{exercise_id}"]')
    expect(block).to_be_visible()
    box = block.get_by_role("textbox")
    named = BOX_NAMES[payload(EXERCISES[exercise_id])["kind"]]
    expect(box).to_have_accessible_name(f"{named} ({exercise_id})")
    feedback = block.get_by_role("status")
    wrong, right = wrong_and_right(exercise_id)
    expected = python_says(exercise_id, wrong)
    assert not expected.passed
    box.fill(wrong)
    box.press("Enter")
    expect(feedback).to_contain_text(f"{exercise_id}: not yet.")
    expect(feedback).to_contain_text(expected.message)
    for line in expected.details:
        expect(feedback.locator("pre")).to_contain_text(line)
    task = block.locator("xpath=ancestor::div[contains(@class, 'exercise')][1]")
    task.screenshot(path=shots / f"page-check-{exercise_id}-wrong.png")
    box.fill(right)
    box.press("Tab")
    check_button = block.get_by_role("button", name=f"Check {exercise_id}")
    expect(check_button).to_be_focused()
    page.keyboard.press("Space")
    expect(feedback).to_contain_text(f"{exercise_id}: passed.")
    expect(feedback).to_contain_text(python_says(exercise_id, right).message)
    assert contrast(check_button, "color", "backgroundColor") >= 4.5
    task.screenshot(path=shots / f"page-check-{exercise_id}-right.png")


def check_chapter(browser: Browser, base: str, chapter: str, shots: Path) -> None:
    """Open a chapter with other hosts blocked; check each exercise and note."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    off_host, errors = [], []
    page.route(
        "**/*",
        lambda route: (
            route.continue_()
            if route.request.url.startswith(base)
            else (off_host.append(route.request.url), route.abort())
        ),
    )
    page.on("pageerror", lambda error: errors.append(error.message))
    try:
        page.goto(f"{base}{chapter}.html", wait_until="load")
        mine = [i for i in PAGE_IDS if chapter_of(i) == chapter]
        found = page.locator("[data-exercise]").evaluate_all(
            "blocks => blocks.map(block => block.dataset.exercise)"
        )
        assert sorted(found) == sorted(mine)  # one block per exercise
        for exercise_id in mine:
            check_exercise(page, exercise_id, shots)
        # the solutions stay in their closed dropdowns
        expect(page.locator(".solution.dropdown .gl-solution").first).to_be_hidden()
        assert not any(s.is_visible() for s in page.locator(".gl-solution").all())
        for exercise_id in (i for i in LIVE_IDS if chapter_of(i) == chapter):
            note = page.locator(f'[data-exercise-note="{exercise_id}"]')
            expect(note).to_be_visible()
            expect(note).to_contain_text("checked in a live notebook")
        assert off_host == []
        assert errors == []
    finally:
        context.close()


@needs_chromium
@pytest.mark.parametrize("chapter", CHAPTERS)
def test_predictions_are_checked_in_the_page(
    browser: Browser, site: str, chapter: str, output_dir: Path
) -> None:
    """Every predict exercise has one answer box; a wrong answer gets Python's
    feedback (typed, Enter), the right one passes (Tab to Check, Space)."""
    check_chapter(browser, site, chapter, output_dir)


def test_the_node_suite_checks_the_data_the_stubs_carry() -> None:
    """The payloads in the cases file are those the stub outputs put in the page."""
    stored = json.loads(page_cases.CASES_FILE.read_text(encoding="utf-8"))
    assert sorted(stored["payloads"]) == sorted(PAGE_IDS)
    for exercise_id in PAGE_IDS:
        shown = gl.exercises.check(exercise_id, ...)._repr_html_()
        carried = html.unescape(PAYLOAD.search(shown).group(1))
        assert json.loads(carried) == stored["payloads"][exercise_id]

"""Every exercise answered in the built book, with no kernel.

Each exercise's stub output carries one empty ``[data-exercise]`` marker, which the
book's build gives its page payload (cases, expected outputs, misconceptions' outputs
and verdicts), computed from the package;
``gatherlab/browser/checker/exercises.mjs`` turns it into an answer box (a code box for
implement and fix exercises, whose lines the safe evaluator ``evaluator.mjs`` runs on
every case; radio buttons for choose exercises) and shows the verdict. Node checks the
matching (``tests/js/page_exercises.test.mjs``) and the evaluator against torch and
TensorFlow (``tests/js/evaluator.test.mjs``), ``tests/test_page_cases.py`` the
Python and JavaScript readers of typed answers; here, in Chromium (other hosts
blocked), every exercise of every chapter takes an answer: a wrong one gets a verdict,
the solution passes, and answers and verdicts stay across a reload until reset.

The payloads are ``gatherlab/exercises/page.py``'s (each carries the templates it
uses); ``tools/cases/page_cases.py`` writes them with answers and Python's words into
``tests/js/generated/page_exercise_cases.json.gz`` in each test run. The book's build
writes them into ``_static/exercises/ID.json`` (tools/build/lean_pages.py), fetched on a
box's first use (tests/test_site.py checks the files). Screenshots land in
``$BROWSER_TEST_OUTPUT`` (default ``_build/screenshots``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from gatherlab.exercises import EXERCISES
from tests.chromium import needs_chromium
from tests.conftest import served
from tests.test_page_cases import ANSWERS, node_judges, on_page, rendered

ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = sorted(  # the chapters with exercises
    f"notebooks/{path.stem}"
    for path in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")
    if any(exercise_id[:2] == path.stem[:2] for exercise_id in EXERCISES)
)
BOX_NAMES = {  # exercises.mjs, ASK
    "implement": "Your function's body",
    "fix": "Your corrected index",
    "predict": "Your prediction",
    "raises": "Calls that raise",
    "choose": "The true statement",
}
SHOT_EXERCISES = (
    "01.pick_columns",
    "02.select_steps",
    "01.fix_shared_columns",
    "02.fix_beam_rows",
)


def chapter_of(exercise_id: str) -> str:
    return next(c for c in CHAPTERS if c.split("/")[-1][:2] == exercise_id[:2])


# ---------------------------------------------------------------- in the browser


def page_payloads(built: Path) -> dict[str, Any]:
    """The payloads the built book's exercises fetch: tools/build/lean_pages.py wrote
    each into ``_static/exercises/ID.json``."""
    folder = built / "_static" / "exercises"
    return {
        exercise_id: json.loads((folder / f"{exercise_id}.json").read_text())
        for exercise_id in EXERCISES
    }


@pytest.fixture(scope="module")
def page_site(built_book: Path) -> Iterator[str]:
    yield from served(built_book)


@pytest.fixture(scope="module")
def page_data(built_book: Path) -> dict[str, Any]:
    """The payloads the chapter pages fetch."""
    return {"payloads": page_payloads(built_book)}


@pytest.fixture(scope="module")
def said(page_data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return node_judges(ANSWERS, page_data["payloads"])


def answer(block: Locator, kind: str, text: str) -> None:
    """Type (or pick) an answer and check it, as a learner does."""
    if kind == "choose":
        # the radio's name is its label, "B." (the statements are the notebook's)
        label = re.compile(rf"^{re.escape(text)}\.(\s|$)")
        block.get_by_role("radio", name=label).check()
        block.get_by_role("button", name=re.compile("^Check ")).click()
        return
    box = block.get_by_role("textbox")
    box.fill(text)
    if kind in ("implement", "fix"):
        box.press("Control+Enter")
    else:
        box.press("Enter")


PAGE_IDS = list(EXERCISES)


def shows_both_steps(feedback: Locator, said: dict[str, Any]) -> None:
    """The verdict's first step in the feedback; its fix, if it has one, folded under
    "Show how to fix it" and shown when that is clicked (exercises.mjs's show)."""
    expect(feedback).to_contain_text(on_page(said["mistake"]))
    fold = feedback.locator("details.gl-ex-fix")
    if not said["fix"]:
        expect(fold).to_have_count(0)
        return
    fix = fold.locator("p")
    expect(fix).to_be_hidden()
    fold.get_by_text("Show how to fix it").click()
    expect(fix).to_be_visible()
    expect(fix).to_have_text(on_page(said["fix"]))


def check_exercise(
    page: Page, exercise_id: str, payload: dict[str, Any], output_dir: Path
) -> None:
    """On an open chapter: a wrong answer gets "not yet", the solution the payload's
    pass in its words (tests/test_site.py does this from the unzipped site)."""
    block = page.locator(f'[data-exercise="{exercise_id}"]')
    feedback = block.get_by_role("status")
    answer(block, payload["kind"], ANSWERS[exercise_id]["wrong"])
    expect(feedback).to_contain_text(f"{exercise_id}: not yet.")
    answer(block, payload["kind"], ANSWERS[exercise_id]["right"])
    expect(feedback).to_contain_text(f"{exercise_id}: passed.")
    expect(feedback).to_contain_text(
        on_page(rendered(payload["passed"], payload["templates"]))
    )
    block.screenshot(path=output_dir / f"exercise-{exercise_id}-from-disk.png")


def open_chapter(
    browser: Browser, base: str, chapter: str, **context: Any
) -> tuple[Page, list[str], list[str]]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, **context)
    page = ctx.new_page()
    off_host: list[str] = []
    errors: list[str] = []
    page.route(
        "**/*",
        lambda route: (
            route.continue_()
            if route.request.url.startswith(base)
            else (off_host.append(route.request.url), route.abort())
        ),
    )
    page.on("pageerror", lambda error: errors.append(error.message))
    page.goto(f"{base}{chapter}.html", wait_until="load")
    return page, off_host, errors


@needs_chromium
@pytest.mark.parametrize("chapter", CHAPTERS)
def test_every_exercise_is_answered_in_the_page(
    browser: Browser,
    page_site: str,
    chapter: str,
    said: dict[str, dict[str, Any]],
    page_data: dict[str, Any],
) -> None:
    """Every exercise of the chapter takes an answer, with no kernel and no other host:
    a wrong one gets its verdict (not a pass; its fix folded until asked for), the
    solution passes; the stored "not attempted" block gives way to the page's state;
    answers, verdicts and the chapter's count stay across a reload, and the reset
    clears them."""
    page, off_host, errors = open_chapter(browser, page_site, chapter)
    try:
        mine = [i for i in EXERCISES if chapter_of(i) == chapter]
        found = page.locator("[data-exercise]").evaluate_all(
            "blocks => blocks.map(block => block.dataset.exercise)"
        )
        assert sorted(found) == sorted(mine)
        count = page.locator(".gl-ex-count")
        expect(count).to_have_text(f"0 of {len(mine)} exercises checked on this page")
        for exercise_id in mine:
            payload = page_data["payloads"][exercise_id]
            kind = payload["kind"]
            block = page.locator(f'[data-exercise="{exercise_id}"]')
            expect(block).to_be_visible()
            stored = block.locator("xpath=..").locator(".gl-check-not-attempted-yet")
            expect(stored).to_have_count(1)
            expect(stored).to_be_hidden()
            if kind == "choose":
                expect(block.get_by_role("radio")).to_have_count(
                    len(payload["choices"])
                )
            else:
                expect(block.get_by_role("textbox")).to_have_accessible_name(
                    f"{BOX_NAMES[kind]} ({exercise_id})"
                )
            feedback = block.get_by_role("status")
            wrong, right = ANSWERS[exercise_id]["wrong"], ANSWERS[exercise_id]["right"]
            assert not said[exercise_id]["wrong"]["passed"]
            answer(block, kind, wrong)
            expect(feedback).to_contain_text(f"{exercise_id}: not yet.")
            shows_both_steps(feedback, said[exercise_id]["wrong"])
            answer(block, kind, right)
            expect(feedback).to_contain_text(f"{exercise_id}: passed.")
            expect(feedback).to_contain_text(
                on_page(rendered(payload["passed"], payload["templates"]))
            )
        expect(count).to_have_text(
            f"{len(mine)} of {len(mine)} exercises checked on this page"
        )
        page.reload(wait_until="load")
        expect(count).to_have_text(
            f"{len(mine)} of {len(mine)} exercises checked on this page"
        )
        first = page.locator(f'[data-exercise="{mine[0]}"]')
        expect(first.get_by_role("status")).to_contain_text(f"{mine[0]}: passed.")
        page.get_by_role("button", name="Reset my answers").click()
        expect(count).to_have_text(f"0 of {len(mine)} exercises checked on this page")
        expect(first.locator(".gl-ex-feedback")).to_be_empty()
        page.reload(wait_until="load")
        expect(page.locator(".gl-ex-count")).to_have_text(
            f"0 of {len(mine)} exercises checked on this page"
        )
        assert off_host == []
        assert errors == []
    finally:
        page.context.close()


def contrast(locator: Locator) -> float:
    """WCAG contrast ratio of an element's text colour and the background it is drawn
    on: the backgrounds of the element and its ancestors, blended by their alpha."""
    colours = locator.evaluate(
        """element => {
            const rgba = (text) => {
                const v = text.match(/[0-9.]+/g).map(Number);
                return v.length === 4 ? v : [...v, 1];
            };
            const layers = [];
            for (let at = element; at; at = at.parentElement) {
                const layer = rgba(getComputedStyle(at).backgroundColor);
                layers.push(layer);
                if (layer[3] === 1) break;
            }
            let back = [255, 255, 255];
            for (const [r, g, b, a] of layers.reverse())
                back = [r, g, b].map((c, k) => a * c + (1 - a) * back[k]);
            return [rgba(getComputedStyle(element).color).slice(0, 3), back];
        }"""
    )

    def luminance(rgb: list[float]) -> float:
        linear = [
            c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
            for c in (v / 255 for v in rgb)
        ]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    high, low = sorted((luminance(c) for c in colours), reverse=True)
    return (high + 0.05) / (low + 0.05)


@needs_chromium
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [1280, 390])
def test_code_boxes_read_well_in_both_schemes_and_on_phones(
    browser: Browser,
    page_site: str,
    scheme: str,
    width: int,
    output_dir: Path,
    said: dict[str, dict[str, Any]],
    page_data: dict[str, Any],
) -> None:
    """Two implement and two fix exercises, wrong then right: 16px text, 44px controls,
    readable buttons, nothing wider than the screen; screenshots of each. Each chapter
    is opened once for its exercises (they do not touch each other's boxes)."""
    chapters = {chapter_of(exercise_id) for exercise_id in SHOT_EXERCISES}
    for chapter in sorted(chapters):
        page, _, _ = open_chapter(browser, page_site, chapter, color_scheme=scheme)
        try:
            page.set_viewport_size({"width": width, "height": 900})
            for exercise_id in SHOT_EXERCISES:
                if chapter_of(exercise_id) == chapter:
                    payload = page_data["payloads"][exercise_id]
                    check_code_box(
                        page, exercise_id, scheme, width, output_dir, said, payload
                    )
        finally:
            page.context.close()
    page, _, _ = open_chapter(
        browser, page_site, chapter_of("04.device_mismatch"), color_scheme=scheme
    )
    try:  # the radio buttons of a choose exercise
        page.set_viewport_size({"width": width, "height": 900})
        block = page.locator('[data-exercise="04.device_mismatch"]')
        for choice in block.locator(".gl-ex-choice").all():
            assert choice.bounding_box()["height"] >= 44
            assert contrast(choice) >= 4.5
        block.screenshot(
            path=output_dir / f"exercise-04.device_mismatch-{scheme}-{width}.png"
        )
    finally:
        page.context.close()


def check_code_box(
    page: Page,
    exercise_id: str,
    scheme: str,
    width: int,
    output_dir: Path,
    said: dict[str, dict[str, Any]],
    payload: dict[str, Any],
) -> None:
    """One code box on an open chapter, wrong then right (the test above)."""
    block = page.locator(f'[data-exercise="{exercise_id}"]')
    box = block.get_by_role("textbox")
    assert box.evaluate("e => getComputedStyle(e).fontSize") == "16px"
    check = block.get_by_role("button", name=f"Check {exercise_id}")
    assert check.bounding_box()["height"] >= 44
    assert contrast(check) >= 4.5
    assert contrast(box) >= 4.5
    helps = block.locator(".gl-ex-help")  # how to answer, what Python checks
    assert helps.count() == 2
    for k in range(helps.count()):
        assert contrast(helps.nth(k)) >= 4.5
    task = block.locator("xpath=ancestor::div[contains(@class, 'exercise')][1]")
    for which in ("wrong", "right"):
        answer(block, payload["kind"], ANSWERS[exercise_id][which])
        feedback = block.get_by_role("status")
        shows_both_steps(feedback, said[exercise_id][which])
        assert contrast(feedback) >= 4.5
        task.scroll_into_view_if_needed()
        task.screenshot(
            path=output_dir / f"exercise-{exercise_id}-{which}-{scheme}-{width}.png"
        )
    # the answer box and its feedback fit their column (chapter 2's explorer
    # widens that page at 390 px: the explorers' issue)
    ui = block.locator(".gl-ex")
    assert ui.evaluate("e => e.scrollWidth <= e.clientWidth")

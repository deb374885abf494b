"""Every explorer's state in its page's address, and its call as code to copy
(gatherlab/browser/explorers/dom.mjs): typed into chapter 1's explorer, the state opens
again from the link in a new page, scrolled into view, and the copied code, run by
torch, prints the output the explorer shows; the copied code of every explorer of
the chapters, on its saved inputs, runs."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from tests.chromium import needs_chromium
from tests.test_page_cases import node_module
from tests.test_reference_pages import _open
from tests.test_site import unzipped

ROOT = Path(__file__).resolve().parent.parent


EXPLORER_PAGE = "notebooks/01_gather_2d.html"
GATHER_EXPLORER = '.gl-x[data-explorer="gather_2d"]'


def shown(explorer) -> list[str]:
    """The output entries an explorer shows."""
    return [c.inner_text().strip() for c in explorer.locator("[data-out]").all()]


def restored(page, index_box):
    """The gather explorer opened from a link; its index is that of ``index_box``."""
    explorer = page.locator(GATHER_EXPLORER).first
    explorer.wait_for()
    box = explorer.get_by_role("textbox", name="index", exact=True)
    assert box.input_value() == index_box.input_value()
    return explorer


@needs_chromium
def test_an_explorers_state_is_in_its_link_and_its_code_prints_its_output(
    browser, site: str
) -> None:
    """Type into chapter 1's explorer: the address holds the state, a new page opened
    on it shows the same call (scrolled into view), and the copied code, run by
    torch, prints the output the explorer shows."""
    page, errors = _open(browser, site, EXPLORER_PAGE)
    explorer = page.locator(GATHER_EXPLORER).first
    explorer.wait_for()
    typed = "[[2, 1, 1], [0, 0, 2]]"
    index_box = explorer.get_by_role("textbox", name="index", exact=True)
    index_box.fill(typed)
    index_box.press("Enter")
    explorer.get_by_role("group", name="dim", exact=True).get_by_role(
        "button", name="dim 1", exact=True
    ).click()
    assert "#gather_2d=" in page.url
    outputs = shown(explorer)
    assert len(outputs) == 6

    again = page.context.new_page()
    again.goto(page.url)
    opened = restored(again, index_box)
    assert shown(opened) == outputs
    top = opened.evaluate("node => node.getBoundingClientRect().top")
    assert 0 <= top < 900  # scrolled into view

    code = explorer.locator("pre.gl-copy-code").text_content()
    assert "torch.tensor([[2, 1, 1], [0, 0, 2]])" in code
    ran = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
    )
    assert ran.returncode == 0, ran.stderr
    printed = re.findall(r"-?\d+(?:\.\d+)?", ran.stdout)
    assert printed == outputs, (code, ran.stdout)
    assert errors == []
    page.context.close()


def test_the_copied_code_of_every_explorer_runs(tmp_path: Path) -> None:
    """pythonCode() for every explorer of the chapters, on its saved inputs, is a
    program torch runs (TensorFlow lines included where TensorFlow is installed)."""
    states = []
    for notebook in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        saved = json.loads(notebook.read_text(encoding="utf-8"))["metadata"]
        models = (
            saved.get("widgets", {})
            .get("application/vnd.jupyter.widget-state+json", {})
            .get("state", {})
        )
        for model in models.values():
            state = model.get("state", {})
            if "kind" in state and "inputs" in state:
                states.append({"kind": state["kind"], "inputs": state["inputs"]})
    assert len({state["kind"] for state in states}) >= 6
    script = (
        'import { pythonCode } from "./gatherlab/browser/explorers/dom.mjs";\n'
        'import { readFileSync } from "node:fs";\n'
        "const states = JSON.parse(readFileSync(0, 'utf8'));\n"
        "const codes = states.map((s) => pythonCode(s.kind, s.inputs));\n"
        "console.log(JSON.stringify(codes));\n"
    )
    for state, code in zip(states, node_module(script, states), strict=True):
        ran = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=300
        )
        assert ran.returncode == 0, (state["kind"], code, ran.stderr[-2000:])
        assert ran.stdout.strip(), state["kind"]


@needs_chromium
def test_a_link_to_an_explorers_state_opens_in_the_zipped_site(
    browser, site: str, built_book: Path, tmp_path: Path
) -> None:
    """The same link's fragment, opened on the zipped site's page from disk, restores
    the same call (the fragment needs no server)."""
    page, errors = _open(browser, site, EXPLORER_PAGE)
    explorer = page.locator(GATHER_EXPLORER).first
    explorer.wait_for()
    index_box = explorer.get_by_role("textbox", name="index", exact=True)
    index_box.fill("[[1, 1, 0], [2, 0, 0]]")
    index_box.press("Enter")
    fragment = page.url.split("#", 1)[1]
    outputs = shown(explorer)
    folder = unzipped(built_book, tmp_path)
    disk = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    disk.goto(f"{(folder / EXPLORER_PAGE).as_uri()}#{fragment}")
    assert shown(restored(disk, index_box)) == outputs
    assert errors == []
    disk.context.close()
    page.context.close()

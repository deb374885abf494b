"""The reader-facing extras: the licences, every page's footer, the one-page reference
and the "Explain my error" page.

Without a browser: the licence files and README's section, and the reference page's
table of bad positions, which must be what the behaviour atlas stored. In Chromium (the
book built once, tests/conftest.py): every page's footer names both licences and links
to report a problem and suggest an edit from _config.yml's one repository address; the
Explain page answers a pasted out-of-range, size-mismatch and unknown text, keeps its
state in the address, and is screenshot at 390 px dark and 1280 px light; the
reference prints on at most two A4 pages, and a printed chapter folds its solutions.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import quote

import pytest
import yaml

import gatherlab as gl
from tests.chromium import needs_chromium
from tools.build import figure_alt, page_body

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "book" / "reference.md"
TABLE_OPS = (
    "torch.index_select(x, 1, index)",
    "tf.gather(x, index, axis=1)",
    "torch.gather(x, 1, index)",
    "torch.take_along_dim(x, index, dim=1)",
    "x[arange(2)[:, None], index]",
    "tf.gather(x, index, axis=1, batch_dims=1)",
    "torch.take(x, index)",
    "tf.gather_nd(x, index)",
)
TABLE_BEHAVIOURS = ("negative", "equal to size", "far out", "int32")


def repository() -> str:
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    return str(config["repository"]["url"]).rstrip("/")


def test_the_licence_files_hold_the_licences_the_readme_names() -> None:
    code = (ROOT / "LICENSE").read_text(encoding="utf-8")
    content = (ROOT / "LICENSE-content").read_text(encoding="utf-8")
    assert code.startswith("MIT License") and "WITHOUT WARRANTY OF ANY KIND" in code
    assert "Attribution 4.0 International Public License" in content
    assert "Section 3 -- License Conditions." in content
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Licences", 1)[1].split("\n## ", 1)[0]
    assert "CC BY 4.0" in section and "`LICENSE-content`" in section
    assert "MIT" in section and "`LICENSE`" in section


def _markdown_rows(text: str, header_start: str) -> list[tuple[str, ...]]:
    lines = text.splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith(header_start))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append(tuple(cell.strip() for cell in line.strip("|").split("|")))
    return rows


def test_the_reference_table_of_bad_positions_is_the_atlas() -> None:
    stored = gl.atlas.table(
        TABLE_OPS,
        TABLE_BEHAVIOURS,
        versions={"torch": "2.13.0", "tensorflow": "2.21.0"},
    )
    page = _markdown_rows(REFERENCE.read_text(encoding="utf-8"), "| op | positions |")
    assert page == [tuple(row) for row in stored.rows]


def test_every_figure_of_a_chapter_gets_alt_text_naming_what_it_draws() -> None:
    figures = 0
    for notebook in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]:
            outputs = cell.get("outputs", [])
            if not any("image/png" in out.get("data", {}) for out in outputs):
                continue
            figures += 1
            source = "".join(cell["source"])
            words = figure_alt.alt_text(source)
            assert words, (notebook.name, source)
            assert "{" not in words and ".png" not in words
    assert figures >= 7
    assert figure_alt.alt_text("print(1)") is None


def test_exercise_labels_become_links_to_anchors_named_by_their_number() -> None:
    built = (
        '<div class="exercise admonition" id="notebooks/02_x-exercise-2">\n\n'
        '<p class="admonition-title"><span class="caption-number">Exercise 2.3 '
        '</span></p>\n<section id="exercise-content">\n<p>Task</p>'
    )
    linked = page_body.linked(built)
    assert 'id="exercise-2-3"' in linked and 'exercise-2"' not in linked
    assert (
        '<a class="caption-number gl-exercise-anchor" href="#exercise-2-3">' in linked
    )
    assert 'id="exercise-content"' not in linked
    assert page_body.linked("<p>no exercise</p>") == "<p>no exercise</p>"


# ------------------------------------------------------------------ in Chromium


def _open(browser, site: str, path: str, *, width: int = 1280, scheme: str = "light"):
    context = browser.new_context(
        viewport={"width": width, "height": 900}, color_scheme=scheme
    )
    context.route(re.compile(r"^(?!http://127\.0\.0\.1)"), lambda route: route.abort())
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(site + path)
    return page, errors


@needs_chromium
@pytest.mark.parametrize(
    "page_path", ["book/intro", "notebooks/04_error_cases", "book/explain"]
)
def test_every_page_footer_names_the_licences_and_links_to_report_and_edit(
    browser, site: str, page_path: str
) -> None:
    page, errors = _open(browser, site, f"{page_path}.html")
    footer = page.locator(".gl-footer")
    text = footer.inner_text()
    assert "CC BY 4.0" in text and "MIT" in text
    links = {
        a.inner_text().strip(): a.get_attribute("href")
        for a in footer.locator("a").all()
    }
    repo = repository()
    assert links["LICENSE"] == f"{repo}/blob/main/LICENSE"
    assert links["LICENSE-content"] == f"{repo}/blob/main/LICENSE-content"
    suffix = ".ipynb" if page_path.startswith("notebooks/") else ".md"
    assert links["Suggest an edit"] == f"{repo}/edit/main/{page_path}{suffix}"
    report = links["Report a problem with this page"]
    assert report.startswith(f"{repo}/issues/new?title=")
    assert quote(page_path, safe="") in report or page_path in report
    assert errors == []
    page.context.close()


EXAMPLES = {
    "bounds": ("Every position must lie in 0..size-1", "last valid position is 2"),
    "size": ("Apart from dim, the index may not be larger", "Input dim 1 is empty"),
    "unknown": ("Not recognised", "will not guess"),
}


@needs_chromium
@pytest.mark.parametrize("example", list(EXAMPLES))
@pytest.mark.parametrize(("width", "scheme"), [(390, "dark"), (1280, "light")])
def test_the_explain_page_answers_and_keeps_its_state_in_the_address(
    browser, site: str, output_dir: Path, example: str, width: int, scheme: str
) -> None:
    page, errors = _open(browser, site, "book/explain.html", width=width, scheme=scheme)
    if scheme == "dark":
        page.evaluate("document.documentElement.dataset.theme = 'dark'")
    page.locator(f'[data-example="{example}"]').click()
    answer = page.locator(".gl-explain-answer")
    title, words = EXAMPLES[example]
    assert title in answer.inner_text() and words in answer.inner_text()
    answer.scroll_into_view_if_needed()
    page.screenshot(path=str(output_dir / f"explain-{example}-{width}-{scheme}.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    link = answer.locator("a")
    href = link.first.get_attribute("href")
    target = page.context.new_page()
    target.goto(page.url.split("#")[0].rsplit("/", 1)[0] + "/" + href)
    anchor = href.split("#", 1)[1]
    assert target.locator(f"[id='{anchor}']").count() == 1
    again = page.context.new_page()
    again.goto(page.url)  # the form's state is in the address
    assert again.locator(".gl-explain-answer").inner_text() == answer.inner_text()
    assert errors == []
    page.context.close()


@needs_chromium
def test_a_pasted_error_with_shapes_is_explained_for_those_shapes(
    browser, site: str
) -> None:
    page, errors = _open(browser, site, "book/explain.html")
    page.fill(
        "#gl-explain-text",
        "RuntimeError: Index tensor must have the same "
        "number of dimensions as input tensor",
    )
    page.fill("input[name=input]", "4, 5")
    page.fill("input[name=index]", "4")
    page.fill("input[name=dim]", "1")
    page.get_by_role("button", name="Explain").click()
    text = page.locator(".gl-explain-answer").inner_text()
    assert "The input has 2 dims and the index 1" in text
    assert errors == []
    page.context.close()


def _pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page\b", pdf))


@needs_chromium
def test_the_reference_prints_on_at_most_two_a4_pages(browser, site: str) -> None:
    page, errors = _open(browser, site, "book/reference.html")
    pdf = page.pdf(format="A4", print_background=False)
    assert 1 <= _pdf_pages(pdf) <= 2
    assert errors == []
    page.context.close()


@needs_chromium
def test_a_printed_chapter_folds_its_solutions_and_leaves_out_the_explorers(
    browser, site: str
) -> None:
    page, errors = _open(browser, site, "notebooks/01_gather_2d.html")
    page.emulate_media(media="print")
    solution = page.locator("details.gl-collapsed").first
    solution.evaluate("details => { details.open = true; }")
    inside = solution.locator(":scope > :not(summary)").first
    assert inside.evaluate("node => getComputedStyle(node).display") == "none"
    assert (
        page.locator(".gl-x").first.evaluate("node => getComputedStyle(node).display")
        == "none"
    )
    assert errors == []
    page.context.close()

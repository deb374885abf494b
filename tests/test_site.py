"""The published site: links resolve, pages stay light, the Pages workflow, the zip.

Uses the book built once for the browser tests (tests/conftest.py). Checked here:

- every internal link, script, stylesheet and image of the built site resolves, and
  so does every ``#anchor`` it names, on the page it names;
- tools/build/lean_pages.py: its purge keeps what pages use and drops what none does;
its
  split puts in lean.css what a page as written uses, the rest in lean-late.css; each
  page links lean.css in <head> and lean-late.css at the end of <body>, with every
  script deferred, loads the search index only on the search page, and no Thebe;
  the icon font holds only glyphs the stylesheets name; the first screen looks the
  same without lean-late.css; a chapter read to its end makes at most 20 requests;
- the root redirect, the general index and the search page raise no script or
  console error, and the search page finds a word;
- .github/workflows/pages.yml is the standard GitHub Pages workflow over ``make book``;
- the repository link, the Colab launch and the notebook download are on every chapter;
- each chapter's page opens with its title: the notebook's how-to note (its first cell)
  follows it, folded (tools/build/page_body.py);
- each exercise's payload leaves its page for ``_static/exercises/ID.json`` (the
  notebook's own payload, unchanged), which the page fetches, with the evaluator, only
  when that exercise's box is first used, and says so when the fetch fails;
- the zip of tools/build/site_zip.py works opened from disk: an explorer answers a
click, a
  control and a typed index, exercises check answers (their payloads inlined as
  ``data:`` URLs), and ES modules (a toy site) run there, which they do not in the
  site as built.

Weights and load times are measured by benchmarks/bench_pages.py, never asserted here.
"""

from __future__ import annotations

import base64
import html
import html.parser
import io
import json
import re
import zipfile
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
import yaml
from bs4 import BeautifulSoup
from fontTools.ttLib import TTFont
from playwright.sync_api import Browser, Page, Route, expect

from gatherlab.exercises import EXERCISES
from gatherlab.exercises.page import payload
from tests.chromium import needs_chromium
from tests.test_browser import (
    ALL_VIEWS_RENDERED,
    EXPLORER,
    EXPLORERS,
    choose,
    type_into,
)
from tests.test_page_exercises import ANSWERS, answer, check_exercise, page_payloads
from tools.build import lean_pages, page_body, site_zip

ROOT = Path(__file__).resolve().parent.parent

CHAPTERS = sorted(
    f"notebooks/{path.stem}" for path in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")
)
LINKING = {"a": "href", "link": "href", "script": "src", "img": "src", "iframe": "src"}


class Links(html.parser.HTMLParser):
    """The ids and the internal references of one page."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.refs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        for key in ("id", "name"):
            if found.get(key):
                self.ids.add(found[key] or "")
        ref = found.get(LINKING.get(tag, ""))
        if ref and not urlsplit(ref).scheme and not ref.startswith("//"):
            self.refs.append(ref)


def parsed(page: Path) -> Links:
    links = Links()
    links.feed(page.read_text(encoding="utf-8"))
    return links


def test_every_internal_link_and_anchor_resolves(built_book: Path) -> None:
    pages = {
        page: parsed(page)
        for page in built_book.rglob("*.html")
        if "_static" not in page.relative_to(built_book).parts  # theme templates
    }
    assert len(pages) >= len(CHAPTERS) + 3
    broken = []
    for page, links in pages.items():
        for ref in links.refs:
            parts = urlsplit(ref)
            target = (
                (page.parent / unquote(parts.path)).resolve() if parts.path else page
            )
            where = f"{page.relative_to(built_book)}: {ref}"
            if not target.is_file():
                broken.append(f"{where} (no such file)")
            elif parts.fragment and target.suffix == ".html":
                ids = (pages.get(target) or parsed(target)).ids
                if unquote(parts.fragment) not in ids:
                    broken.append(f"{where} (no such anchor)")
    assert broken == []


def test_the_link_check_finds_a_broken_anchor_and_file(tmp_path: Path) -> None:
    """The parser sees ids and references the way the check above needs."""
    (tmp_path / "a.html").write_text(
        '<h1 id="top">A</h1><a href="a.html#top">ok</a><a href="#gone">x</a>'
        '<img src="missing.png"><a href="https://example.org/#x">off</a>'
    )
    links = parsed(tmp_path / "a.html")
    assert links.ids == {"top"}
    assert links.refs == ["a.html#top", "#gone", "missing.png"]


# ----------------------------------------------------------------- light pages


def test_purge_keeps_used_rules_and_drops_the_rest() -> None:
    css = (
        "html[data-theme=dark] .used{color:red}.unused{color:blue}"
        ".used,.unused>p{margin:0}:is(.used,.gone) a{top:0}"
        "@media (min-width:1px){.unused{x:y}}@media print{#used{x:y}}"
        '@font-face{font-family:"F";src:url(f.woff)}.fa-bars:before{content:"x"}'
    )
    kept = lean_pages.purge(css, {"used", "fa-bars"})
    assert kept.splitlines() == [
        "html[data-theme=dark] .used{color:red}",
        ".used{margin:0}",
        ":is(.used,.gone) a{top:0}",  # inside brackets: kept if unsure
        "@media print{#used{x:y}}",
        '@font-face {font-family:"F";src:url(f.woff)}',
    ]


def test_stylesheet_urls_are_rewritten_from_static() -> None:
    css = "a{background:url(../vendor/x.woff2)}b{background:url('data:,x')}"
    assert lean_pages._rebased(css, "styles/theme.css") == (
        "a{background:url(vendor/x.woff2)}b{background:url('data:,x')}"
    )


@pytest.mark.parametrize("page_path", ["genindex", "book/intro", *CHAPTERS])
def test_pages_load_one_stylesheet_and_no_search_index(
    built_book: Path, page_path: str
) -> None:
    """One stylesheet holds the text (lean.css, in <head>); lean-late.css comes at the
    end of <body>, with the scripts, which are all deferred: nothing else in <head>
    waits for the network."""
    text = (built_book / f"{page_path}.html").read_text(encoding="utf-8")
    head, body = text.split("</head>", 1)
    stylesheet = re.compile(r'<link\b[^>]*rel="stylesheet"[^>]*>')
    stylesheets = stylesheet.findall(head)
    assert len(stylesheets) == 1 and "_static/lean.css" in stylesheets[0]
    late = stylesheet.findall(body)
    assert len(late) == 1 and "_static/lean-late.css" in late[0]
    after = body[body.index(late[0]) + len(late[0]) :]
    assert re.sub(
        r"<script\b[^>]*>\s*</script>|<!--.*?-->|\s", "", after, flags=re.S
    ) == ('<footerclass="bd-footer"></footer></body></html>')
    assert not re.search(
        r"<script\b(?![^>]*\b(?:defer|async|type=\"module\"))[^>]*\bsrc=", head
    )
    assert "documentation_options.js" not in text  # inline: the scripts after need it
    assert "searchindex.js" not in text and "searchtools.js" not in text
    assert "thebe" not in text.lower()
    inline = re.findall(r"<script>(.*?)</script>", text, re.S)
    assert len(inline) == len(set(inline))  # no inline script twice
    assert not re.search(
        r"<img (?![^>]*\bloading=\"lazy\")", text
    )  # the Colab logo too


def test_lean_assets_hold_only_what_pages_use(built_book: Path) -> None:
    static = built_book / "_static"
    lean = (static / "lean.css").read_text(encoding="utf-8")
    late = (static / "lean-late.css").read_text(encoding="utf-8")
    theme = (static / "styles" / "pydata-sphinx-theme.css").stat().st_size
    assert len(lean) + len(late) < theme / 2
    assert len(lean) < 100_000  # what the text waits for
    for css in (lean, late):
        assert not re.search(r"\.fa-[\w-]+::?before\{", css)  # drawn as SVG
        assert "fa-solid-900.woff2" not in css
    assert "@media print" in late and "@media print" not in lean
    # The icon font's subset, in lean.css as a data: URL (no request of its own).
    data = re.search(re.escape(lean_pages.FONT_URL) + r"([A-Za-z0-9+/=]+)", lean)
    assert data and lean_pages.FONT_URL not in late
    font = TTFont(io.BytesIO(base64.b64decode(data.group(1))))
    named = set(map(ord, lean_pages.PRIVATE_USE.findall(lean + late)))
    solid = set(TTFont(static / lean_pages.SOLID_FONT).getBestCmap())
    assert set(font.getBestCmap()) == named & solid  # (brand glyphs are not solid)


def test_split_puts_what_a_page_as_written_uses_first() -> None:
    """lean.css gets the rules an element of a page as written matches, whatever the
    colour scheme and with no state (hover, focus) or part (::before); lean-late.css
    what only a script's element or class, or print, needs."""
    page = BeautifulSoup(
        '<html data-theme="auto"><body><div class="cell"><div class="cell_input">'
        '<a class="btn">x</a></div></div><ul class="dropdown-menu"></ul></body></html>',
        "html.parser",
    )
    css = (
        "html[data-theme=dark] .btn{color:red}.btn:hover,.popover{color:blue}"
        "div.cell > div.cell_input{margin:0}div.cell>.gone{margin:1px}"
        ".dropdown-menu.show{display:block}.btn:not(:hover)::before{x:y}"
        "html:not([data-theme]){x:z}@media (min-width:1px){.cell{a:b}.modal{c:d}}"
        "@media print{.cell{e:f}}@font-face{font-family:F}"
    )
    critical, late = lean_pages.split(css, [page])
    assert critical.split("\n") == [
        "html[data-theme=dark] .btn{color:red}",
        ".btn:hover{color:blue}",
        "div.cell > div.cell_input{margin:0}",
        ".btn:not(:hover)::before{x:y}",
        "@media (min-width:1px){.cell{a:b}}",
        "@font-face {font-family:F}",
    ]
    assert late.split("\n") == [
        ".popover{color:blue}",
        "div.cell>.gone{margin:1px}",
        ".dropdown-menu.show{display:block}",
        "html:not([data-theme]){x:z}",
        "@media (min-width:1px){.modal{c:d}}",
        "@media print{.cell{e:f}}",
    ]


# Every element of the article as the page lays it out and paints it: its tag, box and
# the computed styles that show (a pixel comparison of a 40,000 px element screenshot
# proved flaky: the capture is sometimes offset while the page settles).
LAYOUT = """() => [...document.querySelectorAll(
    "article.bd-article, article.bd-article *")].map((e) => {
  const r = e.getBoundingClientRect(), c = getComputedStyle(e);
  return [e.tagName, e.className.baseVal ?? e.className,
    ...[r.x, r.y, r.width, r.height].map((v) => Math.round(v * 10) / 10),
    c.color, c.backgroundColor, c.fontFamily, c.fontSize, c.fontWeight, c.display,
    c.visibility, c.borderTopColor, c.borderLeftWidth, c.textDecorationLine,
  ].join(" | ");
})"""


def _keep(route: Route) -> None:
    route.continue_()


def _drop(route: Route) -> None:
    route.abort()


@needs_chromium
@pytest.mark.parametrize("width", [1280, 400])
@pytest.mark.parametrize("page_path", ["book/intro", *CHAPTERS])
def test_text_needs_only_the_first_stylesheet(
    browser: Browser, site: str, page_path: str, width: int
) -> None:
    """The page as written (its own scripts off: what the first paint shows) is laid
    out and painted the same with lean.css alone as with lean-late.css too: every
    element of the article, its box, colours, font and display. The rules split off
    for later hold nothing the text needs."""
    layouts = []
    for late in (True, False):
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        # one-argument handlers: Playwright passes (route, request) to a handler that
        # takes two, which a `late=late` default would swallow (it then never drops)
        page.route("**/lean-late.css", _keep if late else _drop)
        page.route("**/*.js*", _drop)  # the page as written: no script of its own
        page.route("**/*.mjs*", _drop)
        page.goto(f"{site}{page_path}.html", wait_until="load")
        # transitions would make a computed colour depend on the moment it is read
        page.add_style_tag(content="*, ::before, ::after {transition: none !important}")
        layouts.append(page.evaluate(LAYOUT))
        context.close()
    with_late, alone = layouts
    assert len(with_late) > 100
    differ = [(a, b) for a, b in zip(with_late, alone, strict=True) if a != b]
    assert not differ, f"{len(differ)} elements differ, first: {differ[0]}"


@needs_chromium
@pytest.mark.parametrize("page_path", CHAPTERS)
def test_chapter_read_to_its_end_makes_at_most_20_requests(
    browser: Browser, site: str, page_path: str
) -> None:
    """Issue 23's budget: 20 requests a chapter (data: URLs are none), every figure
    loaded by scrolling to the end, with no script or console error."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors = errors_of(page)
    requests: list[str] = []
    page.on(
        "request",
        lambda request: (
            not request.url.startswith("data:") and requests.append(request.url)
        ),
    )
    page.goto(f"{site}{page_path}.html")
    page.wait_for_function(ALL_VIEWS_RENDERED, timeout=60_000)
    page.evaluate(
        """async () => {
            for (let y = 0; y < document.body.scrollHeight; y += innerHeight / 2) {
                scrollTo(0, y);
                await new Promise((done) => setTimeout(done, 50));
            }
        }"""
    )
    page.wait_for_load_state("networkidle")
    images = page.evaluate(
        "[...document.querySelectorAll('article img')].filter(i => !i.complete).length"
    )
    context.close()
    assert images == 0  # every figure was fetched
    assert len(requests) <= 20, requests
    assert len(requests) == len(set(requests))  # nothing fetched twice
    assert errors == []


@needs_chromium
def test_search_and_index_pages_run_without_errors(browser: Browser, site: str) -> None:
    """The pages outside _toc.yml (test_browser.py opens those): the root redirect and
    the general index load with no script or console error, and the search page,
    which alone loads the search index, finds a word."""
    page = browser.new_page()
    errors = errors_of(page)
    page.goto(site)
    expect(page).to_have_url(re.compile(r"book/intro\.html$"))
    page.goto(f"{site}genindex.html")
    page.wait_for_load_state("networkidle")
    page.goto(f"{site}search.html?q=take_along_dim")
    expect(page.locator("#search-results li").first).to_be_visible(timeout=10_000)
    assert page.locator("#search-results li").count() >= 2
    assert errors == []
    page.close()


BLOCK = re.compile(
    'class="gl-page-check" data-exercise="([^"]+)" '
    "data-head='([^']*)' data-payload-src=\"([^\"]+)\""
)


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_exercise_payloads_are_built_beside_the_page(
    built_book: Path, chapter: str
) -> None:
    """Each stub's marker in the page gets the head its box is drawn from and names
    its file, which holds the payload the package gives now (no chapter stores one)."""
    text = (built_book / f"{chapter}.html").read_text(encoding="utf-8")
    assert "data-payload=" not in text
    blocks = BLOCK.findall(text)
    assert sorted(b[0] for b in blocks) == sorted(
        e for e in EXERCISES if e[:2] == chapter.split("/")[-1][:2]
    )
    for exercise_id, head, src in blocks:
        assert src == f"../_static/exercises/{exercise_id}.json"
        built = json.loads((built_book / "notebooks" / src).read_text())
        assert built == json.loads(json.dumps(payload(EXERCISES[exercise_id])))
        drawn = json.loads(html.unescape(head))
        assert drawn["id"] == exercise_id and drawn["kind"] == built["kind"]
        assert set(drawn) <= {*lean_pages.HEAD, "choices"}
        for choice in drawn.get("choices", []):  # the verdicts stay in the file
            assert set(choice) <= set(lean_pages.CHOICE_HEAD)


# The payload files and the evaluator a page has asked for, by file name.
FETCHED = """() => performance.getEntriesByType('resource').map(e => e.name)
    .filter(n => n.includes('/exercises/') || n.endsWith('/evaluator.mjs'))
    .map(n => n.split('/').pop()).sort()"""


@needs_chromium
def test_payloads_and_the_evaluator_load_on_first_use(
    browser: Browser, site: str
) -> None:
    """A chapter loads no payload and no evaluator; focusing one box fetches that
    exercise's payload and the evaluator, and nothing more; its check then answers.
    A payload that cannot be fetched is said, not a silent box."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors = errors_of(page)
    page.route("**/04.predict_wrap.json", lambda route: route.abort())
    page.goto(f"{site}notebooks/04_error_cases.html", wait_until="load")
    page.wait_for_load_state("networkidle")
    assert page.evaluate(FETCHED) == []
    block = page.locator('[data-exercise="04.gather_python_style"]')
    block.get_by_role("textbox").focus()
    page.wait_for_function(f"() => ({FETCHED})().length >= 2")
    loaded = ["04.gather_python_style.json", "evaluator.mjs"]
    assert page.evaluate(FETCHED) == loaded
    answer(block, "implement", ANSWERS["04.gather_python_style"]["wrong"])
    expect(block.get_by_role("status")).to_contain_text("not yet.")
    answer(block, "implement", ANSWERS["04.gather_python_style"]["right"])
    expect(block.get_by_role("status")).to_contain_text("passed.")
    assert page.evaluate(FETCHED) == loaded  # each loaded once, nothing else
    assert errors == []
    broken = page.locator('[data-exercise="04.predict_wrap"]')
    answer(broken, "predict", ANSWERS["04.predict_wrap"]["right"])
    expect(broken.get_by_role("status")).to_contain_text(
        "The checks of 04.predict_wrap could not be loaded"
    )
    expect(broken.get_by_role("status")).to_contain_text("Reload the page")
    # the browser logs the refused request; the page throws nothing
    assert set(errors) == {"Failed to load resource: net::ERR_FAILED"}
    context.close()


# --------------------------------------------------------------------- publish


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_chapter_opens_with_its_title_and_folds_the_how_to_note(
    built_book: Path, chapter: str
) -> None:
    """The online reader sees the title first; the note on running the notebook (its
    first cell, word for word) is one closed line under it."""
    soup = BeautifulSoup(
        (built_book / f"{chapter}.html").read_text("utf-8"), "html.parser"
    )
    article = soup.select_one("article.bd-article")
    assert article is not None
    first = article.find(True)
    assert (
        first is not None and first.name == "section" and first.find(True).name == "h1"
    )
    fold = first.find("h1").find_next_sibling(True)
    assert (
        fold.name == "details"
        and "howto" in fold["class"]
        and not fold.has_attr("open")
    )
    assert fold.summary.get_text() == page_body.SUMMARY
    cells = json.loads((ROOT / f"{chapter}.ipynb").read_text("utf-8"))["cells"]

    def plain(text: str) -> str:  # the words, without markdown's marks
        return " ".join(re.sub(r"[>*`]", "", text).replace("’", "'").split())

    assert plain(" ".join(p.get_text() for p in fold.find_all("p"))) == plain(
        "".join(cells[0]["source"])
    )
    assert f"make reset-lab CHAPTER={chapter[10:12]}" in fold.get_text()


def test_fold_leaves_a_page_without_the_note_as_it_is() -> None:
    page = "<section><h1>Title</h1><blockquote><div><p>Other.</p></div></blockquote>"
    assert page_body.folded(page) == page
    note = (
        "<blockquote>\n<div><p><strong>Working in this notebook.</strong> Run.</p>\n"
        "</div></blockquote>\n<section><h1>T</h1><p>Text.</p>"
    )
    assert page_body.folded(note) == (
        '<section><h1>T</h1>\n<details class="howto">\n<summary>'
        f"{page_body.SUMMARY}</summary>\n"
        "<p><strong>Working in this notebook.</strong> Run.</p>\n</details><p>Text.</p>"
    )


def test_pages_workflow_is_the_standard_one() -> None:
    workflow = yaml.safe_load(
        (ROOT / ".github" / "workflows" / "pages.yml").read_text()
    )
    assert workflow["permissions"] == {
        "contents": "read",
        "pages": "write",
        "id-token": "write",
    }
    build = workflow["jobs"]["build"]["steps"]
    uses = [step.get("uses", "").split("@")[0] for step in build]
    assert uses[:2] == ["actions/checkout", "actions/setup-python"]
    assert "make book" in [step.get("run") for step in build]
    upload = next(s for s in build if s.get("uses", "").startswith("actions/upload-"))
    assert upload["uses"].startswith("actions/upload-pages-artifact@")
    assert upload["with"]["path"] == "_build/html"
    deploy = workflow["jobs"]["deploy"]
    assert deploy["needs"] == "build"
    assert deploy["steps"][0]["uses"].startswith("actions/deploy-pages@")


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_chapter_links_its_repository_colab_and_notebook(
    built_book: Path, chapter: str
) -> None:
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    repository = config["repository"]["url"]
    text = (built_book / f"{chapter}.html").read_text(encoding="utf-8")
    assert f'href="{repository}"' in text
    colab = "https://colab.research.google.com/github/" + repository.split(".com/")[1]
    assert (
        f'href="{colab}/blob/{config["repository"]["branch"]}/{chapter}.ipynb"' in text
    )
    notebook = Path(chapter).name + ".ipynb"
    assert f'href="../_sources/notebooks/{notebook}"' in text
    assert (built_book / "_sources" / "notebooks" / notebook).is_file()


# -------------------------------------------------------------- site from disk


def unzipped(html: Path, folder: Path) -> Path:
    archive = folder / "site.zip"
    site_zip.write_zip(html, archive)
    with zipfile.ZipFile(archive) as opened:
        opened.extractall(folder / "site")
        assert not [n for n in opened.namelist() if n.endswith(".map")]
    return folder / "site"


def errors_of(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(error.message))
    page.on(
        "console",
        lambda message: message.type == "error" and errors.append(message.text),
    )
    return errors


TOY_PAGE = """<!doctype html><html><head><meta charset="utf-8">
<script type="module" src="../_static/main.mjs?v=1"></script>
<script>
  import(new URL("../_static/lib/dep.mjs", location.href).href).then(
    (m) => { document.documentElement.dataset.dynamic = m.word; });
</script></head><body><p id="out">not run</p></body></html>"""


@needs_chromium
def test_zip_runs_es_modules_from_disk(browser: Browser, tmp_path: Path) -> None:
    """A toy site: a module script importing a module, and a classic script's dynamic
    import. From disk they fail as built, and run once zipped."""
    built = tmp_path / "built"
    (built / "_static" / "lib").mkdir(parents=True)
    (built / "pages").mkdir()
    (built / "pages" / "toy.html").write_text(TOY_PAGE)
    (built / "_static" / "main.mjs").write_text(
        'import { word } from "./lib/dep.mjs";\n'
        'document.getElementById("out").textContent = `ran: ${word}`;\n'
    )
    (built / "_static" / "lib" / "dep.mjs").write_text('export const word = "dep";\n')
    page = browser.new_page()
    errors = errors_of(page)
    page.goto((built / "pages" / "toy.html").as_uri())
    page.wait_for_timeout(500)
    expect(page.locator("#out")).to_have_text("not run")
    assert any("CORS" in error for error in errors)  # the problem the zip solves
    errors.clear()
    site = unzipped(built, tmp_path)
    page.goto((site / "pages" / "toy.html").as_uri())
    expect(page.locator("#out")).to_have_text("ran: dep")
    expect(page.locator("html")).to_have_attribute("data-dynamic", "dep")
    assert errors == []
    page.close()


@needs_chromium
def test_the_unzipped_build_from_disk_says_how_to_open_it(
    browser: Browser, built_book: Path
) -> None:
    """The build folder opened from disk imports no module (Chromium refuses them on
    file://): the explorer says so and points to the zip, never a blank box."""
    page = browser.new_page()
    page.goto((built_book / "notebooks" / "01_gather_2d.html").as_uri())
    expect(page.locator(".gl-explorer [role=alert]").first).to_contain_text(
        "unzip the site of make site-zip"
    )
    page.close()


@needs_chromium
def test_zipped_book_works_from_disk(
    browser: Browser, built_book: Path, tmp_path: Path, output_dir: Path
) -> None:
    """Chapter 1 opened from the unzipped site: its explorer draws, styled, and answers
    a click on an output cell, a control and a typed index; a predict and an implement
    exercise check a wrong and a right answer (payloads from data: URLs, the evaluator
    through the import map)."""
    site = unzipped(built_book, tmp_path)
    chapter = "notebooks/01_gather_2d"
    zipped = (site / f"{chapter}.html").read_text(encoding="utf-8")
    assert "_static/exercises/" not in zipped
    assert 'data-payload-src="data:application/json;base64,' in zipped
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors = errors_of(page)
    page.goto((site / f"{chapter}.html").as_uri())
    page.wait_for_function(ALL_VIEWS_RENDERED, timeout=10_000)
    check = EXPLORERS[chapter][0]
    explorer = page.locator(EXPLORER).nth(check.position)
    assert explorer.evaluate("(root) => getComputedStyle(root).fontSize") == "16px"
    click = check.clicks[0]
    choose(explorer, click.control, click.option)
    for text in click.shows:
        expect(explorer).to_contain_text(text)
    type_into(explorer, check.typed.box, check.typed.valid)
    for text in check.typed.shows:
        expect(explorer).to_contain_text(text)
    explorer.locator('td[data-out="1,0"]').click()  # index: [[1, 2], [0, 2]]
    expect(explorer).to_contain_text("out[1, 0] ← index[1, 0] = 0 → x[1, 0] = 20")
    block = page.locator('[data-exercise="01.predict_columns"]')
    box = block.get_by_role("textbox")
    feedback = block.locator(".gl-ex-feedback")
    box.fill("[[0, 0], [0, 0]]")
    box.press("Enter")
    expect(feedback).to_have_class(re.compile("gl-ex-failed"))
    box.fill(str(EXERCISES["01.predict_columns"].solution.tolist()))
    box.press("Enter")
    expect(feedback).to_have_class(re.compile("gl-ex-passed"))
    payload = page_payloads(built_book)["01.pick_columns"]
    check_exercise(page, "01.pick_columns", payload, output_dir)
    assert errors == []
    context.close()

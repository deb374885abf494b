"""The built book in a real browser: explorers work with no kernel and no CDN.

Builds the book once (warnings are errors), serves it on 127.0.0.1 and opens every
page in Debian's headless Chromium with every request to another host blocked. Each
chapter must render its explorers, answer each explorer's choices with the expected
view, recompute the view from a typed tensor (no kernel runs), show the rule message
for a bad one, raise no page error and log no console error, and ask nothing of another
host; axe-core must find no WCAG 2.1 AA violation on any page, before and after every
explorer control is used. Screenshots land in ``_build/screenshots`` (or
``$BROWSER_TEST_OUTPUT``). Load times and page weights are measured by
``benchmarks/bench_pages.py``, never asserted here.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

import nbformat
import pytest
import yaml
from playwright.sync_api import Browser, Locator, Page, Route, expect
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.chromium import needs_chromium

ROOT = Path(__file__).resolve().parent.parent
VENDOR_DIR = ROOT / "tests" / "js" / "vendor"
AXE = VENDOR_DIR / "axe.min.js"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
PAGE_BUDGET_BYTES = 1_500_000
RENDER_TIMEOUT_MS = 10_000
VIEW_SCRIPT = 'script[type="application/vnd.jupyter.widget-view+json"]'
EXPLORER = ".gl-explorer > .gl-x"
# True once every saved widget view on the page is drawn with its controls.
ALL_VIEWS_RENDERED = f"""() => {{
    const expected = document.querySelectorAll('{VIEW_SCRIPT}').length;
    const roots = document.querySelectorAll('{EXPLORER}');
    return roots.length === expected && [...roots].every(r => r.querySelector('input'));
}}"""


def book_pages() -> list[str]:
    """Every page in _toc.yml (root first), as its path without suffix."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    chapters = (entry for part in toc["parts"] for entry in part["chapters"])
    return [toc["root"], *(entry["file"] for entry in chapters)]


@dataclass(frozen=True)
class Click:
    """Choose ``option`` on the control labelled ``control``; the view must then show
    every text in ``shows`` and mark exactly ``marked`` (role -> cell texts)."""

    control: str
    option: str
    shows: tuple[str, ...]
    marked: dict[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class Typed:
    """Type ``valid`` into the box labelled ``box`` and press Enter: the view must show
    ``shows``; then type ``invalid``: the explorer must show ``message`` and keep the
    view it had."""

    box: str
    valid: str
    shows: tuple[str, ...]
    invalid: str
    message: str


@dataclass(frozen=True)
class ExplorerCheck:
    """One explorer of a chapter page (``position``: 0 for the page's first widget)."""

    explorer: str
    position: int
    first_view: tuple[str, ...]
    clicks: tuple[Click, ...]
    typed: Typed


# What each chapter's explorers must do in the static page (the values are the seed
# examples each explorer opens with), then what a typed tensor must change there.
EXPLORERS: dict[str, tuple[ExplorerCheck, ...]] = {
    "notebooks/01_gather_2d": (
        ExplorerCheck(
            "gather_2d",
            0,
            ("torch.gather(x, 1, index)", "out[0, 0] ← index[0, 0] = 2 → x[0, 2] = 12"),
            (
                Click(
                    "show",
                    "out[0, 1]",
                    ("out[0, 1] ← index[0, 1] = 0 → x[0, 0] = 10",),
                    {"out": ("10",), "index": ("0",), "source": ("10",)},
                ),
                Click(
                    "dim",
                    "dim 0",
                    (
                        "show: no output to pick (the call raises)",
                        "index-out-of-range: index[0, 0] = 2, but dim 0 of input has "
                        "size 2",
                        "fix: positions count from 0, so the last one is size - 1",
                        "The last call that ran",
                    ),
                    {"fault": ("2",)},
                ),
                Click(
                    "dim",
                    "dim -1",
                    ("torch.gather(x, -1, index)  # dim -1 is dim 1 here",),
                    {"out": ("10",), "index": ("0",), "source": ("10",)},
                ),
            ),
            Typed(
                "index",
                "[[1, 2], [0, 2]]",
                ("out[0, 1] ← index[0, 1] = 2 → x[0, 2] = 12",),
                "[[5, 0], [1, 1]]",
                "index-out-of-range: index[0, 0] = 5, but dim 1 of input has size 3",
            ),
        ),
    ),
    "notebooks/02_batched_selection": (
        ExplorerCheck(
            "batched_selection",
            0,
            ("Batch member 0 asks for time positions [2, 0].",),
            (
                # the (2, 2, 1) index alone would read feature 0 of each step only
                Click(
                    "step",
                    "unsqueeze(-1)",
                    (
                        "would read only feature 0 of each chosen step",
                        "expand repeats it over all 2 features (a stride-0 view, no "
                        "copy)",
                    ),
                    {"index": ("2", "0"), "source": ("0", "4")},
                ),
                Click(
                    "step",
                    "expand",
                    ("index = positions.unsqueeze(-1).expand(-1, -1, 2)",),
                    {"index": ("2", "2", "0", "0"), "source": ("0", "1", "4", "5")},
                ),
                Click(
                    "step",
                    "gather",
                    ("out[0, 0, 0] ← index[0, 0, 0] = 2 → features[0, 2, 0] = 4",),
                    {"out": ("4", "5", "0", "1"), "source": ("0", "1", "4", "5")},
                ),
                Click(
                    "member",
                    "batch 1",
                    ("out[1, 0, 0] ← index[1, 0, 0] = 1 → features[1, 1, 0] = 8",),
                    {"out": ("8", "9", "8", "9"), "source": ("8", "9")},
                ),
            ),
            Typed(
                "positions",
                "[[0, 2], [2, 2]]",
                ("out[1, 0, 1] ← index[1, 0, 1] = 2 → features[1, 2, 1] = 11",),
                "[[0, 3], [2, 2]]",
                "index-out-of-range: index[0, 1, 0] = 3, but dim 1 of input has size 3",
            ),
        ),
    ),
    "notebooks/03_choosing_an_op": (
        ExplorerCheck(
            "op_comparison",
            0,
            (
                "torch.take_along_dim(x, index, dim=1)",
                "torch.index_select(x, 1, index)",
                "tf.gather(x, index, axis=1)",
            ),
            (
                Click(
                    "op",
                    "take",
                    ("torch.take(x, index)", "✗ differs from torch.gather"),
                    {"source": ("10", "11", "12")},
                ),
                Click(
                    "op",
                    "index_select",
                    ("index has 2 dims, but index_select takes one shared list",),
                    {"source": ()},
                ),
                Click(
                    "op",
                    "tf.gather",
                    ("tf.gather(x, index, axis=1)", "shape (2, 2, 2)"),
                    {"source": ("10", "11", "12", "20", "21", "22")},
                ),
            ),
            Typed(
                "index",
                "[[0], [2]]",
                ("out shape (2, 2, 1)", "index shape (2, 1)"),
                "[0, 2]]",
                "could not read '[0, 2]]' as a list of numbers",
            ),
        ),
    ),
    "notebooks/04_error_cases": (
        ExplorerCheck(
            "error_lab",
            0,
            (
                "index has dtype float32, but torch.gather takes positions as int64",
                "Picking a prepared call copies its index and dim into the boxes",
            ),
            (
                Click(
                    "call",
                    "missing index axis",
                    (
                        "Read as one position per row (as TensorFlow read it above):",
                        "index = index.unsqueeze(1)",
                        "torch.gather(x, 1, torch.tensor([[0], [1]]))",
                        "Read as the same positions (columns) for every row:",
                        "index = index.unsqueeze(0).expand(2, -1)",
                        "No GPU difference is documented for this rule; only "
                        "out-of-range positions behave differently on a GPU.",
                    ),
                    {"fault": ()},
                ),
                Click(
                    "call",
                    "negative index value",
                    (
                        "RuntimeError: index -1 is out of bounds for dimension 1",
                        "InvalidArgumentError: indices[0,1] = -1 is not in [0, 3)",
                        "Sources: pytorch#2300, pytorch#38944, tf.gather API page",
                        "index = torch.where(index < 0, index + 3, index)",
                    ),
                    {"fault": ("-1",)},
                ),
                Click(
                    "call",
                    "dim out of range",
                    (
                        "tf.gather(x, index, axis=2, batch_dims=1)",
                        "axis 2 is out of range: x has rank 2",
                        "# x has 2 dims: dim must be 0..1 (or -2..-1 from the end)",
                    ),
                    {"fault": ()},
                ),
                Click(
                    "call",
                    "empty float index (no checks)",
                    (
                        "an empty index skips every check but dim's",
                        "out shape (2, 0, 5)",
                    ),
                    {"fault": ()},
                ),
            ),
            Typed(
                "index",
                "[[0, 3], [1, 1]]",
                (
                    "index-out-of-range: index[0, 1] = 3, but dim 1 of input has "
                    "size 3",
                    "PyTorch's own message and TensorFlow's answer come from the "
                    "libraries",
                    "No automatic fix: clamping or wrapping the position 3",
                ),
                "[[0, 1], [1",
                "could not read '[[0, 1], [1' as a list of numbers",
            ),
        ),
    ),
    "notebooks/05_autograd": (
        ExplorerCheck(
            "gradient_accumulation",
            0,
            (
                "chapter weights",
                "✓ both autograd gradients equal the sums by hand",
                "Picking a weight choice copies its weights into the weights box",
            ),
            (
                Click(
                    "source",
                    "x[1, 1]",
                    (
                        "x[1, 1] is read by out[1, 0] (weight 1), out[1, 1] (weight 3)",
                        "out[1, 2] (weight 5): its gradient is 1 + 3 + 5 = 9.",
                    ),
                    {"index": ("1", "1", "1"), "out": ("1", "3", "5")},
                ),
                Click(
                    "weights",
                    "all ones",
                    ("its gradient is 1 + 1 + 1 = 3.",),
                    {"index": ("1", "1", "1"), "out": ("1", "1", "1")},
                ),
            ),
            Typed(
                "index",
                "[[0, 0, 0], [1, 2, 2]]",
                ("x[1, 1] is read by out[1, 0] (weight 1): its gradient is 1 = 1.",),
                "[[0, 0, 0], [1, 2, 3]]",
                "index-out-of-range: index[1, 2] = 3, but dim 1 of input has size 3",
            ),
        ),
    ),
    "notebooks/06_writing_by_index": (
        ExplorerCheck(
            "scatter",
            0,
            (
                "x.scatter_(1, index, src)",
                "src[0, 0] = 100 → out[0, 2]",
                "out[0, 2] ← 100, 102: one write stays (102 here); PyTorch promises "
                "none of them",
            ),
            (
                Click(
                    "reduce",
                    "sum",
                    (
                        'x.scatter_reduce_(1, index, src, "sum")',
                        "out[0, 2] ← 100, 102: sum(12, 100, 102) = 214 (old 12 "
                        "included)",
                    ),
                    {"collision": ("214", "228")},
                ),
                Click(
                    "include_self",
                    "False",
                    ("out[1, 1] ← 103, 104: sum(103, 104) = 207 (old value left out)",),
                    {"collision": ("202", "207")},
                ),
                Click(
                    "show",
                    "src[1, 1]",
                    ("src[1, 1] writes out[1, 1]",),
                    {
                        "src": ("104",),
                        "index": ("1",),
                        "target": ("207",),
                        "collision": ("202",),
                    },
                ),
            ),
            Typed(
                "index",
                "[[0, 1, 2], [2, 1, 0]]",
                ("src[1, 0] = 103 → out[1, 2]", "No output entry is written twice."),
                "[[0, 1, 3], [2, 1, 0]]",
                "index-out-of-range: index[0, 2] = 3 is outside 0..2",
            ),
        ),
    ),
}


def explorer_ids() -> list[str]:
    """Test ids such as ``01_gather_2d-gather_2d``."""
    return [
        f"{page.split('/')[-1]}-{check.explorer}"
        for page, checks in EXPLORERS.items()
        for check in checks
    ]


def rgb(hex_colour: str) -> str:
    """``#0072B2`` as a browser reports a computed colour: ``rgb(0, 114, 178)``."""
    red, green, blue = (int(hex_colour[k : k + 2], 16) for k in (1, 3, 5))
    return f"rgb({red}, {green}, {blue})"


@dataclass
class Visit:
    """An open page and what it did: errors, off-host and failed requests."""

    page: Page
    off_host: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)

    def problems(self) -> dict[str, list[str]]:
        """Everything that went wrong (none is expected: no error is known)."""
        return {
            "requests to other hosts": self.off_host,
            "page errors": self.page_errors,
            "console errors": self.console_errors,
            "failed requests": self.failed,
        }


@pytest.fixture
def visit(browser: Browser, site: str) -> Iterator[Callable[[str], Visit]]:
    """Open a page with other hosts blocked; wait until its explorers have rendered.

    Each visit gets a fresh browser context, so every load starts with a cold cache.
    """
    contexts = []

    def open_page(page_path: str, width: int = 1280, scheme: str = "light") -> Visit:
        context = browser.new_context(
            viewport={"width": width, "height": 900}, color_scheme=scheme
        )
        contexts.append(context)
        page = context.new_page()
        opened = Visit(page)

        def route(request_route: Route) -> None:
            if request_route.request.url.startswith(site):
                request_route.continue_()
            else:
                opened.off_host.append(request_route.request.url)
                request_route.abort()

        page.route("**/*", route)
        page.on("pageerror", lambda error: opened.page_errors.append(error.message))
        page.on(
            "console",
            lambda message: (
                message.type == "error" and opened.console_errors.append(message.text)
            ),
        )
        page.on(
            "response",
            lambda response: (
                response.status >= 400
                and opened.failed.append(f"{response.status} {response.url}")
            ),
        )
        page.goto(site + page_path, wait_until="domcontentloaded")
        try:
            page.wait_for_function(ALL_VIEWS_RENDERED, timeout=RENDER_TIMEOUT_MS)
        except PlaywrightTimeoutError:
            pytest.fail(f"{page_path}: explorers not drawn; {opened.problems()}")
        page.wait_for_load_state("networkidle")
        return opened

    yield open_page
    for context in contexts:
        context.close()


def test_vendored_files_are_exactly_what_make_vendor_js_wrote() -> None:
    """Every vendored file matches the sha256 in SOURCES.txt; none was added by hand."""
    listed = {}
    for line in (VENDOR_DIR / "SOURCES.txt").read_text().splitlines()[2:]:
        name, *_, digest = line.split()
        listed[name] = digest
    on_disk = {
        path.name: hashlib.sha256(path.read_bytes()).hexdigest()
        for path in VENDOR_DIR.iterdir()
        if path.name != "SOURCES.txt"
    }
    assert on_disk == listed


def test_every_static_file_is_loaded_by_the_book() -> None:
    """book/static holds only what _config.yml has pages load (no unused vendoring)."""
    config = yaml.safe_load((ROOT / "_config.yml").read_text())["sphinx"]["config"]
    # An html_js_files entry is a path, or [path, attributes].
    scripts = [e[0] if isinstance(e, list) else e for e in config["html_js_files"]]
    scripts += config["html_css_files"]
    # the exercise modules and their stylesheet are served from gatherlab/browser,
    # another static path
    modules = ROOT / "gatherlab" / "browser"
    scripts = [s for s in scripts if not (modules / s).exists()]
    loaded = set(config["nb_ipywidgets_js"]) | set(scripts)
    # scripts/fontawesome.js replaces the theme's file of that name (which every page
    # loads) with the icons the theme uses (tools/build/fontawesome_subset.py).
    loaded.add("scripts/fontawesome.js")
    static = ROOT / "book" / "static"
    present = {
        path.relative_to(static).as_posix()
        for path in static.rglob("*")
        if path.is_file()
    }
    assert present == loaded


def test_icon_subset_is_what_the_tool_writes_from_the_installed_theme(
    built_book: Path,
) -> None:
    from tools.build import fontawesome_subset

    stored = (ROOT / "book" / "static" / "scripts" / "fontawesome.js").read_text()
    assert stored == fontawesome_subset.subset_script()
    assert fontawesome_subset.bundle().stat().st_size > 1_000_000  # what it replaces
    served = built_book / "_static" / "scripts" / "fontawesome.js"
    assert served.read_text() == stored  # Sphinx copied it over the theme's bundle


def test_built_pages_load_nothing_from_other_hosts(built_book: Path) -> None:
    """No script, style, image or font in any built page points at another host."""
    loaders = re.compile(
        r"<(?:script|link|img|iframe|source)\b[^>]*>(?:[^<]*</script>)?", re.I
    )
    off_host = re.compile(r"(?:https?:)?//[\w-]+\.[\w.-]+|cdn|unpkg|jsdelivr", re.I)
    offenders = {}
    for page in sorted(built_book.rglob("*.html")):
        tags = [
            tag for tag in loaders.findall(page.read_text()) if off_host.search(tag)
        ]
        if tags:
            offenders[str(page.relative_to(built_book))] = tags
    assert not offenders, json.dumps(offenders, indent=2)


@pytest.mark.parametrize("page_path", book_pages())
def test_page_fits_the_budget(built_book: Path, page_path: str) -> None:
    """Each page's own HTML, saved widget state included, stays within 1.5 MB."""
    size = (built_book / f"{page_path}.html").stat().st_size
    assert size <= PAGE_BUDGET_BYTES


@needs_chromium
@pytest.mark.parametrize("page_path", book_pages())
def test_page_renders_offline(
    visit: Callable[[str], Visit], page_path: str, output_dir: Path
) -> None:
    """Every saved explorer draws, with no error and no other host asked."""
    opened = visit(f"{page_path}.html")
    opened.page.screenshot(
        path=output_dir / f"{page_path.split('/')[-1]}.png", full_page=True
    )
    views = opened.page.locator(VIEW_SCRIPT).count()
    expected = len(EXPLORERS.get(page_path, ()))
    assert views >= expected, (
        f"{page_path} shows {views} widgets; expected {expected} explorers"
    )
    assert opened.problems() == {key: [] for key in opened.problems()}


def marked_values(explorer: Locator, roles: list[str]) -> dict[str, list[str]]:
    """The texts of the cells the view marks with each role."""
    found = explorer.evaluate(
        """(root) => {
            const marked = {};
            for (const cell of root.querySelectorAll('td[data-mark]')) {
                (marked[cell.dataset.mark] ||= []).push(cell.innerText.trim());
            }
            return marked;
        }"""
    )
    return {role: found.get(role, []) for role in roles}


def choose(explorer: Locator, control: str, option: str) -> None:
    """Pick ``option`` on the button group or the select labelled ``control``."""
    group = explorer.get_by_role("group", name=control, exact=True)
    if group.count():
        group.get_by_role("button", name=option, exact=True).click()
    else:
        explorer.get_by_label(control, exact=True).select_option(label=option)


def type_into(explorer: Locator, box: str, text: str) -> None:
    """Type ``text`` into the text box labelled ``box`` and press Enter."""
    field_box = explorer.get_by_role("textbox", name=box, exact=True)
    field_box.fill(text)
    field_box.press("Enter")


@needs_chromium
@pytest.mark.parametrize(
    ("page_path", "check"),
    [(page, check) for page, checks in EXPLORERS.items() for check in checks],
    ids=explorer_ids(),
)
def test_explorer_works_with_no_kernel(
    visit: Callable[[str], Visit],
    page_path: str,
    check: ExplorerCheck,
    output_dir: Path,
) -> None:
    """Each choice shows its view; a typed tensor changes the view (computed in the
    page: no kernel runs); a bad one shows the rule message and keeps that view."""
    opened = visit(f"{page_path}.html")
    explorer = opened.page.locator(EXPLORER).nth(check.position)
    for text in check.first_view:
        expect(explorer).to_contain_text(text)
    for click in check.clicks:
        choose(explorer, click.control, click.option)
        for text in click.shows:
            expect(explorer).to_contain_text(text)
        if click.marked:
            marked = marked_values(explorer, list(click.marked))
            assert marked == {
                role: list(values) for role, values in click.marked.items()
            }
    typed = check.typed
    for text in typed.shows:
        expect(explorer).not_to_contain_text(text)
    type_into(explorer, typed.box, typed.valid)
    for text in typed.shows:
        expect(explorer).to_contain_text(text)
    type_into(explorer, typed.box, typed.invalid)
    expect(explorer).to_contain_text(typed.message)
    for text in typed.shows:  # the last good view stays
        expect(explorer).to_contain_text(text)
    name = page_path.split("/")[-1]
    explorer.screenshot(path=output_dir / f"{name}-typed.png")
    assert opened.problems() == {key: [] for key in opened.problems()}


# What a reader might type into any box: every one must give a view or a message.
ODD_TEXTS = (
    "",
    "7",
    "[]",
    "[[]]",
    "[[1.5, 0], [1, 1]]",
    "[[-9, 0], [1, 1]]",
    "[[[[0]]]]",
    "[[[[[0]]]]]",
    "[0, 1]",
    "[[0, 1], [1, 0], [0, 0]]",
    "[[1], [2, 3]]",
    "[[True, 0]]",
    str(list(range(40))),
    "[[2, 0], [1, 1]]",
)


@needs_chromium
@pytest.mark.parametrize("page_path", list(EXPLORERS))
def test_odd_input_never_raises_a_script_error(
    visit: Callable[[str], Visit], page_path: str
) -> None:
    """Every box takes every odd text with a view or a message, never a script error;
    the explorer still answers its controls afterwards."""
    opened = visit(f"{page_path}.html")
    explorer = opened.page.locator(EXPLORER).first
    boxes = [name for kind, name in controls_of(explorer) if kind == "textbox"]
    for box in boxes:
        for text in ODD_TEXTS:
            type_into(explorer, box, text)
            expect(explorer.locator(".gl-view")).not_to_be_empty()
        type_into(
            explorer, box, ODD_TEXTS[-1] if box != "x" else "[[1, 2, 3], [4, 5, 6]]"
        )
    assert opened.problems() == {key: [] for key in opened.problems()}


AXE_RUN = """([root, tags]) => axe.run(root, {runOnly: {type: 'tag', values: tags},
    resultTypes: ['violations']})
    .then(r => r.violations.map(v => v.id + ': ' + v.nodes.map(
        n => n.target.join(' ') + ' (' + n.failureSummary + ')'
    ).join('; ')))"""


def axe_violations(page: Page, scope: Locator | None = None) -> list[str]:
    """axe-core's WCAG 2.1 A and AA violations on the page, or only within ``scope``
    (its colours still judged against the page behind it), one line each."""
    if not page.evaluate("() => Boolean(window.axe)"):
        page.add_script_tag(path=str(AXE))
    if scope is None:
        return page.evaluate(f"(tags) => ({AXE_RUN})([document, tags])", AXE_TAGS)
    return scope.evaluate(f"(root, tags) => ({AXE_RUN})([root, tags])", AXE_TAGS)


def controls_of(explorer: Locator) -> list[tuple[str, str]]:
    """Every control of an explorer as (kind, accessible name or position)."""
    return explorer.evaluate(
        """(root) => [
            ...[...root.querySelectorAll('.gl-controls button')].map(
                b => ['button', b.closest('[role=group]').getAttribute('aria-label')
                      + '|' + b.textContent]),
            ...[...root.querySelectorAll('.gl-controls select')].map(
                s => ['select', s.labels[0].textContent]),
            ...[...root.querySelectorAll('.gl-controls input')].map(
                i => ['textbox', i.labels[0].textContent]),
        ]"""
    )


def violations_on_load_and_after_every_control(page: Page) -> dict[str, list[str]]:
    """axe's violations on the whole page on load, then in each explorer after each of
    its controls is used (each button pressed, each list set to its last choice, each
    box given a bad value, which shows a message): only the explorer changes, so axe
    looks only there; {} when there is none."""
    found = {"on load": axe_violations(page)}
    for k in range(page.locator(EXPLORER).count()):
        explorer = page.locator(EXPLORER).nth(k)
        for kind, name in controls_of(explorer):
            if kind == "button":
                group, _, option = name.partition("|")
                choose(explorer, group, option)
            elif kind == "select":
                select = explorer.get_by_label(name, exact=True)
                last = select.locator("option").last.text_content()
                select.select_option(label=last)
            else:
                type_into(explorer, name, "[[0, 1], [1")
            found[f"{kind} {name}"] = axe_violations(page, explorer)
    return {step: lines for step, lines in found.items() if lines}


@needs_chromium
def test_axe_in_an_explorer_sees_its_contrast_and_nothing_outside(
    visit: Callable[[str], Visit],
) -> None:
    """The sweep's scoped run is no blind spot: grey on grey inside the explorer is a
    contrast violation there, and the same outside it is not in the explorer's run."""
    page = visit("notebooks/01_gather_2d.html").page
    explorer = page.locator(EXPLORER).first
    assert axe_violations(page, explorer) == []
    grey = '<p style="color:#777;background:#888">faint</p>'
    page.evaluate(
        f"() => document.querySelector('main')"
        f".insertAdjacentHTML('afterbegin', '{grey}')"
    )
    assert axe_violations(page, explorer) == []
    explorer.evaluate(f"(root) => root.insertAdjacentHTML('beforeend', '{grey}')")
    (found,) = axe_violations(page, explorer)
    assert found.startswith("color-contrast: ")


@needs_chromium
@pytest.mark.parametrize("page_path", book_pages())
def test_axe_finds_no_wcag_aa_violation(
    visit: Callable[[str], Visit], page_path: str
) -> None:
    """No WCAG 2.1 AA violation on the page, nor in any explorer after each of its
    controls is used."""
    opened = visit(f"{page_path}.html")
    assert violations_on_load_and_after_every_control(opened.page) == {}


@needs_chromium
@pytest.mark.parametrize("page_path", list(EXPLORERS))
def test_explorer_controls_work_from_the_keyboard(
    visit: Callable[[str], Visit], page_path: str
) -> None:
    """Every control has a name; Tab reaches each one, Enter presses a button and keeps
    the focus on it, and a text box applies on Enter."""
    page = visit(f"{page_path}.html").page
    explorer = page.locator(EXPLORER).first
    names = explorer.evaluate(
        """(root) => [...root.querySelectorAll('button, select, input')].map(
            c => c.tagName === 'BUTTON'
                ? c.closest('[role=group]')?.getAttribute('aria-label') && c.textContent
                : c.labels?.[0]?.textContent)"""
    )
    assert names and all(names), names
    selects = explorer.locator(".gl-controls select")
    buttons = explorer.locator(".gl-controls button[aria-pressed=false]")
    assert selects.count() or buttons.count()
    if selects.count():  # a list: the arrow keys choose, and the focus stays
        view = explorer.locator(".gl-view").inner_text()
        selects.first.focus()
        page.keyboard.press("ArrowDown")
        expect(explorer.locator(".gl-view")).not_to_have_text(view)
        expect(selects.first).to_be_focused()
    if buttons.count():  # a button: Enter presses it, and the focus stays
        label = buttons.first.text_content()
        buttons.first.focus()
        page.keyboard.press("Enter")
        pressed = explorer.get_by_role("button", name=label, exact=True).first
        expect(pressed).to_have_attribute("aria-pressed", "true")
        expect(pressed).to_be_focused()
    page.keyboard.press("Tab")
    focused = page.evaluate("() => document.activeElement.closest('.gl-x') !== null")
    assert focused


# --- theme, phones, one voice (issue 23) ----------------------------------------

# The theme's own toggle: pydata-sphinx-theme sets html[data-theme] (and stores it).
THEME_TOGGLE_DARK = """() => {
    localStorage.setItem('mode', 'dark');
    document.documentElement.dataset.mode = 'dark';
    document.documentElement.dataset.theme = 'dark';
}"""
EXPLORER_COLOURS = f"""() => [...document.querySelectorAll('{EXPLORER}')].map(root => {{
    const style = getComputedStyle(root);
    const body = getComputedStyle(document.body);
    return [style.color, body.color, style.backgroundColor];
}})"""


@needs_chromium
@pytest.mark.parametrize("how", ["prefers-color-scheme", "theme toggle"])
@pytest.mark.parametrize("page_path", book_pages())
def test_dark_scheme_has_no_wcag_aa_violation(
    visit: Callable[..., Visit], page_path: str, how: str, output_dir: Path
) -> None:
    """In the dark scheme, from the system or the theme's toggle, axe finds no
    WCAG 2.1 AA violation (colour contrast included) on load; the explorers take the
    theme's text colour, never black. Both ways end in html[data-theme=dark], the one
    attribute every dark rule keys on, so the sweep after each explorer control runs
    once, under the system's scheme (the toggle's run would repeat it rule for rule)."""
    scheme = "dark" if how == "prefers-color-scheme" else "light"
    opened = visit(f"{page_path}.html", scheme=scheme)
    page = opened.page
    if how == "theme toggle":
        page.evaluate(THEME_TOGGLE_DARK)
    assert page.evaluate("() => document.documentElement.dataset.theme") == "dark"
    for colour, body, _ in page.evaluate(EXPLORER_COLOURS):
        assert colour == body != "rgb(0, 0, 0)"
    if page.locator(EXPLORER).count():
        page.locator(EXPLORER).first.screenshot(
            path=output_dir / f"{page_path.split('/')[-1]}-dark-{how.split()[0]}.png"
        )
    if how == "theme toggle":
        assert axe_violations(page) == []
    else:
        assert violations_on_load_and_after_every_control(page) == {}
    assert opened.problems() == {key: [] for key in opened.problems()}


# Every HTML cell output of the page (its solutions and the folds holding it opened):
# its own text colour and, for each element in it with text of its own that is drawn,
# that text's colour and the colour behind it (the backgrounds of it and its ancestors
# composited over white, as rgba numbers), and whether the element has a background of
# its own inside the output.
HTML_OUTPUT_COLOURS = """(selector) => {
    const rgba = (text) => {
        const found = text.match(/^rgba?\\(([^)]*)\\)$/);
        if (!found) throw new Error('not an rgb colour: ' + text);
        const [r, g, b, a = 1] = found[1].split(',').map(Number);
        return [r, g, b, a];
    };
    const behind = (element) => {
        const layers = [];
        for (let e = element; e; e = e.parentElement) {
            layers.push(rgba(getComputedStyle(e).backgroundColor));
        }
        return layers.reverse().reduce(([r, g, b], [R, G, B, a]) =>
            [R * a + r * (1 - a), G * a + g * (1 - a), B * a + b * (1 - a)],
            [255, 255, 255]);
    };
    const painted = (element, stop) => {
        for (let e = element; e !== stop; e = e.parentElement) {
            if (rgba(getComputedStyle(e).backgroundColor)[3] > 0) return true;
        }
        return false;
    };
    return [...document.querySelectorAll(selector)].map((output) => {
        output.querySelectorAll('details').forEach((d) => { d.open = true; });
        // and the folds (a Going deeper dropdown) that hold it
        for (let d = output.closest('details'); d;
            d = d.parentElement.closest('details')) d.open = true;
        const texts = [output, ...output.querySelectorAll('*')].filter((e) =>
            e.getClientRects().length > 0 &&
            [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()));
        return {
            name: output.firstElementChild?.className ?? '',
            box: behind(output),
            colour: rgba(getComputedStyle(output).color),
            texts: texts.map((e) => ({
                text: e.textContent.trim().slice(0, 40),
                colour: rgba(getComputedStyle(e).color),
                behind: behind(e),
                own: painted(e, output),
            })),
        };
    });
}"""
HTML_OUTPUT = ".bd-content div.cell_output div.output.text_html"
CHAPTERS = [
    f"notebooks/{path.stem}" for path in sorted(ROOT.glob("notebooks/0*.ipynb"))
]


def luminance(colour: list[float]) -> float:
    """WCAG's relative luminance of an sRGB colour given as 0-255 numbers."""

    def linear(channel: float) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(c) for c in colour[:3])
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(text: list[float], behind: list[float]) -> float:
    """WCAG's contrast ratio of text (rgba, its alpha composited) on ``behind``."""
    alpha = text[3]
    shown = [t * alpha + b * (1 - alpha) for t, b in zip(text[:3], behind, strict=True)]
    high, low = sorted((luminance(shown), luminance(behind)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@needs_chromium
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("page_path", CHAPTERS)
def test_html_outputs_follow_the_colour_scheme(
    visit: Callable[..., Visit], page_path: str, scheme: str, output_dir: Path
) -> None:
    """The book's HTML outputs (exercise checks and answer boxes, solutions, the
    legend, atlas tables) sit on the page's own colours: dark text on a light
    background in the light scheme, light text on a dark one in the dark scheme (the
    theme paints HTML outputs as light boxes there: book/static/book.css), and every
    text in them, solutions opened, has WCAG AA contrast (4.5:1) on what is behind it.
    In the dark scheme an HTML output of another kind keeps the theme's light box, and
    so do figures."""
    page = visit(f"{page_path}.html", scheme=scheme).page
    outputs = page.evaluate(HTML_OUTPUT_COLOURS, HTML_OUTPUT)
    assert outputs
    name = page_path.split("/")[-1]
    for k in {0, len(outputs) - 1}:  # the first and the last, solutions opened
        page.locator(HTML_OUTPUT).nth(k).screenshot(
            path=output_dir / f"{name}-output{k}-{scheme}.png"
        )
    for output in outputs:
        box, colour = luminance(output["box"]), luminance(output["colour"])
        if scheme == "dark":
            assert box < 0.05 < colour, output["name"]
        else:
            assert colour < 0.05 and box > 0.8, output["name"]
        for text in output["texts"]:
            assert contrast(text["colour"], text["behind"]) >= 4.5, (
                output["name"],
                text,
            )
            if not text["own"]:  # on the output's box: in the output's colours
                dark_text = luminance(text["colour"]) < luminance(text["behind"])
                assert dark_text == (scheme == "light"), (output["name"], text)
    if scheme == "dark":
        page.evaluate(
            """(selector) => document.querySelector(selector).insertAdjacentHTML(
                'afterend', '<div class="output text_html"><p>Not ours</p></div>')""",
            HTML_OUTPUT,
        )
        foreign = page.evaluate(HTML_OUTPUT_COLOURS, HTML_OUTPUT)
        (other,) = [output for output in foreign if output["name"] == ""]
        assert luminance(other["box"]) > 0.5 > luminance(other["colour"])
        figures = page.evaluate(HTML_OUTPUT_COLOURS, ".bd-content div.cell_output img")
        assert all(luminance(figure["box"]) > 0.5 for figure in figures)


PHONE = 390
# Typed into each box of each explorer at 390 px: long enough to be wider than the
# screen, short enough (36 entries) to be applied.
WIDE_TEXTS = {
    "index": "[[1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 0, 2], "
    "[0, 1, 1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0, 1, 1]]",
    "x": "[[1000001, 1000002, 1000003, 1000004, 1000005, 1000006, 1000007, 1000008, "
    "1000009, 1000010, 1000011, 1000012]]",
    "positions": "[[2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1], "
    "[1, 1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0]]",
    "features": "[[[1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009, "
    "1010, 1011]]]",
    "weights": "[[1000.5, 2000.25, 3000.125], [4000.5, 5000.25, 6000.125]]",
    "src": "[[100001, 100002, 100003, 100004, 100005, 100006, 100007, 100008, "
    "100009, 100010, 100011, 100012], [100013, 100014, 100015, 100016, 100017, "
    "100018, 100019, 100020, 100021, 100022, 100023, 100024]]",
}
PAGE_WIDTH = (
    "() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"
)


@needs_chromium
@pytest.mark.parametrize("page_path", list(EXPLORERS))
def test_phone_page_never_grows_wider_than_the_screen(
    visit: Callable[..., Visit], page_path: str, output_dir: Path
) -> None:
    """At 390 px the page is no wider than the screen on load (its prose's inline
    code wraps: book/static/book.css) and grows no wider after a wide tensor is typed
    into each box (wide content scrolls inside its own box); the explorer is no wider
    than the screen; text boxes use 16 px text (phones zoom into smaller) and every
    control is at least 44 px tall and 24 px wide (WCAG 2.2 target size)."""
    opened = visit(f"{page_path}.html", width=PHONE)
    page = opened.page
    on_load = page.evaluate(PAGE_WIDTH)
    assert on_load <= PHONE
    explorer = page.locator(EXPLORER).first
    sizes = explorer.evaluate(
        """(root) => [...root.querySelectorAll('button, select, input')].map(c => {
            const box = c.getBoundingClientRect();
            return [c.tagName, box.width, box.height,
                    parseFloat(getComputedStyle(c).fontSize)];
        })"""
    )
    for tag, width, height, font in sizes:
        assert height >= 44 and width >= 24, (tag, width, height)
        if tag != "BUTTON":
            assert font >= 16, (tag, font)
    boxes = [name for kind, name in controls_of(explorer) if kind == "textbox"]
    assert boxes
    widths = {}
    for box in boxes:
        type_into(explorer, box, WIDE_TEXTS[box])
        expect(explorer.locator(".gl-status")).to_be_empty()  # the text was applied
        widths[box] = page.evaluate(PAGE_WIDTH)
    name = page_path.split("/")[-1]
    page.screenshot(path=output_dir / f"{name}-phone.png", full_page=True)
    assert widths == dict.fromkeys(boxes, on_load)
    right = explorer.evaluate("(root) => root.getBoundingClientRect().right")
    assert right <= PHONE
    assert opened.problems() == {key: [] for key in opened.problems()}


# Where each atlas table's caption text lies, and the box the table scrolls in.
ATLAS_CAPTIONS = """() => [...document.querySelectorAll('table.gl-atlas')].map((t) => {
    const table = t;
    const range = document.createRange();
    range.selectNodeContents(table.querySelector('caption'));
    const lines = [...range.getClientRects()];
    const box = table.parentElement.getBoundingClientRect();
    return {left: Math.min(...lines.map((r) => r.left)),
            right: Math.max(...lines.map((r) => r.right)),
            box: [box.left, box.right], table: table.getBoundingClientRect().width};
})"""


@needs_chromium
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize(
    "page_path", ["notebooks/03_choosing_an_op", "notebooks/06_writing_by_index"]
)
def test_an_atlas_tables_caption_is_on_a_phones_screen(
    visit: Callable[..., Visit], page_path: str, scheme: str, output_dir: Path
) -> None:
    """At 390 px a wide atlas table scrolls inside its output box; its caption (which
    spanned the table and was centred on it, beyond the screen) reads inside the box
    and the screen, and stays there while the table scrolls (book/static/book.css)."""
    page = visit(f"{page_path}.html", width=PHONE, scheme=scheme).page
    captions = page.evaluate(ATLAS_CAPTIONS)
    assert any(c["table"] > PHONE for c in captions)  # a table wider than the phone
    for caption in captions:
        low, high = caption["box"]
        assert low - 1 <= caption["left"] < caption["right"] <= min(high, PHONE) + 1
    first = page.locator("table.gl-atlas > caption").first
    first.scroll_into_view_if_needed()
    name = page_path.split("/")[-1]
    page.screenshot(path=output_dir / f"{name}-atlas-caption-{scheme}.png")
    page.evaluate(
        "() => document.querySelectorAll('table.gl-atlas')"
        ".forEach((t) => { t.parentElement.scrollLeft = 400; })"
    )
    for caption in page.evaluate(ATLAS_CAPTIONS):
        low, high = caption["box"]
        assert low - 1 <= caption["left"] < caption["right"] <= min(high, PHONE) + 1


@needs_chromium
def test_a_click_or_focus_on_an_output_cell_traces_it(
    visit: Callable[..., Visit],
) -> None:
    """Chapter 1 says "Click an output cell such as out[1, 0]": a click traces it, and
    so does reaching a cell with Tab (the "show" list follows)."""
    page = visit("notebooks/01_gather_2d.html").page
    explorer = page.locator(EXPLORER).first
    out = explorer.locator('td[data-out="1,0"]')
    out.click()
    expect(explorer).to_contain_text("out[1, 0] ← index[1, 0] = 1 → x[1, 1] = 21")
    assert marked_values(explorer, ["out", "index", "source"]) == {
        "out": ["21"],
        "index": ["1"],
        "source": ["21"],
    }
    expect(explorer.get_by_label("show", exact=True)).to_have_value("3")
    focused = explorer.locator('td[data-out="1,0"]')
    expect(focused).to_be_focused()  # the redrawn cell keeps the focus
    page.keyboard.press("Tab")  # on to out[1, 1]
    expect(explorer).to_contain_text("out[1, 1] ← index[1, 1] = 1 → x[1, 1] = 21")
    expect(explorer.locator('td[data-out="1,1"]')).to_be_focused()


@needs_chromium
@pytest.mark.parametrize("page_path", list(EXPLORERS))
def test_one_error_box_while_typed_text_is_not_applied(
    visit: Callable[..., Visit], page_path: str
) -> None:
    """Text that cannot be read shows one visible error box ("Not applied"), not the
    last call's as well; the next call applied takes it away."""
    page = visit(f"{page_path}.html").page
    explorer = page.locator(EXPLORER).first
    box = next(name for kind, name in controls_of(explorer) if kind == "textbox")
    type_into(explorer, box, "[[0, 1], [1")
    visible = explorer.locator(".gl-bad:visible")
    expect(visible).to_have_count(1)
    expect(visible).to_contain_text("Not applied")
    type_into(explorer, box, WIDE_TEXTS[box])
    expect(explorer.locator(".gl-status")).to_be_empty()
    expect(explorer).not_to_have_attribute("data-unapplied", box)


@needs_chromium
def test_porting_explorer_says_what_each_call_gets(
    visit: Callable[..., Visit],
) -> None:
    """Chapter 3: tf.gather_nd's coordinates are shown, a position take_along_dim
    wrapped is said, and batch_dims following dim is said, never changed silently."""
    page = visit("notebooks/03_choosing_an_op.html").page
    explorer = page.locator(EXPLORER).first
    choose(explorer, "op", "tf.gather_nd")
    expect(explorer).to_contain_text("coordinates shape (2, 2, 2)")
    expect(explorer).to_contain_text("coordinates[..., 1] is index")
    choose(explorer, "op", "tf.gather batch_dims")
    expect(explorer).to_contain_text(
        "batch_dims=1 follows dim: dim 0 of x and of index pair up"
    )
    type_into(explorer, "index", "[[3, 0], [1, 1]]")
    choose(explorer, "op", "take_along_dim")
    expect(explorer).to_contain_text("take_along_dim wrapped index[0, 0] = 3 read as 0")
    choose(explorer, "dim", "dim 0")
    choose(explorer, "op", "tf.gather batch_dims")
    expect(explorer).to_contain_text(
        "batch_dims=0 follows dim: with dim 0 no leading dim pairs up, so this is "
        "plain tf.gather."
    )


LAB_TOKEN = "gatherlab-test"


@pytest.fixture
def jupyterlab(tmp_path: Path) -> Iterator[str]:
    """JupyterLab on 127.0.0.1 over a folder with one notebook that shows chapter 1's
    explorer; yields its URL. The kernel imports this checkout's gatherlab."""
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_code_cell(
            'from gatherlab.widgets import EXPLORERS\n\nEXPLORERS["gather_2d"]()'
        )
    ]
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    nbformat.write(notebook, tmp_path / "explorer.ipynb")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [
        str(Path(sys.executable).parent / "jupyter-lab"),
        "--no-browser",
        f"--port={port}",
        f"--ServerApp.token={LAB_TOKEN}",
        f"--ServerApp.root_dir={tmp_path}",
        "--allow-root",
    ]
    # Save the widget state with the notebook, as `make notebooks` does.
    settings = tmp_path / "settings" / "@jupyter-widgets" / "jupyterlab-manager"
    settings.mkdir(parents=True)
    (settings / "plugin.jupyterlab-settings").write_text('{"saveState": true}')
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "JUPYTERLAB_SETTINGS_DIR": str(tmp_path / "settings"),
    }
    server = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        yield f"http://127.0.0.1:{port}/lab/tree/explorer.ipynb?token={LAB_TOKEN}"
    finally:
        server.terminate()
        server.wait(timeout=30)


@needs_chromium
def test_jupyterlab_runs_the_explorer_from_the_installed_modules(
    browser: Browser, jupyterlab: str, tmp_path: Path
) -> None:
    """In JupyterLab the widget's _esm (lab.mjs) gets the modules from the kernel:
    the explorer draws, styled, and answers a click; the notebook saved from
    JupyterLab holds no view code."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    for _ in range(60):  # the server takes a few seconds to listen
        try:
            page.goto(jupyterlab, wait_until="domcontentloaded")
            break
        except PlaywrightError:
            page.wait_for_timeout(1000)
    page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=60_000)
    idle = page.locator("#jp-main-statusbar", has_text="Idle")
    idle.wait_for(timeout=60_000)
    page.locator(".jp-Notebook .jp-Cell").first.click()
    page.keyboard.press("Shift+Enter")
    explorer = page.locator(".jp-OutputArea .gl-x")
    expect(explorer).to_contain_text(
        "out[0, 0] ← index[0, 0] = 2 → x[0, 2] = 12", timeout=60_000
    )
    assert page.evaluate("() => !!document.querySelector('style[data-gatherlab]')")
    explorer.locator('td[data-out="1,0"]').click()
    expect(explorer).to_contain_text("out[1, 0] ← index[1, 0] = 1 → x[1, 1] = 21")
    page.keyboard.press("Control+s")
    saved = tmp_path / "explorer.ipynb"
    for _ in range(50):
        if "application/vnd.jupyter.widget-state+json" in saved.read_text():
            break
        page.wait_for_timeout(200)
    text = saved.read_text()
    state = nbformat.reads(text, as_version=4).metadata["widgets"]
    (model,) = [
        m["state"]
        for m in state["application/vnd.jupyter.widget-state+json"]["state"].values()
        if m["model_module"] == "anywidget"
    ]
    loader = ROOT / "gatherlab" / "browser" / "explorers" / "lab.mjs"
    assert model["_esm"] == loader.read_text()
    assert "parseTensor" not in text and "gl-x" not in text
    page.close()


# Output blocks a reader can see (a closed "Going deeper" fold hides its own), and those
# whose text runs past their box: the block itself, a <pre> or an explorer's trace
# (.gl-pre) inside it scrolls.
CUT_OFF_OUTPUTS = """() => {
    const outputs = [...document.querySelectorAll(
        '.bd-content div.cell_output > div.output')]
        .filter((o) => o.checkVisibility());
    const wide = outputs.filter((o) => [o, ...o.querySelectorAll('pre, .gl-pre')]
        .some((e) => e.scrollWidth > e.clientWidth + 1));
    return {count: outputs.length, wide: wide.map((o) => o.innerText.slice(0, 70))};
}"""


@needs_chromium
@pytest.mark.parametrize("page_path", CHAPTERS)
def test_on_a_phone_at_most_5_percent_of_outputs_are_cut_off(
    visit: Callable[..., Visit], page_path: str
) -> None:
    """At 390 px in the dark scheme a printed tensor, trace or message wraps inside its
    box (book/static/book.css), so the values a sentence refers to are on the screen:
    at most 5 % of the visible output blocks are wider than their box."""
    page = visit(f"{page_path}.html", width=PHONE, scheme="dark").page
    found = page.evaluate(CUT_OFF_OUTPUTS)
    share = len(found["wide"]) / found["count"]
    print(f"{page_path}: {len(found['wide'])} of {found['count']} outputs cut off")
    assert found["count"] > 10
    assert share <= 0.05, found["wide"]


@needs_chromium
def test_a_box_that_scrolls_sideways_fades_at_the_edge_it_scrolls_to(
    visit: Callable[..., Visit], output_dir: Path
) -> None:
    """A code cell wider than a phone scrolls in its box and fades at its right edge
    (book/static/scrollcue.js); scrolled to its end, the fade goes."""
    page = visit("notebooks/01_gather_2d.html", width=PHONE, scheme="dark").page
    locator = page.locator(".bd-content div.highlight > pre.gl-scrolls-right").first
    locator.scroll_into_view_if_needed()
    box = locator.element_handle()
    assert box is not None
    mask = box.evaluate("(e) => getComputedStyle(e).maskImage")
    assert "linear-gradient" in mask
    page.screenshot(path=output_dir / "01_gather_2d-scroll-cue-phone-dark.png")
    box.evaluate("(e) => { e.scrollLeft = e.scrollWidth; }")
    page.wait_for_function("(e) => !e.classList.contains('gl-scrolls-right')", arg=box)
    assert box.evaluate("(e) => getComputedStyle(e).maskImage") == "none"


# Each search, and where its first result must lead: the page and the index entry
# (```{index}```) beside the heading that answers it.
SEARCHES = {
    "gather index out of bounds": "04_error_cases",
    "take_along_dim vs gather": "03_choosing_an_op",
    "scatter_add duplicates nondeterministic": "06_writing_by_index",
    "gather_nd batch_dims": "02_batched_selection",
}


@needs_chromium
@pytest.mark.parametrize("query", list(SEARCHES))
def test_a_practitioners_search_lands_first_on_its_answer(
    browser: Browser, site: str, query: str
) -> None:
    """The built site's own search (Sphinx's searchindex.js, read by search.html) puts
    the section that answers each question first."""
    page = browser.new_page()
    page.goto(f"{site}search.html?q={quote(query)}")
    first = page.locator("#search-results ul.search li a").first
    first.wait_for(timeout=30_000)
    href = first.get_attribute("href") or ""
    page.close()
    assert href.startswith(f"notebooks/{SEARCHES[query]}.html#index-"), href

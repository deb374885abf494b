"""Sphinx extension (_config.yml, local_extensions): pages load only what they use.

Jupyter Book's theme stack puts on every page a 397 KB stylesheet (Bootstrap and every
Font Awesome icon class), eight more stylesheets, the 156 KB Font Awesome font, the
46 KB search index, Thebe's and the toggle button's and sphinx-design's files, and a
few inline scripts twice. This extension, with book/_templates/layout.html:

- drops repeated assets (Sphinx 7.4 adds each inline script registered after its
  builder started a second time, as ``''`` beside ``None``: "Identifier 'THEBE_JS_URL'
  has already been declared");
- drops Thebe's files and configuration (this book never launches Thebe), and
  sphinx-togglebutton's and sphinx-design's files from pages that have none of their
  elements;
- serves the theme's and every extension's stylesheets in their order, without the
  rules whose classes or ids appear in no built page and no served script (how
  PurgeCSS decides; see ``purge``), and without Font Awesome's ``.fa-NAME:before``
  glyph rules, since book/static/scripts/fontawesome.js draws those icons as SVG
  (tools/build/fontawesome_subset.py), as two stylesheets (``split``):
  ``_static/lean.css`` in <head>, the rules that an element of some page as written
  matches (soupsieve on the built pages; a state such as ``:hover``, a part such as
  ``::before`` and the colour-scheme attributes left out of the selector), which is all
  the first paint needs; and ``_static/lean-late.css`` at the end of <body>, the rest
  (what only an element or class a script adds uses, and print), which the scripts after
  it wait for. The first screen looks the same without it (tests/test_site.py);
- points the Font Awesome faces that rules still use at the glyphs those rules name
  and nothing else, a 2 KB font inside lean.css as a ``data:`` URL;
- serves Sphinx's, sphinx-copybutton's, the theme's and the book's small classic
  scripts, which every page loads one after the other in <head>, as one,
  ``_static/lean.js``, and defers it and explorers.js to the end of <body> (each
  does its work once the page is parsed): the text waits for no script. The inline
  scripts left in <head> set DOCUMENTATION_OPTIONS's fields, so documentation_options.js
  is written inline before them. The search page keeps its scripts in <head>;
- moves the saved widgets' state after the text, loads every image lazily (the Colab
  logo of the theme's closed launch menu too: no request unless it is opened), and
  fetches deferred scripts and modules after the text (with layout.html);
- builds each exercise's checks, from the package, beside the page: the notebook's
  stored output holds only a marker, ``<div class="gl-page-check" data-exercise="ID"
  hidden>`` (gatherlab/exercises/result.py), and the build computes the exercise's
  payload (gatherlab/exercises/page.py: its cases, misconceptions and words, up to
  70 KB an exercise) into ``_static/exercises/ID.json``, giving the marker
  ``data-head='JSON'`` (what the answer box needs to be drawn: ``HEAD``) and
  ``data-payload-src`` naming that file, which gatherlab/browser/checker/exercises.mjs
  fetches on the box's first use. No chapter stores a payload
  (tests/test_notebooks.py); tools/build/site_zip.py puts each file back in its page as
  a ``data:`` URL, since a page opened from disk may fetch no file.

The search index is loaded by the search page only (layout.html): the search box on
every page submits to it.
"""

from __future__ import annotations

import base64
import html
import io
import json
import re
from pathlib import Path
from typing import Any

import soupsieve
import tinycss2
from bs4 import BeautifulSoup
from fontTools import subset
from sphinx.application import Sphinx

LEAN_CSS = "lean.css"
# What no element of a page as written needs: loaded at the end of <body> (layout.html).
LATE_CSS = "lean-late.css"
# The subset of the icon font, as a data: URL in lean.css.
FONT_URL = "data:font/woff;base64,"
# The theme's own stylesheets, which its template writes before Sphinx's css_files
# (layout.html writes lean.css in their place); theme.css only imports basic.css.
THEME_CSS = ("basic.css", "styles/pydata-sphinx-theme.css")
# What layout.html and the search page load beside Sphinx's script_files.
TEMPLATE_SCRIPTS = (
    "scripts/bootstrap.js",
    "scripts/pydata-sphinx-theme.js",
    "scripts/fontawesome.js",
    "searchtools.js",
    "language_data.js",
)
LEAN_JS = "lean.js"
# Written inline in <head>: the inline scripts after it set DOCUMENTATION_OPTIONS's
# page name (a ``const`` of the page's global scope).
OPTIONS = "_static/documentation_options.js"
# Loaded by every page, in this order, as plain <script src> (prune checks): Sphinx's,
# sphinx-copybutton's, the theme's and the book's small classic scripts, as lean.js.
BUNDLED = (
    "_static/doctools.js",
    "_static/sphinx_highlight.js",
    "_static/clipboard.min.js",
    "_static/copybutton.js",
    "_static/scripts/sphinx-book-theme.js",
    "_static/a11y.js",
    "_static/scrollcue.js",
)
# Classic scripts that wait for the page to be parsed anyway (each does its work on
# DOMContentLoaded, or at once when that has passed): deferred to the end of <body>
# (layout.html), so that they no longer hold the text. The search page keeps them in
# <head>: its searchtools.js calls doctools.js as it runs.
DEFERRABLE = (*BUNDLED, "_static/explorers.js")
DEFERRED = {"defer", "async"}
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
SOLID_FONT = "vendor/fontawesome/webfonts/fa-solid-900.ttf"
SOLID_FACE = re.compile(r"url\([^)]*fa-solid-900\.woff2\)[^;}]*")
# Words of the built pages and scripts: class names, ids, tag names, strings.
WORD = re.compile(r"[A-Za-z_][\w-]*")
# The class and id names a selector needs (attribute values and strings left out).
NEEDS = re.compile(r"[.#](-?[A-Za-z_][\w-]*)")
QUOTED = re.compile(r"\[[^\]]*\]|\"[^\"]*\"|'[^']*'")
# :is(), :where(), :not(), :has() need any or none of theirs: left out, so kept.
BRACKETED = re.compile(r"\([^()]*\)")
DRAWN_ICON = re.compile(r"\.fa-[\w-]+::?before")
RELATIVE_URL = re.compile(r"url\(\s*(['\"]?)(?!data:|[a-z]+://|/|#)([^'\")]+)\1\s*\)")
# Font Awesome's glyphs sit in the private use area; tinycss2 writes them unescaped.
PRIVATE_USE = re.compile("[\ue000-\uf8ff]")
IMAGE = re.compile(r"<img (?![^>]*\bloading=)")
# What the page's own scripts may change before lean-late.css has loaded: the colour
# scheme attributes the inline <head> script sets. Selectors on them count whatever
# their value; other state (a class a script adds, :hover) waits for lean-late.css.
SCHEME_ATTRIBUTE = re.compile(r"\[\s*data-(?:bs-)?(?:theme|mode)\b[^\]]*\]")
PSEUDO = re.compile(r"::?[a-zA-Z-]+")
NOT_STATE = re.compile(r":not\(\s*(:[a-zA-Z-]+(?:\([^()]*\))?)\s*\)")
# Pseudo-classes soupsieve matches on a page as written (the others need a state).
STRUCTURAL = re.compile(
    r":(?:root|first-child|last-child|only-child|first-of-type|last-of-type|"
    r"only-of-type|nth-child|nth-last-child|nth-of-type|nth-last-of-type|empty|"
    r"not|is|where|has)\b"
)
THEBE_CONFIG = re.compile(r'\s*<script type="text/x-thebe-config">.*?</script>', re.S)
# A stub's marker (gatherlab/exercises/result.py's page_marker): its exercise's id.
MARKER = re.compile(r'class="gl-page-check" data-exercise="([\w.-]+)"')
PAYLOADS = "exercises"  # under _static: one JSON file per exercise
# What exercises.mjs draws an answer box from, before the payload is fetched; of a
# choice, its label and text (the verdicts stay in the file).
HEAD = ("id", "kind", "args", "call", "notebook_checks")
CHOICE_HEAD = ("label", "text")
# Per page: an extension's files, dropped when the page has none of its elements. A
# chapter's "Going deeper" folds are plain <details class="gl-fold"> written in its
# markdown (styled by book.css), so they need none of these.
OPTIONAL = {
    "togglebutton": re.compile(r'class="[^"]*(?<![\w-])(toggle|dropdown)(?![\w-])'),
    "design": re.compile(r'class="[^"]*\bsd-'),
    "design-tabs": re.compile(r'class="[^"]*\bsd-tab'),
}


def _asset_key(asset: Any) -> tuple[str, int, tuple[tuple[str, str], ...]]:
    attributes = tuple(sorted(asset.attributes.items()))
    return (asset.filename or "", asset.priority, attributes)


def _belongs(asset: Any, name: str) -> bool:
    text = f"{asset.filename or ''} {asset.attributes.get('body', '')}"
    if name == "togglebutton":  # its three inline settings too
        return bool(re.search(r"toggle(button|Hint|OpenOnPrint)", text))
    return name in text.lower()


def prune(
    app: Sphinx, pagename: str, templatename: str, context: dict, doctree: Any
) -> None:
    """Drop repeated, Thebe's and unused assets; hand the stylesheets to lean.css."""
    if "script_files" not in context:
        return
    if not getattr(app, "lean_js_written", False):
        write_lean_js(Path(app.outdir))
        app.lean_js_written = True  # type: ignore[attr-defined]
    body = context.get("body", "")
    unused = {"thebe"} | {n for n, use in OPTIONAL.items() if not use.search(body)}
    seen: set[tuple] = set()
    scripts = []
    deferred = []  # run after parsing anyway: fetched after the text (layout.html)
    state = ""
    for asset in context["script_files"]:
        key = _asset_key(asset)
        if key in seen or any(_belongs(asset, name) for name in unused):
            continue
        seen.add(key)
        if asset.attributes.get("type") == WIDGET_STATE:
            state = f'<script type="{WIDGET_STATE}">{asset.attributes["body"]}</script>'
            continue
        if DEFERRED.intersection(asset.attributes) or asset.attributes.get("type") == (
            "module"
        ):
            deferred.append(asset)
        else:
            scripts.append(asset)
        if asset.filename:
            app.env.lean_scripts.add(str(asset.filename))  # type: ignore[attr-defined]
    scripts = [_inline_options(app, asset) for asset in scripts]
    files = {str(asset.filename) for asset in scripts if asset.filename}
    if pagename != "search" and files <= set(DEFERRABLE):
        # Deferred too, before the theme's scripts and in their order (layout.html).
        context["lean_early"] = bundled(
            [type(a)(a.filename, defer="defer") for a in scripts if a.filename]
        )
        scripts = [asset for asset in scripts if not asset.filename]
    else:
        context["lean_early"] = []
        scripts = bundled(scripts)
    context["script_files"][:] = scripts
    context["lean_deferred"] = deferred
    # Every page lists the same stylesheets; lean.css holds them all (purge drops the
    # rules of an extension whose elements no page has).
    order = app.env.lean_css_order  # type: ignore[attr-defined]
    app.env.lean_used.update(set(OPTIONAL) - unused)  # type: ignore[attr-defined]
    for asset in context["css_files"]:
        name = str(asset.filename).removeprefix("_static/")
        if not _belongs(asset, "thebe") and name not in order:
            order.append(name)
    context["css_files"][:] = []
    # The saved widgets' state (tens of KB) after the text, not before it in <head>:
    # explorers.js reads it once the page is parsed.
    body = THEBE_CONFIG.sub("", body)
    # Figures load as the reader nears them, not with the first screen's text.
    body = IMAGE.sub(r'<img loading="lazy" ', body)
    body = payloads_out(body, Path(app.outdir) / "_static", context["pathto"])
    context["body"] = body + state
    context["lean_css"] = f"_static/{LEAN_CSS}"
    context["lean_late_css"] = f"_static/{LATE_CSS}"


def write_lean_js(html: Path) -> None:
    """lean.js, the BUNDLED files in their order: written with the first page (Sphinx
    has copied the static files by then), so that each page's ``?v=`` checksum of it
    is this build's."""
    # Each file ends its last statement, so one file's text cannot run into the next.
    parts = [(html / name).read_text(encoding="utf-8") for name in BUNDLED]
    (html / "_static" / LEAN_JS).write_text(";\n".join(parts) + "\n", encoding="utf-8")


def _inline_options(app: Sphinx, asset: Any) -> Any:
    """documentation_options.js as an inline script; any other ``asset`` as it is."""
    if str(asset.filename) != OPTIONS or asset.attributes:
        return asset
    text = (Path(app.outdir) / OPTIONS).read_text(encoding="utf-8")
    return type(asset)(None, body=text.strip())


def _attribute(data: Any) -> str:
    """``data`` as JSON for a single-quoted attribute: only &, <, > and ' escaped."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return html.escape(text, quote=False).replace("'", "&#x27;")


def payloads_out(body: str, static: Path, pathto: Any) -> str:
    """``body`` with each exercise's marker given its head and the URL from the page
    (``pathto``) of ``static/exercises/ID.json``, which holds the exercise's payload,
    computed now from the package."""
    if not MARKER.search(body):
        return body
    from gatherlab.exercises import EXERCISES
    from gatherlab.exercises.page import payload

    def build(match: re.Match[str]) -> str:
        exercise_id = match.group(1)
        data = payload(EXERCISES[exercise_id])
        name = f"{PAYLOADS}/{exercise_id}.json"
        (static / PAYLOADS).mkdir(parents=True, exist_ok=True)
        text = json.dumps(data, sort_keys=True, separators=(",", ":"))
        (static / name).write_text(text, encoding="utf-8")
        head = {key: data[key] for key in HEAD if key in data}
        if "choices" in data:
            head["choices"] = [
                {k: c[k] for k in CHOICE_HEAD if k in c} for c in data["choices"]
            ]
        src = html.escape(pathto(f"_static/{name}", 1))
        return (
            f"{match.group(0)} data-head='{_attribute(head)}' "
            f'data-payload-src="{src}"'
        )

    return MARKER.sub(build, body)


def bundled(scripts: list[Any]) -> list[Any]:
    """``scripts`` with the BUNDLED files (those of them the page loads, in their
    order, each with the same attributes) as lean.js, where the first of them was."""
    names = [str(asset.filename or "") for asset in scripts]
    found = [n for n in BUNDLED if n in names]
    if len(found) < 2:
        return scripts
    run = [scripts[names.index(n)] for n in found]
    if [names.index(n) for n in found] != sorted(names.index(n) for n in found):
        return scripts
    if len({tuple(sorted(asset.attributes.items())) for asset in run}) != 1:
        return scripts
    lean = type(run[0])(f"_static/{LEAN_JS}", **run[0].attributes)
    first = names.index(found[0])
    rest = [a for i, a in enumerate(scripts) if names[i] not in found or i == first]
    return [lean if asset is scripts[first] else asset for asset in rest]


def words(html: Path, scripts: set[str]) -> set[str]:
    """Every word of the built pages and of the scripts they load (with the theme's,
    the search page's, and every module under _static)."""
    static = html / "_static"
    paths = [
        *html.rglob("*.html"),
        *(html / name for name in scripts),
        *(static / name for name in TEMPLATE_SCRIPTS),
        *static.rglob("*.mjs"),
    ]
    found: set[str] = set()
    for path in paths:
        if path.is_file():
            text = path.read_text(encoding="utf-8", errors="ignore")
            found.update(WORD.findall(text))
    return found


def _used(selector: str, present: set[str]) -> bool:
    if DRAWN_ICON.fullmatch(selector.strip()):
        return False
    plain = QUOTED.sub("", selector)
    while BRACKETED.search(plain):
        plain = BRACKETED.sub("", plain)
    return all(name in present for name in NEEDS.findall(plain))


def purge(css: str, present: set[str]) -> str:
    """``css`` without the selectors that need a class or id no page or script has."""
    out = []
    rules = tinycss2.parse_stylesheet(css, skip_whitespace=True, skip_comments=True)
    for rule in rules:
        if rule.type == "qualified-rule":
            selectors = tinycss2.serialize(rule.prelude).split(",")
            kept = [s.strip() for s in _split(selectors) if _used(s, present)]
            if kept:
                block = tinycss2.serialize(rule.content).strip()
                out.append(f"{','.join(kept)}{{{block}}}")
        elif rule.type == "at-rule":
            prelude = tinycss2.serialize(rule.prelude).strip()
            if rule.content is None:
                out.append(f"@{rule.at_keyword} {prelude};")
            elif rule.lower_at_keyword in {"media", "supports", "container", "layer"}:
                inner = purge(tinycss2.serialize(rule.content), present)
                if inner:
                    out.append(f"@{rule.at_keyword} {prelude}{{{inner}}}")
            else:  # @font-face, @keyframes, @page: kept whole
                block = tinycss2.serialize(rule.content).strip()
                out.append(f"@{rule.at_keyword} {prelude}{{{block}}}")
    return "\n".join(out)


def _split(parts: list[str]) -> list[str]:
    """Rejoin the pieces of selectors that held a comma inside brackets, :is(...)."""
    joined: list[str] = []
    for part in parts:
        if joined and joined[-1].count("(") > joined[-1].count(")"):
            joined[-1] += "," + part
        else:
            joined.append(part)
    return joined


def _rebased(css: str, name: str) -> str:
    """``css`` of ``_static/NAME`` with relative urls rewritten from _static/."""
    folder = Path(name).parent

    def rewrite(match: re.Match) -> str:
        target = (folder / match.group(2)).as_posix()
        while "/../" in f"/{target}":
            target = re.sub(r"(^|/)[^/]+/\.\./", r"\1", target, count=1)
        return f"url({target})"

    return RELATIVE_URL.sub(rewrite, css)


def write_lean_assets(app: Sphinx, exception: Exception | None) -> None:
    """After the pages are written: lean.css and its icon font."""
    order = getattr(app.env, "lean_css_order", [])
    if exception or app.builder.format != "html" or not order:
        return  # nothing written (or nothing rendered): the last lean.css stands
    html = Path(app.outdir)
    static = html / "_static"
    unused = set(OPTIONAL) - app.env.lean_used  # type: ignore[attr-defined]
    names = [*THEME_CSS, *(n for n in order if not any(u in n for u in unused))]
    css = "\n".join(
        _rebased((static / n).read_text(encoding="utf-8"), n) for n in names
    )
    lean = purge(css, words(html, app.env.lean_scripts))  # type: ignore[attr-defined]
    glyphs = {ord(glyph) for glyph in PRIVATE_USE.findall(lean)}
    font = subset.Subsetter(subset.Options(flavor="woff", layout_features=[]))
    face = subset.load_font(str(static / SOLID_FONT), subset.Options())
    font.populate(unicodes=glyphs)
    font.subset(face)
    woff = io.BytesIO()
    subset.save_font(face, woff, subset.Options(flavor="woff"))
    # In the stylesheet as a data: URL: the glyphs (2 KB) cost no request of their own.
    data = base64.b64encode(woff.getvalue()).decode("ascii")
    url = f'url({FONT_URL}{data}) format("woff")'
    lean = SOLID_FACE.sub(lambda _: url, lean)
    pages = written_pages(html)
    critical, late = split(lean, pages)
    (static / LEAN_CSS).write_text(critical, encoding="utf-8")
    (static / LATE_CSS).write_text(late, encoding="utf-8")


def written_pages(html: Path) -> list[BeautifulSoup]:
    """The site's pages as written, each parsed; every image in them made lazy (the
    theme's header, outside ``body``, has the Colab logo in its closed launch menu)."""
    pages = []
    for path in sorted(html.rglob("*.html")):
        if {"_static", "_sources"} & set(path.relative_to(html).parts):
            continue
        text = path.read_text(encoding="utf-8")
        lazy = IMAGE.sub(r'<img loading="lazy" ', text)
        if lazy != text:
            path.write_text(lazy, encoding="utf-8")
        pages.append(BeautifulSoup(lazy, "html.parser"))
    return pages


def as_written(selector: str) -> str:
    """``selector`` for the page as written: the colour-scheme attributes and the
    pseudo-classes of a state (``:hover``) or of a part (``::before``) left out."""
    # Of a state a page as written is not in: ":not(:hover)" holds, so it goes.
    selector = NOT_STATE.sub(
        lambda m: m.group(0) if STRUCTURAL.match(m.group(1)) else "", selector
    )
    out: list[str] = []
    i = 0
    while i < len(selector):
        char = selector[i]
        scheme = SCHEME_ATTRIBUTE.match(selector, i)
        if scheme or (char == ":" and not STRUCTURAL.match(selector, i)):
            if scheme:
                j = scheme.end()
            else:
                name = PSEUDO.match(selector, i)
                j = name.end() if name else i + 1
                if j < len(selector) and selector[j] == "(":  # its argument too
                    depth = 0
                    while j < len(selector):
                        depth += {"(": 1, ")": -1}.get(selector[j], 0)
                        j += 1
                        if depth == 0:
                            break
            # A compound left empty (".x ::before", ":hover") is any element.
            before = out[-1] if out else " "
            after = selector[j] if j < len(selector) else " "
            if before in " >+~(," and after in " >+~),":
                out.append("*")
            i = j
        elif char in "[\"'":  # an attribute selector or a string: copied whole
            end = {"[": "]"}.get(char, char)
            j = selector.find(end, i + 1)
            j = len(selector) if j < 0 else j + 1
            out.append(selector[i:j])
            i = j
        else:
            out.append(char)
            i += 1
    return "".join(out).strip() or "*"


def split(css: str, pages: list[BeautifulSoup]) -> tuple[str, str]:
    """``css`` as (critical, late): the rules a selector of which matches an element
    of a page as written (``as_written``), with @font-face, @keyframes and the like,
    and the rest (what only a script's element or state, or print, uses)."""
    classes = [
        {c for tag in page.find_all(True) for c in tag.get("class", [])}
        | {tag["id"] for tag in page.find_all(id=True)}
        for page in pages
    ]
    known: dict[str, bool] = {}

    def matches(selector: str) -> bool:
        plain = as_written(selector)
        if plain not in known:
            needs = plain
            while BRACKETED.search(needs):
                needs = BRACKETED.sub("", needs)
            names = set(NEEDS.findall(QUOTED.sub("", needs)))
            try:
                compiled = soupsieve.compile(plain)
            except Exception:  # what soupsieve cannot read counts as used
                known[plain] = True
            else:
                known[plain] = any(
                    names <= found and compiled.select_one(page) is not None
                    for page, found in zip(pages, classes, strict=True)
                )
        return known[plain]

    return _split_rules(css, matches)


def _split_rules(css: str, matches: Any) -> tuple[str, str]:
    critical, late = [], []
    rules = tinycss2.parse_stylesheet(css, skip_whitespace=True, skip_comments=True)
    for rule in rules:
        if rule.type == "qualified-rule":
            selectors = _split(tinycss2.serialize(rule.prelude).split(","))
            block = tinycss2.serialize(rule.content).strip()
            used = [s.strip() for s in selectors if matches(s)]
            unused = [s.strip() for s in selectors if s.strip() not in used]
            if used:
                critical.append(f"{','.join(used)}{{{block}}}")
            if unused:
                late.append(f"{','.join(unused)}{{{block}}}")
        elif rule.type == "at-rule":
            prelude = tinycss2.serialize(rule.prelude).strip()
            if rule.content is None:
                critical.append(f"@{rule.at_keyword} {prelude};")
            elif rule.lower_at_keyword == "media" and prelude == "print":
                late.append(tinycss2.serialize([rule]))
            elif rule.lower_at_keyword in {"media", "supports", "container", "layer"}:
                inner = _split_rules(tinycss2.serialize(rule.content), matches)
                for out, part in zip((critical, late), inner, strict=True):
                    if part:
                        out.append(f"@{rule.at_keyword} {prelude}{{{part}}}")
            else:  # @font-face, @keyframes, @page: kept whole, with the text
                block = tinycss2.serialize(rule.content).strip()
                critical.append(f"@{rule.at_keyword} {prelude}{{{block}}}")
    return "\n".join(critical), "\n".join(late)


def start(app: Sphinx, *args: Any) -> None:
    """What every page listed, kept in the environment for incremental builds."""
    for name in ("lean_css_order", "lean_scripts", "lean_used"):
        if not hasattr(app.env, name):
            setattr(app.env, name, [] if name == "lean_css_order" else set())


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("builder-inited", start)
    app.connect("html-page-context", prune, priority=900)
    # After the theme rewrites pygments.css (its own build-finished handler).
    app.connect("build-finished", write_lean_assets, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": False}

"""Zip the built book so that it works opened from disk (``file://``).

Run: ``.venv/bin/python tools/build/site_zip.py [--html _build/html] [--out
_build/site.zip]`` (``make site-zip`` builds the book first). Unzip it anywhere and open
``index.html``.

A page opened from disk has no origin, so Chromium refuses every ES module it would
fetch from disk (``<script type="module" src>``, ``import "./core.mjs"``,
``import(url)``: "blocked by CORS policy"), while classic scripts, stylesheets and
images load as usual. This tool leaves the site as built except for that: each page
of the zip starts with an import map that gives every module under ``_static/`` (its
relative imports rewritten to the bare names ``site/_static/NAME.mjs``) as a
``data:`` URL, under its bare name and under its path from that page, so that

- a module script ``<script type="module" src=".../_static/x.mjs">`` becomes the
  inline ``<script type="module">import "site/_static/x.mjs";</script>``;
- a module's ``import ... from "./core.mjs"`` finds ``site/_static/core.mjs``;
- a classic script's ``import(new URL("x.mjs", base))`` finds the path key;
- a module's ``import.meta.url`` still names its own path (the page's
  ``_static/NAME.mjs``), so URLs it builds from it point into ``_static/``.

What the zip cannot give a page on disk is ``fetch()`` of a file: Chromium refuses
every ``file://`` request of it. So each exercise's payload, which the site serves as
``_static/exercises/ID.json`` for exercises.mjs to fetch on first use
(tools/build/lean_pages.py), goes back into its page as a ``data:`` URL in
``data-payload-src``: fetching a ``data:`` URL needs no file.

Chromium loads modules from ``data:`` URLs and inline module scripts on ``file://``
pages; nothing is fetched from disk as a module. Each page carries its own copy of
the modules' text (the zip's price for working from disk). Source maps are left out.
"""

from __future__ import annotations

import argparse
import base64
import json
import posixpath
import re
import sys
import zipfile
from html import unescape
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BARE = "site/_static/"
# Static imports and re-exports, side-effect imports, and import("...") of a literal.
RELATIVE_IMPORT = re.compile(
    r"""(\bfrom\s*|\bimport\s*\(?\s*)(["'])(\.{1,2}/[^"']+)\2"""
)
MODULE_SCRIPT = re.compile(
    r"""<script\b(?=[^>]*\btype=["']module["'])[^>]*\bsrc=["']([^"']+)["'][^>]*>"""
    r"""\s*</script>"""
)
IMPORT_META_URL = re.compile(r"\bimport\.meta\.url\b")
PAYLOAD_SRC = re.compile(r'\bdata-payload-src="([^"]+)"')
HEAD = re.compile(r"<head[^>]*>", re.I)


def bare_sources(static: Path) -> dict[str, str]:
    """Every module under ``static`` by path, its relative imports made bare."""
    names = {p.relative_to(static).as_posix() for p in static.rglob("*.mjs")}
    modules = {}
    for name in sorted(names):

        def bare(match: re.Match[str], name: str = name) -> str:
            target = posixpath.normpath(
                posixpath.join(posixpath.dirname(name), match.group(3))
            )
            if target not in names:
                raise SystemExit(f"{name} imports {match.group(3)}: not in _static")
            return f"{match.group(1)}{match.group(2)}{BARE}{target}{match.group(2)}"

        text = (static / name).read_text(encoding="utf-8")
        modules[name] = RELATIVE_IMPORT.sub(bare, text)
    return modules


def import_map(modules: dict[str, str], to_static: str) -> str:
    """The import map for a page whose path to ``_static/`` is ``to_static``."""
    imports = {}
    for name, text in modules.items():
        # import.meta.url of a data: URL has no folder: give each module its own.
        here = f"new URL({json.dumps(to_static + name)}, document.baseURI).href"
        text = IMPORT_META_URL.sub(here, text)
        url = "data:text/javascript;base64," + base64.b64encode(
            text.encode("utf-8")
        ).decode("ascii")
        imports[BARE + name] = url
        imports[f"{to_static}{name}"] = url
    body = json.dumps({"imports": imports}).replace("</", "<\\/")
    return f'<script type="importmap">{body}</script>'


def for_disk(page: str, depth: int, modules: dict[str, str]) -> str:
    """One built page, rewritten to run its modules from ``file://``."""
    to_static = "../" * depth + "_static/" if depth else "./_static/"

    def inline(match: re.Match[str]) -> str:
        path = match.group(1).split("?")[0]
        name = path.split("_static/", 1)[-1]
        if name not in modules:
            raise SystemExit(f"module script {path}: not under _static")
        return f'<script type="module">import "{BARE}{name}";</script>'

    head = HEAD.search(page)
    if head is None or not modules:  # no page (a theme's template), or no module
        return page
    page = MODULE_SCRIPT.sub(inline, page)
    cut = HEAD.search(page).end()  # type: ignore[union-attr]
    return page[:cut] + import_map(modules, to_static) + page[cut:]


def with_payloads(page: str, folder: Path) -> str:
    """``page`` (in ``folder``) with each exercise payload it names as a data: URL."""

    def inline(match: re.Match[str]) -> str:
        data = (folder / unescape(match.group(1))).read_bytes()
        url = "data:application/json;base64," + base64.b64encode(data).decode("ascii")
        return f'data-payload-src="{url}"'

    return PAYLOAD_SRC.sub(inline, page)


def write_zip(html: Path, out: Path) -> int:
    """Write the site at ``html`` as ``out``; return the number of pages."""
    modules = bare_sources(html / "_static")
    pages = 0
    out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(html.rglob("*")):
            name = path.relative_to(html).as_posix()
            if not path.is_file() or name.endswith(".map"):
                continue
            if path.suffix == ".html":
                text = with_payloads(path.read_text(encoding="utf-8"), path.parent)
                archive.writestr(name, for_disk(text, name.count("/"), modules))
                pages += 1
            else:
                archive.write(path, name)
    return pages


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--html", type=Path, default=ROOT / "_build" / "html")
    parser.add_argument("--out", type=Path, default=ROOT / "_build" / "site.zip")
    args = parser.parse_args()
    pages = write_zip(args.html, args.out)
    size = args.out.stat().st_size / 1e6
    print(f"wrote {args.out} ({pages} pages, {size:.1f} MB): unzip, open index.html")
    return 0


if __name__ == "__main__":
    sys.exit(main())

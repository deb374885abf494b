"""Copy the pinned browser scripts from node_modules into book/static.

Run by ``make vendor-js`` right after ``npm ci``. The book then renders its saved
widgets (book/static/widget_js) and its math (book/static/mathjax) with no CDN, and
``make book`` never needs npm. Both folders are rebuilt from scratch each time; never
edit them by hand.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STATIC_DIR = ROOT / "book" / "static"
HTML_MANAGER = "@jupyter-widgets/html-manager"
# The bundle's Font Awesome @font-face lists woff2, woff, ttf, svg and eot. Every
# current browser stops at woff2 (woff/ttf kept as fallbacks); eot is for old
# Internet Explorer and svg fonts for old iOS Safari, so those are left out.
FONT_FORMATS = ("woff2", "woff", "ttf")
FONT_REFERENCE = re.compile(r'\.p\+"([0-9a-f]{20}\.(?:woff2|woff|ttf|svg|eot))"')
DEFINED_MODULE = re.compile(r'define\("([^"]+)"')
# widget_loader.js maps exactly these names (and nothing else) to widget_js/.
MAPPED_PREFIX = "@jupyter-widgets/"
# MathJax: the component Sphinx loads by default, the TeX extensions it autoloads
# (\boldsymbol, \cancel, ...) and its CHTML fonts, paths kept as MathJax expects.
# Left out: all-packages.js (never autoloaded) and the 4 MB speech engine that only
# the accessibility menu asks for.
MATHJAX_GLOBS = (
    "tex-mml-chtml.js",
    "input/tex/extensions/*.js",
    "output/chtml/fonts/woff-v2/*.woff",
)
MATHJAX_SKIPPED = ("all-packages.js",)

Copy = tuple[Path, str, str]  # (source, path below book/static, origin)


def installed_package(node_modules: Path, name: str, pinned: str) -> dict:
    """Return the installed package.json of ``name``; fail unless it is ``pinned``."""
    manifest_path = node_modules / name / "package.json"
    if not manifest_path.is_file():
        raise SystemExit(f"{name} is not in {node_modules}: run `npm ci` first")
    manifest = json.loads(manifest_path.read_text())
    if manifest["version"] != pinned:
        raise SystemExit(
            f"{name} {manifest['version']} is installed but package.json pins "
            f"{pinned}: run `npm ci`"
        )
    return manifest


def widget_copies(node_modules: Path, origin: dict[str, str]) -> list[Copy]:
    """require.js, the widget bundle and the font files the bundle loads."""
    bundle = node_modules / HTML_MANAGER / "dist" / "embed-amd.js"
    bundle_text = bundle.read_text()
    unmapped = [
        name
        for name in DEFINED_MODULE.findall(bundle_text)
        if not name.startswith(MAPPED_PREFIX)
    ]
    if unmapped:
        raise SystemExit(f"embed-amd.js defines modules the loader misses: {unmapped}")
    fonts = sorted(set(FONT_REFERENCE.findall(bundle_text)))
    if not fonts:
        raise SystemExit("embed-amd.js references no font files: has it changed?")
    font_origin = f"Font Awesome Free 5 (OFL-1.1), bundled in {origin[HTML_MANAGER]}"
    requirejs = node_modules / "requirejs" / "require.js"
    copies = [
        (requirejs, "widget_js/require.js", origin["requirejs"]),
        (bundle, "widget_js/embed-amd.js", origin[HTML_MANAGER]),
    ]
    copies += [
        (bundle.parent / font, f"widget_js/{font}", font_origin)
        for font in fonts
        if font.endswith(FONT_FORMATS)
    ]
    return copies


def mathjax_copies(node_modules: Path, origin: dict[str, str]) -> list[Copy]:
    """The parts of MathJax's es5 build that the book's pages load."""
    es5 = node_modules / "mathjax" / "es5"
    copies = [
        (node_modules / "mathjax" / "LICENSE", "mathjax/LICENSE", origin["mathjax"])
    ]
    for pattern in MATHJAX_GLOBS:
        matches = sorted(es5.glob(pattern))
        if not matches:
            raise SystemExit(f"MathJax has no {pattern}: has its layout changed?")
        copies += [
            (path, f"mathjax/{path.relative_to(es5).as_posix()}", origin["mathjax"])
            for path in matches
            if path.name not in MATHJAX_SKIPPED
        ]
    return copies


def vendor(node_modules: Path, static_dir: Path) -> list[Path]:
    """Rebuild the vendored folders under ``static_dir``; return the files written."""
    pins = json.loads((ROOT / "package.json").read_text())["dependencies"]
    origin = {}
    for name, pinned in pins.items():
        manifest = installed_package(node_modules, name, pinned)
        origin[name] = f"{name}@{manifest['version']} ({manifest['license']})"
    copies = widget_copies(node_modules, origin) + mathjax_copies(node_modules, origin)

    for folder in sorted({Path(target).parts[0] for _, target, _ in copies}):
        shutil.rmtree(static_dir / folder, ignore_errors=True)
    lines = [
        "Written by tools/vendor_js.py (make vendor-js) from package-lock.json;",
        "do not edit. file  origin  bytes  sha256:",
    ]
    written = []
    for source, target_name, file_origin in copies:
        target = static_dir / target_name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        written.append(target)
        digest = hashlib.sha256(target.read_bytes()).hexdigest()
        size = target.stat().st_size
        lines.append(f"{target_name}  {file_origin}  {size}  {digest}")
    sources = static_dir / "SOURCES.txt"
    sources.write_text("\n".join(lines) + "\n")
    return [*written, sources]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--node-modules", type=Path, default=ROOT / "node_modules")
    parser.add_argument("--static-dir", type=Path, default=STATIC_DIR)
    args = parser.parse_args()
    written = vendor(args.node_modules, args.static_dir)
    total = sum(path.stat().st_size for path in written)
    print(
        f"vendored {len(written)} files, {total / 1e6:.2f} MB, into {args.static_dir}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

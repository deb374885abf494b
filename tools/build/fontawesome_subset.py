"""Write book/static/scripts/fontawesome.js: the theme's icons, not 1.5 MB of others.

pydata-sphinx-theme puts its Font Awesome bundle (``scripts/fontawesome.js``, 1.49 MB:
every free icon, three styles) on every page, for the dozen solid icons its templates
and sphinx-book-theme's use, and the brand icon of the repository button. Sphinx
copies ``html_static_path`` after the theme's static files, so a file of the same name
in ``book/static/scripts/`` replaces the bundle. This tool writes that file: the solid
(else brand) icons whose names (or aliases) the two themes' templates and scripts
mention, with Font Awesome's own path data and licence line, and
a few lines that swap each ``<i class="fa-solid fa-NAME">`` for its inline SVG, as the
bundle does.

Run it after a theme upgrade: ``.venv/bin/python tools/build/fontawesome_subset.py``
(tests/test_browser.py checks that the written file is what this tool writes now).
"""

from __future__ import annotations

import json
import re
import sys
from importlib.util import find_spec
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TARGET = ROOT / "book" / "static" / "scripts" / "fontawesome.js"
THEMES = ("pydata_sphinx_theme", "sphinx_book_theme")
# One icon in the bundle: name: [width, height, [aliases], "unicode", "path"].
ICON = re.compile(
    r'(?:"([a-z0-9-]+)"|([a-z][a-z0-9]*)):\[(\d+),(\d+),\[([^\]]*)\],"[0-9a-f]+","([^"]+)"\]'
)
# Each style's icons are one pack, registered under its short and long names.
SOLID_PACK = re.compile(r'd\("fas",p\),d\("fa-solid",p\)')
BRANDS_PACK = re.compile(r'd\("fab",p\),d\("fa-brands",p\)')
# sphinx-book-theme's repository button is `fab fa-{provider}`, a name no template
# spells out (sphinx_book_theme/header_buttons).
PROVIDERS = {"github", "gitlab", "bitbucket"}
NOT_ICONS = {"fa-solid", "fa-regular", "fa-brands", "fa-lg", "fa-sm", "fa-xs", "fa-fw"}

REPLACER = """  // Swap <i class="fa-solid fa-NAME"> (or a <span>) for the icon's SVG,
  // keeping every attribute (the theme's CSS and scripts select on them), as
  // Font Awesome does.
  const SVG = "http://www.w3.org/2000/svg";
  const style = document.createElement("style");
  style.textContent =
    ".svg-inline--fa{display:inline-block;height:1em;overflow:visible;" +
    "vertical-align:-.125em}.fa-lg{font-size:1.25em;line-height:.05em;" +
    "vertical-align:-.075em}";
  document.head.appendChild(style);
  function swap(root) {
    const icons = root.querySelectorAll("i[class*='fa-'], span[class*='fa-']");
    for (const icon of icons) {
      const name = [...icon.classList].find(
        (c) => c.startsWith("fa-") && c.slice(3) in ICONS,
      );
      if (!name) continue;
      const [width, height, d] = ICONS[name.slice(3)];
      const svg = document.createElementNS(SVG, "svg");
      for (const { name: key, value } of icon.attributes) svg.setAttribute(key, value);
      svg.classList.add("svg-inline--fa");
      svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
      svg.setAttribute("aria-hidden", "true");
      svg.setAttribute("focusable", "false");
      const path = document.createElementNS(SVG, "path");
      path.setAttribute("fill", "currentColor");
      path.setAttribute("d", d);
      svg.appendChild(path);
      icon.replaceWith(svg);
    }
  }
  const start = () => {
    swap(document);
    new MutationObserver((changes) => {
      for (const change of changes)
        for (const node of change.addedNodes) if (node.querySelectorAll) swap(node);
    }).observe(document.body, { childList: true, subtree: true });
  };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else start();
})();
"""


def _package_dir(name: str) -> Path:
    spec = find_spec(name)
    if spec is None or spec.origin is None:
        raise SystemExit(f"{name} is not installed: run make book first")
    return Path(spec.origin).parent


def bundle() -> Path:
    static = _package_dir("pydata_sphinx_theme") / "theme" / "pydata_sphinx_theme"
    return static / "static" / "scripts" / "fontawesome.js"


def mentioned_names() -> set[str]:
    """Every ``fa-NAME`` the themes' templates, scripts and Python mention."""
    names: set[str] = set()
    for theme in THEMES:
        for path in _package_dir(theme).rglob("*"):
            if path.suffix in {".html", ".py", ".js"} and path.name != "fontawesome.js":
                text = path.read_text(encoding="utf-8", errors="replace")
                names.update(re.findall(r"\bfa-[a-z0-9-]+", text))
    return {n[3:] for n in names - NOT_ICONS} | PROVIDERS


def pack_icons(text: str, pack: re.Pattern[str]) -> dict[str, tuple[int, int, str]]:
    """Name and alias -> (width, height, path) for one pack of the bundle."""
    end = pack.search(text)
    if end is None:
        raise SystemExit(f"{pack.pattern} is not in the bundle: its layout changed")
    start = text.rfind("var p={", 0, end.start())
    icons: dict[str, tuple[int, int, str]] = {}
    for match in ICON.finditer(text, start, end.start()):
        quoted, bare, width, height, aliases, path = match.groups()
        entry = (int(width), int(height), path)
        icons[quoted or bare] = entry
        for alias in re.findall(r'"([a-z0-9-]+)"', aliases):
            icons.setdefault(alias, entry)
    return icons


def subset_script() -> str:
    text = bundle().read_text(encoding="utf-8")
    licence = (bundle().parent / "fontawesome.js.LICENSE.txt").read_text().strip()
    # Solid first: a brand icon only where no solid one has its name.
    icons = pack_icons(text, BRANDS_PACK) | pack_icons(text, SOLID_PACK)
    chosen = {name: icons[name] for name in sorted(mentioned_names()) if name in icons}
    rows = ",\n".join(
        f"    {json.dumps(name)}: {json.dumps(list(icon))}"
        for name, icon in chosen.items()
    )
    header = (
        f"{licence}\n"
        "// The icons that pydata-sphinx-theme and sphinx-book-theme use, from\n"
        "// their Font Awesome bundle; written by tools/build/fontawesome_subset.py.\n"
    )
    return f"{header}(() => {{\n  const ICONS = {{\n{rows}\n  }};\n{REPLACER}"


def main() -> int:
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    TARGET.write_text(subset_script(), encoding="utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)} ({TARGET.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

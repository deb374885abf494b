"""Copy the pinned third-party browser scripts from node_modules into the repository.

Run by ``make vendor-js`` right after ``npm ci``. Today that is one file: axe-core's
``axe.min.js``, which the browser tests inject into each book page to check WCAG 2.1
AA; it lands in ``tests/js/vendor`` with its origin and sha256 in ``SOURCES.txt``
there, so the browser tests run without node_modules. The book's pages load no
third-party script: the explorers run from their own modules (``gatherlab/browser``,
served with each page) through ``book/static/explorers.js``. Never edit the vendored
files by hand.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VENDOR_DIR = ROOT / "tests" / "js" / "vendor"
# package name -> the files of it that are copied (paths inside the package)
FILES = {"axe-core": ("axe.min.js", "LICENSE")}


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


def vendor(node_modules: Path, vendor_dir: Path) -> list[Path]:
    """Rebuild ``vendor_dir`` from ``node_modules``; return the files written."""
    pins = json.loads((ROOT / "package.json").read_text())["dependencies"]
    if set(pins) != set(FILES):
        raise SystemExit(
            f"package.json pins {sorted(pins)}; FILES lists {sorted(FILES)}"
        )
    shutil.rmtree(vendor_dir, ignore_errors=True)
    vendor_dir.mkdir(parents=True)
    lines = [
        "Written by tools/build/vendor_js.py (make vendor-js) from package-lock.json;",
        "do not edit. file  origin  bytes  sha256:",
    ]
    written = []
    for name, pinned in pins.items():
        manifest = installed_package(node_modules, name, pinned)
        origin = f"{name}@{manifest['version']} ({manifest['license']})"
        for file_name in FILES[name]:
            target = vendor_dir / (
                file_name if file_name != "LICENSE" else f"{name}.LICENSE"
            )
            shutil.copyfile(node_modules / name / file_name, target)
            written.append(target)
            digest = hashlib.sha256(target.read_bytes()).hexdigest()
            lines.append(f"{target.name}  {origin}  {target.stat().st_size}  {digest}")
    sources = vendor_dir / "SOURCES.txt"
    sources.write_text("\n".join(lines) + "\n")
    return [*written, sources]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--node-modules", type=Path, default=ROOT / "node_modules")
    parser.add_argument("--vendor-dir", type=Path, default=VENDOR_DIR)
    args = parser.parse_args()
    written = vendor(args.node_modules, args.vendor_dir)
    total = sum(path.stat().st_size for path in written)
    print(
        f"vendored {len(written)} files, {total / 1e6:.2f} MB, into {args.vendor_dir}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Write book/static/explorer_modules.js: the explorers' modules as text, for the book
opened from disk.

From a ``file://`` page the browser refuses to import ``_static/explorer.mjs`` (module
scripts need http), so ``book/static/explorers.js`` then loads this classic script and
imports the same files from their text, through ``js/lab.mjs``'s ``loadExplorer``.
Run it after changing ``gatherlab/widgets/js`` (``python tools/explorer_modules.py``);
a test compares the stored file with what this writes. No notebook stores the modules.
"""

from __future__ import annotations

import json
from pathlib import Path

from gatherlab.widgets._base import modules

TARGET = (
    Path(__file__).resolve().parent.parent / "book" / "static" / "explorer_modules.js"
)
HEADER = (
    "// Written by tools/explorer_modules.py from gatherlab/widgets/js; never edit.\n"
    "// The explorers' modules as text, for the book opened from disk (file://),\n"
    "// where the browser imports no _static module: explorers.js loads it then.\n"
)


def script() -> str:
    """The classic script that hands explorers.js every module and stylesheet."""
    files = json.dumps(modules(), indent=0, ensure_ascii=False)
    return f"{HEADER}globalThis.gatherlabModules = {files};\n"


if __name__ == "__main__":
    TARGET.write_text(script(), encoding="utf-8")
    print(f"wrote {TARGET} ({TARGET.stat().st_size} bytes)")

"""Debian's Chromium for the browser tests: where it is, its flags, what it may say."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

CHROMIUM = next(
    (
        path
        for path in ("/usr/bin/chromium", shutil.which("chromium"))
        if path and Path(path).exists()
    ),
    None,
)
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="needs Debian's chromium (apt-get install chromium)"
)
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

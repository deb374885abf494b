"""Shared test fixtures: the book built once and served, Debian's Chromium, screenshots.

Both browser test modules (test_browser.py, test_page_exercises.py) use these, so the
book is built once and one Chromium runs per session. tests/data holds notebooks that
tests read and run themselves, never nbval items.
"""

from __future__ import annotations

import functools
import http.server
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.chromium import CHROMIUM, CHROMIUM_ARGS

if TYPE_CHECKING:
    from playwright.sync_api import Browser

collect_ignore_glob = ["data/*"]
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def output_dir() -> Path:
    """Where the screenshots go."""
    folder = Path(
        os.environ.get("BROWSER_TEST_OUTPUT", ROOT / "_build" / "screenshots")
    )
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="session")
def built_book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build the whole book once, privately, with warnings as errors."""
    output = tmp_path_factory.mktemp("book")
    jupyter_book = Path(sys.executable).parent / "jupyter-book"
    command = [str(jupyter_book), "build", str(ROOT), "--path-output", str(output)]
    result = subprocess.run(
        [*command, "--all", "-W", "--keep-going", "-q"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, (
        f"book build failed:\n{result.stdout}\n{result.stderr}"
    )
    return output / "_build" / "html"


@pytest.fixture(scope="session")
def site(built_book: Path) -> Iterator[str]:
    """Serve the built book on 127.0.0.1; yield its base URL."""
    yield from served(built_book)


def served(directory: Path) -> Iterator[str]:
    """Serve ``directory`` on 127.0.0.1 while the generator runs; yield its base URL."""

    class QuietHandler(http.server.SimpleHTTPRequestHandler):
        def do_GET(self) -> None:
            # Browsers ask every site for a favicon; the book has none, and the 404
            # would show up as a console error on every page.
            if self.path == "/favicon.ico":
                self.send_response(204)
                self.end_headers()
            else:
                super().do_GET()

        def log_message(self, *args: object) -> None:
            pass

    handler = functools.partial(QuietHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()
    thread.join()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's headless Chromium under Playwright (never a downloaded browser)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()

"""The learner's workspace: `make lab`'s copies, `make reset-lab`, and what JupyterLab
writes when it opens and saves a chapter (driven in Debian's Chromium)."""

from __future__ import annotations

import json
import os
import platform
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import nbformat
import pytest

from tests.chromium import needs_chromium

ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def _make(*args: str) -> subprocess.CompletedProcess:
    # -o: never (re)install an environment from a test.
    command = ["make", "-s", "-o", ".venv/.installed", "-o", ".venv/.learner-installed"]
    return subprocess.run(
        [*command, *args], cwd=ROOT, capture_output=True, text=True, timeout=60
    )


def test_the_learners_copies_are_ignored_by_git():
    result = subprocess.run(
        ["git", "check-ignore", "-q", "lab/01_gather_2d.ipynb"], cwd=ROOT, check=False
    )
    assert result.returncode == 0


def test_lab_copies_a_chapter_once_and_reset_lab_restores_it(tmp_path):
    lab = tmp_path / "lab"
    copy = lab / CHAPTERS[0].name
    assert _make(f"LAB={lab}", str(copy)).returncode == 0
    assert copy.read_bytes() == CHAPTERS[0].read_bytes()
    copy.write_text("my answers")
    assert _make(f"LAB={lab}", str(copy)).returncode == 0
    assert copy.read_text() == "my answers"  # made on first use, never overwritten
    for chapter in (CHAPTERS[0].name[:2], CHAPTERS[0].name[1]):  # "01" or "1"
        copy.write_text("my answers")
        reset = _make(f"LAB={lab}", "reset-lab", f"CHAPTER={chapter}")
        assert reset.returncode == 0, reset.stderr
        assert copy.read_bytes() == CHAPTERS[0].read_bytes()
        restored, *advice = reset.stdout.splitlines()
        assert restored == f"restored {lab}/{CHAPTERS[0].name}"
        # An open tab would save the old copy back: say how to load the new one.
        assert "Reload Notebook from Disk" in " ".join(advice)


def test_reset_lab_says_which_chapters_exist_when_asked_for_none(tmp_path):
    missing = _make(f"LAB={tmp_path}", "reset-lab")
    assert missing.returncode != 0
    assert "make reset-lab CHAPTER=03 (or CHAPTER=all)" in missing.stdout
    unknown = _make(f"LAB={tmp_path}", "reset-lab", "CHAPTER=99")
    assert unknown.returncode != 0 and "No chapter notebooks/99" in unknown.stdout
    assert list(tmp_path.iterdir()) == []


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def jupyterlab(tmp_path_factory):
    """JupyterLab on a folder of chapter copies, as `make lab` runs it."""
    root = tmp_path_factory.mktemp("lab")
    home = tmp_path_factory.mktemp("home")
    # Each copy carries this interpreter's version, as a chapter stored by a run here
    # does (JupyterLab writes the running kernel's language_info).
    for chapter in CHAPTERS:
        book = nbformat.read(chapter, as_version=4)
        book.metadata.language_info.version = platform.python_version()
        nbformat.write(book, root / chapter.name)
    port, token = _free_port(), "learner-test"
    env = dict(os.environ, HOME=str(home), JUPYTER_CONFIG_DIR=str(home / "config"))
    env["JUPYTERLAB_SETTINGS_DIR"] = str(home / "settings")
    env["JUPYTERLAB_WORKSPACES_DIR"] = str(home / "workspaces")
    # Trusted, as `make lab` makes its copies (their stored widgets then render).
    subprocess.run(
        [sys.executable, "-m", "jupyter", "trust", *map(str, root.glob("*.ipynb"))],
        env=env,
        check=True,
        capture_output=True,
    )
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root"]
        + [f"--port={port}", f"--IdentityProvider.token={token}"]
        + [f"--ServerApp.root_dir={root}", "--ServerApp.ip=127.0.0.1"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:
        try:
            urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=5)
            break
        except OSError:
            assert time.monotonic() < deadline, "JupyterLab did not start"
            assert server.poll() is None, "JupyterLab exited"
            time.sleep(0.5)
    yield root, url, token
    kernels = urllib.request.urlopen(f"{url}/api/kernels?token={token}", timeout=30)
    for kernel in json.load(kernels):
        request = urllib.request.Request(
            f"{url}/api/kernels/{kernel['id']}?token={token}", method="DELETE"
        )
        urllib.request.urlopen(request, timeout=60)
    server.terminate()
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait(timeout=30)


@needs_chromium
@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_opening_and_saving_a_chapter_in_jupyterlab_changes_no_byte(
    chapter, jupyterlab, browser
):
    root, url, token = jupyterlab
    path = root / chapter.name
    before = path.read_bytes()
    shutil.copy(path, root / "before.ipynb")  # kept for the message below
    page = browser.new_page()
    try:
        # A workspace of its own, so only this chapter is open (none restored).
        workspace = f"{url}/lab/workspaces/{chapter.stem}"
        page.goto(f"{workspace}/tree/{chapter.name}?reset&token={token}")
        page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=120_000)
        # The kernel has started and answered: JupyterLab has written its metadata
        # (before, the indicator says idle too, beside "No Kernel").
        page.wait_for_function(
            """() => {
                const name = document.querySelector(".jp-Toolbar-kernelName");
                const status = document.querySelector(
                    ".jp-Notebook-ExecutionIndicator"
                );
                return name && name.textContent.includes("ipykernel")
                    && status && status.dataset.status === "idle";
            }""",
            timeout=120_000,
        )
        saved = path.stat().st_mtime_ns
        page.locator(".jp-Notebook").first.click()
        page.keyboard.press("Control+s")
        deadline = time.monotonic() + 60
        while path.stat().st_mtime_ns == saved:
            assert time.monotonic() < deadline, "JupyterLab did not save"
            time.sleep(0.2)
        time.sleep(0.5)  # the write is complete once the size settles
        after = path.read_bytes()
    finally:
        page.close()
    assert after == before


@needs_chromium
def test_an_explorer_says_to_run_its_cell_until_it_has_run(jupyterlab, browser):
    """Opened in JupyterLab, a chapter's stored explorer has no code until its cell
    runs (the kernel sends it): it says so, instead of a lasting 'Starting'."""
    root, url, token = jupyterlab
    chapter = next(path for path in CHAPTERS if path.name.startswith("02_"))
    page = browser.new_page()
    try:
        workspace = f"{url}/lab/workspaces/explorer"
        page.goto(f"{workspace}/tree/{chapter.name}?reset&token={token}")
        page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=120_000)
        said: set[str] = set()
        for _ in range(80):  # JupyterLab renders the cells scrolled into view
            page.evaluate(
                """() => {
                    const panel = document.querySelector(".jp-WindowedPanel-outer");
                    panel.scrollTop += 700;
                }"""
            )
            time.sleep(0.3)
            said |= set(
                page.evaluate(
                    """() => [...document.querySelectorAll(".jp-OutputArea-output")]
                        .map((output) => output.innerText)
                        .filter((text) => /explorer/i.test(text))"""
                )
            )
            if any("Run this cell to start the explorer" in text for text in said):
                break
    finally:
        page.close()
    assert any(text.startswith("Run this cell to start the explorer") for text in said)
    assert not any("model not found" in text for text in said), said

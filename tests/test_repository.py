"""The repository address is set once (_config.yml) and every chapter's first cell and
chapter 1's set-up link are made from it (tools/author/repository.py); the first cell
installs the clone's package inside a clone and the repository's anywhere else."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tools.author import repository

ROOT = Path(__file__).resolve().parent.parent


def test_every_chapter_holds_what_the_config_makes():
    repo = repository.repository()
    assert repository.CHAPTERS, "no chapters found"
    found = [
        line
        for path in repository.CHAPTERS
        for line in repository.differences(path, repo)
    ]
    assert not found, f"{found}: run python tools/author/repository.py, then re-execute"


def test_a_fork_changes_one_line_and_every_chapter_follows(tmp_path):
    config = tmp_path / "_config.yml"
    text = (ROOT / "_config.yml").read_text()
    ours = repository.repository()
    assert text.count(ours.url) == 1, "the address must be written once"
    config.write_text(text.replace(ours.url, "https://example.org/fork/book"))
    fork = repository.repository(config)
    assert fork.branch == ours.branch
    assert "git+https://example.org/fork/book@main" in fork.setup_cell
    assert fork.setup_page == "https://example.org/fork/book/blob/main/book/setup.md"
    chapter = tmp_path / "01_gather_2d.ipynb"
    shutil.copy(repository.CHAPTERS[0], chapter)
    assert len(repository.differences(chapter, fork)) == 2
    assert repository.write(chapter, fork)
    assert repository.differences(chapter, fork) == []
    assert not repository.write(chapter, fork)


@pytest.mark.parametrize("url", ["http://example.org/x", "https://a b", "git@x:y"])
def test_an_address_that_pip_cannot_use_is_refused(tmp_path, url):
    config = tmp_path / "_config.yml"
    config.write_text(f"repository:\n  url: {url}\n  branch: main\n")
    with pytest.raises(ValueError, match="repository.url"):
        repository.repository(config)


def _run_setup_cell(monkeypatch, folder: Path, returncode: int = 0) -> list[str]:
    """Run the first cell in ``folder`` with gatherlab not importable until pip runs
    (pip itself replaced): returns pip's arguments."""
    import gatherlab

    calls = []

    def pip(command, **kwargs):
        calls.append(command)
        monkeypatch.setitem(sys.modules, "gatherlab", gatherlab)  # importable again
        return subprocess.CompletedProcess(command, returncode, "", "no network")

    monkeypatch.setitem(sys.modules, "gatherlab", None)  # import raises
    monkeypatch.setattr(subprocess, "run", pip)
    monkeypatch.setattr(gatherlab, "setup_book", lambda: None)
    monkeypatch.chdir(folder)
    exec(repository.repository().setup_cell, {})
    return calls[0]


def test_inside_a_clone_the_first_cell_installs_the_clone(monkeypatch, capsys):
    for folder in ("notebooks", "tools"):  # notebooks/ or lab/: one below the root
        command = _run_setup_cell(monkeypatch, ROOT / folder)
        assert command[0] == sys.executable and command[-1] == str(ROOT)
        assert capsys.readouterr().out == f"Installed gatherlab from {ROOT}.\n"


def test_anywhere_else_it_installs_the_repository_at_the_branch(
    monkeypatch, capsys, tmp_path
):
    (tmp_path / "downloads").mkdir()
    command = _run_setup_cell(monkeypatch, tmp_path / "downloads")
    repo = repository.repository()
    source = f"git+{repo.url}@{repo.branch}"
    assert command == [sys.executable, "-m", "pip", "install", "--quiet", source]
    # One line, and no --upgrade or --force-reinstall: installed torch stays.
    assert capsys.readouterr().out == f"Installed gatherlab from {source}.\n"


def test_a_failed_install_says_what_pip_said(monkeypatch, tmp_path):
    with pytest.raises(
        RuntimeError, match=r"(?s)pip install --quiet git\+.*failed:\nno network"
    ):
        _run_setup_cell(monkeypatch, tmp_path, returncode=1)

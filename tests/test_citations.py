"""Every upstream thread or document a chapter cites is in book/citations.md, once.

The register records each citation's state as checked (open, closed, merged...), where
it landed and how that was checked; these tests keep the chapters and the register in
step, and keep a closed pull request from being called a fix.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from tools.author.repository import repository

ROOT = Path(__file__).resolve().parent.parent
REGISTER = ROOT / "book" / "citations.md"
CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
STATES = {"open", "closed", "merged", "reverted", "unverified", "page"}
# The register's rounds of checking.
CHECKED = ("2026-12-01", "2026-12-03", "2026-12-07")

# Short names the chapters use for a repository: pytorch#123 is pytorch/pytorch#123.
SHORT_REPOS = {
    "pytorch": "pytorch/pytorch",
    "tensorflow": "tensorflow/tensorflow",
    "keras": "keras-team/keras",
}
GITHUB_THREAD = re.compile(
    r"https?://github\.com/([\w.-]+/[\w.-]+)/(?:issues|pull)/(\d+)"
)
REPO_NUMBER = re.compile(r"(?<![\w/.-])([\w.-]+/[\w.-]+|[\w.-]+)#(\d+)\b")
URL = re.compile(r"https?://[^\s)\]>\"'`]+")
# The book's own repository (its setup cell, its links to its pages) is no citation.
OWN = repository().url


def citations_in(text: str) -> set[str]:
    """Canonical keys (``owner/repo#N`` or a URL) of everything ``text`` cites."""
    found = set()
    for match in URL.finditer(text):
        url = match.group().rstrip(".,;:")
        if url.startswith(OWN):
            continue
        thread = GITHUB_THREAD.fullmatch(url)
        found.add(f"{thread[1]}#{thread[2]}" if thread else url)
    without_urls = URL.sub(" ", text)
    for repo, number in REPO_NUMBER.findall(without_urls):
        if "/" not in repo and repo not in SHORT_REPOS:
            continue  # "#123" after a word that names no repository
        found.add(f"{SHORT_REPOS.get(repo, repo)}#{number}")
    return found


def chapter_sources() -> dict[str, str]:
    """Each chapter's prose and code (not outputs: those are the libraries' words)."""
    sources = {}
    for path in CHAPTERS:
        cells = nbformat.read(path, as_version=4).cells
        sources[path.name] = "\n\n".join(cell.source for cell in cells)
    return sources


def register() -> dict[str, dict[str, str]]:
    rows = {}
    columns = ["kind", "state", "landed", "checked", "how"]
    for line in REGISTER.read_text().splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 6 or not cells[0].startswith("`"):
            continue
        key = cells[0].strip("`")
        assert key not in rows, f"{key} is listed twice in {REGISTER.name}"
        rows[key] = dict(zip(columns, cells[1:], strict=True))
    return rows


def test_the_extractor_finds_every_form_a_chapter_uses():
    text = (
        "see [pytorch#155262](https://github.com/pytorch/pytorch/pull/155262), "
        "pytorch/pytorch#146211, tensorflow#1 and the "
        "[notes](https://pytorch.org/docs/stable/notes/hip.html). Issue #7 alone."
    )
    assert citations_in(text) == {
        "pytorch/pytorch#155262",
        "pytorch/pytorch#146211",
        "tensorflow/tensorflow#1",
        "https://pytorch.org/docs/stable/notes/hip.html",
    }


def test_every_citation_in_a_chapter_is_in_the_register():
    listed = register()
    missing = {
        name: sorted(citations_in(text) - listed.keys())
        for name, text in chapter_sources().items()
    }
    assert not {name: keys for name, keys in missing.items() if keys}


def test_every_register_entry_is_cited_by_a_chapter():
    cited = set().union(*(citations_in(text) for text in chapter_sources().values()))
    assert not sorted(register().keys() - cited)


@pytest.mark.parametrize("key", sorted(register()))
def test_each_entry_has_a_state_a_date_and_a_way_it_was_checked(key):
    entry = register()[key]
    assert entry["state"] in STATES
    assert entry["checked"] in CHECKED
    assert entry["how"] and entry["landed"]
    assert (entry["state"] == "page") == key.startswith("http")


def test_no_sentence_calls_an_unmerged_pull_request_a_fix():
    unmerged = [
        key
        for key, entry in register().items()
        if entry["kind"] == "pull" and entry["state"] != "merged"
    ]
    offending = []
    for name, text in chapter_sources().items():
        for sentence in re.split(r"(?<=[.!?])\s+", text):
            cited = citations_in(sentence)
            if re.search(r"\bfix", sentence, re.IGNORECASE):
                offending += [(name, key) for key in unmerged if key in cited]
    assert not offending

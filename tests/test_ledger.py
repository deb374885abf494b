"""Every strong sentence of the book has a ledger entry whose evidence exists.

A strong sentence says always, never, only, every, all, exactly, guaranteed,
(non)deterministic or "does not", or names a version (``tools/author/ledger.py`` says
how they are found). ``tests/data/ledger.json`` keys its entries by the normalised
sentence; ``python tools/author/ledger.py --draft`` adds the missing ones for a person
to check.
"""

from __future__ import annotations

import pytest

from tools.author import ledger


def test_the_finder_reads_strong_words_outside_code_and_versions():
    assert ledger.is_strong("A position is never read twice.")
    assert ledger.is_strong("It does not broadcast.")
    assert ledger.is_strong("gather accepts int32 positions since 2.8.")
    assert ledger.is_strong("Measured with torch 2.13.0.")
    assert not ledger.is_strong("Call `torch.all(mask)` here.")
    assert not ledger.is_strong("A weight of 0.5 is kept.")


def test_sentences_are_split_and_keys_ignore_layout():
    text = "- First `x` is **always** 1. Then it\nis 2.\n\n```python\nall = 1\n```\n"
    assert list(ledger.split_sentences(text)) == [
        "- First `x` is **always** 1.",
        "Then it is 2.",
    ]
    # a fold's markup is no sentence; the markdown inside it is
    summary = "<summary>Going deeper: always</summary>"
    fold = f'<details class="gl-fold"> {summary}\n\nIt is 3.\n\n</details>\n'
    assert list(ledger.split_sentences(fold)) == ["It is 3."]
    assert ledger.normalise("- First [link](https://a.b) is **Always**\n 1.") == (
        "first link is always 1."
    )


def test_every_strong_sentence_has_a_ledger_entry():
    entries = ledger.load()
    missing = sorted(
        f"{sentence.source} {sentence.place}: {sentence.text}"
        for sentence in ledger.sentences()
        if sentence.key not in entries
    )
    assert not missing, (
        f"{len(missing)} strong sentences have no entry in tests/data/ledger.json; "
        "run `python tools/author/ledger.py --draft` and check the drafts:\n"
        + "\n".join(missing[:20])
    )


def test_every_entry_names_evidence_that_exists():
    assert not ledger.broken_evidence(ledger.load())


@pytest.mark.parametrize(
    "reference",
    [
        {"cell": "06:no-such-cell"},
        {"citation": "pytorch/pytorch#1"},
        {"atlas": "torch.gather(x, 1, index) [eager] no such case"},
        {"test": "tests/test_ledger.py::test_nothing_by_this_name"},
        {"none": ""},
        {"hunch": "it felt right"},
    ],
)
def test_gone_or_unknown_evidence_is_reported(reference):
    assert ledger.broken_evidence({"a sentence.": {"evidence": [reference]}})


def test_checked_entries_name_evidence_and_modes():
    unfounded = [
        key
        for key, entry in ledger.load().items()
        if entry["checked"] and not (entry["evidence"] and entry["modes"])
    ]
    assert not unfounded

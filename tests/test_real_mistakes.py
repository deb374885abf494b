"""Mistakes real learners made, collected from public threads (tests/data/real_mistakes
.json: the thread, the exercise, the learner's code in that exercise's terms, and the
misconception, or failing that a phrase, that a message naming the mistake contains).

Every one must fail and never raise. The first set (no ``names_if``) is the one the
misconceptions were built from: at least 90 % of its messages must name the mistake.
The later ones (``names_if``: what a message must say, judged by a reader) come from
threads the first set does not use; a labelled one must be named by the first step.
The shares are printed with ``pytest -s``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import torch

from gatherlab.exercises import EXERCISES, Fix, check
from gatherlab.exercises.page import fix_names

EVERY = json.loads(
    (Path(__file__).parent / "data" / "real_mistakes.json").read_text(encoding="utf-8")
)
MISTAKES = [m for m in EVERY if "names_if" not in m]
SHARE = 0.9


def answer_of(mistake: dict[str, Any]) -> Any:
    """The learner's answer: the code run with the names its notebook cell has."""
    exercise = EXERCISES[mistake["exercise"]]
    names: dict[str, Any] = {"torch": torch}
    if isinstance(exercise, Fix):
        # every name the notebook's cell has: the broken call's input and index, and
        # the tensors and numbers the solution reads there (targets, positions, beam)
        names.update(fix_names(exercise))
    exec(mistake["code"], names)  # the collected code, as the learner wrote it
    return names["answer"]


def names_it(mistake: dict[str, Any]) -> tuple[bool, str]:
    """Whether the check's message names the mistake, and the message."""
    result = check(mistake["exercise"], answer_of(mistake))
    assert not result.passed, f"{mistake['source']} passes"
    assert "checker failed" not in result.words, result.words
    verdict = result.verdict
    assert verdict is not None
    wanted = mistake.get("misconception")
    if wanted:
        found = (verdict.misconception or "").split("+")
        return wanted in found, result.words
    return mistake["phrase"] in result.words, result.words


def test_a_fix_runs_with_the_names_of_its_notebook_cell():
    # 04.fix_label_axis's cell has `targets` besides its broken call's `index`, and
    # 02.fix_beam_rows's has `beam`: code using them runs as in the notebook
    label_axis = answer_of({"exercise": "04.fix_label_axis", "code": CODE_TARGETS})
    assert label_axis.shape == (3, 1)
    beam_rows = answer_of({"exercise": "02.fix_beam_rows", "code": CODE_BEAM})
    assert check("02.fix_beam_rows", beam_rows).passed


CODE_TARGETS = "answer = targets.unsqueeze(1)\n"
CODE_BEAM = (
    "member = torch.arange(flat_index.shape[0]) // beam\n"
    "answer = flat_index + (member * beam)[:, None]\n"
)


def test_the_set_is_large_varied_and_sourced():
    assert len(MISTAKES) >= 40
    assert len({m["source"] for m in EVERY}) == len(EVERY)  # one thread each
    assert all(m["source"].startswith(("https://", "http://")) for m in EVERY)
    assert all(m["exercise"] in EXERCISES for m in EVERY)
    assert len({m["exercise"] for m in EVERY}) >= 15


@pytest.mark.parametrize(
    "mistake", MISTAKES, ids=[f"{m['exercise']}-{i}" for i, m in enumerate(MISTAKES)]
)
def test_a_real_mistake_fails_without_a_checker_error(mistake):
    names_it(mistake)


def test_every_misconception_has_a_real_thread_it_names():
    # the library holds mistakes people made: each one names at least one of them
    from gatherlab.exercises.misconceptions import LIBRARY

    named = {
        part
        for mistake in MISTAKES + LABELLED
        if mistake.get("misconception")
        and (names_it if mistake in MISTAKES else first_step_names_it)(mistake)[0]
        for part in mistake["misconception"].split("+")
    }
    assert [m.id for m in LIBRARY if m.id not in named] == []


def test_most_messages_name_the_real_mistake():
    named = []
    for mistake in MISTAKES:
        hit, message = names_it(mistake)
        named.append(hit)
        if not hit:
            print(f"not named: {mistake['exercise']} ({mistake['source']}): {message}")
    share = sum(named) / len(named)
    print(f"{sum(named)} of {len(named)} real mistakes named ({share:.0%})")
    assert share >= SHARE


# More, collected on 2026-12-07 in three rounds from threads the first set does not
# use, each split at random into the half the checker was changed against ("dev") and
# the half measured once afterwards ("held-out"; issue 38's note gives the shares). One
# labelled with a misconception or a phrase (as the first set is) must be named by the
# FIRST step, the message alone: the fix, read only on request, does not count. One
# without a label must still fail and never raise.
MORE = [m for m in EVERY if "names_if" in m]
LABELLED = [m for m in MORE if m.get("misconception") or m.get("phrase")]


def first_step_names_it(mistake: dict[str, Any]) -> tuple[bool, str]:
    """Whether the check's first step names the mistake, and that step's words: a
    labelled misconception must be the verdict's (its message is rendered from it), a
    phrase must be in ``result.message``."""
    result = check(mistake["exercise"], answer_of(mistake))
    assert not result.passed, f"{mistake['source']} passes"
    assert "checker failed" not in result.words, result.words
    wanted = mistake.get("misconception")
    if wanted:
        verdict = result.verdict
        assert verdict is not None
        return wanted in (verdict.misconception or "").split("+"), result.message
    return mistake["phrase"] in result.message, result.message


def test_the_later_set_is_split_and_says_what_names_it():
    assert len(MORE) >= 528  # rounds 2, 3a-3c, 4, 5, 6 and 7 (issue 38)
    assert {m["half"] for m in MORE} == {"dev", "held-out"}
    assert all(m["names_if"].strip() and m["collected"] for m in MORE)


def test_a_label_is_a_known_misconception_or_a_phrase():
    from gatherlab.exercises.misconceptions import LIBRARY

    known = {m.id for m in LIBRARY}
    for mistake in LABELLED:
        for part in (mistake.get("misconception") or "").split("+"):
            assert not part or part in known, (mistake["source"], part)
        assert mistake.get("phrase", "x").strip(), mistake["source"]


@pytest.mark.parametrize(
    "mistake", MORE, ids=[f"{m['exercise']}-{i}" for i, m in enumerate(MORE)]
)
def test_a_later_real_mistake_fails_and_a_labelled_one_is_named_first(mistake):
    if mistake in LABELLED:
        hit, message = first_step_names_it(mistake)
        assert hit, f"{mistake['source']}: the first step does not name it: {message}"
        return
    result = check(mistake["exercise"], answer_of(mistake))
    assert not result.passed, f"{mistake['source']} passes"
    assert "checker failed" not in result.words, result.words


def test_the_share_of_the_later_set_named_by_the_first_step():
    # printed with ``pytest -s``: how many of the later set carry a label its first
    # step is checked against (each of them is asserted above)
    named = [m for m in LABELLED if first_step_names_it(m)[0]]
    for half in ("dev", "held-out"):
        part = [m for m in MORE if m["half"] == half]
        hits = sum(m in named for m in part)
        print(f"{half}: {hits} of {len(part)} named by the first step")
    print(f"{len(named)} of {len(MORE)} later real mistakes named by the first step")
    assert len(named) == len(LABELLED)

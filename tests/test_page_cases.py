"""The in-page exercises checked without a browser: Python's words for the stored
answers in Node, the Python and JavaScript readers of typed answers, the stubs' markers.

The cases are ``tools/cases/page_cases.py``'s, made in each test run from the package
(``tools/cases/generate.py``: ``tests/js/generated/page_exercise_cases.json.gz``);
``tests/test_page_exercises.py`` answers every exercise in the built book in Chromium.
"""

from __future__ import annotations

import gzip
import json
import re
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import gatherlab as gl
from gatherlab.exercises import EXERCISES
from gatherlab.exercises.typed import normalized, typed_answer
from tools.cases.generate import fresh

ROOT = Path(__file__).resolve().parent.parent
STORED = json.loads(gzip.decompress(fresh("tools.cases.page_cases").read_bytes()))


def answers_of(exercise_id: str) -> dict[str, str]:
    """A right and a wrong answer from the stored cases, as a learner types them."""
    payload = STORED["payloads"][exercise_id]
    labels = [choice["label"] for choice in payload.get("choices", [])]
    mine = [  # a choose exercise's answer is one of its radio buttons
        c
        for c in STORED["cases"]
        if c["id"] == exercise_id
        and (payload["kind"] != "choose" or c["text"] in labels)
    ]
    pick = {
        which: next(c for c in mine if c["status"] == status)
        for which, status in (("right", "passed"), ("wrong", "not yet"))
    }
    return {which: case.get("text", case.get("code")) for which, case in pick.items()}


ANSWERS = {exercise_id: answers_of(exercise_id) for exercise_id in EXERCISES}


def rendered(verdict: dict[str, Any], templates: dict[str, str]) -> str:
    """verdict.render: the template with its {field}s substituted."""
    template = templates[verdict["template"]]
    return re.sub(r"\{([a-z_]+)\}", lambda m: verdict["fields"][m[1]], template)


def on_page(words: str) -> str:
    """Words as the page shows them: `code` spans become <code>, without backticks."""
    return words.replace("`", "")


def node_judges(
    answers: dict[str, dict[str, str]], payloads: dict[str, Any]
) -> dict[str, dict[str, Any]]:
    """What exercises.mjs's judge() says to each answer, on ``payloads`` (run by
    Node)."""
    script = """
        import { readFileSync } from "node:fs";
        import { judge, ready, render, steps }
            from "./gatherlab/browser/checker/exercises.mjs";
        await ready();
        const { answers, payloads } = JSON.parse(readFileSync(0, "utf-8"));
        const out = {};
        for (const [id, pair] of Object.entries(answers)) {
          out[id] = {};
          for (const [which, text] of Object.entries(pair)) {
            const v = judge(payloads[id], text);
            const words = render(v, payloads[id].templates);
            const [mistake, fix] = steps(v, payloads[id].templates);
            out[id][which] = { passed: v.passed, words, mistake, fix };
          }
        }
        console.log(JSON.stringify(out));
    """
    return node_module(script, {"answers": answers, "payloads": payloads}, timeout=120)


def node_module(script: str, data: Any, timeout: int = 60) -> Any:
    """What an ES module ``script`` prints (JSON) when Node runs it from the
    repository's root with ``data`` as JSON on its standard input."""
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        input=json.dumps(data),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=timeout,
        check=True,
    )
    return json.loads(done.stdout)


def test_the_stored_answers_get_pythons_words_in_node() -> None:
    """The right and wrong answer of every exercise, judged by the page in Node: the
    notebook's pass or not, and a pass in the notebook's words (but implement's, which
    count the page's cases; tests/js/page_words.test.mjs compares every case)."""
    said = node_judges(ANSWERS, STORED["payloads"])
    for exercise_id, pair in ANSWERS.items():
        for which, answer in pair.items():
            case = next(
                c
                for c in STORED["cases"]
                if c["id"] == exercise_id and c.get("text", c.get("code")) == answer
            )
            page = said[exercise_id][which]
            assert page["passed"] == (which == "right"), (exercise_id, which)
            if which == "right":  # a pass is worded alike, implement passes too
                assert page["words"] == case["message"], (exercise_id, which)


def test_the_page_renders_a_pair_from_the_one_table_as_python_does() -> None:
    """Both renderers word a pair of misconceptions from messages.json alike, the
    second part led by its own case where it shows on another (pair.apart)."""
    import torch

    visible = torch.as_tensor(EXERCISES["06.one_hot"].all_cases[0].expected)
    apart = EXERCISES["06.one_hot"].check(lambda labels, classes: visible[None])
    same = EXERCISES["01.pick_columns"].check(
        lambda x, columns: x[:, columns.flatten()].unsqueeze(0)
    )
    verdicts = [r.verdict.to_json() for r in (apart, same)]
    assert [v["template"] for v in verdicts] == ["pair.apart", "pair"]
    script = """
        import { readFileSync } from "node:fs";
        import { render } from "./gatherlab/browser/checker/exercises.mjs";
        const table = JSON.parse(readFileSync("gatherlab/exercises/messages.json"));
        const verdicts = JSON.parse(readFileSync(0, "utf-8"));
        console.log(JSON.stringify(verdicts.map((v) => render(v, table))));
    """
    assert node_module(script, verdicts) == [apart.words, same.words]
    assert ". On the visible example, your result has shape" in apart.message


def test_the_page_knows_the_writing_ops_out_of_place_forms_python_notes() -> None:
    """A write lost is told the out-of-place op it called by the page as by Python
    (implement._lost_where, exercises.mjs's lostWhere): the same ops in both."""
    from gatherlab.exercises.patching import OUT_OF_PLACE

    script = """
        import { OUT_OF_PLACE } from "./gatherlab/browser/checker/exercises.mjs";
        console.log(JSON.stringify([...OUT_OF_PLACE]));
    """
    assert sorted(node_module(script, None)) == sorted(OUT_OF_PLACE)
    assert {"scatter", "index_add", "scatter_reduce"} <= set(OUT_OF_PLACE)


@pytest.mark.parametrize(
    "exercise_id", [i for i, e in EXERCISES.items() if e.kind == "implement"]
)
def test_the_page_sees_each_misconception_read_a_value_where_the_notebook_does(
    exercise_id: str,
) -> None:
    """A misconception that raises on every page case (02.last_valid_step's
    off-by-one, where each page case had a full-length sequence) is told there by
    errors alone: an IndexError of advanced indexing matched the same-size rule's
    "any error" there. The page carries a case where it reads a value, where one is."""
    from gatherlab.exercises.misconceptions import Raised, Search
    from gatherlab.exercises.page import _page_hidden

    exercise = EXERCISES[exercise_id]
    valid = len(exercise.cases)
    shown = [0, *_page_hidden(exercise)]
    for candidate in Search(exercise.all_cases[:valid]).candidates(pairs=False):
        reads = [
            k for k in range(valid) if not isinstance(candidate.outcomes[k], Raised)
        ]
        if reads:
            assert set(reads) & set(shown), (candidate.id, reads[:3])


PASTED = [
    ("prediction = [[1, 2], [3, 4]]", [[1, 2], [3, 4]]),
    ("  ((1, 2),)  ", ((1, 2),)),
    ("-(1)", -1),
    ("tensor([[12, 11],\n        [21, 21]])", np.array([[12, 11], [21, 21]])),
    ("tensor([[2], [0]], dtype=torch.int32)", np.array([[2], [0]], dtype=np.int32)),
    ("tensor([0.5000, 1.2500])", np.array([0.5, 1.25], dtype=np.float32)),
    ("array([[10, 11],\n       [20, 21]])", np.array([[10, 11], [20, 21]])),
    ("np.array([1, 2], dtype=np.int32)", np.array([1, 2], dtype=np.int32)),
    ("[[10 11 12]\n [20 21 22]]", [[10, 11, 12], [20, 21, 22]]),
    ("[ 1.  2.5 -3. ]", [1.0, 2.5, -3.0]),
    (
        "tf.Tensor(\n[[1 2]\n [3 4]], shape=(2, 2), dtype=int32)",
        np.array([[1, 2], [3, 4]], dtype=np.int32),
    ),
    ("tf.Tensor(12, shape=(), dtype=int64)", np.array(12)),
    (
        "<tf.Tensor: shape=(2,), dtype=int32, numpy=array([ 1, 21], dtype=int32)>",
        np.array([1, 21], dtype=np.int32),
    ),
    ("it raises", "it raises"),
    ("B, D", "B, D"),
    ("x + 1", "x + 1"),
    ("{1: 2}", "{1: 2}"),
    ("'text'", "'text'"),
    ("tensor([1], requires_grad=True)", "tensor([1], requires_grad=True)"),
    # a typed tensor converted as torch converts it
    ("torch.tensor([[1, 2]]).float()", np.array([[1, 2]], dtype=np.float32)),
    ("tensor([1.5, -2.5]).long()", np.array([1, -2])),
    ("torch.tensor([1]).to(torch.float64)", np.array([1.0])),
    ("tensor([1, 0]).type(dtype=torch.bool)", np.array([True, False])),
    ("tensor([1]).float(2)", "tensor([1]).float(2)"),
    ("tensor([1]).sum()", "tensor([1]).sum()"),
]


@pytest.mark.parametrize(("text", "value"), PASTED)
def test_typed_answers_read_as_learners_paste_them(text: str, value: Any) -> None:
    got = typed_answer(text)
    assert type(got) is type(value)
    if isinstance(value, np.ndarray):
        assert got.dtype == value.dtype and np.array_equal(got, value)
    else:
        assert got == value


def test_the_page_reads_typed_answers_as_python_does() -> None:
    """exercises.mjs's readTyped against typed.py's typed_answer, on every pasted form:
    the same shape and values, or both decline to read it."""
    script = """
        import { readFileSync } from "node:fs";
        import { normalized, readTyped, ready }
            from "./gatherlab/browser/checker/exercises.mjs";
        import { toPayload } from "./gatherlab/browser/interpreter/evaluator.mjs";
        await ready();
        const out = JSON.parse(readFileSync(0, "utf-8")).map((text) => {
          const { value } = readTyped(text);
          const read = value ? toPayload(value) : null;
          return { normalized: normalized(text), read };
        });
        console.log(JSON.stringify(out));
    """
    texts = [text for text, _ in PASTED]
    for text, page in zip(texts, node_module(script, texts), strict=True):
        assert page["normalized"] == normalized(text), text
        value = typed_answer(text)
        if isinstance(value, str):
            assert page["read"] is None, text
            continue
        array = np.asarray(value)
        assert page["read"]["shape"] == list(array.shape), text
        assert np.allclose(page["read"]["data"], array.reshape(-1).tolist()), text
        if isinstance(value, np.ndarray):
            assert page["read"]["dtype"] == str(value.dtype), text


@pytest.mark.parametrize("exercise_id", list(EXERCISES))
def test_each_stub_shows_one_block_or_one_note(exercise_id: str) -> None:
    """A stub's output carries its exercise's data once; a solution's adds nothing."""
    answer: Any = ...
    if EXERCISES[exercise_id].kind == "implement":

        def answer(*args: object) -> object:
            raise NotImplementedError

    shown = gl.exercises.check(exercise_id, answer)._repr_html_()
    found = re.findall(r'data-exercise(?:-note)?="([^"]+)"', shown)
    assert found == [exercise_id]
    assert "data-exercise" not in gl.exercises.show_solution(exercise_id)._repr_html_()

"""Every exercise's page payload in the schema the book's page reads, built from today's
exercises: a bridge until ``gatherlab/exercises/page.py`` writes this schema itself.

The schema is the misconceptions branch's (its ``page.py`` docstring has it in full)::

    {"id", "kind": implement | fix | predict | raises | choose, "title", "args",
     "call": {"op", "dim", "part", "answer"},  # fix
     "cases": [{"name", "visible", "inputs": {name: T | number}, "expected": T | ERROR,
                "reads": null, "misconceptions": [{"id", "output": T | ERROR}]}],
     "misconceptions": {id: V}, "choices": [{"label", "verdict", "raises", "text"}],
     "passed": V, "verdicts": {"unanswered", "says_raises"}, "raise_words",
     "fallback": {"template", "shape_template"},
     "forbid": [...], "require": [...]}  # implement: ops it must not / must call

T is ``{"dtype", "shape", "data"}``; ERROR ``{"error": {"type", "rule"}}``; V
``{"passed", "template", "fields", "misconception"}``. Three additions the page also
reads: ``forbid`` and ``require``, a fix case's ``inputs`` holding the notebook names
its solution reads (``beam``, ``targets``), and each choice's ``text``. Here each
misconception is one of the exercise's generic wrong answers (``wrong_answers()``) or
listed mistakes, worded by today's check (template ``text``).
``tests/test_page_exercises.py`` writes these payloads into a built book for the
browser test; ``tests/js/page_exercises.test.mjs`` runs the page's matching on them.
Regenerate with

    .venv/bin/python tools/page_payloads.py
"""

from __future__ import annotations

import ast
import gzip
import inspect
import json
import math
import os
import sys
import textwrap
from pathlib import Path
from typing import Any

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

from gatherlab._arrays import to_numpy  # noqa: E402
from gatherlab.exercises import (  # noqa: E402
    EXERCISES,
    Choose,
    Fix,
    Implement,
    Predict,
    PredictRaises,
)
from gatherlab.exercises.predict import SAYS_IT_RAISES  # noqa: E402
from gatherlab.exercises.result import Result  # noqa: E402

PAYLOADS_FILE = (
    Path(__file__).resolve().parent.parent / "tests/js/page_payloads.json.gz"
)
# The templates the page fills itself when no misconception reproduces an answer (the
# wording of the misconceptions branch's messages.json, where these ids come from).
MESSAGES = {
    "text": "{text}",
    "implement.raised": "{case}, your function raised {error}.",
    "implement.raised_rule": (
        "{case}, your function raised {error}. Its call {call} breaks a rule: "
        "{problem}{hint}."
    ),
    "implement.wrong_shape": (
        "{case}, your result has shape {got_shape}, but it should have shape "
        "{expected_shape}."
    ),
    "implement.wrong_value": (
        "{case}, {where} should be {expected}, but your function returned {got}."
    ),
    "fix.wrong_shape": (
        "The call runs now, but its result has shape {got_shape}, and it should have "
        "shape {expected_shape}."
    ),
    "fix.wrong_value": (
        "The call runs now: {where} should be {expected}, but your call gives {got}."
    ),
    "predict.wrong_shape": (
        "Your answer has shape {got_shape}, but it should have shape {expected_shape}."
    ),
    "predict.wrong_value": "{where} should be {expected}, but you wrote {got}.",
    "raises.unknown": "There is no call {label}: the calls are {labels}.",
    "choose.unknown": "There is no statement {label}: they are {labels}.",
    "choose.pick_one": "Pick one statement: write its label, e.g. {example}.",
}
DTYPES = {"i": "int", "u": "uint", "f": "float", "b": "bool"}


def value(outcome: Any) -> dict[str, Any]:
    """T: a tensor (or nested list, or number) as dtype, shape and flat data."""
    array = to_numpy(outcome)
    kind = array.dtype.kind
    dtype = "bool" if kind == "b" else f"{DTYPES[kind]}{array.dtype.itemsize * 8}"
    flat = array.reshape(-1).tolist()
    if kind == "f":
        flat = [v if math.isfinite(v) else repr(v) for v in flat]
    return {"dtype": dtype, "shape": list(array.shape), "data": flat}


def error(raised: BaseException) -> dict[str, Any]:
    return {"error": {"type": type(raised).__name__, "rule": None}}


def said(result: Result) -> dict[str, Any]:
    """V from today's check: its whole message as the text template."""
    return {
        "passed": result.passed,
        "template": "text",
        "fields": {"text": result.message},
        "misconception": None,
    }


def notebook_names(function: Any) -> dict[str, Any]:
    """The values a solution reads from its notebook (e.g. ``beam``, ``targets``)."""
    module = sys.modules[function.__module__]
    found = {}
    for name in function.__code__.co_names:
        held = getattr(module, name, None)
        if isinstance(held, (int, float)) and not isinstance(held, bool):
            found[name] = held
        elif type(held).__module__.startswith("torch") and hasattr(held, "shape"):
            found[name] = held
    return found


def body_source(function: Any) -> str:
    """A solution's lines as a learner writes them in the box (no def, no docstring)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    definition = tree.body[0]
    assert isinstance(definition, ast.FunctionDef)
    statements = definition.body
    if isinstance(statements[0], ast.Expr) and isinstance(
        statements[0].value, ast.Constant
    ):
        statements = statements[1:]
    lines = textwrap.dedent(inspect.getsource(function)).splitlines()
    start = statements[0].lineno - 1
    return textwrap.dedent("\n".join(lines[start:]))


def run(function: Any, inputs: dict[str, Any]) -> dict[str, Any]:
    try:
        return value(function(*inputs.values()))
    except Exception as raised:  # the wrong answer raises: its output is that error
        return error(raised)


def implement_payload(exercise: Any) -> dict[str, Any]:
    rows = [(args, expected, None) for args, expected in exercise.cases]
    rows += [(args, None, raised) for args, raised in exercise.invalid_cases]
    wrong = {  # the answers whose outputs a page can compute: tensors or errors
        name: answer
        for name, answer in exercise.wrong_answers().items()
        if callable(answer)
        and name
        not in (
            "returns a list",
            "returns a NumPy array",
            "returns None",
            "modifies its input",
        )
    }
    cases = []
    for number, (args, expected, raised) in enumerate(rows):
        if raised is None:
            name = exercise._where(number)
            want = value(expected)
        else:
            name = f"On invalid hidden case {number - len(exercise.cases) + 1}"
            want = {"error": {"type": raised.split(":")[0], "rule": None}}
        cases.append(
            {
                "name": name,
                "visible": number == 0,
                "inputs": {
                    k: value(v) if hasattr(v, "shape") else v for k, v in args.items()
                },
                "expected": want,
                "reads": None,
                "misconceptions": [
                    {"id": label, "output": run(answer, exercise._given(args))}
                    for label, answer in wrong.items()
                ],
            }
        )
    return {
        "args": list(exercise.example),
        "cases": cases,
        "misconceptions": {
            label: said(exercise.check(answer)) for label, answer in wrong.items()
        },
        "passed": said(exercise.check(exercise.solution)),
        "fallback": {
            "template": "implement.wrong_value",
            "shape_template": "implement.wrong_shape",
        },
        "forbid": list(exercise.forbid),
        "require": list(exercise.require),
    }


def fix_payload(exercise: Any) -> dict[str, Any]:
    call = exercise.broken
    inputs = {call.input_name: value(call.input), call.index_name: value(call.index)}
    # the names the solution reads from its notebook, which the page's box may use too
    inputs.update(
        {
            k: value(v) if hasattr(v, "shape") else v
            for k, v in notebook_names(exercise.solution).items()
            if k not in inputs
        }
    )
    outputs, verdicts = [], {}
    for label, answer in exercise.wrong_answers().items():
        try:
            output = value(call.with_part(exercise.part, answer).run())
        except Exception as raised:  # the wrong index makes the call raise
            output = error(raised)
        outputs.append({"id": label, "output": output})
        verdicts[label] = said(exercise.check(answer))
    return {
        "args": [call.input_name, call.index_name],
        "call": {
            "op": call.op,
            "dim": call.dim,
            "part": exercise.part,
            "answer": exercise.answer_name,
        },
        "cases": [
            {
                "name": "",
                "visible": True,
                "inputs": inputs,
                "expected": value(exercise.expected),
                "reads": None,
                "misconceptions": outputs,
            }
        ],
        "misconceptions": verdicts,
        "passed": said(exercise.check(exercise.reference_answer)),
        "fallback": {
            "template": "fix.wrong_value",
            "shape_template": "fix.wrong_shape",
        },
    }


def predict_payload(exercise: Any) -> dict[str, Any]:
    listed = dict(getattr(exercise, "mistakes", None) or {})
    answers = {
        **exercise.wrong_answers(),
        **{f"listed: {k}": v for k, v in listed.items()},
    }
    outputs, verdicts = [], {}
    for label, answer in answers.items():
        try:
            output = value(answer)
        except Exception:  # not a value (text, None): the page reads these as text
            continue
        outputs.append({"id": label, "output": output})
        verdicts[label] = said(exercise.check(answer))
    return {
        "cases": [
            {
                "name": "",
                "visible": True,
                "inputs": {},
                "expected": value(exercise.solution),
                "reads": None,
                "misconceptions": outputs,
            }
        ],
        "misconceptions": verdicts,
        "passed": said(exercise.check(to_numpy(exercise.solution).tolist())),
        "raise_words": SAYS_IT_RAISES.pattern,
        "verdicts": {"says_raises": said(exercise.check("it raises"))},
        "fallback": {
            "template": "predict.wrong_value",
            "shape_template": "predict.wrong_shape",
        },
    }


def raises_payload(exercise: Any) -> dict[str, Any]:
    solution = list(exercise.solution)
    choices = []
    for label, call in exercise.calls.items():
        wrong = (
            [s for s in solution if s != label]
            if label in solution
            else [*solution, label]
        )
        choices.append(
            {
                "label": label,
                "raises": label in solution,
                "verdict": said(exercise.check(wrong)),
                "text": call.text(),
            }
        )
    return {"choices": choices, "passed": said(exercise.check(solution))}


def choose_payload(exercise: Any) -> dict[str, Any]:
    return {
        "choices": [
            {"label": label, "text": text, "verdict": said(exercise.check(label))}
            for label, text in exercise.options.items()
        ],
        "passed": said(exercise.check(exercise.right)),
    }


BUILDERS = {  # by class: PredictRaises is a kind of Predict
    Implement: ("implement", implement_payload),
    Fix: ("fix", fix_payload),
    Predict: ("predict", predict_payload),
    PredictRaises: ("raises", raises_payload),
    Choose: ("choose", choose_payload),
}


def payload(exercise: Any) -> dict[str, Any]:
    kind, build_one = BUILDERS[type(exercise)]
    data: dict[str, Any] = {
        "id": exercise.id,
        "kind": kind,
        "title": exercise.title,
        "verdicts": {},
    }
    data.update(build_one(exercise))
    data["verdicts"]["unanswered"] = said(exercise.check(...))
    return data


def answers(exercise: Any, data: dict[str, Any]) -> dict[str, str]:
    """A right and a wrong answer as a learner types them (the tests' answers)."""
    kind = data["kind"]
    if kind in ("implement", "fix"):
        right = body_source(exercise.solution)
        if kind == "implement":
            visible = to_numpy(exercise.cases[0][1])
            wrong = f"return torch.tensor({visible.tolist()!r})"
        else:
            wrong = f"return {data['args'][1]}"
        return {"right": right, "wrong": wrong}
    if kind == "choose":
        return {
            "right": exercise.right,
            "wrong": next(c for c in exercise.options if c != exercise.right),
        }
    if kind == "raises":
        others = [label for label in exercise.calls if label not in exercise.solution]
        return {
            "right": ", ".join(exercise.solution) or "none",
            "wrong": ", ".join(others) or "none",
        }
    expected = to_numpy(exercise.solution)
    wrong = expected.astype(np.float64 if expected.dtype.kind == "f" else np.int64)
    wrong.reshape(-1)[wrong.size // 2] += 1
    return {"right": repr(expected.tolist()), "wrong": repr(wrong.tolist())}


def build() -> dict[str, Any]:
    payloads = {i: payload(e) for i, e in EXERCISES.items()}
    return {
        "messages": MESSAGES,
        "payloads": payloads,
        "answers": {i: answers(EXERCISES[i], p) for i, p in payloads.items()},
    }


def dumped(data: dict[str, Any]) -> bytes:
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return gzip.compress(text.encode("utf-8"), mtime=0)


def main() -> None:
    data = build()
    PAYLOADS_FILE.write_bytes(dumped(data))
    kinds = [p["kind"] for p in data["payloads"].values()]
    print(
        f"{len(kinds)} payloads: "
        + ", ".join(f"{k} {kinds.count(k)}" for k in sorted(set(kinds)))
    )


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()

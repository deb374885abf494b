"""Predict exercises answered in the static book: what a page needs to check an answer.

A stub's result (``prediction = ...``) shows, in HTML, a hidden ``<div data-exercise>``
holding a JSON payload. In the book, ``book/static/exercise_check.js`` turns it into an
answer box and a Check button and gives the feedback ``gl.exercises.check`` would give;
in JupyterLab no script reads it and it stays hidden. Every sentence the page shows is
made here by the real check, on answers built to hit each case (every coordinate, every
label); the script only reads the learner's text, finds which case it is in, and puts
the learner's own value into the sentence. ``tests/page_cases.py`` checks that it agrees
with Python on about 2,400 typed answers.

How the page reads typed text is ``gatherlab.exercises.typed``.
"""

from __future__ import annotations

import html
import json
import sys
from typing import Any

import numpy as np

from gatherlab._arrays import to_numpy
from gatherlab.exercises.compare import shape_advice, shape_text
from gatherlab.exercises.result import COLOURS, MARKS, NOT_ATTEMPTED, Result
from gatherlab.trace import format_value

# Wrong values put into the expected answer to capture a sentence with a hole in it.
SENTINELS = {"i": 987654321, "f": 987654.0}
SENTINEL_WORD = "nolabel9"
GOT, WORD = "{got}", "{word}"


def _shown(result: Result) -> list[Any]:
    return [result.status, result.message, list(result.details)]


def number_key(value: Any) -> str:
    """How the page names a number: ``21`` for 21 and 21.0, ``0.5`` for 0.5."""
    value = np.asarray(value).item()
    if isinstance(value, bool):
        value = int(value)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return repr(value)


def _with_hole(result: Result, filled: str, hole: str) -> list[Any]:
    """The result with ``filled`` (the sentinel as written) replaced by ``hole``."""
    status, message, details = _shown(result)
    return [
        status,
        message.replace(filled, hole),
        [d.replace(filled, hole) for d in details],
    ]


def _constant(kind: type, name: str) -> Any:
    """A constant of the module that defines an exercise kind (e.g. its label regex)."""
    return getattr(sys.modules[kind.__module__], name)


def _array(value: Any) -> dict[str, Any]:
    """A value as the page compares it: shape, flat values (True as 1), float or not."""
    values = to_numpy(value)
    is_float = values.dtype.kind == "f"
    flat = values.reshape(-1).astype(np.float64 if is_float else np.int64)
    return {"shape": list(values.shape), "values": flat.tolist(), "float": is_float}


def _shape_reason(exercise: Any, shape: tuple[int, ...]) -> str:
    """What the check adds after a wrong shape's advice, e.g. `` (x.grad has the shape
    of x, (2, 3))``: read off the check's answer to an extra leading dim."""
    got = (1, *shape)
    message = exercise.check(np.zeros(got, dtype=np.int64).tolist()).message
    head = (
        f"Your answer has shape {shape_text(got)}, but it should have shape "
        f"{shape_text(shape)}: {shape_advice(shape, got, 'none')}"
    )
    return message[len(head) : -1] if message.startswith(head) else ""


def _predict_payload(exercise: Any) -> dict[str, Any]:
    expected = to_numpy(exercise.solution)
    kind = "f" if expected.dtype.kind == "f" else "i"
    flat = expected.reshape(-1)
    call = exercise.explain
    inputs = (
        [] if call is None else sorted(set(to_numpy(call.input).reshape(-1).tolist()))
    )
    check = exercise.check
    wrong = []
    for position in range(flat.size):
        sentinel = SENTINELS[kind]
        answer = flat.tolist()
        answer[position] = sentinel
        template = _with_hole(
            check(np.reshape(answer, expected.shape).tolist()),
            format_value(sentinel),
            GOT,
        )
        known = {}
        for value in inputs:
            for as_bool in (False, True):
                entry = _special(exercise, expected, position, value, as_bool, template)
                if entry is None:
                    continue
                same_rest = entry[0] == template[0] and entry[2] == template[2]
                key = ("b:" if as_bool else "") + number_key(value)
                known[key] = entry[1] if same_rest else entry  # the message alone
        wrong.append({"template": template, "known": known})
    target = _array(expected)
    return {
        "kind": "predict",
        "shape": target["shape"],
        "float": target["float"],
        "expected": target["values"],
        "raise_words": _constant(type(exercise), "SAYS_IT_RAISES").pattern,
        "results": {
            "unanswered": _shown(check(...)),
            "raises": _shown(check("it raises")),
            "none": _shown(check(None)),
            "passed": _shown(check(expected.tolist())),
            "unreadable": {
                "str": _shown(check("?")),
                "list": _shown(check(["?"])),
                "tuple": _shown(check(("?",))),
            },
        },
        "shape_reason": _shape_reason(exercise, expected.shape),
        "mistakes": [
            {**_array(mistake), "result": _shown(check(mistake))}
            for mistake in getattr(exercise, "mistakes", {}).values()
        ],
        "wrong": wrong,
    }


def _special(
    exercise: Any,
    expected: np.ndarray,
    position: int,
    value: Any,
    as_bool: bool,
    template: list[Any],
) -> list[Any] | None:
    """The result for ``value`` written at ``position``, where it differs from the
    template's sentence (e.g. the value occurs once in the input: "that is x[1, 1]")."""
    flat = expected.reshape(-1)
    if as_bool:  # a whole answer of True/False: possible only where 0/1 come first
        if value not in (0, 1) or not np.isin(flat[:position], (0, 1)).all():
            return None
        answer = [bool(v) for v in flat]
        answer[position] = bool(value)
    else:
        answer = flat.tolist()
        answer[position] = value
    if answer[position] == flat[position]:
        return None
    written = np.asarray(answer)
    result = _shown(exercise.check(written.reshape(expected.shape).tolist()))
    got = format_value(written[position])
    filled = [
        template[0],
        template[1].replace(GOT, got),
        [d.replace(GOT, got) for d in template[2]],
    ]
    return None if result == filled else result


def _raises_payload(exercise: Any) -> dict[str, Any]:
    check = exercise.check
    labels, solution = list(exercise.calls), list(exercise.solution)
    first_wrong = {}
    for label in labels:
        if label in solution:
            answer = [s for s in solution if s != label]
        else:
            answer = [*solution, label]
        first_wrong[label] = _shown(check(answer))
    return {
        "kind": "predict_raises",
        "labels": labels,
        "solution": solution,
        "separators": _constant(type(exercise), "LABEL_SEPARATORS").pattern,
        "results": {
            "unanswered": _shown(check(...)),
            "passed": _shown(check(solution)),
            "unknown": _with_hole(check(SENTINEL_WORD), repr(SENTINEL_WORD), WORD),
            "not_text": {
                name: _shown(check(sample))
                for name, sample in {
                    "None": None,
                    "int": 1,
                    "float": 1.5,
                    "bool": True,
                    "list": [1],
                    "tuple": (1,),
                }.items()
            },
        },
        "first_wrong": first_wrong,
    }


def _choose_payload(exercise: Any) -> dict[str, Any]:
    from gatherlab.exercises import PredictRaises

    check = exercise.check
    labels = list(exercise.options)
    return {
        "kind": "choose",
        "labels": labels,
        "separators": _constant(PredictRaises, "LABEL_SEPARATORS").pattern,
        "results": {
            "unanswered": _shown(check(...)),
            "pick_one": _shown(check(None)),
            "unknown": _with_hole(check(SENTINEL_WORD), repr(SENTINEL_WORD), WORD),
            "by_label": {label: _shown(check(label)) for label in labels},
        },
    }


def payload(exercise: Any) -> dict[str, Any] | None:
    """What the page needs to check answers to ``exercise``; None if it needs Python."""
    from gatherlab import exercises

    builders = {
        exercises.PredictRaises: _raises_payload,
        exercises.Predict: _predict_payload,
        # pick-the-true-statement exercises, a kind the feedback work adds
        getattr(exercises, "Choose", None): _choose_payload,
    }
    build = builders.get(type(exercise))
    if build is None:
        return None
    data = build(exercise)
    data["id"] = exercise.id
    data["marks"] = MARKS
    data["colours"] = COLOURS
    return data


def page_html(result: Result) -> str:
    """The hidden block a stub's result adds to its HTML (the hook in ``Result``).

    A predict stub gets the payload the page script turns into an answer box; any
    other stub a note, shown in the book, that its check needs a live notebook.
    """
    if result.status != NOT_ATTEMPTED:
        return ""
    from gatherlab.exercises import EXERCISES

    exercise = EXERCISES.get(result.exercise_id)
    if exercise is None:
        return ""
    try:
        data = payload(exercise)
    except Exception:  # the notebook's own display must never break over the page's
        return ""  # extra (tests/test_page_exercises.py calls payload directly)
    name = html.escape(exercise.id)
    if data is None:
        return (
            f'<p class="gl-live-note" data-exercise-note="{name}" hidden '
            'style="display:none">This exercise '
            "runs the code you write, so it is checked in a live notebook: open this "
            "chapter's notebook in JupyterLab, write your answer in the cell above and "
            "run it.</p>"
        )
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return (
        f'<div class="gl-page-check" data-exercise="{name}" '
        f'data-payload="{html.escape(text)}" hidden></div>'
    )

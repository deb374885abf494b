"""Self-check exercises: ``gl.exercises.check("01.pick_columns", answer)`` explains.

Chapter modules ``chNN.py`` in this package, listed in ``registry.CHAPTERS``, register
their exercises with ``implement``, ``predict``, ``predict_raises``, ``choose`` and
``fix`` while ``EXERCISES`` imports them. A wrong answer's message comes from the
misconception model (``misconceptions.py``) and the one message table
(``messages.json``); ``check(...).verdict`` holds it as data. CONTRIBUTING.md
("Exercises") shows how to add one and the notebook cell pattern.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from typing import Any

from gatherlab.errors import package_bug
from gatherlab.exercises.base import Exercise
from gatherlab.exercises.call import Call
from gatherlab.exercises.choose import Choose
from gatherlab.exercises.fix import Fix, FixHint, FixPart
from gatherlab.exercises.implement import (
    HIDDEN_CASES,
    INVALID_CASES,
    Generator,
    Hint,
    Implement,
)
from gatherlab.exercises.patching import ForbiddenOpError
from gatherlab.exercises.predict import Predict
from gatherlab.exercises.raises import PredictRaises
from gatherlab.exercises.registry import Registry
from gatherlab.exercises.result import Result, SolutionView, failed

EXERCISES = Registry(__name__)


def _register(exercise: Exercise) -> Exercise:
    """Add to the registry, under the chapter module it is importing (an exercise made
    elsewhere, e.g. in a notebook, is not registered: check it with its own
    ``.check``)."""
    if not EXERCISES.loading:
        return exercise
    return EXERCISES.add(exercise, EXERCISES.loading)


def implement(
    id: str,
    title: str,
    *,
    solution: Callable[..., Any],
    example: Mapping[str, Any],
    generate: Generator,
    call: Call | None,
    hidden: int = HIDDEN_CASES,
    generate_invalid: Generator | None = None,
    invalid: int = INVALID_CASES,
    forbid: tuple[str, ...] = (),
    require: tuple[str, ...] = (),
    hint: Hint | None = None,
    convert: Callable[[Any], Any] | None = None,
    finish: Callable[[Any], Any] | None = None,
    gradient: str = "",
    write: Any = None,
    dtype_due: str = "",
) -> Exercise:
    """Register a write-a-function exercise, checked on ``example`` and hidden cases.

    ``call`` (the gather-family call behind the output) explains wrong coordinates and
    names the index and dim arguments the generic wrong answers change.
    ``generate_invalid(rng)`` makes cases the function must raise on (``invalid`` of
    them); ``forbid=("torch.gather",)`` refuses those functions while the learner's
    function is checked (the solution must not use them); ``require=`` names functions
    of which it must call one and use its result. ``hint(args, outcome, expected,
    where)`` adds the exercise's own explanation of a wrong value or an error (see
    ``Implement``). ``convert=cases.tensorflow`` hands the functions TensorFlow
    tensors (the cases stay torch tensors, so ``call`` can explain them).
    ``finish`` turns ``call``'s output into the expected value (e.g. a squeeze);
    ``gradient="log_probs"`` fails answers through which no gradient reaches it.
    ``write`` (``writes.Write``) is the write behind the output, for the writing-op
    misconceptions. ``dtype_due`` says why the result's dtype is due, after "not
    int64" where a dtype verdict names a buffer or a default.
    """
    exercise = Implement(
        id,
        title,
        solution=solution,
        example=example,
        generate=generate,
        call=call,
        hidden=hidden,
        generate_invalid=generate_invalid,
        invalid=invalid,
        forbid=forbid,
        require=require,
        hint=hint,
        convert=convert,
        finish=finish,
        gradient=gradient,
        write=write,
        dtype_due=dtype_due,
    )
    return _register(exercise)


def predict(
    id: str,
    title: str,
    *,
    code: Callable[[], Any],
    explain: Call | None = None,
    gradient: bool = False,
    grad_output: Any = None,
    runs_because: str = "",
    mistakes: Mapping[str, Any] | None = None,
    write: Any = None,
    value: Any = None,
    gradient_name: str = "",
    tf_op: str = "",
) -> Exercise:
    """Register a predict-the-value exercise: the answer is what ``code()`` returns.

    ``runs_because`` answers a learner who predicts an error: why the code runs.
    ``mistakes`` maps a reason to the wrong prediction it explains; ``write``
    (``writes.Write``) is the write behind the value, for the writing-op family.
    ``value`` is what ``code()`` returns, stored, where the code needs TensorFlow: a
    prediction is then checked without it. ``gradient_name`` names a gradient that
    is no ``x.grad`` (a TensorFlow tape's). ``tf_op`` names the TensorFlow op of a
    value no ``explain`` call gives ("gather_nd"), whose rules a wrong answer is told.
    """
    exercise = Predict(
        id,
        title,
        code=code,
        explain=explain,
        gradient=gradient,
        grad_output=grad_output,
        runs_because=runs_because,
        mistakes=dict(mistakes or {}),
        write=write,
        value=value,
        gradient_name=gradient_name,
        tf_op=tf_op,
    )
    return _register(exercise)


def predict_raises(id: str, title: str, *, calls: Mapping[str, Call]) -> Exercise:
    """Register a which-call-raises exercise: the answer is those calls' labels."""
    return _register(PredictRaises(id, title, calls=calls))


def choose(
    id: str,
    title: str,
    *,
    options: Mapping[str, str],
    right: str,
    why: Mapping[str, str],
) -> Exercise:
    """Register a pick-the-true-statement exercise (behaviour a CPU cannot show)."""
    return _register(Choose(id, title, options=options, right=right, why=why))


def fix(
    id: str,
    title: str,
    *,
    broken: Call,
    solution: Callable[[Any, Any], Any],
    part: FixPart = "index",
    answer_name: str = "",
    hint: FixHint | None = None,
    positions: str = "",
    write: Any = None,
) -> Exercise:
    """Register a fix-the-call exercise: the answer is the corrected index (or dim).

    The solution shows ``solution``'s body, ending ``fixed_index = ...``
    (``answer_name``), so write it with the names the notebook defines.
    ``hint(answer, got, expected, where)`` names an exercise's own cause of a wrong
    value; ``positions`` is the notebook's name for the positions the index holds;
    ``write`` (``writes.Write``) is the write the fixed read mirrors.
    """
    exercise = Fix(
        id,
        title,
        broken=broken,
        solution=solution,
        part=part,
        answer_name=answer_name,
        hint=hint,
        positions=positions,
        write=write,
    )
    return _register(exercise)


def _unknown(exercise_id: Any) -> Result:
    close = difflib.get_close_matches(str(exercise_id), list(EXERCISES), n=1)
    if close:
        name, near = repr(exercise_id), repr(close[0])
        return failed(str(exercise_id), "exercise.unknown", name=name, close=near)
    return failed(str(exercise_id), "exercise.unknown_id", name=repr(exercise_id))


def check(exercise_id: str, answer: Any) -> Result:
    """Check ``answer`` against exercise ``exercise_id``; never raises."""
    if not isinstance(exercise_id, str):
        return _unknown(exercise_id)
    try:
        exercise = EXERCISES.get(exercise_id)
    except Exception as error:  # a broken chapter module: gatherlab's bug, in words
        return failed(str(exercise_id), "exercise.not_loaded", error=package_bug(error))
    if exercise is None:
        return _unknown(exercise_id)
    return exercise.check(answer)


def show_solution(exercise_id: str) -> SolutionView | Result:
    """The reference solution's source (or value) and its passing check."""
    exercise = EXERCISES.get(exercise_id) if isinstance(exercise_id, str) else None
    if exercise is None:
        return _unknown(exercise_id)
    return exercise.show_solution()


__all__ = [
    "EXERCISES",
    "Call",
    "Choose",
    "Exercise",
    "Fix",
    "ForbiddenOpError",
    "Implement",
    "Predict",
    "PredictRaises",
    "Result",
    "SolutionView",
    "check",
    "choose",
    "fix",
    "implement",
    "predict",
    "predict_raises",
    "show_solution",
]

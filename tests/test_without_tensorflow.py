"""Every exercise in the learner's default install (`make lab`: no TensorFlow).

A prediction is a value: its check needs no TensorFlow, even where the code it shows
is TensorFlow's (the value is stored, and compared here with what TensorFlow returns).
An exercise whose answer must run TensorFlow says that it needs it and how to add it,
never that the checker failed.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from gatherlab.exercises import EXERCISES
from gatherlab.notebook import TENSORFLOW_SKIP_MESSAGE
from gatherlab.tf import ADD_TENSORFLOW, tensorflow_installed

STORED_VALUES = ("05.predict_gather_nd_axis", "05.predict_dense_slices")
STORED_VALUES += ("06.predict_scatter_nd",)

# Runs in a fresh interpreter where `import tensorflow` fails as if it were absent.
BLOCKED = r"""
import json, sys
sys.modules["tensorflow"] = None  # import tensorflow raises ModuleNotFoundError
from gatherlab.exercises import EXERCISES
from gatherlab.tf import tensorflow_installed
assert not tensorflow_installed()
rows = []
for exercise_id, exercise in EXERCISES.items():
    solution = exercise.check(exercise.reference_answer)
    try:
        name, wrong = next(iter(exercise.wrong_answers().items()))
    except ImportError:  # its wrong answers are built from TensorFlow's results
        name, wrong = "returns None", lambda *args: None
    answer = exercise.check(wrong)
    rows.append([exercise_id, solution.status, str(solution), name, answer.status,
                 str(answer)])
assert "tensorflow" not in [m for m in sys.modules if sys.modules[m] is not None]
print(json.dumps(rows))
"""


@pytest.fixture(scope="module")
def checked_without_tensorflow():
    result = subprocess.run(
        [sys.executable, "-c", BLOCKED], capture_output=True, text=True, timeout=900
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.splitlines()[-1])


def test_every_solution_passes_and_a_wrong_answer_fails_without_tensorflow(
    checked_without_tensorflow,
):
    rows = checked_without_tensorflow
    assert len(rows) == len(EXERCISES)
    needs = []
    for exercise_id, status, said, name, wrong_status, wrong_said in rows:
        assert "checker failed" not in said + wrong_said, (exercise_id, name)
        if status == "not checked here":  # its answer must run TensorFlow
            assert EXERCISES[exercise_id].kind == "implement", exercise_id
            for text in (said, wrong_said):
                assert "needs tensorflow" in text and ADD_TENSORFLOW in text, text
            needs.append(exercise_id)
            continue
        assert status == "passed", said
        assert wrong_status == "not yet", (exercise_id, name, wrong_said)
    assert sorted(needs) == ["02.tf_gather_nd_pairs", "02.tf_select_steps"]
    assert {row[0] for row in rows} >= set(STORED_VALUES)


def test_the_tensorflow_advice_names_the_books_command():
    assert "make lab-tensorflow" in ADD_TENSORFLOW
    assert ADD_TENSORFLOW in TENSORFLOW_SKIP_MESSAGE


@pytest.mark.skipif(not tensorflow_installed(), reason="needs TensorFlow")
@pytest.mark.parametrize("exercise_id", STORED_VALUES)
def test_a_stored_prediction_is_what_tensorflow_returns(exercise_id):
    exercise = EXERCISES[exercise_id]
    returned = exercise.code()
    assert type(returned).__module__.startswith("tensorflow")
    stored = exercise.value
    assert stored is not None and stored.dtype == returned.numpy().dtype
    np.testing.assert_array_equal(stored, returned.numpy())


def test_every_prediction_whose_code_imports_tensorflow_stores_its_value():
    import inspect

    for exercise_id, exercise in EXERCISES.items():
        code = getattr(exercise, "code", None)
        if code is not None and "tensorflow" in inspect.getsource(code):
            assert exercise.value is not None, exercise_id

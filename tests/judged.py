"""One wrong answer, written as code defining ``answer``, judged by the checker: the
test files of the checker's rules share it."""

import torch

from gatherlab.exercises import check


def judged(exercise_id: str, code: str):
    """Run ``code`` (with torch in scope), check its ``answer`` on ``exercise_id``, and
    return the result, which must be a failure with a verdict."""
    names = {"torch": torch}
    exec(code, names)
    result = check(exercise_id, names["answer"])
    assert not result.passed, result.words
    assert result.verdict is not None
    return result

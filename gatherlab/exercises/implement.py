"""Implement: the learner writes a function, run on the example and hidden cases."""

from __future__ import annotations

import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar

import numpy as np

from gatherlab._arrays import framework_of, fresh, like, to_numpy
from gatherlab.errors import package_bug, short_error
from gatherlab.exercises import strategies
from gatherlab.exercises.base import Exercise
from gatherlab.exercises.call import Call
from gatherlab.exercises.compare import differences, kind_of
from gatherlab.exercises.feedback import (
    STUB_HINT,
    capitalised,
    changed_argument,
    describe,
    wrong_value_message,
)
from gatherlab.exercises.patching import (
    ForbiddenOpError,
    counting,
    forbidding,
    function,
    owner,
    used,
)
from gatherlab.exercises.rendering import source
from gatherlab.exercises.result import Result, failed, not_attempted, passed
from gatherlab.exercises.wrong import (
    never_raising,
    off_by_one,
    other_dtype,
    transposed,
    with_argument,
)

HIDDEN_CASES = 50
INVALID_CASES = 10  # hidden cases that must raise, when an exercise has them
Case = Mapping[str, Any]
Generator = Callable[[np.random.Generator], Case]
# hint(args, outcome, expected, where): the exercise's own words for a wrong outcome.
Hint = Callable[[dict[str, Any], Any, Any, "tuple[int, ...] | None"], str]


@dataclass(eq=False, kw_only=True)
class Implement(Exercise):
    """Write a function; it is run on the visible example and on hidden generated cases.

    ``example`` maps argument names to values, in the order the function takes them;
    ``generate(rng)`` returns one hidden case in the same form; ``call`` is the
    gather-family call behind the expected output, used to explain a wrong coordinate
    and to recognise common wrong strategies. ``generate_invalid(rng)`` returns a case
    the solution must raise on (``invalid`` of them are checked); ``forbid`` names
    functions (``"torch.gather"``) that the learner's function may not call while it
    is checked, ``require`` functions of which it must call at least one and use the
    result. ``hint(args, outcome, expected, where)`` may add an exercise's own
    explanation to a wrong value (``outcome`` the result, ``where`` the first wrong
    coordinate) or to an error (``outcome`` the error, ``where`` None).
    ``convert`` turns each argument into what the functions receive (e.g.
    ``tf.constant``): cases stay torch tensors, so ``call`` explains them.
    """

    solution: Callable[..., Any]
    example: Mapping[str, Any]
    generate: Generator
    call: Call | None = None  # None only where no gather-family call explains it
    hidden: int = HIDDEN_CASES
    generate_invalid: Generator | None = None
    invalid: int = INVALID_CASES
    forbid: tuple[str, ...] = ()
    require: tuple[str, ...] = ()
    hint: Hint | None = None
    convert: Callable[[Any], Any] | None = None
    kind: ClassVar[str] = "implement"

    def __post_init__(self) -> None:
        for name in (*self.forbid, *self.require):
            if not name.startswith("tensorflow."):  # TensorFlow loads on first check
                owner(name)  # a misspelt name fails when the exercise registers
        if self.generate_invalid is None:
            self.invalid = 0

    @cached_property
    def cases(self) -> list[tuple[dict[str, Any], Any]]:
        """The visible example, then the hidden cases, each with its expected output."""
        rng = np.random.default_rng(zlib.crc32(self.id.encode()))
        inputs = [dict(self.example)] + [
            dict(self.generate(rng)) for _ in range(self.hidden)
        ]
        return [(args, self.solution(*self._given(args).values())) for args in inputs]

    def _given(self, args: Mapping[str, Any]) -> dict[str, Any]:
        """Fresh copies of one case's arguments, as the functions receive them."""
        convert = self.convert or (lambda value: value)
        return {name: convert(fresh(value)) for name, value in args.items()}

    @cached_property
    def invalid_cases(self) -> list[tuple[dict[str, Any], str]]:
        """Hidden cases the solution raises on, each with the error it raises."""
        if self.generate_invalid is None:
            return []
        rng = np.random.default_rng(zlib.crc32(f"{self.id} invalid".encode()))
        found = []
        for _ in range(self.invalid):
            args = dict(self.generate_invalid(rng))
            try:
                self.solution(*self._given(args).values())
            except Exception as error:
                found.append((args, short_error(error)))
            else:
                raise ValueError(f"{self.id}: an invalid case does not make it raise")
        return found

    @property
    def reference_answer(self) -> Callable[..., Any]:
        return self.solution

    def solution_source(self) -> str:
        return source(self.solution)

    def _where(self, number: int) -> str:
        if number == 0:
            return "On the visible example"
        return f"On hidden case {number} of {self.hidden}"

    def _check(self, answer: Any) -> Result:
        if answer is ...:
            return not_attempted(self.id, f"Write the function: {STUB_HINT}.")
        if not callable(answer):
            return failed(
                self.id,
                f"check wants your function itself, but it got {kind_of(answer)}: pass "
                "the function's name, without calling it.",
            )
        try:
            cases = self.cases
        except ImportError as missing:
            return failed(
                self.id,
                f"This exercise needs {missing.name}, which is not installed here "
                f"(pip install {missing.name}).",
            )
        for name in self.forbid:
            if answer is function(name):
                return failed(
                    self.id,
                    f"Your answer is {name} itself, and this exercise asks you not to "
                    f"use {name}: write your own function.",
                )
        for number, (args, expected) in enumerate(cases):
            result = self._check_case(answer, number, args, expected)
            if result is not None:
                return result
        for number, (args, error) in enumerate(self.invalid_cases, 1):
            result = self._check_invalid(answer, number, args, error)
            if result is not None:
                return result
        raises = f", and raises on {self.invalid} invalid ones" if self.invalid else ""
        return passed(
            self.id,
            f"Your function matches the visible example and {self.hidden} hidden "
            f"cases{raises}.",
        )

    def _run(
        self, answer: Callable[..., Any], given: dict[str, Any]
    ) -> tuple[Any, bool]:
        """The learner's function on one case, with the forbidden functions refused,
        and whether its result uses a required function's (True when none is)."""
        results: list[Any] = []
        with forbidding(self.forbid), counting(self.require, results):
            result = answer(*given.values())
        return result, not self.require or used(results, result)

    def _hint(
        self, args: dict[str, Any], outcome: Any, expected: Any, where: Any
    ) -> str:
        """The exercise's own explanation of a wrong outcome, or empty."""
        if self.hint is None:
            return ""
        try:
            return self.hint(args, outcome, expected, where) or ""
        except (
            Exception
        ) as error:  # a failing hint costs the hint (loud when debugging)
            package_bug(error)
            return ""

    def _bound(self, args: dict[str, Any]) -> Call | None:
        return self.call.bind(args) if self.call is not None else None

    def _check_invalid(
        self, answer: Callable[..., Any], number: int, args: dict[str, Any], error: str
    ) -> Result | None:
        """None when the learner's function raises on an invalid case, as it must."""
        where = f"On invalid hidden case {number} of {self.invalid}"
        try:
            self._run(answer, self._given(args))
        except ForbiddenOpError as refused:
            return self._refused(where, refused)
        except NotImplementedError:
            return failed(
                self.id, f"{where}, your function raised NotImplementedError."
            )
        except (Exception, SystemExit):
            return None
        why = strategies.wraps_instead_of_raising(self._bound(args))
        return failed(
            self.id,
            f"{where}, your function returned a result, but this case is invalid and "
            f"must raise, as the reference does ({error}){why}.",
            describe(args),
        )

    def _refused(self, where: str, refused: ForbiddenOpError) -> Result:
        return failed(
            self.id,
            f"{where}, your function called {refused.name}, and this exercise asks "
            f"you not to use {refused.name}.",
        )

    def _check_case(
        self,
        answer: Callable[..., Any],
        number: int,
        args: dict[str, Any],
        expected: Any,
    ) -> Result | None:
        where = self._where(number)
        given = self._given(args)
        try:
            got, used_required = self._run(answer, given)
        except ForbiddenOpError as refused:
            return self._refused(where, refused)
        except NotImplementedError:
            if number == 0:
                return not_attempted(self.id, f"Write the function: {STUB_HINT}.")
            return failed(
                self.id, f"{where}, your function raised NotImplementedError."
            )
        except (Exception, SystemExit) as error:
            hint = self._hint(args, error, expected, None)
            why = capitalised(
                hint or strategies.explain_error(error, self._bound(args), expected)
            )
            return failed(
                self.id,
                f"{where}, your function raised {short_error(error)}."
                + (f" {why}." if why else ""),
                describe(args),
            )
        if not used_required and framework_of(got) is not None:
            names = " or ".join(self.require)
            return failed(
                self.id,
                f"{where}, your function's result does not come from {names}: "
                f"this exercise asks you to build it with "
                f"{self.require[0].rsplit('.', 1)[-1]}.",
                describe(args),
            )
        changed = changed_argument(args, given)
        if changed:
            return failed(
                self.id,
                f"{where}, your function changed its input {changed} in place: leave "
                "the inputs as they are (use out-of-place ops, or work on a .clone()).",
                describe(args),
            )
        difference = differences(expected, got, "your result", hints="index")
        if difference is None:
            return None
        call = self._bound(args)
        comparable = difference.where is not None or difference.shape
        strategy = strategies.explain_result(got, expected, call) if comparable else ""
        if strategy:
            return failed(self.id, f"{where}, {strategy}.", describe(args))
        if difference.where is None:
            return failed(self.id, f"{where}, {difference.message}.", describe(args))
        message = wrong_value_message(difference, call, "your function returned")
        hint = self._hint(args, got, expected, difference.where)
        if hint:
            message = f"{message.removesuffix('.')} ({hint})."
        return failed(self.id, f"{where}, {message}", describe(args))

    def _argument_position(self, name: Any) -> int | None:
        names = list(self.example)
        return names.index(name) if name in names else None

    def _positions_argument(self) -> int | None:
        """The argument holding positions: the call's index, or else (when the index is
        computed from the arguments, or no call is named) the first integer tensor
        argument."""
        named = self._argument_position(self.call.index if self.call else None)
        if named is not None:
            return named
        for position, value in enumerate(self.example.values()):
            if framework_of(value) and to_numpy(value).dtype.kind in "iu":
                return position
        return None

    def _bound_to(self, args: tuple[Any, ...]) -> Call:
        """The call, bound to arguments as the functions receive them."""
        assert self.call is not None
        torch_args = {
            name: like_torch(value)
            for name, value in zip(self.example, args, strict=True)
        }
        return self.call.bind(torch_args)

    def _as_given(self, value: Any) -> Any:
        return self.convert(value) if self.convert else value

    def _with_other_dim(self, *args: Any) -> Any:
        """The traced call along another dim than the intended one (a slip)."""
        bound = self._bound_to(args)
        rank = to_numpy(bound.input).ndim
        other = (int(bound.axis or 0) + 1) % rank if rank > 1 else 1
        return self._as_given(bound.with_part("dim", other).run())

    def wrong_answers(self) -> dict[str, Any]:
        solution, expected = self.solution, self.cases[0][1]

        def wrapping(transform: Callable[[Any], Any]) -> Callable[..., Any]:
            return lambda *args: transform(solution(*args))

        def raising(*args: Any) -> Any:
            raise ValueError("a bug in my code")

        def mutating(*args: Any) -> Any:
            out = fresh(solution(*args))
            first = next(a for a in args if framework_of(a) in ("torch", "numpy"))
            first += 1  # in place for torch tensors and NumPy arrays
            return out

        answers: dict[str, Any] = {
            "hard-coded visible output": lambda *args: fresh(expected),
            "transposed result": wrapping(transposed),
            "extra dim": wrapping(lambda out: like(out, to_numpy(out)[None])),
            "raises": raising,
            "returns a list": wrapping(lambda out: to_numpy(out).tolist()),
            "returns a NumPy array": wrapping(to_numpy),
            "returns None": lambda *args: None,
            "wrong dtype": wrapping(
                lambda out: like(out, to_numpy(out).astype(other_dtype(out)))
            ),
            "None instead of a function": None,
            "the output instead of a function": fresh(expected),
        }
        if self.convert is None:  # converted arguments are copies
            answers["modifies its input"] = mutating
        index_at = self._positions_argument()
        if index_at is not None:
            answers["off-by-one index"] = with_argument(solution, index_at, off_by_one)
        dim_at = self._argument_position(self.call.dim if self.call else None)
        if dim_at is not None:
            answers["wrong dim"] = with_argument(solution, dim_at, lambda d: d + 1)
        elif self.call is not None and isinstance(self.call.dim, int):
            answers["wrong dim"] = self._with_other_dim
        if self.call is not None and f"torch.{self.call.op}" in self.forbid:
            answers["the forbidden op"] = self._with_the_call
        if self.invalid:
            answers["never raises"] = never_raising(solution, expected)
        return answers

    def _with_the_call(self, *args: Any) -> Any:
        """The call behind the output, run as it is (the op an exercise may forbid)."""
        return self._as_given(self._bound_to(args).run())


def like_torch(value: Any) -> Any:
    """A TensorFlow argument as a torch tensor (for the call that explains it)."""
    if framework_of(value) == "tensorflow":
        import torch

        return torch.as_tensor(to_numpy(value))
    return value

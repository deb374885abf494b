"""The kinds of exercise: implement a function, predict an output, fix a broken call.

Each kind checks an answer without ever raising, explains the first thing that is wrong,
and lists generic wrong answers (``wrong_answers``) that its check must reject, so the
tests cover every registered exercise without per-exercise code.
"""

from __future__ import annotations

import ast
import contextlib
import copy
import importlib
import inspect
import re
import textwrap
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, ClassVar

import numpy as np

from gatherlab._arrays import coord, framework_of, like, to_numpy
from gatherlab.exercises.call import Call, contributions, step_at
from gatherlab.exercises.compare import (
    Difference,
    at,
    differences,
    kind_of,
    shape_text,
    value_text,
)
from gatherlab.exercises.result import (
    Result,
    SolutionView,
    failed,
    not_attempted,
    passed,
)
from gatherlab.trace import Step

HIDDEN_CASES = 50
INVALID_CASES = 10  # hidden cases that must raise, when an exercise has them
WIDTH = 72  # the book's exercise boxes show about this many columns
LABEL_SEPARATORS = re.compile(r"[\s,;'\"\[\]()]+")
SMALL = 24  # inputs with at most this many entries are printed in full in feedback
STUB_HINT = (
    "replace `raise NotImplementedError` with your code, then run the cell again"
)
UNANSWERED_HINT = "replace the `...` with your answer, then run the cell again"


def error_text(error: BaseException) -> str:
    """``RuntimeError: first line of the message``, short and free of tracebacks."""
    lines = str(error).strip().splitlines()
    first = lines[0] if lines else ""
    if len(first) > 160:
        first = first[:157] + "..."
    return f"{type(error).__name__}: {first}" if first else type(error).__name__


def fresh(value: Any) -> Any:
    """An independent copy of an argument, so no answer can change the stored cases."""
    if framework_of(value) == "torch":
        return value.clone()
    if isinstance(value, np.ndarray):
        return value.copy()
    if framework_of(value) == "tensorflow":
        return value  # TensorFlow tensors are immutable
    return copy.deepcopy(value)


def plain(value: Any) -> Any:
    """Nested lists of plain numbers; floats rounded to 4 decimals, so 0.3 reads 0.3."""
    values = to_numpy(value)
    if values.dtype.kind == "f":
        values = values.astype(np.float64).round(4)
    return values.tolist()


def describe(args: Mapping[str, Any]) -> tuple[str, ...]:
    """One line per argument: its values when small, else its shape."""
    lines = []
    for name, value in args.items():
        if framework_of(value) is None:
            lines.append(f"{name} = {value!r}")
            continue
        values = to_numpy(value)
        if values.size <= SMALL:
            lines.append(f"{name} = {plain(values)}")
        else:
            lines.append(f"{name}: shape {shape_text(values.shape)}")
    return tuple(lines)


def _changed_argument(
    before: Mapping[str, Any], after: Mapping[str, Any]
) -> str | None:
    """``x[0, 1]``: the first argument entry an answer changed in place (or None)."""
    for name, original in before.items():
        if framework_of(original) is None:
            continue
        old, new = to_numpy(original), to_numpy(after[name])
        if old.shape != new.shape:
            return name
        wrong = np.argwhere(old != new)
        if len(wrong):
            return at(name, tuple(int(c) for c in wrong[0]))
    return None


def _which_is(call: Call | None, value: Any) -> str:
    """`` (that is x[1, 1])`` when ``value`` occurs exactly once in the call's input."""
    if call is None or framework_of(call.input) is None:
        return ""
    places = np.argwhere(to_numpy(call.input) == value)
    if len(places) != 1:
        return ""
    return f" (that is {at(call.input_name, tuple(int(c) for c in places[0]))})"


def should_read(difference: Difference, call: Call | None, name: str = "out") -> str:
    """``out[1, 0] should read x[1, 2] = 22 because index[1, 0] = 2``; or should be."""
    where = difference.where or ()
    step = step_at(call, where) if call is not None else None
    if step is not None:
        return f"{at(name, where)} should read {call.reads(step)}"
    return f"{at(name, where)} should be {value_text(difference.expected)}"


def wrong_value_message(
    difference: Difference, call: Call | None, answer_says: str
) -> str:
    """``out[1, 0] should read x[1, 2] = 22 because index[1, 0] = 2, but ... 21.``"""
    got = value_text(difference.got)
    return (
        f"{should_read(difference, call)}, but {answer_says} {got}"
        f"{_which_is(call, difference.got)}."
    )


def _capitalised(sentence: str) -> str:
    return sentence[:1].upper() + sentence[1:]


def transposed(value: Any) -> Any:
    """The value with its last two dims swapped (1-D: reversed; 0-d: plus one)."""
    values = to_numpy(value)
    if values.ndim >= 2:
        changed = np.swapaxes(values, -1, -2).copy()
    elif values.ndim == 1:
        changed = values[::-1].copy()
    else:
        changed = values + 1
    return like(value, changed) if framework_of(value) else changed.tolist()


def off_by_one(positions: Any) -> Any:
    """Every position one further along, kept inside the range the original used."""
    values = to_numpy(positions)
    if values.size == 0:
        return positions
    return like(positions, np.minimum(values + 1, values.max()).astype(values.dtype))


def _source(function: Callable) -> str:
    try:
        return textwrap.dedent(inspect.getsource(function)).strip()
    except (OSError, TypeError):
        return repr(function)


def _as_shown(value: Any) -> str:
    """A predicted value as a learner would write it: nested lists, plain numbers."""
    if framework_of(value) is not None:
        return repr(plain(value))
    return repr(value)


class ForbiddenOpError(RuntimeError):
    """Raised in place of an op an exercise asks the learner not to use."""

    def __init__(self, name: str) -> None:
        super().__init__(f"this exercise asks you not to use {name}")
        self.name = name


_ABSENT = object()  # an attribute a class inherits rather than defines


def _owner(name: str) -> tuple[Any, str]:
    """``("torch.Tensor.gather")`` -> (the ``torch.Tensor`` class, ``"gather"``)."""
    path, attribute = name.rsplit(".", 1)
    module, *rest = path.split(".")
    owner = importlib.import_module(module)
    for part in rest:
        owner = getattr(owner, part)
    if not hasattr(owner, attribute):
        raise ValueError(f"cannot forbid {name}: there is no such function")
    return owner, attribute


@contextlib.contextmanager
def forbidding(names: Iterable[str]) -> Iterator[None]:
    """Replace each named function by one raising ``ForbiddenOpError``; restore after.

    The originals come back however the block ends, so a learner's failing function
    never leaves ``torch.gather`` broken in their notebook.
    """
    saved = []
    try:
        for name in names:
            owner, attribute = _owner(name)
            saved.append((owner, attribute, vars(owner).get(attribute, _ABSENT)))

            def refuse(*args: Any, _name: str = name, **kwargs: Any) -> Any:
                raise ForbiddenOpError(_name)

            setattr(owner, attribute, refuse)
        yield
    finally:
        for owner, attribute, original in reversed(saved):
            if original is _ABSENT:
                delattr(owner, attribute)
            else:
                setattr(owner, attribute, original)


def _wrapped(line: str, indent: str = "") -> str:
    """One line folded to ``WIDTH`` columns, continuation lines starting ``indent``."""
    return textwrap.fill(
        line,
        WIDTH,
        subsequent_indent=indent,
        break_long_words=False,
        break_on_hyphens=False,
    )


def _comment(text: str) -> str:
    """A docstring as ``# `` comment lines of at most ``WIDTH`` columns."""
    return _wrapped("# " + " ".join(text.split()), "# ")


def _as_assignment(function: Callable[..., Any], name: str) -> str:
    """A function's body as notebook code: the docstring as a comment, the statements
    as they are, and the final ``return value`` as ``name = value``."""
    source = textwrap.dedent(inspect.getsource(function))
    lines = source.splitlines()
    definition = ast.parse(source).body[0]
    body = definition.body
    if not isinstance(body[-1], ast.Return) or body[-1].value is None:
        raise ValueError(f"{function.__name__} must end with `return <value>`")
    docstring = ast.get_docstring(definition)
    start = body[0].end_lineno if docstring else body[0].lineno - 1
    code = textwrap.dedent("\n".join(lines[start:])).splitlines()
    last = body[-1].lineno - 1 - start
    code[last] = f"{name} = " + code[last].removeprefix("return ")
    header = [_comment(docstring)] if docstring else []
    return "\n".join([*header, *code]).strip()


@dataclass(eq=False)
class Exercise:
    """What every kind has: a stable id ``"NN.name"``, a title, a kind, a solution."""

    id: str
    title: str
    module: str | None = field(
        default=None, init=False, repr=False
    )  # set on registering
    kind: ClassVar[str] = ""

    @property
    def chapter(self) -> int:
        """The chapter number, from the id's ``NN.`` prefix."""
        return int(self.id.split(".", 1)[0])

    @property
    def reference_answer(self) -> Any:
        """An answer that passes: what ``show_solution`` checks."""
        raise NotImplementedError

    def check(self, answer: Any) -> Result:
        """Check an answer; never raises, whatever the answer is."""
        try:
            return self._check(answer)
        except (
            Exception
        ) as error:  # the learner must always get a message, never a crash
            return failed(
                self.id, f"This answer could not be checked ({error_text(error)})."
            )

    def _check(self, answer: Any) -> Result:
        raise NotImplementedError

    def solution_source(self) -> str:
        """The reference solution as the learner should read it."""
        raise NotImplementedError

    def show_solution(self) -> SolutionView:
        """The solution's source followed by its (passing) check."""
        return SolutionView(
            self.id, self.solution_source(), self.check(self.reference_answer)
        )

    def wrong_answers(self) -> dict[str, Any]:
        """Generic wrong answers of this kind, by name; each must fail with a reason."""
        raise NotImplementedError


@dataclass(eq=False)
class Implement(Exercise):
    """Write a function; it is run on the visible example and on hidden generated cases.

    ``example`` maps argument names to values, in the order the function takes them;
    ``generate(rng)`` returns one hidden case in the same form; ``call`` is the
    gather-family call behind the expected output, used to explain a wrong coordinate.
    ``generate_invalid(rng)`` returns a case the solution must raise on (``invalid`` of
    them are checked); ``forbid`` names functions (``"torch.gather"``) that the
    learner's function may not call while it is checked.
    """

    solution: Callable[..., Any] = None
    example: Mapping[str, Any] = field(default_factory=dict)
    generate: Callable[[np.random.Generator], Mapping[str, Any]] = None
    call: Call | None = None
    hidden: int = HIDDEN_CASES
    generate_invalid: Callable[[np.random.Generator], Mapping[str, Any]] | None = None
    invalid: int = INVALID_CASES
    forbid: tuple[str, ...] = ()
    kind: ClassVar[str] = "implement"

    def __post_init__(self) -> None:
        for name in self.forbid:
            _owner(name)  # a misspelt name fails when the exercise registers
        if self.generate_invalid is None:
            self.invalid = 0

    @cached_property
    def cases(self) -> list[tuple[dict[str, Any], Any]]:
        """The visible example, then the hidden cases, each with its expected output."""
        rng = np.random.default_rng(zlib.crc32(self.id.encode()))
        inputs = [dict(self.example)] + [
            dict(self.generate(rng)) for _ in range(self.hidden)
        ]
        return [
            (args, self.solution(*(fresh(v) for v in args.values()))) for args in inputs
        ]

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
                self.solution(*(fresh(v) for v in args.values()))
            except Exception as error:
                found.append((args, error_text(error)))
            else:
                raise ValueError(f"{self.id}: an invalid case does not make it raise")
        return found

    @property
    def reference_answer(self) -> Callable[..., Any]:
        return self.solution

    def solution_source(self) -> str:
        return _source(self.solution)

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
        for name in self.forbid:
            if answer is getattr(*_owner(name)):
                return failed(
                    self.id,
                    f"Your answer is {name} itself, and this exercise asks you not to "
                    f"use {name}: write your own function.",
                )
        for number, (args, expected) in enumerate(self.cases):
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

    def _run(self, answer: Callable, given: dict[str, Any]) -> Any:
        """The learner's function on one case, with the forbidden functions refused."""
        with forbidding(self.forbid):
            return answer(*given.values())

    def _check_invalid(
        self, answer: Callable, number: int, args: dict, error: str
    ) -> Result | None:
        """None when the learner's function raises on an invalid case, as it must."""
        where = f"On invalid hidden case {number} of {self.invalid}"
        try:
            self._run(answer, {name: fresh(value) for name, value in args.items()})
        except ForbiddenOpError as refused:
            return self._refused(where, refused)
        except NotImplementedError:
            return failed(
                self.id, f"{where}, your function raised NotImplementedError."
            )
        except (Exception, SystemExit):
            return None
        return failed(
            self.id,
            f"{where}, your function returned a result, but this case is invalid and "
            f"must raise, as the reference does ({error}).",
            describe(args),
        )

    def _refused(self, where: str, refused: ForbiddenOpError) -> Result:
        return failed(
            self.id,
            f"{where}, your function called {refused.name}, and this exercise asks "
            f"you not to use {refused.name}.",
        )

    def _check_case(self, answer: Callable, number: int, args: dict, expected: Any):
        where = self._where(number)
        given = {name: fresh(value) for name, value in args.items()}
        try:
            got = self._run(answer, given)
        except ForbiddenOpError as refused:
            return self._refused(where, refused)
        except NotImplementedError:
            if number == 0:
                return not_attempted(self.id, f"Write the function: {STUB_HINT}.")
            return failed(
                self.id, f"{where}, your function raised NotImplementedError."
            )
        except (Exception, SystemExit) as error:
            return failed(
                self.id,
                f"{where}, your function raised {error_text(error)}.",
                describe(args),
            )
        changed = _changed_argument(args, given)
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
        if difference.where is None:
            return failed(self.id, f"{where}, {difference.message}.", describe(args))
        call = self.call.bind(args) if self.call is not None else None
        message = wrong_value_message(difference, call, "your function returned")
        return failed(self.id, f"{where}, {message}", describe(args))

    def _argument_position(self, name: str | None) -> int | None:
        names = list(self.example)
        return names.index(name) if name in names else None

    def _positions_argument(self) -> int | None:
        """The argument holding positions: the call's index, or else (when the index is
        computed from the arguments) the first integer tensor argument."""
        named = self._argument_position(self.call.index if self.call else None)
        if named is not None or self.call is None:
            return named
        for position, value in enumerate(self.example.values()):
            if framework_of(value) and to_numpy(value).dtype.kind in "iu":
                return position
        return None

    def _with_other_dim(self, *args: Any) -> Any:
        """The traced call along another dim than the intended one (a slip)."""
        bound = self.call.bind(dict(zip(self.example, args, strict=True)))
        rank = to_numpy(bound.input).ndim
        other = (bound.dim + 1) % rank if rank > 1 else 1
        return bound.with_part("dim", other).run()

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

        answers = {
            "hard-coded visible output": lambda *args: fresh(expected),
            "transposed result": wrapping(transposed),
            "extra dim": wrapping(lambda out: like(out, to_numpy(out)[None])),
            "raises": raising,
            "modifies its input": mutating,
            "returns a list": wrapping(lambda out: to_numpy(out).tolist()),
            "returns a NumPy array": wrapping(to_numpy),
            "returns None": lambda *args: None,
            "wrong dtype": wrapping(
                lambda out: like(out, to_numpy(out).astype(_other_dtype(out)))
            ),
            "None instead of a function": None,
            "the output instead of a function": fresh(expected),
        }
        index_at = self._positions_argument()
        if index_at is not None:
            answers["off-by-one index"] = _with_argument(solution, index_at, off_by_one)
        dim_at = self._argument_position(self.call.dim if self.call else None)
        if dim_at is not None:
            answers["wrong dim"] = _with_argument(solution, dim_at, lambda d: d + 1)
        elif self.call is not None and isinstance(self.call.dim, int):
            answers["wrong dim"] = self._with_other_dim
        if self.call is not None and f"torch.{self.call.op}" in self.forbid:
            answers["the forbidden op"] = self._with_the_call
        if self.invalid:
            answers["never raises"] = _never_raising(solution, expected)
        return answers

    def _with_the_call(self, *args: Any) -> Any:
        """The call behind the output, run as it is (the op an exercise may forbid)."""
        return self.call.bind(dict(zip(self.example, args, strict=True))).run()


def _never_raising(solution: Callable, fallback: Any) -> Callable[..., Any]:
    """The solution, but returning ``fallback`` where it should raise (a silent bug)."""

    def quiet(*args: Any) -> Any:
        try:
            return solution(*args)
        except Exception:
            return fresh(fallback)

    return quiet


def _other_dtype(value: Any) -> str:
    return "float64" if to_numpy(value).dtype != np.float64 else "float32"


def _with_argument(solution: Callable, position: int, change: Callable) -> Callable:
    """The solution, called with one argument changed (a slip, made on purpose)."""

    def variant(*args: Any) -> Any:
        args = list(args)
        args[position] = change(args[position])
        return solution(*args)

    return variant


@dataclass(eq=False)
class Predict(Exercise):
    """Write down what ``code()`` returns (a value, a shape, a gradient) before running.

    ``explain`` is the gather-family call behind the value; with ``gradient=True`` the
    value is the gradient of that call's input, for the upstream ``grad_output``.
    """

    code: Callable[[], Any] = None
    explain: Call | None = None
    gradient: bool = False
    grad_output: Any = None
    kind: ClassVar[str] = "predict"

    @cached_property
    def solution(self) -> Any:
        """The value the code returns: the answer to predict."""
        return self.code()

    @property
    def reference_answer(self) -> Any:
        return self.solution

    def solution_source(self) -> str:
        value = _wrapped(_as_shown(self.solution), " ")
        return f"{_source(self.code)}\n\n# It returns:\n{value}"

    def _shape_reason(self) -> str:
        """`` (x.grad has the shape of x, (2, 3))``: why the answer has its shape."""
        if self.explain is None:
            return ""
        if self.gradient:
            name = self.explain.input_name
            shape = shape_text(to_numpy(self.explain.input).shape)
            return f" ({name}.grad has the shape of {name}, {shape})"
        reason = self.explain.shape_reason()
        return f" ({reason})" if reason else ""

    def _check(self, answer: Any) -> Result:
        if answer is ...:
            return not_attempted(self.id, f"Predict first: {UNANSWERED_HINT}.")
        difference = differences(
            self.solution, answer, "your answer", strict=False, hints="none"
        )
        if difference is None:
            return passed(self.id, "That is exactly what the code returns.")
        if difference.where is None:
            reason = self._shape_reason() if difference.shape else ""
            return failed(self.id, f"{_capitalised(difference.message)}{reason}.")
        if self.gradient and self.explain is not None:
            return failed(self.id, self._gradient_message(difference))
        message = wrong_value_message(difference, self.explain, "you wrote")
        step = step_at(self.explain, difference.where) if self.explain else None
        details = (self.explain.trace().line(step),) if step is not None else ()
        return failed(self.id, message, details)

    def _gradient_message(self, difference: Difference) -> str:
        where, name = difference.where, f"{self.explain.input_name}.grad"
        readers = contributions(self.explain, where, self.grad_output)
        source = at(self.explain.input_name, where)
        reason = (
            f"{' and '.join(readers)} read {source}"
            if readers
            else f"no output position reads {source}"
        )
        return (
            f"{at(name, where)} should be {value_text(difference.expected)} because "
            f"{reason}, but you wrote {value_text(difference.got)}."
        )

    def wrong_answers(self) -> dict[str, Any]:
        expected = to_numpy(self.solution)
        answers = {
            "transposed": transposed(expected),
            "off by one": (expected + 1).tolist(),
            "extra dim": expected[None].tolist(),
            "flattened": expected.reshape(-1).tolist(),
            "None": None,
            "text": "no idea",
        }
        return {
            name: answer
            for name, answer in answers.items()
            if differences(self.solution, answer, strict=False) is not None
        }


@dataclass(eq=False)
class PredictRaises(Exercise):
    """Which of these calls raise? The answer: a label or a list of them ([]: none)."""

    calls: Mapping[str, Call] = field(default_factory=dict)
    kind: ClassVar[str] = "predict"

    @cached_property
    def solution(self) -> tuple[str, ...]:
        """The labels of the calls that raise, found by running each call."""
        return tuple(label for label, call in self.calls.items() if _raises(call))

    @property
    def reference_answer(self) -> list[str]:
        return list(self.solution)

    def solution_source(self) -> str:
        lines = [
            _wrapped(
                f"# {label} {'raises' if label in self.solution else 'runs'}: "
                f"{call.text()}",
                "#     ",
            )
            for label, call in self.calls.items()
        ]
        return "\n".join([*lines, repr(list(self.solution))])

    def _reason(self, label: str) -> str:
        call = self.calls[label]
        if label not in self.solution:
            shape = shape_text(tuple(call.run().shape))
            return f"{label} runs: {call.text()} returns shape {shape}"
        problems = call.problems()
        reason = problems[0].message if problems else _run_error(call)
        return f"{label} raises: {reason}"

    def _check(self, answer: Any) -> Result:
        if answer is ...:
            return not_attempted(self.id, f"Predict first: {UNANSWERED_HINT}.")
        labels = self._labels(answer)
        if labels is None:
            return failed(
                self.id,
                f"Your answer is {kind_of(answer)}: write the labels of the calls that "
                f"raise, e.g. {list(self.calls)[:2]!r}, or [] if none does.",
            )
        unknown = sorted(labels - set(self.calls))
        if unknown:
            return failed(
                self.id,
                f"There is no call {unknown[0]!r}: the calls are "
                f"{', '.join(self.calls)}.",
            )
        missed = [label for label in self.solution if label not in labels]
        extra = [
            label
            for label in self.calls
            if label in labels and label not in self.solution
        ]
        if not missed and not extra:
            reasons = tuple(map(self._reason, self.calls))
            return passed(self.id, f"Right: {_listed(self.solution)} raise.", reasons)
        return failed(self.id, self._reason((missed + extra)[0]) + ".")

    def wrong_answers(self) -> dict[str, Any]:
        answers = {
            "the other calls": [
                label for label in self.calls if label not in self.solution
            ],
            "none": [],
            "all": list(self.calls),
            "a label that does not exist": "Z",
            "None": None,
        }
        return {
            name: answer
            for name, answer in answers.items()
            if self._labels(answer) != set(self.solution)
        }

    def _labels(self, answer: Any) -> set[str] | None:
        """The labels an answer names, any case: ``["b", "d"]``, ``"BD"``, ``"b, d"``.

        None when the answer is not text; a word that is no label is kept as written, so
        the message can quote it.
        """
        if isinstance(answer, str):
            words = [answer]
        elif isinstance(answer, Iterable) and not isinstance(answer, Mapping):
            words = list(answer)
            if not all(isinstance(word, str) for word in words):
                return None
        else:
            return None
        known = {label.upper(): label for label in self.calls}
        labels = set()
        for word in words:
            for part in LABEL_SEPARATORS.split(word.strip()):
                upper = part.upper()
                if not part or upper == "NONE":
                    continue
                if upper in known:
                    labels.add(known[upper])
                elif all(letter in known for letter in upper):
                    labels.update(known[letter] for letter in upper)  # "BD"
                else:
                    labels.add(part)
        return labels


def _listed(labels: Iterable[str]) -> str:
    """``B and D``, ``A, B and C``; ``none of them`` for no labels."""
    labels = list(labels)
    if not labels:
        return "none of them"
    return " and ".join(
        [", ".join(labels[:-1]), labels[-1]] if len(labels) > 1 else labels
    )


def _raises(call: Call) -> bool:
    try:
        call.run()
    except Exception:
        return True
    return False


def _run_error(call: Call) -> str:
    try:
        call.run()
    except Exception as error:
        return error_text(error)
    return "it runs"


@dataclass(eq=False)
class Fix(Exercise):
    """A call is broken; the learner supplies the corrected ``index`` (or ``dim``).

    ``solution(input, index)`` computes the corrected part from the broken call's input
    and index. Its body is written with the names the notebook defines (its parameters
    named as the notebook names them, or module values that mirror the notebook's): the
    solution shows that body, ending with the line the learner writes,
    ``fixed_index = ...`` (``answer_name``). The check runs the learner's call and says,
    with ``gl.diagnose`` and ``gl.trace``, what is still wrong.
    """

    broken: Call = None
    solution: Callable[[Any, Any], Any] = None
    part: str = "index"
    answer_name: str = ""
    kind: ClassVar[str] = "fix"

    def __post_init__(self) -> None:
        if not self.answer_name:
            self.answer_name = f"fixed_{self.part}"

    @cached_property
    def reference_answer(self) -> Any:
        return self.solution(self.broken.input, self.broken.index)

    @cached_property
    def expected(self) -> Any:
        """The output the fixed call returns."""
        return self.broken.with_part(self.part, self.reference_answer).run()

    def solution_source(self) -> str:
        if self.solution.__name__ == "<lambda>":
            return _source(self.solution)
        return _as_assignment(self.solution, self.answer_name)

    def _misread(self, where: tuple[int, ...], right: Step, yours: Step) -> str:
        """``out[3, 0] should read s[4, 0] = 16 and reads s[1, 0] = 4: the right index
        holds 4 there, yours holds 1.``"""
        read = self.broken.source_text
        text = f"{at('out', where)} should read {read(right)} and reads {read(yours)}"
        if self.part != "index" or right.position == yours.position:
            return f"{text} with your {self.part}."
        there = "there" if right.index_at == where else f"at [{coord(right.index_at)}]"
        return (
            f"{text}: the right index holds {right.position} {there}, yours holds "
            f"{yours.position}{self._flat_hint(right, yours)}."
        )

    def _flat_hint(self, right: Step, yours: Step) -> str:
        """For take on a matrix: how a (row, column) pair becomes a flat position."""
        shape = to_numpy(self.broken.input).shape
        if self.broken.op != "take" or len(shape) != 2 or right.position < 0:
            return ""
        (rows, columns), (row, column) = shape, right.source
        sum_ = f"{row} * {columns} + {column} = {right.position}"
        if yours.position == row * rows + column and rows != columns:
            return (
                f" (take counts row by row: row {row}, column {column} is {sum_}; "
                f"multiply the row by the number of columns, {columns}, not of rows, "
                f"{rows})"
            )
        return f" (take counts row by row: row {row}, column {column} is {sum_})"

    def _check(self, answer: Any) -> Result:
        if answer is ...:
            return not_attempted(self.id, f"Fix the call: {UNANSWERED_HINT}.")
        is_int = isinstance(answer, (int, np.integer)) and not isinstance(answer, bool)
        if self.part == "dim" and not is_int:
            return failed(
                self.id, f"Your answer is {kind_of(answer)}; a dim is an int."
            )
        fixed = self.broken.with_part(self.part, answer)
        problems = fixed.problems()
        if problems:
            problem = problems[0]
            hint = f" ({problem.hint})" if problem.hint else ""
            return failed(self.id, f"Still broken: {problem.message}{hint}.")
        try:
            got = fixed.run()
        except Exception as error:
            return failed(
                self.id, f"Still broken: {fixed.text()} raised {error_text(error)}."
            )
        difference = differences(self.expected, got, "the result")
        if difference is None:
            named = (
                replace(fixed, index_name=self.answer_name)
                if self.part == "index"
                else fixed
            )
            return passed(
                self.id,
                f"Your {self.part} works: {named.text()} returns the intended result.",
            )
        if difference.where is None:
            return failed(self.id, f"The call runs now; {difference.message}.")
        intended = self.broken.with_part(self.part, self.reference_answer)
        right = step_at(intended, difference.where)
        yours = step_at(fixed, difference.where)
        if right is None or yours is None:
            message = wrong_value_message(difference, intended, "your call gives")
        else:
            message = self._misread(difference.where, right, yours)
        return failed(self.id, f"The call runs now, but {message}")

    def wrong_answers(self) -> dict[str, Any]:
        right = self.reference_answer
        answers: dict[str, Any] = {
            "the broken call unchanged": getattr(self.broken, self.part)
        }
        answers["None"] = None
        if self.part == "dim":
            rank = max(to_numpy(self.broken.input).ndim, 1)
            answers["wrong dim"] = (right + 1) % rank
            answers["a float"] = float(right)
        else:
            answers["a list"] = to_numpy(right).tolist()
            answers["transposed index"] = transposed(right)
            answers["off-by-one index"] = off_by_one(right)
            answers["extra dim"] = like(right, to_numpy(right)[None])
            answers["float index"] = like(right, to_numpy(right).astype("float32"))
        return {
            name: answer for name, answer in answers.items() if not _same(answer, right)
        }


def _same(answer: Any, right: Any) -> bool:
    try:
        return differences(right, answer, strict=True) is None
    except Exception:
        return False

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
    expand_sizes,
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
WIDTH = 68  # solution and feedback lines: the book's exercise boxes show about 72
LABEL_SEPARATORS = re.compile(r"[\s,;'\"\[\]()]+")
SMALL = 24  # inputs with at most this many entries are printed in full in feedback
STUB_HINT = (
    "replace `raise NotImplementedError` with your code, then run the cell again"
)
UNANSWERED_HINT = "replace the `...` with your answer, then run the cell again"
SAYS_IT_RAISES = re.compile(r"rais|error|exception|fail|throw|crash", re.IGNORECASE)
# Kept on one line when folding: tuples of numbers and short subscripts, (4, 1), [b, j]
UNBROKEN = re.compile(r"\((?:-?\d+, )*-?\d+,?\)|\[[^\[\]]{1,12}\]")


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
def _patched(
    names: Iterable[str], replacement: Callable[[str, Any], Callable[..., Any]]
) -> Iterator[None]:
    """Replace each named function by ``replacement(name, original)``; restore after.

    The originals come back however the block ends, so a learner's failing function
    never leaves ``torch.gather`` broken in their notebook.
    """
    saved = []
    try:
        for name in names:
            owner, attribute = _owner(name)
            original = getattr(owner, attribute)
            saved.append((owner, attribute, vars(owner).get(attribute, _ABSENT)))
            setattr(owner, attribute, replacement(name, original))
        yield
    finally:
        for owner, attribute, original in reversed(saved):
            if original is _ABSENT:
                delattr(owner, attribute)
            else:
                setattr(owner, attribute, original)


def forbidding(names: Iterable[str]) -> contextlib.AbstractContextManager[None]:
    """Replace each named function by one raising ``ForbiddenOpError``."""

    def refusing(name: str, original: Any) -> Callable[..., Any]:
        def refuse(*args: Any, **kwargs: Any) -> Any:
            raise ForbiddenOpError(name)

        return refuse

    return _patched(names, refusing)


def counting(
    names: Iterable[str], calls: list[str]
) -> contextlib.AbstractContextManager[None]:
    """Let each named function run as usual, appending its name to ``calls``."""

    def counted(name: str, original: Any) -> Callable[..., Any]:
        def count(*args: Any, **kwargs: Any) -> Any:
            calls.append(name)
            return original(*args, **kwargs)

        return count

    return _patched(names, counted)


def _wrapped(line: str, indent: str = "") -> str:
    """One line folded to ``WIDTH`` columns, continuation lines starting ``indent``.

    A tuple of numbers such as ``(4, 1)`` or a subscript ``[b, j]`` is never split.
    """
    kept = UNBROKEN.sub(lambda match: match[0].replace(" ", "\u00a0"), line)
    folded = textwrap.fill(
        kept,
        WIDTH,
        subsequent_indent=indent,
        break_long_words=False,
        break_on_hyphens=False,
    )
    return folded.replace("\u00a0", " ")


def _comment(text: str) -> str:
    """A docstring as ``# `` comment lines of at most ``WIDTH`` columns."""
    return _wrapped("# " + " ".join(text.split()), "# ")


def _body(function: Callable[..., Any]) -> tuple[list[str], list[str], int]:
    """A function as notebook lines: its docstring as comments, its statements as they
    are (dedented), and the line number of the final ``return``."""
    source = textwrap.dedent(inspect.getsource(function))
    lines = source.splitlines()
    definition = ast.parse(source).body[0]
    body = definition.body
    if not isinstance(body[-1], ast.Return) or body[-1].value is None:
        raise ValueError(f"{function.__name__} must end with `return <value>`")
    docstring = ast.get_docstring(definition)
    start = body[0].end_lineno if docstring else body[0].lineno - 1
    code = textwrap.dedent("\n".join(lines[start:])).splitlines()
    header = [_comment(docstring)] if docstring else []
    return header, code, body[-1].lineno - 1 - start


def _as_assignment(function: Callable[..., Any], name: str) -> str:
    """A function's body as notebook code, the final ``return value`` as
    ``name = value``."""
    header, code, last = _body(function)
    code[last] = f"{name} = " + code[last].removeprefix("return ")
    return "\n".join([*header, *code]).strip()


def _assigned(name: str, value: str) -> str:
    """``name = value`` within ``WIDTH`` columns: one line, else one item a line."""
    line = f"{name} = {value}"
    if len(line) <= WIDTH:
        return line
    items = ast.literal_eval(value)
    if not isinstance(items, list):
        return _wrapped(line, " " * (len(name) + 4))
    rows = [_wrapped(f"    {item!r},", "     ") for item in items]
    return "\n".join([f"{name} = [", *rows, "]"])


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
    learner's function may not call while it is checked, ``require`` functions of
    which it must call at least one. ``hint(args, outcome, expected, where)`` may add
    an exercise's own explanation to a wrong value (``outcome`` the result, ``where``
    the first wrong coordinate) or to an error (``outcome`` the error, ``where`` None).
    """

    solution: Callable[..., Any] = None
    example: Mapping[str, Any] = field(default_factory=dict)
    generate: Callable[[np.random.Generator], Mapping[str, Any]] = None
    call: Call | None = None
    hidden: int = HIDDEN_CASES
    generate_invalid: Callable[[np.random.Generator], Mapping[str, Any]] | None = None
    invalid: int = INVALID_CASES
    forbid: tuple[str, ...] = ()
    require: tuple[str, ...] = ()
    hint: Callable[..., str] | None = None
    kind: ClassVar[str] = "implement"

    def __post_init__(self) -> None:
        for name in (*self.forbid, *self.require):
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

    def _run(self, answer: Callable, given: dict[str, Any]) -> tuple[Any, bool]:
        """The learner's function on one case, with the forbidden functions refused,
        and whether it called a required function (True when none is required)."""
        calls: list[str] = []
        with forbidding(self.forbid), counting(self.require, calls):
            result = answer(*given.values())
        return result, bool(calls) or not self.require

    def _hint(self, args: dict, outcome: Any, expected: Any, where: Any) -> str:
        """The exercise's own explanation of a wrong outcome, or empty."""
        if self.hint is None:
            return ""
        try:
            return self.hint(args, outcome, expected, where) or ""
        except Exception:  # a hint that fails only costs the hint, never the check
            return ""

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
            hint = self._hint(args, error, expected, None)
            hint = f" {_capitalised(hint)}." if hint else ""
            return failed(
                self.id,
                f"{where}, your function raised {error_text(error)}.{hint}",
                describe(args),
            )
        got, used_required = got
        if not used_required:
            names = " or ".join(self.require)
            return failed(
                self.id,
                f"{where}, your function returned a result without calling {names}: "
                f"this exercise asks you to use {self.require[0].rsplit('.', 1)[-1]}.",
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
        hint = self._hint(args, got, expected, difference.where)
        if hint:
            message = f"{message.removesuffix('.')} ({hint})."
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
    ``runs_because`` says why the code does not raise, for a learner who predicts an
    error.
    """

    code: Callable[[], Any] = None
    explain: Call | None = None
    gradient: bool = False
    grad_output: Any = None
    runs_because: str = ""
    kind: ClassVar[str] = "predict"

    @cached_property
    def solution(self) -> Any:
        """The value the code returns: the answer to predict."""
        return self.code()

    @property
    def reference_answer(self) -> Any:
        return self.solution

    def solution_source(self) -> str:
        """The code as comments, ending with the line the learner writes."""
        shown = []
        if self.code.__name__ != "<lambda>":
            header, code, last = _body(self.code)
            code[last] = code[last].removeprefix("return ")
            shown = [*header, *(f"# {line}".rstrip() for line in code)]
        return "\n".join([*shown, _assigned("prediction", _as_shown(self.solution))])

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
        if isinstance(answer, str) and SAYS_IT_RAISES.search(answer):
            shape = shape_text(to_numpy(self.solution).shape)
            why = self.runs_because or f"the code returns a value of shape {shape}"
            return failed(
                self.id,
                f"It does not raise: {why}. Write the value it returns, as nested "
                "lists.",
            )
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
        details = (self.explain.trace_line(step),) if step is not None else ()
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
        return "\n".join([*lines, _assigned("raising", repr(list(self.solution)))])

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
            reasons = tuple(
                _wrapped(self._reason(label), "    ") for label in self.calls
            )
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
            message = self._expand_advice(answer, difference.message)
            return failed(self.id, f"The call runs now; {message}.")
        intended = self.broken.with_part(self.part, self.reference_answer)
        right = step_at(intended, difference.where)
        yours = step_at(fixed, difference.where)
        if right is None or yours is None:
            message = wrong_value_message(difference, intended, "your call gives")
        else:
            message = self._misread(difference.where, right, yours)
        return failed(self.id, f"The call runs now, but {message}")

    def _gives_expected(self, index: Any) -> bool:
        try:
            got = self.broken.with_part(self.part, index).run()
        except Exception:
            return False
        return differences(self.expected, got, strict=False) is None

    def _expand_advice(self, answer: Any, message: str) -> str:
        """``message``, unless it suggests an expand that would read wrong values: then
        where the index's new axis belongs (checked by running the call)."""
        if ".expand(" not in message or self.part != "index":
            return message
        target = tuple(to_numpy(self.reference_answer).shape)
        index = answer
        short = [d for d, size in enumerate(index.shape) if size == 1 != target[d]]
        if len(short) != 1 or self._gives_expected(index.expand(target)):
            return message
        d, rank = short[0], len(target)
        for new in (n for n in range(rank) if n != d):
            moved = index.squeeze(d).unsqueeze(new)
            if not self._gives_expected(moved.expand(target)):
                continue
            place = {0: "first", rank - 1: "last"}.get(new, f"at dim {new}")
            along = {0: "row", 1: "column"}.get(new, f"slice along dim {new}")
            along = along if rank == 2 else f"slice along dim {new}"
            head = message[: message.index(": expand it with")]
            return (
                f"{head}, and expanding this index would repeat each position along "
                f"dim {d}: each {along} must hold the positions "
                f"{to_numpy(index.squeeze(d)).tolist()}, so put the new axis {place} "
                f"(.unsqueeze({new})), then expand it "
                f"(.expand({expand_sizes(target, new)}))"
            )
        return message[: message.index(": expand it with")]

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

"""Implement: the learner writes a function, run on the example and hidden cases."""

from __future__ import annotations

import contextlib
import re
import zlib
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, ClassVar

import numpy as np

from gatherlab import error_rules
from gatherlab._arrays import entry, framework_of, fresh, like, to_numpy
from gatherlab.diagnose import Problem, diagnose, scatter_problems
from gatherlab.errors import package_bug, short_error
from gatherlab.exercises import strategies
from gatherlab.exercises.argreads import NOT_BROADCAST as NOT_BROADCAST_TEXT
from gatherlab.exercises.argreads import (
    Noted,
    along_broadcast,
    misread_verdict,
    noting_tf_casts,
    noting_weighted_bincount,
    trying,
)
from gatherlab.exercises.base import Exercise
from gatherlab.exercises.call import Call, step_at
from gatherlab.exercises.compare import differences, kind_of, shape_text
from gatherlab.exercises.feedback import changed_argument, describe
from gatherlab.exercises.misconceptions import (
    SIZES_DO_NOT_BROADCAST,
    Case,
    Outcome,
    Raised,
    Search,
    Voice,
    equal,
    explain,
    reproduces,
    verdict_of,
)
from gatherlab.exercises.oprules import names_no_op, shape_rule, value_rule
from gatherlab.exercises.patching import (
    PYTHON_NUMBER_DEFAULTS,
    TORCH_DEFAULT_DTYPE_OPS,
    ForbiddenOpError,
    Inferred,
    Loss,
    Sized,
    SpiedCall,
    TfRead,
    TfWrite,
    counting,
    counting_slots,
    dividing_truly,
    filling_empty,
    forbidding,
    function,
    meshgrids_as_ij,
    noting_called,
    noting_casts,
    noting_default_dtypes,
    noting_divisions,
    noting_given_dtypes,
    noting_index_grids,
    noting_losses,
    noting_out_of_place,
    noting_python_numbers,
    noting_sizing_ops,
    noting_tf_gathers,
    noting_tf_reads,
    noting_tf_subscripts,
    noting_tf_writes,
    owner,
    repairing,
    separating_in_place,
    spying,
    used,
)
from gatherlab.exercises.rendering import source
from gatherlab.exercises.result import (
    FAILED,
    Result,
    failed,
    judged,
    not_attempted,
    skipped,
)
from gatherlab.exercises.sizing import missing_size, sized_by_op
from gatherlab.exercises.tfreads import first_axis_read
from gatherlab.exercises.tfwrites import (
    first_axis_write,
    kept_by_op,
    one_hot_axis,
    scatter_nd_shape,
)
from gatherlab.exercises.verdict import (
    Field,
    Hinted,
    Phrase,
    Verdict,
    completed,
    phrase,
    verdict,
)
from gatherlab.exercises.writes import ids_of, sized_from_ids
from gatherlab.exercises.wrong import (
    never_raising,
    off_by_one,
    other_dtype,
    transposed,
    with_argument,
)
from gatherlab.tf import how_to_add, tensorflow_imported
from gatherlab.trace import format_value

HIDDEN_CASES = 50
# The conversion to each dtype a result may be due in (implement._cast's fix)
CAST_OF = {
    "int64": ".long()",
    "int32": ".int()",
    "float32": ".float()",
    "float64": ".double()",
    "bool": ".bool()",
}
INVALID_CASES = 10  # hidden cases that must raise, when an exercise has them
Arguments = Mapping[str, Any]
Generator = Callable[[np.random.Generator], Arguments]
# hint(args, outcome, expected, where): the exercise's own words for a wrong outcome,
# a hint.* template and its fields (or None).
Hint = Callable[[dict[str, Any], Any, Any, "tuple[int, ...] | None"], Hinted | None]


@dataclass(frozen=True)
class ErrorHint:
    """A hint for an error whose message ``contains`` a phrase: ``template`` filled
    with ``fields(args)`` (and the case and error). Declared as data, so the page
    (page.py ships it with each case's fields) words the same hint."""

    contains: str
    template: str
    fields: Callable[[dict[str, Any]], dict[str, str]]

    def __call__(
        self, args: dict[str, Any], outcome: Any, expected: Any, where: Any
    ) -> Hinted | None:
        if where is not None or self.contains not in str(outcome):
            return None
        return self.template, self.fields(args)


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
    ``finish`` turns ``call``'s output into the expected value (``squeeze(1)``);
    ``gradient`` names the input whose gradient must flow through the result.
    ``write`` (a ``writes.Write``) is the write behind the expected output, for the
    writing-op misconceptions, as ``call`` is the read behind it.

    A failing answer is run on every case; the misconception model
    (``misconceptions.py``) names the mistake that reproduces all its outcomes, or
    else the message says what is known: the rule its failing call broke, or the
    first wrong coordinate and what it should read.
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
    finish: Callable[[Any], Any] | None = None
    gradient: str = ""
    write: Any = None  # the intended write (``writes.Write``), read by its family
    # why the result's dtype is the one due, after "not int64" in a dtype verdict
    # that names a buffer or a default (", F.one_hot's dtype for integer labels"),
    # "" for none
    dtype_due: str = ""
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

    def _where(self, number: int, args: Mapping[str, Any]) -> Phrase:
        """The case's name; a hidden case's with its inputs (small ones in full, a
        larger one by its shape), which the learner cannot see otherwise."""
        if number == 0:
            return phrase("case.visible")
        return phrase(
            "case.hidden",
            number=str(number),
            count=str(self.hidden),
            inputs="; ".join(describe(args)),
        )

    @cached_property
    def all_cases(self) -> list[Case]:
        """Every case as the misconceptions read it: the visible example, the hidden
        cases, then the invalid ones (whose expected outcome is an error)."""
        visible_args, visible_expected = self.cases[0]
        shapes = {
            name: tuple(value.shape)
            for name, value in visible_args.items()
            if framework_of(value) == "torch"
        }
        # the int arguments that are sizes (a class count), not the call's dim (a dim
        # written as a number is dim-ignored's)
        dim_name = self.call.dim if self.call is not None else None
        numbers = {
            name: value
            for name, value in visible_args.items()
            if isinstance(value, int)
            and not isinstance(value, bool)
            and name != dim_name
        }
        expected_at_0 = to_numpy(visible_expected)
        found = []
        listed: list[tuple[Phrase, dict[str, Any], Any]] = [
            (self._where(number, args), args, to_numpy(expected))
            for number, (args, expected) in enumerate(self.cases)
        ]
        listed += [
            (
                phrase(
                    "case.invalid",
                    number=str(number),
                    count=str(self.invalid),
                    inputs="; ".join(describe(args)),
                ),
                args,
                Raised("Error"),
            )
            for number, (args, _) in enumerate(self.invalid_cases, 1)
        ]
        for number, (name, args, expected) in enumerate(listed):
            found.append(
                Case(
                    name,
                    number == 0,
                    args,
                    expected,
                    self._bound(args),
                    self.finish,
                    self.positions_name,
                    visible_expected=expected_at_0,
                    visible_shapes=shapes,
                    visible_numbers=numbers,
                    write=self.write.bind(args) if self.write is not None else None,
                    framework=self.framework,
                    tf_op=self.tf_op,
                    reads_with=self.reads_with,
                )
            )
        return found

    @property
    def framework(self) -> str:
        """The framework the learner's function receives: "tensorflow" where
        ``convert`` makes TensorFlow tensors (``cases.tensorflow``), else "torch"."""
        convert = self.convert
        tf = getattr(convert, "__name__", "") == "tensorflow"
        return "tensorflow" if tf else "torch"

    @property
    def dtype_template(self) -> str:
        """The words for a result of the wrong dtype: a write's keeps its buffer's
        dtype (``differ.dtype_write``), a selection its input's (``differ.dtype``)."""
        return "differ.dtype_write" if self.write is not None else "differ.dtype"

    @property
    def tf_op(self) -> str:
        """The TensorFlow op a TensorFlow exercise asks for: "gather_nd" where it
        requires tf.gather_nd, else "" (tf.gather)."""
        return "gather_nd" if any("gather_nd" in r for r in self.require) else ""

    @property
    def reads_with(self) -> str:
        """The torch op the learner's function must call, where ``require`` names
        one op only (torch.gather and Tensor.gather: "gather"), else ""."""
        ops = {name.rsplit(".", 1)[-1] for name in self.require}
        torch_only = all(name.startswith("torch.") for name in self.require)
        return ops.pop() if len(ops) == 1 and torch_only else ""

    @cached_property
    def search(self) -> Search:
        """The misconception search over every case (its outcomes are memoised)."""
        return Search(self.all_cases)

    @property
    def positions_name(self) -> str:
        """The name of the argument that holds positions, as the learner sees it."""
        at = self._positions_argument()
        return list(self.example)[at] if at is not None else "the positions"

    def _check(self, answer: Any) -> Result:
        if answer is ...:
            return not_attempted(self.id, "implement")
        if not callable(answer):
            return failed(self.id, "implement.not_callable", kind=kind_of(answer))
        try:
            cases = self.all_cases
        except ImportError as missing:
            return skipped(
                self.id,
                "implement.needs_module",
                name=str(missing.name),
                how=how_to_add(str(missing.name)),
            )
        for name in self.forbid:
            if answer is function(name):
                return failed(self.id, "implement.is_forbidden", name=name)
        runs = []
        for number, case in enumerate(cases):
            try:
                runs.append(self._run(answer, case.args))
            except ForbiddenOpError as refused:
                return self._refused(case.name, refused, answer)
            except NotImplementedError:
                if number == 0:
                    return not_attempted(self.id, "implement")
                return failed(self.id, "implement.not_implemented", case=case.name)
        for number, (case, run) in enumerate(zip(cases, runs, strict=True)):
            if not self._passes(number, case, run):
                return self._explain(answer, number, runs)
        # right only because torch.empty's memory held zeros: run again on other fill
        unwritten = self._unwritten(answer, cases[0], runs[0])
        if unwritten is not None:
            return judged(self.id, unwritten, describe(cases[0].args))
        if self.gradient:
            cut = self._gradient_cut(answer)
            if cut is not None:
                return cut
        # the count goes under the message: the page, which runs fewer cases, words
        # the same pass (page_words.test.mjs)
        ran = (
            f"Run on the visible example, {self.hidden} hidden cases and "
            f"{self.invalid} invalid ones."
            if self.invalid
            else f"Run on the visible example and {self.hidden} hidden cases."
        )
        template = "passed.implement_invalid" if self.invalid else "passed.implement"
        return judged(self.id, verdict(True, template), (ran,))

    def _run(
        self, answer: Callable[..., Any], args: Mapping[str, Any], repair: bool = False
    ) -> Run:
        """The learner's function on one case: its value or error, the gather-family
        calls it made, its arguments afterwards and whether it used a required
        function's result. ``torch.empty`` fills with ``fill`` meanwhile; with
        ``repair``, a float index and a value of another dtype are repaired."""
        given = self._given(args)
        calls: list[SpiedCall] = []
        results: list[Any] = []
        divisions: list[str] = []
        out_of_place: set[str] = set()
        with (
            filling_empty(0),
            noting_divisions(divisions),
            noting_out_of_place(out_of_place),
            spying(calls),
            # inside spying, so a call is recorded (and its error's rule found) with
            # the arguments it ran with, repaired
            repairing() if repair else contextlib.nullcontext(),
            forbidding(self.forbid),
            counting(self.require, results),
        ):
            try:
                value = answer(*given.values())
            except ForbiddenOpError:
                raise
            except (Exception, SystemExit) as error:
                if _the_stub(error):
                    raise
                return Run(
                    None,
                    error,
                    calls,
                    given,
                    True,
                    Raised(type(error).__name__, _rule(calls) or _indexing_rule(error)),
                    divisions,
                    out_of_place,
                )
        uses = not self.require or used(results, value)
        return Run(
            value, None, calls, given, uses, _outcome(value), divisions, out_of_place
        )

    def _passes(self, number: int, case: Case, run: Run) -> bool:
        if isinstance(case.expected, Raised):
            return run.error is not None
        if run.error is not None or not run.used_required:
            return False
        if changed_argument(case.args, run.given):
            return False
        expected = self.cases[number][1]
        return differences(expected, run.value, "your result") is None

    def _explain(self, answer: Any, number: int, runs: list[Run]) -> Result:
        """Why the learner's function fails case ``number`` (the first it fails)."""
        case, run = self.all_cases[number], runs[number]
        # a hidden case names its inputs in the message itself (its lead)
        details = describe(case.args) if number == 0 else ()
        if isinstance(case.expected, Raised):
            found = self._named(runs)
            if found is not None:
                return judged(self.id, found, details)
            error = self.invalid_cases[number - len(self.cases)][1]
            return judged(self.id, must_raise(case, error), details)
        expected = self.cases[number][1]
        loss = self._loss_rule(answer, case, run)
        if loss is not None:
            return judged(self.id, loss, details)
        if run.error is None:
            early = self._python_only(case, run, expected)
            if early is not None:
                early = (
                    self._gather_not_nd(answer, case, run, early)
                    or self._truncated(early, runs)
                    or self._python_numbers(answer, case, early)
                    or self._cast(answer, case, early)
                    or _bool_result(early)
                    or self._default_dtype(answer, case, early)
                    or self._given_dtype(answer, case, early)
                    or self._weighted_bincount(answer, case, early)
                    or self._updates_dtype(answer, case, early)
                    # after the defaults: a buffer's dtype decides a write's
                    or self._tf_cast(answer, case, early)
                    or early
                )
                return judged(self.id, early, details)
        found = (
            self._meshgrid_xy(answer, case)
            or self._misread_argument(answer, case)
            or self._along_broadcast(answer, case, run)
            or self._counted_slots(answer, case, run)
            or self._shared_in_place(answer, case)
            or self._floor_divided(answer, case)
            or self._named(runs)
            or (self._unwritten(answer, case, run) if run.error is None else None)
        )
        if run.error is not None:
            found = found or self._tf_subscript(answer, case)
        found = found or self._repaired(answer, runs)
        found = self._read_in_tensorflow(found, answer, case, runs)
        found = (
            _lost_where(found, run)
            if found
            else self._fallback(case, run, expected, runs)
        )
        found = self._include_self_first(found, answer, case)
        found = self._kept_by_own_op(found, answer, case)
        found = self._index_grid(found, answer, case)
        found = self._short_by_own_call(found, answer, case)
        found = self._sized_by_op(found, answer, case, run)
        found = self._missing_size(found, answer, case, run)
        found = self._tf_first_axis(found, answer, case, run)
        found = self._tf_writes(found, answer, case, run)
        found = self._keras_sorted(found, answer, case, run)
        if run.error is not None and found.template != "implement.raised":
            # the library's own words, quoted under the words that explain them
            details = (*details, f"The library said: {short_error(run.error)}")
        return judged(self.id, found, details)

    def _loss_rule(
        self, answer: Callable[..., Any], case: Case, run: Run
    ) -> Verdict | None:
        """A wrong result read with F.nll_loss or F.cross_entropy: that op's rule
        first (nll_loss takes no log, cross_entropy takes log_softmax itself), with
        what it did here (one number where reduction is not 'none', probabilities
        read from probabilities, the minus sign kept), found by running the function
        again with ``noting_losses``; None where no loss op made the result or its
        values are right (a shape alone is wrong)."""
        if run.error is not None or self.framework != "torch" or case.call is None:
            return None
        got, want = run.outcome, case.expected
        if not isinstance(got, np.ndarray) or not isinstance(want, np.ndarray):
            return None
        if got.size == want.size and got.dtype.kind in "biuf":
            if np.allclose(got.reshape(-1), want.reshape(-1), rtol=1e-5, atol=1e-6):
                return None
        losses: list[Loss] = []
        if self._again(answer, case, noting_losses(losses))[1] is not None:
            return None
        if not losses:
            return None
        loss = losses[-1]
        flat_got, flat_want = got.reshape(-1), want.reshape(-1)
        # the result must be the loss's own output (its sign or shape aside): a loss
        # whose values went on into a write or a sum is no read of the scores
        made = to_numpy(loss.output).reshape(-1)
        if made.shape != flat_got.shape or got.dtype.kind != "f":
            return None
        if not np.allclose(np.abs(made), np.abs(flat_got), rtol=1e-5, atol=1e-6):
            return None
        same_size = got.size == want.size and got.dtype.kind == "f"
        rule = phrase(f"loss.{loss.op}")
        effect: Field = ""
        if loss.reduction != "none":
            shape = shape_text(got.shape)
            rule = phrase("loss.reduced", op=f"F.{loss.op}", shape=shape)
        elif loss.op == "cross_entropy":
            effect = phrase("loss.normalised")
        elif same_size and np.allclose(np.abs(flat_got), np.exp(flat_want)):
            effect = phrase("loss.probabilities")
        elif same_size and np.allclose(flat_got, -flat_want):
            effect = phrase("loss.sign")
        return Verdict(
            False,
            "implement.loss_rule",
            {
                "case": case.name,
                "rule": rule,
                "effect": effect,
                "call": case.call.text(),
            },
        )

    def _truncated(self, early: Verdict, runs: list[Run]) -> Verdict | None:
        """A result of an integer dtype whose values are the values truncated
        (``values.long()`` before the op): the truncation, which explains the dtype
        too, before the dtype (exercises.mjs's judge alike)."""
        if early.template not in ("differ.dtype", self.dtype_template):
            return None
        found = self._named(runs)
        if found is None or found.misconception != "values-truncated":
            return None
        return found

    def _again(
        self,
        answer: Callable[..., Any],
        case: Case,
        *noting: contextlib.AbstractContextManager[Any],
    ) -> tuple[Any, BaseException | None]:
        """Run the learner's function once more on ``case``, as the checked run does
        (empty memory filled with 0s, the forbidden ops refused), under the
        ``noting`` contexts, which record what its calls made: its value, or the
        error it raised."""
        try:
            with contextlib.ExitStack() as stack:
                stack.enter_context(filling_empty(0))
                for context in noting:
                    stack.enter_context(context)
                stack.enter_context(forbidding(self.forbid))
                return answer(*self._given(case.args).values()), None
        except (Exception, SystemExit) as error:
            return None, error

    def _maker_of(
        self,
        answer: Callable[..., Any],
        case: Case,
        noting: Callable[[list[tuple[str, str]]], Any],
        got: str,
    ) -> str | None:
        """The call that made a result of dtype ``got``, found by running the
        function again under ``noting`` (which lists each call and the dtype it
        made); None where the run raised (the verdict stays the dtype's) or no
        call made one."""
        found: list[tuple[str, str]] = []
        if self._again(answer, case, noting(found))[1] is not None:
            return None
        return next((call for call, made in found if made == got), None)

    def _python_numbers(
        self, answer: Callable[..., Any], case: Case, early: Verdict
    ) -> Verdict | None:
        """A float32 (int32) result where NumPy's float64 (int64) is due, made by
        converting Python numbers without a dtype (``tf.constant(values.tolist())``,
        ``torch.tensor`` of a list of floats): that conversion's default, not a
        write's buffer or the selection, is named (found by running the function
        again: ``noting_python_numbers``; exercises.mjs's typeDifference alike)."""
        if early.template not in ("differ.dtype", self.dtype_template):
            return None
        got, expected = early.fields.get("got"), early.fields.get("expected")
        if NUMPY_DTYPES.get(str(got)) != expected:
            return None
        call = self._maker_of(answer, case, noting_python_numbers, str(got))
        if call is None:
            return None
        fields = {
            **early.fields,
            "call": call,
            "numbers": PYTHON_NUMBER_DEFAULTS[str(got)],
            "dtype": f"{call.split('.')[0]}.{expected}",
        }
        return Verdict(False, "differ.dtype_python_numbers", fields)

    def _cast(
        self, answer: Callable[..., Any], case: Case, early: Verdict
    ) -> Verdict | None:
        """A result of the wrong dtype returned by a dtype conversion of the learner's
        (``(...).float()`` where int64 is due): that conversion is named, found by
        running the function again (``noting_casts``; exercises.mjs alike)."""
        if early.template not in ("differ.dtype", self.dtype_template):
            return None
        found: list[tuple[str, Any]] = []
        value, error = self._again(answer, case, noting_casts(found))
        if error is not None:
            return None
        call = next((call for call, out in found if out is value), None)
        expected = str(early.fields.get("expected"))
        if call is None or expected not in CAST_OF:
            return None
        fields = {**early.fields, "call": call, "fix": CAST_OF[expected]}
        return Verdict(False, "differ.dtype_cast", fields)

    def _tf_cast(
        self, answer: Callable[..., Any], case: Case, early: Verdict
    ) -> Verdict | None:
        """A result of the wrong dtype where the learner's last tf.cast made that
        dtype, no op's default having made it: that cast is named
        (``noting_tf_casts``)."""
        made: list[str] = []
        if self._again(answer, case, noting_tf_casts(made))[1] is not None:
            return None
        if not made or made[-1] != str(early.fields.get("got")):
            return None
        return Verdict(False, "differ.dtype_tf_cast", dict(early.fields))

    def _default_dtype(
        self, answer: Callable[..., Any], case: Case, early: Verdict
    ) -> Verdict | None:
        """A result of the dtype an op makes unless given one (tf.zeros, tf.one_hot,
        keras.ops.one_hot: float32), called without a dtype: that op is named; a
        write's buffer made by torch.zeros without one is told torch.zeros' default
        (``differ.dtype_write_zeros``), which no other answer hears (found by running
        the function again: ``noting_default_dtypes``; exercises.mjs alike for
        torch.zeros)."""
        if early.template not in ("differ.dtype", self.dtype_template):
            return None
        call = self._maker_of(
            answer, case, noting_default_dtypes, str(early.fields.get("got"))
        )
        if call == "torch.zeros":  # the buffer a write kept the dtype of, if one did
            if early.template == "differ.dtype_write":
                fields = {**early.fields, "due": self.dtype_due}
                return Verdict(False, "differ.dtype_write_zeros", fields)
            # a read (a loop's output buffer): torch.zeros' float32, not the input's
            got = early.fields.get("got")
            if early.template == "differ.dtype" and got == "float32":
                return Verdict(False, "differ.dtype_read_zeros", early.fields)
            return None
        if call is None:
            return None
        expected = early.fields["expected"]
        if call in TORCH_DEFAULT_DTYPE_OPS:  # torch.eye(classes)[labels]: float32
            fields = {**early.fields, "call": call, "due": self.dtype_due}
            return Verdict(False, "differ.dtype_default_torch", fields)
        if call.startswith("np."):
            fields = {**early.fields, "call": call}
            return Verdict(False, "differ.dtype_default_numpy", fields)
        dtype = f'"{expected}"' if call.startswith("keras.") else f"tf.{expected}"
        fields = {**early.fields, "call": call, "dtype": dtype}
        return Verdict(False, "differ.dtype_default_op", fields)

    def _gather_not_nd(
        self, answer: Callable[..., Any], case: Case, run: Run, early: Verdict
    ) -> Verdict | None:
        """tf.gather called where tf.gather_nd is required, its result of another
        shape: tf.gather reads each index entry as one position (a slice), no
        coordinates (found by running the function again with ``noting_tf_reads``;
        exercises.mjs alike, from the calls the page saw)."""
        if early.template != "implement.not_required":
            return None
        if "tensorflow.gather_nd" not in self.require or not tensorflow_imported():
            return None
        made, due = np.shape(_outcome(run.value)), np.shape(case.expected)
        if made == due:
            return None
        noted: list[TfRead] = []
        self._again(answer, case, noting_tf_reads(noted))
        if not any(read.op == "tf.gather" and not read.raised for read in noted):
            return None
        return verdict(
            False,
            "implement.gather_not_nd",
            case=case.name,
            made=shape_text(made),
            expected=shape_text(due),
        )

    def _weighted_bincount(
        self, answer: Callable[..., Any], case: Case, early: Verdict
    ) -> Verdict | None:
        """A float64 result where np.bincount was given weights: it returns float64
        whatever their dtype, and takes no dtype (found by running the function
        again with ``noting_weighted_bincount``)."""
        if early.template not in ("differ.dtype", "differ.dtype_write"):
            return None
        if str(early.fields.get("got")) != "float64":
            return None
        made: list[str] = []
        if self._again(answer, case, noting_weighted_bincount(made))[1] is not None:
            return None
        if "float64" not in made:
            return None
        return Verdict(False, "differ.dtype_np_bincount", dict(early.fields))

    def _given_dtype(
        self, answer: Callable[..., Any], case: Case, early: Verdict
    ) -> Verdict | None:
        """A write's result of the wrong dtype that is the buffer the learner made
        with that dtype given (``torch.zeros(..., dtype=torch.float64)``, written into
        in place): that call is named (found by running the function again:
        ``noting_given_dtypes``; exercises.mjs's typeDifference alike)."""
        if early.template != "differ.dtype_write":
            return None
        found: list[tuple[str, Any]] = []
        value, error = self._again(answer, case, noting_given_dtypes(found))
        call = next((name for name, out in found if out is value), None)
        if error is not None or call is None:
            return None
        fields = {**early.fields, "call": call, "due": self.dtype_due}
        return completed("differ.dtype_write_given", fields)

    def _updates_dtype(
        self, answer: Callable[..., Any], case: Case, early: Verdict
    ) -> Verdict | None:
        """A write's result of the wrong dtype made by tf.scatter_nd or
        keras.ops.scatter, which return their updates' dtype (no buffer to keep):
        that rule, and where the updates were Python numbers, their conversion
        (found by running the function again with ``noting_tf_writes``)."""
        if early.template != "differ.dtype_write" or self.framework != "torch":
            return None
        if not tensorflow_imported():
            return None
        writes: list[TfWrite] = []
        sized: list[Sized] = []
        noting = (noting_tf_writes(writes), noting_sizing_ops(sized))
        if self._again(answer, case, *noting)[1] is not None:
            return None
        got = str(early.fields.get("got"))
        made = [
            (w.op, "updates", w.numbers)
            for w in writes
            if w.op in UPDATES_DTYPE and w.dtype == got
        ]
        made += [
            (n.op, n.source, n.numbers) for n in sized if n.source and n.dtype == got
        ]
        if any(n.op == "keras.utils.to_categorical" and n.dtype == got for n in sized):
            # it takes no dtype: NumPy's float64 for an array, float32 for a tensor
            return Verdict(False, "differ.dtype_to_categorical", dict(early.fields))
        if not made:
            return None
        op, source, numbers = made[-1]
        python: Field = ""
        if numbers is not None:
            python = phrase("updates.python", numbers=numbers, got=got)
        fields = {**early.fields, "op": op, "source": source, "python": python}
        return Verdict(False, "differ.dtype_updates", fields)

    def _misread_argument(
        self, answer: Callable[..., Any], case: Case
    ) -> Verdict | None:
        """An op's argument misread (``argreads.MISREADS``: tf.one_hot's axis,
        CategoryEncoding's output_mode, a read's axis, ...): where the answer
        passes every case (its values right, whatever their dtype) once that
        argument alone is changed, that op's rule is its mistake."""
        noted: list[Noted] = []
        try:
            with trying(noted, None):  # first the case alone: is there one?
                self._run(answer, case.args)
        except (ForbiddenOpError, NotImplementedError):
            return None
        if not noted:
            return None
        firsts = {id(n.misread): n for n in reversed(noted)}  # each one's first call
        for first in sorted(firsts.values(), key=noted.index):
            for k in range(first.tries):
                changed: list[Noted] = []
                try:
                    with trying(changed, (first.misread, k, first.value)):
                        runs = [self._run(answer, c.args) for c in self.all_cases]
                except (ForbiddenOpError, NotImplementedError):
                    return None
                if self._right_but_dtype(runs):
                    tried = [n.right for n in changed if n.misread is first.misread]
                    right = next((r for r in tried if r is not None), None)
                    return misread_verdict(case.name, first, right)
        return None

    def _along_broadcast(
        self, answer: Callable[..., Any], case: Case, run: Run
    ) -> Verdict | None:
        """An error of a take_along_axis whose index does not broadcast against its
        input on the other axes (``argreads.along_broadcast``), not a subscript's."""
        if run.error is None or not NOT_BROADCAST_TEXT.search(str(run.error)):
            return None
        noted: list[Noted] = []
        try:
            with trying(noted, None):
                self._run(answer, case.args)
        except (ForbiddenOpError, NotImplementedError):
            return None
        return along_broadcast(case.name, run.error, noted)

    def _right_but_dtype(self, runs: list[Run]) -> bool:
        """Whether every run passes its case, or gives its values in another dtype."""
        for k, (other, run) in enumerate(zip(self.all_cases, runs, strict=True)):
            if self._passes(k, other, run):
                continue
            if isinstance(other.expected, Raised) or run.error is not None:
                return False
            got, due = _outcome(run.value), np.asarray(other.expected)
            if got.shape != due.shape or not np.array_equal(got, due):
                return False  # right but for its dtype counts: a second mistake
        return True

    def _meshgrid_xy(self, answer: Callable[..., Any], case: Case) -> Verdict | None:
        """A grid built by a meshgrid in "xy" mode (tf.meshgrid's and np.meshgrid's
        default), whose first output runs along the columns: where the answer passes
        every case with each such meshgrid in "ij" mode, that mode is its one
        mistake (``meshgrids_as_ij``; exercises.mjs's meshgridXY alike)."""
        found: list[tuple[str, str]] = []
        try:
            with meshgrids_as_ij(found):  # first the case alone: is there one?
                self._run(answer, case.args)
                if not found:
                    return None
                runs = [self._run(answer, other.args) for other in self.all_cases]
        except (ForbiddenOpError, NotImplementedError):
            return None
        if not all(
            self._passes(k, other, run)
            for k, (other, run) in enumerate(zip(self.all_cases, runs, strict=True))
        ):
            return None
        call, how = found[0]
        return verdict(
            False, "implement.meshgrid_xy", case=case.name, call=call, how=how
        )

    def _counted_slots(
        self, answer: Callable[..., Any], case: Case, mine: Run
    ) -> Verdict | None:
        """Ids counted by an op that takes its slots from the data: torch.histc or
        np.histogram without a range spreads its bins over the ids' own min..max,
        torch.unique's counts are the present ids' only. Where the answer passes
        every case with each such op given one slot per id (``counting_slots``),
        that is its one mistake. The page runs none of these ops (it says so)."""
        ids = ids_of(case)
        found: list[Inferred] = []

        def run(other: Case) -> Run:  # each case with its own count of slots
            sized = ids_of(other)
            size = int(sized["full"]) if sized is not None else None
            with counting_slots(found, size):
                return self._run(answer, other.args)

        try:
            run(case)  # first the case alone: is there one?
            if not found:
                return None
            noted = found[0]
            if noted.what == "plain" and mine.error is not None:
                return None  # a size from len(ids.unique()): raised_sized names it
            runs = [run(other) for other in self.all_cases]
        except (ForbiddenOpError, NotImplementedError):
            return None
        if not all(
            self._passes(k, other, run)
            for k, (other, run) in enumerate(zip(self.all_cases, runs, strict=True))
        ):
            return None
        fields = _slot_fields(noted, case, ids)
        return Verdict(False, f"implement.slots_{noted.kind}", fields)

    def _shared_in_place(
        self, answer: Callable[..., Any], case: Case
    ) -> Verdict | None:
        """Two in-place writes into one buffer (``base.index_add_`` for the sums and
        again for the sizes): an in-place op returns the tensor it wrote into, so
        both results are that one tensor. Each later write given a copy of the
        buffer as it was (``separating_in_place``); exercises.mjs's sharedInPlace
        alike."""
        return self._passes_changed(
            answer, case, separating_in_place, "implement.in_place_shared"
        )

    def _floor_divided(self, answer: Callable[..., Any], case: Case) -> Verdict | None:
        """A floor division (``//``) where a true one is due: torch's floor
        divisions run as true divisions (``dividing_truly``); exercises.mjs's
        floorDivided alike."""
        return self._passes_changed(
            answer, case, dividing_truly, "implement.floor_divided"
        )

    def _passes_changed(
        self,
        answer: Callable[..., Any],
        case: Case,
        changing: Callable[[list[str]], AbstractContextManager[Any]],
        template: str,
    ) -> Verdict | None:
        """Where the answer passes every case with the ops ``changing`` notes run
        changed, the first op it noted is the answer's one mistake (``template``)."""
        found: list[str] = []
        try:
            with changing(found):  # first the case alone: is there one?
                self._run(answer, case.args)
            if not found:
                return None
            runs = []
            for other in self.all_cases:
                with changing([]):
                    runs.append(self._run(answer, other.args))
        except (ForbiddenOpError, NotImplementedError):
            return None
        if not all(
            self._passes(k, other, run)
            for k, (other, run) in enumerate(zip(self.all_cases, runs, strict=True))
        ):
            return None
        return verdict(False, template, case=case.name, op=found[0])

    def _read_in_tensorflow(
        self,
        found: Verdict | None,
        answer: Callable[..., Any],
        case: Case,
        runs: list[Run],
    ) -> Verdict | None:
        """A torch exercise's every-row-reads-every-position made with tf.gather (run
        again with ``noting_tf_gathers``) is worded as tf.gather reads: a whole slice
        per index entry, paired by batch_dims=1, not torch.gather's one element."""
        if (
            found is None
            or found.misconception != "every-row-reads-every-position"
            or self.framework == "tensorflow"
        ):
            return found
        noted: list[str] = []
        self._again(answer, case, noting_tf_gathers(noted))
        candidate = self.search.matching([r.outcome for r in runs])
        if not noted or candidate is None:
            return found
        if verdict_of(candidate, self.search, IMPLEMENT_VOICE) != found:
            return found  # named otherwise (after a repaired slip)
        cases = [replace(c, read_in="tensorflow") for c in self.all_cases]
        return verdict_of(candidate, Search(cases), IMPLEMENT_VOICE)

    def _sized_by_op(
        self, found: Verdict, answer: Callable[..., Any], case: Case, run: Run
    ) -> Verdict:
        """A result of the wrong size along the ids' axis (or an id outside it) that
        a TensorFlow or Keras op's size rule explains (num_segments, depth,
        minlength, shape, a count inferred from the ids): that rule, with the size
        the learner's call gave (``sizing.sized_by_op``, found by running the
        function again with ``noting_sizing_ops``), in place of a verdict that
        names no other mistake."""
        if found.misconception not in SIZE_BELIEFS or found.template == "repaired":
            return found
        if case.write is None:
            return found
        noted = self._sizing_notes(answer, case)
        if not noted:
            return found

        def others() -> Iterator[tuple[Case, Sized | None]]:
            for other in self.all_cases[: len(self.cases)]:
                if other is not case:
                    notes = self._sizing_notes(answer, other)
                    ops = [n for n in notes if n.op == noted[-1].op]
                    yield other, (ops[-1] if ops else None)

        value = run.outcome if run.error is None else None
        sized = sized_by_op(case, value, run.error, noted, others)
        if sized is None:
            return found
        # a count cut at the largest id is that misconception still, said as the
        # op's rule; an output sized otherwise (a write into the values) is not
        keep = found.misconception in ("short-count", "short-count-raises")
        rule = sized.fields["rule"]
        if keep and noted[-1].op in NAMED_BY_SHORT_COUNT:
            if isinstance(rule, Phrase) and rule.template.startswith("size_rule.infer"):
                return found  # short-count's words name bincount without minlength
        return replace(sized, misconception=found.misconception if keep else None)

    def _missing_size(
        self, found: Verdict, answer: Callable[..., Any], case: Case, run: Run
    ) -> Verdict:
        """A TypeError of a TensorFlow or Keras op called without its required size
        argument (``sizing.missing_size``), in place of the error's bare words."""
        if found.misconception is not None or found.template == "repaired":
            return found
        if run.error is None or case.write is None or not tensorflow_imported():
            return found
        named = missing_size(case, run.error, self._sizing_notes(answer, case))
        return named or found

    def _include_self_first(
        self, found: Verdict, answer: Callable[..., Any], case: Case
    ) -> Verdict:
        """A mean over zeros that counted each position's old 0 (include-self-mixed,
        whose value cannot tell include_self=True from counts started at 1) made by
        an answer that called scatter_reduce or index_reduce: their default
        include_self=True is named first (found by running the function again:
        ``noting_called``; exercises.mjs's includeSelfFirst alike)."""
        mixes = found.fields.get("mixes")
        if found.misconception != "include-self-mixed" or not isinstance(mixes, Phrase):
            return found
        cause = found.fields.get("cause")
        if mixes.template != "self_mixed.count" or not isinstance(cause, Phrase):
            return found
        called: set[str] = set()
        self._again(answer, case, noting_called(INCLUDE_SELF_OPS, called))
        ops = sorted({name.rstrip("_") for name in called})
        if not ops:
            return found
        fields = {
            **found.fields,
            "mixes": phrase("self_mixed.count_include", op=ops[0]),
            "cause": phrase("self_mixed.pass_false", parts=cause.fields["parts"]),
        }
        return replace(found, fields=fields)

    def _kept_by_own_op(
        self, found: Verdict, answer: Callable[..., Any], case: Case
    ) -> Verdict:
        """A repeated position kept as one write (kept-one-write) is told the one
        overwriting op the answer called (found by running the function again:
        ``noting_called``), not every such op; where it called several, or none
        that torch notes, the words stay general (exercises.mjs's keptByOwnOp)."""
        rule = found.fields.get("rule")
        if found.template != "mc.kept-one-write" or not isinstance(rule, Phrase):
            return found
        if rule.template != "kept.rule":
            return found
        called: set[str] = set()
        self._again(answer, case, noting_called(OVERWRITES, called))
        ops = {
            OVERWRITE_WORDS[name if name.startswith("__") else name.removesuffix("_")]
            for name in called
        }
        if len(ops) != 1:
            return found
        fields = {**found.fields, "rule": phrase("kept.rule_op", op=ops.pop())}
        return replace(found, fields=fields)

    def _short_by_own_call(
        self, found: Verdict, answer: Callable[..., Any], case: Case
    ) -> Verdict:
        """A count cut at the largest id (short-count) is told the way the answer
        took it, where it called one of them: bincount without minlength or the ids'
        max (found by running the function again: ``noting_called``); an answer
        that called both, or neither, hears both (exercises.mjs's shortByOwnCall)."""
        how = found.fields.get("how")
        if found.template != "mc.short-count" or not isinstance(how, Phrase):
            return found
        if how.template != "short.how_either":
            return found
        called: set[str] = set()
        self._again(answer, case, noting_called(SHORT_COUNT_CALLS, called))
        counted = bool(called & {"bincount"})
        maxed = bool(called & {"max", "amax"})
        if counted == maxed:
            return found
        mine = (
            phrase("short.how_bincount")
            if counted
            else phrase("short.how_max", **how.fields)
        )
        return replace(found, fields={**found.fields, "how": mine})

    def _index_grid(
        self, found: Verdict, answer: Callable[..., Any], case: Case
    ) -> Verdict:
        """Every row written at every position (write-every-row) by an indexed
        assignment whose index tensors broadcast to a grid (``arange(n)`` with an
        (n, 1) column): that broadcasting is named (found by running the function
        again: ``noting_index_grids``; exercises.mjs's indexGrid alike)."""
        what = found.fields.get("what")
        if found.misconception != "write-every-row" or not isinstance(what, Phrase):
            return found
        if what.template != "every_row.all":
            return found
        grids: list[tuple[list[tuple[int, ...]], tuple[int, ...]]] = []
        self._again(answer, case, noting_index_grids(grids))
        if not grids:
            return found
        shapes, grid = grids[-1]
        words = {
            "shapes": " and ".join(shape_text(shape) for shape in shapes),
            "grid": shape_text(grid),
        }
        fields = {
            **found.fields,
            "what": phrase("every_row.grid", **words),
            "why": phrase("every_row.grid_why"),
        }
        return replace(found, fields=fields)

    def _tf_first_axis(
        self, found: Verdict, answer: Callable[..., Any], case: Case, run: Run
    ) -> Verdict:
        """A torch exercise's read within rows made with tf.gather (axis 0 by
        default) or tf.gather_nd without batch_dims, which read params' first
        axis: that rule (``tfreads.first_axis_read``, the calls found by running
        the function again with ``noting_tf_reads``), in place of a verdict that
        names no mistake."""
        if found.misconception is not None or found.template == "repaired":
            return found
        if self.framework != "torch" or not tensorflow_imported():
            return found
        noted: list[TfRead] = []
        self._again(answer, case, noting_tf_reads(noted))
        value = run.outcome if run.error is None else None
        return first_axis_read(case, value, run.error, noted) or found

    def _tf_writes(
        self, found: Verdict, answer: Callable[..., Any], case: Case, run: Run
    ) -> Verdict:
        """A torch exercise's write made with TensorFlow or Keras, named by that
        op's rule (``tfwrites``): coordinates from the first axis on, a one-hot's
        class axis after the labels' shape, an overwriting op where repeats add
        (the calls found by running the function again)."""
        if found.template == "repaired" or case.write is None:
            return found
        if self.framework != "torch" or not tensorflow_imported():
            return found
        writes: list[TfWrite] = []
        sized: list[Sized] = []
        self._again(answer, case, noting_tf_writes(writes), noting_sizing_ops(sized))
        if found.misconception is None:
            named = first_axis_write(case, run.error, writes)
            if named is not None:
                return named
        if found.misconception in (None, "extra-axis") and run.error is None:
            named = one_hot_axis(case, run.outcome, sized, found.misconception)
            if named is not None:
                return named
        if found.misconception is None and run.error is None:
            named = scatter_nd_shape(case, run.outcome, sized)
            if named is not None:
                return named
        return kept_by_op(found, writes)

    def _keras_sorted(
        self, found: Verdict, answer: Callable[..., Any], case: Case, run: Run
    ) -> Verdict:
        """An error of TensorFlow's sorted segment op that Keras's segment_sum or
        segment_max called for sorted=True: the learner's call is named as the one
        that chose it (the rule is the sorted op's, which the learner never wrote)."""
        if found.template != "implement.raised_explained" or run.error is None:
            return found
        if not TF_SORTED_SEGMENT.search(str(run.error)) or not tensorflow_imported():
            return found
        noted = [n for n in self._sizing_notes(answer, case) if n.raised and n.sorted]
        if not noted:
            return found
        fields = {**found.fields, "via": noted[-1].op}
        return Verdict(False, "implement.raised_keras_sorted", fields)

    def _sizing_notes(self, answer: Callable[..., Any], case: Case) -> list[Sized]:
        """The sizing ops' calls of the learner's function on ``case``."""
        found: list[Sized] = []
        self._again(answer, case, noting_sizing_ops(found))
        return found

    def _tf_subscript(self, answer: Callable[..., Any], case: Case) -> Verdict | None:
        """An error a TensorFlow tensor's ``[]`` raised for a tensor of positions in
        the subscript (``x[rows, positions]``): TensorFlow does no NumPy-style
        advanced indexing (found by running the function again with
        ``noting_tf_subscripts``; the page's evaluator flags the same subscript)."""
        found: list[BaseException] = []
        error = self._again(answer, case, noting_tf_subscripts(found))[1]
        if error is not None and found and found[-1] is error:
            return verdict(False, "implement.tf_subscript", case=case.name)
        return None

    def _repaired(self, answer: Callable[..., Any], runs: list[Run]) -> Verdict | None:
        """An answer built in several steps, stopped by an error (a float index, a
        value of another dtype): run again with that slip repaired
        (``patching.repairing``), its later steps are judged too, and a mistake
        they make is named after the error (``repaired``)."""
        raised = [k for k in range(len(self.cases)) if runs[k].error is not None]
        if not raised:
            return None
        try:
            again = [
                self._run(answer, other.args, repair=True).outcome
                for other in self.all_cases
            ]
        except (ForbiddenOpError, NotImplementedError):
            return None
        if all(
            reproduces(case.expected, outcome, case.expected)
            for case, outcome in zip(self.all_cases, again, strict=True)
        ):
            return None  # the error was its one mistake
        # a repair that changes nothing leaves the outcomes no misconception matched
        second = explain(self.search, again, IMPLEMENT_VOICE)
        if second is None:
            return None
        k = raised[0]
        first = self._fallback(self.all_cases[k], runs[k], self.cases[k][1], runs)
        return Verdict(
            False,
            "repaired",
            {
                "first": Phrase(first.template, first.fields),
                "second": Phrase(second.template, revoiced(second.fields)),
            },
            second.misconception,
        )

    def _named(self, runs: list[Run]) -> Verdict | None:
        """The misconception that reproduces the learner's outcome on every case."""
        return explain(self.search, [r.outcome for r in runs], IMPLEMENT_VOICE)

    def _python_only(self, case: Case, run: Run, expected: Any) -> Verdict | None:
        """What only a run in Python sees: a required function unused, an input
        changed in place, the wrong framework, dtype or device."""
        if not run.used_required and framework_of(run.value) is not None:
            return verdict(
                False,
                "implement.not_required",
                case=case.name,
                names=" or ".join(self.require),
                short=self.require[0].rsplit(".", 1)[-1],
            )
        changed = changed_argument(case.args, run.given)
        if changed:
            return verdict(
                False, "implement.changed_input", case=case.name, name=changed
            )
        difference = differences(expected, run.value, "your result")
        if difference is not None and difference.where is None and not difference.shape:
            if difference.template == "differ.dtype" and self.write is not None:
                # a write's result has its buffer's dtype, not a selected input's
                difference = replace(difference, template=self.dtype_template)
            return difference.verdict(phrase("lead.case", case=case.name))
        return None

    def _unwritten(self, answer: Any, case: Case, run: Run) -> Verdict | None:
        """A position the function never wrote (torch.empty's memory): found by
        running it again with another fill, never quoted."""
        given = self._given(case.args)
        try:
            with filling_empty(1), forbidding(self.forbid):
                again = _outcome(answer(*given.values()))
        except Exception:
            return None
        first = run.outcome
        if not isinstance(first, np.ndarray) or not isinstance(again, np.ndarray):
            return None
        if first.shape != again.shape or first.dtype.kind not in "biuf":
            return None
        # NaN is no unwritten position: 0 / 0 computes it on either fill
        differ = np.argwhere((first != again) & ~(np.isnan(first) & np.isnan(again)))
        if not len(differ):
            return None
        where = tuple(int(c) for c in differ[0])
        return verdict(
            False, "implement.unwritten", case=case.name, where=entry("out", where)
        )

    @staticmethod
    def _names_no_op(case: Case, run: Run) -> bool:
        """Whether the rules must name no op: the answer never called the op of the
        case's read (it indexed, looped or used TensorFlow)."""
        return names_no_op(case, {call.op.rstrip("_") for call in run.calls})

    def _sized_on_every_case(self, runs: list[Run]) -> bool:
        """Whether every valid case the function raised on raised at a tensor sized
        from that case's ids: a size that follows the ids, not one that meets them
        on one case by chance (a constant size, another mistake)."""
        return all(
            sized_from_ids(ids_of(case), str(run.error), _written_size(run), least=0)
            is not None
            for case, run in zip(self.all_cases, runs, strict=True)
            if run.error is not None and not isinstance(case.expected, Raised)
        )

    def _fallback(
        self, case: Case, run: Run, expected: Any, runs: list[Run] | None = None
    ) -> Verdict:
        """What is known without a misconception: the error and the rule its call
        broke, or the first wrong coordinate and what it should read."""
        if run.error is not None:
            hint = self._hint(dict(case.args), run.error, expected, None)
            error = short_error(run.error)
            if hint is not None:
                return completed(hint[0], {"case": case.name, "error": error}, hint[1])
            divided = _divided_index(run)
            if divided is not None:
                return verdict(
                    False,
                    "implement.raised_float_division",
                    case=case.name,
                    error=type(run.error).__name__,
                    **divided,
                )
            # a tensor sized from the ids (labels.max(), the distinct ids) where
            # the count was due: a position off its end
            sized = sized_from_ids(ids_of(case), str(run.error), _written_size(run))
            if sized is not None and (runs is None or self._sized_on_every_case(runs)):
                known = {"case": case.name, "error": type(run.error).__name__}
                # TensorFlow's unsorted segment ops: num_segments is the output's size
                segments = SEGMENT_OUT_OF_RANGE.search(str(run.error))
                template = "raised_segments" if segments else "raised_sized"
                return Verdict(False, f"implement.{template}", {**known, **sized})
            problem = _problem(run.calls)
            if problem is None:
                explained = explained_error(
                    run.error,
                    self.id.split(".")[-1],
                    run.failed_call,
                    self.params_shape(case.args),
                )
                if explained is not None:
                    return verdict(
                        False, "implement.raised_explained", case=case.name, **explained
                    )
                return verdict(False, "implement.raised", case=case.name, error=error)
            # the rule, not torch's own words, as the page says it
            known = {
                "case": case.name,
                "error": type(run.error).__name__,
                "call": _call_name(run.calls[-1]),
                "problem": problem.message,
                "hint": problem.hint or "",
            }
            rule = (
                "implement.raised_rule_hint"
                if problem.hint
                else "implement.raised_rule"
            )
            return completed(rule, known)
        got, want = run.outcome, to_numpy(expected)
        if not isinstance(got, np.ndarray) or got.shape != want.shape:
            shapes = {
                "case": case.name,
                "got_shape": shape_text(np.shape(got)),
                "expected_shape": shape_text(want.shape),
            }
            # the rule of the op the exercise is about, where one gives the shape
            op_rule = shape_rule(case, self.tf_op, self._names_no_op(case, run))
            if op_rule is not None:
                return Verdict(
                    False, "implement.wrong_shape_rule", {**shapes, "rule": op_rule}
                )
            return Verdict(False, "implement.wrong_shape", shapes)
        where = first_wrong(got, want)
        fields: dict[str, Field] = {
            "case": case.name,
            "where": entry("out", where),
            "got": format_value(got[where]),
        }
        if any("log" in name for name in case.args) and _exponentiated(got, want):
            expected_there = format_value(want[where])
            return Verdict(
                False, "implement.exp_values", {**fields, "expected": expected_there}
            )
        hint = self._hint(dict(case.args), run.value, expected, where)
        if hint is not None:
            known = {**fields, "expected": format_value(want[where])}
            return completed(hint[0], known, hint[1])
        reads = (
            expected_reads(case.call, want.shape, where)
            if self.finish is None
            else None
        )
        # the rule every value follows, before the entry that breaks it
        op_rule = value_rule(case, self._names_no_op(case, run))
        ruled = "_rule" if op_rule is not None else ""
        if op_rule is not None:
            fields.update(rule=op_rule, expected=format_value(want[where]))
        if reads is None:
            return Verdict(
                False,
                f"implement.wrong_value{ruled}",
                {**fields, "expected": format_value(want[where])},
            )
        yours = learner_read(run.calls, got, where)
        if yours is not None:
            op, read = yours
            return Verdict(
                False,
                f"implement.wrong_value_yours_read{ruled}",
                {**fields, "reads": reads, "op": op, "your_read": read},
            )
        return Verdict(
            False, f"implement.wrong_value_reads{ruled}", {**fields, "reads": reads}
        )

    def _gradient_cut(self, answer: Callable[..., Any]) -> Result | None:
        """None when gradients flow from the learner's result back to the input
        ``gradient`` names as they flow through the solution's."""
        import torch

        args = self.cases[0][0]
        grads = []
        for candidate in (self.solution, answer):
            given = {name: fresh(value) for name, value in args.items()}
            leaf = given[self.gradient].double().requires_grad_(True)
            given[self.gradient] = leaf
            try:
                out = candidate(*given.values())
            except Exception as error:  # the learner's code, on an input needing grad
                if candidate is self.solution:
                    raise
                # .numpy() refuses a tensor that requires grad: the values it gave
                # without one never carry a gradient
                said = short_error(error).rstrip(".")
                why = f"with {self.gradient} requiring grad, it raised {said}"
                return judged(
                    self.id,
                    verdict(False, "implement.detached", input=self.gradient, why=why),
                )
            if framework_of(out) != "torch" or not out.requires_grad:
                why = "your result has requires_grad=False"
                return judged(
                    self.id,
                    verdict(False, "implement.detached", input=self.gradient, why=why),
                )
            weights = torch.arange(1, out.numel() + 1, dtype=out.dtype).reshape(
                out.shape
            )
            (grad,) = torch.autograd.grad(
                (out * weights).sum(), leaf, allow_unused=True
            )
            grads.append(None if grad is None else to_numpy(grad))
        right, yours = grads
        if yours is None or right is None or not np.allclose(right, yours):
            why = "the gradient that reaches it is not the selected entries' gradient"
            return judged(
                self.id,
                verdict(False, "implement.detached", input=self.gradient, why=why),
            )
        return None

    def _refused(
        self, where: Field, refused: ForbiddenOpError, answer: Callable[..., Any]
    ) -> Result:
        """A call of a forbidden op: the answer is checked once more with the ban
        lifted, and where its value is wrong even so, that mistake is named first
        (F.one_hot's width inferred from the labels), the ban after it
        (exercises.mjs's judged alike)."""
        banned = failed(self.id, "implement.forbidden", case=where, name=refused.name)
        forbid, self.forbid = self.forbid, ()
        try:
            lifted = self._check(answer)
        finally:
            self.forbid = forbid
        found = lifted.verdict
        if lifted.status != FAILED or found is None or found.template in NO_MISTAKE:
            return banned
        also: dict[str, Field] = {
            "mistake": Phrase(found.template, found.fields),
            "name": refused.name,
        }
        return judged(
            self.id,
            Verdict(False, "implement.forbidden_also", also, found.misconception),
            lifted.details,
        )

    def _hint(
        self, args: dict[str, Any], outcome: Any, expected: Any, where: Any
    ) -> Hinted | None:
        """The exercise's own explanation of a wrong outcome, or None."""
        if self.hint is None:
            return None
        try:
            return self.hint(args, outcome, expected, where)
        except (
            Exception
        ) as error:  # a failing hint costs the hint (loud when debugging)
            package_bug(error)
            return None

    def params_shape(self, args: Mapping[str, Any]) -> list[int] | None:
        """The shape of the argument the exercise's call reads from (its params),
        which the error table reads for an error no spied call gives shapes to (a
        TensorFlow op's); page.py ships it with each case."""
        if self.call is None or not isinstance(self.call.input, str):
            return None
        value = args.get(self.call.input)
        shape = getattr(value, "shape", None)
        return None if shape is None else [int(n) for n in shape]

    def _bound(self, args: Mapping[str, Any]) -> Call | None:
        return self.call.bind(args) if self.call is not None else None

    def _argument_position(self, name: Any) -> int | None:
        names = list(self.example)
        return names.index(name) if name in names else None

    def _positions_argument(self) -> int | None:
        """The argument holding positions: the call's index, or else (when the index is
        computed from the arguments, or no call is named) the first integer tensor
        argument that is not the call's input."""
        named = self._argument_position(self.call.index if self.call else None)
        if named is not None:
            return named
        for position, (name, value) in enumerate(self.example.items()):
            if self.call is not None and name == self.call.input:
                continue  # the values read, not the positions
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


# TensorFlow's sorted segment ops, as their errors name them
TF_SORTED_SEGMENT = re.compile(r"\[Op:Segment(?:Sum|Max|Min|Mean|Prod)(?:V2)?\]")

# the ops whose include_self defaults to True (implement._include_self_first)
INCLUDE_SELF_OPS = (
    "torch.scatter_reduce",
    "torch.Tensor.scatter_reduce",
    "torch.Tensor.scatter_reduce_",
    "torch.Tensor.index_reduce",
    "torch.Tensor.index_reduce_",
)

# torch's writes that keep one of a repeated position's values, and their words
# (implement._kept_by_own_op; exercises.mjs's OVERWRITE_WORDS)
OVERWRITE_WORDS = {
    "__setitem__": "indexed assignment",
    "scatter": "scatter_",
    "index_put": "index_put_ without accumulate=True",
    "index_copy": "index_copy_",
    "put": "put_ without accumulate=True",
}
OVERWRITES = (
    "torch.Tensor.__setitem__",
    *(
        f"{holder}.{op}{tail}"
        for op in OVERWRITE_WORDS
        if op != "__setitem__"
        for holder, tail in (("torch", ""), ("torch.Tensor", ""), ("torch.Tensor", "_"))
    ),
)

# the calls a count cut at the largest id is taken with (implement._short_by_own_call)
SHORT_COUNT_CALLS = (
    "torch.bincount",
    "torch.Tensor.bincount",
    "torch.max",
    "torch.Tensor.max",
    "torch.amax",
    "torch.Tensor.amax",
)

# the sizing ops that short-count's own words name where they infer the count
NAMED_BY_SHORT_COUNT = ("torch.bincount",)

# the verdicts of a check that name no mistake of the answer's: with a forbidden op's
# ban lifted, such a verdict leaves the ban alone the answer's verdict
NO_MISTAKE = (
    "implement.not_implemented",
    "implement.raised",
    "implement.not_required",  # the ban's own point: the op the exercise asks for
    "exercise.checker_failed",
)

# the writes whose result has their updates' dtype (no tensor written into)
UPDATES_DTYPE = ("tf.scatter_nd", "keras.ops.scatter")

# the misconceptions a sizing op's rule says better where its call sized the result
# (None: no misconception, a verdict of the error or the shape)
SIZE_BELIEFS = (None, "short-count", "short-count-raises", "write-into-source")

# TensorFlow's unsorted segment ops' words for an id not below num_segments
# (exercises.mjs's SEGMENT_OUT_OF_RANGE)
SEGMENT_OUT_OF_RANGE = re.compile(
    r"segment_ids\[[\d,]+\] = -?\d+ is out of range \[0, \d+\)"
)


# what NumPy makes of the Python numbers a conversion without a dtype made these of
NUMPY_DTYPES = {"float32": "float64", "int32": "int64"}


# What a repaired run returned, which the learner's function never did (it raised):
# the words of a mistake named after the repair (exercises.mjs's REPAIRED_YOURS)
REPAIRED_YOURS = "the repaired result"


def revoiced(fields: Mapping[str, Field]) -> dict[str, Field]:
    """A verdict's fields with every ``yours`` (its phrases' too) naming the repaired
    run's result, not one the learner's function returned."""
    found: dict[str, Field] = {}
    for name, value in fields.items():
        if name == "yours":
            found[name] = REPAIRED_YOURS
        elif isinstance(value, Phrase):
            found[name] = Phrase(value.template, revoiced(value.fields))
        else:
            found[name] = value
    return found


IMPLEMENT_VOICE = Voice(
    lambda case: phrase("lead.case", case=case.name),
    "your result",
    lambda raised, case: phrase("lead.raised_then", raised=raised.name, case=case.name),
)


@dataclass
class Run:
    """The learner's function on one case, converted once: ``outcome``."""

    value: Any
    error: BaseException | None
    calls: list[SpiedCall]
    given: dict[str, Any]
    used_required: bool
    outcome: Outcome
    # the divisions of integers into floats the function made, if any
    divisions: list[str] = field(default_factory=list)
    # the writing ops' out-of-place forms it called (index_add, scatter, ...)
    out_of_place: set[str] = field(default_factory=set)

    @property
    def failed_call(self) -> SpiedCall | None:
        """The call of a writing op or subscript that raised the function's error."""
        if self.error is None or not self.calls:
            return None
        last = self.calls[-1]
        return last if last.error is self.error else None


def _bool_result(early: Verdict) -> Verdict | None:
    """A bool result where numbers are due: True / False, as a comparison gives them,
    are not the numbers 1 / 0 (exercises.mjs's typeDifference alike)."""
    expected = str(early.fields.get("expected"))
    if early.fields.get("got") != "bool" or expected not in CAST_OF:
        return None
    if not early.template.startswith("differ.dtype"):
        return None
    fields = {**early.fields, "fix": CAST_OF[expected]}
    return Verdict(False, "differ.dtype_bool", fields)


def _slot_fields(
    noted: Inferred, case: Case, ids: Mapping[str, Any] | None
) -> dict[str, Field]:
    """The words of ``implement.slots_range`` and ``implement.slots_present``."""
    index = str(ids["index"]) if ids is not None else "ids"
    count = str(ids["count"]) if ids is not None else "the count"
    fields: dict[str, Field] = {
        "case": case.name,
        "call": noted.call,
        "index": index,
        "count": count,
    }
    if noted.kind == "range":
        low, high = (format_value(np.float64(v)) for v in (noted.low, noted.high))
        given = "range=(0, {b})" if noted.call.startswith("np.") else "min=0, max={b}"
        return {
            **fields,
            "low": low,
            "high": high,
            "ids": f"0..{noted.bins - 1}",
            "given": given.format(b=noted.bins),
        }
    present = ", ".join(str(i) for i in noted.low) or "none"
    return {
        **fields,
        "present": present,
        "last": str(noted.bins - 1),
        "what": phrase(f"slots.{noted.what}"),
        "order": phrase("slots.sorted") if noted.order else "",
    }


def _the_stub(error: BaseException) -> bool:
    """Whether ``error`` is the unanswered stub's ``raise NotImplementedError`` (no
    words), not a library's NotImplementedError for a dtype its kernel lacks
    (``torch.histc`` of int64 ids, ``torch.bincount`` of floats), which is an error of
    the answer, explained as such."""
    return isinstance(error, NotImplementedError) and not error.args


def _lost_where(found: Verdict, run: Run) -> Verdict:
    """A write lost (``write-lost``) is told where it went: an out-of-place op's
    dropped result only where the function called one (that op named), else a copy
    (``x[idx]`` with a tensor index, ``x[a][b]``, a clone) that its in-place op or
    assignment changed (exercises.mjs's lostWhere alike)."""
    how = found.fields.get("how") if found.misconception == "write-lost" else None
    if not isinstance(how, Phrase) or how.template not in (
        "lost.out_of_place",
        "lost.copy",
    ):
        return found
    if how.fields.get("out") in run.out_of_place:
        return found
    # another writing op's out-of-place form, or none: a write into a copy
    out = min(run.out_of_place, default="")
    how = phrase("lost.out_of_place", out=out) if out else phrase("lost.copy")
    return replace(found, fields={**found.fields, "how": how})


def _outcome(value: Any) -> Outcome:
    """A returned value as an outcome: a NumPy array (object-typed if not numbers)."""
    try:
        return to_numpy(value)
    except Exception:  # a ragged list, an odd object: an outcome no value equals
        return np.asarray(None)


def explained_error(
    error: BaseException,
    called: str,
    call: SpiedCall | None = None,
    params: list[int] | None = None,
) -> dict[str, str] | None:
    """The rule an error of the learner's code breaks, from the one table of error
    rules (``gatherlab.error_rules``): its meaning and fix for this error (the
    library's own words are a detail line under the message: ``quoted_error``);
    None where no rule recognises it, or where the error is about calling
    ``called``, the exercise's function, itself. The page explains its evaluator's
    error with the same table (exercises.mjs). ``call``, the writing op or subscript
    that raised it, gives the table its op, dim and shapes, which name the argument
    that broke the rule; ``params``, the shape of the exercise's params, where no
    call gives shapes (a flat position past the end of params never reshaped)."""
    words = short_error(error)
    detail = words.split(": ", 1)[1] if ": " in words else ""
    if detail.startswith(f"{called}()"):
        return None  # the learner's function called with other arguments: no op's rule
    known: dict[str, Any] = {}
    if call is not None:
        dim = call.dim if isinstance(call.dim, int) else None
        op = None if call.op.startswith("__") else call.op
        known = {"shapes": call.shapes(), "dim": dim, "op": op}
    else:  # a TensorFlow op names itself in the whole text ([Op:SegmentMean])
        named = error_rules.TF_OP.search(str(error))
        if named and named[1] in error_rules.table()["tf_ops"]:
            known = {"op": error_rules.table()["tf_ops"][named[1]]}
        known["shapes"] = {
            **_tf_indices(error),
            **({"params": params} if params is not None else {}),
        }
    found = error_rules.explain(detail, **known) if detail else None
    if found is None or not found.recognised or not found.meaning:
        return None
    return {"error": type(error).__name__, "meaning": found.meaning, "fix": found.fix}


def _tf_indices(error: BaseException) -> dict[str, list[int]]:
    """The shape of the indices a TensorFlow tensor_scatter_nd op that raised ``error``
    was given (the frame that executed the op holds its inputs: tensor, indices,
    updates; TensorFlow's traceback filtering keeps it), as the error table's "index"
    shape; {} where no such frame is found."""
    frame_at = error.__traceback__
    shape: dict[str, list[int]] = {}
    while frame_at is not None:
        here = frame_at.tb_frame.f_locals
        name, inputs = here.get("op_name"), here.get("inputs")
        if isinstance(name, bytes) and name.startswith(b"TensorScatter") and inputs:
            with contextlib.suppress(Exception):
                shape = {"index": [int(size) for size in inputs[1].shape]}
        frame_at = frame_at.tb_next
    return shape


def _written_size(run: Run) -> int | None:
    """The size of the tensor the failing write wrote into, along its dim (where
    the error's words give none: index_add_'s), or None."""
    call = run.failed_call
    if call is None or not isinstance(call.dim, int):
        return None
    shape = getattr(call.input, "shape", None)
    if shape is None or not -len(shape) <= call.dim < len(shape):
        return None
    return int(shape[call.dim])


def _problem(calls: list[SpiedCall]) -> Problem | None:
    """The first rule the failing gather-family call or writing op broke (the last
    call made)."""
    if not calls or calls[-1].output is not None or calls[-1].error is not None:
        return None
    call = calls[-1]
    if call.writes:
        try:
            found = scatter_problems(call.input, call.dim, call.index, call.src)
        except Exception:  # arguments scatter_problems cannot read: torch's words
            return None
        return found[0] if found else None
    problems = diagnose(call.input, call.dim, call.index, call.op)
    if not problems or problems[0].rule == "unexpected":
        return None
    return problems[0]


def _divided_index(run: Run) -> dict[str, str] | None:
    """The call that got a float index from a division, where the
    function divided integers into floats (``noting_divisions``) and then raised
    because a call's index was a float tensor."""
    import torch

    if not run.divisions or not run.calls:
        return None
    call = run.calls[-1]
    if call.output is not None or (
        call.error is not None and call.error is not run.error
    ):
        return None
    index = call.index
    if isinstance(index, tuple):
        index = next((i for i in index if isinstance(i, torch.Tensor)), None)
    if not isinstance(index, torch.Tensor) or not index.is_floating_point():
        return None
    name = "x[index]" if call.op.startswith("__") else _call_name(call)
    return {"call": name}


def _call_name(call: SpiedCall) -> str:
    """``torch.gather``; an in-place writing op as the method it is,
    ``torch.Tensor.scatter_``."""
    return f"torch.Tensor.{call.op}" if call.op.endswith("_") else f"torch.{call.op}"


def _rule(calls: list[SpiedCall]) -> str | None:
    """The rule a failing gather-family call broke, which misconceptions' errors are
    matched by (writing ops' errors carry none: see writes.UNMATCHED_ERROR)."""
    if calls and calls[-1].writes:
        return None
    problem = _problem(calls)
    return problem.rule if problem else None


def must_raise(case: Case, error: str) -> Verdict:
    """The verdict on a function that returns a value where an invalid case must raise
    (``error``, the reference's), and why wrapping an out-of-range position hides it
    where one is; the page carries it per invalid case (``page.must_raise``)."""
    why = strategies.wraps_instead_of_raising(case.call)
    fields = {"case": case.name, "error": error, **(why or {})}
    template = "implement.must_raise_wraps" if why else "implement.must_raise"
    return Verdict(False, template, fields)


# torch's own words for a position off the end in indexing (x[rows, positions], x[i]),
# which no gather-family call records: the rule it broke is still known
OFF_THE_END = re.compile(
    r"^index -?\d+ is out of bounds for dimension \d+ with size \d+$"
)


# torch's and TensorFlow's words for an elementwise op (sums / sizes, a + b) between
# tensors whose sizes do not broadcast
NOT_BROADCAST = re.compile(
    r"The size of tensor a \(\d+\) must match the size of tensor b \(\d+\) at "
    r"non-singleton dimension \d+|Incompatible shapes: \[[\d,]*\] vs\. \[[\d,]*\]"
)


def _indexing_rule(error: BaseException) -> str | None:
    """The rule of an error no gather-family call's rule explains: an IndexError of
    torch's indexing (a position out of range), or sizes that do not broadcast (an
    elementwise op's error, torch's or TensorFlow's)."""
    if isinstance(error, IndexError) and OFF_THE_END.match(str(error)):
        return "index-out-of-range"
    if NOT_BROADCAST.search(str(error)):
        return SIZES_DO_NOT_BROADCAST
    return None


def _exponentiated(got: np.ndarray, want: np.ndarray) -> bool:
    """Whether a result is e to the power of every expected value, where those are
    log-probabilities (floats, none above 0; read from an argument named as logs):
    probabilities read where the task reads their logs. The page runs no exp (nor
    nll_loss): it says it cannot run such an answer."""
    if got.dtype.kind != "f" or want.dtype.kind != "f" or not want.size:
        return False
    if (want > 0).any() or np.isnan(want).any():
        return False
    return bool(np.allclose(got, np.exp(want), rtol=1e-5, atol=1e-6))


def first_wrong(got: np.ndarray, want: np.ndarray) -> tuple[int, ...]:
    """The first coordinate (row-major) where two arrays of one shape differ."""
    if want.dtype.kind == "f" or got.dtype.kind == "f":
        wrong = ~np.isclose(got, want, rtol=1e-5, atol=1e-6, equal_nan=True)
    else:
        wrong = got != want
    return tuple(int(c) for c in np.argwhere(np.asarray(wrong))[0])


def expected_reads(
    call: Call | None, shape: tuple[int, ...], where: tuple[int, ...]
) -> str | None:
    """``x[1, 2] = 22 because columns[1, 0] = 2``: what the intended call reads at
    ``where``; None where its output is not the expected value's shape."""
    if call is None:
        return None
    step = step_at(call, where)
    if step is None or len(step.out) != len(shape):
        return None
    return call.reads(step)


def learner_read(
    calls: list[SpiedCall], got: np.ndarray, where: tuple[int, ...]
) -> tuple[str, str] | None:
    """(op, ``x[1, 0] = 4``): what the learner's own gather-family call read at
    ``where``, when its output is the learner's result; None otherwise (a value the
    learner computed some other way is never attributed to an entry)."""
    for spied in reversed(calls):
        output = spied.returned
        if spied.writes or output is None or not equal(to_numpy(output), got):
            continue
        dim = None if spied.op == "take" else spied.dim
        call = Call(spied.op, spied.input, dim, spied.index)  # type: ignore[arg-type]
        step = step_at(call, where)
        if step is None:
            return None
        return f"torch.{spied.op}", call.source_text(step)
    return None

"""What the book's page needs to check an answer with the notebook's own verdicts.

A stub's HTML output (``Result._repr_html_`` of a not-attempted check) holds only an
empty marker, ``<div class="gl-page-check" data-exercise="ID" hidden></div>``
(``result.page_marker``): a chapter stores the verdict a reader sees, never what the
checker derives. The book's build computes each marked exercise's ``payload`` here,
from the package, writes it to ``_static/exercises/ID.json`` and gives the marker the
head its answer box is drawn from (tools/build/lean_pages.py); the page fetches the file
on first use (the zip of tools/build/site_zip.py puts it back as a ``data:`` URL). So
rewording a message or adding a misconception re-executes no chapter.

The payload carries the templates it can use (``templates``: the subset of
``gatherlab/exercises/messages.json``, the one table, that its verdicts, fallback and
the page's own messages name); the page renders a verdict ``V`` by plain substitution:
every ``{name}`` in ``templates[V.template]`` becomes ``V.fields[name]`` (a phrase's
own words, rendered alike), nothing else (``render`` in ``verdict.py`` does the same in
Python). The payload JSON is::

    {"id": "01.pick_columns",
     "kind": "implement" | "fix" | "predict" | "raises" | "choose",
     "title": str,
     "args": [argument names, in order]          # implement; fix: the names bound
                                                 # (the call's input and index, and the
                                                 # notebook's names the solution reads)
     "call": {"op", "dim", "part", "answer"}     # fix only: the call the answer enters
     "reference": T | null                       # fix only: the corrected index
     "cases": [{"name": P | "",                  # P: "On hidden case 3 of 50"
                "visible": bool,
                "inputs": {argname: T},          # implement and fix
                "expected": T | ERROR,
                "reads": [str, ...] | null,      # per flat coordinate of expected: what
                                                 # it reads, "x[1, 2] = 22 because ..."
                "misconceptions": [{"id", "output": OUT}, ...],
                "must_raise": V,                 # implement's invalid cases: the
                                                 # verdict on a value returned there
                "params_shape": [int, ...]}],    # implement: the shape of the call's
                                                 # input (explained_error's params)
     "misconceptions": {id: V}                   # each misconception's verdict, once
                                                 # (a variant worded apart: "id#2")
     "choices": [{"label", "raises": bool, "verdict": V}]   # raises
              | [{"label", "verdict": V}]                   # choose
     "answers": {labels: V}      # raises: the verdict on every wrong set of labels,
                                 # keyed by its labels in the calls' order ("ACE")
     "passed": V,
     "verdicts": {"unanswered": V, "says_raises": V, "none": V}  # says_raises, none:
                                                 # predict only
     "raise_words": regex source                             # predict: an answer that
                                                             # matches says it raises
     "fallback": {"template", "reads_template", "shape_template",
                  "where": "x.grad"},          # where: a gradient's name, else "out";
                                               # a fix has no shape_template (it words
                                               # shapes with differ.shape and advice.*)
     "error_hint": {"contains", "template"} | null  # implement: an error whose
                                                    # message contains it is worded by
                                                    # template, with each case's
                                                    # "hint_fields"
     "forbid": [name, ...], "require": [name, ...]  # implement: the ops the answer may
                                                    # not call / must call one of
     "gradient": argname | ""                      # implement: the input whose
                                                    # gradient must flow (the page
                                                    # reads the code)
     "framework": "torch" | "tensorflow"           # implement: what the result must
                                                    # be (its dtype, the case's)
     "notebook_checks": str,                       # implement, fix: what only
                                                    # the notebook checks (shown)
     "templates": {id: text}}

where ``T = {"dtype": "int64" | "float32" | "bool" | ..., "shape": [..], "data": [flat
row-major numbers]}`` (bools as 0/1; ``"nan"``, ``"inf"``, ``"-inf"`` where JSON has
no number; an input whose entries share memory, an expanded view, adds ``"strides"``:
``input_tensor``), ``ERROR = {"error": {"rule": diagnose's rule id or null, "type":
"IndexError" | ... | "Error" (any error)}}``, ``OUT`` is ``T``, ``ERROR``,
``{"not_expected": true}`` (any value but the expected one) or ``{"any_of_shape":
[..]}`` (any value of that shape; with ``"but_not": T``, any but that one),
``V = {"passed": bool, "template": id, "fields": {name: str | P}, "misconception":
id | null}`` and ``P = {"template": id, "fields":
{name: str | P}}``, a phrase (a piece of the sentence, rendered by its own template,
without its final period).

The page's check: unanswered (typed text that reads as ``...``, as ``typed_answer``
reads it; an empty or ``...`` code box) gives ``verdicts.unanswered``; for predict, a
text answer that reads as no value and matches ``raise_words`` gives
``verdicts.says_raises``; a fix's lines bind ``call.answer`` (or ``answer``). Otherwise
it computes the learner's outcome on every case (predict: the typed value, for the one
case; implement and fix: its evaluator). All equal to ``expected`` (same shape, values
equal, floats within rtol 1e-5 + atol 1e-6; errors as below): ``passed``. Else the first
misconception, in the order the cases list them, whose outputs equal the learner's on
every case (``not_expected`` matches anything but the expected value, ``any_of_shape``
any value of that shape; an ERROR of type "Error" without a rule matches any error; two
errors with rules match when the rules agree, one with and one without a rule never
match, two without rules match when the types agree or either type is "Check", the
learner's own check): its verdict, in the top-level ``misconceptions`` (one copy per id,
where the contract first had one per case entry: the same verdict, about 7 times smaller
pages). Else the fallback, on the first failing case: a shape that differs gives
``shape_template`` with fields ``got_shape`` and ``expected_shape`` (Python's tuple
repr, ``(2,)``, ``(2, 3)``); a value gives, at the first wrong coordinate in row-major
order, ``reads_template`` when the case has ``reads`` (fields ``where``, ``reads``,
``got``) or ``template`` (fields ``where``, ``expected``, ``got``); ``where`` is
``out[i, j]`` (``out`` for a 0-d value), numbers formatted as ``format_value`` does
(ints as ints, floats ``{:.4g}``), and implement's templates add the field ``case`` (the
case's ``name``). For raises: the labels the answer names (see ``labels_in``) equal to
those with ``raises`` give ``passed``; else the first label wrongly judged, the omitted
raising ones first, then the others in order, gives its ``verdict``; an unknown word
gives template ``raises.unknown`` with fields ``label`` (the word's Python repr,
``'Z'``) and ``labels`` (``A, B, C``). For choose: one known label gives its verdict, an
unknown one ``choose.unknown`` (same fields), anything else ``choose.pick_one`` (field
``example``: the first label's repr).

Implement pages carry the visible example, the first ``PAGE_HIDDEN`` hidden cases and
the first ``PAGE_INVALID`` invalid ones, and the single misconceptions computed over
exactly those (pairs, several times larger, are named in the notebook only), so the
page's verdicts are the notebook's on those cases where one misconception explains the
answer; the notebook checks all the cases. Their pass is the notebook's verdict word
for word, which names no count: ``notebook_checks`` says how many cases each side runs.
``verdict_for(exercise_id, answer)`` gives
the Python side of a page case.
How the page reads typed text is ``gatherlab.exercises.typed``.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import Any

import numpy as np

from gatherlab._arrays import framework_of, to_numpy
from gatherlab.diagnose import RuleError
from gatherlab.exercises.base import Exercise
from gatherlab.exercises.fix import FIX_VOICE, STILL_BROKEN_VOICE, fix_names
from gatherlab.exercises.misconceptions import (
    NOT_EXPECTED,
    Case,
    Outcome,
    Raised,
    Search,
    Shaped,
    Voice,
    equal,
    first_change,
    gradient_of,
    shows,
    verdict_of,
    worded_on,
)
from gatherlab.exercises.verdict import Verdict, field_json, messages, render

PAGE_HIDDEN = 5
PAGE_EXTRA = 5  # hidden cases more, for misconceptions the first ones do not tell
PAGE_APART = 5  # and more, for misconceptions the chosen ones do not tell apart
PAGE_INVALID = 3
# JSON has no inf or nan: the payload writes them as Python prints them (the page's
# ``fromPayload`` reads them back).
NON_FINITE = {"nan": "nan", "inf": "inf", "-inf": "-inf"}


def tensor(value: Any) -> dict[str, Any]:
    """``T``: a value's dtype, shape and flat row-major numbers (bools as 0/1, and
    ``"nan"``, ``"inf"``, ``"-inf"`` for the numbers JSON lacks)."""
    values = to_numpy(value)
    flat = values.reshape(-1)
    if values.dtype.kind == "b":
        flat = flat.astype(np.int64)
    data = flat.tolist()
    if values.dtype.kind in "fc" and not np.isfinite(flat).all():
        data = [NON_FINITE.get(repr(v), v) for v in data]
    return {"dtype": values.dtype.name, "shape": list(values.shape), "data": data}


def input_tensor(value: Any) -> dict[str, Any]:
    """``T`` for an input the learner's code reads, with ``"strides"`` where entries
    share memory (an expanded view, stride 0 where it repeats one): the page's copy
    shares it alike, so a write into it raises or goes through as torch's does."""
    data = tensor(value)
    if framework_of(value) == "torch" and any(
        size > 1 and stride == 0
        for size, stride in zip(value.shape, value.stride(), strict=True)
    ):
        data["strides"] = list(value.stride())
    return data


def outcome(value: Outcome) -> dict[str, Any]:
    """``OUT``: an outcome as the page compares it."""
    if isinstance(value, Raised):
        error: dict[str, Any] = {"rule": value.rule, "type": value.type}
        if value.index is not None:  # the index that raised (misconceptions.Raised)
            shape, values = value.index
            error["index"] = [list(shape), list(values)]
        return {"error": error}
    if value is NOT_EXPECTED:
        return {"not_expected": True}
    if isinstance(value, Shaped):
        if value.but_not is not None:
            return {"any_of_shape": list(value.shape), "but_not": tensor(value.but_not)}
        return {"any_of_shape": list(value.shape)}
    return tensor(value)


def _reads(case: Case) -> list[str] | None:
    """What every coordinate of the expected value reads (the fallback's ``reads``)."""
    from gatherlab.exercises.predict import predicted_reads

    expected = case.expected
    call = case.call
    if not isinstance(expected, np.ndarray) or case.finish is not None or call is None:
        return None
    if case.gradient:
        coordinates = list(np.ndindex(expected.shape))
        found = [predicted_reads(case, where) for where in coordinates]
        return None if any(r is None for r in found) else [str(r) for r in found]
    try:
        steps = list(call.trace())
    except RuleError:
        return None
    if [s.out for s in steps] != list(np.ndindex(expected.shape)):
        return None
    return [call.reads(step) for step in steps]


# The fallback's templates where the case names its op's rule (oprules): the rule
# first, then the shape or the first wrong entry (implement._fallback, fix,
# predict.predicted_fallback).
RULE_TEMPLATES = {
    "implement": {
        "rule_template": "implement.wrong_value_rule",
        "rule_reads_template": "implement.wrong_value_reads_rule",
        "rule_shape_template": "implement.wrong_shape_rule",
    },
    "fix": {
        "rule_template": "fix.wrong_value_rule",
        "rule_reads_template": "fix.wrong_value_reads_rule",
        "rule_yours_template": "fix.wrong_value_yours_read_rule",
        "rule_shape_template": "differ.shape_rule",
    },
    "predict": {
        "rule_template": "predict.wrong_value_rule",
        "rule_reads_template": "predict.wrong_value_reads_rule",
        "rule_shape_template": "predict.wrong_shape_rule",
    },
}


def _with_rules(listed: list[dict[str, Any]], search: Search, tf_op: str = "") -> None:
    """Each case's rules of its op, as the fallback states them first (a phrase, or
    None): ``rule`` for a wrong value, ``shape_rule`` for a wrong shape."""
    from gatherlab.exercises.oprules import names_no_op, shape_rule, value_rule

    for item, case in zip(listed, search.cases, strict=True):
        rules = (
            (None, None)
            if case.gradient
            else (
                value_rule(case),
                shape_rule(case, tf_op),
            )
        )
        item["rule"], item["shape_rule"] = (
            None if rule is None else field_json(rule) for rule in rules
        )
        if names_no_op(case, set()):  # the words for an answer that never called it
            neutral = (value_rule(case, True), shape_rule(case, tf_op, True))
            item["rule_any"], item["shape_rule_any"] = (
                None if rule is None else field_json(rule) for rule in neutral
            )


def _cases(
    search: Search,
    voice: Voice,
    names: dict[int, dict[str, Any]],
    verdicts: dict[str, Any],
    raised: Voice | None = None,
) -> list[dict[str, Any]]:
    """The cases with every misconception's output; the verdicts go in ``verdicts``.
    A misconception that raises on the first case is worded in the ``raised`` voice
    where one is given (a fix: "Still broken", as the notebook says it)."""
    listed: list[dict[str, Any]] = []
    for number, case in enumerate(search.cases):
        listed.append(
            {
                "name": field_json(case.name),
                "visible": case.visible,
                "inputs": names.get(number, {}),
                "expected": outcome(case.expected),
                "reads": _reads(case),
                "misconceptions": [],
            }
        )
    for candidate in search.candidates(pairs=False):
        # a misconception's variants (another axis, another size) are worded apart:
        # a variant whose verdict differs from the id's gets the key "id#2", "id#3"...
        raises = isinstance(candidate.outcomes[0], Raised)
        speaker = raised if raised is not None and raises else voice
        said = verdict_of(candidate, search, speaker).to_json()
        key, variant = candidate.id, 1
        while verdicts.setdefault(key, said) != said:
            variant += 1
            key = f"{candidate.id}#{variant}"
        for number, value in enumerate(candidate.outcomes):
            listed[number]["misconceptions"].append(
                {"id": key, "output": outcome(value)}
            )
    return listed


# The templates the page words verdicts with itself, besides those the payload names
# (exercises.mjs's `v(...)` calls): what the page cannot run or read, a forbidden or
# missing op, an error where a value was due and the reverse, unreadable answers.
CODE_TEMPLATES = ("page.unsupported", "page.syntax")
ADVICE_TEMPLATES = tuple(t for t in messages() if t.startswith("advice."))
PAGE_TEMPLATES = {
    "implement": (
        *CODE_TEMPLATES,
        "implement.raised",
        "implement.raised_explained",
        "implement.raised_rule",
        "implement.raised_rule_hint",
        "implement.raised_float_division",
        "implement.raised_sized",
        "implement.raised_segments",
        "sized.largest",
        "sized.distinct",
        "sized.both",
        "implement.detached",
        # a result right only because torch.empty's memory held zeros (unwrittenEntry)
        "implement.unwritten",
        # a write lost, told where it went (lostWhere)
        "lost.copy",
        "lost.out_of_place",
        "implement.forbidden",
        # a forbidden op's answer, wrong with the ban lifted too (_refused)
        "implement.forbidden_also",
        # two in-place writes into one buffer (_shared_in_place; sharedInPlace)
        "implement.in_place_shared",
        # a floor division where a true one is due (_floor_divided; floorDivided)
        "implement.floor_divided",
        # the size rule of torch's one_hot or bincount (sizing.sized_by_op; sizedByOp)
        "implement.sized_by_op",
        "size_raised",
        "size_rule.width",
        "size_rule.minlength",
        "size_rule.inferred_short",
        "size_fix.given",
        "size_fix.inferred",
        "size_how.largest",
        "size_past.raises",
        "size_past.extends",
        *(t for t in messages() if t.startswith("size_what.")),
        # include_self=True named where scatter_reduce made a mean (includeSelfFirst)
        "self_mixed.count_include",
        "self_mixed.pass_false",
        # kept-one-write told the overwriting op the answer called (keptByOwnOp)
        "kept.rule_op",
        # short-count told the answer's own way to its count (shortByOwnCall)
        "short.how_max",
        "short.how_bincount",
        # write-every-row told the index tensors' broadcast grid (indexGrid)
        "every_row.grid",
        "every_row.grid_why",
        "implement.not_required",
        # tf.gather where tf.gather_nd is required, of another shape (gatherNotNd)
        "implement.gather_not_nd",
        "implement.must_raise_type",
        "implement.not_a_tensor",
        # an error, and a later step's mistake found with it repaired (_repaired)
        "repaired",
        # compare.differences' strict checks (implement._python_only)
        "differ.returned_none",
        "differ.dtype",
        "differ.dtype_python_numbers",
        "differ.dtype_write_zeros",
        "differ.dtype_write_given",
        "differ.dtype_cast",
        "differ.dtype_default_torch",
        "differ.dtype_bool",
        "differ.dtype_read_zeros",
        "implement.tf_subscript",
        "implement.meshgrid_xy",
        # an op's argument misread (misreadArgument: tf.gather_nd's batch_dims=1,
        # tf.gather's axis other than its batch_dims)
        "argread.gather_nd_batch_dims",
        "argread.read_axis",
        # torch.unique's ids present taken for every id (uniqueSlots)
        "implement.slots_present",
        "slots.plain",
        "slots.sorted",
        "differ.framework_torch",
        "differ.framework_tensorflow",
    ),
    "fix": (
        *CODE_TEMPLATES,
        # an index of 0s only, which no write reached (onlyZeros)
        "fix.index_all_zeros",
        "fix.wrong_value_yours_read",
        "fix.still_broken_rule",
        "fix.still_broken_rule_hint",
        "fix.still_one_dim",
        "fix.still_broken_error",
        "fix.must_raise_type",
        "fix.not_a_tensor",
        # a result of the wrong shape (fix._expand_advice, which the page runs too)
        "differ.shape",
        "lead.runs_now",
        "fix.expand_repeats",
        *(t for t in messages() if t.startswith(("slice.", "axis."))),
        *ADVICE_TEMPLATES,
        # strategies.float_positions, which the page runs too
        "fix.values_not_positions",
        "fix.near_whole",
        "fix.fractions",
        "fix.float_wrong_positions",
        "fix.values_long",
        "fix.truncated",
        "fix.whole_floats",
        "fix.truncated_float",
        *(t for t in messages() if t.startswith("cut.")),
    ),
    "predict": (
        "differ.not_numbers",
        "differ.unreadable",
        "differ.ragged",
        *(t for t in messages() if t.startswith(("place.", "entries."))),
        "page.unsupported_value",
    ),
    "raises": ("raises.unknown", "raises.not_labels"),
    "choose": ("choose.unknown", "choose.pick_one"),
}


def _templates(data: Any) -> Iterator[str]:
    """Every template id a payload names: in its verdicts and its fallback."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key.endswith("template") and isinstance(value, str):
                yield value
            else:
                yield from _templates(value)
    elif isinstance(data, list):
        for item in data:
            yield from _templates(item)


def _page_hidden(exercise: Any) -> list[int]:
    """The hidden cases the page runs: the first PAGE_HIDDEN, and for each
    misconception that only the notebook's other hidden cases tell from the solution
    (a negative dim, an index of another size), the first case that does, up to
    PAGE_EXTRA more; so an answer that one misconception explains fails on the page
    as in the notebook. Within the same budget, for each misconception that raises on
    every case chosen so far, the first case where it reads a value (errors alone
    match a learner's error of another kind too loosely). Then, up to PAGE_APART
    more, the first case that tells a misconception from one listed before it where
    the chosen cases do not (a rank added, a negative position left as it is), so the
    page names it alike."""
    valid = len(exercise.cases)
    numbers = list(range(1, min(valid, 1 + PAGE_HIDDEN)))
    search = Search(exercise.all_cases[:valid])
    candidates = list(search.candidates(pairs=False))
    for candidate in candidates:
        wrong = [
            k
            for k in range(valid)
            if shows(candidate.outcomes[k], search.cases[k].expected)
        ]
        told = not wrong or wrong[0] == 0 or set(wrong) & set(numbers)
        if not told and len(numbers) < PAGE_HIDDEN + PAGE_EXTRA:
            numbers.append(wrong[0])
    # a misconception that raises on every chosen case (an off-by-one where each of
    # them has a full-length sequence) is told by errors alone, which a learner's
    # error of another kind can match only loosely: the first case where it reads a
    # value, so the page sees it as the notebook does
    for candidate in candidates:
        shown = [0, *numbers]
        if not all(isinstance(candidate.outcomes[k], Raised) for k in shown):
            continue
        reads = [
            k for k in range(valid) if not isinstance(candidate.outcomes[k], Raised)
        ]
        if reads and len(numbers) < PAGE_HIDDEN + PAGE_EXTRA:
            numbers.append(reads[0])
    # a misconception worded on a later case than the first it changes, which raised
    # (verdict_of: words about a result need a case with one): both cases, so the page
    # words it on the same ones
    expected = [case.expected for case in search.cases]
    for candidate in candidates:
        raised_at = first_change(expected, candidate.outcomes)
        worded = worded_on(expected, candidate.outcomes, candidate.parts[0][0])
        if worded != raised_at:
            numbers += [k for k in (raised_at, worded) if k and k not in numbers]
    budget = len(numbers) + PAGE_APART
    for later, candidate in enumerate(candidates):
        for earlier in candidates[:later]:
            apart = [
                k
                for k in range(valid)
                if not equal(candidate.outcomes[k], earlier.outcomes[k])
            ]
            told = not apart or apart[0] == 0 or set(apart) & set(numbers)
            if not told and len(numbers) < budget:
                numbers.append(apart[0])
    return sorted(numbers)


def _implement(exercise: Any) -> dict[str, Any]:
    from gatherlab.exercises.implement import IMPLEMENT_VOICE, ErrorHint, must_raise
    from gatherlab.exercises.writes import ids_of

    valid = len(exercise.cases)
    numbers = _page_hidden(exercise)
    chosen = [exercise.all_cases[0], *(exercise.all_cases[k] for k in numbers)]
    chosen += exercise.all_cases[valid : valid + PAGE_INVALID]
    search = Search(chosen)
    inputs = {
        number: {
            name: input_tensor(value) if hasattr(value, "shape") else value
            for name, value in case.args.items()
        }
        for number, case in enumerate(chosen)
    }
    verdicts: dict[str, Any] = {}
    listed = _cases(search, IMPLEMENT_VOICE, inputs, verdicts)
    _with_rules(listed, search, exercise.tf_op)
    for case, data in zip(chosen, listed, strict=True):  # explained_error's params
        params = exercise.params_shape(case.args)
        if params is not None:
            data["params_shape"] = params
        ids = ids_of(case)  # a write's ids: writes.sized_from_ids reads them
        if ids is not None:
            data["ids"] = ids
    error_hint = None
    if isinstance(exercise.hint, ErrorHint):  # each case's fields for it
        error_hint = {
            "contains": exercise.hint.contains,
            "template": exercise.hint.template,
        }
        for case, data in zip(chosen, listed, strict=True):
            data["hint_fields"] = exercise.hint.fields(dict(case.args))
    first = 1 + len(numbers)  # the invalid cases follow the visible and hidden ones
    invalid_errors = [error for _, error in exercise.invalid_cases]
    for data, case, error in zip(
        listed[first:], chosen[first:], invalid_errors, strict=False
    ):
        data["must_raise"] = must_raise(case, error).to_json()
    invalid = len(chosen) - 1 - len(numbers)
    hidden = str(len(numbers))
    invalid_all = len(exercise.all_cases) - valid
    also = f" and {invalid_all} invalid ones" if invalid_all else ""
    gradient = ", that gradients reach the input" if exercise.gradient else ""
    return {
        # what only the notebook checks: the page shows it beside its verdicts
        "notebook_checks": (
            f"The page runs the visible example and {hidden} hidden cases"
            f"{f' and {invalid} invalid ones' if invalid else ''}; the "
            f"notebook runs all {valid - 1} hidden cases{also}, and checks what only "
            f"Python sees: inputs changed in place, the result's device{gradient}, the "
            f"exercise's own hints and torch's error messages."
        ),
        "args": list(exercise.example),
        "cases": listed,
        "misconceptions": verdicts,
        "error_hint": error_hint,
        "gradient": exercise.gradient,
        # what the result must be (compare.differences, strict): "torch", "tensorflow"
        "framework": framework_of(exercise.cases[0][1]),
        "forbid": list(exercise.forbid),
        "require": list(exercise.require),
        # the op of the intended read, whose rules an answer that never calls it is
        # told naming no op (oprules.names_no_op)
        "read_op": exercise.search.cases[0].call.op
        if exercise.search.cases[0].call is not None
        else None,
        # the notebook's pass, word for word; the counts are in notebook_checks
        "passed": Verdict(
            True, "passed.implement_invalid" if invalid else "passed.implement"
        ).to_json(),
        # a write's result keeps its buffer's dtype (implement._python_only)
        "dtype_template": exercise.dtype_template,
        "dtype_due": exercise.dtype_due,
        "fallback": {
            "template": "implement.wrong_value",
            "reads_template": "implement.wrong_value_reads",
            "shape_template": "implement.wrong_shape",
            **RULE_TEMPLATES["implement"],
        },
    }


def _fix(exercise: Any) -> dict[str, Any]:

    broken = exercise.broken
    inputs = {
        name: input_tensor(value) if hasattr(value, "shape") else value
        for name, value in fix_names(exercise).items()
    }
    works = exercise.check(exercise.reference_answer).verdict
    verdicts: dict[str, Any] = {}
    listed = _cases(
        exercise.search, FIX_VOICE, {0: inputs}, verdicts, STILL_BROKEN_VOICE
    )
    _with_rules(listed, exercise.search)
    return {
        "notebook_checks": (
            "The notebook also words what only Python sees: the exercise's own hints "
            "and torch's error messages."
        ),
        "args": list(inputs),
        "call": {
            "op": broken.op,
            "dim": broken.dim,
            "part": exercise.part,
            "answer": exercise.answer_name,
        },
        "cases": listed,
        "misconceptions": verdicts,
        # the corrected part (strategies.float_positions compares a truncation with it)
        "reference": tensor(exercise.reference_answer)
        if exercise.part == "index"
        else None,
        "passed": works.to_json(),
        "fallback": {
            "template": "fix.wrong_value",
            "reads_template": "fix.wrong_value_reads",
            **RULE_TEMPLATES["fix"],
        },
    }


def _predict(exercise: Any) -> dict[str, Any]:
    from gatherlab.exercises.predict import PREDICT_VOICE, SAYS_IT_RAISES

    verdicts: dict[str, Any] = {}
    listed = _cases(exercise.search, PREDICT_VOICE, {}, verdicts)
    _with_rules(listed, exercise.search)
    data = {
        "cases": listed,
        "misconceptions": verdicts,
        "passed": exercise.check(exercise.reference_answer).verdict.to_json(),
        "raise_words": SAYS_IT_RAISES.pattern,
        "fallback": {
            "template": "predict.wrong_value",
            "reads_template": "predict.wrong_value_reads",
            "shape_template": "predict.wrong_shape",
            **RULE_TEMPLATES["predict"],
        },
    }
    known = []
    for number, wrong in enumerate(exercise.mistakes.values()):
        verdicts[f"known-{number}"] = exercise.check(wrong).verdict.to_json()
        known.append({"id": f"known-{number}", "output": tensor(np.asarray(wrong))})
    data["cases"][0]["misconceptions"][:0] = known
    data["verdicts"] = {
        "says_raises": exercise.check("it raises").verdict.to_json(),
        # `None` typed, as the notebook's `prediction = None` (a gradient's: none flows)
        "none": exercise.check(None).verdict.to_json(),
    }
    if exercise.gradient:  # the coordinate is on the input's gradient: x.grad[0, 1]
        data["fallback"]["reads_template"] = "predict.wrong_gradient"
        data["fallback"]["where"] = gradient_of(exercise.search.cases[0])
    return data


def _raises(exercise: Any) -> dict[str, Any]:
    solution = list(exercise.solution)
    choices = []
    for label in exercise.calls:
        wrong = (
            [s for s in solution if s != label]
            if label in solution
            else [*solution, label]
        )
        choices.append(
            {
                "label": label,
                "raises": label in solution,
                "verdict": exercise.check(wrong).verdict.to_json(),
            }
        )
    labels = list(exercise.calls)
    answers = {  # every set of labels, by its labels in the calls' order: "ACE"
        "".join(chosen): exercise.check(list(chosen)).verdict.to_json()
        for size in range(len(labels) + 1)
        for chosen in combinations(labels, size)
        if set(chosen) != set(solution)
    }
    return {
        "choices": choices,
        "answers": answers,
        "passed": exercise.check(solution).verdict.to_json(),
    }


def _choose(exercise: Any) -> dict[str, Any]:
    return {
        "choices": [
            {"label": label, "verdict": exercise.check(label).verdict.to_json()}
            for label in exercise.options
        ],
        "passed": exercise.check(exercise.right).verdict.to_json(),
    }


BUILDERS = {
    "implement": _implement,
    "fix": _fix,
    "predict": _predict,
    "raises": _raises,
    "choose": _choose,
}


def payload(exercise: Exercise) -> dict[str, Any]:
    """What the page needs to check answers to ``exercise`` (see the module doc)."""
    kind = page_kind(exercise)
    data: dict[str, Any] = {
        "id": exercise.id,
        "kind": kind,
        "title": exercise.title,
        "verdicts": {},
    }
    data.update(BUILDERS[kind](exercise))
    unanswered = exercise.check(...).verdict
    assert unanswered is not None  # every result carries its verdict
    data["verdicts"]["unanswered"] = unanswered.to_json()
    table = messages()
    named = sorted({*_templates(data), *PAGE_TEMPLATES[kind]})
    data["templates"] = {template: table[template] for template in named}
    return data


def page_kind(exercise: Exercise) -> str:
    """The payload's kind: the exercise's, ``raises`` for which-calls-raise."""
    from gatherlab.exercises.raises import PredictRaises

    return "raises" if isinstance(exercise, PredictRaises) else exercise.kind


def verdict_for(exercise_id: str, answer: Any) -> tuple[dict[str, Any], str]:
    """The Python side of a page case: ``V`` and its words, for ``answer``."""
    from gatherlab.exercises import check

    verdict = check(exercise_id, answer).verdict
    assert verdict is not None
    return verdict.to_json(), render(verdict)


def lines_raised(error: BaseException) -> Verdict:
    """The verdict on a fix whose lines raise before the call runs (the notebook's cell
    stops there, with torch's error; the page, whose evaluator raises it alike, says it
    is still broken with those words): ``fix.still_broken_error``, the error as
    ``short_error`` gives it, without its final period."""
    from gatherlab.errors import short_error

    return Verdict(
        False, "fix.still_broken_error", {"error": short_error(error).removesuffix(".")}
    )

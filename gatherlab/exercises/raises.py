"""Which of these calls raise? The answer is a label or a list of labels ([]: none).

The feedback is ``raises_feedback``, a function of plain data (the calls, the labels
that raise, the learner's answer), so it can be mirrored outside Python.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

import torch

from gatherlab.errors import short_error
from gatherlab.exercises.base import Exercise
from gatherlab.exercises.call import TORCH_ERRORS, Call
from gatherlab.exercises.compare import kind_of, shape_text
from gatherlab.exercises.rendering import assigned, wrapped
from gatherlab.exercises.result import Feedback, Result, not_attempted
from gatherlab.exercises.verdict import Verdict, phrase, render, verdict

LABEL_SEPARATORS = re.compile(r"[\s,;'\"\[\]()]+")


def _outcome(call: Call) -> str:
    """The error the call raises in words, or "" when it runs."""
    try:
        call.run()
    except TORCH_ERRORS as error:
        return short_error(error)
    return ""


def _runs_words(call: Call, wrong: bool) -> tuple[str, str | None, dict[str, str]]:
    """The template, misconception and extra fields for a gather that runs where a
    learner may expect a rule it does not apply: an empty index is not checked at
    all, an int32 index is accepted, and an index need not have the input's shape
    (the rule the index was once held to: the same sizes but along dim). That last
    is said only where the learner marked the call ``wrong``ly: a solution's listing
    would repeat it for nearly every call."""
    index = call.index
    if call.op == "gather" and isinstance(index, torch.Tensor):
        if index.numel() == 0:
            return "raises.wrong_runs_empty", None, {}
        if index.dtype == torch.int32:
            return "raises.wrong_runs_int32", None, {}
        if wrong and index.shape != call.input.shape:
            dim = int(call.axis or 0)
            fields = {
                "input": call.input_name,
                "input_shape": shape_text(tuple(call.input.shape)),
                "dim": str(dim),
            }
            if dim >= 0:
                return "raises.wrong_runs_sizes", "same-size-rule", fields
            fields["axis"] = str(dim % max(call.input.dim(), 1))
            return "raises.wrong_runs_sizes_negative_dim", "same-size-rule", fields
    return "raises.wrong_runs", None, {}


def run_facts(label: str, call: Call) -> tuple[list[str], list[str], str | None]:
    """The rules that let a call that runs run, in words, each the call's own fact (an
    empty index, an int32 one, a negative dim, an index longer along dim or smaller on
    another dim than the input); each rule's detail, for the fix; and the
    misconception a learner who expected it to raise holds: the old same-size rule,
    where the index is longer along dim or smaller on another dim."""
    index = call.index
    facts: list[str] = []
    details: list[str] = []
    misconception = None
    if call.op != "gather" or not isinstance(index, torch.Tensor):
        return [render(phrase("raises.fact_none"))], [], None
    if index.numel() == 0:
        empty = [render(phrase("raises.detail_empty"))]
        return [render(phrase("raises.fact_empty"))], empty, None
    dim, sizes = int(call.axis or 0), tuple(call.input.shape)
    if dim < 0:
        facts.append(render(phrase("raises.fact_negative_dim")))
        axis = str(dim % max(len(sizes), 1))
        details.append(
            render(
                phrase(
                    "raises.detail_negative_dim",
                    label=label,
                    dim=str(dim),
                    axis=axis,
                    input=call.input_name,
                )
            )
        )
    if index.dtype == torch.int32:
        facts.append(render(phrase("raises.fact_int32")))
        details.append(render(phrase("raises.detail_int32")))
    shape = tuple(index.shape)
    if len(shape) == len(sizes) and sizes:
        along = dim % len(sizes)
        longer = shape[along] > sizes[along]
        smaller = any(
            i < s
            for d, (i, s) in enumerate(zip(shape, sizes, strict=True))
            if d != along
        )
        size_fact = {
            (True, True): "raises.fact_longer_smaller",
            (True, False): "raises.fact_longer",
            (False, True): "raises.fact_smaller",
        }.get((longer, smaller))
        if not size_fact and not facts and shape[along] < sizes[along]:
            size_fact = "raises.fact_shorter"  # its only difference
        if size_fact:
            facts.append(render(phrase(size_fact)))
            details.append(render(phrase("raises.detail_sizes")))
            if size_fact != "raises.fact_shorter":
                misconception = "same-size-rule"
    return facts or [render(phrase("raises.fact_none"))], details, misconception


def broken_rule(call: Call) -> str:
    """The rule a raising call breaks, in few words, from its diagnosis: the clause
    after ", but " (or the message), then the rule after its last ": ", but a
    negative position's clause up to it (that negatives do not wrap is the rule)."""
    problems = call.problems()
    if not problems:
        return _outcome(call)
    clause = problems[0].message.split(", but ", 1)[-1]
    if problems[0].rule == "negative-index":
        return clause.split(": ", 1)[0]
    rule = clause.rsplit(": ", 1)[-1]
    valid = VALID.fullmatch(rule)
    if valid and _never_clamps(call, problems[0].rule):
        return render(phrase("raises.fact_range", range=valid.group(1)))
    return rule


VALID = re.compile(r"valid positions are (-?\d+\.\.-?\d+)")


def _never_clamps(call: Call, rule: str) -> bool:
    """Whether the call raises for a position outside its range, where other
    libraries clamp (numpy's take with mode='clip', MXNet's, WebNN's gather) or read
    0 (TensorFlow's GPU gather): gather, index_select, take, take_along_dim without
    a dim (with one, torch 2.13 wraps every position and raises for none)."""
    if rule != "index-out-of-range":
        return False
    return call.op in ("gather", "index_select", "take") or call.dim is None


def _grouped(template: str, labels: list[str], facts: Mapping[str, list[str]]) -> str:
    """``A and C run: <fact> (A, C); <fact> (E).``: the facts of the same calls joined,
    each naming its calls where the group holds several; "" for no calls."""
    if not labels:
        return ""
    joined: dict[tuple[str, ...], list[str]] = {}
    for fact, own in facts.items():
        joined.setdefault(tuple(own), []).append(fact)
    clauses = [
        " and ".join(said) + (f" ({', '.join(own)})" if len(labels) > 1 else "")
        for own, said in joined.items()
    ]
    many = template.replace("_one", "_many") if len(labels) > 1 else template
    return render(phrase(many, labels=listed(labels), facts="; ".join(clauses)))


def several_wrong(
    calls: Mapping[str, Call], raising: tuple[str, ...], wrong: list[str]
) -> Verdict:
    """The verdict on an answer that judges the calls ``wrong`` wrongly (in the calls'
    order; not one missed raising call alone, whose diagnosis says it): the first
    step gives every one of them the rule that decides it, as that call's own fact,
    the calls that run first, then those that raise; the fix holds each rule's
    detail once (one call that runs: its full reason)."""
    runs = [label for label in wrong if label not in raising]
    raises = [label for label in wrong if label in raising]
    run_words: dict[str, list[str]] = {}
    details: list[str] = []
    found: list[str] = []
    for label in runs:
        own, own_details, misconception = run_facts(label, calls[label])
        for fact in own:
            run_words.setdefault(fact, []).append(label)
        details += own_details
        if misconception and misconception not in found:
            found.append(misconception)
    raise_words: dict[str, list[str]] = {}
    for label in raises:
        raise_words.setdefault(broken_rule(calls[label]), []).append(label)
    if len(wrong) == 1:  # one call that runs: its full reason
        (label,) = wrong
        details = [render(reason(label, calls[label], False)).replace("\n", " ")]
    runs_text = _grouped("raises.runs_one", runs, run_words)
    return verdict(
        False,
        "raises.wrong_several",
        "+".join(found) or None,
        runs=runs_text,
        raises=(" " if runs_text and raises else "")
        + _grouped("raises.raise_one", raises, raise_words),
        details=" ".join(dict.fromkeys(details)),
    )


def reason(label: str, call: Call, raises: bool, wrong: bool = True) -> Verdict:
    """``B raises: <diagnosis>.`` or ``A runs: <call> returns shape (2, 2).``, as a
    failing verdict (a pass lists every call's reason under its message, not
    ``wrong``)."""
    if not raises:
        shape = shape_text(tuple(call.run().shape))
        template, misconception, extra = _runs_words(call, wrong)
        return verdict(
            False,
            template,
            misconception,
            label=label,
            call=call.text(),
            shape=shape,
            **extra,
        )
    problems = call.problems()
    why = problems[0].message if problems else _outcome(call)
    if problems and _never_clamps(call, problems[0].rule):
        return verdict(
            False, "raises.wrong_raises_range", label=label, why=why, op=call.op
        )
    return verdict(False, "raises.wrong_raises", label=label, why=why)


def listed(labels: Iterable[str]) -> str:
    """``B and D``, ``A, B and C``; ``none of them`` for no labels."""
    names = list(labels)
    if not names:
        return "none of them"
    if len(names) == 1:
        return names[0]
    return f"{', '.join(names[:-1])} and {names[-1]}"


def labels_in(answer: Any, known_labels: Iterable[str]) -> set[str] | None:
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
    known = {label.upper(): label for label in known_labels}
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


def raises_feedback(
    calls: Mapping[str, Call], raising: Iterable[str], answer: Any
) -> Feedback:
    """The verdict on ``answer`` when the calls labelled ``raising`` raise."""
    raising = tuple(raising)
    labels = labels_in(answer, calls)
    if labels is None:
        example = repr(list(calls)[:2])
        return Feedback(
            verdict(False, "raises.not_labels", kind=kind_of(answer), example=example)
        )
    unknown = sorted(labels - set(calls))
    if unknown:
        return Feedback(
            verdict(
                False, "raises.unknown", label=repr(unknown[0]), labels=", ".join(calls)
            )
        )
    missed = [label for label in raising if label not in labels]
    extra = [label for label in calls if label in labels and label not in raising]
    if not missed and not extra:
        reasons = tuple(
            wrapped(render(reason(label, call, label in raising, False)), "    ")
            for label, call in calls.items()
        )
        return Feedback(verdict(True, "raises.right", labels=listed(raising)), reasons)
    wrong = [label for label in calls if label in missed or label in extra]
    if wrong == missed and len(wrong) == 1:  # one raising call missed: its diagnosis
        return Feedback(reason(wrong[0], calls[wrong[0]], True))
    return Feedback(several_wrong(calls, raising, wrong))


@dataclass(eq=False, kw_only=True)
class PredictRaises(Exercise):
    """Which of these calls raise? The answer: a label or a list of them ([]: none).

    Each call is run when the exercise is made; a call that raises although
    ``gl.diagnose`` finds no broken rule (or runs although it finds one) is refused,
    so a typo in a call can never make a wrong answer right.
    """

    calls: Mapping[str, Call]
    solution: tuple[str, ...] = field(default=(), init=False)  # the labels that raise
    kind: ClassVar[str] = "predict"

    def __post_init__(self) -> None:
        raising = []
        for label, call in self.calls.items():
            error, problems = _outcome(call), call.problems()
            if bool(error) != bool(problems):
                said = error or "it runs"
                rules = problems[0].message if problems else "no broken rule"
                raise ValueError(
                    f"{self.id} call {label}: {said}, but gl.diagnose finds {rules}"
                )
            if error:
                raising.append(label)
        self.solution = tuple(raising)

    @property
    def reference_answer(self) -> list[str]:
        return list(self.solution)

    def solution_source(self) -> str:
        lines = [
            wrapped(
                f"# {label} {'raises' if label in self.solution else 'runs'}: "
                f"{call.text()}",
                "#     ",
            )
            for label, call in self.calls.items()
        ]
        return "\n".join([*lines, assigned("raising", repr(list(self.solution)))])

    def _check(self, answer: Any) -> Result:
        if answer is ...:
            return not_attempted(self.id, "predict")
        return raises_feedback(self.calls, self.solution, answer).result(self.id)

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
            if labels_in(answer, self.calls) != set(self.solution)
        }

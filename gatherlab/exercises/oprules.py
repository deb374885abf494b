"""The rule of an exercise's op, for a first step that no misconception explains.

A wrong value or shape that matches no misconception still breaks a rule of the op
the exercise is about: a gather returns one value per index entry (the index's
shape) and reads ``out[i, j] = x[i, index[i, j]]`` along its dim; take reads the
flattened input; index_select keeps the input's other dims; tf.gather and
tf.gather_nd have their own shape formulas; a write keeps the shape it writes into
and combines repeated positions as its op does. ``shape_rule`` and ``value_rule``
derive that rule, as a phrase, from a case's intended call or write (never from one
exercise), in the exercise's framework: a TensorFlow exercise is told TensorFlow's
shape formula and an op-neutral formula for its values, never torch's names.
``None`` where no rule is known (no call, or a finish after the call changes the
value, as ``squeeze(1)`` does).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from gatherlab._arrays import to_numpy
from gatherlab.exercises.call import EXPANDED, shared_positions
from gatherlab.exercises.verdict import Phrase, phrase

if TYPE_CHECKING:
    from gatherlab.exercises.misconceptions import Case

# scatter_reduce's reduce names in words
REDUCE_WORDS = {"sum": "sum", "prod": "product", "mean": "mean", "amax": "max"}
REDUCE_WORDS["amin"] = "min"

LETTERS = "ijklmn"


def _index_name(case: Case, positions: np.ndarray, index: np.ndarray) -> str:
    """The name the formula gives the positions: the call's index name, or the
    learner's positions where the call's index is them expanded."""
    assert case.call is not None
    name = case.call.index_name
    if positions.ndim < index.ndim or " " in name:
        return case.positions if " " not in case.positions else "index"
    return name


def read_formula(case: Case) -> str | None:
    """``out[i, j] = x[i, columns[i, j]]``: what every output entry of the case's
    intended read is, in the learner's names; None without one."""
    call = case.call
    if call is None or case.finish is not None:
        return None
    source = to_numpy(call.input)
    index = to_numpy(call.index)
    if source.ndim == 0 or index.ndim == 0 or index.dtype.kind not in "iu":
        return None
    name = call.input_name
    if call.op == "take":
        subs = ", ".join(LETTERS[: index.ndim])
        flat = f"{name}.flatten()" if source.ndim > 1 else name
        return f"out[{subs}] = {flat}[{call.index_name}[{subs}]]"
    dim = int(call.axis or 0) % source.ndim
    letters = list(LETTERS[: source.ndim])
    if call.op == "index_select":
        if index.ndim != 1:
            return None
        source_subs = [*letters]
        source_subs[dim] = f"{call.index_name}[{letters[dim]}]"
        return f"out[{', '.join(letters)}] = {name}[{', '.join(source_subs)}]"
    if index.ndim != source.ndim:
        return None
    # a fix's answer is the index itself, named in full; elsewhere the learner holds
    # the positions the index expands
    positions = index if case.index_answer else shared_positions(index, dim)
    index_name = _index_name(case, positions, index)
    own = ", ".join(letters[: positions.ndim])
    source_subs = [*letters]
    source_subs[dim] = f"{index_name}[{own}]"
    return f"out[{', '.join(letters)}] = {name}[{', '.join(source_subs)}]"


def squeezed_formula(case: Case) -> str | None:
    """``out[i, k] = features[i, (lengths - 1)[i], k]``: the formula of a gather
    with one position per row along its dim, finished by squeezing that dim (the
    last step of each sequence); None for any other finish, or where the index is
    not named as positions expanded (``"lengths - 1 (expanded)"``)."""
    call = case.call
    if call is None or case.finish is None or call.op != "gather":
        return None
    if not call.index_name.endswith(EXPANDED) or not case.writes_code:
        return None
    source, index = to_numpy(call.input), to_numpy(call.index)
    if source.ndim < 2 or index.ndim != source.ndim or index.dtype.kind not in "iu":
        return None
    dim = int(call.axis or 0) % source.ndim
    expected = np.shape(case.expected)
    kept = index.shape[:dim] + index.shape[dim + 1 :]
    if index.shape[dim] != 1 or tuple(expected) != tuple(kept):
        return None
    positions = shared_positions(index, dim)
    letters = list(LETTERS[: source.ndim])
    own = ", ".join(letters[d] for d in range(positions.ndim) if d != dim)
    if not own:
        return None
    name = f"({call.index_name.removesuffix(EXPANDED)})"
    source_subs = [*letters]
    source_subs[dim] = f"{name}[{own}]"
    out = ", ".join(letter for d, letter in enumerate(letters) if d != dim)
    return f"out[{out}] = {call.input_name}[{', '.join(source_subs)}]"


def value_rule(case: Case, neutral: bool = False) -> Phrase | None:
    """The rule every value of the case's read or write follows, as a phrase;
    ``neutral``: naming no op (an answer that never called the case's op)."""
    write = case.write
    if write is not None and hasattr(write, "op"):
        # the learner's code may write with another op than the exercise's (a
        # TensorFlow scatter, a loop): the rule is said of the result, naming no op
        own = case.writes_code and not case.index_answer
        return _write_value_rule(write, "" if own else None)
    if case.call is None and case.tf_op == "gather_nd" and not case.gradient:
        return phrase("rule.value_tf_gather_nd")  # a prediction no call explains
    formula = read_formula(case)
    if formula is None:
        squeezed = squeezed_formula(case)
        # a read finished by squeezing the dim it read one position along: the
        # formula of what is left, said of the result (no op's own output)
        return None if squeezed is None else phrase("rule.value_each", formula=squeezed)
    assert case.call is not None
    if case.framework == "tensorflow" or (neutral and case.call.op != "take_along_dim"):
        return phrase("rule.value_each", formula=formula)
    if case.call.op == "take":
        negative = bool((to_numpy(case.call.index) < 0).any())
        template = "rule.value_take_negative" if negative else "rule.value_take"
        return phrase(template, formula=formula, input=case.call.input_name)
    source, index = to_numpy(case.call.input), to_numpy(case.call.index)
    axis = int(case.call.axis or 0) % max(source.ndim, 1)
    dim = str(axis)
    # take_along_dim (torch 2.13) wraps every position modulo the size: where one
    # is outside 0..size-1, the formula holds only with that said
    wraps = case.call.op == "take_along_dim" and (
        (index < 0).any() or (index >= source.shape[axis]).any()
    )
    if neutral:
        template = "rule.value_each_wraps" if wraps else "rule.value_each"
        return phrase(template, formula=formula)
    template = "rule.value_read_wraps" if wraps else "rule.value_read"
    return phrase(template, op=case.call.op, dim=dim, formula=formula)


def _write_value_rule(write: Any, op: str | None = None) -> Phrase:
    """The rule of the write's values, naming its op (``op`` None), or as what the
    result must hold (``op`` "": an answer that may write with any op)."""
    if op == "":
        return _result_value_rule(write)
    op = write.text or f"{write.op}_"
    if write.op == "scatter_reduce" and write.reduce != "sum":
        words = REDUCE_WORDS.get(write.reduce, write.reduce)
        template = (
            "rule.write_reduce" if write.include_self else "rule.write_reduce_own"
        )
        return phrase(template, op=op, reduce=words)
    if write.adds:
        return phrase("rule.write_adds", op=op)
    if write.op == "scatter":
        return phrase("rule.write_scatter", op=op, dim=str(write.dim))
    return phrase("rule.write_one", op=op)


def _result_value_rule(write: Any) -> Phrase:
    if write.op == "scatter_reduce" and write.reduce != "sum":
        words = REDUCE_WORDS.get(write.reduce, write.reduce)
        template = (
            "rule.result_reduce" if write.include_self else "rule.result_reduce_own"
        )
        return phrase(template, reduce=words)
    if write.adds:
        return phrase("rule.result_adds")
    if write.op == "scatter":
        return phrase("rule.result_scatter", dim=str(write.dim))
    return phrase("rule.result_one")


def shape_rule(case: Case, tf_op: str = "", neutral: bool = False) -> Phrase | None:
    """The rule the case's result shape follows, as a phrase: ``tf_op`` names the
    TensorFlow op a TensorFlow exercise asks for ("gather_nd", else tf.gather);
    ``neutral``: naming no op (an answer that never called the case's op)."""
    write = case.write
    if write is not None and hasattr(write, "op"):
        # a prediction writes no code: the shape it should predict, not advice
        return phrase(
            "rule.shape_write" if case.writes_code else "rule.shape_write_value"
        )
    call = case.call
    if call is None and (tf_op or case.tf_op) == "gather_nd" and not case.gradient:
        return phrase("rule.shape_tf_gather_nd")  # a prediction no call explains
    if call is None or case.finish is not None:
        return None
    if case.framework == "tensorflow":
        return phrase(
            "rule.shape_tf_gather_nd"
            if tf_op == "gather_nd"
            else "rule.shape_tf_gather"
        )
    any_op = "_any" if neutral else ""
    if call.op == "index_select" and case.reads_with == "gather":
        # index_select written with gather, which the answer must call: its result
        # has the shape of the index the answer built
        return phrase("rule.shape_read", op="gather")
    if call.op == "index_select":
        dim = int(call.axis or 0) % max(to_numpy(call.input).ndim, 1)
        return phrase(f"rule.shape_index_select{any_op}", dim=str(dim))
    if call.op == "take_along_dim":
        return phrase(f"rule.shape_take_along_dim{any_op}")
    if neutral:
        return phrase("rule.shape_read_any")
    return phrase("rule.shape_read", op=call.op)


def names_no_op(case: Case, called: set[str]) -> bool:
    """Whether an answer's rules must name no op: a torch read it could make with any
    op (an implement exercise's), and none of ``called`` (the ops it called, by
    name: ``gather``) is the case's op."""
    call = case.call
    if call is None or case.write is not None or case.framework != "torch":
        return False
    if case.index_answer or not case.writes_code:
        return False
    return call.op not in called

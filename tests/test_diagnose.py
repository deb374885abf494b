"""gl.diagnose against PyTorch 2.13: no problem exactly when the call runs, and the
first problem names the error the library raises."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import gatherlab as gl
from gatherlab.diagnose import rule_problem
from gatherlab.rules import PLACEHOLDER, rules
from gatherlab.tf import tensorflow
from tests.gather_cases import OPS, Call, calls, library_error, named_value

X = torch.tensor([[10, 11, 12], [20, 21, 22]])


def _library_outcome(call):
    try:
        call.run()
    except Exception as error:  # the library's refusal is what we compare with
        return error
    return None


@pytest.mark.parametrize("op", OPS)
@settings(max_examples=400, derandomize=True, deadline=None)
@given(data=st.data())
def test_diagnose_is_empty_exactly_when_torch_runs_and_names_its_error(op, data):
    call = data.draw(calls(ops=(op,)), label="call")
    problems = gl.diagnose(call.input, call.dim, call.index, call.op)
    error = _library_outcome(call)
    if error is None:
        assert problems == []
        return
    assert problems, f"torch raised {error!r} but diagnose found nothing"
    first = problems[0]
    types, pattern = library_error(call.op, first.rule)
    assert isinstance(error, types), (first, error)
    assert re.search(pattern, str(error)), (first, error)
    named = named_value(call.op, first.rule, error)
    if named is not None:  # the library names a position: it is diagnose's first one
        assert first.where is not None
        assert named == int(call.index[first.where])


@pytest.mark.parametrize(
    ("op", "dim", "index", "rule", "message"),
    [
        (
            "gather",
            1,
            [[2, 0], [1, 3]],
            "index-out-of-range",
            "index[1, 1] = 3, but dim 1 of input has size 3: valid positions are 0..2",
        ),
        (
            "gather",
            -1,
            [[2, 0], [-1, 0]],
            "negative-index",
            "index[1, 0] = -1 is negative, but dim 1 of input does not wrap negative "
            "positions: valid positions are 0..2",
        ),
        (
            "gather",
            3,
            [[0]],
            "dim-range",
            "dim 3 does not exist on a 2-D input: valid dims are -2..1",
        ),
        (
            "gather",
            1,
            [0, 1],
            "rank-mismatch",
            "index has 1 dims but input has 2: gather reads one element per index "
            "entry, not a whole slice, so gather needs the same number of dims and "
            "never adds or broadcasts axes",
        ),
        (
            "gather",
            1,
            [[[0]]],
            "rank-mismatch",
            "index has 3 dims but input has 2: gather needs the same number of dims "
            "and never adds or broadcasts axes",
        ),
        (
            "gather",
            1,
            [[0], [0], [0]],
            "index-too-large",
            "dim 0 of index has size 3 but dim 0 of input has size 2: apart from dim "
            "1, index may not be larger than input",
        ),
        (
            "take",
            None,
            [5, -7],
            "index-out-of-range",
            "index[1] = -7, but the flattened input has size 6: valid positions are "
            "-6..5",
        ),
        (
            "index_select",
            1,
            [[0]],
            "index-not-vector",
            "index has 2 dims, but index_select takes one shared list of positions (a "
            "1-D index) for every row",
        ),
        (
            "index_select",
            0,
            [2],
            "index-out-of-range",
            "index[0] = 2, but dim 0 of input has size 2: valid positions are 0..1",
        ),
        (
            "take_along_dim",
            1,
            [[0], [0], [0]],
            "broadcast-mismatch",
            "dim 0 has size 2 in input and 3 in indices: take_along_dim broadcasts "
            "every dim except dim 1, and these sizes do not broadcast",
        ),
        (
            "take_along_dim",
            None,
            [[6]],
            "index-out-of-range",
            "index[0, 0] = 6, but the flattened input has size 6: valid positions are "
            "0..5",
        ),
    ],
)
def test_message_names_the_offending_dim_size_and_value(op, dim, index, rule, message):
    problems = gl.diagnose(X, dim, torch.tensor(index), op)
    assert (problems[0].rule, problems[0].message) == (rule, message)


def test_both_kinds_of_bad_position_are_reported_in_row_major_order():
    problems = gl.diagnose(X, 1, torch.tensor([[0, 5], [-1, 0]]))
    assert [(p.rule, p.where) for p in problems] == [
        ("index-out-of-range", (0, 1)),
        ("negative-index", (1, 0)),
    ]
    with pytest.raises(RuntimeError, match="index 5 is out of bounds"):
        torch.gather(X, 1, torch.tensor([[0, 5], [-1, 0]]))


@pytest.mark.parametrize(
    ("op", "index", "allowed"),
    [
        ("gather", torch.tensor([[1]], dtype=torch.int32), True),
        ("index_select", torch.tensor([1], dtype=torch.int32), True),
        ("take_along_dim", torch.tensor([[1]], dtype=torch.int32), False),
        ("take", torch.tensor([1], dtype=torch.int32), False),
        ("gather", torch.tensor([[1]], dtype=torch.int16), False),
    ],
)
def test_int32_index_is_accepted_by_gather_and_index_select_only(op, index, allowed):
    problems = gl.diagnose(X, None if op == "take" else 1, index, op)
    assert (problems == []) is allowed
    if not allowed:
        assert problems[0].rule == "index-dtype"


def test_take_along_dim_without_dim_accepts_int32_as_gather_does():
    index = torch.tensor([[5, 0]], dtype=torch.int32)
    assert gl.diagnose(X, None, index, "take_along_dim") == []
    assert torch.take_along_dim(X, index).tolist() == [22, 10]


def test_empty_index_skips_every_check_but_dim():
    empty_float = torch.empty(5, 0, 7)
    assert gl.diagnose(X, 1, empty_float) == []
    assert torch.gather(X, 1, empty_float).shape == (5, 0, 7)
    assert gl.diagnose(X, 2, empty_float)[0].rule == "dim-range"


def test_take_along_dim_wraps_every_position_without_complaint():
    index = torch.tensor([[5, -1], [-7, 500]])
    assert gl.diagnose(X, 1, index, "take_along_dim") == []
    assert torch.take_along_dim(X, index, 1).tolist() == [[12, 12], [22, 22]]


def test_take_along_dim_on_an_empty_dim_is_reported_before_it_divides_by_zero():
    input, index = torch.empty(2, 0), torch.zeros(1, 1, dtype=torch.long)
    assert gl.diagnose(input, 1, index, "take_along_dim")[0].rule == "empty-input"
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        torch.take_along_dim(input, index, 1)


def test_take_along_dim_without_dim_needs_a_flat_view():
    problems = gl.diagnose(X.t(), None, torch.tensor([0]), "take_along_dim")
    assert problems[0].rule == "not-flattenable"
    assert "input" in problems[0].message and "[3, 2]" in problems[0].message
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        torch.take_along_dim(X.t(), torch.tensor([0]))


def test_zero_d_tensors_follow_torch():
    scalar = torch.tensor(5)
    assert gl.diagnose(scalar, 0, torch.tensor([0, 0, 0])) == []
    assert gl.diagnose(scalar, 0, torch.tensor(1))[0].message.startswith("index = 1")
    assert gl.diagnose(scalar, 0, torch.tensor(0), "take_along_dim")[0].rule == (
        "dim-range"
    )
    assert gl.diagnose(scalar, 0, torch.tensor([0, 0]), "index_select")[0].rule == (
        "scalar-index-count"
    )
    assert gl.diagnose(scalar, None, torch.tensor([0, 0]), "take_along_dim") == []


def test_device_mismatch_is_reported_first():
    meta_index = torch.zeros(2, 1, dtype=torch.long, device="meta")
    problems = gl.diagnose(X, 1, meta_index, "take_along_dim")
    assert problems[0].rule == "device-mismatch"
    assert "input is on cpu but index is on meta" in problems[0].message
    with pytest.raises(RuntimeError, match="Expected tensor to have cpu Device"):
        torch.take_along_dim(X, meta_index, 1)


@pytest.mark.parametrize(
    ("dim", "runs"),
    [(1, True), (np.int64(1), True), (torch.tensor(1), True), (True, False)]
    + [(1.0, False), ("1", False), (None, False), (np.bool_(True), False)]
    + [(torch.tensor([1]), False), (torch.tensor(1.0), False)],
)
def test_dim_types_are_judged_as_torch_judges_them(dim, runs):
    index = torch.tensor([[1], [0]])
    problems = gl.diagnose(X, dim, index)
    assert (problems == []) is runs
    if runs:
        torch.gather(X, dim, index)
    else:
        assert problems[0].rule == "dim-type"
        with pytest.raises(TypeError, match="must be int"):
            torch.gather(X, dim, index)


def _odd_arguments():
    tf = tensorflow()
    good = torch.tensor([[0]])
    return [
        (None, 0, good, "gather", "not-a-tensor"),
        ([[1, 2]], 0, good, "gather", "not-a-tensor"),
        (X.numpy(), 0, good, "gather", "not-a-tensor"),
        (X, 0, np.array([[0]]), "gather", "not-a-tensor"),
        (X, 0, tf.constant([[0]]), "take_along_dim", "not-a-tensor"),
        (tf.constant([[1]]), 0, good, "index_select", "not-a-tensor"),
        ("text", "dim", "index", "gather", "not-a-tensor"),
        (X, "1", good, "gather", "dim-type"),
        (X, [1], good, "index_select", "dim-type"),
        (X, 0, good, "scatter", "unknown-op"),
        (X, 0, good, None, "unknown-op"),
        (object(), 0, object(), "take", "not-a-tensor"),
    ]


def test_odd_arguments_are_reported_never_raised():
    for input, dim, index, op, rule in _odd_arguments():
        problems = gl.diagnose(input, dim, index, op)
        assert [type(p) for p in problems] == [gl.Problem]
        assert problems[0].rule == rule, (input, dim, index, op, problems)
        assert problems[0].message


def test_numpy_where_torch_is_expected_suggests_from_numpy():
    problem = gl.diagnose(X.numpy(), 0, torch.tensor([[0]]))[0]
    assert "input is a NumPy array" in problem.message
    assert problem.hint == "convert it with torch.from_numpy(input)"


ODD_INPUTS = (X, X.t(), X.float(), torch.tensor(5), X.numpy(), X.tolist(), None, "x", 3)
ODD_DIMS = (0, 1, -1, 5, True, 1.0, None, "1", np.int64(1), torch.tensor(1), [0])
ODD_INDICES = (
    torch.tensor([[1], [0]]),
    torch.tensor([1, 0]),
    torch.tensor([[0.0]]),
    torch.tensor(2),
    torch.tensor([[1], [0]]).t(),
    np.array([[1], [0]]),
    [[1], [0]],
    None,
)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(
    st.sampled_from(OPS),
    st.sampled_from(ODD_INPUTS),
    st.sampled_from(ODD_DIMS),
    st.sampled_from(ODD_INDICES),
)
def test_any_mix_of_arguments_is_judged_as_torch_judges_it(op, input, dim, index):
    call = Call(op, input, dim, index, mutation="odd")
    problems = gl.diagnose(input, dim, index, op)
    error = _library_outcome(call)
    assert (problems == []) is (error is None), (problems, error)
    if error is not None:
        types, pattern = library_error(op, problems[0].rule)
        assert isinstance(error, types) and re.search(pattern, str(error)), error


# Where the rules are checked: none of them may spell a rule's words itself.
RULE_CODE = (
    "diagnose.py", "guard.py", "reference.py", "widgets/_op_comparison.py",
    "browser/explorers/core.mjs", "browser/explorers/scatter.mjs",
)  # fmt: skip


def test_the_rules_words_live_only_in_rules_mjs():
    """Python and the browser word a rule from one file: every template's fixed text
    (between its fields) is in rules.mjs and in none of the files that check rules."""
    package = Path(gl.__file__).parent
    code = {name: (package / name).read_text(encoding="utf-8") for name in RULE_CODE}
    table = rules()
    templates = [table["phrases"][name] for name in table["phrases"]] + [
        text
        for rule in table["rules"].values()
        for part in ("messages", "hints")
        for text in rule[part].values()
    ]
    pieces = {p.strip(" :,()") for t in templates for p in PLACEHOLDER.split(t)[::2]}
    pieces = {p for p in pieces if len(p) > 12}
    assert len(pieces) > 40
    spelled = sorted(
        (piece, n) for piece in pieces for n, t in code.items() if piece in t
    )
    assert spelled == []


def test_a_rule_is_worded_from_its_templates():
    problem = rule_problem(
        "scalar-index-count", "scalar-index-count", "scalar-index-count", count=3
    )
    assert problem.message == (
        "input is 0-d (one value), so index must hold exactly one position, "
        "but it holds 3"
    )
    assert problem.hint == "use index torch.tensor([0]) on a 0-d input"
    with pytest.raises(KeyError, match="count"):
        rule_problem("scalar-index-count", "scalar-index-count")

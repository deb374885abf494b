"""Every error a learner's function raises in an op the book teaches is explained by the
rule it broke, attributed to the argument that broke it (issue 38): bad arguments are
generated for every writing and reading op (a 0-d, wrong-rank or number source, a list,
a float or int16 index, a position out of range, a (row, column) pair the wrong way
round, a tensor where dim goes, another device), run through the checker, and the first
step must name the op's rule, not relay the library's words; the op-specific facts the
messages state are checked against torch itself, and the page's explain.mjs words each
error as Python does, given the same call."""

from __future__ import annotations

from typing import Any

import pytest
import torch

from gatherlab.error_rules import explain
from gatherlab.exercises import check
from tests.test_page_cases import node_module

EXERCISE = "06.segment_means"  # any implement exercise: the answers ignore its inputs
RAW = ("implement.raised",)  # the template that only relays the library's words


def first_step(code: str) -> tuple[str, str, str]:
    """The first step, the fix and the template of the check of a function that
    returns ``code``."""
    names: dict[str, Any] = {"torch": torch}
    exec(f"def answer(*args):\n    return {code}\n", names)  # generated, not collected
    result = check(EXERCISE, names["answer"])
    assert not result.passed
    assert result.verdict is not None
    return result.message, result.fix, result.verdict.template


X, I2 = "torch.zeros(3)", "torch.tensor([0, 1])"
# (the call, words the first step must contain, words neither step may contain)
CASES = {
    "index_add_, 0-d source": (
        f"{X}.index_add_(0, {I2}, torch.tensor(1.))",
        ["index_add_'s source is 0-d", "one slice of source per index entry"],
        ["on this input", "Pass a dim of the input"],
    ),
    "index_add_, number source": (
        f"{X}.index_add_(0, {I2}, 1.0)",
        ["index_add_ takes no number as source", "index_fill_"],
        ["torch.gather("],
    ),
    "index_copy_, number source": (
        f"{X}.index_copy_(0, {I2}, 1.0)",
        ["index_copy_ takes no number as source"],
        ["torch.gather("],
    ),
    "index_copy_, 0-d source for two positions": (
        f"{X}.index_copy_(0, {I2}, torch.tensor(1.))",
        ["index_copy_ copies one slice of source per index entry", "2 entries"],
        [],
    ),
    "index_fill_, a tensor of values": (
        f"{X}.index_fill_(0, {I2}, torch.ones(2))",
        ["value must be a number or a 0-d tensor"],
        [],
    ),
    "scatter_add_, number src": (
        f"{X}.scatter_add_(0, {I2}, 1)",
        [
            "scatter_add_ takes no number as src",
            "scatter and scatter_ take a plain number",
        ],
        ["torch.gather(", "is converted"],
    ),
    "scatter_reduce_, number src": (
        f"{X}.scatter_reduce_(0, {I2}, 2.0, 'sum')",
        ["scatter_reduce_ takes no number as src"],
        ["torch.gather("],
    ),
    "scatter_reduce_, no reduce": (
        f"{X}.scatter_reduce_(0, {I2}, torch.ones(2))",
        ["missing its argument reduce", "x.scatter_reduce_(dim, index, src, reduce"],
        ["torch.gather("],
    ),
    "put_, number source": (
        f"{X}.put_({I2}, 1.0)",
        ["put_ takes no number as source"],
        ["torch.gather("],
    ),
    "put_, position out of range": (
        f"{X}.put_(torch.tensor([0, 7]), torch.ones(2))",
        ["put_ accepts -3..2"],
        ["take accepts", "instead of take"],
    ),
    "put_, source too long": (
        f"{X}.put_({I2}, torch.ones(3))",
        ["put_ writes one value of source per index entry"],
        ["index_add_ and index_copy_"],
    ),
    "index_put_, number values": (
        f"{X}.index_put_(({I2},), 1.0)",
        ["index_put_ takes its values as a tensor"],
        ["torch.gather("],
    ),
    "index_put_, one tensor of positions": (
        "torch.zeros(2, 3).index_put_(torch.tensor([[0, 1], [1, 2]]), torch.ones(2))",
        ["index_put_ takes its positions as a tuple of tensors"],
        ["torch.gather("],
    ),
    "index_put_, a (row, column) pair per entry": (
        "torch.zeros(2, 3).index_put_(tuple(torch.tensor([[0, 1], [1, 2], [0, 0]])),"
        " torch.tensor(1.))",
        ["one index tensor per dim", "not one (row, column) pair per entry"],
        ["int16"],
    ),
    "index_put_, pairs the wrong way round": (
        "torch.zeros(2, 5).index_put_((torch.tensor([0, 4]), torch.tensor([1, 1])),"
        " torch.tensor(1.))",
        ["fits dim 1 (size 5)", "(row, column) pairs"],
        [],
    ),
    "subscript, pairs the wrong way round": (
        "torch.zeros(2, 5)[torch.tensor([0, 4]), torch.tensor([1, 1])]",
        ["past the end of dim 0 (size 2) but fits dim 1 (size 5)"],
        [],
    ),
    "subscript, int16 positions": (
        f"{X}[torch.tensor([0, 1], dtype=torch.int16)]",
        ["A subscript takes positions as int64 or int32", "int16, are refused"],
        ["read as masks: convert them"],
    ),
    "index_add_, a position past the slots": (
        f"{X}.index_add_(0, torch.tensor([0, -1]), torch.ones(2))",
        ["outside 0..2: index_add_ writes into a tensor whose dim 0 has size 3"],
        ["index_select and embedding"],
    ),
    "index_add_, source of another dtype": (
        f"{X}.index_add_(0, {I2}, torch.ones(2, dtype=torch.float64))",
        ["index_add_ adds source into the input without converting it"],
        ["is converted for you"],
    ),
    "index_add_, source on another device": (
        f"{X}.index_add_(0, {I2}, torch.ones(2, device='meta'))",
        ["different devices", "source meta", "before any kernel"],
        [],
    ),
    "index_add_, dim and index swapped": (
        f"{X}.index_add_({I2}, 0, torch.ones(2))",
        ["a tensor where its dim goes", "x.index_add_(dim, index, source"],
        ["torch.gather("],
    ),
    "scatter_add, torch_scatter's dim_size": (
        f"{X}.scatter_add(0, {I2}, torch.ones(2), dim_size=3)",
        ["no keyword dim_size: that is torch_scatter's"],
        [],
    ),
    "put_, one value for two positions": (
        f"{X}.put_({I2}, torch.ones(1))",
        ["never repeats source"],
        [],
    ),
    "gather, dim and index swapped": (
        f"torch.gather({X}, {I2}, 0)",
        ["gather got a tensor where its dim goes", "x.gather(dim, index)"],
        [],
    ),
    "gather, a list index": (
        f"torch.gather({X}, 0, [0, 1])",
        ["not Python lists"],
        [],
    ),
    "gather, a float index from torch.div": (
        f"{X}.gather(0, torch.div(torch.tensor([2, 4]), 2))",
        ["torch.gather got a float index from true division"],
        [],
    ),
    "subscript, a float index from /": (
        f"{X}[torch.tensor([2, 4]) / 2]",
        ["x[index] got a float index from true division"],
        [],
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_a_generated_error_is_explained_by_its_rule_and_argument(name: str) -> None:
    code, named, never = CASES[name]
    message, fix, template = first_step(code)
    assert template not in RAW, message
    for words in named:
        assert words in message, (words, message)
    for words in never:
        assert words not in f"{message}\n{fix}", (words, message, fix)


def test_a_float_index_not_made_by_a_division_is_not_blamed_on_one() -> None:
    message, _, template = first_step(
        "torch.zeros(3).gather(0, torch.div(torch.tensor([2, 4]), 2, "
        "rounding_mode='floor').float())"
    )
    assert template != "implement.raised_float_division"
    assert "division" not in message


def runs(code: str) -> bool:
    try:
        eval(code, {"torch": torch})  # a fact the messages state, tried on torch
    except (TypeError, RuntimeError, IndexError):
        return False
    return True


def test_the_facts_the_source_messages_state_hold_for_each_op() -> None:
    x, index = "torch.zeros(3)", "torch.tensor([0, 1])"
    # "takes no number": each op the table says so of refuses one
    for op, call in {
        "scatter_add_": f"{x}.scatter_add_(0, {index}, 1.0)",
        "scatter_reduce_": f"{x}.scatter_reduce_(0, {index}, 1.0, 'sum')",
        "index_add_": f"{x}.index_add_(0, {index}, 1.0)",
        "index_copy_": f"{x}.index_copy_(0, {index}, 1.0)",
        "put_": f"{x}.put_({index}, 1.0)",
        "index_put_": f"{x}.index_put_(({index},), 1.0)",
    }.items():
        assert not runs(call), op
    # "scatter and scatter_ take a plain number" (torch.scatter too); index_fill_ and
    # x[i] = v take one too
    assert runs(f"{x}.scatter_(0, {index}, 1.0)")
    assert runs(f"{x}.scatter(0, {index}, 1.0)")
    assert runs(f"torch.scatter({x}, 0, {index}, 1.0)")
    assert runs(f"{x}.index_fill(0, {index}, 1.0)")
    assert runs(f"{x}.index_fill_(0, {index}, 1.0)")
    assert runs(f"{x}.__setitem__({index}, 1.0)")
    # the fixes the messages give run
    assert runs(
        f"{x}.scatter_add_(0, {index}, torch.ones_like({index}, dtype=torch.float))"
    )
    assert runs(f"{x}.index_add_(0, {index}, torch.tensor(1.).expand(2))")
    assert runs(f"{x}.index_add_(0, {index}, torch.full((2,), 1.0))")
    assert runs(f"{x}.put_({index}, torch.full_like({index}, 1.0, dtype=torch.float))")
    assert runs(f"{x}.index_put_(({index},), torch.tensor(1.0))")
    pairs = "torch.tensor([[0, 1], [1, 2]])"
    assert runs(f"torch.zeros(2, 3).index_put_(tuple({pairs}.t()), torch.tensor(1.0))")
    # "a 0-d source fits only a one-entry index" (index_copy_); index_add_ takes none
    assert runs(f"{x}.index_copy_(0, torch.tensor([1]), torch.tensor(1.0))")
    assert not runs(f"{x}.index_add_(0, torch.tensor([1]), torch.tensor(1.0))")
    # "a uint8 tensor is read as a mask", int16 positions are refused
    assert runs("torch.zeros(3)[torch.tensor([1, 0, 1], dtype=torch.uint8)]")
    assert not runs("torch.zeros(3)[torch.tensor([1, 0], dtype=torch.int16)]")
    # put_ accepts -size..size-1
    assert runs(f"{x}.put_(torch.tensor([-3]), torch.ones(1))")


def test_a_keyword_of_another_library_is_named_as_theirs() -> None:
    # torch's ops have no dim_size (torch_scatter's) and no batch_dims (TensorFlow's):
    # each error says whose keyword it is (the calls raise, checked on torch)
    x, index = "torch.zeros(3)", "torch.tensor([0])"
    assert not runs(f"{x}.scatter_add(0, {index}, torch.ones(1), dim_size=3)")
    assert not runs(f"torch.gather({x}, 0, {index}, batch_dims=1)")
    said = explain("gather() got an unexpected keyword argument 'batch_dims'").meaning
    assert "that is TensorFlow's tf.gather" in said, said


def test_the_number_rule_is_said_of_no_op_that_takes_a_number() -> None:
    for op in ("scatter_", "index_fill_", "masked_fill_"):
        text = f"{op}(): argument 'src' (position 3) must be Tensor, not float"
        said = explain(text, op=op).meaning
        assert "takes no number" not in said, (op, said)


# the texts torch raises, with what the checker knows of the call that raised them
CALLS = [
    {
        "text": "Dimension specified as 0 but tensor has no dimensions",
        "shapes": {"input": [3], "index": [2], "src": []},
        "dim": 0,
        "op": "index_add_",
    },
    {"text": "Dimension specified as 0 but tensor has no dimensions"},
    {
        "text": "index out of range in self",
        "shapes": {"input": [3], "index": [2], "src": [2]},
        "dim": 0,
        "op": "index_add_",
    },
    {
        "text": "index 4 is out of bounds for dimension 0 with size 2",
        "shapes": {"input": [2, 5]},
    },
    {"text": "scatter_add_(): argument 'src' (position 3) must be Tensor, not int"},
    {"text": "index_add(): argument 'source' (position 4) must be Tensor, not float"},
    {"text": "put_(): argument 'source' (position 2) must be Tensor, not float"},
    {"text": "gather(): argument 'dim' (position 2) must be int, not Tensor"},
    {"text": 'scatter_reduce_() missing 1 required positional arguments: "reduce"'},
    {
        "text": "index_put_(): argument 'indices' (position 1) must be tuple of "
        "Tensors, not Tensor"
    },
    {
        "text": "out of range: tried to access index 7 on a tensor of 3 elements.",
        "op": "put_",
    },
    {
        "text": "index_add(): self, index and source expected to be in the same "
        "device, but got (self) cpu, (index) cpu, and (source) cuda:0"
    },
    {
        "text": "Outer dimensions of indices and update must match. Indices shape: "
        "[2,1], updates shape:[3] [Op:TensorScatterUpdate]"
    },
    # TensorFlow's rank check of updates against indices' depth, with the shape of the
    # indices of the call that raised (a flat pair, a flat position, a 2-D list of
    # coordinates) and without it (a pasted error)
    *(
        {
            "text": "Inner dimensions of output shape must match inner dimensions of "
            f"updates shape. Output: [{output}] updates: [{updates}] "
            "[Op:TensorScatterAdd]",
            "shapes": {"index": index} if index else None,
        }
        for output, updates, index in [
            ("3,4", "2,3", [2]),
            ("3,4", "1,4", [1]),
            ("3,4,5", "1", [1, 2]),
            ("3,4", "2,3", None),
        ]
    ),
    {"text": "data.shape = [3] does not start with segment_ids.shape = [2]"},
    {
        "text": "indices[0] = [4, 1] does not index into param shape [2,5], node "
        "name: GatherNd [Op:GatherNd]"
    },
    {"text": "scatter_add() got an unexpected keyword argument 'dim_size'"},
    {"text": "Got an unexpected keyword argument 'dim'"},
    {
        "text": "cannot compute TensorScatterUpdate as input #2(zero-based) was "
        "expected to be a float tensor but is a int32 tensor [Op:TensorScatterUpdate]"
    },
    {
        "text": "'tensorflow.python.framework.ops.EagerTensor' object does not support "
        "item assignment"
    },
]


def test_the_page_explains_each_call_as_python_does() -> None:
    script = (
        'import { explain } from "./gatherlab/browser/errors/explain.mjs";\n'
        'import { readFileSync } from "node:fs";\n'
        "const calls = JSON.parse(readFileSync(0, 'utf8'));\n"
        "console.log(JSON.stringify(calls.map((c) => explain(c.text, c))));\n"
    )
    page = node_module(script, CALLS)
    for call, theirs in zip(CALLS, page, strict=True):
        ours = explain(
            call["text"], call.get("shapes"), call.get("dim"), call.get("op")
        )
        assert ours.recognised, call["text"]
        assert ours.to_dict() == theirs, call["text"]


def test_every_prediction_that_it_raises_hears_why_it_runs() -> None:
    # a learner who predicts an error is told the rule the code keeps, never only
    # the shape it returns
    from gatherlab.exercises import EXERCISES
    from gatherlab.exercises.predict import Predict

    for name, exercise in EXERCISES.items():
        if not isinstance(exercise, Predict):
            continue
        result = check(name, "raises")
        if result.passed or result.status != "not yet":
            continue
        assert "It does not raise" in result.message, (name, result.message)
        assert "the code returns a value of shape" not in result.message, name


def test_a_scatter_index_smaller_than_its_output_is_said_to_break_no_rule() -> None:
    # the belief that the index must cover the output, on another op than the
    # collected one: scatter_add_ loops over the index's own entries too
    from gatherlab.exercises.predict import runs_because
    from gatherlab.exercises.verdict import render
    from gatherlab.exercises.writes import Write

    write = Write(
        "scatter_add",
        torch.zeros(3, 4),
        1,
        torch.tensor([[0, 3], [1, 2]]),
        torch.ones(2, 2),
        text="scatter_add_",
    )
    said = render(runs_because(None, torch.zeros(3, 4), write))
    assert said.startswith(
        "scatter_add_ loops over the entries of index, shape (2, 2), not over the "
        "output's (3, 4)"
    ), said


def test_tensorflow_updates_of_another_dtype_are_named_as_the_updates() -> None:
    tf = pytest.importorskip("tensorflow")
    try:
        tf.tensor_scatter_nd_update(tf.zeros(3), [[0], [1]], tf.ones(2, tf.int32))
    except tf.errors.InvalidArgumentError as error:
        said = explain(str(error))
    else:  # pragma: no cover - TensorFlow converts nothing
        raise AssertionError("TensorFlow converted the updates")
    assert said.meaning.startswith("TensorScatterUpdate got updates of dtype int32")
    assert "tf.stack" not in said.fix and "gather_nd" not in said.meaning


def test_a_tensorflow_coordinate_given_as_x_y_is_named_so() -> None:
    tf = pytest.importorskip("tensorflow")
    grid = tf.reshape(tf.range(10), (2, 5))
    try:
        tf.gather_nd(grid, [[4, 1]])  # (column, row): (1, 4) was meant
    except tf.errors.InvalidArgumentError as error:
        said = explain(str(error))
    else:  # pragma: no cover - the CPU kernel checks coordinates
        raise AssertionError("gather_nd read outside the grid")
    assert "but reversed, [1, 4], it fits" in said.meaning, said.meaning
    assert int(tf.gather_nd(grid, [[1, 4]])[0]) == 9  # the fix reads it


def test_a_torch_keyword_given_to_tensorflow_is_named_as_torch_s() -> None:
    tf = pytest.importorskip("tensorflow")
    try:
        tf.gather(tf.zeros(3), [0], dim=0)
    except TypeError as error:
        said = explain(str(error))
    else:  # pragma: no cover - TensorFlow takes axis
        raise AssertionError("tf.gather took dim")
    assert "that is torch's (TensorFlow's ops call it axis)" in said.meaning
    assert int(tf.gather(tf.constant([5, 6]), [1], axis=0)[0]) == 6  # axis is taken


def test_a_variable_and_a_variable_write_given_a_tensor_are_named() -> None:
    tf = pytest.importorskip("tensorflow")
    variable = tf.Variable([0.0, 0.0, 0.0])
    said = []

    def item_assignment() -> None:
        variable[1] = 3.0  # type: ignore[index]

    for write in (
        item_assignment,
        lambda: tf.compat.v1.scatter_nd_update(tf.zeros(3), [[1]], [2.0]),
    ):
        try:
            write()
        except (TypeError, AttributeError) as error:
            said.append(explain(str(error)))
    first, second = said
    assert first.meaning.startswith("A tf.Variable takes no item assignment either")
    assert second.meaning.startswith("This scatter (tf.compat.v1.scatter_nd_update")
    variable.scatter_nd_add([[1]], [2.0])  # the fixes they give run
    assert variable.numpy().tolist() == [0.0, 2.0, 0.0]
    written = tf.tensor_scatter_nd_update(tf.zeros(3), [[1]], [2.0])
    assert written.numpy().tolist() == [0.0, 2.0, 0.0]

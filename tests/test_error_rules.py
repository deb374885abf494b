"""The error table (gatherlab.error_rules, browser/errors/error_rules.mjs) recognises
every error text the book stores (the atlas's columns, the chapters' outputs) and every
distinct error torch and TensorFlow raise for tests/bad_calls.py's generated bad calls,
and the page's explain.mjs explains each one exactly as Python does."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from gatherlab import error_rules
from gatherlab.error_rules import closest, explain, table
from gatherlab.exercises.implement import explained_error
from gatherlab.rules import rules
from tests import bad_calls
from tests.test_page_cases import node_module

ROOT = Path(__file__).resolve().parent.parent
ATLAS = ROOT / "gatherlab" / "atlas.json"
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
# An error in a chapter's output: "TypeName: message" at the start of a line or after a
# label ("torch.gather: RuntimeError: ..."), TensorFlow's "on CPU:0" allowed.
ERROR_START = re.compile(
    r"(?:^|: )(?P<text>[A-Z]\w*(?:Error|Exception)(?: on [\w:]+)?: \S.*)$"
)


def atlas_messages() -> dict[str, str]:
    """Every stored error message of every atlas column -> where it was found."""
    found: dict[str, str] = {}

    def walk(node: object, where: str) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("message"), str) and node.get("error"):
                found.setdefault(f"{node['error']}: {node['message']}", where)
            for key, value in node.items():
                walk(value, f"{where} / {key}")

    columns = json.loads(ATLAS.read_text(encoding="utf-8"))["columns"]
    for column, outcomes in columns.items():
        walk(outcomes, column)
    return found


def _output_texts(notebook: Path) -> list[str]:
    texts = []
    for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]:
        for output in cell.get("outputs", []):
            if output["output_type"] == "error":
                texts.append(f"{output['ename']}: {output['evalue']}")
            elif "text" in output:
                texts.append("".join(output["text"]))
            elif "text/plain" in output.get("data", {}):
                texts.append("".join(output["data"]["text/plain"]))
    return texts


def chapter_messages() -> dict[str, str]:
    """Every error shown in a chapter's stored outputs, its wrapped lines joined: after
    a label the continuation lines are indented; an error that begins its line goes on
    until the next error or the end of the output."""
    found: dict[str, str] = {}
    for notebook in NOTEBOOKS:
        for text in _output_texts(notebook):
            current: list[str] | None = None
            bare = False
            for line in text.splitlines() + [""]:
                start = ERROR_START.search(line)
                if current and line and not start and (bare or line[0] == " "):
                    current.append(line.strip())
                    continue
                if current:
                    found.setdefault(" ".join(current), notebook.name)
                current = [start["text"]] if start else None
                bare = bool(start) and start.start() == 0
    return found


def _unrecognised(messages: dict[str, str]) -> list[tuple[str, str]]:
    return [
        (text, where)
        for text, where in messages.items()
        if not explain(text).recognised
    ]


def test_every_atlas_message_is_recognised() -> None:
    messages = atlas_messages()
    assert len(messages) > 100
    assert _unrecognised(messages) == []


def test_every_chapter_error_is_recognised() -> None:
    messages = chapter_messages()
    assert len(messages) > 40
    assert any(
        "Size does not match at dimension 0 expected index [3, 1]" in t
        for t in messages
    )
    assert _unrecognised(messages) == []


@pytest.mark.filterwarnings("ignore")
def test_every_error_of_the_generated_torch_calls_is_recognised() -> None:
    messages = bad_calls.messages(bad_calls.torch_calls())
    assert len(messages) > 80
    assert _unrecognised(messages) == []


@pytest.mark.filterwarnings("ignore")
def test_every_error_of_the_generated_tensorflow_calls_is_recognised() -> None:
    pytest.importorskip("tensorflow")
    messages = bad_calls.messages(bad_calls.tensorflow_calls())
    assert len(messages) > 30
    assert _unrecognised(messages) == []


def test_the_issue_examples_are_explained_for_their_shapes() -> None:
    out = explain("RuntimeError: index 3 is out of bounds for dimension 1 with size 3")
    assert (out.rule, out.checks, out.section["id"]) == (
        "position-out-of-range",
        "index-out-of-range",
        "past-end",
    )
    assert "last valid position is 2" in out.meaning
    negative = explain("index -1 is out of bounds for dimension 1 with size 3")
    assert negative.section["id"] == "negative" and "write 2" in negative.fix
    size = explain(
        "Size does not match at dimension 1 expected index [32, 1] to be no larger "
        "than self [32, 0] apart from dimension 0"
    )
    assert size.rule == "index-too-large"
    assert (
        "dim 1 (index 1, input 0)" in size.meaning
        and "Input dim 1 is empty" in size.meaning
    )


def test_shapes_dim_and_op_given_by_the_reader_fill_the_words() -> None:
    bare = explain(
        "RuntimeError: Index tensor must have the same number of dimensions as input"
        " tensor"
    )
    given = explain(
        "RuntimeError: Index tensor must have the same number of dimensions as input"
        " tensor",
        shapes={"input": (4, 5), "index": (4,)},
        dim=1,
        op="gather",
    )
    assert "input has 2 dims and the index 1" in given.meaning
    assert given.meaning != bare.meaning
    tf = explain(
        "indices[0] = [0, 3] does not index into shape [2,3] [Op:TensorScatterAdd]"
    )
    assert (
        tf.fields["op"] == "tf.tensor_scatter_nd_add"
        and tf.section["id"] == "scatter-tf"
    )


def test_cuda_texts_and_wrapped_messages_are_recognised() -> None:
    traceback = (
        "../aten/src/ATen/native/cuda/ScatterGatherKernel.cu:367: operator(): block: "
        "[0,0,0], thread: [1,0,0] Assertion `idx_dim >= 0 && idx_dim < index_size && "
        '"index out of bounds"` failed.\n'
        "torch.AcceleratorError: CUDA error: device-side assert triggered\n"
        "CUDA kernel errors might be asynchronously reported at some other API call"
    )
    out = explain(traceback)
    assert out.rule == "cuda-device-assert" and "idx_dim >= 0" in out.meaning
    assert explain("RuntimeError: CUDA error: device-side assert triggered").rule == (
        "cuda-device-assert"
    )
    wrapped = explain(
        "RuntimeError: index 3 is out\n    of bounds for dimension 1\nwith size 3"
    )
    assert wrapped.rule == "position-out-of-range"


def test_unknown_text_is_not_recognised_and_names_only_the_closest_rule() -> None:
    unknown = explain("ValueError: the index dimension looks odd today")
    assert not unknown.recognised and unknown.meaning == "" and unknown.fix == ""
    assert unknown.closest is not None and unknown.closest_title
    assert closest("nothing in common here at all").closest is None
    assert closest("nothing in common here at all").recognised is False


def test_the_table_is_well_formed() -> None:
    ids = [rule["id"] for rule in table()["rules"]]
    assert len(ids) == len(set(ids))
    known = set(rules()["rules"])
    for rule in table()["rules"]:
        assert rule["checks"] is None or rule["checks"] in known, rule["id"]
        assert rule["patterns"] and rule["meaning"] and rule["fix"] and rule["section"]
        assert rule["keywords"] == sorted(
            set(rule["keywords"]), key=rule["keywords"].index
        )
        for option in rule["section"]:
            assert option["id"] in table()["sections"], rule["id"]


@pytest.mark.parametrize("section_id", sorted(table()["sections"]))
def test_every_section_is_a_heading_of_its_chapter(section_id: str) -> None:
    link = error_rules.section_link(section_id)
    notebook = ROOT / f"{link['page']}.ipynb"
    headings = [
        line.lstrip("#").strip()
        for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        if cell["cell_type"] == "markdown"
        for line in "".join(cell["source"]).splitlines()
        if line.startswith("#")
    ]
    assert link["title"] in headings
    # the link's anchor is the heading's id: no other heading of the chapter may take
    # it, or Sphinx gives this one "-1" and the link lands on the other
    ids = [error_rules.anchor(heading) for heading in headings]
    assert ids.count(link["href"].split("#")[1]) == 1


def test_the_page_explains_every_message_as_python_does() -> None:
    texts = sorted({*atlas_messages(), *chapter_messages()})
    texts += ["ValueError: the index dimension looks odd", "nothing in common"]
    calls = [{"text": text} for text in texts] + [
        {
            "text": "Index tensor must have the same number of dimensions as input",
            "shapes": {"input": [4, 5], "index": [4]},
            "dim": 1,
            "op": "gather",
        },
        {
            "text": "gather(): Expected dtype int32/int64 for index",
            "shapes": {"index": [2]},
        },
        {
            "text": "index 7 is out of bounds for dimension 0 with size 7",
            "dim": -1,
            "shapes": {"input": [7, 2], "index": [9, 2]},
        },
        *({"text": text, "op": op} for text, op in OP_OF_THE_CALL),
        {  # flat positions into params never reshaped (explained_error's params)
            "text": "indices[0,0] = 2 is not in [0, 2) [Op:GatherV2]",
            "shapes": {"params": [2, 3, 2]},
        },
    ]
    script = (
        'import { explain } from "./gatherlab/browser/errors/explain.mjs";\n'
        'import { readFileSync } from "node:fs";\n'
        "const calls = JSON.parse(readFileSync(0, 'utf8'));\n"
        "console.log(JSON.stringify(calls.map((c) => explain(c.text, c))));\n"
    )
    page = node_module(script, calls)
    python = [
        explain(c["text"], c.get("shapes"), c.get("dim"), c.get("op")).to_dict()
        for c in calls
    ]
    assert len(page) == len(python)
    for call, ours, theirs in zip(calls, python, page, strict=True):
        assert ours == theirs, call["text"]


# Errors that more than one kind of call raises: an elementwise op and take_along_dim
# (sizes that do not broadcast), view() and take_along_dim without dim (no flat view),
# and the texts of Python's own ZeroDivisionError and torch's take_along_dim's.
OP_OF_THE_CALL = [
    (
        SIZES := "The size of tensor a (4) must match the size of tensor b (3) at "
        "non-singleton dimension 0",
        None,
    ),
    (SIZES, "take_along_dim"),
    (
        VIEW := "view size is not compatible with input tensor's size and stride (at "
        "least one dimension spans across two contiguous subspaces). Use .reshape(...) "
        "instead.",
        None,
    ),
    (VIEW, "torch.take_along_dim"),
    ("Incompatible shapes: [4] vs. [3] [Op:RealDiv]", None),
    ("RuntimeError: ZeroDivisionError", None),
    ("ZeroDivisionError: integer division or modulo by zero", None),
    # coordinates stacked along the index's first axis, into a read and a write
    (
        DEEP_READ
        := "index innermost dimension length must be <= params rank; saw: 5 vs. 3",
        None,
    ),
    (
        DEEP_WRITE
        := "Dimensions [5,2) of input[shape=[2,3]] must match dimensions [2,2) of "
        "updates[shape=[2,2]] [Op:ScatterNd]",
        None,
    ),
    (
        "Dimensions [1,2) of input[shape=[2,3]] must match dimensions [1,2) of "
        "updates[shape=[4,2]] [Op:ScatterNd]",
        None,
    ),
]


def test_an_ops_rule_is_said_only_for_the_call_that_raised() -> None:
    """The words of an error many calls raise name an op's rule only where that op
    is the call that raised (an elementwise sums / sizes is no take_along_dim)."""
    import torch

    for text, op in OP_OF_THE_CALL[:4]:
        found = explain(text, op=op)
        words = found.meaning + " " + found.fix
        assert found.recognised, text
        assert ("take_along_dim" in words) == (op is not None), (text, op, words)
    # the facts: both calls raise both texts, in torch itself
    sums, sizes = torch.zeros(4), torch.bincount(torch.tensor([0, 2, 0, 2]))
    with pytest.raises(RuntimeError, match=re.escape(SIZES)):
        sums / sizes
    with pytest.raises(RuntimeError, match=re.escape(SIZES)):
        torch.take_along_dim(torch.zeros(4, 3), torch.zeros(3, 2, dtype=torch.long), 1)
    transposed = torch.zeros(3, 4).T
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        transposed.view(-1)
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        torch.take_along_dim(transposed, torch.zeros(3, dtype=torch.long))
    # an elementwise op's error says what broadcasting needs and where a short size
    # comes from, in the learner's library's words
    elementwise = explain(SIZES)
    assert "elementwise op" in elementwise.meaning
    assert "torch.bincount without minlength" in elementwise.fix
    tf_words = explain(OP_OF_THE_CALL[4][0])
    assert "tf.math.bincount without minlength" in tf_words.fix
    assert "torch." not in tf_words.meaning + tf_words.fix
    # torch's take_along_dim raises RuntimeError("ZeroDivisionError") on an empty
    # input; Python's own ZeroDivisionError is no empty input
    assert explain(OP_OF_THE_CALL[5][0]).rule == "empty-input"
    assert explain(OP_OF_THE_CALL[6][0]).rule != "empty-input"
    with pytest.raises(RuntimeError, match="^ZeroDivisionError$"):
        torch.take_along_dim(torch.zeros(0, 3), torch.zeros(1, 3, dtype=torch.long), 0)


def test_coordinates_on_the_first_axis_are_told_the_last_axis_in_reads_and_writes():
    """tf.gather_nd and tf.scatter_nd read each coordinate along the index's last
    axis: coordinates stacked with axis=0 (tf.stack's default) raise where a
    coordinate gets more entries than there are axes, and the words say so."""
    tf = pytest.importorskip("tensorflow")
    import numpy as np

    rows = np.array([[0, 0, 0, 0, 0], [1, 1, 1, 1, 1]])
    positions = np.array([[0, 1, 2, 0, 1], [2, 2, 1, 0, 0]])
    first_axis = tf.stack([rows, positions])  # axis=0: shape (2, 2, 5)
    assert first_axis.shape == (2, 2, 5)
    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(DEEP_READ)):
        tf.gather_nd(tf.zeros((2, 3, 4)), first_axis)
    with pytest.raises(
        tf.errors.InvalidArgumentError, match=re.escape(DEEP_WRITE[:40])
    ):
        tf.scatter_nd(first_axis, tf.ones((2, 2)), [2, 3])
    read, write = explain(DEEP_READ), explain(DEEP_WRITE)
    assert write.rule == "tf-scatter-depth"
    for found in (read, write):
        assert "axis=-1" in found.fix and "tf.stack's default" in found.fix
    assert "reads each coordinate along the last axis of indices" in write.meaning
    assert "5 entries per coordinate" in write.meaning
    # the same text with as many entries as axes or fewer is about the updates
    slices = explain(OP_OF_THE_CALL[9][0])
    assert slices.rule == "tf-scatter-depth"
    assert "updates (4, 2)" in slices.meaning and "axis=-1" not in slices.fix
    with pytest.raises(tf.errors.InvalidArgumentError, match="Dimensions \\[1,2\\)"):
        tf.scatter_nd([[0], [1], [1], [0]], tf.ones((4, 2)), [2, 3])


@pytest.mark.filterwarnings("ignore")
def test_tensorflow_axis_and_segment_errors_get_their_rule_not_the_raw_text() -> None:
    tf = pytest.importorskip("tensorflow")
    values, x = tf.constant([1.0, 2.0, 3.0]), tf.reshape(tf.range(6.0), (2, 3))

    def raised(thunk: Any) -> BaseException:
        with pytest.raises(Exception) as caught:
            thunk()
        return caught.value

    several = raised(lambda: tf.gather(x, [[0, 1]], axis=[0, 1]))
    out = explain(f"InvalidArgumentError: {several}")
    assert out.rule == "tf-axis-not-scalar" and "one axis, an integer" in out.meaning
    assert "batch_dims=1" in out.fix and "tf.gather_nd" in out.fix
    for name in ("sum", "mean", "max"):
        segment = getattr(tf.math, f"segment_{name}")
        error = raised(lambda s=segment: s(values, tf.constant([1, 0, 1])))
        found = explained_error(error, "answer")
        assert found is not None and "sorted" in found["meaning"], name
        assert f"tf.math.segment_{name} needs" in found["meaning"]
        assert f"tf.math.unsorted_segment_{name}(data" in found["fix"]
    negative = explain(
        str(raised(lambda: tf.math.segment_sum(values, tf.constant([-1, -1, 0]))))
    )
    assert negative.rule == "tf-segment-unsorted"
    assert "never negative" in negative.meaning
    cube = tf.reshape(tf.range(24.0), (2, 3, 4))
    mask = tf.constant([True, False, True])
    shapes = explain(f"ValueError: {raised(lambda: tf.boolean_mask(cube, mask))}")
    assert shapes.rule == "tf-shapes-incompatible" and "(2,) and (3,)" in shapes.meaning
    assert tf.boolean_mask(cube, mask, axis=1).shape == (2, 2, 4)  # the fix's axis=
    # the unsorted variant the fix names takes ids in any order and a count
    means = tf.math.unsorted_segment_mean(values, tf.constant([1, 0, 1]), 3)
    assert means.numpy().tolist() == [2.0, 2.0, 0.0]
    # and drops a negative id, as the meaning says
    dropped = tf.math.unsorted_segment_sum(values, tf.constant([-1, 0, 0]), 2)
    assert dropped.numpy().tolist() == [5.0, 0.0]


@pytest.mark.filterwarnings("ignore")
def test_flat_positions_into_params_never_reshaped_are_told_so() -> None:
    tf = pytest.importorskip("tensorflow")
    from gatherlab.exercises import check

    def flat(features: Any, positions: Any) -> Any:
        steps = features.shape[1]
        rows = tf.range(tf.shape(positions)[0], dtype=positions.dtype)[:, None]
        return tf.gather(features, positions + rows * steps)

    text = check("02.tf_select_steps", flat).words
    first, fix = text.split("\n")
    assert "tf.gather reads axis 0 of params as it is" in first
    assert "flattened over its first two axes" in first
    assert "tf.reshape(params, [-1, ...])" in fix and "batch_dims=1" in fix

    def reshaped(features: Any, positions: Any) -> Any:  # the fix, followed
        steps, depth = features.shape[1], features.shape[2]
        rows = tf.range(tf.shape(positions)[0], dtype=positions.dtype)[:, None]
        return tf.gather(tf.reshape(features, [-1, depth]), positions + rows * steps)

    assert check("02.tf_select_steps", reshaped).passed
    # past the end of a flattened params too, or with no params known: no such claim
    beyond = explain(
        "indices[0] = 9 is not in [0, 2) [Op:GatherV2]", {"params": [2, 3]}
    )
    assert beyond.rule == "tf-position-out-of-range"
    assert "flattened" not in beyond.meaning
    assert "flattened" not in explain("indices[0] = 2 is not in [0, 2)").meaning

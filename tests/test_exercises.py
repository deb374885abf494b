"""The exercise framework: every registered exercise passes its solution, rejects the
generic wrong answers of its kind with a message, and never raises."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
import torch

import gatherlab as gl
from gatherlab.exercises import (
    EXERCISES,
    Call,
    Choose,
    Fix,
    Implement,
    Predict,
    PredictRaises,
    cases,
)
from gatherlab.exercises.compare import shape_advice
from gatherlab.exercises.feedback import describe
from gatherlab.exercises.page import fix_names
from gatherlab.exercises.registry import Registry
from gatherlab.exercises.result import FAILED, NOT_ATTEMPTED, PASSED
from gatherlab.exercises.verdict import PLACEHOLDER, messages, phrase
from gatherlab.rules import fill

IDS = list(EXERCISES)
REQUIRED_WRONG = {
    Implement: {
        "hard-coded visible output",
        "transposed result",
        "off-by-one index",
        "extra dim",
        "raises",
    },
    Predict: {"off by one", "extra dim"},
    PredictRaises: {"none", "None"},
    Choose: {"None", "two labels"},
    Fix: {"the broken call unchanged", "None"},
}
WRONG = [
    pytest.param(exercise_id, name, id=f"{exercise_id}-{name}")
    for exercise_id in IDS
    for name in EXERCISES[exercise_id].wrong_answers()
]


def stub(*args):
    raise NotImplementedError


def assert_short_message(result: gl.exercises.Result) -> None:
    text = str(result)
    assert result.words.strip()
    assert "Traceback" not in text and 'File "' not in text
    # the first step, and the fix shown on request, each short (several calls of a
    # raises exercise misjudged: each named in the first step, its rule in the fix)
    assert len(result.message) < 400 and len(result.fix) < 400, result.words
    assert text == str(result) and result._repr_html_() == result._repr_html_()


# ---------------------------------------------------------------- every exercise


def test_the_registry_finds_the_chapter_modules():
    assert "01.pick_columns" in EXERCISES
    for exercise_id, exercise in EXERCISES.items():
        assert exercise.id == exercise_id
        assert exercise.module == f"gatherlab.exercises.ch{exercise_id[:2]}"
        assert exercise.chapter == int(exercise_id[:2])
        assert exercise.kind in ("implement", "predict", "fix", "choose")
        assert exercise.title


@pytest.mark.parametrize("exercise_id", IDS)
def test_the_solution_passes(exercise_id):
    exercise = EXERCISES[exercise_id]
    result = gl.exercises.check(exercise_id, exercise.reference_answer)
    assert result.passed, str(result)
    assert result.status == PASSED
    assert_short_message(result)


@pytest.mark.parametrize("exercise_id", IDS)
def test_show_solution_shows_the_source_and_the_pass(exercise_id):
    view = gl.exercises.show_solution(exercise_id)
    assert view.result.passed
    exercise = EXERCISES[exercise_id]
    answer_line = {
        Fix: "fixed_index = ",
        Predict: "prediction = ",
        PredictRaises: "raising = ",
        Choose: "choice = ",
    }.get(type(exercise))
    if answer_line:  # ends with the line the learner writes in the notebook
        last = [line for line in view.source.splitlines() if line[:1] not in " ]"]
        assert last[-1].startswith(answer_line), view.source
    else:
        assert "def " in view.source
    if isinstance(exercise, PredictRaises):
        assert "raises" in view.source and "runs" in view.source
    assert str(view).endswith(str(view.result))
    assert "<pre><code>" in view._repr_html_()


@pytest.mark.parametrize("exercise_id", IDS)
def test_each_kind_builds_its_required_wrong_answers(exercise_id):
    exercise = EXERCISES[exercise_id]
    names = set(exercise.wrong_answers())
    required = set(REQUIRED_WRONG[type(exercise)])
    call = exercise.call if isinstance(exercise, Implement) else None
    if call is not None and call.dim is not None:
        required.add("wrong dim")  # take, and writing ops without a gather, have none
    if isinstance(exercise, Implement) and exercise.convert is None:
        required.add("modifies its input")  # converted arguments are copies
    if isinstance(exercise, Fix) and exercise.part == "index":
        required |= {"transposed index", "off-by-one index", "extra dim"}
    assert required <= names, required - names


@pytest.mark.parametrize(("exercise_id", "name"), WRONG)
def test_a_wrong_answer_fails_with_a_message(exercise_id, name):
    exercise = EXERCISES[exercise_id]
    result = exercise.check(exercise.wrong_answers()[name])
    assert not result.passed
    assert result.status == FAILED, str(result)
    assert "could not be checked" not in result.words
    assert_short_message(result)


@pytest.mark.parametrize("exercise_id", IDS)
def test_a_stub_is_not_attempted_yet(exercise_id):
    exercise = EXERCISES[exercise_id]
    answers = [...] + ([stub] if exercise.kind == "implement" else [])
    for answer in answers:
        result = exercise.check(answer)
        assert result.status == NOT_ATTEMPTED
        assert not result.passed
        assert "not attempted yet" in str(result)


def _odd_functions():
    return [
        lambda *args: object(),
        lambda *args: torch.zeros(2, 2, device="meta"),
        lambda *args: torch.tensor(3),
        lambda *args: torch.tensor([[True]]),
        lambda *args: torch.full((2, 2), float("nan")),
        lambda *args: torch.zeros(2, 2, dtype=torch.complex64),
        lambda *args: (x for x in args),
        lambda: 0,  # wrong number of arguments: TypeError
        lambda *args: [[1, 2], [3]],
        lambda *args: [arg * 0 for arg in args],
        lambda *args: exit(3),
    ]


ODD_VALUES = [
    None,
    [],
    [[1]],
    "B",
    3.5,
    object(),
    np.zeros((2, 2)),
    torch.zeros(0),
    torch.zeros(2, 2, device="meta"),
    [[1, 2], [3]],
    {"index": 1},
    torch.tensor([[0.5]], requires_grad=True),
]


@pytest.mark.parametrize("exercise_id", IDS)
def test_odd_answers_never_raise(exercise_id):
    exercise = EXERCISES[exercise_id]
    for answer in ODD_VALUES + _odd_functions():
        result = exercise.check(answer)
        assert isinstance(result, gl.exercises.Result)
        assert not result.passed, (answer, str(result))
        assert_short_message(result)


@pytest.mark.parametrize("exercise_id", IDS)
def test_a_learner_keeps_failing_the_same_way(exercise_id):
    """Checks keep no state between calls: the same wrong answer, the same message."""
    exercise = EXERCISES[exercise_id]
    for answer in exercise.wrong_answers().values():
        assert str(exercise.check(answer)) == str(exercise.check(answer))
    assert exercise.check(exercise.reference_answer).passed


@pytest.mark.parametrize(
    "exercise_id", [i for i in IDS if EXERCISES[i].kind == "implement"]
)
def test_hidden_cases_are_many_varied_and_seeded(exercise_id):
    exercise = EXERCISES[exercise_id]
    assert exercise.hidden >= 50 and len(exercise.cases) == exercise.hidden + 1
    shapes = {
        tuple(tuple(v.shape) for v in args.values() if hasattr(v, "shape"))
        for args, _ in exercise.cases
    }
    assert len(shapes) > 5
    again = Implement(
        exercise.id,
        exercise.title,
        solution=exercise.solution,
        example=exercise.example,
        generate=exercise.generate,
        convert=exercise.convert,
    )
    for (args, _), (same, _) in zip(exercise.cases, again.cases, strict=True):
        for name, value in args.items():
            assert torch.equal(torch.as_tensor(value), torch.as_tensor(same[name]))


# ---------------------------------------------------------------- messages

X = torch.tensor([[10, 11, 12], [20, 21, 22]])
INDEX = torch.tensor([[2, 0], [2, 1]])


def _select_columns(x, index):
    return torch.gather(x, 1, index)


def _small_cases(rng):
    rows, width = cases.shape(rng, 2)
    return {
        "x": cases.values(rng, (rows, width)),
        "index": cases.positions(rng, width, (rows, 2)),
    }


SELECT = Implement(
    "99.select",
    "select",
    solution=_select_columns,
    example={"x": X, "index": INDEX},
    generate=_small_cases,
    call=Call("gather", "x", 1, "index"),
)


def test_a_wrong_value_names_the_coordinate_expected_value_and_trace():
    def wrong(x, index):
        out = torch.gather(x, 1, index)
        out[1, 0] = 21
        return out

    result = SELECT.check(wrong)
    # 21 is what the function wrote, not what its gather read: no entry is named.
    # the rule of the op first (oprules), then the entry's trace on request
    assert result.words == (
        "On the visible example, out[1, 0] should be 22, but your function returned "
        "21: gather along dim 1 reads out[i, j] = x[i, index[i, j]].\n"
        "out[1, 0] reads x[1, 2] = 22 because index[1, 0] = 2."
    )
    assert result.verdict.template == "implement.wrong_value_reads_rule"
    assert result.verdict.misconception is None
    assert result.details == (
        "x = [[10, 11, 12], [20, 21, 22]]",
        "index = [[2, 0], [2, 1]]",
    )


def test_hard_coding_the_visible_answer_fails_on_a_hidden_case():
    answer = SELECT.solution(X, INDEX)
    result = SELECT.check(lambda x, index: answer.clone())
    assert not result.passed
    assert result.words.startswith("On hidden case ")


def advice(expected: tuple[int, ...], got: tuple[int, ...]) -> str:
    """shape_advice's words."""
    template, fields = shape_advice(expected, got)
    return fill(messages()[template], fields)


def test_a_missing_axis_names_the_dim_and_the_unsqueeze():
    result = SELECT.check(lambda x, index: torch.gather(x, 1, index).reshape(-1))
    assert result.verdict.misconception == "flattened"
    assert "flattened to shape (4,)" in result.words
    assert "gather returns the index's shape, (2, 2)" in result.message
    assert (
        advice((2, 1), (2,)) == "dim 1 (size 1) is missing\nAdd it with .unsqueeze(1)."
    )
    assert advice((2, 3, 4), (2, 3)) == (
        "dim 2 (size 4) is missing\nAdd it with .unsqueeze(2).expand(-1, -1, 4)."
    )
    assert advice((2, 3, 4), (2, 3, 1)) == (
        "dim 2 has size 1 but should have size 4\nExpand it with .expand(-1, -1, 4)."
    )
    assert (
        advice((2, 3), (1, 2, 3))
        == "dim 0 (size 1) is extra\nRemove it with .squeeze(0)."
    )
    assert (
        advice((2, 3), (3, 2)) == "the last two dims are swapped (a transposed result?)"
    )
    assert advice((2, 1), (1, 2)) == (
        "your index is one row of 2 positions (unsqueeze(0))\nOne position per row "
        "needs shape (2, 1): unsqueeze(1)."
    )
    assert advice((2,), (2, 2)) == "it has 2 dims but should have 1 dim"
    assert advice((2, 3), (2, 4)) == "dim 1 has size 4 but should have size 3"


def test_a_raising_function_is_reported_by_type_and_first_line():
    def broken(x, index):
        return torch.gather(x, 0, index)

    result = SELECT.check(broken)
    # Its error on the visible example is the one gather along dim 0 raises there, and
    # hidden case 1 returns what dim 0 gives: the misconception, worded on that case.
    assert result.verdict.misconception == "other-dim"
    assert result.message.startswith(
        "On the visible example, your function raised an error. On hidden case 1 of 50"
    )
    assert result.message.endswith(
        "your result is what the same positions give along dim 0, but the positions in "
        "index count "
        "along dim 1 (a column in each row)."
    )
    assert result.fix == "Use dim=1."

    def unexplained(x, index):
        raise RuntimeError("index 2 is out of bounds")

    raised = SELECT.check(unexplained)
    assert raised.words == (
        "On the visible example, your function raised RuntimeError: index 2 is out of "
        "bounds."
    )


def test_changing_an_input_in_place_is_caught():
    def sneaky(x, index):
        index[0, 0] = 1
        return torch.gather(x, 1, torch.tensor([[2, 0], [2, 1]]))

    result = SELECT.check(sneaky)
    assert "changed its input index[0, 0] in place" in result.words
    assert torch.equal(
        INDEX, torch.tensor([[2, 0], [2, 1]])
    )  # the stored case is intact


def test_wrong_type_dtype_and_device_are_named():
    assert (
        "is a list, but it should be a torch.Tensor"
        in SELECT.check(lambda x, index: torch.gather(x, 1, index).tolist()).words
    )
    assert (
        "is a NumPy array"
        in SELECT.check(lambda x, index: torch.gather(x, 1, index).numpy()).words
    )
    assert (
        "has dtype int32, not int64: your final `.int()` converts it to int32"
        in SELECT.check(lambda x, index: torch.gather(x, 1, index).int()).words
    )
    assert (
        "is on meta, but it should be on cpu"
        in SELECT.check(lambda x, index: torch.gather(x, 1, index).to("meta")).words
    )


def test_tensorflow_and_torch_answers_are_told_apart():
    tf = pytest.importorskip("tensorflow")
    result = SELECT.check(
        lambda x, index: tf.constant(torch.gather(x, 1, index).numpy())
    )
    assert "is a TensorFlow tensor, but it should be a torch.Tensor" in result.words
    tf_exercise = Implement(
        "99.tf_gather",
        "tf",
        solution=lambda params, indices: tf.gather(
            params, indices, axis=1, batch_dims=1
        ),
        example={
            "params": tf.constant(X.numpy()),
            "indices": tf.constant(INDEX.numpy()),
        },
        generate=lambda rng: {
            "params": tf.constant(cases.values(rng, (2, 3)).numpy()),
            "indices": tf.constant(cases.positions(rng, 3, (2, 2)).numpy()),
        },
        hidden=5,
    )
    assert tf_exercise.check(tf_exercise.solution).passed
    result = tf_exercise.check(
        lambda p, i: torch.gather(torch.tensor(p.numpy()), 1, torch.tensor(i.numpy()))
    )
    assert "is a torch.Tensor, but it should be a TensorFlow tensor" in result.words
    result = tf_exercise.check(
        lambda p, i: tf.cast(tf_exercise.solution(p, i), tf.int32)
    )
    # a final tf.cast of the learner's made that dtype: it is named (argreads)
    assert "has dtype int32, not int64: your last tf.cast made int32" in result.words


def test_a_wrong_prediction_shows_the_trace_of_the_first_wrong_coordinate():
    rows = torch.tensor([[1, 0, 1], [0, 1, 0]])
    exercise = Predict(
        "99.rows",
        "rows",
        code=lambda: torch.gather(X, 0, rows),
        explain=Call("gather", X, 0, rows, index_name="rows"),
    )
    assert exercise.check([[20, 11, 22], [10, 21, 12]]).passed
    assert exercise.check(np.array([[20, 11, 22], [10, 21, 12]])).passed
    result = exercise.check([[20, 11, 22], [10, 11, 12]])
    # A typed 11 read nothing: the entry it equals is not named as if it were read.
    assert result.words == (
        "out[1, 1] should be 21, but you wrote 11: gather along dim 0 reads "
        "out[i, j] = x[rows[i, j], j].\n"
        "out[1, 1] reads x[1, 1] = 21 because rows[1, 1] = 1."
    )
    assert result.details == ()  # the page shows the same words, and nothing else


def test_a_wrong_gradient_names_the_outputs_that_read_the_position():
    source = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    index = torch.tensor([[2, 2, 0], [1, 1, 1]])
    weights = torch.tensor([[1.0, 2.0, 4.0], [1.0, 3.0, 5.0]])

    def gradient():
        source.grad = None
        (torch.gather(source, 1, index) * weights).sum().backward()
        return source.grad

    exercise = Predict(
        "99.grad",
        "grad",
        code=gradient,
        explain=Call("gather", source, 1, index),
        gradient=True,
        grad_output=weights,
    )
    assert exercise.check([[4, 0, 3], [0, 9, 0]]).passed
    assert exercise.check([[4, 0, 2], [0, 9, 0]]).words == (
        "x.grad[0, 2] should be 3 because out[0, 0] (upstream 1) and out[0, 1] "
        "(upstream 2) read x[0, 2], but you wrote 2."
    )
    assert exercise.check([[4, 1, 3], [0, 9, 0]]).words == (
        "x.grad[0, 1] should be 0 because no output position reads x[0, 1], but you "
        "wrote 1."
    )


def test_which_call_raises_quotes_the_diagnosis():
    exercise = PredictRaises(
        "99.raises",
        "raises",
        calls={
            "A": Call("gather", X, 1, torch.tensor([[2, 0], [1, 1]])),
            "B": Call("gather", X, 1, torch.tensor([[0, 3], [1, 2]])),
            "C": Call("gather", X, 1, torch.tensor([0, 1])),
        },
    )
    assert exercise.solution == ("B", "C")
    assert exercise.check(["C", "B"]).passed
    assert exercise.check(["B"]).words == (
        "C raises: index has 1 dims but input has 2: gather reads one element per "
        "index entry, not a whole slice, so gather needs the same number of dims and "
        "never adds or broadcasts axes."
    )
    assert exercise.check(["A", "B", "C"]).words == (
        "A runs: the index may be shorter along dim.\nA runs: torch.gather(x, 1, "
        "index) returns shape (2, 2), the shape of its index, which need not have the "
        "shape of x, (2, 3). Along dim 1 the index may hold any number of positions, "
        "and on every other dim d it may be smaller than x: the rule is "
        "index.size(d) <= input.size(d), not equal sizes."
    )
    # both raising calls missed besides: each named with the rule it breaks
    assert exercise.check(["A"]).message == (
        "A runs: the index may be shorter along dim. B and C raise: positions 0..2 "
        "only, never clamped (B); gather reads one element per index entry, not a "
        "whole slice, so gather needs the same number of dims and never adds or "
        "broadcasts axes (C)."
    )
    assert "There is no call 'D'" in exercise.check("D").message
    assert exercise.check(3).status == FAILED


def test_a_fix_reports_what_is_still_wrong():
    exercise = Fix(
        "99.fix",
        "fix",
        broken=Call("gather", X, 0, torch.tensor([[2, 0], [1, 1]])),
        solution=lambda x, index: 1,
        part="dim",
    )
    assert exercise.check(1).passed
    assert exercise.check(0).words == (
        "Still broken: your call is what the same positions give along dim 0, but "
        "the positions in index count along dim 1 (a column in each row).\nUse dim=1."
    )
    assert exercise.check("1").message == "Your answer is a str; a dim is an int."
    assert exercise.check(np.int64(1)).passed
    assert not exercise.check(True).passed


def test_a_fix_that_runs_but_reads_wrong_values_shows_both_traces():
    exercise = Fix(
        "99.fix_axis",
        "fix",
        broken=Call("gather", X, 1, torch.tensor([2, 1]), index_name="wanted"),
        solution=lambda x, wanted: wanted.unsqueeze(1),
    )
    assert exercise.check(torch.tensor([[2], [1]])).passed
    result = exercise.check(torch.tensor([[2], [2]]))
    # Reworded (review A2.6): one name no longer stands for two different indexes.
    assert result.words == (
        "The call runs now, but out[1, 0] should be 21, not 22: gather along dim 1 "
        "reads out[i, j] = x[i, fixed_index[i, j]].\n"
        "out[1, 0] should read x[1, 1] = 21 because fixed_index[1, 0] = 1; your "
        "call reads x[1, 2] = 22."
    )
    # the broken index as it was (.T of it alike): a 1-D tensor stays 1-D
    assert exercise.check(torch.tensor([2, 1])).words == (
        "Still broken: your index is wanted as it was, shape (2,) (.T and .t() leave "
        "a 1-D tensor as it is): index has 1 dims but input has 2: gather reads one "
        "element per index entry, not a whole slice, so gather needs the same number "
        "of dims and never adds or broadcasts axes.\nTo fix it, add the missing axis "
        "with unsqueeze, then expand it if every row needs it."
    )
    assert exercise.check(torch.tensor([1, 2])).words == (
        "Still broken: index has 1 dims but input has 2: gather reads one element per "
        "index entry, not a whole slice, so gather needs the same number of dims and "
        "never adds or broadcasts axes (add the missing axis with unsqueeze, then "
        "expand it if every row needs it)."
    )


# ---------------------------------------------------------------- registry and display


def test_an_unknown_id_fails_with_a_suggestion():
    result = gl.exercises.check("01.pick_column", None)
    assert not result.passed
    assert result.words == (
        "There is no exercise '01.pick_column': did you mean '01.pick_columns'? "
        "(gl.exercises.EXERCISES lists them)."
    )
    assert not gl.exercises.show_solution("01.nope").passed
    assert not gl.exercises.check(["01.pick_columns"], None).passed


def test_the_registry_rejects_bad_and_duplicate_ids():
    registry = Registry("gatherlab.exercises")
    registry._loaded = True  # an empty registry that does not import the chapters

    def made(exercise_id: str, title: str) -> Implement:
        return replace(SELECT, id=exercise_id, title=title)

    registry.add(made("01.one", "one"), "gatherlab.exercises.ch01")
    registry.add(made("01.one", "one again"), "gatherlab.exercises.ch01")  # reload
    with pytest.raises(ValueError, match="registered twice"):
        registry.add(made("01.one", "one"), "a_notebook")
    with pytest.raises(ValueError, match="ids there start with 02"):
        registry.add(made("01.two", "two"), "gatherlab.exercises.ch02")
    with pytest.raises(ValueError, match="is not like"):
        registry.add(made("pick", "pick"), "gatherlab.exercises.ch01")
    assert list(registry) == ["01.one"]
    assert registry["01.one"].title == "one again"


def test_results_display_as_text_and_html():
    result = SELECT.check(lambda x, index: torch.gather(x, 1, index) + 1)
    assert str(result).startswith(
        "✘ 99.select: not yet. On the visible example, out[0, 0]"
    )
    assert repr(result) == str(result)
    html = result._repr_html_()
    assert html.startswith('<div class="gl-check gl-check-not-yet"')
    assert "<pre" in html and "x = [[10, 11, 12], [20, 21, 22]]" in html
    passed = SELECT.check(_select_columns)
    assert str(passed) == (
        "✔ 99.select: passed. Your function matches the visible example and the "
        "hidden cases.\nRun on the visible example and 50 hidden cases."
    )


def test_float_inputs_print_rounded_in_the_feedback():
    scores = torch.tensor([[0.2, 0.8, 0.1], [0.9, 0.3, 0.4]])
    exercise = Implement(
        "99.best",
        "best",
        solution=lambda s, i: torch.gather(s, 1, i),
        example={"scores": scores, "best": torch.tensor([[1], [0]])},
        generate=lambda rng: {
            "scores": scores,
            "best": cases.positions(rng, 3, (2, 1)),
        },
        call=Call("gather", "scores", 1, "best"),
        hidden=3,
    )
    result = exercise.check(lambda s, i: torch.gather(s, 1, i) + 0.25)
    assert result.words == (
        "On the visible example, out[0, 0] should be 0.8, but your function "
        "returned 1.05: gather along dim 1 reads out[i, j] = scores[i, best[i, j]].\n"
        "out[0, 0] reads scores[0, 1] = 0.8 because best[0, 0] = 1."
    )
    assert result.details[0] == "scores = [[0.2, 0.8, 0.1], [0.9, 0.3, 0.4]]"


def test_generated_positions_include_the_edges_and_a_repeat():
    rng = np.random.default_rng(0)
    for _ in range(20):
        positions = cases.positions(rng, 4, (2, 3)).flatten().tolist()
        assert 0 in positions and 3 in positions
        assert len(set(positions)) < len(positions)
    assert sorted(cases.values(rng, (2, 3)).flatten().tolist()) == list(range(10, 16))


# ---------------------------------------------------------------- review fixes


def _notebook_names(exercise) -> dict:
    """The tensors and numbers a chapter module holds, as the notebook defines them."""
    module = __import__(exercise.module, fromlist=["_"])
    names = {
        name: value
        for name, value in vars(module).items()
        if isinstance(value, (torch.Tensor, int)) and not name.startswith("_")
    }
    if isinstance(exercise, Fix):  # the broken call's parts, by their notebook names
        broken = exercise.broken
        names[broken.input_name] = broken.input
        if broken.index_name.isidentifier():
            names[broken.index_name] = broken.index
    return {"torch": torch, **names}


@pytest.mark.parametrize("exercise_id", IDS)
def test_a_shown_solution_runs_when_pasted(exercise_id):
    """The solution's text runs as it is shown (no bare `Tensor`, no hidden helpers)
    and what it defines passes the check."""
    exercise = EXERCISES[exercise_id]
    source = exercise.solution_source()
    namespace = _notebook_names(exercise)
    exec(compile(source, exercise_id, "exec"), namespace)
    if isinstance(exercise, Implement):
        answer = namespace[exercise.solution.__name__]
    elif isinstance(exercise, Fix):
        answer = namespace["fixed_index"]
    elif isinstance(exercise, Predict):
        answer = namespace["prediction"]
    elif isinstance(exercise, Choose):
        answer = namespace["choice"]
    else:
        answer = namespace["raising"]
    assert exercise.check(answer).passed, source


@pytest.mark.parametrize("exercise_id", IDS)
def test_a_shown_solution_fits_the_exercise_box(exercise_id):
    exercise = EXERCISES[exercise_id]
    source = exercise.solution_source()
    assert max(map(len, source.splitlines())) <= 72, source
    if isinstance(exercise, (Predict, PredictRaises, Choose)):  # wrapped at 68
        assert max(map(len, source.splitlines())) <= 68, source
    assert "Tensor" not in source.replace("torch.Tensor", "")


@pytest.mark.parametrize(
    "exercise_id",
    [i for i in IDS if isinstance(EXERCISES[i], Predict) and EXERCISES[i].explain],
)
def test_a_prediction_is_explained_by_the_same_call(exercise_id):
    """The traced call behind a prediction computes the value the code returns."""
    exercise = EXERCISES[exercise_id]
    call = exercise.explain
    if exercise.gradient:
        source = call.input.detach().clone().requires_grad_()
        upstream = 1 if exercise.grad_output is None else exercise.grad_output
        (call.with_part("input", source).run() * upstream).sum().backward()
        expected = source.grad
    else:
        expected = call.run()
    assert torch.equal(torch.as_tensor(exercise.solution), expected)


@pytest.mark.parametrize(
    "exercise_id", [i for i in IDS if isinstance(EXERCISES[i], Fix)]
)
def test_a_fix_solution_ends_with_the_line_the_learner_writes(exercise_id):
    source = EXERCISES[exercise_id].solution_source()
    assert source.splitlines()[-1].startswith("fixed_index = ")
    assert "def " not in source and "return" not in source


def test_a_forbidden_op_fails_with_a_clear_message_and_is_restored():
    original_gather, original_method = torch.gather, torch.Tensor.gather
    exercise = EXERCISES["01.gather_loop"]

    result = exercise.check(lambda input, dim, index: torch.gather(input, dim, index))
    assert result.words == (
        "On the visible example, your function called torch.gather, and this "
        "exercise asks you not to use torch.gather."
    )
    result = exercise.check(lambda input, dim, index: input.gather(dim, index))
    assert "asks you not to use torch.Tensor.gather" in result.words
    result = exercise.check(torch.gather)
    assert not result.passed
    assert "is torch.gather itself" in result.words
    assert exercise.check(exercise.solution).passed

    assert torch.gather is original_gather
    assert "gather" not in vars(torch.Tensor)  # inherited again, as before
    assert torch.Tensor.gather is original_method
    assert torch.equal(X.gather(1, INDEX), torch.gather(X, 1, INDEX))

    result = EXERCISES["03.select_with_gather"].check(
        lambda x, dim, positions: torch.index_select(x, dim, positions)
    )
    assert "asks you not to use torch.index_select" in result.words
    assert torch.equal(torch.index_select(X, 1, INDEX[0]), X[:, INDEX[0]])


def test_a_forbidden_op_is_restored_when_the_function_raises_or_exits():
    from gatherlab.exercises.patching import ForbiddenOpError, forbidding

    original = torch.gather
    with pytest.raises(KeyError), forbidding(["torch.gather"]):
        with pytest.raises(ForbiddenOpError, match="not to use torch.gather"):
            torch.gather(X, 1, INDEX)
        raise KeyError("a learner's bug")
    assert torch.gather is original
    with pytest.raises(ValueError, match="cannot forbid"):
        replace(SELECT, id="99.bad", forbid=("torch.no_such_op",))


def test_which_calls_raise_accepts_labels_in_any_case_and_as_text():
    first = EXERCISES["01.which_calls_raise"]
    for answer in (["B", "D"], ["b", "d"], "BD", "bd", "b, d", "D B", "['B', 'D']"):
        assert first.check(answer).passed, answer
    fourth = EXERCISES["04.which_calls_raise"]
    for answer in (["d", "f"], "DF", "df", "d; F", ("F", "d")):
        assert fourth.check(answer).passed, answer
    assert fourth.check("d").message.startswith("F raises:")
    assert "There is no call 'dZ'" in fourth.check("dZ").message
    assert fourth.check("none").words == fourth.check([]).words


def test_cases_that_must_raise_catch_a_wrapping_solution():
    exercise = EXERCISES["04.gather_python_style"]
    assert len(exercise.invalid_cases) == exercise.invalid == 10
    wrapping = exercise.check(
        lambda input, dim, index: torch.gather(input, dim, index % input.size(dim))
    )
    assert wrapping.verdict.misconception == "python-style-modulo"
    assert wrapping.words.startswith("On invalid hidden case 1 of 10 (input = [[")
    assert "raise on anything beyond" in wrapping.words
    # the case's inputs are in the message itself, as the learner never saw them
    assert "; index = [[" in wrapping.words and wrapping.details == ()

    def never_raising(input, dim, index):
        try:
            return exercise.solution(input, dim, index)
        except IndexError:
            return torch.zeros_like(index)

    quiet = exercise.check(never_raising)
    assert "returned a result, but this case is invalid and must raise" in (quiet.words)
    assert "(IndexError: positions must lie in -" in quiet.words
    passed = exercise.check(exercise.solution)
    assert passed.words == (
        "Your function matches the visible example and the hidden cases, and raises "
        "on the invalid ones."
    )
    assert passed.details == (
        "Run on the visible example, 50 hidden cases and 10 invalid ones.",
    )

    def torch_raises_for_me(input, dim, index):
        size = input.size(dim)
        return torch.gather(input, dim, torch.where(index < 0, index + size, index))

    assert exercise.check(torch_raises_for_me).passed
    with pytest.raises(ValueError, match="does not make it raise"):
        _ = Implement(
            "99.never",
            "never",
            solution=_select_columns,
            example={"x": X, "index": INDEX},
            generate=_small_cases,
            generate_invalid=_small_cases,
        ).invalid_cases


def test_a_fix_names_the_learners_index_as_yours():
    shared = EXERCISES["01.fix_shared_columns"]
    assert shared.check(torch.tensor([[2, 0], [2, 0]])).words == (
        "Your index works: torch.gather(x, 1, fixed_index) returns the intended result."
    )
    beams = EXERCISES["02.fix_beam_rows"]
    one_row_wrong = beams.solution(beams.broken.input, beams.broken.index).clone()
    one_row_wrong[3] = 0  # only row 3 reads member 0's first row
    assert beams.check(one_row_wrong).words == (
        "The call runs now, but out[3, 0] should be 12, not 0: gather along dim 0 "
        "reads out[i, j] = states[fixed_index[i, j], j].\n"
        "out[3, 0] should read states[3, 0] = 12 because fixed_index[3, 0] = 3; "
        "your call reads states[0, 0] = 0."
    )
    # the beam positions unchanged, without their member's first row: named
    unchanged = beams.check(beams.broken.index + 0)
    assert unchanged.verdict is not None
    assert unchanged.verdict.misconception == "missing-group-offset"
    assert "(p // 3) * 3" in unchanged.words
    soft = EXERCISES["05.fix_float_positions"]
    message = soft.check(torch.tensor([[0], [1]])).words
    assert "because fixed_index[0, 0] = 1; your call reads" in message
    assert "soft_positions" not in message


def test_a_take_fix_explains_rows_times_columns():
    exercise = EXERCISES["03.fix_pairs_for_take"]
    pairs = torch.tensor([[1, 1], [3, 4]])
    fix = "Use `pairs[:, 0] * grid.shape[1] + pairs[:, 1]`"
    for wrong in (
        pairs[:, 0] * 4 + pairs[:, 1],  # the row times the number of rows
        pairs[:, 1] * 4 + pairs[:, 0],  # counted column by column
    ):
        result = exercise.check(wrong)
        assert result.verdict.misconception == "flat-stride"
        assert fix in result.words
    # (column, row) gives position 23, out of range: one error is no evidence of a
    # stride (any position past the end raises it), but the index itself is: the
    # swapped stride's positions, exactly
    swapped = exercise.check(pairs[:, 1] * 5 + pairs[:, 0])
    assert swapped.verdict.misconception == "flat-stride"
    assert "yours swaps the pair, column * 5 + row" in swapped.message
    other = exercise.check(pairs[:, 0] * 6 + pairs[:, 1])  # 22: no stride gives it
    assert other.verdict.misconception is None
    assert "index[1] = 22, but the flattened input has size 20" in other.words
    # the fix as written gives the intended result
    assert exercise.check(pairs[:, 0] * exercise.broken.input.shape[1] + pairs[:, 1])


def test_shape_advice_never_expands_a_prediction_or_a_result():
    short = EXERCISES["01.predict_columns"].check([[1, 2, 3, 4]])
    assert short.words == (
        "Not quite: gather returns one value per index entry, in the index's shape: "
        "your answer has shape (1, 4), not (2, 3)."
    )
    picks = EXERCISES["02.predict_three_picks"].check([[[0, 1], [4, 5], [4, 5]]])
    assert ".expand" not in picks.words and ".unsqueeze" not in picks.words
    steps = EXERCISES["02.select_steps"].check(
        lambda features, positions: torch.gather(features, 1, positions.unsqueeze(-1))
    )
    assert steps.verdict.misconception == "missing-expand"
    assert "Expand the index along its dim 2 to 2 first" in steps.words
    last = EXERCISES["02.last_valid_step"].check(
        lambda f, lengths: torch.gather(f, 1, (lengths - 1).view(-1, 1, 1)).squeeze(1)
    )
    assert last.verdict.misconception == "missing-expand"


def test_a_prediction_read_as_columns_is_told_how_index_select_counts():
    result = EXERCISES["03.predict_shared_rows"].check([[11, 11, 10], [21, 21, 20]])
    assert result.verdict.misconception == "other-dim"
    assert result.message == (
        "Not quite: your answer is what the same positions give along dim 1, but "
        "the positions in index count along dim 0."
    )
    # a prediction writes no call (no "Use dim=0."): its fix traces one entry
    assert result.fix == (
        "Each entry of index sets the coordinate on dim 0; out keeps its own "
        "coordinates on the other dims: out[0, 0] reads x[1, 0] = 20 because "
        "index[0] = 1."
    )
    gradient = EXERCISES["05.predict_gradient"].check([[2, 0, 1]])
    assert gradient.words == (
        "Your answer has shape (1, 3), but it should have shape (2, 3)."
    )


def test_a_ragged_prediction_names_the_row():
    result = EXERCISES["01.predict_columns"].check([[11, 11, 10], [22, 20]])
    assert result.words == (
        "Your answer cannot be read as an array of numbers: row 1 has 2 entries but "
        "row 0 has 3 entries (every row needs the same length)."
    )
    deeper = EXERCISES["02.predict_three_picks"].check([[[0, 1], [4]], [[1], [2]]])
    assert "entry [0][1] has 1 entry but entry [0][0] has 2 entries" in deeper.words


def test_html_renders_code_spans_and_wraps_long_lines():
    unsolved = EXERCISES["01.pick_columns"].check(stub)
    html = unsolved._repr_html_()
    shown = html.split('<div class="gl-page-check"')[0]  # the page's hidden marker
    assert "<code>raise NotImplementedError</code>" in shown and "`" not in shown
    assert 'class="gl-page-check" data-exercise="01.pick_columns"' in html
    assert "`raise NotImplementedError`" in str(unsolved)  # text keeps backticks
    failing = SELECT.check(lambda x, index: torch.gather(x, 1, index) + 1)
    assert "white-space:pre-wrap" in failing._repr_html_()
    view = gl.exercises.show_solution("04.which_calls_raise")
    assert "white-space:pre-wrap" in view._repr_html_()
    as_html = gl.exercises.result.as_html
    assert as_html("x < `y<z` and `w`") == (
        "x &lt; <code>y&lt;z</code> and <code>w</code>"
    )


# ---------------------------------------------------------------- second review


def test_a_fix_suggests_an_expand_only_when_it_gives_the_intended_result():
    wanted = torch.tensor([2, 0])
    wrong_side = EXERCISES["01.fix_shared_columns"].check(wanted.unsqueeze(1))
    assert ".expand(-1, 2)" not in wrong_side.words
    assert wrong_side.words.endswith(
        "The positions belong in the index with `.unsqueeze(0)`, then `.expand(2, -1)`."
    )
    assert (
        EXERCISES["01.fix_shared_columns"]
        .check(wanted.unsqueeze(0).expand(2, -1))
        .passed
    )
    # One shared column read by every row: here expanding the index is right.
    shared = Fix(
        "99.shared",
        "shared",
        broken=Call("gather", X, 1, torch.tensor([[2], [2]])),
        solution=lambda x, index: index.expand(-1, 3),
    )
    assert shared.check(torch.tensor([[2], [2]])).words.endswith(
        "Expand the index along its dim 1 to 3 first: `.expand(-1, 3)` (-1 keeps a "
        "dim as it is)."
    )


@pytest.mark.parametrize(
    ("exercise_id", "answer"),
    [
        ("01.fix_missing_axis", torch.tensor([2, 1, 0]).unsqueeze(0)),
        ("04.fix_label_axis", torch.tensor([3, 0, 2]).unsqueeze(0)),
        (
            "05.label_scores",
            lambda log_probs, labels: torch.gather(log_probs, 1, labels.unsqueeze(0)),
        ),
    ],
)
def test_an_index_unsqueezed_on_the_wrong_side_is_named(exercise_id, answer):
    result = EXERCISES[exercise_id].check(answer)
    assert result.verdict.misconception == "unsqueeze-wrong-axis"
    assert ".unsqueeze(0)` gives" in result.words
    assert "with `.unsqueeze(1)`" in result.words
    assert "transposed" not in result.words


def test_a_prediction_solution_ends_with_the_line_the_learner_writes():
    source = EXERCISES["01.predict_columns"].solution_source()
    assert source.splitlines() == [
        "# Row 0 reads columns 1, 1, 0 and row 1 reads columns 2, 0, 2.",
        "# torch.gather(x, 1, torch.tensor([[1, 1, 0], [2, 0, 2]]))",
        "prediction = [[11, 11, 10], [22, 20, 22]]",
    ]
    raising = EXERCISES["01.which_calls_raise"].solution_source()
    assert raising.splitlines()[-1] == "raising = ['B', 'D']"
    long_value = Predict(
        "99.long", "long", code=lambda: torch.arange(40).reshape(2, 20)
    )
    lines = long_value.solution_source().splitlines()
    assert lines[0] == "prediction = [" and lines[-1] == "]"
    assert lines[1].startswith("    [0, 1, 2,") and lines[2].startswith("     ")
    assert max(map(len, lines)) <= 68
    namespace: dict = {}
    exec(long_value.solution_source(), namespace)
    assert long_value.check(namespace["prediction"]).passed


def test_which_calls_raise_wraps_each_reason_with_a_hanging_indent():
    view = gl.exercises.show_solution("01.which_calls_raise")
    details = "\n".join(view.result.details).splitlines()
    assert "C runs: torch.gather(x, 0, torch.tensor([[1], [0], [1], [0]]))" in details
    assert "    returns shape (4, 1)." in details  # the tuple stays whole, indented
    assert max(map(len, details)) <= 68
    assert all(line[0] in "ABCDE " for line in details)


def test_feedback_names_the_index_as_the_task_and_the_trace_do():
    rows = EXERCISES["01.predict_rows"].check([[20, 21, 12], [10, 11, 21]])
    assert "because rows[1, 2] = 1" in rows.words
    flat = EXERCISES["03.predict_flat_positions"].check([[43, 10], [44, 23]])
    assert "because index[0, 0] = 13" in flat.words
    wrap = EXERCISES["04.predict_wrap"].check([[11, 12], [20, 21]])
    assert "because index[0, 1] = -2" in wrap.fix
    assert "each index entry taken modulo the dim's size" in wrap.message
    assert "positions" not in wrap.words + "".join(wrap.details)


def test_last_valid_step_explains_padding_and_counting_from_zero():
    exercise = EXERCISES["02.last_valid_step"]
    padding = exercise.check(lambda features, lengths: features[:, -1])
    assert padding.verdict.misconception == "last-position"
    assert padding.words == (
        "On the visible example, your result reads position 3, the last along dim 1, "
        "for every entry, not the position lengths - 1 (expanded) gives it: padding "
        "in shorter sequences.\nHere each sequence is padded after its end, so the "
        "last position is padding for every shorter one, whose last real step is at "
        "its length - 1."
    )

    def without_minus_one(features, lengths):
        index = lengths.view(-1, 1, 1).expand(-1, 1, features.shape[-1])
        return torch.gather(features, 1, index).squeeze(1)

    beyond = exercise.check(without_minus_one)
    assert beyond.verdict.misconception == "off-by-one"
    # the rule in the first step (Paddle#38655)
    assert beyond.message.endswith(
        "reads one position past the right one: positions count from 0: the last of "
        "n is at n - 1."
    )


def test_select_with_gather_must_call_gather():
    exercise = EXERCISES["03.select_with_gather"]

    def advanced_indexing(x, dim, positions):
        where = [slice(None)] * x.dim()
        where[dim] = positions
        return x[tuple(where)]

    def take_along(x, dim, positions):
        along = [1] * x.dim()
        along[dim] = -1
        return torch.take_along_dim(x, positions.reshape(along), dim)

    def gather_method(x, dim, positions):
        along = [1] * x.dim()
        along[dim] = -1
        sizes = list(x.shape)
        sizes[dim] = positions.numel()
        return x.gather(dim, positions.reshape(along).expand(sizes))

    indexing = exercise.check(advanced_indexing)
    assert not indexing.passed
    assert indexing.words.endswith("this exercise asks you to build it with gather.")
    assert "not to use torch.take_along_dim" in exercise.check(take_along).message
    assert exercise.check(gather_method).passed
    assert torch.gather is not None and "gather" not in vars(torch.Tensor)


def test_predicting_an_error_for_code_that_runs_says_why_it_runs():
    for answer in ("raises", "IndexError", "error!"):
        result = EXERCISES["04.predict_wrap"].check(answer)
        assert result.words.startswith(
            "It does not raise: in torch 2.13 take_along_dim wraps every position "
            "modulo the dim's size, so none is out of range: index[0, 0] = 4 reads "
            "position 1."
        )
    plain = EXERCISES["01.predict_columns"].check("it raises")
    # the rules its call satisfies, not only the shape it returns
    assert plain.words.startswith(
        "It does not raise: every position in index is within 0..2 along dim 1 "
        "(gather refuses a negative one), and index is no larger than x on the other "
        "dims; a position may repeat, since each entry of index is its own read: "
        "index[0, 0] and index[0, 1] both read x[0, 1]."
    )
    assert "does not read as numbers" in (
        EXERCISES["04.predict_wrap"].check("no idea").message
    )


def test_label_scores_names_a_negated_result_as_the_loss():
    result = EXERCISES["05.label_scores"].check(
        lambda log_probs, labels: -torch.gather(log_probs, 1, labels.unsqueeze(1))
    )
    assert result.verdict.misconception == "negated"
    assert result.words.endswith("not their negative (that is the loss).")
    other = EXERCISES["05.label_scores"].check(
        lambda log_probs, labels: torch.gather(log_probs, 1, labels.unsqueeze(1)) + 1
    )
    assert "not the loss" not in other.words


def test_type_dtype_and_device_mistakes_are_templates_with_fields():
    as_numpy = SELECT.check(lambda x, index: _select_columns(x, index).numpy())
    assert as_numpy.verdict.template == "differ.framework_torch"
    assert as_numpy.verdict.fields == {
        "lead": phrase("lead.case", case=phrase("case.visible")),
        "what": "your result",
        "kind": "a NumPy array",
    }
    assert as_numpy.words == (
        "On the visible example, your result is a NumPy array, but it should be a "
        "torch.Tensor.\nBuild it with torch ops (torch.as_tensor converts)."
    )
    as_float = SELECT.check(lambda x, index: _select_columns(x, index).float())
    assert as_float.verdict.template == "differ.dtype_cast"  # the final .float()
    assert (as_float.verdict.fields["got"], as_float.verdict.fields["expected"]) == (
        "float32",
        "int64",
    )
    forbidden = gl.exercises.check("01.gather_loop", torch.gather)
    assert forbidden.verdict.template == "implement.is_forbidden"
    assert forbidden.verdict.fields == {"name": "torch.gather"}


def test_no_template_is_a_free_text_escape():
    """Every template has words of its own, but three: an exercise's authored reason
    for a known wrong prediction, two verdicts joined, and a case's lead (its name,
    itself a case.* phrase, and a comma)."""
    bare = [
        template
        for template, text in messages().items()
        if PLACEHOLDER.sub("", text).strip(" .;,") == ""
    ]
    assert sorted(bare) == ["known", "lead.case", "pair.apart"]
    assert messages()["pair"] == "{first}; also, {second}."
    assert messages()["lead.case"] == "{case}, "


def test_a_pair_of_misconceptions_is_two_phrases_joined_by_the_pair_template():
    result = EXERCISES["01.pick_columns"].check(
        lambda x, columns: torch.gather(x, 0, columns).unsqueeze(0)
    )
    said = result.verdict
    # along dim 0 the visible example raises: both parts, which describe a result,
    # are worded on hidden case 2, the first case that returned one
    assert (said.template, said.misconception) == ("pair", "other-dim+extra-axis")
    first, second = said.fields["first"], said.fields["second"]
    assert (first.template, second.template) == ("mc.other-dim", "mc.extra-axis")
    # the along clause of a 2-d input is a phrase of the table too
    assert first.fields["along"] == phrase("along.column")
    # a hidden case names its inputs, which the learner cannot see otherwise
    inputs = "; ".join(describe(EXERCISES["01.pick_columns"].cases[2][0]))
    assert inputs.startswith("x = [[")
    # each part's final period gives way to the pair's own
    assert result.words.startswith(
        "On the visible example, your function raised an error. "
        f"On hidden case 2 of 50 ({inputs}), your result is what the same positions "
        "give along dim 0, but columns count along dim 1 (a column in each row); "
        "also, your result has shape (1, 5, 1)"
    )
    assert result.fix.startswith("Use dim=1.")
    # on one case, the second part follows the first's lead: "; also, "
    one = EXERCISES["01.pick_columns"].check(
        lambda x, columns: x[:, columns.flatten()].unsqueeze(0)
    )
    assert one.verdict.template == "pair"
    assert one.verdict.fields["second"].fields["lead"] == ""
    assert "; also, your result has shape (1, 2, 4)" in one.words
    assert result.words.endswith("Use dim=1. Remove it with `.squeeze(0)`.")
    assert said.to_json()["fields"]["first"]["fields"]["along"] == {
        "template": "along.column",
        "fields": {},
    }


def test_a_pairs_second_part_on_another_case_says_which_case():
    """Each part of a pair is worded on the first case it shows on; where the second's
    is another case, it leads with that case's name, as the first part does, in a
    sentence of its own."""
    visible = EXERCISES["06.one_hot"].all_cases[0].expected
    result = EXERCISES["06.one_hot"].check(
        lambda labels, classes: torch.as_tensor(visible).unsqueeze(0)
    )
    said = result.verdict
    assert (said.template, said.misconception) == (
        "pair.apart",
        "ignores-inputs+extra-axis",
    )
    case = said.fields["first"].fields["lead"].fields["case"]
    assert (case.template, case.fields["number"]) == ("case.hidden", "1")
    assert said.fields["second"].fields["lead"] == phrase(
        "lead.case", case=phrase("case.visible")
    )
    assert result.words.startswith(
        f"On hidden case 1 of 50 ({case.fields['inputs']}), your result is the "
        "visible example's answer whatever "
        "the inputs: compute it from the arguments. On the visible example, your "
        "result has shape (1, 3, 4): "
    )


def test_coordinates_in_the_wrong_order_are_named_for_indexing_and_gather_nd():
    def swapped(log_probs, labels):  # x[labels, rows] for x[rows, labels]
        return log_probs[labels, torch.arange(len(labels))].unsqueeze(1)

    result = EXERCISES["05.label_scores"].check(swapped)
    assert result.verdict.misconception == "coordinates-swapped"
    assert "the one for dim 0 first, then the one for dim 1" in result.words
    right = EXERCISES["05.label_scores"].check(
        lambda log_probs, labels: log_probs[torch.arange(len(labels)), labels]
    )
    assert right.verdict.misconception != "coordinates-swapped"  # only an axis lost


def test_a_row_number_and_a_column_of_positions_broadcast_is_named():
    def broadcast(log_probs, labels):
        rows = torch.arange(log_probs.shape[0])
        return log_probs[rows, labels.view(-1, 1)]

    result = EXERCISES["05.label_scores"].check(broadcast)
    assert result.verdict.misconception == "index-broadcast"
    assert "broadcast to (n, n)" in result.words
    viewed = EXERCISES["05.label_scores"].check(
        lambda log_probs, labels: broadcast(log_probs, labels).view(-1, 1)
    )
    assert viewed.verdict.misconception == "index-broadcast"
    # the shape quoted is the learner's own: (n * n, 1) after the view
    n = EXERCISES["05.label_scores"].example["labels"].shape[0]
    assert f"has shape ({n * n}, 1)" in viewed.words


def test_a_fix_that_expands_a_row_as_a_column_is_told_where_the_new_axis_goes():
    exercise = EXERCISES["01.fix_shared_columns"]
    positions = exercise.reference_answer[0]
    result = exercise.check(positions.unsqueeze(1))
    # the positions laid down a column: the index's layout is the result's, whatever
    # dim is (the shared columns as a (2, 1) index read one column per row)
    assert result.verdict.misconception == "unsqueeze-wrong-axis"
    assert "gather's result has its index's shape" in result.message
    assert "`wanted.unsqueeze(1)` gives, shape (2, 1)" in result.message
    assert "`.unsqueeze(0)`, then `.expand(2, -1)`" in result.fix
    assert exercise.check(positions.unsqueeze(0).expand(2, -1)).passed  # as told
    x = exercise.broken.input
    assert torch.gather(x, 1, positions.unsqueeze(1)).tolist() == [
        [x[0, 2].item()],
        [x[1, 0].item()],
    ]


def test_last_valid_step_cannot_be_passed_by_counting_nonzero_steps():
    """A learner who ignores lengths and counts the steps holding anything but 0
    passed every case when no real step held zeros."""
    exercise = EXERCISES["02.last_valid_step"]

    def counts_nonzero(features, lengths):
        steps = (features.abs().sum(-1) != 0).sum(1)
        return features[torch.arange(features.shape[0]), steps - 1]

    result = exercise.check(counts_nonzero)
    assert not result.passed and "hidden case" in result.words
    # a zero last step is still the last real step: lengths says so
    assert exercise.check(exercise.solution).passed


def test_the_inverse_permutation_is_not_also_the_reverse_or_the_complement():
    """06.fix_write_as_read's destination has an inverse that no other simple answer
    equals (with [2, 0, 3, 1], its reverse and 3 - destination were the inverse)."""
    exercise = EXERCISES["06.fix_write_as_read"]
    destination = exercise.broken.index
    assert exercise.check(destination.argsort()).passed
    for wrong in (destination.flip(0), 3 - destination, destination, torch.arange(4)):
        assert not exercise.check(wrong).passed, wrong


def test_the_page_runs_a_case_that_tells_each_misconception_from_the_solution():
    """An answer that one misconception explains must fail on the page as in the
    notebook: the page's hidden cases include, for each misconception that some
    notebook case tells from the solution, a case that does (04.gather_python_style
    needs one with a negative dim, which its first five hidden cases lack)."""
    from gatherlab.exercises.misconceptions import Search, equal
    from gatherlab.exercises.page import _page_hidden

    for exercise in EXERCISES.values():
        if not isinstance(exercise, Implement):
            continue
        valid = len(exercise.cases)
        shown = {0, *_page_hidden(exercise)}
        search = Search(exercise.all_cases[:valid])
        for candidate in search.candidates(pairs=False):
            wrong = {
                k
                for k in range(valid)
                if not equal(candidate.outcomes[k], search.cases[k].expected)
            }
            assert not wrong or wrong & shown, (exercise.id, candidate.id)
    numbers = _page_hidden(EXERCISES["04.gather_python_style"])
    dims = [
        EXERCISES["04.gather_python_style"].all_cases[k].args["dim"] for k in numbers
    ]
    assert any(d < 0 for d in dims), dims


def test_a_check_that_needs_a_missing_library_is_not_a_cross(tmp_path):
    """Without TensorFlow a TensorFlow exercise's check cannot run: it says so, passes
    nothing, and shows no ✘ (under the solution's own box, a cross would say the
    book's solution is wrong)."""
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['tensorflow'] = None\n"
        "import gatherlab as gl\n"
        "r = gl.exercises.check('02.tf_select_steps', lambda f, p: f)\n"
        "print(r.passed); print(r)\n"
        "print('✘' in gl.solution('02.tf_select_steps')._repr_html_())\n"
    )
    shown = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert shown == [
        "False",
        "– 02.tf_select_steps: not checked here. This exercise needs tensorflow, "
        "which is not installed here: to check your answer, add it (make "
        "lab-tensorflow in the book's folder; in Colab or another Jupyter, %pip "
        "install tensorflow in a cell), restart the kernel and run the chapter from "
        "the top.",
        "False",
    ]


def test_a_flat_position_is_read_in_row_major_order_whatever_the_learner_assumed():
    # the product of row and column, and a position read down the columns: the same
    # stride rule, named
    column_major = EXERCISES["03.predict_flat_positions"].check([[23, 10], [44, 41]])
    assert column_major.verdict.misconception == "flat-stride"
    fix = EXERCISES["03.fix_pairs_for_take"]
    pairs = fix_names(fix)["pairs"]
    product = fix.check(pairs[:, 0] * pairs[:, 1])
    assert product.verdict.misconception == "flat-stride"

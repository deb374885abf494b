"""The chapter explorers, driven headlessly: set a control's value, let the observers
run, and read the rendered HTML (values, marked coordinates, messages)."""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys

import ipywidgets as widgets
import numpy as np
import pytest
import torch
from ipywidgets.embed import dependency_state

import gatherlab as gl
from gatherlab.widgets import EXPLORERS, Explorer, _html
from gatherlab.widgets import _error_lab as lab
from gatherlab.widgets import _gather_2d as chapter1
from gatherlab.widgets import _gradient_accumulation as grad
from gatherlab.widgets import _op_comparison as ops
from gatherlab.widgets._parse import ParseError, parse_tensor

X = [[10, 11, 12], [20, 21, 22]]
MARK = re.compile(r'data-mark="(\w+)" data-at="([^"]+)"')
BAD_TEXTS = [
    "",
    "[[1, 2]",
    "rows please",
    "[[1], [2, 3]]",
    "[[True, 0]]",
    "[['a']]",
    "__import__('os')",
    "[[1.5, 0.0], [1.0, 1.0]]",
    "[[99, 0], [1, 1]]",
    "[[-7, 0], [1, 1]]",
    "[0, 1]",
    "7",
    str([list(range(10))] * 4),
    "[[[[1]]]]",
]


def marks(view: str) -> set[tuple[str, str]]:
    """Every highlighted cell of a view as (role, coordinate)."""
    return {(role, html.unescape(at)) for role, at in MARK.findall(view)}


def words(view: str) -> str:
    """A view's visible text, tags removed and runs of spaces made one."""
    view = re.sub(r"<style>.*?</style>", "", view)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", view)).split())


def shown(widget: widgets.Widget) -> str:
    """The HTML a reader sees: a Stack shows only its selected child."""
    if isinstance(widget, widgets.Stack):
        if widget.selected_index is None:
            return ""
        return shown(widget.children[widget.selected_index])
    if isinstance(widget, widgets.HTML):
        return widget.value
    return "".join(shown(child) for child in getattr(widget, "children", ()))


def all_widgets(widget: widgets.Widget) -> list[widgets.Widget]:
    """Every widget under ``widget`` once, depth first (a Stack may show one widget
    as several of its children)."""
    found = {id(widget): widget}
    for child in getattr(widget, "children", ()):
        for below in all_widgets(child):
            found.setdefault(id(below), below)
    return list(found.values())


def control(explorer: Explorer, kind: type, description: str) -> widgets.Widget:
    (found,) = [
        w
        for w in all_widgets(explorer)
        if isinstance(w, kind) and getattr(w, "description", None) == description
    ]
    return found


def top_stack(explorer: Explorer) -> widgets.Stack:
    return next(c for c in explorer.children if isinstance(c, widgets.Stack))


def choose(explorer: Explorer, description: str, label: str) -> None:
    """Pick an option by its label, then do what the browser's links do."""
    for kind in (widgets.ToggleButtons, widgets.Dropdown):
        matches = [
            w
            for w in all_widgets(explorer)
            if isinstance(w, kind) and w.description == description
        ]
        if matches:
            choice = matches[0]
            choice.index = [label for label, _ in choice.options].index(label)
            explorer.apply_links()
            return
    raise AssertionError(f"no choice {description!r}")


def edit(explorer: Explorer, description: str, text: str) -> None:
    control(explorer, widgets.Text, description).value = text


def status(explorer: Explorer) -> str:
    """The message line under the edit boxes (the HTML widget after the box row)."""
    children = list(explorer.children)
    row = next(k for k, c in enumerate(children) if isinstance(c, widgets.HBox))
    return words(children[row + 1].value)


def stack_values(explorer: Explorer) -> list[str]:
    return [w.value for w in all_widgets(explorer) if isinstance(w, widgets.HTML)]


# --- the registry and what every explorer shares ------------------------------


def test_registry_maps_the_five_chapter_names_to_factories_of_ready_explorers():
    assert list(EXPLORERS) == [
        "gather_2d",
        "batched_selection",
        "op_comparison",
        "error_lab",
        "gradient_accumulation",
    ]
    for chapter, (name, factory) in enumerate(EXPLORERS.items(), start=1):
        explorer = factory()
        assert isinstance(explorer, widgets.VBox)
        assert repr(explorer).startswith(f"{name} explorer (chapter {chapter}): ")
        assert gl.widgets.EXPLORERS is EXPLORERS


def test_text_form_is_short_and_identical_between_builds():
    for factory in EXPLORERS.values():
        first, second = factory(), factory()
        text = first._repr_mimebundle_()["text/plain"]
        assert text == repr(first) == repr(second)
        assert "0x" not in text and first.model_id not in text
        assert len(text) <= 110  # ipywidgets cuts longer text forms with "…"


def test_text_form_is_identical_in_a_fresh_python():
    script = (
        "from gatherlab.widgets import EXPLORERS\n"
        "for f in EXPLORERS.values(): print(repr(f())); print(repr(f()))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    lines = result.stdout.splitlines()
    assert lines[0::2] == lines[1::2] == [repr(f()) for f in EXPLORERS.values()]


@pytest.mark.parametrize("name", list(EXPLORERS))
def test_every_link_joins_a_choice_to_a_stack_with_one_view_per_option(name):
    explorer = EXPLORERS[name]()
    assert explorer.links
    for link in explorer.links:
        (choice, trait), (views, target) = link.source, link.target
        assert link._model_name == "LinkModel"  # jslink: the browser runs it
        assert (trait, target) == ("index", "selected_index")
        assert isinstance(choice, (widgets.ToggleButtons, widgets.Dropdown))
        assert isinstance(views, widgets.Stack)
        assert len(views.children) == len(choice.options)
        assert views.selected_index == choice.index


@pytest.mark.parametrize("name", list(EXPLORERS))
def test_every_choice_shows_a_view_and_the_edit_note_says_it_needs_a_kernel(name):
    explorer = EXPLORERS[name]()
    for link in explorer.links:
        choice = link.source[0]
        for position in range(len(choice.options)):
            choice.index = position
            explorer.apply_links()
            assert "<table" in shown(link.target[0]) or "✗" in shown(link.target[0])
    assert "Editing needs a running notebook (make lab)" in words(shown(explorer))


@pytest.mark.parametrize("name", list(EXPLORERS))
def test_saved_widget_state_stays_well_inside_a_pages_budget(name):
    explorer = EXPLORERS[name]()
    state = dependency_state([explorer, *explorer.links], drop_defaults=True)
    assert len(json.dumps(state)) < 200_000  # a chapter page may hold 1.5 MB


@pytest.mark.parametrize("name", list(EXPLORERS))
@pytest.mark.parametrize("text", BAD_TEXTS)
def test_bad_input_shows_a_message_and_never_raises(name, text):
    explorer = EXPLORERS[name]()
    for box in [w for w in all_widgets(explorer) if isinstance(w, widgets.Text)]:
        box.value = text  # observers run here; an exception would fail the test
        message = status(explorer)
        if message:
            assert "✗" in message or "reset" in message
    for link in explorer.links:
        assert len(link.target[0].children) == len(link.source[0].options)


# --- parsing and rendering ----------------------------------------------------


def test_parse_reads_lists_and_keeps_floats_for_diagnose_to_explain():
    assert parse_tensor("[[2, 0], [1, 1]]").tolist() == [[2, 0], [1, 1]]
    assert parse_tensor("[[2, 0], [1, 1]]").dtype == np.int64
    assert parse_tensor("[[0., 1], [1, 2]]").dtype == np.float64
    assert parse_tensor("[]").shape == (0,) and parse_tensor("[]").dtype == np.int64
    assert parse_tensor("[[], []]").shape == (2, 0)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("[[1, 2]", "could not read"),
        ("[[1], [2, 3]]", "different lengths"),
        ("[[True]]", "only whole numbers and decimals"),
        ("[['a']]", "only whole numbers and decimals"),
        (str(list(range(37))), "at most 36"),
        ("[[[[1]]]]", "at most 3"),
    ],
)
def test_parse_explains_what_it_cannot_read(text, reason):
    with pytest.raises(ParseError, match=reason):
        parse_tensor(text)


def test_tables_print_the_shape_label_the_axes_and_mark_cells_beyond_colour():
    table = _html.tensor(np.array(X), "x", {(0, 2): "source", (1, 0): "fault"})
    assert "shape (2, 3)" in words(table) and "dim 0 ↓ dim 1 →" in words(table)
    assert marks(table) == {("source", "x[0, 2]"), ("fault", "x[1, 0]")}
    for cell in re.findall(r"<td data-mark[^>]*>", table):
        assert "font-weight:bold" in cell and "border:3px" in cell
    cells = re.findall(r"<td data[^>]*>", table)
    styles = {re.search(r"border:3px \w+", cell).group() for cell in cells}
    assert len(styles) == 2  # each role has its own border style, not only a colour
    legend = words(_html.legend("out", "index", "source"))
    assert "output chosen" in legend and "source value it read" in legend


def test_axis_names_sit_in_their_own_header_row_so_numbers_line_up_with_cells():
    table = _html.tensor(np.array(X), "x")
    rows = re.findall(r"<tr>(.*?)</tr>", table)
    assert rows[0] == '<th class="l">dim 0 ↓</th><th colspan="3">dim 1 →</th>'
    assert rows[1] == "<th></th><th>0</th><th>1</th><th>2</th>"
    assert rows[2].startswith('<th class="l">0</th><td>10</td>')
    vector = re.findall(r"<tr>(.*?)</tr>", _html.tensor(np.array([7, 8]), "v"))
    assert vector == ['<th colspan="2">dim 0 →</th>', "<th>0</th><th>1</th>",
                      "<td>7</td><td>8</td>"]  # fmt: skip
    # cells and column numbers are centred alike; row labels hug the grid
    assert "text-align:center" in _html.CELL and "th.l{text-align:right}" in _html.STYLE


def test_even_columns_give_every_cell_the_width_of_the_longest_text():
    labels = {(0, 0): "1+3+5=9"}
    heat = np.array([[1, 0], [0.5, 0]])
    table = _html.tensor(
        np.array([[9, 0], [4, 0]]), "g", labels=labels, heat=heat, even_columns=True
    )
    cells = re.findall(r"<td[^>]*>", table)
    assert len(cells) == 4 and all("content-box;width:7ch" in cell for cell in cells)
    uneven = _html.tensor(np.array([[9, 0]]), "g", labels=labels)
    assert "width:" not in "".join(re.findall(r"<td[^>]*>", uneven))


def test_heat_shades_cells_by_size_and_keeps_their_numbers():
    table = _html.tensor(
        np.array([[0, 2], [4, 0]]), "g", heat=np.array([[0, 0.5], [1, 0]])
    )
    shaded = re.findall(
        r'<td style="background:rgb\((\d+),(\d+),(\d+)\);color:(#\w+)', table
    )
    assert shaded == [("128", "206", "185", "#000"), ("0", "158", "115", "#fff")]
    assert words(table).endswith("0 0 2 1 4 0")


def test_higher_ranks_render_one_block_per_leading_coordinate_up_to_a_size():
    table = _html.tensor(
        np.arange(16).reshape(2, 2, 2, 2), "out", {(1, 0, 1, 1): "out"}
    )
    assert "out[1, 0] dim 2 ↓ dim 3 →" in words(table)
    assert marks(table) == {("out", "out[1, 0, 1, 1]")}
    big = words(_html.tensor(np.zeros((13, 12)), "out"))
    assert "shape (13, 12) (156 values: too many to show)" in big


def test_three_dim_tensors_render_one_block_per_leading_index():
    table = _html.tensor(np.arange(12).reshape(2, 3, 2), "features", {(1, 2, 0): "out"})
    assert "features[0] dim 1 ↓ dim 2 →" in words(table)
    assert "features[1] dim 1 ↓ dim 2 →" in words(table)
    assert "dim 1 ↓ dim 2 →" in words(table)
    assert marks(table) == {("out", "features[1, 2, 0]")}


# --- chapter 1: gather_2d -----------------------------------------------------


@pytest.mark.parametrize("dim", [1, -1])
def test_gather_2d_marks_the_index_entry_and_source_of_every_output_cell(dim):
    explorer = gl.widgets.gather_2d()
    choose(explorer, "dim", f"dim {dim}")
    expected = gl.trace(X, dim, [[2, 0], [1, 1]])
    for step in expected:
        choose(explorer, "show", _html.at_text(step.out, "out"))
        view = shown(explorer)
        assert marks(view) == {
            ("out", _html.at_text(step.out, "out")),
            ("index", _html.at_text(step.index_at, "index")),
            ("source", _html.at_text(step.source, "x")),
        }
        assert expected.line(step) in words(view)


def test_gather_2d_overview_shows_the_seed_output_and_the_whole_trace():
    view = words(shown(gl.widgets.gather_2d()))
    assert "out[1, 0] ← index[1, 0] = 1 → x[1, 1] = 21" in view
    assert "torch.gather(x, 1, index)" in view


def test_gather_2d_shows_the_call_with_the_dim_the_reader_chose():
    explorer = gl.widgets.gather_2d()
    choose(explorer, "show", "out[0, 1]")
    choose(explorer, "dim", "dim -1")
    view = shown(explorer)
    assert "torch.gather(x, -1, index)  # dim -1 is dim 1 here" in view
    assert "torch.gather(x, 1, index)" not in view and "names this" not in view
    choose(explorer, "dim", "dim 1")
    assert words(shown(explorer)).startswith("torch.gather(x, 1, index) x shape")
    choose(explorer, "dim", "dim 0")
    assert "torch.gather(x, 0, index) ✗ No output" in words(shown(explorer))
    one_dim = gl.widgets.gather_2d([5, 6, 7], [2, 0], dim=-1)
    assert "torch.gather(x, -1, index)  # dim -1 is dim 0 here" in shown(one_dim)


def shown_controls(explorer: Explorer) -> list[str]:
    """The descriptions of the choices a reader sees (a Stack shows one child)."""

    def visible(widget: widgets.Widget) -> list[widgets.Widget]:
        if isinstance(widget, widgets.Stack):
            chosen = widget.selected_index
            return [] if chosen is None else visible(widget.children[chosen])
        below = getattr(widget, "children", ())
        return [widget] + [w for child in below for w in visible(child)]

    return [
        w.description
        for w in visible(explorer)
        if isinstance(w, (widgets.ToggleButtons, widgets.Dropdown))
    ]


def test_gather_2d_replaces_the_output_choice_by_a_note_where_the_call_raises():
    explorer = gl.widgets.gather_2d()
    assert shown_controls(explorer) == ["dim", "show"]
    choose(explorer, "dim", "dim 0")
    assert shown_controls(explorer) == ["dim"]
    view = words(shown(explorer))
    assert view.startswith("show: no output: the call raises")
    assert "✗ No output: the call raises because it breaks a rule" in view
    choose(explorer, "dim", "dim -1")
    assert shown_controls(explorer) == ["dim", "show"]
    edit(explorer, "index", "[[1, 0], [0, 1]]")  # valid in every dim
    choose(explorer, "dim", "dim 0")
    assert shown_controls(explorer) == ["dim", "show"]
    assert "no output" not in words(shown(explorer))


def test_gather_2d_dim_0_shows_the_diagnosis_for_the_shared_index():
    explorer = gl.widgets.gather_2d()
    choose(explorer, "dim", "dim 0")
    (problem,) = gl.diagnose(torch.tensor(X), 0, torch.tensor([[2, 0], [1, 1]]))
    for cell in ["all", "out[1, 1]"]:
        choose(explorer, "show", cell)
        view = shown(explorer)
        assert problem.message in words(view)
        assert marks(view) == {("fault", "index[0, 0]")}


def test_gather_2d_takes_the_readers_tensors_and_a_new_index_fixes_dim_0():
    rows = np.array([[1, 0, 1], [0, 1, 0]])
    explorer = gl.widgets.gather_2d(torch.tensor(X), rows, dim=0)
    choose(explorer, "show", "out[0, 1]")
    assert "out[0, 1] ← index[0, 1] = 0 → x[0, 1] = 11" in words(shown(explorer))
    edit(explorer, "index", "[[2, 0], [1, 1]]")
    assert "✗" in words(shown(explorer))  # dim 0 is chosen and now invalid
    edit(explorer, "index", "[[1, 0, 1], [0, 1, 0]]")
    choose(explorer, "show", "out[0, 0]")
    assert "out[0, 0] ← index[0, 0] = 1 → x[1, 0] = 20" in words(shown(explorer))
    assert len(control(explorer, widgets.ToggleButtons, "show").options) == 7


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[[2, 0], [1, 1", "could not read"),
        ("[[0.0, 1.0], [1.0, 2.0]]", "dtype float64"),
        ("[[5, 0], [1, 1]]", "index[0, 0] = 5"),
        ("[0, 1]", "index has 1 dims but input has 2"),
    ],
)
def test_gather_2d_keeps_the_last_valid_view_when_the_index_is_bad(text, message):
    explorer = gl.widgets.gather_2d()
    before = stack_values(explorer)[:-2]
    edit(explorer, "index", text)
    assert message in status(explorer)
    assert stack_values(explorer)[:-2] == before
    edit(explorer, "index", "[[0, 0], [0, 0]]")
    assert status(explorer) == ""


def test_gather_2d_recomputes_nothing_when_an_edit_changes_nothing(monkeypatch):
    explorer = gl.widgets.gather_2d()
    calls = []
    original = chapter1.compute
    monkeypatch.setattr(chapter1, "compute", lambda *a: calls.append(a) or original(*a))
    edit(explorer, "index", "[[2,0],[1,1]]")  # same tensor, other spelling
    assert calls == []
    edit(explorer, "index", "[[2, 0], [1, 0]]")
    assert len(calls) == 2  # one per axis: dim -1 shows dim 1's views


def test_gather_2d_accepts_an_empty_index_because_torch_does():
    explorer = gl.widgets.gather_2d()
    edit(explorer, "index", "[]")
    assert status(explorer) == ""
    assert "out is empty" in words(shown(explorer))


def test_gather_2d_refuses_tensors_too_big_to_show():
    with pytest.raises(ValueError, match="at most 36"):
        gl.widgets.gather_2d(torch.zeros(7, 7))


# --- chapter 2: batched_selection ---------------------------------------------


def test_batched_selection_steps_through_the_shapes_of_the_recipe():
    explorer = gl.widgets.batched_selection()
    expected = {
        "positions": "# shape (2, 2)",
        "unsqueeze(-1)": "# shape (2, 2, 1)",
        "expand": "expand(-1, -1, 2) # shape (2, 2, 2)",
        "gather": "out = torch.gather(features, 1, index)",
    }
    for step, line in expected.items():
        choose(explorer, "step", step)
        assert line in words(shown(explorer))


@pytest.mark.parametrize(
    ("member", "times", "values"),
    [(0, [2, 0], [[4, 5], [0, 1]]), (1, [1, 1], [[8, 9], [8, 9]])],
)
def test_batched_selection_marks_each_members_vectors_in_the_source(
    member, times, values
):
    explorer = gl.widgets.batched_selection()
    choose(explorer, "step", "gather")
    choose(explorer, "member", f"batch {member}")
    view = shown(explorer)
    sources = {at for role, at in marks(view) if role == "source"}
    assert sources == {f"features[{member}, {t}, {f}]" for t in times for f in (0, 1)}
    outs = {at for role, at in marks(view) if role == "out"}
    assert outs == {f"out[{member}, {k}, {f}]" for k in (0, 1) for f in (0, 1)}
    for k, vector in enumerate(values):
        for f, value in enumerate(vector):
            line = f"out[{member}, {k}, {f}] ← index[{member}, {k}, {f}] = {times[k]}"
            assert line in words(view)
            assert f"features[{member}, {times[k]}, {f}] = {value}" in words(view)


def test_batched_selection_marks_only_what_each_step_would_read():
    explorer = gl.widgets.batched_selection()
    view = shown(explorer)
    assert not {at for role, at in marks(view) if role == "source"}
    assert "Nothing is read yet: positions has 2 dims and features 3" in words(view)
    choose(explorer, "step", "unsqueeze(-1)")
    view = shown(explorer)
    sources = {at for role, at in marks(view) if role == "source"}
    assert sources == {"features[0, 2, 0]", "features[0, 0, 0]"}  # feature 0 only
    assert "would read only feature 0 of each chosen step" in words(view)
    assert "expand repeats it over all 2 features (a stride-0 view, no copy)." in words(
        view
    )
    assert "copies" not in words(view)
    assert "what this index alone would read" in words(view)
    choose(explorer, "member", "batch 1")
    sources = {at for role, at in marks(shown(explorer)) if role == "source"}
    assert sources == {"features[1, 1, 0]"}
    choose(explorer, "step", "expand")
    sources = {at for role, at in marks(shown(explorer)) if role == "source"}
    assert sources == {"features[1, 1, 0]", "features[1, 1, 1]"}


def test_batched_selection_recomputes_from_new_positions_and_rejects_bad_ones():
    explorer = gl.widgets.batched_selection()
    edit(explorer, "positions", "[[0, 1, 2], [2, 2, 2]]")
    choose(explorer, "step", "gather")
    choose(explorer, "member", "batch 1")
    assert "out[1, 2, 1] ← index[1, 2, 1] = 2 → features[1, 2, 1] = 11" in words(
        shown(explorer)
    )
    before = stack_values(explorer)[:-2]
    edit(explorer, "positions", "[[0, 3], [1, 1]]")
    assert "= 3, but dim 1 of input has size 3" in status(explorer)
    edit(explorer, "positions", "[0, 1]")
    assert "(batch, selected_time)" in status(explorer)
    assert stack_values(explorer)[:-2] == before


# --- chapter 3: op_comparison -------------------------------------------------


def test_op_comparison_runs_every_op_on_the_seed_example():
    index = np.array([[2, 0], [1, 1]])
    results = {r.name: r for r in ops.compute(np.array(X), index, 1)}
    gathered = [[12, 10], [21, 21]]
    for name in ("gather", "take_along_dim", "advanced indexing"):
        assert results[name].output.tolist() == gathered
    for name in ("tf.gather batch_dims", "tf.gather_nd"):
        assert results[name].output.tolist() == gathered
    assert results["take"].output.tolist() == [[12, 10], [11, 11]]
    assert results["take"].reads == ((0, 2), (0, 0), (0, 1), (0, 1))
    assert results["tf.gather"].output.shape == (2, 2, 2)
    assert results["index_select"].problems[0].rule == "index-not-vector"
    verdict = ops.verdict(results["take"], results["gather"])
    assert verdict == "✗ differs from torch.gather"


def test_op_comparison_views_mark_what_each_op_read_and_name_broken_rules():
    explorer = gl.widgets.op_comparison()
    overview = words(shown(explorer))
    assert "index_select takes one shared list of positions" in overview
    choose(explorer, "op", "take")
    view = shown(explorer)
    assert {at for _, at in marks(view)} == {"x[0, 2]", "x[0, 0]", "x[0, 1]"}
    assert "torch.take(x, index)" in words(view)
    choose(explorer, "op", "advanced indexing")
    assert "x[torch.arange(2)[:, None], index]" in words(shown(explorer))


def test_op_comparison_shows_which_ops_wrap_raise_or_refuse_a_negative_position():
    explorer = gl.widgets.op_comparison()
    edit(explorer, "index", "[[2, -1], [1, 1]]")
    choose(explorer, "op", "take_along_dim")
    assert {at for _, at in marks(shown(explorer))} >= {"x[0, 2]"}  # -1 wraps to 2
    choose(explorer, "op", "gather")
    assert "index[0, 1] = -1 is negative" in words(shown(explorer))
    choose(explorer, "op", "tf.gather batch_dims")
    view = words(shown(explorer))
    assert "InvalidArgumentError: indices[0,1] = -1 is not in [0, 3)" in view
    assert "{{" not in view and "[Op:" not in view


# --- chapter 4: error_lab -----------------------------------------------------


@pytest.mark.parametrize("case", lab.CASES, ids=[c.label for c in lab.CASES])
def test_error_lab_reports_rule_torch_error_tensorflow_gpu_and_a_working_fix(case):
    explorer = gl.widgets.error_lab()
    choose(explorer, "call", case.label)
    view = words(shown(explorer))
    x, index = torch.tensor(X), torch.as_tensor(case.index)
    problems = gl.diagnose(x, case.dim, index)
    try:
        torch.gather(x, case.dim, index)
        raised = None
    except Exception as error:  # what PyTorch really does is the expected value
        raised = f"{type(error).__name__}: {str(error).splitlines()[0]}"
    assert "TensorFlow on the CPU (run here)" in view
    if raised is None:
        assert problems == [] and "✓ runs" in view
        return
    assert raised[:60] in view
    assert problems[0].message in view
    assert "from the PyTorch / TensorFlow documentation and maintainers' issue" in view
    assert "facts page" not in view
    if problems[0].rule == "index-out-of-range":
        assert lab.suggest_fix(np.array(X), case.dim, case.index) is None
        assert (
            ".clamp(" not in view and "No automatic fix: clamping or wrapping" in view
        )
        assert "Correct the arithmetic that produced 3" in view
        assert f"gl.check_gather(x, {case.dim}, index) before the gather" in view
        return
    steps, dim, fixed = lab.suggest_fix(np.array(X), case.dim, case.index)
    assert gl.diagnose(x, dim, torch.as_tensor(fixed)) == []
    assert f"torch.gather(x, {dim}, torch.tensor({fixed.tolist()}))" in view
    assert " ".join(steps[0].split()) in view


def test_error_lab_states_gpu_behaviour_for_out_of_range_values():
    explorer = gl.widgets.error_lab()
    choose(explorer, "call", "index beyond the last column")
    view = words(shown(explorer))
    assert "device-side assert" in view and "a 0 is stored in the output" in view
    assert "InvalidArgumentError: indices[0,1] = 3 is not in [0, 3)" in view
    choose(explorer, "call", "floating-point index")
    view = words(shown(explorer))
    assert "device-side assert" not in view
    assert "index = index.long()" in view and "[[10, 11], [21, 22]]" not in view
    result = lab.compute(np.array(X), 1, lab.CASES[0].index)
    assert [fix.output.tolist() for fix in result.fixes] == [[[10, 11], [21, 22]]]


def test_error_lab_links_its_gpu_sources_only_where_the_gpu_differs():
    explorer = gl.widgets.error_lab()
    choose(explorer, "call", "negative index value")
    view = shown(explorer)
    for url in (
        "https://github.com/pytorch/pytorch/issues/2300",
        "https://github.com/pytorch/pytorch/issues/38944",
        "https://www.tensorflow.org/api_docs/python/tf/gather",
    ):
        assert f'<a href="{url}"' in view
    choose(explorer, "call", "int16 index")
    assert "<a href" not in shown(explorer)
    assert (
        "No GPU difference is documented for this rule; only out-of-range positions "
        "behave differently on a GPU." in words(shown(explorer))
    )


def test_error_lab_dim_out_of_range_mirrors_the_call_in_tensorflow_and_says_why():
    explorer = gl.widgets.error_lab()
    choose(explorer, "call", "dim out of range")
    view = words(shown(explorer))
    assert "tf.gather(x, index, axis=2, batch_dims=1)" in view
    assert "Shape must be at least rank 3 but is rank 2" in view
    assert "axis 2 is out of range: x has rank 2, so axis must be in -2..1" in view
    assert "# x has 2 dims: dim must be 0..1 (or -2..-1 from the end)" in view
    assert "dim = -1 # the last axis" in view


def test_error_lab_notes_that_tensorflow_reads_a_short_index_per_row():
    explorer = gl.widgets.error_lab()
    choose(explorer, "call", "missing index axis")
    view = words(shown(explorer))
    assert "tf.gather(x, index, axis=1, batch_dims=1) ✓ runs" in view
    assert "as one position per row of x" in view
    assert "torch.gather refuses it" in view
    choose(explorer, "call", "negative index value")
    assert "one position per row" not in words(shown(explorer))


def test_error_lab_repairs_a_missing_axis_in_both_readings_and_says_which_is_tfs():
    explorer = gl.widgets.error_lab()
    choose(explorer, "call", "missing index axis")
    view = words(shown(explorer))
    per_row = (
        "Read as one position per row (as TensorFlow read it above): "
        "index = index.unsqueeze(1) torch.gather(x, 1, torch.tensor([[0], [1]])) "
        "✓ runs out shape (2, 1)"
    )
    shared = (
        "Read as the same positions (columns) for every row: "
        "index = index.unsqueeze(0).expand(2, -1) "
        "torch.gather(x, 1, torch.tensor([[0, 1], [0, 1]])) ✓ runs out shape (2, 2)"
    )
    assert per_row in view and shared in view
    assert view.index(per_row) < view.index(shared)
    result = lab.compute(np.array(X), 1, np.array([0, 1]))
    outputs = [fix.output.tolist() for fix in result.fixes]
    assert outputs == [[[10], [21]], [[10, 11], [20, 21]]]
    assert np.ravel(result.tf_output).tolist() == [10, 21]  # TF: one per row
    # along dim 0 both readings are the same index: one repair, no readings named
    (fix,) = lab.compute(np.array(X), 0, np.array([1, 0, 1])).fixes
    assert (fix.reading, fix.steps) == ("", ("index = index.unsqueeze(0)",))
    assert fix.output.tolist() == [[20, 11, 22]]


def test_error_lab_converts_python_style_negatives_and_never_wraps_below_minus_size():
    steps, dim, fixed = lab.suggest_fix(np.array(X), 1, np.array([[0, -1], [-3, 2]]))
    (why, step) = steps[0].splitlines()
    assert step == "index = torch.where(index < 0, index + 3, index)"
    assert (
        why == "# -3..-1 become 0..2; anything below -3 stays negative and still raises"
    )
    assert dim == 1 and fixed.tolist() == [[0, 2], [0, 2]]
    assert lab.suggest_fix(np.array(X), 1, np.array([[0, -4], [1, 2]])) is None
    explorer = gl.widgets.error_lab()
    edit(explorer, "index", "[[0, -1], [-4, 2]]")
    explorer.apply_links()
    view = words(shown(explorer))
    assert "No automatic fix: -4 is below -3, so it is not a Python-style" in view
    assert "torch.where" not in view and "✓ runs" not in view
    edit(explorer, "index", "[[0, -1], [1, 5]]")  # a negative before a past-the-end
    assert "Correct the arithmetic that produced 5" in words(shown(explorer))


def test_error_lab_copies_a_chosen_call_into_the_boxes_of_your_own_call():
    explorer = gl.widgets.error_lab()
    assert "Your own call" in words(shown(explorer))  # labelled in the static page
    assert (
        "Used only by the last choice, your own call. In a running notebook, picking "
        "a prepared call copies its index and dim here; on this page the boxes keep "
        "their first value." in words(shown(explorer))
    )
    call_choice = control(explorer, widgets.Dropdown, "call")
    assert call_choice.layout.width == "24em"
    index_box = control(explorer, widgets.Text, "index")
    dim_box = control(explorer, widgets.Dropdown, "dim")
    choose(explorer, "call", "dim out of range")
    assert (index_box.value, dim_box.value) == ("[[0, 1], [1, 2]]", 2)
    assert "torch.gather(x, 2, index)" in words(shown(explorer))  # the case stays
    choose(explorer, "call", "index beyond the last column")
    assert (index_box.value, dim_box.value) == ("[[0, 3], [1, 2]]", 1)
    assert control(explorer, widgets.Dropdown, "call").index == 3
    choose(explorer, "call", lab.OWN_CALL)
    own = words(shown(explorer))
    assert "index = torch.tensor([[0, 3], [1, 2]])" in own
    assert "index[0, 1] = 3, but dim 1 of input has size 3" in own
    edit(explorer, "index", "[[0, 2], [1, 2]]")
    assert "index = torch.tensor([[0, 2], [1, 2]])" in words(shown(explorer))


def test_error_lab_shows_the_readers_own_call_and_leaves_the_others_alone():
    explorer = gl.widgets.error_lab()
    views = top_stack(explorer)
    prepared = [(w, w.value) for w in views.children[:-1]]
    edit(explorer, "index", "[[0, 1], [1, 4]]")
    assert control(explorer, widgets.Dropdown, "call").index == len(lab.CASES)
    explorer.apply_links()
    assert "index[1, 1] = 4, but dim 1 of input has size 3" in words(shown(explorer))
    control(explorer, widgets.Dropdown, "dim").value = 0
    assert "torch.gather(x, 0, index)" in words(shown(explorer))
    assert [(w, w.value) for w in views.children[:-1]] == prepared


# --- chapter 5: gradient_accumulation -----------------------------------------


def _seed_gradient(weights=grad.DEFAULT_WEIGHTS) -> grad.Gradient:
    x, index = np.array(grad.DEFAULT_X), np.array(grad.DEFAULT_INDEX)
    return grad.compute(x, 1, index, np.array(weights), gl.trace(x, 1, index))


def test_gradient_sums_the_weights_and_both_autograds_agree():
    gradient = _seed_gradient()
    assert gradient.by_hand.tolist() == [[4, 0, 3], [0, 9, 0]]
    assert gradient.torch_grad.tolist() == [[4, 0, 3], [0, 9, 0]]
    assert gradient.tf_grad.tolist() == [[4, 0, 3], [0, 9, 0]]
    assert gradient.agrees
    labels, _ = grad.heat_labels(gradient)
    assert labels[(0, 2)] == "1+2=3" and labels[(1, 1)] == "1+3+5=9"
    assert labels[(0, 0)] == "4" and labels[(0, 1)] == "0"
    assert not _seed_gradient([[1, 1, 1], [1, 1, 1]]).by_hand.tolist() == [[4, 0, 3]]


def test_gradient_view_of_a_source_cell_marks_the_outputs_that_read_it():
    explorer = gl.widgets.gradient_accumulation()
    choose(explorer, "source", "x[0, 2]")
    view = shown(explorer)
    assert marks(view) == {
        ("index", "index[0, 0]"),
        ("index", "index[0, 1]"),
        ("out", "weights[0, 0]"),
        ("out", "weights[0, 1]"),
        ("source", "x.grad by hand[0, 2]"),
    }
    text = words(view)
    assert "x[0, 2] is read by out[0, 0] (weight 1), out[0, 1] (weight 2)" in text
    assert "both autograd gradients equal the sums by hand" in text
    choose(explorer, "source", "x[0, 1]")
    assert "x[0, 1] is never read, so its gradient is 0." in words(shown(explorer))


def test_gradient_presets_count_selections_and_isolate_one_output():
    explorer = gl.widgets.gradient_accumulation()
    choose(explorer, "weights", "all ones")
    choose(explorer, "source", "x[1, 1]")
    assert "its gradient is 1 + 1 + 1 = 3" in words(shown(explorer))
    choose(explorer, "weights", "only out[0, 0]")
    choose(explorer, "source", "x[0, 2]")
    assert "x[0, 2] is read by out[0, 0] (weight 1), out[0, 1] (weight 0)" in words(
        shown(explorer)
    )


def test_editing_weights_rerenders_only_the_readers_preset():
    explorer = gl.widgets.gradient_accumulation()
    outer = top_stack(explorer)
    others = [
        (w, w.value)
        for box in outer.children[1:]
        for w in all_widgets(box)
        if isinstance(w, widgets.HTML)
    ]
    edit(explorer, "weights", "[[1, 1, 1], [2, 2, 2]]")
    assert [(w, w.value) for w, _ in others] == others
    choose(explorer, "source", "x[1, 1]")
    assert "its gradient is 2 + 2 + 2 = 6" in words(shown(explorer))
    edit(explorer, "weights", "[[1, 2], [3, 4]]")
    assert "weights has shape (2, 2)" in status(explorer)
    assert "its gradient is 2 + 2 + 2 = 6" in words(shown(explorer))


def test_weight_presets_name_the_chapters_weights_until_the_reader_types_theirs():
    explorer = gl.widgets.gradient_accumulation()
    presets = control(explorer, widgets.ToggleButtons, "weights")
    labels = [label for label, _ in presets.options]
    assert labels == ["chapter weights", "all ones", "only out[0, 0]"]
    edit(explorer, "weights", "[[1, 1, 1], [2, 2, 2]]")
    assert [label for label, _ in presets.options][0] == "your weights"
    own = gl.widgets.gradient_accumulation(weights=[[1, 1, 1], [1, 1, 1]])
    presets = control(own, widgets.ToggleButtons, "weights")
    assert presets.options[0][0] == "your weights"


def test_the_weights_box_follows_the_chosen_preset_and_says_so():
    explorer = gl.widgets.gradient_accumulation()
    assert (
        "The weights box holds your own weights, used only by the first preset. In a "
        "running notebook, picking a preset copies its weights here; on this page the "
        "box keeps its first value." in words(shown(explorer))
    )
    box = control(explorer, widgets.Text, "weights")
    presets = control(explorer, widgets.ToggleButtons, "weights")
    choose(explorer, "weights", "all ones")
    assert box.value == "[[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]"
    assert presets.options[0][0] == "chapter weights"  # copying applies nothing
    choose(explorer, "weights", "only out[0, 0]")
    assert box.value == "[[1.0, 0.0, 0.0], [0.0, 0.0, 0.0]]"
    edit(explorer, "weights", "[[1, 0, 0], [0, 0, 7]]")  # typed: shown at once
    explorer.apply_links()
    assert presets.index == 0 and presets.options[0][0] == "your weights"
    choose(explorer, "source", "x[1, 1]")
    assert "its gradient is 0 + 0 + 7 = 7" in words(shown(explorer))
    choose(explorer, "weights", "all ones")
    choose(explorer, "weights", "your weights")
    assert box.value == "[[1.0, 0.0, 0.0], [0.0, 0.0, 7.0]]"


def test_the_gradient_grid_gives_its_columns_one_width():
    view = shown(gl.widgets.gradient_accumulation())
    grid = view[view.index("x.grad by hand") :]
    cells = re.findall(r"<td[^>]*>", grid[: grid.index("</table>")])
    assert len(cells) == 6 and all("content-box;width:7ch" in cell for cell in cells)


def test_a_new_index_shape_resets_the_weights_to_ones():
    explorer = gl.widgets.gradient_accumulation()
    edit(explorer, "index", "[[0], [2]]")
    assert control(explorer, widgets.Text, "weights").value == "[[1.0], [1.0]]"
    assert "reset to ones" in status(explorer)
    choose(explorer, "source", "x[1, 2]")
    assert "x[1, 2] is read by out[1, 0] (weight 1)" in words(shown(explorer))

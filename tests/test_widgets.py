"""The chapter explorers from Python: the state each one starts with, what only the
libraries compute for it (its ``library`` entries), the kernel side of a typed edit,
the one JavaScript module both JupyterLab and the book run, and the agreement cases
that module is tested against (``tests/js/agreement.test.mjs``). What the view shows
is checked in a browser by ``tests/test_browser.py``."""

from __future__ import annotations

import gzip
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import numpy as np
import pytest
import torch

import gatherlab as gl
from gatherlab.rules import PLACEHOLDER, rules
from gatherlab.widgets import EXPLORERS, Explorer
from gatherlab.widgets import _error_lab as lab
from gatherlab.widgets._base import (
    JS,
    MODULES_REQUEST,
    RELATIVE_IMPORT,
    as_json,
    from_json,
    modules,
)
from gatherlab.widgets._parse import ParseError, parse_tensor
from tools.cases import agreement_cases, scatter_agreement
from tools.cases.generate import fresh

ROOT = Path(__file__).resolve().parent.parent
X = [[10, 11, 12], [20, 21, 22]]
CHAPTERS = {
    "gather_2d": "01_gather_2d",
    "batched_selection": "02_batched_selection",
    "op_comparison": "03_choosing_an_op",
    "error_lab": "04_error_cases",
    "gradient_accumulation": "05_autograd",
    "scatter": "06_writing_by_index",
}
NODE = shutil.which("node")
LOADER = (JS / "lab.mjs").read_text()


def saved_explorers(chapter: str) -> list[dict]:
    """The anywidget states saved in a chapter notebook."""
    notebook = nbformat.read(ROOT / "notebooks" / f"{chapter}.ipynb", as_version=4)
    state = notebook.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]
    return [
        model["state"]
        for model in state["state"].values()
        if model["model_module"] == "anywidget"
    ]


# --- the registry and what every explorer shares ------------------------------


def test_registry_maps_the_chapter_names_to_explorers_of_their_kind():
    assert list(EXPLORERS) == list(CHAPTERS)
    for chapter, (name, factory) in enumerate(EXPLORERS.items(), start=1):
        explorer = factory()
        assert isinstance(explorer, Explorer)
        assert (explorer.kind, explorer.chapter) == (name, chapter)
        assert explorer._esm == LOADER


def test_text_form_is_short_and_identical_in_a_fresh_python():
    script = (
        "from gatherlab.widgets import EXPLORERS\n"
        "for f in EXPLORERS.values(): print(repr(f()))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    here = [repr(f()) for f in EXPLORERS.values()]
    assert result.stdout.splitlines() == here
    assert here[0] == "gather_2d explorer (chapter 1): x (2, 3), index (2, 2), dim 1"
    for factory, text in zip(EXPLORERS.values(), here, strict=True):
        explorer = factory()
        assert explorer._repr_mimebundle_()[0]["text/plain"] == text
        assert "0x" not in text and explorer.model_id not in text
        assert len(text) <= 110  # ipywidgets cuts longer text forms with "…"


def test_the_widget_holds_only_the_loader_and_the_kernel_sends_the_modules():
    """_esm is lab.mjs, a loader with no view code; asked, the widget sends every
    module and stylesheet of js/ as they are on disk (a custom message, never saved)."""
    explorer = EXPLORERS["gather_2d"]()
    assert "parseTensor" not in explorer._esm and len(explorer._esm) < 4_000
    sent = []
    explorer.send = lambda content, buffers=None: sent.append(content)
    explorer._handle_custom_msg({"type": "something else"}, [])
    assert sent == []
    explorer._handle_custom_msg({"type": MODULES_REQUEST}, [])
    assert sent == [{"type": MODULES_REQUEST, "files": modules()}]
    files = sent[0]["files"]
    assert {"core.mjs", "explorer.mjs", "explorer.css", "lab.mjs"} <= set(files)
    assert files["explorer.mjs"] == (JS / "explorer.mjs").read_text()
    assert 'from "./core.mjs"' in files["explorer.mjs"]  # imported, never spliced in
    assert "<style" not in files["explorer.mjs"] and ".gl-x" in files["explorer.css"]
    # lab.mjs resolves "./NAME.mjs" among these names only: core.mjs's imports of the
    # rules (../rules.mjs) and the Python reader (../interpreter/python.mjs) come along
    assert {"rules.mjs", "python.mjs"} <= set(files)
    assert 'from "./python.mjs"' in files["core.mjs"]
    for name, text in files.items():
        for *_, specifier in RELATIVE_IMPORT.findall(text):
            in_files = specifier.startswith("./") and specifier[2:] in files
            assert in_files, (name, specifier)


@pytest.mark.skipif(NODE is None, reason="needs node")
@pytest.mark.parametrize(
    ("view", "export"), [("explorer.mjs", "table"), ("scatter.mjs", "scatterWrites")]
)
def test_the_views_load_as_es_modules_importing_each_other(view, export):
    script = (
        f"import({json.dumps((JS / view).as_uri())}).then(m => "
        f"console.log(typeof m.default.render, typeof m.{export}))"
    )
    result = subprocess.run(
        [NODE, "--input-type=module", "-e", script],
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.split() == ["function", "function"]


@pytest.mark.parametrize("name", list(EXPLORERS))
def test_each_chapter_saves_its_explorer_without_any_view_code(name):
    """A stored notebook holds the loader, never the view: editing js/ changes no
    notebook (the book and JupyterLab load the modules from the package)."""
    (saved,) = saved_explorers(CHAPTERS[name])
    explorer = EXPLORERS[name]()
    assert saved["_esm"] == LOADER
    saved_text = json.dumps(saved)
    assert "parseTensor" not in saved_text and ".gl-x" not in saved_text
    assert saved["kind"] == name
    assert saved["inputs"] == explorer.inputs and saved["spec"] == explorer.spec
    assert saved["library"] == explorer.library
    assert len(json.dumps(saved)) < 150_000  # a page's HTML budget is 1.5 MB


def test_tensors_travel_as_shape_data_and_dtype():
    for values in (np.array([[1, 2]]), np.zeros((2, 0)), np.array(3.5), np.eye(2)):
        back = from_json(as_json(values))
        assert back.dtype == values.dtype and np.array_equal(back, values)
    assert as_json(np.array([True, False])) == {
        "shape": [2],
        "data": [1, 0],
        "dtype": "bool",
    }
    assert as_json(np.arange(4, dtype=np.int16).reshape(2, 2))["dtype"] == "int16"


# --- parsing (the browser's parser is checked against this one) ----------------


def test_parse_reads_lists_and_keeps_floats_for_diagnose_to_explain():
    assert parse_tensor("[[2, 0], [1, 1]]").tolist() == [[2, 0], [1, 1]]
    assert parse_tensor("[[2, 0], [1, 1]]").dtype == np.int64
    assert parse_tensor("[[0., 1], [1, 2]]").dtype == np.float64
    assert parse_tensor("[]").shape == (0,) and parse_tensor("[]").dtype == np.int64
    assert parse_tensor("[[], []]").shape == (2, 0)
    assert parse_tensor("[[[[1]]]]").shape == (1, 1, 1, 1)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("[[1, 2]", "could not read"),
        ("[[1], [2, 3]]", "different lengths"),
        ("[[True]]", "only whole numbers and decimals"),
        ("[['a']]", "only whole numbers and decimals"),
        (str(list(range(37))), "at most 36"),
        ("[[[[[1]]]]]", "at most 4"),
    ],
)
def test_parse_explains_what_it_cannot_read(text, reason):
    with pytest.raises(ParseError, match=reason):
        parse_tensor(text)


# --- the agreement cases -------------------------------------------------------


def test_the_agreement_cases_break_the_index_in_every_way_the_explorers_word():
    """The drawn calls hold each of the ten rules the explorers word, those that first
    appear late among them (scalar-index-count) included."""
    stored = json.loads(gzip.decompress(fresh(agreement_cases.__name__).read_bytes()))
    rules = {p["rule"] for case in stored["calls"] for p in case.get("problems", [])}
    assert len(rules) == 10 and "scalar-index-count" in rules


# Templates of rules.mjs the browser never words against a stored case: the rules only
# Python can break (the browser holds contiguous torch tensors on one device, and runs
# no guard), the op comparison's own dim check (Python's), an op name the explorers
# never pass, and the scatter explorer's refusal of a 0-d tensor (the browser's alone).
NOT_IN_THE_BROWSER = {
    "not-a-tensor", "dim-type", "device-mismatch", "not-flattenable", "unexpected",
    "index-smaller", "wrapped-index", "no-tensorflow", "unknown-op",
    ("form", "dim"), ("rank-mismatch", "scalar-explorer"),
}  # fmt: skip


def _pattern(template: str) -> re.Pattern[str]:
    """A template as a regex: its fixed text, any text for each field."""
    parts = PLACEHOLDER.split(template)
    return re.compile(
        "".join(re.escape(p) if k % 2 == 0 else ".+?" for k, p in enumerate(parts))
        + "$"
    )


def test_every_template_the_browser_words_has_a_stored_case():
    """The drift suites reach every message and hint shape core.mjs and scatter.mjs
    can word (rules.mjs), so a change in which shape a call gets, or in its fields,
    fails them, not only a changed word."""
    stored = json.loads(gzip.decompress(fresh(agreement_cases.__name__).read_bytes()))
    scatter = json.loads(
        gzip.decompress(fresh(scatter_agreement.__name__).read_bytes())
    )
    problems = [p for c in stored["calls"] for p in c.get("problems", [])] + [
        p for c in stored["library"] for op in c["ops"] for p in op.get("problems", [])
    ]
    worded = {(p["rule"], "messages", p["message"]) for p in problems}
    worded |= {(p["rule"], "hints", p["hint"]) for p in problems}
    scatter_messages = [c["message"] for c in scatter if "message" in c]
    missing = []
    for rule, texts in rules()["rules"].items():
        for part in ("messages", "hints"):
            for shape, template in texts[part].items():
                if {rule, (rule, shape)} & NOT_IN_THE_BROWSER:
                    continue
                found = _pattern(template).match
                if not any(r == rule and p == part and found(t) for r, p, t in worded):
                    if not (part == "messages" and any(map(found, scatter_messages))):
                        missing.append((rule, part, shape))
    assert missing == []


def test_scatter_explorer_refuses_what_it_cannot_show():
    with pytest.raises(ValueError, match="reduce must be one of"):
        gl.widgets.scatter(reduce="max")
    with pytest.raises(ValueError, match="dim must be one of"):
        gl.widgets.scatter(dim=2)
    explorer = gl.widgets.scatter(reduce="mean", include_self=False)
    assert explorer.inputs["reduce"] == "mean" and explorer.inputs["include_self"] == 0
    assert explorer.library == []  # everything is computed in the page


def test_agreement_cases_cover_every_op_rank_and_rule_with_torch_confirming():
    cases = agreement_cases
    rng = np.random.default_rng(7)
    drawn = [cases.call_case(*cases.draw_call(rng)) for _ in range(300)]
    assert {c["op"] for c in drawn} == set(cases.OPS)
    assert {len(c["input"]["shape"]) for c in drawn} == {0, 1, 2, 3, 4}
    assert any(c["dim"] is not None and c["dim"] < 0 for c in drawn)
    valid = next(c for c in drawn if "steps" in c and c["steps"])
    assert len(valid["steps"]) == len(valid["lines"])
    invalid = next(c for c in drawn if "problems" in c)
    assert invalid["problems"][0]["rule"] and invalid["problems"][0]["message"]


# --- what only the libraries compute --------------------------------------------


def test_gather_2d_and_batched_selection_need_nothing_from_the_libraries():
    for name in ("gather_2d", "batched_selection"):
        explorer = EXPLORERS[name]()
        assert explorer.library == [] and explorer.spec["library_keys"] == []
    explorer = gl.widgets.batched_selection()
    assert explorer.value("features").shape == (2, 3, 2)
    assert explorer.value("positions").tolist() == [[2, 0], [1, 1]]


def test_op_comparison_saves_advanced_indexing_and_tensorflow_for_its_start():
    explorer = gl.widgets.op_comparison()
    ops = {op["name"]: op for op in explorer.entry_for_inputs()["ops"]}
    assert list(ops) == ["advanced indexing", *(n for n in ops if n.startswith("tf"))]
    gathered = [12, 10, 21, 21]
    for name in ("advanced indexing", "tf.gather batch_dims", "tf.gather_nd"):
        assert ops[name]["output"]["data"] == gathered
    assert ops["tf.gather"]["output"]["shape"] == [2, 2, 2]
    assert ops["advanced indexing"]["code"] == "x[torch.arange(2)[:, None], index]"
    assert ops["advanced indexing"]["reads"] == [[0, 2], [0, 0], [1, 1], [1, 1]]


def test_op_comparison_adds_the_libraries_results_for_a_typed_index():
    explorer = gl.widgets.op_comparison()
    explorer.edit(index=[[2, -1], [1, 1]])  # what the view sends when a kernel runs
    ops = {op["name"]: op for op in explorer.entry_for_inputs()["ops"]}
    error = ops["tf.gather batch_dims"]["error"]
    assert error == "InvalidArgumentError: indices[0,1] = -1 is not in [0, 3)"
    assert ops["advanced indexing"]["output"]["data"] == [12, 12, 21, 21]  # wraps
    assert len(explorer.library) == 2  # the saved start, then the typed index


@pytest.mark.parametrize("case", lab.CASES, ids=[c.label for c in lab.CASES])
def test_error_lab_saves_torch_tensorflow_and_working_fixes_for_every_case(case):
    explorer = gl.widgets.error_lab()
    explorer.edit(index=case.index, dim=case.dim)
    before = len(explorer.library)
    entry = explorer.entry_for_inputs()
    assert len(explorer.library) == before == len(lab.CASES)  # saved with the page
    x, index = torch.tensor(X), torch.as_tensor(case.index)
    try:
        torch.gather(x, case.dim, index)
        raised = None
    except Exception as error:  # what PyTorch really does is the expected value
        raised = f"{type(error).__name__}: {str(error).splitlines()[0]}"
    if raised is None:
        assert "output" in entry["torch"] and "fixes" not in entry
        return
    assert entry["torch"]["error"][:60] == raised[:60]
    for fix in entry.get("fixes", []):
        fixed = torch.as_tensor(from_json(fix["index"]))
        assert gl.diagnose(x, fix["dim"], fixed) == []
        assert (
            fix["output"]["data"]
            == torch.gather(x, fix["dim"], fixed).flatten().tolist()
        )


def test_error_lab_opens_on_the_first_prepared_call_and_takes_an_own_call():
    explorer = gl.widgets.error_lab()
    first = lab.CASES[0]
    assert explorer.value("index").dtype == np.float32
    assert (explorer.value("dim"), explorer.inputs["code"]) == (
        first.dim,
        first.index_code,
    )
    own = gl.widgets.error_lab(index=[[0, 3], [1, 1]])
    assert own.inputs["code"] == "" and own.value("index").tolist() == [[0, 3], [1, 1]]
    assert "Picking a prepared call copies its index and dim" in own.spec["note"]


def test_error_lab_names_both_readings_of_a_missing_axis_and_which_is_tfs():
    explorer = gl.widgets.error_lab()
    explorer.edit(index=np.array([0, 1]), dim=1)
    entry = explorer.entry_for_inputs()
    readings = [fix["reading"] for fix in entry["fixes"]]
    assert readings == [
        "one position per row (as TensorFlow read it above)",
        "the same positions (columns) for every row",
    ]
    assert "as one position per row of x" in entry["tf"]["note"]


def test_error_lab_never_wraps_below_minus_size():
    explorer = gl.widgets.error_lab()
    explorer.edit(index=[[0, -1], [-4, 2]])
    entry = explorer.entry_for_inputs()
    assert "fixes" not in entry
    assert entry["below_range"].startswith("No automatic fix: -4 is below -3")


def test_gradient_saves_both_autograds_for_every_weight_choice():
    explorer = gl.widgets.gradient_accumulation()
    x, index = explorer.value("x"), explorer.value("index")
    ones = np.ones(index.shape)
    only_first = np.zeros(index.shape)
    only_first[0, 0] = 1
    weights = (explorer.value("weights"), ones, only_first)
    (entry,) = explorer.library
    gradients = entry["result"]["gradients"]
    assert len(gradients) == 3
    for chosen, found in zip(weights, gradients, strict=True):
        by_hand = np.zeros_like(x)
        np.add.at(by_hand, (np.arange(2)[:, None], index), chosen)
        assert [name for name, _ in found] == [
            "torch: x.grad",
            "tf.gather_nd: tape.gradient",
        ]
        for _, result in found:
            assert from_json(result["output"]).tolist() == by_hand.tolist()
    assert by_hand.tolist() != [[4, 0, 3], [0, 9, 0]]
    first = gradients[0][0][1]["output"]["data"]
    assert first == [4, 0, 3, 0, 9, 0]


def test_kernel_side_never_raises_on_what_a_reader_may_type():
    """The view sends any parseable tensors; the library hooks answer {} or an entry."""
    odd = [np.array(5), np.zeros((2, 0), dtype=np.int64), np.array([[0.5, 1.0]])]
    for name in ("op_comparison", "error_lab", "gradient_accumulation"):
        explorer = EXPLORERS[name]()
        for values in odd:
            explorer.edit(index=values)
            explorer.edit(x=values)
            assert isinstance(explorer.entry_for_inputs(), dict)
    grad = gl.widgets.gradient_accumulation()
    grad.edit(weights=[[1.0, 2.0]])
    assert grad.entry_for_inputs() == {}  # weights of the wrong shape: no gradient

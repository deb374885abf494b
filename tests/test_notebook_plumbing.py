"""The notebook machinery: setup_book, the %%gpu magic, the executor, strict nbval."""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import torch

from gatherlab import notebook

ROOT = Path(__file__).resolve().parent.parent


def test_setup_book_quiets_tensorflow_and_seeds_torch():
    notebook.setup_book(seed=3)
    first = torch.rand(3)
    notebook.setup_book(seed=3)
    assert torch.equal(first, torch.rand(3))
    assert os.environ["TF_CPP_MIN_LOG_LEVEL"] == "3"
    assert os.environ["TF_ENABLE_ONEDNN_OPTS"] == "0"


def test_gpu_magic_prints_one_line_without_cuda(monkeypatch, capsys):
    monkeypatch.setattr(notebook, "cuda_available", lambda: False)
    notebook.gpu("", "raise SystemExit('must not run')")
    assert capsys.readouterr().out == notebook.GPU_SKIP_MESSAGE + "\n"


def test_gpu_magic_runs_the_cell_with_cuda_after_its_label(monkeypatch, capsys):
    from IPython.testing.globalipapp import get_ipython

    shell = get_ipython()
    monkeypatch.setattr(notebook, "cuda_available", lambda: True)
    monkeypatch.setattr(notebook, "gpu_label", lambda: "GPU run: stub")
    notebook.gpu("", "ran_on_gpu = 6 * 7")
    assert shell.user_ns["ran_on_gpu"] == 42
    assert capsys.readouterr().out == "GPU run: stub\n"


def _notebook(tmp_path: Path, cells: list) -> Path:
    book = nbformat.v4.new_notebook()
    book.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    book.cells = cells
    path = tmp_path / "demo.ipynb"
    nbformat.write(book, path)
    return path


def _code(source: str, tags=(), outputs=(), count=None):
    cell = nbformat.v4.new_code_cell(source, execution_count=count)
    cell.metadata["tags"] = list(tags)
    cell.outputs = [
        nbformat.v4.new_output("stream", name="stdout", text=t) for t in outputs
    ]
    return cell


def nbval_run(path: Path) -> subprocess.CompletedProcess:
    """Strict nbval on one notebook in a fresh pytest, with the book's GPU-cell skip."""
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-rs",
            "-p",
            "no:cacheprovider",
            "-p",
            "tests.notebook_plugin",
            "--nbval",
            "--nbval-current-env",
            "--nbval-sanitize-with",
            str(ROOT / "tests" / "sanitize.cfg"),
            str(path),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )


def test_strict_nbval_fails_when_a_stored_output_was_edited(tmp_path):
    path = _notebook(tmp_path, [_code("print(6 * 7)", outputs=["42\n"], count=1)])
    assert nbval_run(path).returncode == 0
    path = _notebook(tmp_path, [_code("print(6 * 7)", outputs=["43\n"], count=1)])
    result = nbval_run(path)
    assert result.returncode == 1
    assert "43" in result.stdout and "42" in result.stdout


def _sanitized(text: str) -> str:
    from nbval.plugin import get_sanitize_patterns

    patterns = get_sanitize_patterns((ROOT / "tests" / "sanitize.cfg").read_text())
    for regex, replace in patterns:
        text = re.sub(regex, replace, text)
    return text


def test_versions_line_compares_pins_not_python_patch_or_torch_build():
    line = notebook.versions()
    assert re.fullmatch(
        r"Python 3\.\d+\.\d+, torch [\d.]+(\+\w+)?, tensorflow [\d.]+, numpy [\d.]+",
        line,
    ), line
    stored = "Python 3.11.7, torch 2.13.0+cpu, tensorflow 2.21.0, numpy 2.4.6\n"
    for other in (
        "Python 3.12.1, torch 2.13.0+cu130, tensorflow 2.21.0, numpy 2.4.6\n",
        "Python 3.13.0, torch 2.13.0, tensorflow 2.21.0, numpy 2.4.6\n",
    ):
        assert _sanitized(other) == _sanitized(stored), other
    for changed_pin in (
        "Python 3.11.7, torch 2.14.0+cpu, tensorflow 2.21.0, numpy 2.4.6\n",
        "Python 3.11.7, torch 2.13.0+cpu, tensorflow 2.22.0, numpy 2.4.6\n",
        "Python 3.11.7, torch 2.13.0+cpu, tensorflow 2.21.0, numpy 2.5.0\n",
    ):
        assert _sanitized(changed_pin) != _sanitized(stored), changed_pin


def test_solution_is_a_closed_details_box_with_the_registry_solution():
    from gatherlab import exercises

    shown = notebook.solution("01.pick_columns")
    html = shown._repr_html_()
    assert html.startswith('<details class="gl-collapsed"><summary')
    assert "<details open" not in html
    assert "Solution: Pick different columns in every row</summary>" in html
    inner = exercises.show_solution("01.pick_columns")
    assert html.endswith(inner._repr_html_() + "</details>")
    assert repr(shown) == f"Solution: Pick different columns in every row\n\n{inner}"


def test_solution_that_needs_tensorflow_says_so_where_it_is_missing(monkeypatch):
    from gatherlab import exercises

    def tensorflow_absent(exercise_id):
        raise ModuleNotFoundError("No module named 'tensorflow'", name="tensorflow")

    monkeypatch.setattr(exercises, "show_solution", tensorflow_absent)
    shown = notebook.solution("05.predict_gather_nd_axis")
    assert shown.content == notebook.TENSORFLOW_SKIP_MESSAGE
    assert shown.summary.startswith("Solution: ")


def test_solution_of_an_unknown_exercise_says_so_inside_the_box():
    html = notebook.solution("01.no_such_exercise")._repr_html_()
    assert "<summary" in html and "There is no exercise" in html


def _executor():
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "execute_notebooks", ROOT / "tools" / "run" / "execute_notebooks.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _widget_notebook(ids: dict[str, str], state_order: list[str]):
    """A box holding a button, a jslink nothing displays, in the given state order."""
    box, button, layout, link = (ids[k] for k in ("box", "button", "layout", "link"))
    models = {
        box: {
            "model_name": "VBoxModel",
            "state": {"children": [f"IPY_MODEL_{button}"]},
        },
        button: {
            "model_name": "ButtonModel",
            "state": {"layout": f"IPY_MODEL_{layout}"},
        },
        layout: {"model_name": "LayoutModel", "state": {}},
        link: {
            "model_name": "LinkModel",
            "state": {"source": [f"IPY_MODEL_{button}", "value"], "target": ["", ""]},
        },
    }
    book = nbformat.v4.new_notebook()
    view = {"model_id": box, "version_major": 2, "version_minor": 0}
    cell = _code("box")
    cell.id = "box-cell"
    cell.outputs = [
        nbformat.v4.new_output(
            "display_data", data={"application/vnd.jupyter.widget-view+json": view}
        )
    ]
    book.cells = [cell]
    state = {ids[k]: models[ids[k]] for k in state_order}
    book.metadata["widgets"] = {
        "application/vnd.jupyter.widget-state+json": {"state": state}
    }
    return book


def test_widget_ids_depend_only_on_the_notebook_and_the_order_of_appearance():
    executor = _executor()
    runs = []
    for seed, order in (
        (1, ["link", "layout", "box", "button"]),
        (2, ["button", "box"]),
    ):
        names = ("box", "button", "layout", "link")
        ids = {k: f"{seed:x}{i:x}".ljust(32, "a") for i, k in enumerate(names)}
        book = _widget_notebook(ids, order + [k for k in names if k not in order])
        executor.stable_widget_ids(book, "ch")
        runs.append(nbformat.writes(book))
    assert runs[0] == runs[1]
    book = nbformat.reads(runs[0], as_version=4)
    state = book.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]
    # Named by order of appearance: the shown box, what it refers to, then the link.
    box, button, layout, link = (
        hashlib.md5(f"ch:{i}".encode()).hexdigest() for i in range(4)
    )
    names = [state["state"][m]["model_name"] for m in (box, button, layout, link)]
    assert names == ["VBoxModel", "ButtonModel", "LayoutModel", "LinkModel"]
    view = book.cells[0].outputs[0].data["application/vnd.jupyter.widget-view+json"]
    assert view["model_id"] == box
    assert state["state"][box]["state"]["children"] == [f"IPY_MODEL_{button}"]
    assert state["state"][button]["state"]["layout"] == f"IPY_MODEL_{layout}"
    assert state["state"][link]["state"]["source"][0] == f"IPY_MODEL_{button}"


def test_versions_reads_tensorflow_without_importing_it():
    code = (
        "import sys, gatherlab as gl\n"
        "gl.setup_book()\n"
        "print(gl.versions().split(', ')[2])\n"
        "print('tensorflow' in sys.modules)\n"
        "import tensorflow\n"
        "print(tensorflow.__version__)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr[-2000:]
    named, imported, actual = result.stdout.splitlines()
    assert (named, imported) == (f"tensorflow {actual}", "False")


def test_versions_never_fails_without_tensorflow(monkeypatch):
    monkeypatch.delitem(sys.modules, "tensorflow", raising=False)
    monkeypatch.setattr(notebook, "tensorflow_installed", lambda: False)
    assert ", tensorflow not installed, numpy " in notebook.versions()


def test_tensorflow_magic_prints_how_to_install_without_tensorflow(monkeypatch, capsys):
    monkeypatch.setattr(notebook, "tensorflow_installed", lambda: False)
    notebook.tensorflow_cell("", "raise SystemExit('must not run')")
    out = capsys.readouterr().out
    assert out == notebook.TENSORFLOW_SKIP_MESSAGE + "\n"
    assert "make lab-tensorflow" in out and "pip install tensorflow" in out
    assert "\n" not in out.rstrip("\n")


def test_tensorflow_magic_runs_the_cell_and_shows_its_last_value(capsys):
    from IPython.testing.globalipapp import get_ipython

    shell = get_ipython()
    notebook.tensorflow_cell("", "import tensorflow as tf\nint(tf.reduce_sum([6, 36]))")
    assert shell.user_ns["tf"].__name__ == "tensorflow"
    assert capsys.readouterr().out.strip().endswith("42")


def test_a_magic_cells_functions_have_their_source(capsys):
    """AutoGraph (tf.function) reads a function's source with inspect: one defined in a
    %%tensorflow or %%gpu cell has it, so no "could not transform" warning."""
    import inspect

    from IPython.testing.globalipapp import get_ipython

    shell = get_ipython()
    cell = "def doubled(x):\n    return 2 * x\n"
    notebook.run_in_shell(shell, cell, "<tensorflow cell>")
    assert inspect.getsource(shell.user_ns["doubled"]) == cell
    notebook.run_in_shell(shell, "def doubled(x):\n    return 3 * x\n", "<gpu cell>")
    assert "3 * x" in inspect.getsource(shell.user_ns["doubled"])
    name = shell.user_ns["doubled"].__code__.co_filename
    assert name.startswith("<gpu cell ") and not notebook._is_cell_code(name)


def test_a_tf_function_in_a_tensorflow_cell_is_converted_without_warning(capfd):
    cell = (
        "import tensorflow as tf\n"
        "@tf.function\n"
        "def first(x):\n"
        "    if tf.reduce_sum(x) > 0:\n"  # AutoGraph turns this into tf.cond
        "        return x[0]\n"
        "    return -x[0]\n"
        "print(int(first(tf.constant([3, 4]))))\n"
    )
    notebook.tensorflow_cell("", cell)
    shown = capfd.readouterr()
    assert shown.out.strip().endswith("3")
    assert "could not transform" not in shown.out + shown.err


def _error_display(source_cells: list[str], capsys) -> str:
    """What the book's kernel shows for the last of these cells (each run as a cell)."""
    from IPython.testing.globalipapp import get_ipython

    shell = get_ipython()
    notebook.setup_book()
    try:
        for source in source_cells:
            capsys.readouterr()
            shell.run_cell(source, store_history=True)
        return capsys.readouterr().out
    finally:
        shell.set_custom_exc((), None)
        shell.InteractiveTB.set_mode("Context")


ANSI = re.compile(r"\x1b\[[0-9;]*m")


def test_a_library_error_in_a_cells_last_statement_shows_as_one_line(capsys):
    shown = _error_display(
        [
            "import torch\nx = torch.ones(2, 3)",
            "print('x[0, -1] =', 1.0)\ntorch.gather(x, 1, torch.tensor([[5]]))",
        ],
        capsys,
    )
    lines = ANSI.sub("", shown).strip().splitlines()
    assert lines[0] == "x[0, -1] = 1.0"
    assert len(lines) == 2 and lines[1].startswith("RuntimeError: "), lines


def test_an_error_before_a_cells_last_statement_shows_the_learners_line(capsys):
    shown = ANSI.sub(
        "",
        _error_display(
            [
                "import torch\n"
                "x = torch.ones(2, 3)\n"
                "picked = torch.gather(x, 1, torch.tensor([[5]]))\n"
                "print(picked)"
            ],
            capsys,
        ),
    )
    assert "----> 3 picked = torch.gather(x, 1, torch.tensor([[5]]))" in shown
    assert shown.strip().splitlines()[-1].startswith("RuntimeError: ")


def test_an_error_inside_the_learners_own_function_shows_its_line(capsys):
    shown = ANSI.sub(
        "",
        _error_display(
            [
                "import torch\n"
                "def pick(x):\n"
                "    index = torch.tensor([[5]])\n"
                "    return torch.gather(x, 1, index)",
                "pick(torch.ones(2, 3))",
            ],
            capsys,
        ),
    )
    assert "----> 4     return torch.gather(x, 1, index)" in shown
    assert "----> 1 pick(torch.ones(2, 3))" in shown


def test_xmode_minimal_makes_every_error_one_line(capsys):
    shown = ANSI.sub(
        "",
        _error_display(
            ["%xmode Minimal", "import torch\nx = torch.ones(2)[5]\nprint(x)"],
            capsys,
        ),
    )
    assert shown.strip().splitlines()[-1].startswith("IndexError: ")
    assert "---->" not in shown


def test_whole_floats_are_stored_as_javascript_writes_them_back():
    executor = _executor()
    state = {"data": [1.0, 2.5, -3.0], "nested": {"shape": [2.0], "name": "x"}}
    executor.javascript_numbers(state)
    assert state == {"data": [1, 2.5, -3], "nested": {"shape": [2], "name": "x"}}
    assert [type(v) for v in state["data"]] == [int, float, int]

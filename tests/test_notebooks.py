"""Stored notebooks are what a clean top-to-bottom run produces, and safe to show."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import nbformat
import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
# A test notebook whose GPU cells hold fabricated outputs, as a GPU run leaves them: the
# structure checks must hold for chapters once their GPU cells have outputs too.
FABRICATED_GPU = ROOT / "tests" / "data" / "gpu_cells.ipynb"
STORED = [*CHAPTERS, FABRICATED_GPU]
GPU_LABEL = "GPU run: "
EXPECTED = [
    "01_gather_2d",
    "02_batched_selection",
    "03_choosing_an_op",
    "04_error_cases",
    "05_autograd",
    "06_writing_by_index",
]
ABSOLUTE_PATH = re.compile(r"(/work/|/tmp/|/root/|/home/|site-packages|[A-Z]:\\\\)")
TF_STARTUP = re.compile(r"oneDNN custom operations|absl::InitializeLog|cuda_|TF-TRT")


def _code_cells(path: Path) -> list:
    return [c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]


def _tags(cell) -> list[str]:
    return cell.metadata.get("tags", [])


def _text(output) -> str:
    if output.output_type == "stream":
        return output.text
    if output.output_type == "error":
        return f"{output.ename}: {output.evalue}"
    return "\n".join(str(v) for v in output.get("data", {}).values())


def test_toc_lists_the_chapters_in_order():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    files = [entry["file"] for part in toc["parts"] for entry in part["chapters"]]
    assert [f for f in files if f.startswith("notebooks/")] == [
        f"notebooks/{name}" for name in EXPECTED
    ]
    assert [p.stem for p in CHAPTERS] == EXPECTED


def _unrun_gpu_cell(cell) -> bool:
    return "gpu" in _tags(cell) and cell.execution_count is None and not cell.outputs


@pytest.mark.parametrize("path", STORED, ids=lambda p: p.stem)
def test_every_code_cell_counts_its_place_in_a_top_to_bottom_run(path):
    """Count n is the n-th code cell, on a CPU or a GPU; only GPU cells may be unrun."""
    cells = _code_cells(path)
    wrong = [
        (place, cell.execution_count, cell.source[:60])
        for place, cell in enumerate(cells, start=1)
        if cell.execution_count != place and not _unrun_gpu_cell(cell)
    ]
    assert not wrong, wrong


@pytest.mark.parametrize("path", STORED, ids=lambda p: p.stem)
def test_gpu_outputs_say_which_device_and_torch_made_them(path):
    for cell in _code_cells(path):
        if "gpu" in _tags(cell) and cell.outputs:
            first = cell.outputs[0]
            assert first.output_type == "stream", cell.source[:80]
            assert first.text.startswith(GPU_LABEL), (cell.source[:80], first.text)
            assert "torch " in first.text.splitlines()[0], first.text


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_first_cell_is_the_hidden_setup(path):
    first = _code_cells(path)[0]
    assert "gl.setup_book()" in first.source
    assert "hide-cell" in _tags(first)


@pytest.mark.parametrize("path", STORED, ids=lambda p: p.stem)
def test_gpu_cells_are_marked_both_ways(path):
    for cell in _code_cells(path):
        uses_magic = cell.source.startswith("%%gpu")
        assert uses_magic == ("gpu" in _tags(cell)), cell.source[:80]


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_tensorflow_cells_are_marked_both_ways(path):
    for cell in _code_cells(path):
        uses_magic = cell.source.startswith("%%tensorflow")
        assert uses_magic == ("tensorflow" in _tags(cell)), cell.source[:80]
        # TensorFlow is imported only where its cells run (chapter 4's GPU cell guards
        # its own import: it reports whether TensorFlow sees a GPU).
        if not uses_magic and "gpu" not in _tags(cell):
            assert "import tensorflow" not in cell.source, cell.source[:80]


HOW_TO_USE = re.compile(r"^> \*\*Working in this notebook\.\*\* ")
RELATIVE_LINK = re.compile(r"\]\((?!https?://)")


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_first_cell_says_how_to_use_the_notebook_without_relative_links(path):
    """Relative links break in JupyterLab on lab/, in Colab, or in the book."""
    first = nbformat.read(path, as_version=4).cells[0]
    assert first.cell_type == "markdown" and HOW_TO_USE.match(first.source)
    for needed in (
        f"make reset-lab CHAPTER={path.name[:2]}",
        "`%%gpu`",
        "`%%tensorflow`",
        "`# Slow`",
        "%xmode Minimal",
    ):
        assert needed in first.source, needed
    assert not RELATIVE_LINK.search(first.source)


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_slow_cells_say_so_first_and_nothing_later_needs_them(path):
    cells = _code_cells(path)
    for place, cell in enumerate(cells):
        if not cell.source.startswith("# Slow"):
            continue
        assert "skip" in cell.source.splitlines()[1].lower(), cell.source[:160]
        tree = ast.parse(cell.source)
        made = {
            target.id
            for node in ast.walk(tree)
            if isinstance(node, ast.Assign)
            for target in node.targets
            if isinstance(target, ast.Name)
        }
        for later in cells[place + 1 :]:
            used = set(re.findall(r"\b\w+\b", later.source))
            assert not made & used, (made & used, later.source[:80])


def test_every_chapter_stores_the_metadata_jupyterlab_writes():
    """JupyterLab saves the kernelspec of ipykernel's own python3 kernel; a chapter that
    stores another display name turns dirty on its first save."""
    from ipykernel.kernelspec import get_kernel_dict

    expected = {
        "display_name": get_kernel_dict()["display_name"],
        "language": "python",
        "name": "python3",
    }
    stored = [nbformat.read(path, as_version=4).metadata for path in CHAPTERS]
    for path, metadata in zip(CHAPTERS, stored, strict=True):
        assert metadata.kernelspec == expected, path.name
        assert metadata.language_info == stored[0].language_info, path.name
        assert set(metadata) == {"kernelspec", "language_info", "widgets"}, path.name


def _floats(value):
    if isinstance(value, float):
        yield value
    elif isinstance(value, dict | list):
        for item in value.values() if isinstance(value, dict) else value:
            yield from _floats(item)


@pytest.mark.parametrize("path", STORED, ids=lambda p: p.stem)
def test_stored_numbers_are_what_jupyterlab_writes_back(path):
    """JavaScript saves 1.0 as 1 and 1e-05 as 0.00001: no such float may be stored
    (tools/run/execute_notebooks.py stores whole floats as integers)."""
    import json

    for number in _floats(json.loads(path.read_text())):
        assert not number.is_integer(), number
        assert "e" not in repr(number), number


@pytest.mark.parametrize("path", STORED, ids=lambda p: p.stem)
def test_errors_appear_only_in_cells_tagged_raises_exception(path):
    for cell in _code_cells(path):
        errors = [o for o in cell.outputs if o.output_type == "error"]
        if _unrun_gpu_cell(cell):
            continue
        assert bool(errors) == ("raises-exception" in _tags(cell)), cell.source[:80]
        assert len(errors) <= 1, ("an error shown twice", cell.source[:80])


@pytest.mark.parametrize("path", STORED, ids=lambda p: p.stem)
def test_outputs_hold_no_stderr_paths_or_tensorflow_startup_lines(path):
    for cell in _code_cells(path):
        for output in cell.outputs:
            assert output.get("name") != "stderr", (cell.source[:80], output.text)
            text = _text(output)
            assert not ABSOLUTE_PATH.search(text), (cell.source[:80], text[:300])
            assert not TF_STARTUP.search(text), (cell.source[:80], text[:300])


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_page_shape_has_overview_prerequisites_summary_and_next(path):
    headings = [
        line.strip()
        for cell in nbformat.read(path, as_version=4).cells
        if cell.cell_type == "markdown"
        for line in cell.source.splitlines()
        if line.startswith("#")
    ]
    assert headings[0].startswith("# ")
    for heading in ("## Overview", "## Prerequisites", "## Summary", "## What's next"):
        assert heading in headings, heading


CHECK_CALL = re.compile(r'gl\.exercises\.check\("(\d\d\.\w+)"')
SOLUTION_CALL = re.compile(r'gl\.solution\("(\d\d\.\w+)"\)')


def _exercises(path: Path) -> list[list]:
    """Each exercise's cells, from the one that opens its box to its solution cell."""
    cells = nbformat.read(path, as_version=4).cells
    found = []
    for i, cell in enumerate(cells):
        if "{exercise-start}" in cell.source:
            end = next(
                k for k in range(i, len(cells)) if "{exercise-end}" in cells[k].source
            )
            found.append(cells[i : end + 2])
    return found


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_no_exercise_markup_or_solution_shows_in_jupyterlab(path):
    """Only empty fences mark the boxes, and nothing reveals a solution on Run All."""
    for cell in nbformat.read(path, as_version=4).cells:
        jupyter = cell.metadata.get("jupyter", {})
        assert "outputs_hidden" not in jupyter, cell.source[:80]  # JupyterLab drops it
        assert "show_solution" not in cell.source, cell.source[:80]
        assert "{solution-" not in cell.source, cell.source[:80]
        assert ":label:" not in cell.source and ":class:" not in cell.source
        if "{exercise-start}" in cell.source:
            assert cell.source.startswith("```{exercise-start}\n```\n\n**"), cell.source
        if "{exercise-end}" in cell.source:
            assert cell.source == "```{exercise-end}\n```", cell.source


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_every_exercise_follows_the_cell_pattern(path):
    exercises = _exercises(path)
    assert exercises, "every chapter has exercises"
    for start, *inside, end, solution in exercises:
        assert start.cell_type == end.cell_type == "markdown"
        checks = [
            found
            for cell in inside
            if cell.cell_type == "code"
            for found in CHECK_CALL.findall(cell.source)
        ]
        match = SOLUTION_CALL.fullmatch(solution.source)
        assert match, f"the cell after {checks}'s box must be gl.solution(...)"
        exercise_id = match.group(1)
        assert checks == [exercise_id], (checks, exercise_id)
        assert exercise_id[:2] == path.stem[:2]
        assert solution.metadata["jupyter"] == {"source_hidden": True}
        assert "remove-input" in _tags(solution)
        (output,) = solution.outputs
        html = output.data["text/html"]
        assert html.startswith('<details class="gl-collapsed">'), html[:80]
        assert "<details open" not in html, exercise_id
        assert "passed" in output.data["text/plain"], exercise_id


PAGE_MARKER = re.compile(r'<div class="gl-page-check" data-exercise="([\w.]+)" hidden>')


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_a_stored_chapter_holds_no_exercise_payload(path):
    """A stub's output keeps the verdict a reader sees and an empty marker, once per
    exercise; the payload (cases, misconceptions, words) is built with the book from
    the package (tools/build/lean_pages.py), so rewording a message or adding a
    misconception changes no stored output."""
    marked = []
    for cell in _code_cells(path):
        for output in cell.outputs:
            shown = output.get("data", {}).get("text/html", "")
            assert "data-payload" not in shown and "data-head" not in shown, cell.id
            assert '"templates"' not in shown and '"misconceptions"' not in shown
            found = PAGE_MARKER.findall(shown)
            if found:
                assert shown.endswith("></div>"), shown[-200:]
                assert len(shown.split("gl-page-check")[1]) < 80, cell.id
            marked += found
    checked = [
        CHECK_CALL.findall(cell.source)[0]
        for start, *inside, end, solution in _exercises(path)
        for cell in inside
        if CHECK_CALL.findall(cell.source)
    ]
    assert marked == checked


def _gatherlab_imports(source: str) -> list[str]:
    """Every import of gatherlab in a cell, as written (magics' lines left out)."""
    code = "\n".join(
        "" if line.lstrip().startswith(("%", "!")) else line
        for line in source.splitlines()
    )
    found = []
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            found += [
                f"import {a.name}" + (f" as {a.asname}" if a.asname else "")
                for a in node.names
                if a.name.split(".")[0] == "gatherlab"
            ]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module.split(".")[0] == "gatherlab":
                names = ", ".join(a.name for a in node.names)
                found.append(f"from {node.module} import {names}")
    return found


def test_gatherlab_imports_find_both_forms():
    assert _gatherlab_imports(
        "%%tensorflow\nimport gatherlab as gl\nfrom gatherlab.figures import legend\n"
        "import gatherlab.timing\nimport torch"
    ) == [
        "import gatherlab as gl",
        "from gatherlab.figures import legend",
        "import gatherlab.timing",
    ]


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_chapters_reach_gatherlab_only_through_gl(path):
    """One namespace: `import gatherlab as gl`, then gl.<name> or gl.<module>.<name>
    (gatherlab/__init__.py says which); no chapter imports from a submodule."""
    imports = [
        (cell.id, line)
        for cell in _code_cells(path)
        for line in _gatherlab_imports(cell.source)
    ]
    assert imports, "the chapter never imports gatherlab"
    assert [i for i in imports if i[1] != "import gatherlab as gl"] == []

"""GPU outputs through the one executor (tools/run/execute_notebooks.py), on a CPU.

``--gpu-only`` runs a chapter as ``make notebooks`` does and stores only its ``gpu``
cells; here a stub device (``--stub-device``: the kernel's ``%%gpu`` runs its cell
without CUDA) runs ``tests/data/gpu_cells.ipynb``, whose GPU outputs were written by
hand, into copies only. No test here stores a CPU output as a GPU one.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
import torch

from gatherlab import notebook as book
from tests.test_notebook_plumbing import nbval_run
from tools.run import execute_notebooks

ROOT = Path(__file__).resolve().parent.parent
FABRICATED = ROOT / "tests" / "data" / "gpu_cells.ipynb"
EXECUTOR = ROOT / "tools" / "run" / "execute_notebooks.py"
STUB_LABEL = execute_notebooks.STUB_LABEL + "\n"

cpu_only = pytest.mark.skipif(torch.cuda.is_available(), reason="checks the CPU path")


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _text(cell: dict) -> str:
    return "".join(
        "".join(o.get("text", "")) or f"{o.get('ename')}: {o.get('evalue')}"
        for o in cell["outputs"]
    )


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(EXECUTOR), *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )


@pytest.fixture(scope="module")
def stub_run(tmp_path_factory) -> tuple[Path, Path, subprocess.CompletedProcess]:
    """The fabricated notebook with a failing gpu cell added at its end, before and
    after a stub-device ``--gpu-only`` run written to a copy."""
    folder = tmp_path_factory.mktemp("gpu-out")
    notebook = nbformat.read(FABRICATED, as_version=4)
    broken = nbformat.v4.new_code_cell(
        '%%gpu\nprint("gpu sees", no_such_name)',
        id="broken",
        metadata={"tags": ["gpu"]},
    )
    notebook.cells.append(broken)
    before = folder / "in" / FABRICATED.name
    before.parent.mkdir()
    nbformat.write(notebook, before)
    stored = FABRICATED.read_bytes()
    result = _run("--stub-device", "--gpu-only", "--out", str(folder), str(before))
    assert FABRICATED.read_bytes() == stored, "a stub run wrote the stored notebook"
    return before, folder / FABRICATED.name, result


def test_each_gpu_cell_gets_its_outputs_and_its_place_as_count(stub_run):
    _, after, _ = stub_run
    cells = [c for c in _cells(after) if c["cell_type"] == "code"]
    assert _text(cells[2]) == STUB_LABEL + "gpu sees 42\n"  # names from the cell above
    assert cells[2]["execution_count"] == 3
    shown = cells[5]["outputs"]
    assert shown[-1]["output_type"] == "execute_result"
    assert shown[-1]["data"]["text/plain"] == ["84"]
    assert cells[5]["execution_count"] == shown[-1]["execution_count"] == 6


def test_an_error_shows_once_as_the_cells_own(stub_run):
    _, after, _ = stub_run
    raising = [c for c in _cells(after) if c["cell_type"] == "code"][4]["outputs"]
    assert [o["output_type"] for o in raising] == ["stream", "error"]
    assert (raising[1]["ename"], raising[1]["evalue"]) == (
        "RuntimeError",
        "device-side trouble",
    )


def test_a_failing_gpu_cell_is_not_stored_and_the_run_says_why(stub_run):
    before, after, result = stub_run
    assert result.returncode == 1, result.stdout + result.stderr
    assert "(broken) not stored: NameError: name 'no_such_name' is not defined" in (
        result.stdout
    )
    assert _cells(after)[-1] == _cells(before)[-1]


def test_every_other_cell_and_the_metadata_stay_byte_for_byte(stub_run):
    before, after, _ = stub_run
    old, new = (json.loads(p.read_text(encoding="utf-8")) for p in (before, after))
    assert old["metadata"] == new["metadata"]
    for was, now in zip(old["cells"], new["cells"], strict=True):
        if "gpu" not in was.get("metadata", {}).get("tags", []):
            assert json.dumps(was, sort_keys=True) == json.dumps(now, sort_keys=True)


def test_check_compares_stored_and_fresh_gpu_outputs_after_sanitizing(tmp_path):
    changed = tmp_path / FABRICATED.name
    notebook = nbformat.read(FABRICATED, as_version=4)
    notebook.cells[5].outputs[0]["text"] = "GPU run: elsewhere\n"  # sanitized alike
    notebook.cells[3].outputs[0]["text"] = "GPU run: elsewhere\ngpu sees 41\n"
    nbformat.write(notebook, changed)
    written = changed.read_bytes()
    result = _run("--stub-device", "--check", str(changed))
    lines = result.stdout.splitlines()
    assert any("cell 3 (" in line and "DIFFERS" in line for line in lines), lines
    assert "gpu sees 41" in result.stdout and "gpu sees 42" in result.stdout
    assert any("cell 5 " in line and "same as stored" in line for line in lines)
    assert any("cell 6 " in line and "nothing stored yet" in line for line in lines)
    assert result.returncode == 1
    assert changed.read_bytes() == written


@cpu_only
def test_gpu_outputs_are_refused_without_cuda(tmp_path):
    copy = tmp_path / FABRICATED.name
    shutil.copy(FABRICATED, copy)
    result = _run("--gpu-only", str(copy))
    assert result.returncode == 2
    assert "GPU outputs can only come from a GPU" in result.stderr
    assert copy.read_bytes() == FABRICATED.read_bytes()
    refused = _run("--stub-device", "--gpu-only", str(copy))
    assert refused.returncode == 2 and "never writes the stored" in refused.stderr


@cpu_only
def test_a_cpu_run_keeps_stored_gpu_outputs_and_counts(tmp_path):
    copy = tmp_path / FABRICATED.name
    shutil.copy(FABRICATED, copy)
    subprocess.run([sys.executable, str(EXECUTOR), str(copy)], check=True, timeout=300)
    after, before = (json.loads(p.read_text("utf-8")) for p in (copy, FABRICATED))
    # The kernel records the Python that ran it; everything else must be byte for byte.
    for notebook in (after, before):
        notebook["metadata"]["language_info"].pop("version")
    assert json.dumps(after, indent=1) == json.dumps(before, indent=1)


@cpu_only
def test_nbval_skips_stored_gpu_cells_and_compares_the_rest(tmp_path):
    copy = tmp_path / FABRICATED.name
    shutil.copy(FABRICATED, copy)
    result = nbval_run(copy)
    assert result.returncode == 0, result.stdout
    assert "4 passed, 3 skipped" in result.stdout
    assert "needs a CUDA device" in result.stdout


def test_notebook_files_are_written_as_nbformat_writes_them():
    for path in [FABRICATED, *sorted((ROOT / "notebooks").glob("*.ipynb"))]:
        raw = path.read_text(encoding="utf-8")
        text = json.dumps(json.loads(raw), indent=1, sort_keys=True, ensure_ascii=False)
        assert text + "\n" == raw, path


def test_the_wheels_for_a_bare_machine_are_pinned_and_leave_torch_out():
    pins = execute_notebooks.pins(ROOT / "requirements.txt")
    names = {pin.split("==")[0].lower().replace("_", "-") for pin in pins}
    assert set(execute_notebooks.WHEELS) | set(execute_notebooks.PRESENT) <= names
    assert not set(execute_notebooks.WHEELS) & set(execute_notebooks.PRESENT)
    assert "ipykernel==7.4.0" in pins and "-e ." not in pins


def test_gpu_magic_shows_a_raising_cell_once(monkeypatch):
    from IPython.testing.globalipapp import get_ipython

    shell = get_ipython()
    monkeypatch.setattr(book, "cuda_available", lambda: True)
    monkeypatch.setattr(book, "gpu_label", lambda: "GPU run: stub")
    with pytest.raises(RuntimeError, match="once"):
        book.gpu("", "raise RuntimeError('once')")
    book.gpu("", "shown = 6 * 7\nshown")
    assert shell.user_ns["shown"] == 42 and shell.user_ns["_"] == 42

"""The GPU plumbing on a CPU machine: the runner behind ``make gpu-outputs`` (with a
stub device, into copies only), the executor and nbval on a notebook with GPU outputs.

No test here stores a CPU output as a GPU one: the stub runs write to ``tmp_path``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from gatherlab import notebook as book
from tests.test_notebook_plumbing import nbval_run
from tools.run import gpu_outputs

ROOT = Path(__file__).resolve().parent.parent
FABRICATED = ROOT / "tests" / "data" / "gpu_cells.ipynb"
RUNNER = ROOT / "tools" / "run" / "gpu_outputs.py"
STUB_LABEL = "GPU run: stub device (no CUDA), for tests only\n"

cpu_only = pytest.mark.skipif(torch.cuda.is_available(), reason="checks the CPU path")


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _text(cell: dict) -> str:
    return "".join(
        "".join(o.get("text", "")) or f"{o.get('ename')}: {o.get('evalue')}"
        for o in cell["outputs"]
    )


def _run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(RUNNER), *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
    )


@pytest.fixture(scope="module")
def stub_run(tmp_path_factory) -> Path:
    """The fabricated notebook after a stub-device run, written to a copy."""
    out = tmp_path_factory.mktemp("gpu-out")
    before = FABRICATED.read_bytes()
    result = _run("--stub-device", "--out", str(out), str(FABRICATED))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "stored 3 of 3 GPU cells" in result.stdout
    assert FABRICATED.read_bytes() == before, "a stub run wrote the stored notebook"
    return out / FABRICATED.name


def test_runner_writes_each_gpu_cells_outputs_with_its_label(stub_run):
    cells = [c for c in _cells(stub_run) if c["cell_type"] == "code"]
    assert _text(cells[2]) == STUB_LABEL + "gpu sees 42\n"  # names from the cell above
    assert cells[2]["execution_count"] == 3


def test_runner_shows_an_error_once_and_a_trailing_value(stub_run):
    cells = [c for c in _cells(stub_run) if c["cell_type"] == "code"]
    raising = cells[4]["outputs"]
    assert [o["output_type"] for o in raising] == ["stream", "error"]
    assert (raising[1]["ename"], raising[1]["evalue"]) == (
        "RuntimeError",
        "device-side trouble",
    )
    shown = cells[5]["outputs"]
    assert shown[-1]["output_type"] == "execute_result"
    assert shown[-1]["data"]["text/plain"] == ["84"]
    assert cells[5]["execution_count"] == shown[-1]["execution_count"] == 6


def test_runner_leaves_every_other_cell_byte_for_byte(stub_run):
    before, after = _cells(FABRICATED), _cells(stub_run)
    for old, new in zip(before, after, strict=True):
        if "gpu" not in old.get("metadata", {}).get("tags", []):
            assert json.dumps(old, sort_keys=True) == json.dumps(new, sort_keys=True)


def test_check_compares_stored_and_fresh_outputs_after_sanitizing():
    result = _run("--stub-device", "--check", str(FABRICATED))
    lines = result.stdout.splitlines()
    # The stored label names another device: the sanitizer makes that no difference.
    assert any("cell 3 " in line and "same as stored" in line for line in lines)
    assert any("cell 5 " in line and "same as stored" in line for line in lines)
    assert any("cell 6 " in line and "nothing stored yet" in line for line in lines)
    assert result.returncode == 1, result.stdout


def test_check_reports_a_changed_output(tmp_path):
    changed = tmp_path / FABRICATED.name
    notebook = json.loads(FABRICATED.read_text(encoding="utf-8"))
    notebook["cells"][3]["outputs"][0]["text"][1] = "gpu sees 41\n"
    gpu_outputs.write_notebook(notebook, changed)
    result = _run("--stub-device", "--check", str(changed))
    assert "cell 3 (" in result.stdout and "DIFFERS" in result.stdout
    assert "gpu sees 41" in result.stdout and "gpu sees 42" in result.stdout


def test_a_failing_gpu_cell_is_not_stored(tmp_path):
    broken = tmp_path / "broken.ipynb"
    notebook = json.loads(FABRICATED.read_text(encoding="utf-8"))
    notebook["cells"][3]["source"] = ['%%gpu\nprint("gpu sees", no_such_name)']
    gpu_outputs.write_notebook(notebook, broken)
    result = _run("--stub-device", "--out", str(tmp_path / "out"), str(broken))
    assert result.returncode == 1
    assert "not stored: NameError: name 'no_such_name' is not defined" in result.stdout
    kept = _cells(tmp_path / "out" / "broken.ipynb")[3]
    assert kept["outputs"] == notebook["cells"][3]["outputs"]


@cpu_only
def test_runner_refuses_to_store_without_cuda(tmp_path):
    copy = tmp_path / FABRICATED.name
    shutil.copy(FABRICATED, copy)
    result = _run(str(copy))
    assert result.returncode == 2
    assert "GPU outputs can only come from a GPU" in result.stderr
    assert copy.read_bytes() == FABRICATED.read_bytes()
    refused = _run("--stub-device", str(copy))
    assert refused.returncode == 2 and "never writes the stored" in refused.stderr


def test_notebook_files_are_written_as_nbformat_writes_them():
    for path in [FABRICATED, *sorted((ROOT / "notebooks").glob("*.ipynb"))]:
        raw = path.read_text(encoding="utf-8")
        text = json.dumps(json.loads(raw), indent=1, sort_keys=True, ensure_ascii=False)
        assert text + "\n" == raw, path


def test_every_wheel_the_gpu_machine_needs_is_pinned():
    pins = gpu_outputs.pinned_wheels(ROOT / "requirements.txt")
    assert len(pins) == len(gpu_outputs.WHEELS), pins
    assert "ipywidgets==8.1.9" in pins


@cpu_only
def test_executor_keeps_stored_gpu_outputs_and_counts_on_a_cpu_machine(tmp_path):
    copy = tmp_path / FABRICATED.name
    shutil.copy(FABRICATED, copy)
    executor = ROOT / "tools" / "run" / "execute_notebooks.py"
    subprocess.run([sys.executable, str(executor), str(copy)], check=True, timeout=300)
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


def test_gpu_magic_shows_a_raising_cell_once(monkeypatch):
    from IPython.testing.globalipapp import get_ipython

    shell = get_ipython()
    monkeypatch.setattr(book, "cuda_available", lambda: True)
    monkeypatch.setattr(book, "gpu_label", lambda: "GPU run: stub")
    with pytest.raises(RuntimeError, match="once"):
        book.gpu("", "raise RuntimeError('once')")
    book.gpu("", "shown = 6 * 7\nshown")
    assert shell.user_ns["shown"] == 42 and shell.user_ns["_"] == 42

"""Execute the chapters' GPU cells on a CUDA machine and store their outputs.

``make gpu-outputs`` (or ``python tools/run/gpu_outputs.py notebooks/NN_*.ipynb``) needs
no Jupyter, nbformat or TensorFlow: an IPython shell replays each chapter's code cells
in order, so every ``gpu`` cell finds the names the cells above it defined, and the
outputs of the ``gpu`` cells are recorded the way a notebook kernel shows them
(streams, displayed values, errors as ``ExceptionType: message``) with the execution
count a top-to-bottom run gives them. Only those cells change in the stored notebook;
every other cell is left byte for byte as it was.

A ``gpu`` cell that raises without the tag ``raises-exception`` is not stored: its
stored outputs stay, and the run ends with exit status 1 and the reason. A cell above
it that fails on this machine (TensorFlow is missing on a GPU machine without it, say)
is reported too, since the cells after it may miss names.

``--check`` runs the same cells again and compares what they print with what is
stored, after the sanitizers of ``tests/sanitize.cfg`` (nbval's comparison, for machines
without nbval); cells tagged ``nbval-ignore-output`` are not compared.
``--download-wheels DIR`` fetches the pure-Python wheels this script needs on a machine
that only has torch, at the versions pinned in ``requirements.txt``. ``--stub-device``
runs the ``gpu`` cells without CUDA, for testing this script's plumbing only: it never
writes the stored notebooks (it needs ``--out`` or ``--check``).
"""

from __future__ import annotations

import argparse
import configparser
import contextlib
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from gatherlab.notebook import GPU_TAG

ROOT = Path(__file__).resolve().parents[2]
RAISES_TAG = "raises-exception"
IGNORE_TAG = "nbval-ignore-output"
# What `import gatherlab` and the replayed cells need besides torch, numpy, matplotlib,
# psutil, pygments and typing_extensions, which the GPU machine with PyTorch has.
WHEELS = (
    "anywidget",
    "asttokens",
    "comm",
    "executing",
    "ipython",
    "ipython_pygments_lexers",
    "ipywidgets",
    "jedi",
    "jupyterlab_widgets",
    "matplotlib-inline",
    "parso",
    "pexpect",
    "prompt_toolkit",
    "psygnal",
    "ptyprocess",
    "pure_eval",
    "stack_data",
    "traitlets",
    "wcwidth",
    "widgetsnbextension",
)


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pinned_wheels(requirements: Path) -> list[str]:
    """``name==version`` for every package in WHEELS that requirements.txt pins."""
    pins = {}
    for line in requirements.read_text().splitlines():
        name, sep, version = line.split("#")[0].strip().partition("==")
        if sep:
            pins[_canonical(name)] = f"{name}=={version.split(';')[0].strip()}"
    return [pins[_canonical(n)] for n in WHEELS if _canonical(n) in pins]


def download_wheels(target: Path) -> None:
    """Fetch the wheels for a Python 3.12 x86-64 Linux machine into ``target``."""
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--quiet",
            "--no-deps",
            "--only-binary=:all:",
            "--python-version",
            "3.12",
            "--implementation",
            "cp",
            "--platform",
            "manylinux2014_x86_64",
            "--platform",
            "any",
            "-d",
            str(target),
            *pinned_wheels(ROOT / "requirements.txt"),
        ],
        check=True,
    )


# the notebook file, without nbformat


def read_notebook(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def write_notebook(notebook: dict, path: Path) -> None:
    """Write as nbformat does: sorted keys, one-space indent, a final newline."""
    text = json.dumps(notebook, indent=1, sort_keys=True, ensure_ascii=False)
    path.write_text(text + "\n", encoding="utf-8")


def _source(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def _tags(cell: dict) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def _is_json_mime(mime: str) -> bool:
    return mime == "application/json" or mime.endswith("+json")


def _stored_data(data: dict) -> dict:
    """A mime bundle as nbformat stores it: text split into lines, JSON kept whole."""
    return {
        mime: _lines(value)
        if isinstance(value, str) and not _is_json_mime(mime)
        else value
        for mime, value in data.items()
    }


# a kernel-like shell


@dataclass
class CellRecord:
    outputs: list[dict] = field(default_factory=list)

    def stream(self, name: str, text: str) -> None:
        last = self.outputs[-1] if self.outputs else None
        if last and last["output_type"] == "stream" and last["name"] == name:
            last["text"] += text
        else:
            self.outputs.append({"name": name, "output_type": "stream", "text": text})

    def finished(self) -> list[dict]:
        """The outputs in nbformat's on-disk form."""
        stored = []
        for output in self.outputs:
            output = dict(output)
            if output["output_type"] == "stream":
                output["text"] = _lines(output["text"])
            elif "data" in output:
                output["data"] = _stored_data(output["data"])
            stored.append(output)
        return stored


class _StreamToRecord:
    def __init__(self, shell_state, name: str) -> None:
        self._state, self._name = shell_state, name

    def write(self, text: str) -> int:
        self._state.record.stream(self._name, text)
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


class Recorder:
    """Holds the record of the cell being run; the shell's hooks write into it."""

    def __init__(self) -> None:
        self.record = CellRecord()

    def new_cell(self) -> CellRecord:
        self.record = CellRecord()
        return self.record


def make_shell(recorder: Recorder):
    """A fresh IPython shell whose displays, results and errors go to ``recorder``."""
    from IPython.core.displayhook import DisplayHook
    from IPython.core.displaypub import DisplayPublisher
    from IPython.core.interactiveshell import InteractiveShell

    class RecordingDisplayHook(DisplayHook):
        def write_output_prompt(self) -> None:
            pass

        def write_format_data(self, format_dict, md_dict=None) -> None:
            recorder.record.outputs.append(
                {
                    "data": format_dict,
                    "execution_count": self.prompt_count,
                    "metadata": md_dict or {},
                    "output_type": "execute_result",
                }
            )

        def finish_displayhook(self) -> None:
            pass

    class RecordingPublisher(DisplayPublisher):
        def publish(self, data, metadata=None, *args, **kwargs) -> None:
            output = {"data": data, "metadata": metadata or {}}
            recorder.record.outputs.append({**output, "output_type": "display_data"})

        def clear_output(self, wait=False) -> None:
            recorder.record.outputs.clear()

    class RecordingShell(InteractiveShell):
        displayhook_class = RecordingDisplayHook
        display_pub_class = RecordingPublisher

        def enable_gui(self, gui=None) -> None:
            pass  # inline figures need no event loop

        def _showtraceback(self, etype, evalue, stb) -> None:
            recorder.record.outputs.append(
                {
                    "ename": etype.__name__,
                    "evalue": str(evalue),
                    "output_type": "error",
                    "traceback": stb,
                }
            )

    InteractiveShell.clear_instance()
    RecordingShell.clear_instance()
    shell = RecordingShell.instance()
    # Matplotlib figures come back as PNG data, as in a notebook kernel.
    shell.enable_matplotlib("inline")
    return shell


# running a chapter


@dataclass
class GpuCell:
    index: int
    cell_id: str
    execution_count: int
    outputs: list[dict]
    error: str | None


@dataclass
class ChapterRun:
    path: Path
    gpu_cells: list[GpuCell]
    replay_failures: list[str]


def _first_error(outputs: list[dict]) -> str | None:
    for output in outputs:
        if output["output_type"] == "error":
            return f"{output['ename']}: {output['evalue']}".splitlines()[0]
    return None


def run_chapter(path: Path, stub_device: bool = False) -> ChapterRun:
    """Replay every code cell of ``path`` in order; keep what its ``gpu`` cells show."""
    from gatherlab import notebook as book

    notebook = read_notebook(path)
    recorder = Recorder()
    shell = make_shell(recorder)
    real_hooks = book.cuda_available, book.gpu_label
    if stub_device:
        book.cuda_available = lambda: True
        book.gpu_label = lambda: "GPU run: stub device (no CUDA), for tests only"
    gpu_cells, failures = [], []
    real_out, real_err = sys.stdout, sys.stderr
    previous_dir = Path.cwd()
    os.chdir(path.parent)
    try:
        for index, cell in enumerate(notebook["cells"]):
            if cell["cell_type"] != "code":
                continue
            record = recorder.new_cell()
            count = shell.execution_count
            with (
                contextlib.redirect_stdout(_StreamToRecord(recorder, "stdout")),
                contextlib.redirect_stderr(_StreamToRecord(recorder, "stderr")),
            ):
                shell.run_cell(_source(cell), store_history=True)
            outputs = record.finished()
            error = _first_error(outputs)
            expected_error = RAISES_TAG in _tags(cell)
            if GPU_TAG in _tags(cell):
                reason = None if expected_error or error is None else error
                gpu_cells.append(GpuCell(index, cell["id"], count, outputs, reason))
            elif error is not None and not expected_error:
                failures.append(f"cell {index} ({cell['id']}): {error}")
    finally:
        os.chdir(previous_dir)
        sys.stdout, sys.stderr = real_out, real_err
        book.cuda_available, book.gpu_label = real_hooks
    return ChapterRun(path, gpu_cells, failures)


def store(run: ChapterRun, target: Path) -> list[str]:
    """Write ``run``'s GPU outputs into a copy of its notebook at ``target``."""
    notebook = read_notebook(run.path)
    problems = []
    for gpu in run.gpu_cells:
        if gpu.error is not None:
            problems.append(f"cell {gpu.index} ({gpu.cell_id}) not stored: {gpu.error}")
            continue
        cell = notebook["cells"][gpu.index]
        cell["outputs"], cell["execution_count"] = gpu.outputs, gpu.execution_count
    write_notebook(notebook, target)
    return problems


# comparing with the stored outputs


def sanitizers(config: Path) -> list[tuple[re.Pattern, str]]:
    parser = configparser.ConfigParser()
    parser.read(config, encoding="utf-8")
    return [
        (re.compile(parser[s]["regex"]), parser[s]["replace"])
        for s in parser.sections()
    ]


def comparable(outputs: list[dict], rules: list[tuple[re.Pattern, str]]) -> list[str]:
    """What nbval compares of each output (no tracebacks, counts or metadata)."""
    texts = []
    for output in outputs:
        kind = output["output_type"]
        if kind == "stream":
            texts.append(f"{output['name']}: {''.join(output['text'])}")
        elif kind == "error":
            texts.append(f"error: {output['ename']}: {output['evalue']}")
        else:
            for mime in sorted(output.get("data", {})):
                if mime.startswith("text/"):
                    texts.append(f"{mime}: {''.join(output['data'][mime])}")
    for pattern, replacement in rules:
        texts = [pattern.sub(replacement, text) for text in texts]
    return texts


def check(run: ChapterRun, rules: list[tuple[re.Pattern, str]]) -> list[str]:
    """One line per GPU cell: same as stored, or how it differs."""
    notebook = read_notebook(run.path)
    lines = []
    for gpu in run.gpu_cells:
        cell = notebook["cells"][gpu.index]
        where = f"{run.path.name} cell {gpu.index} ({gpu.cell_id})"
        if IGNORE_TAG in _tags(cell):
            lines.append(f"{where}: not compared ({IGNORE_TAG})")
        elif not cell.get("outputs"):
            lines.append(f"{where}: DIFFERS: nothing stored yet")
        elif comparable(cell["outputs"], rules) == comparable(gpu.outputs, rules):
            lines.append(f"{where}: same as stored")
        else:
            lines.append(
                f"{where}: DIFFERS\n  stored: {comparable(cell['outputs'], rules)}"
                f"\n  now:    {comparable(gpu.outputs, rules)}"
            )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=Path)
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    parser.add_argument("--out", type=Path, help="write copies here, not in place")
    parser.add_argument("--stub-device", action="store_true", help="tests only")
    parser.add_argument("--download-wheels", type=Path, metavar="DIR")
    args = parser.parse_args(argv)
    if args.download_wheels:
        download_wheels(args.download_wheels)
        return 0
    if args.stub_device and not (args.check or args.out):
        parser.error("--stub-device never writes the stored notebooks: add --out")
    if not args.stub_device:
        import torch

        if not torch.cuda.is_available():
            message = "No CUDA device: GPU outputs can only come from a GPU."
            print(message, file=sys.stderr)
            return 2
    rules = sanitizers(ROOT / "tests" / "sanitize.cfg")
    status = 0
    for path in args.notebooks:
        run = run_chapter(path, stub_device=args.stub_device)
        for failure in run.replay_failures:
            print(f"{path.name}: a cell above the GPU cells failed here: {failure}")
        if args.check:
            lines = check(run, rules)
            status |= any("DIFFERS" in line for line in lines)
        else:
            if args.out:
                args.out.mkdir(parents=True, exist_ok=True)
            target = args.out / path.name if args.out else path
            lines = store(run, target)
            status |= bool(lines)
            stored = sum(g.error is None for g in run.gpu_cells)
            total = len(run.gpu_cells)
            lines.insert(0, f"{path.name}: stored {stored} of {total} GPU cells")
        print("\n".join(lines))
    return status


if __name__ == "__main__":
    sys.exit(main())

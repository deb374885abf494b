"""Execute chapter notebooks top to bottom in place: the one way to run a chapter.

``make notebooks`` stores every cell's outputs and the widget state. Every code cell
runs, so execution counts are the cells' positions among the code cells on any machine.
Where PyTorch sees no CUDA, a cell tagged ``gpu`` only prints its skip line, and its
stored outputs and execution count are put back afterwards: a CPU run never erases
outputs that a GPU run stored.
Widget model ids are renamed by order of appearance, so re-running an unchanged chapter
writes the same bytes (``git diff`` shows only what really changed). Numbers are stored
as JupyterLab writes them back (a whole float as an integer), so opening and saving a
chapter in JupyterLab changes no byte.

On a CUDA machine, ``--gpu-only`` (``make gpu-outputs``) runs the whole chapter the same
way but stores only what its ``gpu`` cells show, with their execution counts; every
other cell, and the notebook's metadata, stay byte for byte as stored. A ``gpu`` cell
that raises without the tag ``raises-exception`` is not stored (its stored outputs stay)
and the run exits 1 with the reason; a cell above it that fails there is reported too
(the cells after it may miss names). ``--check`` runs the chapters again and compares
each ``gpu`` cell with what is stored, after the sanitizers of ``tests/sanitize.cfg``
(what nbval compares), writing nothing.

A machine with Python and torch but no Jupyter (the lent GPU machine): here,
``--download-wheels DIR`` (``make gpu-wheels``) fetches the wheels this script and the
chapters need beyond torch, NumPy and matplotlib (nbclient, ipykernel, ipywidgets...,
at requirements.txt's pins, for ``--for-python``, 3.12 by default); there, ``--wheels
DIR`` installs them into ``DIR/site`` and runs this script again with them on the path
(the kernel inherits it): ``python3 tools/run/execute_notebooks.py --wheels .whl
--gpu-only notebooks/[0-9][0-9]_*.ipynb``. ``--stub-device`` makes the kernel's
``%%gpu`` run its cell without CUDA, for tests and rehearsals only: it never writes the
stored notebooks (it needs ``--out`` or ``--check``).
"""

from __future__ import annotations

import argparse
import configparser
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RAISES_TAG = "raises-exception"
IGNORE_TAG = "nbval-ignore-output"
STUB_LABEL = "GPU run: stub device (no CUDA), for tests only"
# Run by the kernel before the chapter with --stub-device (an IPython startup file).
STUB_DEVICE = f"""
import gatherlab.notebook as _book

_book.cuda_available = lambda: True
_book.gpu_label = lambda: {STUB_LABEL!r}
"""
# What a machine with Python, torch, NumPy and matplotlib lacks to run this script and
# every chapter: the packages named here with all they need (pip resolves them at
# requirements.txt's pins).
WHEELS = ("nbclient", "nbformat", "ipykernel", "ipywidgets", "anywidget", "psutil")
# What that machine has (never fetched).
PRESENT = ("torch", "numpy", "matplotlib")
# Linux x86-64 with glibc 2.17 to 2.28 (torch's own wheels need 2.28).
PLATFORMS = (
    "manylinux2014_x86_64",
    *(f"manylinux_2_{minor}_x86_64" for minor in range(17, 29)),
    "linux_x86_64",
    "any",
)


def _tags(cell) -> list[str]:
    return cell.metadata.get("tags", [])


def _gpu(cell) -> bool:
    from gatherlab.notebook import GPU_TAG  # after --wheels: gatherlab needs IPython

    return GPU_TAG in _tags(cell)


def _gpu_cells(notebook) -> list:
    return [c for c in notebook.cells if _gpu(c)]


def _first_error(outputs) -> str | None:
    for output in outputs:
        if output.output_type == "error":
            return f"{output.ename}: {output.evalue}".splitlines()[0]
    return None


def run(path: Path, allow_errors: bool = False):
    """``path`` executed top to bottom in a fresh kernel, as a new notebook object."""
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(
        notebook,
        timeout=600,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
        record_timing=False,
        store_widget_state=True,
        # One output box per stream, however the kernel happened to flush (nbval
        # merges streams the same way before comparing).
        coalesce_streams=True,
        allow_errors=allow_errors,
    )
    client.execute()
    return notebook


def execute(path: Path, has_cuda: bool) -> None:
    """``make notebooks``: every output stored (a CPU run keeps the gpu cells')."""
    import nbformat

    stored = [
        (c.outputs, c.execution_count) for c in _gpu_cells(nbformat.read(path, 4))
    ]
    notebook = run(path)
    if not has_cuda:
        for cell, (outputs, count) in zip(_gpu_cells(notebook), stored, strict=True):
            cell.outputs, cell.execution_count = outputs, count
    stable_widget_ids(notebook, path.stem)
    javascript_numbers(notebook)
    nbformat.write(notebook, path)


def gpu_only(path: Path, target: Path) -> list[str]:
    """Run ``path`` and write it to ``target`` with only its gpu cells' outputs new;
    returns what was not stored, and why."""
    import nbformat

    stored = nbformat.read(path, as_version=4)
    fresh = run(path, allow_errors=True)
    problems = []
    for index, (old, new) in enumerate(zip(stored.cells, fresh.cells, strict=True)):
        if old.cell_type != "code":
            continue
        error = None if RAISES_TAG in _tags(old) else _first_error(new.outputs)
        where = f"{path.name} cell {index} ({old.id})"
        if not _gpu(old):
            if error:
                problems.append(f"{where}, above the gpu cells, failed here: {error}")
        elif error:
            problems.append(f"{where} not stored: {error}")
        else:
            javascript_numbers(new.outputs)
            old.outputs, old.execution_count = new.outputs, new.execution_count
    nbformat.write(stored, target)
    return problems


def sanitizers(config: Path) -> list[tuple[re.Pattern, str]]:
    parser = configparser.ConfigParser()
    parser.read(config, encoding="utf-8")
    return [
        (re.compile(parser[s]["regex"]), parser[s]["replace"])
        for s in parser.sections()
    ]


def comparable(outputs, rules: list[tuple[re.Pattern, str]]) -> list[str]:
    """What nbval compares of each output (no tracebacks, counts or metadata)."""
    texts = []
    for output in outputs:
        kind = output["output_type"]
        if kind == "stream":
            texts.append(f"{output['name']}: {output['text']}")
        elif kind == "error":
            texts.append(f"error: {output['ename']}: {output['evalue']}")
        else:
            for mime in sorted(output.get("data", {})):
                if mime.startswith("text/"):
                    texts.append(f"{mime}: {output['data'][mime]}")
    for pattern, replacement in rules:
        texts = [pattern.sub(replacement, text) for text in texts]
    return texts


def check(path: Path, rules: list[tuple[re.Pattern, str]]) -> list[str]:
    """One line per gpu cell of ``path``, run again: as stored, or how it differs."""
    import nbformat

    stored = nbformat.read(path, as_version=4)
    fresh = run(path, allow_errors=True)
    lines = []
    for index, (old, new) in enumerate(zip(stored.cells, fresh.cells, strict=True)):
        if not _gpu(old):
            continue
        where = f"{path.name} cell {index} ({old.id})"
        before, now = comparable(old.outputs, rules), comparable(new.outputs, rules)
        if IGNORE_TAG in _tags(old):
            lines.append(f"{where}: not compared ({IGNORE_TAG})")
        elif not old.outputs:
            lines.append(f"{where}: DIFFERS: nothing stored yet")
        elif before == now:
            lines.append(f"{where}: same as stored")
        else:
            lines.append(f"{where}: DIFFERS\n  stored: {before}\n  now:    {now}")
    return lines


def pins(requirements: Path) -> list[str]:
    """requirements.txt's ``name==version`` lines (markers kept), as constraints."""
    return [
        line.split("#")[0].strip()
        for line in requirements.read_text(encoding="utf-8").splitlines()
        if "==" in line.split("#")[0]
    ]


def download_wheels(target: Path, python: str) -> None:
    """Fetch WHEELS and what they need, but PRESENT, for Linux x86-64 ``python``."""
    with tempfile.TemporaryDirectory() as folder:
        constraints = Path(folder) / "constraints.txt"
        kept = [
            pin
            for pin in pins(ROOT / "requirements.txt")
            if pin.split("==")[0].lower() not in PRESENT
        ]
        constraints.write_text("\n".join(kept) + "\n", encoding="utf-8")
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--only-binary=:all:",
             "--python-version", python, "--implementation", "cp",
             *(f"--platform={tag}" for tag in PLATFORMS),
             "-c", str(constraints), "-d", str(target), *WHEELS],
            check=True,
        )  # fmt: skip
    for wheel in target.glob("*.whl"):
        name = wheel.name.split("-")[0].lower()
        if name in PRESENT or name.startswith(("nvidia", "triton")):
            wheel.unlink()  # what the machine has, pulled in as a dependency


def with_wheels(folder: Path, argv: list[str]) -> int:
    """Install the wheels in ``folder`` into ``folder/site`` and run this script again
    (with ``argv``) with them, and the repository, on the path."""
    site = folder / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-index", "--no-deps",
         "--no-compile", "--upgrade", "--target", str(site),
         *map(str, sorted(folder.glob("*.whl")))],
        check=True,
    )  # fmt: skip
    paths = [str(site), str(ROOT), os.environ.get("PYTHONPATH", "")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p)}
    env["PATH"] = f"{site / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run([sys.executable, __file__, *argv], env=env).returncode


def javascript_numbers(value):
    """Whole floats (the widget state's tensors) become integers, in place.

    JupyterLab holds a notebook as JavaScript objects, which know one number type: it
    saves ``1.0`` as ``1``. Other floats print alike in both languages unless their
    ``repr`` takes an exponent, which tests/test_notebooks.py finds.
    """
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, item in list(items):
        if isinstance(item, float) and item.is_integer() and abs(item) < 2**53:
            value[key] = int(item)
        elif isinstance(item, dict | list):
            javascript_numbers(item)


WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
MODEL_ID = re.compile(r"[0-9a-f]{32}")


def _widget_order(notebook, state: dict) -> list[str]:
    """Model ids in order of appearance: each shown widget (cell order), then what its
    state refers to (depth first, keys sorted); models that nothing shows or refers to
    (a jslink's LinkModel) follow, ordered by their content."""
    order: list[str] = []

    def visit(model_id: str) -> None:
        if model_id in state and model_id not in order:
            order.append(model_id)
            text = json.dumps(state[model_id], sort_keys=True)
            for ref in re.findall(r"IPY_MODEL_([0-9a-f]{32})", text):
                visit(ref)

    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            view = output.get("data", {}).get(WIDGET_VIEW)
            if view:
                visit(view["model_id"])

    def content(model_id: str) -> str:
        text = json.dumps(state[model_id], sort_keys=True)
        return MODEL_ID.sub(
            lambda m: str(order.index(m[0])) if m[0] in order else "", text
        )

    while len(order) < len(state):
        visit(min((m for m in state if m not in order), key=content))
    return order


def stable_widget_ids(notebook, name: str) -> None:
    """Replace the random widget model ids by ids made from ``name`` and the order."""
    widgets = notebook.metadata.get("widgets", {}).get(WIDGET_STATE)
    if not widgets or not widgets.get("state"):
        return
    state = widgets["state"]
    renamed = {
        old: hashlib.md5(f"{name}:{index}".encode()).hexdigest()
        for index, old in enumerate(_widget_order(notebook, state))
    }

    def rename(value):
        text = MODEL_ID.sub(lambda m: renamed.get(m[0], m[0]), json.dumps(value))
        return json.loads(text)

    widgets["state"] = {renamed[old]: rename(state[old]) for old in renamed}
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            view = output.get("data", {}).get(WIDGET_VIEW)
            if view:
                view["model_id"] = renamed.get(view["model_id"], view["model_id"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=Path)
    parser.add_argument("--gpu-only", action="store_true", help="store gpu cells only")
    parser.add_argument("--check", action="store_true", help="compare gpu cells only")
    parser.add_argument("--out", type=Path, help="write copies here, not in place")
    parser.add_argument("--stub-device", action="store_true", help="tests only")
    parser.add_argument("--wheels", type=Path, metavar="DIR", help="install, then run")
    parser.add_argument("--download-wheels", type=Path, metavar="DIR")
    parser.add_argument("--for-python", default="3.12", help="the wheels' Python")
    argv = sys.argv[1:] if argv is None else argv
    args = parser.parse_args(argv)
    if args.download_wheels:
        download_wheels(args.download_wheels, args.for_python)
        return 0
    if args.wheels:
        given = {"--wheels", str(args.wheels), f"--wheels={args.wheels}"}
        rest = [a for a in argv if a not in given]
        return with_wheels(args.wheels, rest)
    if args.stub_device and not (args.check or args.out):
        parser.error("--stub-device never writes the stored notebooks: add --out")
    if args.stub_device:
        startup = Path(tempfile.mkdtemp()) / "profile_default" / "startup"
        startup.mkdir(parents=True)
        (startup / "00-stub-device.py").write_text(STUB_DEVICE, encoding="utf-8")
        os.environ["IPYTHONDIR"] = str(startup.parents[1])  # the kernel's IPython
    from gatherlab.notebook import cuda_available

    has_cuda = args.stub_device or cuda_available()
    if (args.gpu_only or args.check) and not has_cuda:
        print("No CUDA device: GPU outputs can only come from a GPU.", file=sys.stderr)
        return 2
    status = 0
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
    rules = sanitizers(ROOT / "tests" / "sanitize.cfg")
    if not (args.gpu_only or args.check):
        action = "running" if has_cuda else "keeping the stored outputs of"
        print(f"CUDA available: {has_cuda} ({action} gpu cells)")
    for path in args.notebooks:
        started = time.perf_counter()
        if args.check:
            lines = check(path, rules)
            status |= any("DIFFERS" in line for line in lines)
            print("\n".join(lines))
        elif args.gpu_only:
            target = args.out / path.name if args.out else path
            problems = gpu_only(path, target)
            status |= bool(problems)
            print("\n".join(problems))
        else:
            execute(path, has_cuda)
        print(f"executed {path} in {time.perf_counter() - started:.1f} s")
    return status


if __name__ == "__main__":
    sys.exit(main())

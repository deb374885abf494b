"""Re-execute chapter notebooks top to bottom in place (``make notebooks``).

Outputs and widget state are stored. Every code cell runs, so execution counts are the
cells' positions among the code cells on any machine. Where PyTorch sees no CUDA, a cell
tagged ``gpu`` only prints its skip line, and its stored outputs and execution count are
put back afterwards: a CPU run never erases outputs that a GPU run stored
(``make gpu-outputs``).
Widget model ids are renamed by order of appearance, so re-running an unchanged chapter
writes the same bytes (``git diff`` shows only what really changed). Numbers are stored
as JupyterLab writes them back (a whole float as an integer), so opening and saving a
chapter in JupyterLab changes no byte.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from gatherlab.notebook import GPU_TAG, cuda_available


def _gpu_cells(notebook) -> list:
    return [c for c in notebook.cells if GPU_TAG in c.metadata.get("tags", [])]


def execute(path: Path, has_cuda: bool) -> None:
    notebook = nbformat.read(path, as_version=4)
    stored = [(c.outputs, c.execution_count) for c in _gpu_cells(notebook)]
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
    )
    client.execute()
    if not has_cuda:
        for cell, (outputs, count) in zip(_gpu_cells(notebook), stored, strict=True):
            cell.outputs, cell.execution_count = outputs, count
    stable_widget_ids(notebook, path.stem)
    javascript_numbers(notebook)
    nbformat.write(notebook, path)


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("notebooks", nargs="+", type=Path)
    args = parser.parse_args()
    has_cuda = cuda_available()
    action = "running" if has_cuda else "keeping the stored outputs of"
    print(f"CUDA available: {has_cuda} ({action} gpu cells)")
    for path in args.notebooks:
        started = time.perf_counter()
        execute(path, has_cuda)
        print(f"executed {path} in {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

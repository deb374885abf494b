"""Re-execute chapter notebooks top to bottom in place (``make notebooks``).

Outputs and widget state are stored. Every code cell runs, so execution counts are the
cells' positions among the code cells on any machine. Where PyTorch sees no CUDA, a cell
tagged ``gpu`` only prints its skip line, and its stored outputs and execution count are
put back afterwards: a CPU run never erases outputs that a GPU run stored
(``make gpu-outputs``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from gatherlab.notebook import cuda_available

GPU_TAG = "gpu"


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
    nbformat.write(notebook, path)


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

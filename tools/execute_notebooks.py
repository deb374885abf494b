"""Re-execute chapter notebooks top to bottom in place (``make notebooks``).

Outputs and widget state are stored. Cells tagged ``gpu`` run only where PyTorch sees
CUDA; elsewhere they are left exactly as stored, so a CPU run never erases GPU outputs.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from gatherlab.notebook import cuda_available


def execute(path: Path, has_cuda: bool) -> None:
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
        # nbclient leaves a skipped cell untouched: outputs and execution count stay.
        skip_cells_with_tag="no-such-tag" if has_cuda else "gpu",
    )
    client.execute()
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

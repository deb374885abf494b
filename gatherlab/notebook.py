"""Notebook set-up: the hidden first cell of every chapter calls ``setup_book()``.

It silences TensorFlow's start-up logging and loads triton (where installed) before any
import of TensorFlow (``gatherlab.tf`` says why the order matters), seeds every random
generator, fixes print options, and registers the ``%%gpu`` cell magic.
"""

from __future__ import annotations

import ast
import html
import random
from dataclasses import dataclass
from typing import Any

import numpy as np

from gatherlab.tf import load_triton_first, quiet_tensorflow_logs

# The tag that marks a cell needing CUDA (with the %%gpu magic); the executor, the GPU
# runner and the nbval plugin all select cells by it.
GPU_TAG = "gpu"
GPU_SKIP_MESSAGE = (
    "Skipped: this cell needs a CUDA device (torch.cuda.is_available() is False)."
)


def cuda_available() -> bool:
    """True when PyTorch sees a CUDA device."""
    import torch

    return torch.cuda.is_available()


def gpu_label() -> str:
    """The line a GPU cell prints first: the device and torch that made its output."""
    import torch

    if torch.version.hip:  # ROCm builds answer to torch.cuda as well
        backend = f"ROCm {torch.version.hip}"
    else:
        backend = f"CUDA {torch.version.cuda}"
    name = torch.cuda.get_device_name()
    return f"GPU run: {name}, {backend}, torch {torch.__version__}"


def run_in_shell(shell, cell: str) -> None:
    """Run a cell's code in the notebook's namespace, as the cell itself would.

    A trailing expression is displayed; an exception propagates to the caller, so the
    notebook shows it once, as the error of the ``%%gpu`` cell itself.
    """
    tree = ast.parse(shell.transform_cell(cell))
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    exec(compile(tree, "<gpu cell>", "exec"), shell.user_ns)
    if last is not None:
        shell.displayhook(eval(compile(last, "<gpu cell>", "eval"), shell.user_ns))


def gpu(line: str, cell: str) -> None:
    """``%%gpu``: run the cell where CUDA is available; elsewhere print one line."""
    if not cuda_available():
        print(GPU_SKIP_MESSAGE)
        return
    from IPython import get_ipython

    print(gpu_label())
    run_in_shell(get_ipython(), cell)


@dataclass(frozen=True)
class Collapsed:
    """Content behind a click: a closed ``<details>`` box, in JupyterLab and the book.

    Running the cell (Run All included) shows only the summary line; the learner opens
    the box. Nothing depends on cell metadata that JupyterLab rewrites on save.
    """

    summary: str
    content: Any

    def _repr_html_(self) -> str:
        render = getattr(self.content, "_repr_html_", None)
        inner = render() if render else f"<pre>{html.escape(str(self.content))}</pre>"
        return (
            '<details class="gl-collapsed"><summary style="cursor: pointer">'
            f"{html.escape(self.summary)}</summary>{inner}</details>"
        )

    def __repr__(self) -> str:
        return f"{self.summary}\n\n{self.content}"


def solution(exercise_id: str) -> Collapsed:
    """An exercise's solution (``gl.exercises.show_solution``), closed until clicked."""
    from gatherlab import exercises

    exercise = exercises.EXERCISES.get(exercise_id)
    title = f"Solution: {exercise.title}" if exercise is not None else "Solution"
    return Collapsed(title, exercises.show_solution(exercise_id))


def versions() -> str:
    """The library versions a chapter's outputs came from, as one line."""
    import platform

    import torch

    from gatherlab.tf import tensorflow

    return (
        f"Python {platform.python_version()}, torch {torch.__version__}, "
        f"tensorflow {tensorflow().__version__}, numpy {np.__version__}"
    )


def setup_book(seed: int = 0) -> None:
    """Make a chapter reproducible and quiet; safe to call more than once."""
    quiet_tensorflow_logs()
    load_triton_first()
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.set_printoptions(precision=4, sci_mode=False)
    np.set_printoptions(precision=4, suppress=True)
    try:
        from IPython import get_ipython
    except ImportError:  # plain Python: nothing to register
        return
    shell = get_ipython()
    if shell is not None:
        shell.register_magic_function(gpu, magic_kind="cell", magic_name="gpu")
        # Errors show as "RuntimeError: message": short, and free of machine paths.
        shell.InteractiveTB.set_mode("Minimal")

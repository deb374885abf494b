"""Notebook set-up: the hidden first cell of every chapter calls ``setup_book()``.

It silences TensorFlow's start-up logging and loads triton (where installed) before any
import of TensorFlow (``gatherlab.tf`` says why the order matters), seeds every random
generator, fixes print options, registers the ``%%gpu`` and ``%%tensorflow`` cell
magics, and chooses how errors show (:func:`shows_one_line`).
"""

from __future__ import annotations

import ast
import html
import itertools
import linecache
import platform
import random
import sys
import traceback
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, packages_distributions, version
from typing import Any

import numpy as np

from gatherlab.tf import (
    ADD_TENSORFLOW,
    load_triton_first,
    quiet_tensorflow_logs,
    tensorflow,
    tensorflow_imported,
    tensorflow_installed,
)

# The tag that marks a cell needing CUDA (with the %%gpu magic); the executor, the GPU
# runner and the nbval plugin all select cells by it.
GPU_TAG = "gpu"
GPU_SKIP_MESSAGE = (
    "Skipped: this cell needs a CUDA device (torch.cuda.is_available() is False)."
)
# The tag of a cell that needs TensorFlow (with the %%tensorflow magic).
TENSORFLOW_TAG = "tensorflow"
TENSORFLOW_SKIP_MESSAGE = (
    f"Skipped: this cell needs TensorFlow, which is not installed here. To run it, "
    f"{ADD_TENSORFLOW}."
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


# The names run_in_shell gives the code of %%gpu and %%tensorflow cells.
_MAGIC_SOURCES: set[str] = set()
_RUNS = itertools.count(1)


def run_in_shell(shell, cell: str, name: str = "<gpu cell>") -> None:
    """Run a cell's code in the notebook's namespace, as the cell itself would.

    A trailing expression is displayed; an exception propagates to the caller, so the
    notebook shows it once, as the error of the ``%%gpu`` (or ``%%tensorflow``) cell.
    """
    source = shell.transform_cell(cell)
    # The source under a name of its own, so that inspect (AutoGraph's tf.function
    # reads it) finds a function the cell defines; not counted as a notebook cell's
    # code (``_is_cell_code``), so its errors still show as its magic cell's.
    name = f"{name[:-1]} {next(_RUNS)}>"
    _MAGIC_SOURCES.add(name)
    linecache.cache[name] = (len(source), None, source.splitlines(True), name)
    tree = ast.parse(source)
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    exec(compile(tree, name, "exec"), shell.user_ns)
    if last is not None:
        shell.displayhook(eval(compile(last, name, "eval"), shell.user_ns))


def gpu(line: str, cell: str) -> None:
    """``%%gpu``: run the cell where CUDA is available; elsewhere print one line."""
    if not cuda_available():
        print(GPU_SKIP_MESSAGE)
        return
    from IPython import get_ipython

    print(gpu_label())
    run_in_shell(get_ipython(), cell)


def tensorflow_cell(line: str, cell: str) -> None:
    """``%%tensorflow``: run the cell where TensorFlow is installed; else one line.

    TensorFlow is imported here, on the first such cell (quietly, after triton), never
    by the chapter's set-up: a kernel that runs no TensorFlow cell never loads it.
    """
    if not tensorflow_installed():
        print(TENSORFLOW_SKIP_MESSAGE)
        return
    from IPython import get_ipython

    tensorflow()
    run_in_shell(get_ipython(), cell, "<tensorflow cell>")


def _is_cell_code(filename: str) -> bool:
    """True for code typed into a notebook cell (IPython caches its source, no file)."""
    entry = linecache.cache.get(filename)
    return (
        filename not in _MAGIC_SOURCES
        and entry is not None
        and len(entry) == 4
        and entry[1] is None
    )


def shows_one_line(tb) -> bool:
    """Whether an error shows as one line ("RuntimeError: message").

    True for an error raised by a library inside the cell's last statement: what a cell
    that shows a library's error on purpose does (its one statement, or its last, is the
    failing call), and where the line is plain to see. False, so the traceback shows the
    learner's line, when the failing statement is not the cell's last, or when the error
    passed through code defined in a notebook cell (the learner's own function).
    """
    frames = [
        (frame, line)
        for frame, line in traceback.walk_tb(tb)
        if _is_cell_code(frame.f_code.co_filename)
    ]
    if len(frames) != 1 or frames[0][0].f_code.co_name != "<module>":
        return False
    frame, line = frames[0]
    source = "".join(linecache.getlines(frame.f_code.co_filename))
    try:
        last = ast.parse(source).body[-1]
    except (SyntaxError, IndexError):
        return False
    return last.lineno <= line <= (last.end_lineno or last.lineno)


def show_error(shell, etype, value, tb, tb_offset=None) -> None:
    """The kernel's error display (``shell.set_custom_exc``), following ``%xmode``.

    Under IPython's default mode (Context) an error that :func:`shows_one_line` shows as
    one line; every other error shows its normal traceback. ``%xmode Minimal`` makes
    every error one line, ``%xmode Verbose`` every error a full traceback with values.
    """
    one_line = shell.InteractiveTB.mode == "Context" and shows_one_line(tb)
    if not one_line:
        shell.showtraceback((etype, value, tb), tb_offset=tb_offset)
        return
    shell.InteractiveTB.set_mode("Minimal")
    try:
        shell.showtraceback((etype, value, tb), tb_offset=tb_offset)
    finally:
        shell.InteractiveTB.set_mode("Context")


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
    shown: object
    try:
        shown = exercises.show_solution(exercise_id)
    except ModuleNotFoundError as error:  # its check runs TensorFlow, missing here
        if error.name != "tensorflow":
            raise
        shown = TENSORFLOW_SKIP_MESSAGE
    return Collapsed(title, shown)


def tensorflow_version() -> str:
    """The installed TensorFlow's version, read without importing it; "not installed".

    Any distribution that provides the ``tensorflow`` module counts (tensorflow,
    tensorflow-cpu, tensorflow-macos); an import that has already happened wins.
    """
    if tensorflow_imported():
        return sys.modules["tensorflow"].__version__
    if not tensorflow_installed():
        return "not installed"
    for distribution in packages_distributions().get("tensorflow", []):
        try:
            return version(distribution)
        except PackageNotFoundError:  # a stale record of a removed distribution
            continue
    return "installed, version unknown"


def versions() -> str:
    """The library versions a chapter's outputs came from, as one line; never fails.

    TensorFlow's version is read from its installed metadata: printing it costs no
    import (about 500 MiB and a few seconds per kernel).
    """
    import torch

    return (
        f"Python {platform.python_version()}, torch {torch.__version__}, "
        f"tensorflow {tensorflow_version()}, numpy {np.__version__}"
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
        shell.register_magic_function(
            tensorflow_cell, magic_kind="cell", magic_name=TENSORFLOW_TAG
        )
        shell.set_custom_exc((Exception,), show_error)

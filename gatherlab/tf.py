"""Import TensorFlow safely and quietly.

Two things must happen before the first ``import tensorflow`` of a process:

- its C++ start-up lines must be silenced (environment variables read at import time);
- triton must already be loaded, where it is installed. PyPI's default torch build on
  Linux (``2.13.0+cu130``) brings triton. Loading triton's C++ library *after*
  TensorFlow's crashes the process with a segmentation fault (both libraries carry their
  own copy of LLVM, and the one loaded second resolves symbols into the first); the
  reverse order works. ``torch.optim`` and ``torch.compile`` import ``torch._dynamo``,
  which imports triton, so without this a chapter that imports TensorFlow and then steps
  an optimizer kills its kernel.

Importing this module (``import gatherlab`` does) loads triton at once, so a learner's
cells may import torch and TensorFlow in any order afterwards. ``setup_book()`` calls
:func:`load_triton_first` again to warn when TensorFlow came first anyway.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import warnings
from typing import Any

QUIET_ENV = {"TF_CPP_MIN_LOG_LEVEL": "3", "TF_ENABLE_ONEDNN_OPTS": "0"}

TENSORFLOW_CAME_FIRST = (
    "TensorFlow was imported before triton in this process; importing triton now "
    "(torch.optim, torch.compile and torch._dynamo do) would crash it. Restart the "
    "kernel and run the chapter's first cell (import gatherlab) before anything else."
)


# How a learner adds TensorFlow: the book's own command in a clone (``make lab`` leaves
# it out), pip elsewhere; either needs a fresh kernel.
ADD_TENSORFLOW = (
    "add it (make lab-tensorflow in the book's folder; in Colab or another Jupyter, "
    "%pip install tensorflow in a cell), restart the kernel and run the chapter from "
    "the top"
)


def how_to_add(module: str) -> str:
    """What a learner does to get ``module`` (an exercise or cell that needs it)."""
    if module.split(".")[0] == "tensorflow":
        return ADD_TENSORFLOW
    return f"add it (%pip install {module} in a cell) and restart the kernel"


def quiet_tensorflow_logs() -> None:
    """Set the variables TensorFlow reads at import time (before the import)."""
    for name, value in QUIET_ENV.items():
        os.environ.setdefault(name, value)


def triton_installed() -> bool:
    """True where ``triton`` is installed (PyPI's default torch on Linux has it)."""
    return "triton" in sys.modules or importlib.util.find_spec("triton") is not None


def load_triton_first() -> bool:
    """Import triton before TensorFlow can be imported; True once triton is loaded.

    A no-op returning False where triton is not installed (the CPU build of torch,
    macOS, Windows). Where TensorFlow is already loaded and triton is not, importing
    triton would crash, so this warns instead and returns False.
    """
    if "triton" in sys.modules:
        return True
    if not triton_installed():
        return False
    if "tensorflow" in sys.modules:
        warnings.warn(TENSORFLOW_CAME_FIRST, RuntimeWarning, stacklevel=2)
        return False
    try:
        import triton  # noqa: F401
    except ImportError:  # a broken triton: torch runs without it too
        return False
    return True


def tensorflow_imported() -> bool:
    """True where ``tensorflow`` has been imported (not None: a blocked import leaves
    None in ``sys.modules``, as on an install without it in tests)."""
    return sys.modules.get("tensorflow") is not None


def tensorflow_installed() -> bool:
    """True where the ``tensorflow`` module can be imported (found, not imported)."""
    if "tensorflow" in sys.modules:  # None there: its import is blocked
        return sys.modules["tensorflow"] is not None
    return importlib.util.find_spec("tensorflow") is not None


def tensorflow() -> Any:
    """The ``tensorflow`` module, imported quietly and after triton."""
    quiet_tensorflow_logs()
    load_triton_first()
    import tensorflow as tf

    return tf


load_triton_first()

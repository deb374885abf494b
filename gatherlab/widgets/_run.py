"""Run a library call for an explorer and keep either its result or its error, in words.

Explorers show what PyTorch and TensorFlow really do, so they run the calls; an error is
caught and kept as ``TypeName: message`` (one line, without TensorFlow's node names).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from gatherlab._arrays import to_numpy
from gatherlab.errors import short_error


def tensorflow_or_none() -> Any:
    """TensorFlow, imported quietly through gatherlab.tf; None where it is missing."""
    from gatherlab.tf import tensorflow

    try:
        return tensorflow()
    except ImportError:
        return None


def attempt(call: Callable[[], Any]) -> tuple[np.ndarray | None, str]:
    """``(result as NumPy, "")`` when ``call()`` works, else ``(None, short_error)``."""
    try:
        return to_numpy(call()), ""
    except Exception as error:  # the explorer shows every library error in words
        return None, short_error(error)

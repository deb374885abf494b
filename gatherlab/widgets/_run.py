"""Run a library call for an explorer and keep either its result or its error, in words.

Explorers show what PyTorch and TensorFlow really do, so they run the calls; an error is
caught and kept as ``TypeName: message`` (one line, without TensorFlow's node names).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np

from gatherlab._arrays import to_numpy

MAX_MESSAGE = 240
TF_NODE = re.compile(r"^\{\{[^}]*\}\}\s*")
TF_OP = re.compile(r"(\s*\[Op:[^\]]*\]|,? node name:).*$")


def tensorflow_or_none() -> Any:
    """TensorFlow, imported quietly through gatherlab.tf; None where it is missing."""
    from gatherlab.tf import tensorflow

    try:
        return tensorflow()
    except ImportError:
        return None


def short_error(error: BaseException) -> str:
    """``TypeName: message``: the first line, TensorFlow's node and op names removed."""
    lines = str(error).strip().splitlines() or [""]
    message = TF_OP.sub("", TF_NODE.sub("", lines[0])).strip()
    if len(message) > MAX_MESSAGE:
        message = message[: MAX_MESSAGE - 1] + "…"
    return f"{type(error).__name__}: {message}"


def attempt(call: Callable[[], Any]) -> tuple[np.ndarray | None, str]:
    """``(result as NumPy, "")`` when ``call()`` works, else ``(None, short_error)``."""
    try:
        return to_numpy(call()), ""
    except Exception as error:  # the explorer shows every library error in words
        return None, short_error(error)

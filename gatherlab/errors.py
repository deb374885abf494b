"""An error, or the outcome of a call, in the few words a page or an explorer shows.

``short_error`` is the one place that cleans a library's message: the first line only,
TensorFlow's function-node prefix and op name removed, long messages cut. TensorFlow
names the device that raised in that prefix; ``device=True`` keeps it in the words.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from gatherlab._arrays import framework_of, to_numpy

MAX_MESSAGE = 240
TF_NODE = re.compile(r"^\{\{[^}]*\}\}\s*")
TF_OP = re.compile(r"(\s*\[Op:[^\]]*\]|,? node name:).*$")
TF_DEVICE = re.compile(r"^\{\{[^}]*device:(\w+:\d+)[^}]*\}\}")


def error_device(error: BaseException) -> str | None:
    """The device a TensorFlow error names (``"CPU:0"``); None for other errors."""
    found = TF_DEVICE.search(str(error).strip())
    return found.group(1) if found else None


def short_error(error: BaseException, *, device: bool = False) -> str:
    """``TypeName: message``: the first line, TensorFlow's node and op names removed.

    With ``device=True`` a TensorFlow error reads ``TypeName on CPU:0: message``.
    """
    lines = str(error).strip().splitlines() or [""]
    message = TF_OP.sub("", TF_NODE.sub("", lines[0])).strip()
    if len(message) > MAX_MESSAGE:
        message = message[: MAX_MESSAGE - 1] + "…"
    name = type(error).__name__
    where = error_device(error) if device else None
    return f"{name} on {where}: {message}" if where else f"{name}: {message}"


def call_outcome(function: Callable[..., Any], /, *args: Any, **kwargs: Any) -> str:
    """What ``function(*args, **kwargs)`` does, in words: its error, or what it returns.

    An error reads as :func:`short_error` with the device TensorFlow names; a tensor or
    array result as ``returns [[...]]``; ``None`` as ``no error``.
    """
    try:
        result = function(*args, **kwargs)
    except Exception as error:  # any library error is the outcome being shown
        return short_error(error, device=True)
    if result is None:
        return "no error"
    if framework_of(result) is not None:
        return f"returns {to_numpy(result).tolist()}"
    return f"returns {result!r}"

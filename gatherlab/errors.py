"""Errors in words, and the line between a learner's mistake and a bug in gatherlab.

``short_error`` is the one place that cleans a library's message for a page, an
explorer or an exercise's feedback: the type and the first line only, TensorFlow's
function-node prefix and op name removed, long messages cut. TensorFlow names the
device that raised in that prefix; ``device=True`` keeps it in the words.

``debugging()`` is on when ``GATHERLAB_DEBUG=1``: then an error raised by gatherlab's
own code (a checker, a diagnosis, a hint) is re-raised instead of being reported in
words, so a bug in the package fails loudly (the test suite runs with it on, see
``conftest.py``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import Any

from gatherlab._arrays import framework_of, to_numpy

DEBUG_ENV = "GATHERLAB_DEBUG"
MAX_MESSAGE = 240
TF_NODE = re.compile(r"^\{\{[^}]*\}\}\s*")  # {{function_node __wrapped__GatherNd_...}}
TF_OP = re.compile(r"(\s*\[Op:[^\]]*\]|,? node name:).*$")
TF_DEVICE = re.compile(r"^\{\{[^}]*device:(\w+:\d+)[^}]*\}\}")
BUG_NOTE = "a bug in gatherlab, not a mistake in your answer"


def error_device(error: BaseException) -> str | None:
    """The device a TensorFlow error names (``"CPU:0"``); None for other errors."""
    found = TF_DEVICE.search(str(error).strip())
    return found.group(1) if found else None


def short_error(error: BaseException, *, device: bool = False) -> str:
    """``TypeName: message``: the first line, TensorFlow's node and op names removed.

    With ``device=True`` a TensorFlow error reads ``TypeName on CPU:0: message``; an
    error without a message reads as its type name alone.
    """
    lines = str(error).strip().splitlines() or [""]
    message = TF_OP.sub("", TF_NODE.sub("", lines[0])).strip()
    if len(message) > MAX_MESSAGE:
        message = message[: MAX_MESSAGE - 1] + "…"
    name = type(error).__name__
    where = error_device(error) if device else None
    if where:
        name = f"{name} on {where}"
    return f"{name}: {message}" if message else name


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


def debugging() -> bool:
    """Whether ``GATHERLAB_DEBUG`` asks for gatherlab's own errors to be re-raised."""
    return os.environ.get(DEBUG_ENV, "").strip().lower() in {"1", "true", "yes", "on"}


def package_bug(exc: BaseException) -> str:
    """Call inside ``except``: re-raise when debugging, else the words for the bug."""
    if debugging():
        raise exc
    return f"{short_error(exc)}; this is {BUG_NOTE}, please report it"

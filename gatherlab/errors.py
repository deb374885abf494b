"""Errors in words, and the line between a learner's mistake and a bug in gatherlab.

``one_line_error`` is the one formatter of an exception for a learner: its type and
the first line of its message. ``debugging()`` is on when ``GATHERLAB_DEBUG=1``: then
an error raised by gatherlab's own code (a checker, a diagnosis, a hint) is re-raised
instead of being reported in words, so a bug in the package fails loudly (the test
suite runs with it on, see ``conftest.py``).
"""

from __future__ import annotations

import os
import re

DEBUG_ENV = "GATHERLAB_DEBUG"
MAX_LINE = 160
TF_NODE = re.compile(r"^\{\{[^}]*\}\}\s*")  # {{function_node __wrapped__GatherNd_...}}
TF_OP = re.compile(r"(\s*\[Op:[^\]]*\]|,? node name:).*$")
BUG_NOTE = "a bug in gatherlab, not a mistake in your answer"


def one_line_error(exc: BaseException) -> str:
    """``RuntimeError: first line of the message``, short and free of tracebacks and of
    TensorFlow's node and op names."""
    lines = str(exc).strip().splitlines()
    first = TF_OP.sub("", TF_NODE.sub("", lines[0])).strip() if lines else ""
    if len(first) > MAX_LINE:
        first = first[: MAX_LINE - 3] + "..."
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


def debugging() -> bool:
    """Whether ``GATHERLAB_DEBUG`` asks for gatherlab's own errors to be re-raised."""
    return os.environ.get(DEBUG_ENV, "").strip().lower() in {"1", "true", "yes", "on"}


def package_bug(exc: BaseException) -> str:
    """Call inside ``except``: re-raise when debugging, else the words for the bug."""
    if debugging():
        raise exc
    return f"{one_line_error(exc)}; this is {BUG_NOTE}, please report it"

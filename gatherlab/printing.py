"""Print what a chapter cell shows, wrapped to the width of the book's page.

Chapters print long library messages and ``gl.diagnose`` problems; these helpers wrap
them the same way everywhere (continuation lines indented by four spaces).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterable
from typing import Any

from gatherlab.diagnose import Problem
from gatherlab.errors import call_outcome

PAGE_WIDTH = 72


def wrapped(text: str, width: int = PAGE_WIDTH) -> str:
    """``text`` filled to ``width`` columns, continuation lines indented."""
    return textwrap.fill(text, width=width, subsequent_indent="    ")


def print_wrapped(text: str, width: int = PAGE_WIDTH) -> None:
    """Print ``text`` wrapped to the page's width."""
    print(wrapped(text, width))


def print_outcome(
    label: str, function: Callable[..., Any], /, *args: Any, **kwargs: Any
) -> None:
    """Call ``function(*args, **kwargs)`` and print ``label: `` and what it did."""
    print_wrapped(f"{label}: {call_outcome(function, *args, **kwargs)}")


def print_problems(problems: Iterable[Problem]) -> None:
    """Print each problem ``gl.diagnose`` found: its rule, message and hint."""
    for problem in problems:
        print_wrapped(f"rule {problem.rule}: {problem.message}")
        if problem.hint:
            print_wrapped(f"    hint: {problem.hint}")

"""Solutions as the learner reads them: source, a body ending ``name = value``, and
values wrapped to the width of the book's exercise boxes."""

from __future__ import annotations

import ast
import inspect
import re
import textwrap
from collections.abc import Callable
from typing import Any

from gatherlab._arrays import framework_of
from gatherlab.exercises.feedback import plain

WIDTH = 68  # solution and feedback lines: the book's exercise boxes show about 72
# Kept on one line when folding: tuples of numbers and short subscripts, (4, 1), [b, j]
UNBROKEN = re.compile(r"\((?:-?\d+, )*-?\d+,?\)|\[[^\[\]]{1,12}\]")


def source(function: Callable[..., Any]) -> str:
    """A function's source, dedented (its repr when it has none)."""
    try:
        return textwrap.dedent(inspect.getsource(function)).strip()
    except (OSError, TypeError):
        return repr(function)


def as_shown(value: Any) -> str:
    """A predicted value as a learner would write it: nested lists, plain numbers."""
    if framework_of(value) is not None:
        return repr(plain(value))
    return repr(value)


def wrapped(line: str, indent: str = "") -> str:
    """One line folded to ``WIDTH`` columns, continuation lines starting ``indent``.

    A tuple of numbers such as ``(4, 1)`` or a subscript ``[b, j]`` is never split.
    """
    kept = UNBROKEN.sub(lambda match: match[0].replace(" ", "\u00a0"), line)
    folded = textwrap.fill(
        kept,
        WIDTH,
        subsequent_indent=indent,
        break_long_words=False,
        break_on_hyphens=False,
    )
    return folded.replace("\u00a0", " ")


def comment(text: str) -> str:
    """A docstring as ``# `` comment lines of at most ``WIDTH`` columns."""
    return wrapped("# " + " ".join(text.split()), "# ")


def body(function: Callable[..., Any]) -> tuple[list[str], list[str], int]:
    """A function as notebook lines: its docstring as comments, its statements as they
    are (dedented), and the line number of the final ``return``."""
    text = textwrap.dedent(inspect.getsource(function))
    lines = text.splitlines()
    definition = ast.parse(text).body[0]
    if not isinstance(definition, ast.FunctionDef):
        raise ValueError(f"{function.__name__} must be a def")
    statements = definition.body
    last = statements[-1]
    if not isinstance(last, ast.Return) or last.value is None:
        raise ValueError(f"{function.__name__} must end with `return <value>`")
    docstring = ast.get_docstring(definition)
    first_end = statements[0].end_lineno or statements[0].lineno
    start = first_end if docstring else statements[0].lineno - 1
    code = textwrap.dedent("\n".join(lines[start:])).splitlines()
    header = [comment(docstring)] if docstring else []
    return header, code, last.lineno - 1 - start


def as_assignment(function: Callable[..., Any], name: str) -> str:
    """A function's body as notebook code, the final ``return value`` as
    ``name = value``."""
    header, code, last = body(function)
    code[last] = f"{name} = " + code[last].removeprefix("return ")
    return "\n".join([*header, *code]).strip()


def assigned(name: str, value: str) -> str:
    """``name = value`` within ``WIDTH`` columns: one line, else one item a line."""
    line = f"{name} = {value}"
    if len(line) <= WIDTH:
        return line
    items = ast.literal_eval(value)
    if not isinstance(items, list):
        return wrapped(line, " " * (len(name) + 4))
    rows = [wrapped(f"    {item!r},", "     ") for item in items]
    return "\n".join([f"{name} = [", *rows, "]"])

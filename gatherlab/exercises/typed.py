"""How the book's page reads a typed answer, in Python, so both sides read it alike.

``gatherlab/browser/checker/exercises.mjs`` (``normalized``, ``readTyped``) applies
the same rules: an optional leading ``name =`` is dropped; TensorFlow's printed forms
(``tf.Tensor(..., shape=..., dtype=...)`` and ``<tf.Tensor: ... numpy=array(...)>``)
become ``tensor(..., dtype=...)``; NumPy's space-separated printed rows get commas;
then the text is read as a Python literal in which ``tensor(...)``, ``array(...)``,
``torch.tensor(...)`` and ``np.array(...)`` (with an optional ``dtype=``) are the only
calls, and a tensor so read may be converted as torch converts it (``.float()``,
``.double()``, ``.long()``, ``.int()``, ``.bool()``, ``.to(dtype)``, ``.type(dtype)``:
``CONVERSIONS``); ``...`` alone (the stub's answer) is ``...``, not answered yet.
Anything else is not a value: ``typed_answer`` returns the text itself (the page
refuses what follows a typed tensor otherwise, ``.sum()``, naming it).
``tests/test_page_cases.py`` checks the two against each other on pasted answers.
"""

from __future__ import annotations

import ast
import re
from typing import Any

import numpy as np

NAME_PREFIX = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*\s*=(?!=)")
TF_REPR = re.compile(r"^<tf\.Tensor:.*?numpy=(.*)>$", re.DOTALL)
TF_STR = re.compile(
    r"^tf\.Tensor\((.*),\s*shape=\([^)]*\),\s*dtype=(\w+)\)$", re.DOTALL
)
NUMPY_GAP = re.compile(r"(?<=[\d.\]])\s+(?=[-+\d.\[])")
CALLS = {"tensor", "array", "torch.tensor", "np.array", "numpy.array"}
# The dtype names a pasted answer may carry, as the page reads them (the evaluator's
# torch dtype aliases).
DTYPES = {
    "int64": np.int64,
    "long": np.int64,
    "int32": np.int32,
    "int": np.int32,
    "int16": np.int16,
    "int8": np.int8,
    "uint8": np.uint8,
    "float32": np.float32,
    "float": np.float32,
    "float64": np.float64,
    "double": np.float64,
    "float16": np.float16,
    "half": np.float16,
    "bool": np.bool_,
}


# The conversions a typed tensor may end with, and the dtype each gives (torch's).
CONVERSIONS = {
    "float": np.float32,
    "double": np.float64,
    "long": np.int64,
    "int": np.int32,
    "bool": np.bool_,
}


def normalized(text: str) -> str:
    """The text as the page reads it, before it is parsed."""
    source = NAME_PREFIX.sub("", text.strip()).strip()
    printed = TF_REPR.match(source)
    if printed:
        source = printed[1].strip()
    shown = TF_STR.match(source)
    if shown:
        source = f"tensor({shown[1].strip()}, dtype={shown[2]})"
    return NUMPY_GAP.sub(", ", source)


def typed_answer(text: str) -> Any:
    """The value the page reads from typed ``text``: nested lists and numbers, a NumPy
    array for a pasted tensor or array, or the text itself when it is no value."""
    try:
        tree = ast.parse(normalized(text), mode="eval")
        if isinstance(tree.body, ast.Constant) and tree.body.value is ...:
            return ...  # the stub's own answer, `prediction = ...`: not answered yet
        return _value(tree.body)
    except (SyntaxError, ValueError, TypeError, KeyError, RecursionError):
        return text


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_name(node.value)}.{node.attr}"
    raise ValueError("not a name")


def _converted(node: ast.Call) -> Any:
    """``tensor([...]).float()``, ``.to(torch.float64)``: the typed tensor in the
    dtype the conversion gives."""
    assert isinstance(node.func, ast.Attribute)
    method, given = node.func.attr, [*node.args, *(k.value for k in node.keywords)]
    if method in CONVERSIONS:
        if given:
            raise ValueError(f".{method}() takes no arguments here")
        dtype = CONVERSIONS[method]
    else:
        named = [k.arg for k in node.keywords]
        if len(given) != 1 or named not in ([], ["dtype"]):
            raise ValueError(f".{method}() takes one dtype here")
        dtype = DTYPES[_name(given[0]).split(".")[-1]]
    inner = node.func.value
    if not isinstance(inner, ast.Call):
        raise ValueError("a conversion of something other than a typed tensor")
    array = _value(inner)
    if not isinstance(array, np.ndarray):
        raise ValueError("a conversion of something other than a typed tensor")
    return array.astype(dtype)


def _value(node: ast.expr) -> Any:
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in (*CONVERSIONS, "to", "type")
        and isinstance(node.func.value, ast.Call)
    ):
        return _converted(node)
    if isinstance(node, ast.Call):
        if _name(node.func) not in CALLS or len(node.args) != 1:
            raise ValueError("not a tensor or array")
        dtype = None
        for keyword in node.keywords:
            if keyword.arg != "dtype":
                raise ValueError(f"unknown argument {keyword.arg}")
            dtype = DTYPES[_name(keyword.value).split(".")[-1]]
        data = _value(node.args[0])
        array = np.array(data, dtype=dtype)
        if dtype is None and array.dtype.kind == "f":
            array = array.astype(np.float32)  # torch.tensor's default float
        return array
    if isinstance(node, (ast.List, ast.Tuple)):
        items = [_value(item) for item in node.elts]
        return items if isinstance(node, ast.List) else tuple(items)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = _value(node.operand)
        if isinstance(inner, bool) or not isinstance(inner, (int, float)):
            raise ValueError("a sign before something other than a number")
        return -inner if isinstance(node.op, ast.USub) else inner
    if isinstance(node, ast.Constant) and isinstance(node.value, (bool, int, float)):
        return node.value
    raise ValueError("not a value")

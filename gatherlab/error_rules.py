"""Explain an error text: the rule it breaks, what that means, the fix, the section.

The table is data, ``browser/errors/error_rules.mjs``, which ``explain.mjs`` beside it
imports for the book's "Explain my error" page; this module reads the same file and
computes the same answer, step for step, so Python and the page cannot explain an
error differently (tests/test_error_rules.py runs both on every stored message).

``explain(text, shapes=None, dim=None, op=None)`` recognises a PyTorch, CUDA,
torch.compile, TensorFlow or NumPy error of the gather and scatter families (a whole
traceback will do) and returns an :class:`Explanation`; ``shapes`` (``{"input": (2, 3),
"index": (3, 2), "src": ...}``), ``dim`` and ``op`` make the words fit the call. Text no
rule recognises gets ``recognised=False`` and, from :func:`closest`, the nearest rule by
shared words, named as a pointer to read, never as the diagnosis.

It needs nothing of the checker (``gatherlab.diagnose``): ``Explanation.checks`` names
the rules.mjs rule a recognised error corresponds to, where there is one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from gatherlab.rules import PLACEHOLDER, fill, module_object, with_article

TABLE_PATH = Path(__file__).parent / "browser" / "errors" / "error_rules.mjs"
NAMED_GROUP = re.compile(r"\(\?<([A-Za-z_]\w*)>")  # JavaScript's (?<name>...)
TF_OP = re.compile(r"\[Op:(\w+)\]")
WORD = re.compile(r"[a-z_][a-z0-9_]{2,}")
WRITING_OPS = (
    "scatter", "scatter_", "scatter_add_", "scatter_reduce_", "index_add_",
    "index_copy_", "index_fill_", "index_put_", "put_", "masked_scatter_",
)  # fmt: skip
FLOAT_DTYPES = ("float", "double", "half", "bfloat16", "float16", "float32", "float64")
SHAPE_FIELDS = ("input", "index", "src")


@dataclass(frozen=True)
class Explanation:
    """What :func:`explain` found. ``recognised`` False: ``closest`` (maybe None)
    names the nearest rule by shared words, and the other fields are empty."""

    recognised: bool
    rule: str | None = None
    title: str = ""
    meaning: str = ""
    fix: str = ""
    section: dict[str, str] | None = None
    library: str | None = None
    checks: str | None = None
    fields: dict[str, str] = field(default_factory=dict)
    closest: str | None = None
    closest_title: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@cache
def table() -> dict[str, Any]:
    """error_rules.mjs's object: ``rules`` (in the order they are tried),
    ``sections`` by id, ``tf_ops`` (TensorFlow's op names to their Python calls) and
    ``ops`` (torch's ops by base name: their arguments and what they write)."""
    return module_object(TABLE_PATH)


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(NAMED_GROUP.sub(r"(?P<\1>", pattern))


def normalise(text: str) -> str:
    """The text with every run of white space as one space, so that a message wrapped
    over lines (a page's output, a log) reads as written."""
    return " ".join(text.split())


def shape_text(sizes: Sequence[int]) -> str:
    """``(2, 3)``; a 1-D shape ``(3,)`` as Python writes it."""
    inner = ", ".join(str(size) for size in sizes)
    return f"({inner},)" if len(sizes) == 1 else f"({inner})"


def _sizes(text: str) -> list[int]:
    return [int(number) for number in re.findall(r"-?\d+", text)]


def derive(
    found: Mapping[str, str],
    shapes: Mapping[str, Sequence[int]] | None,
    dim: int | None,
    op: str | None,
    text: str,
) -> dict[str, str]:
    """The fields a rule's templates may use: the matched groups and the pattern's
    constants (``found``), the caller's shapes, dim and op where the message has none,
    and the few computed from them (explain.mjs's ``derive`` does the same)."""
    fields = {name: value for name, value in found.items() if value is not None}
    lists: dict[str, list[int]] = {}
    for name in list(fields):
        if name.endswith("_shape"):
            lists[name] = _sizes(fields[name])
            fields[name] = shape_text(lists[name])
    for name in SHAPE_FIELDS:
        if shapes and shapes.get(name) is not None and f"{name}_shape" not in fields:
            lists[f"{name}_shape"] = [int(size) for size in shapes[name]]
            fields[f"{name}_shape"] = shape_text(lists[f"{name}_shape"])
    if "dim" not in fields and dim is not None:
        fields["dim"] = str(dim)
    tf_op = TF_OP.search(text)
    if tf_op and tf_op[1] in table()["tf_ops"]:  # names the op: above a constant
        fields["op"] = table()["tf_ops"][tf_op[1]]
    if "op" not in fields and op:
        fields["op"] = op
    for name in SHAPE_FIELDS:
        if f"{name}_rank" not in fields and f"{name}_shape" in lists:
            fields[f"{name}_rank"] = str(len(lists[f"{name}_shape"]))
    for name in ("input", "src"):
        if fields.get(f"{name}_rank") == "0":
            fields[f"{name}_scalar"] = "yes"
    if "value" in fields and "size" in fields:
        value, size = int(fields["value"]), int(fields["size"])
        fields.setdefault("high", str(size - 1))
        if value < 0:
            fields["negative"] = "yes"
            if value >= -size:
                fields["python_fix"] = str(value + size)
        elif value >= size:
            fields["past_end"] = "yes"
    elif "size" in fields:
        fields.setdefault("high", str(int(fields["size"]) - 1))
    values, selected = lists.get("src_shape"), lists.get("index_shape")
    if values and selected and values == [*selected, 1]:
        # a column of values where one per selected position is due: (n, 1) against
        # (n,) broadcasts to (n, n)
        fields["column_values"] = "yes"
        fields["grid_shape"] = shape_text([*selected, selected[-1]])
    if (
        "low" in fields
        and "dim" in fields
        and int(fields["dim"]) == -int(fields["low"])
    ):
        # dim = rank: one past the last dim (dims counted from 1)
        fields["one_past"], fields["last_dim"] = "yes", str(-int(fields["low"]) - 1)
    source = lists.get("input_shape")
    if source and "dim" in fields and "size" not in fields:
        # the size of the dim positions select along, where the text gives none
        along = source[int(fields["dim"]) % len(source)]
        fields["along_size"], fields["along_high"] = str(along), str(along - 1)
    index = lists.get("index_shape")
    if index and source and len(index) == len(source) and "dim" in fields:
        along = int(fields["dim"]) % len(source)
        larger = [
            f"dim {d} (index {index[d]}, input {source[d]})"
            for d in range(len(source))
            if d != along and index[d] > source[d]
        ]
        if larger:
            fields["oversized"] = "; ".join(larger)
        empty = [str(d) for d in range(len(source)) if source[d] == 0]
        if empty:
            fields["empty_dims"] = ", ".join(empty)
    if "value" in fields and "size" in fields and "past_end" in fields:
        _flat_fits(fields, (shapes or {}).get("params"))
        _fits_other(fields, lists.get("input_shape"))
        _stacked_pairs(fields, lists.get("input_shape"), lists.get("index_shape"))
    if "coordinates" in fields and "input_shape" in lists:
        _reversed(fields, lists["input_shape"])
    if "depth" in fields and "input_rank" in fields:
        if int(fields["depth"]) > int(fields["input_rank"]):
            fields["depth_past_rank"] = "yes"  # more entries per coordinate than axes
    named = fields.get("op", "")
    if named.startswith("tf."):
        fields["op_is_tf"] = "yes"
        if "index_shape" in lists:
            fields["index_outer"] = shape_text(lists["index_shape"][:-1])
    if "depth_tf" in fields:
        _coordinate_fields(fields, lists.get("index_shape"), lists.get("input_shape"))
    if "segment" in named:
        fields["op_is_segment"] = "yes"
    if named.startswith("tf.math.segment_"):  # the variant taking ids in any order
        fields["unsorted"] = named.replace("tf.math.", "tf.math.unsorted_")
    _op_fields(fields, named)
    _argument_fields(fields)
    _foreign_fields(fields)
    if named.rstrip("()") in WRITING_OPS or "scatter" in named:
        fields["op_is_scatter"] = "yes"
    if named in ("take", "torch.take"):
        fields["op_is_take"] = "yes"
    if fields.get("dtype", "").lower().removeprefix("torch.") in FLOAT_DTYPES:
        fields["dtype_is_float"] = "yes"
    return fields


def _coordinate_fields(
    fields: dict[str, str], index: Sequence[int] | None, output: Sequence[int] | None
) -> None:
    """A TensorFlow scatter_nd's indices, read as TensorFlow reads them: the last axis
    one coordinate (its length the depth), the axes before it the coordinates' layout,
    so updates are due in shape indices.shape[:-1] + output.shape[depth:]; 1-D
    indices are refused whatever the updates (TensorFlow 2.21): [[...]] is due."""
    if not index or output is None or index[-1] > len(output):
        return
    depth = index[-1]
    fields["coord_depth"] = str(depth)
    if len(index) == 1:  # a flat [i, j]: refused whatever the updates; [[i, j]] is due
        fields["flat_coordinate"] = "yes"
        index = [1, depth]
    fields["updates_due"] = shape_text([*index[:-1], *output[depth:]])


def _flat_fits(fields: dict[str, str], params: Sequence[int] | None) -> None:
    """``flat_fits``: a tf.gather position past the end of axis 0 of ``params`` (the
    exercise's params, where the caller knows them) that fits params flattened over
    its first two axes (row * steps + position, with params never reshaped)."""
    if not params or len(params) < 2 or fields.get("op") != "tf.gather":
        return
    value, size = int(fields["value"]), int(fields["size"])
    rows, steps = int(params[0]), int(params[1])
    if size == rows and value < rows * steps:
        fields["flat_fits"] = "yes"
        fields["params_shape"] = shape_text([int(n) for n in params])
        fields["row_size"], fields["flat_size"] = str(steps), str(rows * steps)


def _fits_other(fields: dict[str, str], shape: Sequence[int] | None) -> None:
    """``fits_other``: the other dims of the input a position past the end of its own
    dim would fit (a (row, column) pair given the wrong way round)."""
    if not shape or "dim" not in fields or len(shape) < 2:
        return
    value, along = int(fields["value"]), int(fields["dim"]) % len(shape)
    others = [
        f"dim {d} (size {size})"
        for d, size in enumerate(shape)
        if d != along and 0 <= value < size
    ]
    if others:
        fields["fits_other"] = " and ".join(others)


def _stacked_pairs(
    fields: dict[str, str],
    shape: Sequence[int] | None,
    index: Sequence[int] | None,
) -> None:
    """``stacked_pairs``: a subscript (no op) by one index tensor whose last dim holds
    one coordinate per dim of the input (``x[torch.stack([rows, columns], -1)]``),
    past the end of dim 0: one tensor indexes dim 0 only."""
    if not shape or not index or "op" in fields or len(shape) < 2 or len(index) < 2:
        return
    if index[-1] == len(shape) and int(fields.get("dim", -1)) == 0:
        fields["stacked_pairs"] = "yes"


def _reversed(fields: dict[str, str], shape: Sequence[int]) -> None:
    """``reversed``: a coordinate outside ``shape`` that fits it reversed (an (x, y)
    pair where TensorFlow reads (row, column))."""
    coordinates = _sizes(fields["coordinates"])
    backwards = coordinates[::-1]
    if (
        len(coordinates) < 2
        or len(coordinates) > len(shape)
        or backwards == coordinates
    ):
        return
    if all(0 <= c < size for c, size in zip(backwards, shape, strict=False)):
        fields["reversed"] = ", ".join(str(c) for c in backwards)


def _op_fields(fields: dict[str, str], named: str) -> None:
    """For an op of the table's ``ops`` (torch's, by base name: ``index_add`` for
    ``index_add_``, ``torch.index_add``): ``is_<base>``, its ``signature`` as a method
    of ``x``, and ``source_<kind>``, what it takes as the values it writes."""
    written = named.removeprefix("torch.").removeprefix("Tensor.").removesuffix("()")
    base = written.removesuffix("_")
    known = table()["ops"].get(base)
    if named.startswith("tf.") or known is None:
        return
    fields[f"is_{base}"] = "yes"
    fields.setdefault("signature", f"x.{written}({known['args']})")
    if "source" in known:
        fields[f"source_{known['source']}"] = "yes"


NUMBERS = ("int", "float", "bool", "complex")
SEQUENCES = ("list", "tuple", "ndarray", "numpy.ndarray")


def _argument_fields(fields: dict[str, str]) -> None:
    """What an argument of the wrong type was: ``number_arg`` (a Python number),
    ``list_arg`` (a list or array), ``dim_tensor`` (a tensor where dim goes),
    ``tuple_expected``, and ``a_got`` (``an int``) for the words."""
    got = fields.get("got", "")
    if not re.fullmatch(r"[A-Za-z_][\w.]*", got):
        return
    if got in NUMBERS:
        fields["number_arg"] = "yes"
    elif got in SEQUENCES:
        fields["list_arg"] = "yes"
    if got == "Tensor":
        fields["got_tensor"] = "yes"
    if fields.get("argument") == "dim" and got == "Tensor":
        fields["dim_tensor"] = "yes"
    if "tuple" in fields.get("expected", ""):
        fields["tuple_expected"] = "yes"
    fields["a_got"] = with_article(got)


def _foreign_fields(fields: dict[str, str]) -> None:
    """``foreign``: whose keyword an argument torch's op lacks is (``dim_size``:
    torch_scatter's), from the table's ``foreign_keywords``."""
    keywords = table()[
        "foreign_keywords_tf" if "tf_keyword" in fields else "foreign_keywords"
    ]
    owner = keywords.get(fields.get("argument", ""))
    if owner is not None and "keyword" in fields:
        fields["foreign"] = owner


def _choose(options: Sequence[Any], fields: Mapping[str, str], key: str) -> Any:
    """The first option whose ``needs`` and placeholders are all in ``fields``."""
    for option in options:
        entry = option if isinstance(option, dict) else {"needs": [], key: option}
        needed = list(entry["needs"]) + PLACEHOLDER.findall(entry.get("text", ""))
        if all(name in fields for name in needed):
            return entry[key]
    return None


def section_link(section_id: str) -> dict[str, str]:
    """A section as ``{"id", "title", "page", "href"}``: ``href`` relative to the
    book's root (``notebooks/04_error_cases.html#a-negative-position``)."""
    section = table()["sections"][section_id]
    return {
        "id": section_id,
        "title": section["title"],
        "page": section["page"],
        "href": f"{section['page']}.html#{anchor(section['title'])}",
    }


def anchor(title: str) -> str:
    """The id Sphinx gives a heading: lower case, every run of other characters one
    hyphen (docutils' ``make_id`` for the titles this book uses)."""
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def explain(
    text: str,
    shapes: Mapping[str, Sequence[int]] | None = None,
    dim: int | None = None,
    op: str | None = None,
) -> Explanation:
    """The first rule (in the table's order) one of whose patterns is found in
    ``text``, with its meaning, fix and section for these fields; else
    :func:`closest`."""
    flat = normalise(text)
    for rule in table()["rules"]:
        for pattern in rule["patterns"]:
            match = _compiled(pattern["re"]).search(flat)
            if match is None:
                continue
            groups = {k: v for k, v in match.groupdict().items() if v is not None}
            found = {**pattern.get("fields", {}), **groups}
            fields = derive(found, shapes, dim, op, flat)
            meaning = _choose(rule["meaning"], fields, "text")
            fix = _choose(rule["fix"], fields, "text")
            section = _choose(rule["section"], fields, "id")
            return Explanation(
                recognised=True,
                rule=rule["id"],
                title=rule["title"],
                meaning=fill(meaning, fields) if meaning else "",
                fix=fill(fix, fields) if fix else "",
                section=section_link(section) if section else None,
                library=pattern["library"],
                checks=rule["checks"],
                fields=fields,
            )
    return closest(text)


def closest(text: str) -> Explanation:
    """Not recognised; the rule sharing most of its keywords with ``text`` (the
    first in the table on a tie), or none if no keyword is shared."""
    words = set(WORD.findall(text.lower()))
    best, score = None, 0
    for rule in table()["rules"]:
        shared = len(words & set(rule["keywords"]))
        if shared > score:
            best, score = rule, shared
    if best is None:
        return Explanation(recognised=False)
    return Explanation(
        recognised=False, closest=best["id"], closest_title=best["title"]
    )

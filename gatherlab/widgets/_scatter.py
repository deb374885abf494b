"""Chapter 6 explorer: ``x.scatter_(dim, index, src)`` and ``scatter_reduce_`` with each
reduction, one write at a time: pick a src entry to see the index entry it used and the
output entry it writes; output entries written more than once are marked, with what the
reduction made of them. A call that breaks a shape, dtype or position rule is refused
with the rule, in ``gl.reference``'s words. Everything is computed by the view
(``js/scatter.mjs``) in the browser.

The default writes ``[[100, 101, 102], [103, 104, 105]]`` into ``x`` along dim 1 with
``index = [[2, 0, 2], [1, 1, 0]]``: ``x[0, 2]`` and ``x[1, 1]`` are each written twice.
"""

from __future__ import annotations

from typing import Any

from gatherlab.reference import REDUCTIONS
from gatherlab.widgets._base import Explorer
from gatherlab.widgets._parse import checked_array

DEFAULT_X = [[10, 11, 12], [20, 21, 22]]
DEFAULT_INDEX = [[2, 0, 2], [1, 1, 0]]
DEFAULT_SRC = [[100, 101, 102], [103, 104, 105]]
MODES = ("none", *REDUCTIONS)


def scatter(
    x: Any = None,
    index: Any = None,
    src: Any = None,
    dim: int = 1,
    reduce: str = "none",
    include_self: bool = True,
) -> Explorer:
    """The chapter 6 explorer of ``x.scatter_(dim, index, src)`` (``reduce="none"``)
    or ``x.scatter_reduce_(dim, index, src, reduce, include_self=...)``."""
    x = checked_array(DEFAULT_X if x is None else x, "x")
    index = checked_array(DEFAULT_INDEX if index is None else index, "index")
    src = checked_array(DEFAULT_SRC if src is None else src, "src")
    if reduce not in MODES:
        raise ValueError(f"reduce must be one of {MODES}; got {reduce!r}")
    dims = (*range(max(x.ndim, 1)), -1)
    if dim not in dims:
        raise ValueError(
            f"dim must be one of {dims} for x of shape {x.shape}; got {dim}"
        )
    inputs = {
        "x": x,
        "index": index,
        "src": src,
        "dim": dim,
        "reduce": reduce,
        "include_self": int(include_self),
    }
    return Explorer("scatter", 6, inputs, {})  # explorer.mjs hands it to scatter.mjs

"""Chapter 1 explorer: ``torch.gather(x, dim, index)`` with input, index and output side
by side; pick an output cell to see the index entry it used and the value it read.

Every dim shares the reader's one index, as in the chapter's lesson that the same index
can change meaning *and validity* with dim: the default ``[[2, 0], [1, 1]]`` is invalid
with dim 0 (position 2 on a size-2 axis), and that dim shows ``gl.diagnose``'s message
with the faulty entry marked. Everything here is computed by the view in the browser.
"""

from __future__ import annotations

from typing import Any

from gatherlab.widgets._base import Explorer
from gatherlab.widgets._parse import checked_array

DEFAULT_X = [[10, 11, 12], [20, 21, 22]]
DEFAULT_INDEX = [[2, 0], [1, 1]]


def gather_2d(x: Any = None, index: Any = None, dim: int = 1) -> Explorer:
    """The chapter 1 explorer of ``torch.gather(x, dim, index)``."""
    x = checked_array(DEFAULT_X if x is None else x, "x")
    index = checked_array(DEFAULT_INDEX if index is None else index, "index")
    dims = (*range(max(x.ndim, 1)), -1)
    if dim not in dims:
        raise ValueError(
            f"dim must be one of {dims} for x of shape {x.shape}; got {dim}"
        )
    return Explorer("gather_2d", 1, {"x": x, "index": index, "dim": dim}, {})

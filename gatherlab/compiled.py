"""What ``torch.compile`` makes of a call: the graph breaks TorchDynamo records.

Chapter 3 shows that selections with a data-dependent output shape (``x[mask]``,
``masked_select``, ``nonzero``) break the graph and fixed-shape ones do not;
``tests/test_review_facts.py`` pins the same counts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def graph_breaks(fn: Callable[..., Any], *args: Any) -> list[str]:
    """First lines of the graph-break reasons for one compiled call of ``fn(*args)``.

    ``backend="eager"`` traces with TorchDynamo and runs the captured graphs as they
    are, so no code is generated. Dynamo's caches are reset before and after.
    """
    import torch
    import torch._dynamo
    from torch._dynamo.utils import counters

    torch._dynamo.reset()
    counters.clear()
    try:
        torch.compile(fn, backend="eager")(*args)
        reasons = list(counters["graph_break"])
    finally:
        torch._dynamo.reset()
    return [reason.splitlines()[0] for reason in reasons]

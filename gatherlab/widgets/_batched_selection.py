"""Chapter 2 explorer: pick whole feature vectors per batch member with
``positions.unsqueeze(-1).expand(-1, -1, F)`` and ``torch.gather(features, 1, index)``,
one step at a time (positions, unsqueeze, expand, gather) and one member at a time.
Everything here is computed by the view in the browser.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gatherlab.widgets._base import Explorer
from gatherlab.widgets._parse import checked_array

DEFAULT_FEATURES = np.arange(12).reshape(2, 3, 2)  # (batch, time, feature)
DEFAULT_POSITIONS = [[2, 0], [1, 1]]  # (batch, selected_time)


def batched_selection(features: Any = None, positions: Any = None) -> Explorer:
    """The chapter 2 explorer (defaults: features = arange(12).reshape(2, 3, 2))."""
    features = checked_array(
        DEFAULT_FEATURES if features is None else features, "features"
    )
    if features.ndim != 3:
        raise ValueError(
            f"features must be (batch, time, feature); got shape {features.shape}"
        )
    positions = checked_array(
        DEFAULT_POSITIONS if positions is None else positions, "positions"
    )
    if positions.ndim != 2:
        raise ValueError(
            f"positions must be (batch, selected_time); got shape {positions.shape}"
        )
    return Explorer(
        "batched_selection", 2, {"features": features, "positions": positions}, {}
    )

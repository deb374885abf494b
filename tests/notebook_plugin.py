"""pytest plugin: quiet TensorFlow; skip ``gpu``-tagged notebook cells without CUDA."""

from __future__ import annotations

import pytest

from gatherlab.notebook import GPU_TAG, cuda_available
from gatherlab.tf import quiet_tensorflow_logs

quiet_tensorflow_logs()

GPU_SKIP_REASON = "needs a CUDA device"


def pytest_collection_modifyitems(config, items):
    """nbval makes one item per cell; a skipped cell never reaches the kernel."""
    has_cuda = None
    for item in items:
        cell = getattr(item, "cell", None)
        if cell is None or GPU_TAG not in cell.metadata.get("tags", []):
            continue
        if has_cuda is None:
            has_cuda = cuda_available()
        if not has_cuda:
            item.add_marker(pytest.mark.skip(reason=GPU_SKIP_REASON))

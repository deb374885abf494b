"""Import TensorFlow quietly: its C++ start-up lines must never reach an output."""

from __future__ import annotations

import os
from typing import Any

QUIET_ENV = {"TF_CPP_MIN_LOG_LEVEL": "3", "TF_ENABLE_ONEDNN_OPTS": "0"}


def quiet_tensorflow_logs() -> None:
    """Set the variables TensorFlow reads at import time (before the import)."""
    for name, value in QUIET_ENV.items():
        os.environ.setdefault(name, value)


def tensorflow() -> Any:
    """The ``tensorflow`` module, imported with its start-up logging silenced."""
    quiet_tensorflow_logs()
    import tensorflow as tf

    return tf

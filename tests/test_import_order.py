"""TensorFlow and triton in one process: the order that crashes must never happen.

PyPI's default torch build on Linux brings triton; loading triton after TensorFlow kills
the process (segmentation fault). Each case runs in a fresh interpreter, so a crash is a
failed test with its exit status, not a dead pytest.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from gatherlab.tf import TENSORFLOW_CAME_FIRST, triton_installed

TRITON = triton_installed()

# A learner's cells after the hidden set-up cell: torch and TensorFlow in the order that
# crashes without the fix, then torch.optim (it imports torch._dynamo, hence triton).
LEARNER_ORDER = """
import gatherlab as gl
gl.setup_book()
import torch
import tensorflow as tf
import torch._dynamo
table = torch.ones(3, requires_grad=True)
optimizer = torch.optim.SGD([table], lr=0.5)
(table * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
optimizer.step()
print(table.tolist(), tf.gather([10, 20, 30], [2]).numpy().tolist())
print(sorted(name for name in ("tensorflow", "triton") if name in sys.modules))
"""


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", "import sys\n" + code],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_tensorflow_then_torch_dynamo_runs_after_import_gatherlab():
    result = _run(LEARNER_ORDER)
    # Without the fix this exits with -11 (SIGSEGV) wherever triton is installed.
    assert result.returncode == 0, (result.returncode, result.stderr[-2000:])
    loaded = ["tensorflow", "triton"] if TRITON else ["tensorflow"]
    assert result.stdout.splitlines() == [
        "[0.5, 0.0, -0.5] [30]",
        str(loaded),
    ]


def test_import_gatherlab_loads_triton_exactly_where_it_is_installed():
    result = _run("import gatherlab\nprint('triton' in sys.modules)")
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout == f"{TRITON}\n"


def test_tensorflow_imported_first_gives_a_warning_instead_of_a_crash():
    result = _run(
        "import warnings\nwarnings.simplefilter('error')\n"
        "import tensorflow\nimport gatherlab as gl\ngl.setup_book()\nprint('alive')"
    )
    if TRITON:
        # The warning is raised as an error here, at the import of gatherlab.
        assert result.returncode == 1, (result.returncode, result.stderr[-2000:])
        assert TENSORFLOW_CAME_FIRST in result.stderr
    else:
        assert (result.returncode, result.stdout) == (0, "alive\n"), result.stderr
        assert TENSORFLOW_CAME_FIRST not in result.stderr


@pytest.mark.skipif(not TRITON, reason="triton is not installed (CPU build of torch)")
def test_the_crash_is_real_where_triton_is_installed():
    """The hazard the fix guards against: if this ever passes, the fix may go."""
    result = _run("import tensorflow\nimport triton")
    assert result.returncode != 0

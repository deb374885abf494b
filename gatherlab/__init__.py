"""gatherlab: the helper package behind the gather book.

Chapters import it once, ``import gatherlab as gl``, and reach everything through
``gl``; they never import from a submodule (``tests/test_notebooks.py`` checks). The
scheme has two levels:

- a handful of names at the top, the ones chapters call all the time: ``gl.trace``,
  ``gl.diagnose`` (with ``gl.Problem``, ``gl.RuleError``), ``gl.check_gather``,
  ``gl.setup_book``, ``gl.solution``, ``gl.versions``;
- everything else as ``gl.<module>.<name>``, one module per topic:
  ``gl.reference`` (executable specs), ``gl.equivalents`` (the same selection in NumPy
  and TensorFlow, ``same_shape_and_values``), ``gl.exercises`` (``check``,
  ``show_solution``), ``gl.figures`` (``legend``, ``gather_diagram``, ...),
  ``gl.printing`` (``print_outcome``, ``print_problems``, ``print_wrapped``),
  ``gl.timing`` (``time_call``, ``time_candidates``, ``format_timings``),
  ``gl.widgets`` (``EXPLORERS``), ``gl.guard`` (``assert_index_fits``),
  ``gl.compiled`` (``graph_breaks``), ``gl.atlas`` (the behaviour tables) and
  ``gl.determinism`` (what ``torch.use_deterministic_algorithms`` does to each op).

``import gatherlab`` never imports TensorFlow (``gatherlab.tf`` does, on first use),
and ``gl.figures`` imports matplotlib only when a chapter first reaches for it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from gatherlab import (
    atlas,
    compiled,
    determinism,
    equivalents,
    exercises,
    guard,
    printing,
    reference,
    timing,
    widgets,
)
from gatherlab.diagnose import Problem, RuleError, diagnose
from gatherlab.guard import check_gather
from gatherlab.notebook import setup_book, solution, versions
from gatherlab.trace import Step, Trace, trace

if TYPE_CHECKING:
    from gatherlab import figures

# Modules imported on first use: matplotlib alone takes about a second.
LAZY = ("figures",)


def __getattr__(name: str) -> object:
    """``gl.figures``: imported when first reached (PEP 562)."""
    if name in LAZY:
        return importlib.import_module(f"gatherlab.{name}")
    raise AttributeError(f"module 'gatherlab' has no attribute {name!r}")


__all__ = [
    "Problem",
    "RuleError",
    "Step",
    "Trace",
    "atlas",
    "check_gather",
    "compiled",
    "determinism",
    "diagnose",
    "equivalents",
    "exercises",
    "figures",
    "guard",
    "printing",
    "reference",
    "setup_book",
    "solution",
    "timing",
    "trace",
    "versions",
    "widgets",
]

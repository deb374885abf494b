"""gatherlab: the helper package behind the gather book.

``import gatherlab as gl`` gives the executable specs (``gl.reference``), ``gl.trace``,
``gl.diagnose`` and the cross-framework ``gl.equivalents``.
"""

from gatherlab import atlas, equivalents, exercises, reference, timing, widgets
from gatherlab.diagnose import Problem, RuleError, diagnose
from gatherlab.guard import check_gather
from gatherlab.notebook import setup_book, solution, versions
from gatherlab.trace import Step, Trace, trace

__all__ = [
    "Problem",
    "RuleError",
    "Step",
    "Trace",
    "atlas",
    "check_gather",
    "diagnose",
    "equivalents",
    "exercises",
    "reference",
    "setup_book",
    "solution",
    "timing",
    "trace",
    "versions",
    "widgets",
]

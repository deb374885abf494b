"""gatherlab: the helper package behind the gather book.

``import gatherlab as gl`` gives the executable specs (``gl.reference``), ``gl.trace``,
``gl.diagnose`` and the cross-framework ``gl.equivalents``.
"""

from gatherlab import reference
from gatherlab.notebook import setup_book, versions
from gatherlab.diagnose import Problem, RuleError, diagnose
from gatherlab.trace import Step, Trace, trace

__all__ = ["Problem", "RuleError", "Step", "Trace", "diagnose", "reference", "setup_book", "trace", "versions"]

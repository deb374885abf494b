"""One gather-family call, described by its parts: a check runs, traces, diagnoses it.

An exercise names the call behind its expected output; a wrong coordinate is then
explained with the trace step that produced the expected value.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np

from gatherlab._arrays import coord, entry, to_numpy
from gatherlab.diagnose import OPS, Problem, RuleError, diagnose
from gatherlab.exercises.base import CheckerError
from gatherlab.trace import Step, Trace, format_value, trace

Part = Any  # a value, an argument name (str) or a function of the arguments
Op = Literal["gather", "take_along_dim", "take", "index_select"]
CallPart = Literal["input", "dim", "index"]
# Errors PyTorch raises for a call that breaks its rules (a learner's call).
TORCH_ERRORS = (RuntimeError, IndexError, TypeError, ValueError)


def _resolve(part: Part, args: Mapping[str, Any]) -> Any:
    if isinstance(part, str):
        return args[part]
    if callable(part):
        return part(**args)
    return part


@dataclass(frozen=True)
class Call:
    """``torch.<op>(input, dim, index)``; parts may name arguments or compute from them.

    ``Call("gather", "x", 1, "columns")`` reads ``x`` and ``columns`` from an implement
    exercise's arguments; ``Call("gather", x, 1, columns)`` holds the tensors.
    """

    op: Op
    input: Part
    dim: int | str | None
    index: Part
    input_name: str = ""
    index_name: str = ""

    def __post_init__(self) -> None:
        if self.op not in OPS:
            raise ValueError(
                f"Call op must be one of {', '.join(OPS)}, not {self.op!r}"
            )
        if not self.input_name:
            name = self.input if isinstance(self.input, str) else "x"
            object.__setattr__(self, "input_name", name)
        if not self.index_name:
            name = self.index if isinstance(self.index, str) else "index"
            object.__setattr__(self, "index_name", name)

    def bind(self, args: Mapping[str, Any]) -> Call:
        """The same call with every part taken from ``args`` (an exercise case)."""
        dim = args[self.dim] if isinstance(self.dim, str) else self.dim
        return replace(
            self,
            input=_resolve(self.input, args),
            dim=dim,
            index=_resolve(self.index, args),
        )

    def with_part(self, part: CallPart, value: Any) -> Call:
        """The call with ``part`` ("index" or "dim") replaced, e.g. by a learner."""
        return replace(self, **{part: value})

    @property
    def axis(self) -> int | None:
        """The dim of a bound call (None for take): ``dim`` once it is no name."""
        if isinstance(self.dim, str):
            raise ValueError(f"the call is not bound: its dim names {self.dim!r}")
        return self.dim

    def run(self) -> Any:
        """Run the call with PyTorch (it raises where PyTorch raises)."""
        import torch

        if self.op == "take":
            return torch.take(self.input, self.index)
        if self.op == "take_along_dim":
            return torch.take_along_dim(self.input, self.index, self.axis)
        return getattr(torch, self.op)(self.input, self.axis, self.index)

    def problems(self) -> list[Problem]:
        """The rules the call breaks (``gl.diagnose``); empty when it runs.

        Raises ``CheckerError`` when the diagnosis itself failed: that is gatherlab's
        bug, and must not read as a rule the learner broke.
        """
        problems = diagnose(self.input, self.dim, self.index, self.op)
        if problems and problems[0].rule == "unexpected":
            raise CheckerError(problems[0].message)
        return problems

    def trace(self) -> Trace:
        """``gl.trace`` of the call."""
        return trace(
            self.input, self.axis, self.index, self.op, source_name=self.input_name
        )

    def text(self) -> str:
        """The call as code: ``torch.gather(x, 1, columns)``."""
        if self.op == "take":
            return f"torch.take({self.input_name}, {self.index_name})"
        if self.op == "take_along_dim":
            names = f"{self.input_name}, {self.index_name}"
            return f"torch.take_along_dim({names}, {self.dim})"
        return f"torch.{self.op}({self.input_name}, {self.dim}, {self.index_name})"

    def source_text(self, step: Step) -> str:
        """``x[1, 2] = 22``: the input entry an output position reads."""
        flat = f" (flat position {step.flat})" if step.flat is not None else ""
        value = format_value(step.value)
        return f"{entry(self.input_name, step.source)}{flat} = {value}"

    def reads(self, step: Step) -> str:
        """``x[1, 2] = 22 because columns[1, 0] = 2``: what an output position reads."""
        wraps = f", which wraps to {step.used}" if step.used != step.position else ""
        index = entry(self.index_name, step.index_at)
        return f"{self.source_text(step)} because {index} = {step.position}{wraps}"


def step_at(call: Call, where: tuple[int, ...]) -> Step | None:
    """The trace step behind output coordinate ``where``; None if untraceable."""
    try:
        return call.trace()[where]
    except (RuleError, KeyError):  # an invalid call, or no such output coordinate
        return None


def contributions(call: Call, source: tuple[int, ...], grad_output: Any) -> list[str]:
    """The output positions that read ``source``, each with its upstream gradient."""
    weights = None if grad_output is None else to_numpy(grad_output)
    parts = []
    for step in call.trace():
        if step.source == tuple(source):
            weight = 1 if weights is None else np.asarray(weights[step.out]).item()
            parts.append(f"out[{coord(step.out)}] (upstream {format_value(weight)})")
    return parts


EXPANDED = " (expanded)"  # how a call's index name says it expands its positions


def shared_positions(index: np.ndarray, dim: int) -> np.ndarray:
    """The index without the trailing dims it was expanded over (the same positions
    along them): ``positions.unsqueeze(-1).expand(...)`` gives back ``positions``."""
    for d in reversed(range(dim + 1, index.ndim)):
        first = np.take(index, [0], axis=d)
        if not (index == first).all():
            break
        index = np.squeeze(first, axis=d)
    return index

"""One determinism table for the whole family: readers, their backwards, and writers.

``torch.use_deterministic_algorithms`` keeps, in its docstring, two lists: operations
that "act deterministically" when the mode is on, and operations that "throw a
RuntimeError" then. ``docstring_entries`` reads both lists from the installed torch;
``FAMILY`` names, for every op of the book (a reader, the op its backward runs, or a
writer), which entries apply; ``table`` joins the two, and adds what this machine did:
the ATen op that the backward ran (from the profiler) and whether the call raised with
the mode on, here (on the CPU). The CUDA columns are the docstring's word, not a
measurement.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

DETERMINISTIC = "deterministic"
RAISES = "raises"


@dataclass(frozen=True)
class Entry:
    """One bullet of the docstring: the op, its condition, the mode's effect."""

    op: str
    condition: str
    effect: str  # DETERMINISTIC or RAISES

    def devices(self) -> tuple[str, ...]:
        """The devices the bullet names ("CPU", "CUDA"); both where it names none."""
        named = tuple(d for d in ("CPU", "CUDA") if d in self.condition)
        return named or ("CPU", "CUDA")


def docstring_entries(doc: str | None = None) -> list[Entry]:
    """Both lists of ``torch.use_deterministic_algorithms``'s docstring, as entries."""
    if doc is None:
        import torch

        doc = torch.use_deterministic_algorithms.__doc__ or ""
    entries: list[Entry] = []
    effect = ""
    current: list[str] = []

    def flush() -> None:
        if current and effect:
            text = " ".join(current)
            match = re.match(r":(?:func|class):`([^`]+)`\s*(.*)", text)
            if match:
                entries.append(Entry(match[1], match[2].strip(), effect))
        current.clear()

    for raw in doc.splitlines():
        line = raw.strip()
        if "will act" in line:
            flush()
            effect = DETERMINISTIC
        elif "will throw" in line:
            flush()
            effect = RAISES
        elif line.startswith("* "):
            flush()
            current.append(line[2:])
        elif line.startswith("- ") and current:
            current.append(line[2:])
        elif line and current and not line.startswith(("In addition", "A handful")):
            current.append(line)
        else:
            flush()
            if line.startswith(("In addition", "A handful")):
                effect = ""
    flush()
    return entries


@dataclass(frozen=True)
class Op:
    """A call of the book, and the docstring entries that apply to it."""

    name: str
    role: str  # "reader", "backward of <reader>" or "writer"
    entry_ops: tuple[str, ...] = ()  # docstring op names that apply
    condition_has: tuple[str, ...] = ()  # words the entry's condition must contain
    condition_lacks: tuple[str, ...] = ()  # words it must not contain
    run: Callable[[], Any] | None = field(default=None, compare=False)

    def entries(self, entries: list[Entry]) -> list[Entry]:
        return [
            entry
            for entry in entries
            if entry.op in self.entry_ops
            and all(word in entry.condition for word in self.condition_has)
            and not any(word in entry.condition for word in self.condition_lacks)
        ]


def _calls() -> dict[str, Callable[[], Any]]:
    """Small calls of each op on the CPU, repeated positions included."""
    import torch
    import torch.nn.functional as F

    def source() -> torch.Tensor:
        return torch.arange(12.0).reshape(3, 4).requires_grad_()

    rows = torch.tensor([1, 1, 2])
    per_row = torch.tensor([[1, 1], [0, 3], [2, 2]])

    def backward(read: Callable[[torch.Tensor], torch.Tensor]) -> Callable[[], Any]:
        def run() -> Any:
            table = source()
            read(table).sum().backward()
            return table.grad

        return run

    def write(op: Callable[[torch.Tensor], Any]) -> Callable[[], Any]:
        return lambda: op(torch.zeros(3, 4))

    values = torch.ones(3, 4)
    return {
        "gather": backward(lambda t: torch.gather(t, 1, per_row)),
        "take_along_dim": backward(lambda t: torch.take_along_dim(t, per_row, 1)),
        "index_select": backward(lambda t: torch.index_select(t, 0, rows)),
        "x[rows]": backward(lambda t: t[rows]),
        "x[rows, cols]": backward(lambda t: t[rows, torch.tensor([0, 0, 3])]),
        "take": backward(lambda t: torch.take(t, torch.tensor([1, 1, 5]))),
        "F.embedding": backward(lambda t: F.embedding(rows, t)),
        "scatter_ (src tensor)": write(
            lambda x: x.scatter_(1, per_row, values[:, :2].clone())
        ),
        "scatter_ (scalar value)": write(lambda x: x.scatter_(1, per_row, 1.0)),
        "scatter_add_": write(lambda x: x.scatter_add_(1, per_row, values[:, :2])),
        "scatter_reduce_ sum, mean": write(
            lambda x: x.scatter_reduce_(1, per_row, values[:, :2], "sum")
        ),
        "scatter_reduce_ prod": write(
            lambda x: x.scatter_reduce_(1, per_row, values[:, :2], "prod")
        ),
        "scatter_reduce_ amax, amin": write(
            lambda x: x.scatter_reduce_(1, per_row, values[:, :2], "amax")
        ),
        "index_add_": write(lambda x: x.index_add_(0, rows, values)),
        "index_copy_": write(lambda x: x.index_copy_(0, rows, values)),
        "index_fill_": write(lambda x: x.index_fill_(0, rows, 1.0)),
        "index_put_ (accumulate=False)": write(
            lambda x: x.index_put_((rows,), values, accumulate=False)
        ),
        "index_put_ (accumulate=True)": write(
            lambda x: x.index_put_((rows,), values, accumulate=True)
        ),
        "put_ (accumulate=False)": write(
            lambda x: x.put_(torch.tensor([1, 1]), torch.ones(2))
        ),
        "put_ (accumulate=True)": write(
            lambda x: x.put_(torch.tensor([1, 1]), torch.ones(2), accumulate=True)
        ),
        "masked_scatter_": write(
            lambda x: x.masked_scatter_(torch.ones(3, 4, dtype=torch.bool), values)
        ),
        "bincount (weights)": lambda: torch.bincount(rows, weights=torch.ones(3)),
        "histc": lambda: torch.histc(torch.rand(5)),
    }


T = "torch.Tensor."
FAMILY: tuple[Op, ...] = (
    Op("gather", "backward of gather", ("torch.gather",)),
    Op("take_along_dim", "backward of take_along_dim", ("torch.gather",)),
    Op("index_select", "backward of index_select", ("torch.index_select",)),
    Op("x[rows]", "backward of advanced indexing", (f"{T}__getitem__",)),
    Op("x[rows, cols]", "backward of advanced indexing", (f"{T}__getitem__",)),
    Op("take", "backward of take", (f"{T}put_",), ("accumulate=True",)),
    Op("F.embedding", "backward of F.embedding", ("torch.nn.Embedding",)),
    Op("scatter_ (src tensor)", "writer", (f"{T}scatter",), ("src",)),
    Op("scatter_ (scalar value)", "writer", (f"{T}scatter",), (), ("src",)),
    Op("scatter_add_", "writer", (f"{T}scatter_add_",)),
    Op("scatter_reduce_ sum, mean", "writer", (f"{T}scatter_reduce",), ("sum",)),
    Op("scatter_reduce_ prod", "writer", (f"{T}scatter_reduce",), ("prod",)),
    Op("scatter_reduce_ amax, amin", "writer", (f"{T}scatter_reduce",), ("max",)),
    Op("index_add_", "writer", ("torch.index_add",)),
    Op("index_copy_", "writer", (f"{T}index_copy",)),
    Op("index_fill_", "writer", (f"{T}index_fill",)),
    Op(
        "index_put_ (accumulate=False)",
        "writer",
        (f"{T}index_put",),
        ("accumulate=False",),
    ),
    Op(
        "index_put_ (accumulate=True)",
        "writer",
        (f"{T}index_put",),
        ("accumulate=True",),
    ),
    Op("put_ (accumulate=False)", "writer", (f"{T}put_",), ("accumulate=False",)),
    Op("put_ (accumulate=True)", "writer", (f"{T}put_",), ("accumulate=True",)),
    Op("masked_scatter_", "writer", (f"{T}masked_scatter",)),
    Op("bincount (weights)", "writer", ("torch.bincount",)),
    Op("histc", "writer", ("torch.histc",)),
)


def in_mode(entries: list[Entry], device: str) -> str:
    """What the docstring says the mode does on ``device``: deterministic, raises, or
    "not listed" (the op is then deterministic by default there, or not covered)."""
    found = sorted({entry.effect for entry in entries if device in entry.devices()})
    return ", ".join(found) or "not listed"


def backward_ops(run: Callable[[], Any]) -> list[str]:
    """The in-place ATen writes a call ran on the CPU: what a backward adds with.

    Recorded with a dispatch mode (``torch.utils._python_dispatch``, outside PyTorch's
    public API, as the leading underscore says), which sees every ATen call, the
    backward's included; the profiler would print its own start lines on stderr.
    """
    from torch.utils._python_dispatch import TorchDispatchMode

    seen: list[str] = []
    accumulates = {"index_put": 3, "put": 3}  # position of the accumulate argument

    class Record(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            name = func.__name__.split(".")[0].rstrip("_")
            if name in WRITES and name not in seen:
                at = accumulates.get(name)
                if at is not None:
                    flag = (
                        args[at] if len(args) > at else (kwargs or {}).get("accumulate")
                    )
                    name = f"{name}(accumulate={bool(flag)})"
                seen.append(name)
            return func(*args, **(kwargs or {}))

    with Record():
        run()
    return seen


# The writes a reader's backward may run (ATen names, in-place marks dropped).
WRITES = ("scatter_add", "index_add", "index_put", "put", "embedding_dense_backward")


def cpu_outcome(run: Callable[[], Any]) -> str:
    """Run ``run`` with ``torch.use_deterministic_algorithms(True)`` on the CPU: "runs"
    or "raises RuntimeError" (the mode is put back as it was)."""
    import torch

    was = torch.are_deterministic_algorithms_enabled()
    torch.use_deterministic_algorithms(True)
    try:
        run()
        return "runs"
    except RuntimeError as error:
        return f"raises {type(error).__name__}"
    finally:
        torch.use_deterministic_algorithms(was)


def table() -> list[dict[str, str]]:
    """One row per op: for a reader, its backward and the write that backward runs here;
    the docstring's word for the mode on the CPU and on CUDA; and what this CPU did
    with the mode on."""
    entries = docstring_entries()
    calls = _calls()
    rows = []
    for op in FAMILY:
        applying = op.entries(entries)
        run = calls[op.name]
        backward = op.role.startswith("backward")
        rows.append(
            {
                "op": f"{op.name}, backward" if backward else op.name,
                "backward runs": ", ".join(backward_ops(run)) if backward else "",
                "CPU: docstring": in_mode(applying, "CPU"),
                "CUDA: docstring": in_mode(applying, "CUDA"),
                "CPU: measured here": cpu_outcome(run),
            }
        )
    return rows


def format_table(rows: list[dict[str, str]]) -> str:
    """The rows as aligned text, one line per op."""
    columns = list(rows[0])
    widths = {c: max(len(c), *(len(row[c]) for row in rows)) for c in columns}
    lines = ["  ".join(c.ljust(widths[c]) for c in columns).rstrip()]
    lines += [
        "  ".join(row[c].ljust(widths[c]) for c in columns).rstrip() for row in rows
    ]
    return "\n".join(lines)

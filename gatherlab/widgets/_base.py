"""The widget every explorer is: an ``anywidget`` whose one JavaScript view
(``gatherlab/browser/explorers/explorer.mjs``, importing ``core.mjs`` and ``dom.mjs``
beside it, styled by ``explorer.css``) renders it from its state, in JupyterLab and in
the static book alike.

The widget state holds no view code, so a notebook stores none and editing the
browser code changes no notebook: its ``_esm`` is ``explorers/lab.mjs``, a small loader
that asks the kernel for the installed modules (:func:`modules`, a custom message,
never saved); the book's ``book/static/explorers.js`` imports the same files from
``_static`` by path.

Python sets the state: ``kind`` (which explorer), ``spec`` (fixed texts and choices),
``inputs`` (the tensors on show, as ``{"shape", "data", "dtype"}``) and ``library``:
what only PyTorch or TensorFlow can say (their own messages, TensorFlow's ops,
autograd), computed for the inputs Python has seen. The view computes gathers, traces
and rule messages itself, so a reader's typed tensors work without a kernel; when a
kernel runs, the view sends the new inputs back and Python adds their library entry.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import anywidget
import numpy as np
import traitlets

from gatherlab.diagnose import Problem
from gatherlab.widgets._parse import checked_array

JS = Path(__file__).parent.parent / "browser" / "explorers"
MODULES_REQUEST = "gatherlab-modules"  # lab.mjs's REQUEST
# A relative static import, re-export or import("...") of a literal.
RELATIVE_IMPORT = re.compile(
    r"""(\bfrom\s*|\bimport\s*\(?\s*)(["'])(\.{1,2}/[^"']+)\2"""
)


def modules() -> dict[str, str]:
    """What lab.mjs loads, by file name: every ES module and stylesheet of explorers/
    and the modules they import from beside it (../rules.mjs, the interpreter's Python
    reader). lab.mjs resolves only imports of "./NAME.mjs" (its text is stored in every
    chapter), so each file goes by its own name, its relative imports written so."""
    files: dict[str, str] = {}
    paths: dict[str, Path] = {}

    def add(path: Path) -> None:
        if path.name in paths:
            if paths[path.name] != path:
                raise ValueError(f"two browser files named {path.name}")
            return
        paths[path.name] = path

        def flat(match: re.Match[str]) -> str:
            target = (path.parent / match.group(3)).resolve()
            add(target)
            quote = match.group(2)
            return f"{match.group(1)}{quote}./{target.name}{quote}"

        files[path.name] = RELATIVE_IMPORT.sub(flat, path.read_text(encoding="utf-8"))

    for path in sorted(JS.iterdir()):
        if path.suffix in (".mjs", ".css"):
            add(path.resolve())
    return dict(sorted(files.items()))


def as_json(values: Any) -> dict[str, Any]:
    """A tensor as the view holds it: shape, row-major data and dtype name."""
    array = np.asarray(values)
    data = array.reshape(-1).tolist()
    if array.dtype == np.bool_:
        data = [int(v) for v in data]
    return {"shape": list(array.shape), "data": data, "dtype": array.dtype.name}


def from_json(tensor: Mapping[str, Any]) -> np.ndarray:
    """The inverse of :func:`as_json`."""
    dtype = np.dtype(tensor["dtype"])
    return np.array(tensor["data"], dtype=dtype).reshape(tensor["shape"])


def problem_json(problem: Problem) -> dict[str, Any]:
    """A ``gl.diagnose`` problem as the view shows it."""
    where = None if problem.where is None else list(problem.where)
    return {
        "rule": problem.rule,
        "message": problem.message,
        "hint": problem.hint,
        "where": where,
    }


LibraryHook = Callable[[dict[str, Any]], dict[str, Any]]


class Explorer(anywidget.AnyWidget):
    """A chapter's explorer; its text form is short and the same on every run."""

    _esm = traitlets.Unicode((JS / "lab.mjs").read_text(encoding="utf-8")).tag(
        sync=True
    )
    kind = traitlets.Unicode().tag(sync=True)
    chapter = traitlets.Int().tag(sync=True)
    spec = traitlets.Dict().tag(sync=True)
    inputs = traitlets.Dict().tag(sync=True)
    library: traitlets.List[Any] = traitlets.List().tag(sync=True)

    def __init__(
        self,
        kind: str,
        chapter: int,
        inputs: Mapping[str, Any],
        spec: Mapping[str, Any],
        library_keys: Sequence[str] = (),
        library: LibraryHook | None = None,
        presets: Sequence[Mapping[str, Any]] = (),
    ) -> None:
        """``library(values)`` computes the entry for ``values`` (the inputs named by
        ``library_keys``, as NumPy arrays and ints); ``presets`` are further inputs
        whose entries are saved with the page (a prepared call the reader can pick)."""
        tensors = {k: as_json(v) if _is_tensor(v) else v for k, v in inputs.items()}
        spec = {**spec, "library_keys": list(library_keys)}
        super().__init__(kind=kind, chapter=chapter, spec=spec, inputs=tensors)
        self._library_hook = library
        self._saved: list[Any] = []
        for inputs in [tensors, *({**tensors, **self._tensors(p)} for p in presets)]:
            entry = self._entry(inputs)
            if entry is not None and entry not in self._saved:
                self._saved.append(entry)
        self.library = list(self._saved)
        self.observe(self._on_inputs, names="inputs")
        self.on_msg(self._on_message)

    def _on_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """lab.mjs asks for the view's modules once per view it draws."""
        if isinstance(content, dict) and content.get("type") == MODULES_REQUEST:
            self.send({"type": MODULES_REQUEST, "files": modules()})

    @staticmethod
    def _tensors(values: Mapping[str, Any]) -> dict[str, Any]:
        return {k: as_json(v) if _is_tensor(v) else v for k, v in values.items()}

    def _entry(self, inputs: Mapping[str, Any]) -> dict[str, Any] | None:
        if self._library_hook is None:
            return None
        keys = self.spec["library_keys"]
        chosen = {k: inputs[k] for k in keys}
        values = {
            k: from_json(v) if isinstance(v, dict) else v for k, v in chosen.items()
        }
        return {"inputs": chosen, "result": self._library_hook(values)}

    def _on_inputs(self, change: dict) -> None:
        entry = self._entry(change["new"])
        if entry is not None and entry not in self.library:
            self.library = [*self._saved, entry]

    def edit(self, **values: Any) -> None:
        """Set inputs as the view does when the reader types them (headless use)."""
        checked = {
            k: checked_array(v, k) if not isinstance(v, int) else v
            for k, v in values.items()
        }
        self.inputs = {**self.inputs, **self._tensors(checked)}

    def value(self, name: str) -> Any:
        """One input as NumPy (or the int it is)."""
        held = self.inputs[name]
        return from_json(held) if isinstance(held, dict) else held

    def entry_for_inputs(self) -> dict[str, Any]:
        """The library entry of the inputs on show ({} when none)."""
        keys = self.spec["library_keys"]
        chosen = {k: self.inputs[k] for k in keys}
        for entry in self.library:
            if entry["inputs"] == chosen:
                return entry["result"]
        return {}

    def __repr__(self) -> str:
        shown = ", ".join(
            f"{name} {tuple(held['shape'])}"
            if isinstance(held, dict)
            else f"{name} {held}"
            for name, held in self.inputs.items()
            if not isinstance(held, str)
        )
        return f"{self.kind} explorer (chapter {self.chapter}): {shown}"


def _is_tensor(value: Any) -> bool:
    return not isinstance(value, (int, str)) or isinstance(value, bool)

"""No import circles in the package: every module's imports, those inside functions
included (a lazy import is still a dependency), form no cycle.

A circle means that neither module can be read, tested or moved without the other;
the shared piece belongs in a module both import (``gatherlab._arrays`` holds the shape
helpers that ``reference``, ``diagnose`` and ``trace`` all use).
"""

from __future__ import annotations

import ast
from pathlib import Path

import gatherlab

PACKAGE = Path(gatherlab.__file__).parent


def _modules(package: Path) -> dict[str, Path]:
    """Every module of ``package`` by its dotted name (a package by its own name)."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _type_checking_only(tree: ast.AST) -> set[int]:
    """The nodes under ``if TYPE_CHECKING:``, which never run."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(inner) for inner in ast.walk(node))
    return skipped


def imports(package: Path) -> dict[str, set[str]]:
    """For each module of ``package``, the modules of it that it imports: a module
    named in ``from P import name`` where ``P.name`` is one, else ``P`` itself."""
    modules = _modules(package)
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skipped = _type_checking_only(tree)
        here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        for node in ast.walk(tree):
            if id(node) in skipped:
                continue
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parent = here[: len(here) - node.level + 1]
                    base = ".".join([*parent, *([base] if base else [])])
                targets = [
                    f"{base}.{alias.name}"
                    if f"{base}.{alias.name}" in modules
                    else base
                    for alias in node.names
                ]
            else:
                continue
            for target in targets:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that reach each other (strongly connected, size > 1)."""
    reach = {}
    for start in graph:
        seen: set[str] = set()
        todo = [start]
        while todo:
            for target in graph[todo.pop()]:
                if target not in seen:
                    seen.add(target)
                    todo.append(target)
        reach[start] = seen
    groups: list[list[str]] = []
    for name in sorted(graph):
        if name in reach[name] and not any(name in group for group in groups):
            groups.append(
                sorted(m for m in graph if m in reach[name] and name in reach[m])
            )
    return groups


def test_the_package_has_no_import_circle():
    graph = imports(PACKAGE)
    # reference's lazy import of diagnose (in scatter_writes) counts like any other
    assert graph["gatherlab.reference"] >= {"gatherlab._arrays", "gatherlab.diagnose"}
    found = cycles(graph)
    assert found == [], "\n".join(
        " <-> ".join(group)
        + "\n  "
        + "; ".join(f"{m} imports {sorted(graph[m] & set(group))}" for m in group)
        for group in found
    )


def test_a_lazy_import_that_closes_a_circle_is_found(tmp_path: Path):
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("from .low import helper\n")
    (package / "sub" / "low.py").write_text(
        "def helper():\n    from pkg.high import top\n    return top\n"
    )
    (package / "high.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "from pkg.sub import low\n"
        "if TYPE_CHECKING:\n    from pkg import other\n"
        "top = 1\n"
    )
    (package / "other.py").write_text("from pkg import high\n")
    graph = imports(package)
    assert graph["pkg.sub"] == {"pkg.sub.low"}
    assert graph["pkg.high"] == {"pkg.sub.low"}  # the TYPE_CHECKING import never runs
    assert cycles(graph) == [["pkg.high", "pkg.sub.low"]]

"""The case files made in the test run (tools/cases/generate.py): made again exactly
when what they are made from changed, and that hash leaves out no module of the
repository a generator imports."""

from __future__ import annotations

import ast
import sys
import types
from pathlib import Path

from tools.cases import generate

ROOT = generate.ROOT
LOCAL = ("gatherlab", "tests", "tools")


def module_file(name: str) -> Path | None:
    """The repository's file of module ``name``, or None where it is not one."""
    if name.split(".")[0] not in LOCAL:
        return None
    base = ROOT.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def imported_files(path: Path) -> set[Path]:
    """The repository's modules ``path`` imports, at its top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        for name in names:
            parts = name.split(".")
            for k in range(1, len(parts) + 1):  # a package's __init__ runs too
                file = module_file(".".join(parts[:k]))
                if file is not None:
                    found.add(file)
    return found


def test_the_hash_covers_every_module_a_generator_imports() -> None:
    todo = [module_file(name) for name in generate.CASE_FILES]
    assert None not in todo
    seen: set[Path] = set()
    while todo:
        path = todo.pop()
        if path is None or path in seen:
            continue
        seen.add(path)
        todo.extend(imported_files(path))
    assert ROOT / "tests" / "gather_cases.py" in seen  # the walk reaches tests/
    hashed = set(generate.sources())
    assert sorted(p.relative_to(ROOT) for p in seen - hashed) == []


def tree(root: Path) -> None:
    for name in (*generate.SOURCE_FILES, "gatherlab/a.py", "tools/cases/b.py"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("x = 1\n")


def test_the_hash_changes_with_a_source_and_only_with_one(tmp_path: Path) -> None:
    tree(tmp_path)
    before = generate.digest(tmp_path)
    (tmp_path / "gatherlab" / "__pycache__").mkdir()
    (tmp_path / "gatherlab" / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"\0")
    assert generate.digest(tmp_path) == before
    (tmp_path / "gatherlab" / "a.py").write_text("x = 2\n")
    assert generate.digest(tmp_path) != before
    (tmp_path / "gatherlab" / "a.py").write_text("x = 1\n")
    assert generate.digest(tmp_path) == before
    (tmp_path / "tools" / "cases" / "c.py").write_text("")
    assert generate.digest(tmp_path) != before


def test_a_file_is_made_again_only_when_its_hash_changed(
    tmp_path: Path, monkeypatch
) -> None:
    made: list[Path] = []

    def write(path: Path) -> str:
        made.append(path)
        path.write_bytes(f"case {len(made)}".encode())
        return "one case"

    module = types.ModuleType("stub_cases")
    module.write = write  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "stub_cases", module)
    monkeypatch.setattr(generate, "GENERATED", tmp_path)
    monkeypatch.setitem(generate.CASE_FILES, "stub_cases", "stub.json.gz")
    path = generate.fresh("stub_cases", key="one")
    assert path == tmp_path / "stub.json.gz"
    assert path.read_bytes() == b"case 1"
    assert generate.fresh("stub_cases", key="one").read_bytes() == b"case 1"
    assert generate.fresh("stub_cases", key="two").read_bytes() == b"case 2"
    assert generate.fresh("stub_cases", key="two", force=True).read_bytes() == b"case 3"
    path.unlink()
    assert generate.fresh("stub_cases", key="two").read_bytes() == b"case 4"
    assert len(made) == 4 and not list(tmp_path.glob("*.partial"))

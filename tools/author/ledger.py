"""The ledger of strong sentences: every claim that says always, never, only, ... has
its evidence.

A *strong sentence* is one in a chapter's markdown, a book page or a feedback template
(``gatherlab/exercises/messages.json``) that uses always, never, only, every, all,
exactly, guaranteed, (non)deterministic or "does not", or that names a version.
``tests/data/ledger.json`` holds one entry per such sentence, keyed by its normalised
text (so moving a sentence keeps its entry; rewording it needs a new one), with:

- ``evidence``: a list of references, each one of ``cell`` (``"06:ch6-code-12"``, a
  chapter's cell id), ``atlas`` (``"torch.gather(x, 1, index) [eager] negative"``, a
  stored atlas row), ``citation`` (a key of ``book/citations.md``) or ``test``
  (``"tests/test_x.py::test_name"``); ``none`` with a reason where the sentence makes
  no claim about a library (an instruction, a statement about the book itself);
- ``modes``: the modes it was checked in (``cpu``, ``cuda``, ``eager``, ``compile``,
  ``xla``, ``forward``, ``backward``, ...), or ``any`` where it names none that matter;
- ``checked``: true where a person read the sentence against its evidence; false for
  a drafted entry, whose evidence is only the chapter cells around the sentence.

``python tools/author/ledger.py --draft`` adds a drafted entry for every strong sentence
that has none and prints them; ``--prune`` drops entries whose sentence is gone;
``--coverage`` prints how many sentences have an entry, and how many a checked one.
``tests/test_ledger.py`` fails when a strong sentence has no entry or an entry's
evidence is gone.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LEDGER = ROOT / "tests" / "data" / "ledger.json"
CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
PAGES = sorted((ROOT / "book").glob("*.md"))
MESSAGES = ROOT / "gatherlab" / "exercises" / "messages.json"
REGISTER = ROOT / "book" / "citations.md"
ATLAS = ROOT / "gatherlab" / "atlas.json"
EVIDENCE_KINDS = ("cell", "atlas", "citation", "test", "none")

STRONG_WORDS = re.compile(
    r"\b(always|never|only|every|all|exactly|guaranteed|(?:non-?)?deterministic"
    r"|does not)\b",
    re.IGNORECASE,
)
# A version: three-part numbers (2.13.0), or a two-part one after a library's name
# or a word that places it in time ("torch 2.8", "from 2.8", "TensorFlow 2.21").
VERSION = re.compile(
    r"\b\d+\.\d+\.\d+\b"
    r"|\b(?:torch|pytorch|tensorflow|tf|numpy|python|cuda|keras|jax|rocm|xla|release"
    r"|since|from|until|before|after|up to|in)\s+v?\d+\.\d+\b",
    re.IGNORECASE,
)
FENCE = re.compile(r"```.*?```", re.DOTALL)
LABEL = re.compile(r"^\([\w-]+\)=$")  # a MyST target, "(setup)="
# A fold's markup: its <details> and </details> lines, and the <summary> line that
# titles it (a heading, as a dropdown's title on its ":::" line was)
FOLD = re.compile(r"^</?(?:details|summary)\b")
INLINE_CODE = re.compile(r"`[^`]*`")
LINK = re.compile(r"\]\([^)]*\)")
SENTENCE_END = re.compile(r"(?<=[.!?:])\s+(?=[A-Z`*\[(\"'\0])")


@dataclass(frozen=True)
class Sentence:
    """One strong sentence and where it stands."""

    text: str
    source: str  # "notebooks/06_writing_by_index.ipynb", "book/setup.md", messages.json
    place: str  # the cell id, the page's line number or the template's key

    @property
    def key(self) -> str:
        return normalise(self.text)


def normalise(text: str) -> str:
    """The ledger's key: lower case; marks, backticks and link targets dropped."""
    text = LINK.sub("]", text)
    text = re.sub(r"[*`\[\]]|^>\s*", "", text)
    text = re.sub(r"^\s*(?:[-+]|\d+\.)\s+", "", text)
    return " ".join(text.lower().split())


def is_strong(text: str) -> bool:
    """True where the words outside code name a strong word, or the text a version."""
    prose = INLINE_CODE.sub(" ", text)
    return bool(STRONG_WORDS.search(prose) or VERSION.search(text))


def split_sentences(markdown: str) -> Iterator[str]:
    """The sentences of a markdown text: code blocks, headings and tables left out
    (a table row counts as one sentence), list items and paragraphs split apart."""
    markdown = FENCE.sub("\n\n", markdown)
    blocks: list[list[str]] = [[]]
    for line in markdown.splitlines():
        stripped = line.strip()
        if (
            not stripped
            or stripped.startswith(("#", ":::"))
            or LABEL.match(stripped)
            or FOLD.match(stripped)
        ):
            blocks.append([])
            continue
        if stripped.startswith("|"):
            if not set(stripped) <= set("|-: "):
                blocks.append([stripped])
            blocks.append([])
            continue
        if re.match(r"^(?:[-+*]|\d+\.)\s", stripped.lstrip("> ")):
            blocks.append([])
        blocks[-1].append(
            stripped.lstrip("> ") if stripped.startswith(">") else stripped
        )
    for block in blocks:
        paragraph = " ".join(block).strip()
        # Inline code may hold ": " or ". " itself: split outside it only.
        spans = iter(INLINE_CODE.findall(paragraph))
        masked = INLINE_CODE.sub("\0", paragraph)
        for part in SENTENCE_END.split(masked):
            restored = "".join(next(spans) if char == "\0" else char for char in part)
            if restored.strip():
                yield restored


def chapter_cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def sentences() -> Iterator[Sentence]:
    """Every strong sentence of the chapters, the book's pages and the templates."""
    for path in CHAPTERS:
        for cell in chapter_cells(path):
            if cell["cell_type"] != "markdown":
                continue
            for text in split_sentences("".join(cell["source"])):
                if is_strong(text):
                    yield Sentence(text, f"notebooks/{path.name}", cell.get("id", ""))
    for path in PAGES:
        if path == REGISTER:
            body = path.read_text(encoding="utf-8").split("\n| Citation |")[0]
        else:
            body = path.read_text(encoding="utf-8")
        for text in split_sentences(body):
            if is_strong(text):
                yield Sentence(text, f"book/{path.name}", "")
    for key, template in json.loads(MESSAGES.read_text(encoding="utf-8")).items():
        for text in split_sentences(template):
            if is_strong(text):
                yield Sentence(text, "gatherlab/exercises/messages.json", key)


def load() -> dict[str, dict]:
    return json.loads(LEDGER.read_text(encoding="utf-8"))["entries"]


def save(entries: dict[str, dict]) -> None:
    data = {
        "about": (
            "The ledger of strong sentences (tools/author/ledger.py explains it). "
            "Keys are normalised sentences; `tools/author/ledger.py --draft` adds "
            "missing ones."
        ),
        "entries": dict(sorted(entries.items())),
    }
    text = json.dumps(data, indent=1, ensure_ascii=False, sort_keys=False)
    LEDGER.write_text(text + "\n", encoding="utf-8")


def chapter_number(source: str) -> str:
    return Path(source).name[:2]


def neighbour_cells(sentence: Sentence) -> list[str]:
    """The code cells around a chapter sentence's cell (a draft's guess)."""
    if not sentence.source.startswith("notebooks/"):
        return []
    cells = chapter_cells(ROOT / sentence.source)
    ids = [cell.get("id") for cell in cells]
    at = ids.index(sentence.place)
    found = []
    for step in (-1, 1):
        index = at + step
        while 0 <= index < len(cells) and cells[index]["cell_type"] != "code":
            index += step
        if 0 <= index < len(cells):
            found.append(f"{chapter_number(sentence.source)}:{ids[index]}")
    return found


def draft_entry(sentence: Sentence) -> dict:
    return {
        "where": f"{sentence.source} {sentence.place}".strip(),
        "evidence": [{"cell": cell} for cell in neighbour_cells(sentence)],
        "modes": [],
        "checked": False,
    }


# ------------------------------------------------------------------ evidence


def cell_ids() -> dict[str, set[str]]:
    return {
        path.name[:2]: {cell.get("id", "") for cell in chapter_cells(path)}
        for path in CHAPTERS
    }


def register_keys() -> set[str]:
    keys = set()
    for line in REGISTER.read_text(encoding="utf-8").splitlines():
        match = re.match(r"\|\s*`([^`]+)`\s*\|", line)
        if match:
            keys.add(match[1])
    return keys


def atlas_rows() -> set[str]:
    rows = set()
    columns = json.loads(ATLAS.read_text(encoding="utf-8"))["columns"]
    for column in columns.values():
        for op, modes in column["outcomes"].items():
            for mode, cases in modes.items():
                rows.update(f"{op} [{mode}] {case}" for case in cases)
    return rows


def test_exists(reference: str) -> bool:
    path, _, name = reference.partition("::")
    file = ROOT / path
    if not file.is_file():
        return False
    return not name or re.search(rf"^def {re.escape(name)}\(", file.read_text(), re.M)


def broken_evidence(entries: dict[str, dict]) -> list[tuple[str, dict]]:
    """(key, reference) for each reference whose cell, row, citation or test is gone."""
    cells, citations, rows = cell_ids(), register_keys(), atlas_rows()
    broken = []
    for key, entry in entries.items():
        for reference in entry["evidence"]:
            (kind, value), *rest = reference.items()
            if rest or kind not in EVIDENCE_KINDS:
                ok = False
            elif kind == "cell":
                chapter, _, cell = value.partition(":")
                ok = cell in cells.get(chapter, set())
            elif kind == "citation":
                ok = value in citations
            elif kind == "atlas":
                ok = value in rows
            elif kind == "test":
                ok = bool(test_exists(value))
            else:
                ok = bool(value)  # "none": the reason must be given
            if not ok:
                broken.append((key, reference))
    return broken


def coverage(entries: dict[str, dict]) -> dict[str, int]:
    found = {sentence.key for sentence in sentences()}
    return {
        "strong sentences": len(found),
        "with an entry": len(found & entries.keys()),
        "with a checked entry": sum(
            1 for key in found if entries.get(key, {}).get("checked")
        ),
        "entries whose sentence is gone": len(entries.keys() - found),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--draft", action="store_true", help="add missing entries")
    parser.add_argument("--prune", action="store_true", help="drop orphaned entries")
    parser.add_argument("--coverage", action="store_true", help="print coverage")
    args = parser.parse_args(argv)
    entries = load() if LEDGER.exists() else {}
    if args.draft:
        added = 0
        for sentence in sentences():
            if sentence.key not in entries:
                entries[sentence.key] = draft_entry(sentence)
                added += 1
                print(f"{sentence.source} {sentence.place}: {sentence.text}")
        print(f"{added} drafted entries", file=sys.stderr)
    if args.prune:
        found = {sentence.key for sentence in sentences()}
        for key in sorted(entries.keys() - found):
            del entries[key]
    if args.draft or args.prune:
        save(entries)
    if args.coverage:
        for name, count in coverage(entries).items():
            print(f"{name}: {count}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The exercise registry: the chapter modules listed in ``CHAPTERS``, imported on first
use (not at ``import gatherlab``), so TensorFlow's logging is silenced first and
importing the package stays fast. Each exercise a chapter module makes while it is
imported is registered under that module: no stack frames are read.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator, Mapping

from gatherlab.exercises.base import Exercise
from gatherlab.tf import quiet_tensorflow_logs

ID_PATTERN = re.compile(r"(\d\d)\.[a-z][a-z0-9_]*")
CHAPTER_MODULE = re.compile(r"ch(\d\d)")
# The chapter modules with exercises, in the book's order (a new chapter adds its own).
CHAPTERS = ("ch01", "ch02", "ch03", "ch04", "ch05", "ch06")


class Registry(Mapping[str, Exercise]):
    """Exercise id to exercise, sorted by id; chapter modules load on first access."""

    def __init__(self, package: str, chapters: tuple[str, ...] = CHAPTERS) -> None:
        self._package = package
        self._chapters = chapters
        self._exercises: dict[str, Exercise] = {}
        self._loaded = False
        self.loading = ""  # the chapter module being imported, which registers

    def add(self, exercise: Exercise, module: str) -> Exercise:
        """Register an exercise from ``module``; ids are unique and match ``chNN``."""
        if not ID_PATTERN.fullmatch(exercise.id):
            raise ValueError(
                f"exercise id {exercise.id!r} is not like '01.pick_columns'"
            )
        chapter = (
            CHAPTER_MODULE.fullmatch(module.rsplit(".", 1)[-1]) if module else None
        )
        if chapter and not exercise.id.startswith(chapter.group(1) + "."):
            raise ValueError(
                f"{exercise.id!r} is registered in {module}: ids there start "
                f"with {chapter.group(1)}."
            )
        known = self._exercises.get(exercise.id)
        if known is not None and known.module != module:
            raise ValueError(f"exercise id {exercise.id!r} is registered twice")
        exercise.module = module
        self._exercises[exercise.id] = exercise
        return exercise

    def load(self) -> None:
        """Import each chapter module of ``CHAPTERS`` once (it registers its own)."""
        if self._loaded:
            return
        quiet_tensorflow_logs()
        self._loaded = True
        for name in self._chapters:
            self.loading = f"{self._package}.{name}"
            try:
                importlib.import_module(self.loading)
            finally:
                self.loading = ""

    def __getitem__(self, exercise_id: str) -> Exercise:
        self.load()
        return self._exercises[exercise_id]

    def __iter__(self) -> Iterator[str]:
        self.load()
        return iter(sorted(self._exercises))

    def __len__(self) -> int:
        self.load()
        return len(self._exercises)

    def __repr__(self) -> str:
        return f"<{len(self)} exercises: {', '.join(self)}>"

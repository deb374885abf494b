"""The rules' words, as data: ``browser/rules.mjs`` read and filled in.

``rules.mjs`` holds every rule's id, its messages and hints, and the phrases several
rules share, as ``{field}`` templates: a JSON object, exported as an ES module's
default so that the browser's copy of the checks (``browser/explorers/core.mjs``
and ``explorers/scatter.mjs``) imports the very file Python reads here.
:func:`message`, :func:`hint` and :func:`phrase` fill a template with ``str`` of each
field, as core.mjs's ``fill`` does, so Python and the browser cannot word a rule
differently.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

RULES_PATH = Path(__file__).parent / "browser" / "rules.mjs"
RULES_MODULE = re.compile(r"^export default (\{.*\});\s*\Z", re.M | re.S)
PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


def module_object(path: Path) -> dict[str, Any]:
    """The JSON object an ES module of data exports: ``export default {...};`` (the
    form of rules.mjs and error_rules.mjs, which Python and the browser both read)."""
    found = RULES_MODULE.search(path.read_text(encoding="utf-8"))
    if found is None:
        raise ValueError(f"{path} must end with `export default {{...}};`")
    table: dict[str, Any] = json.loads(found[1])
    return table


@cache
def rules() -> dict[str, Any]:
    """rules.mjs's object: ``phrases`` and, by rule id, ``messages`` and ``hints``."""
    return module_object(RULES_PATH)


def with_article(name: str) -> str:
    """``a list``, ``an int``: a type's name as a sentence says it (core.mjs's
    withArticle)."""
    return ("an " if name[:1].lower() in "aeiou" else "a ") + name


def fill(template: str, fields: Mapping[str, Any]) -> str:
    """``template`` with each ``{field}`` replaced by ``str`` of its value: the rules'
    words, and the exercises' verdicts (gatherlab/exercises/verdict.py)."""
    return PLACEHOLDER.sub(lambda match: str(fields[match[1]]), template)


def message(rule: str, shape: str, /, **fields: Any) -> str:
    """The message of ``rule`` in its form ``shape``, filled with ``fields``."""
    return fill(rules()["rules"][rule]["messages"][shape], fields)


def hint(rule: str, shape: str, /, **fields: Any) -> str:
    """The hint ``shape`` of ``rule``, filled with ``fields``."""
    return fill(rules()["rules"][rule]["hints"][shape], fields)


def phrase(name: str, /, **fields: Any) -> str:
    """A part of a message shared by several rules (rules.mjs's ``phrases``)."""
    return fill(rules()["phrases"][name], fields)

"""The GitHub workflows use actions the hosted runners can still run.

The runners dropped Node 20 in September 2026: an action whose major release runs on
Node 20 (checkout@v4, setup-python@v5, upload-pages-artifact@v3 and v4, which call
upload-artifact@v4, deploy-pages@v4) no longer starts, and the book would not publish.
MINIMUM lists, for every action a workflow may use, the first major that runs on
Node 24; a workflow that uses an action not listed here fails too, until its first
Node 24 major is looked up and added.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
MINIMUM = {
    "actions/checkout": 5,
    "actions/setup-python": 6,
    "actions/setup-node": 5,
    "actions/cache": 5,
    "actions/configure-pages": 6,
    "actions/upload-artifact": 7,
    "actions/download-artifact": 7,
    "actions/upload-pages-artifact": 5,
    "actions/deploy-pages": 5,
}
USES = re.compile(r"(?P<action>[\w.-]+/[\w.-]+)@v(?P<major>\d+)(?:\.\d+)*")


def uses(workflow: Path) -> list[str]:
    """Every ``uses:`` of the workflow's steps (and reusable-workflow jobs)."""
    found = []
    for job in yaml.safe_load(workflow.read_text())["jobs"].values():
        found += [job["uses"]] if "uses" in job else []
        found += [step["uses"] for step in job.get("steps", []) if "uses" in step]
    return found


def too_old(used: str) -> str | None:
    """Why ``owner/name@vN`` would not run, or None."""
    match = USES.fullmatch(used)
    if match is None:
        return f"{used}: pin a major release, owner/name@vN"
    action, major = match["action"], int(match["major"])
    if action not in MINIMUM:
        return f"{used}: not in MINIMUM (add its first major that runs on Node 24)"
    if major < MINIMUM[action]:
        return f"{used}: runs on Node 20; use {action}@v{MINIMUM[action]} or newer"
    return None


def test_the_pages_workflow_is_there():
    assert [path.name for path in WORKFLOWS] == ["pages.yml"]
    assert "actions/deploy-pages@v5" in uses(WORKFLOWS[0])


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda path: path.name)
def test_every_action_runs_on_the_hosted_runners(workflow):
    used = uses(workflow)
    assert used, "a workflow with no action"
    problems = [why for why in map(too_old, used) if why]
    assert not problems, problems


@pytest.mark.parametrize(
    "used",
    [
        "actions/checkout@v4",
        "actions/setup-python@v5",
        "actions/upload-pages-artifact@v3",
        "actions/upload-pages-artifact@v4.0.0",
        "actions/deploy-pages@v4",
        "someone/else@v9",
        "actions/checkout@main",
    ],
)
def test_an_old_unknown_or_unpinned_action_is_refused(used):
    assert too_old(used)


def test_the_first_node_24_majors_pass():
    assert [too_old(f"{action}@v{major}") for action, major in MINIMUM.items()] == [
        None
    ] * len(MINIMUM)

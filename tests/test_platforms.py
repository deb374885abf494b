"""requirements.txt installs on every supported system and Python (asks PyPI).

For each system and Python, pip selects a wheel for every pin the requirements'
markers keep there (``pip install --dry-run --only-binary=:all: --platform ...
--python-version ...``), reading only the wheels' metadata (``fast-deps``: HTTP range
requests, no wheel is downloaded). pip evaluates environment markers for the machine it
runs on, never for ``--platform``, so the markers (ours and those of every dependency)
are evaluated here for the target system and pip is asked with ``--no-deps``, round by
round, until every dependency has a wheel: the closure that ``pip install -r
requirements.txt`` installs there. A wheel tagged ``py3-none-any`` is asked about once
(its Requires-Python is checked here for every Python); then all systems and Pythons
are asked about their platform wheels at once, since the time is network round trips.

Needs PyPI: ``make test-platforms`` runs it (``.ci/run`` does); ``make test`` does not.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import uuid
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

pytestmark = pytest.mark.network

ROOT = Path(__file__).resolve().parent.parent
# The oldest release of each supported Python (soupsieve 4.1 needs 3.11.5).
PYTHONS = ("3.11.5", "3.12.0", "3.13.0")


def _manylinux(arch: str) -> list[str]:
    # pip does not widen manylinux_2_28 to the older tags a glibc 2.28 system accepts.
    return [f"manylinux_2_{minor}_{arch}" for minor in range(28, 16, -1)] + [
        f"manylinux2014_{arch}"
    ]


@dataclass(frozen=True)
class System:
    tags: list[str]
    markers: dict[str, str]


SYSTEMS = {
    "linux-x86_64": System(
        _manylinux("x86_64"),
        {"sys_platform": "linux", "platform_system": "Linux", "os_name": "posix"}
        | {"platform_machine": "x86_64"},
    ),
    "linux-aarch64": System(
        _manylinux("aarch64"),
        {"sys_platform": "linux", "platform_system": "Linux", "os_name": "posix"}
        | {"platform_machine": "aarch64"},
    ),
    # pip widens macosx_14_0 to every older macOS; torch 2.13 needs macOS 14.
    "macos-arm64": System(
        ["macosx_14_0_arm64"],
        {"sys_platform": "darwin", "platform_system": "Darwin", "os_name": "posix"}
        | {"platform_machine": "arm64"},
    ),
    "windows-amd64": System(
        ["win_amd64"],
        {"sys_platform": "win32", "platform_system": "Windows", "os_name": "nt"}
        | {"platform_machine": "AMD64"},
    ),
}
COMBINATIONS = [(system, python) for system in SYSTEMS for python in PYTHONS]


def marker_environment(system: str, python: str) -> dict[str, str]:
    return SYSTEMS[system].markers | {
        "python_version": python.rsplit(".", 1)[0],
        "python_full_version": python,
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
        "implementation_version": python,
        "platform_release": "",
        "platform_version": "",
    }


def requirements() -> list[Requirement]:
    """The pins of requirements.txt (the editable project line aside)."""
    lines = (ROOT / "requirements.txt").read_text().splitlines()
    return [
        Requirement(line)
        for line in (raw.split(" #")[0].strip() for raw in lines)
        if line and not line.startswith(("#", "-e"))
    ]


def applies(requirement: Requirement, env: dict[str, str], extras=("",)) -> bool:
    marker = requirement.marker
    return marker is None or any(marker.evaluate(env | {"extra": e}) for e in extras)


@dataclass
class Resolution:
    """What pip picked for one system and Python, and what is wrong with it."""

    picked: dict[str, tuple[str, str]] = field(default_factory=dict)  # name: ver, file
    problems: list[str] = field(default_factory=list)


@dataclass
class Wheel:
    version: str
    filename: str
    requires_dist: list[Requirement]
    requires_python: SpecifierSet

    @property
    def pure(self) -> bool:
        return self.filename.endswith("-none-any.whl")


# pip runs at once (each is a few HTTP round trips per wheel, and some CPU).
PIP_SLOTS = threading.BoundedSemaphore(6)
LOCAL_PIP_SETTINGS = ("PIP_FIND_LINKS", "PIP_EXTRA_INDEX_URL", "PIP_CONSTRAINT")
CHUNK = 24
# Wheels tagged py3-none-any install on every system; pip is asked about each once and
# their Requires-Python is checked here for every Python.
PURE: dict[tuple[str, str], Wheel] = {}


def _pip_select(wanted: list[str], system: str, python: str, tmp: Path) -> dict:
    """pip's choice of wheel (metadata only) for each requirement in ``wanted``."""
    report = tmp / f"report-{uuid.uuid4().hex}.json"
    platforms = [arg for tag in SYSTEMS[system].tags for arg in ("--platform", tag)]
    command = [
        sys.executable,
        "-m",
        "pip",
        "install",
        "--dry-run",
        "--no-deps",
        "--ignore-installed",
        "--only-binary=:all:",
        "--use-feature=fast-deps",
        "--quiet",
        "--disable-pip-version-check",
        "--no-input",
        "--target",
        str(tmp / "target"),
        "--implementation",
        "cp",
        "--python-version",
        python,
        *platforms,
        "--report",
        str(report),
        *wanted,
    ]
    # Only PyPI: no local wheel folders, extra indexes or constraints of this machine.
    env = {k: v for k, v in os.environ.items() if k not in LOCAL_PIP_SETTINGS} | {
        "PIP_CONFIG_FILE": os.devnull,
        "PIP_DEFAULT_TIMEOUT": "60",
        "PIP_RETRIES": "5",
    }
    with PIP_SLOTS:
        result = subprocess.run(command, capture_output=True, text=True, env=env)
    if result.returncode != 0:
        errors = [line for line in result.stderr.splitlines() if "ERROR" in line]
        raise LookupError("\n".join(errors) or result.stderr[-1500:])
    wheels = {}
    for item in json.loads(report.read_text())["install"]:
        meta = item["metadata"]
        wheels[canonicalize_name(meta["name"])] = Wheel(
            meta["version"],
            item["download_info"]["url"].rsplit("/")[-1],
            [Requirement(r) for r in meta.get("requires_dist", [])],
            SpecifierSet(meta.get("requires_python") or ""),
        )
    return wheels


def _select(wanted: dict[str, str], system: str, python: str, tmp: Path) -> dict:
    """Wheels for ``{name: requirement}``: pure ones seen before, the rest from pip."""
    found = {}
    ask = []
    for name, requirement in wanted.items():
        known = [w for (n, _), w in PURE.items() if n == name]
        known = [
            w
            for w in known
            if Requirement(requirement).specifier.contains(w.version, prereleases=True)
        ]
        if known:
            found[name] = known[0]
        else:
            ask.append(requirement)
    chunks = [ask[i : i + CHUNK] for i in range(0, len(ask), CHUNK)]
    with ThreadPoolExecutor(max_workers=max(1, len(chunks))) as pool:
        for wheels in pool.map(lambda c: _pip_select(c, system, python, tmp), chunks):
            found.update(wheels)
    for name, wheel in found.items():
        if wheel.pure:
            PURE.setdefault((name, wheel.version), wheel)
    return found


def resolve(system: str, python: str, tmp: Path) -> Resolution:
    """The wheels `pip install -r requirements.txt` takes on ``system``, ``python``."""
    tmp.mkdir(parents=True, exist_ok=True)
    env = marker_environment(system, python)
    pins = {canonicalize_name(r.name): r for r in requirements() if applies(r, env)}
    resolution = Resolution()
    wheels: dict[str, Wheel] = {}
    while True:
        # Walk from the pins through the metadata known so far, with extras.
        extras: dict[str, set[str]] = defaultdict(lambda: {""})
        specifiers: dict[str, SpecifierSet] = defaultdict(SpecifierSet)
        required_by: dict[str, set[str]] = defaultdict(set)
        for name, pin in pins.items():
            extras[name] |= set(pin.extras)
        stack = list(pins)
        seen: set[tuple[str, frozenset[str]]] = set()
        while stack:
            name = stack.pop()
            key = (name, frozenset(extras[name]))
            if key in seen or name not in wheels:
                continue
            seen.add(key)
            for dep in wheels[name].requires_dist:
                if not applies(dep, env, tuple(extras[name])):
                    continue
                dep_name = canonicalize_name(dep.name)
                extras[dep_name] |= set(dep.extras)
                specifiers[dep_name] &= dep.specifier
                required_by[dep_name].add(name)
                stack.append(dep_name)
        missing = sorted((set(pins) | set(required_by)) - set(wheels))
        if not missing:
            break
        wanted = {
            n: str(pins[n].name) + str(pins[n].specifier)
            if n in pins
            else n + str(specifiers[n])
            for n in missing
        }
        try:
            wheels |= _select(wanted, system, python, tmp)
        except LookupError as error:
            resolution.problems.append(str(error))
            return resolution
        unknown = set(missing) - set(wheels)
        if unknown:
            resolution.problems.append(f"pip selected nothing for {sorted(unknown)}")
            return resolution
    resolution.picked = {n: (w.version, w.filename) for n, w in wheels.items()}
    for name, wheel in wheels.items():
        if not wheel.requires_python.contains(python, prereleases=True):
            resolution.problems.append(
                f"{name}=={wheel.version} requires Python {wheel.requires_python}"
            )
    # torch's own CUDA libraries (PyPI's default build) are left to torch's pins.
    torch_only = _reachable_only_through("torch", pins, required_by)
    for name, parents in sorted(required_by.items()):
        version = wheels[name].version
        if not specifiers[name].contains(version, prereleases=True):
            resolution.problems.append(
                f"{name}=={version} does not satisfy {specifiers[name]} "
                f"(required by {sorted(parents)})"
            )
        if name not in pins and name not in torch_only:
            resolution.problems.append(
                f"{name} (required by {sorted(parents)}) is not pinned"
            )
    return resolution


def _reachable_only_through(root, pins, required_by) -> set[str]:
    """Unpinned packages that only ``root`` (directly or through each other) needs."""
    inside: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name, parents in required_by.items():
            if name in pins or name in inside:
                continue
            if parents <= inside | {canonicalize_name(root)}:
                inside.add(name)
                changed = True
    return inside


@pytest.fixture(scope="module")
def resolutions(tmp_path_factory) -> dict[tuple[str, str], Resolution]:
    tmp = tmp_path_factory.mktemp("pip")
    # One system first asks pip about every pure wheel; the others then ask only
    # about their platform wheels, all at once.
    first = COMBINATIONS[0]
    results = {first: resolve(*first, tmp / "-".join(first))}
    with ThreadPoolExecutor(max_workers=len(COMBINATIONS)) as pool:
        futures = {
            combo: pool.submit(resolve, *combo, tmp / "-".join(combo))
            for combo in COMBINATIONS[1:]
        }
        results |= {combo: future.result() for combo, future in futures.items()}
    return results


@pytest.mark.parametrize("system, python", COMBINATIONS, ids="-".join)
def test_requirements_install_from_wheels(resolutions, system, python):
    resolution = resolutions[system, python]
    assert resolution.problems == []
    picked = resolution.picked
    tensorflow = (
        "tensorflow-cpu"
        if system in ("linux-x86_64", "windows-amd64")
        else ("tensorflow")
    )
    assert picked[tensorflow][0] == "2.21.0"
    assert picked["torch"][0] == "2.13.0"
    assert "-cp{}{}-".format(*python.split(".")[:2]) in picked["torch"][1]
    # The CUDA build's libraries come with PyPI's torch on Linux x86_64 only.
    assert ("triton" in picked) == system.startswith("linux")


def test_requirements_pin_every_line():
    for requirement in requirements():
        assert str(requirement.specifier).startswith("=="), requirement

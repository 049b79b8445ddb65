"""Provenance: which code played a results directory's games, recorded in ``experiment.json``.

A record holds the tool's version, Python's and the versions of the libraries a game's
outcome can depend on, and the SHA-256 of the source of every module outside this package
that the experiment's players and heuristics come from (the ``plugins:`` modules, a
user's player or heuristic registered from an installed package or a script). A resumed
run compares the stored provenance with its own, so games of two versions of a plugin
are never mixed in one table unless the user accepts it knowingly.
"""

from __future__ import annotations

import hashlib
import inspect
import platform
import sys
from collections.abc import Iterable
from importlib import metadata
from types import ModuleType
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

TOOL = "evo_mastermind"
LIBRARIES = ("numpy", "deap", "numba", "pydantic", "scipy", "pandas")
"""The libraries whose versions are recorded (what a game or its analysis runs on)."""

UNKNOWN = "unknown"
"""The version or digest of something that could not be read (e.g. code typed in a notebook)."""


class Provenance(BaseModel):
    """The code a run played its games with."""

    model_config = ConfigDict(frozen=True, extra="allow")

    tool: str = UNKNOWN
    """This package's version."""
    python: str = UNKNOWN
    """The Python version (``3.11.7``)."""
    libraries: dict[str, str] = Field(default_factory=dict)
    """Each library of :data:`LIBRARIES` and its version."""
    plugins: dict[str, str] = Field(default_factory=dict)
    """Each module outside this package that a player or heuristic comes from, by name, and
    the SHA-256 of its source (``unknown`` where it has none, e.g. a notebook's cell)."""

    def changes_from(self, stored: Provenance) -> list[str]:
        """What differs from ``stored`` in what decides the games: the tool and plugin code.

        Library versions are recorded, not compared: they are not expected to change a game.
        """
        changes = []
        if self.tool != stored.tool:
            changes.append(f"evo_mastermind {stored.tool} -> {self.tool}")
        for module in sorted(stored.plugins.keys() | self.plugins.keys()):
            was, now = stored.plugins.get(module), self.plugins.get(module)
            if was == now and was != UNKNOWN:
                continue
            if was is None or now is None:
                continue  # a module only one side uses belongs to a player only one side has
            if was == UNKNOWN or now == UNKNOWN:
                changes.append(f"plugin {module} (its source cannot be read to compare)")
            else:
                changes.append(f"plugin {module} (source changed)")
        return changes

    def describe(self) -> str:
        """One line: the tool, Python, the libraries and the plugins with short digests."""
        parts = [f"evo_mastermind {self.tool}", f"Python {self.python}"]
        parts += [f"{name} {version}" for name, version in self.libraries.items()]
        parts += [f"plugin {name} sha256:{digest[:12]}" for name, digest in self.plugins.items()]
        return ", ".join(parts)


def current_provenance(modules: Iterable[str | ModuleType]) -> Provenance:
    """The provenance of this process, with the source digests of ``modules``.

    Modules of this package are left out (the tool's version covers them), and so is any
    module that is not imported.
    """
    plugins: dict[str, str] = {}
    for module in modules:
        loaded = sys.modules.get(module) if isinstance(module, str) else module
        if loaded is None or _is_own(loaded.__name__):
            continue
        plugins[loaded.__name__] = source_digest(loaded)
    return Provenance(
        tool=_version(TOOL),
        python=platform.python_version(),
        libraries={name: _version(name) for name in LIBRARIES},
        plugins=dict(sorted(plugins.items())),
    )


def modules_of(objects: Iterable[Any]) -> list[str]:
    """The names of the modules that define ``objects`` (classes or functions)."""
    names = []
    for item in objects:
        name = getattr(item, "__module__", None)
        if isinstance(name, str) and name not in names:
            names.append(name)
    return names


def source_digest(module: ModuleType) -> str:
    """The SHA-256 of a module's source file, or :data:`UNKNOWN` when it has none."""
    try:
        path = inspect.getsourcefile(module)
    except TypeError:  # a built-in module
        return UNKNOWN
    if path is None:
        return UNKNOWN
    try:
        with open(path, "rb") as source:
            return hashlib.sha256(source.read()).hexdigest()
    except OSError:  # e.g. the module of a notebook cell or of `python -c`
        return UNKNOWN


def _is_own(module: str) -> bool:
    return module == TOOL or module.startswith(f"{TOOL}.")


def _version(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return UNKNOWN

"""Fixtures shared by every test package."""

import sys
from collections.abc import Iterator

import pytest

from evo_mastermind import heuristics
from evo_mastermind.players import PLAYERS, base


@pytest.fixture
def registry() -> Iterator[None]:
    """Leave the registries, and what was imported or loaded into them, as they were."""
    players = dict(PLAYERS)
    registered = dict(heuristics._registered)
    heuristic_points = set(heuristics._loaded_entry_points)
    imported = set(base._imported_plugins)
    loaded = set(base._loaded_entry_points)
    modules = set(sys.modules)
    yield
    PLAYERS.clear()
    PLAYERS.update(players)
    base._imported_plugins.clear()
    base._imported_plugins.update(imported)
    base._loaded_entry_points.clear()
    base._loaded_entry_points.update(loaded)
    heuristics._registered.clear()
    heuristics._registered.update(registered)
    heuristics._loaded_entry_points.clear()
    heuristics._loaded_entry_points.update(heuristic_points)
    for name in set(sys.modules) - modules:
        # Only the test's own plugin modules: libraries first imported meanwhile stay loaded.
        where = getattr(sys.modules[name], "__file__", None) or ""
        if where and not where.startswith((sys.prefix, sys.base_prefix)) and "evo_" not in name:
            del sys.modules[name]

"""Fixtures shared by every test package."""

import sys
from collections.abc import Callable, Iterator
from typing import TypeVar

import pytest

from evo_mastermind import registry as registries
from evo_mastermind.heuristics import HEURISTIC_REGISTRY
from evo_mastermind.players import registered_players
from evo_mastermind.players.registry import PLAYER_REGISTRY
from evo_mastermind.registry import Registry

T = TypeVar("T")


def kept(table: Registry[T]) -> Callable[[], None]:
    """What puts ``table``'s entries and loaded entry points back as they are now."""
    entries, loaded = dict(table), set(table._loaded_entry_points)

    def restore() -> None:
        table.clear()
        table.update(entries)
        table._loaded_entry_points.clear()
        table._loaded_entry_points.update(loaded)

    return restore


@pytest.fixture
def registry() -> Iterator[None]:
    """Leave the registries, and what was imported or loaded into them, as they were."""
    registered_players()  # every built-in in, so that what is restored is complete
    restores = [kept(PLAYER_REGISTRY), kept(HEURISTIC_REGISTRY)]
    imported = set(registries._imported_plugins)
    modules = set(sys.modules)
    yield
    for restore in restores:
        restore()
    registries._imported_plugins.clear()
    registries._imported_plugins.update(imported)
    for name in set(sys.modules) - modules:
        # Only the test's own plugin modules: libraries first imported meanwhile stay loaded.
        where = getattr(sys.modules[name], "__file__", None) or ""
        if where and not where.startswith((sys.prefix, sys.base_prefix)) and "evo_" not in name:
            del sys.modules[name]

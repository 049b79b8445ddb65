"""Every registered player: the protocol, the registry, and the built-in players' modules.

Asking for a player by name imports only its module (``make_player("entropy")`` loads the
one-ply players, not DEAP); reading :data:`PLAYERS` imports every built-in player first.
"""

import importlib
from typing import TYPE_CHECKING, Any

from evo_mastermind.players.protocol import Player, PlayerParams, PlayerStats, Preset
from evo_mastermind.players.registry import (
    BUILTIN_PLAYERS,
    ENTRY_POINT_GROUP,
    InvalidPlayerParamsError,
    PluginError,
    UnknownPlayerError,
    UnknownPresetError,
    import_plugins,
    known_player,
    load_entry_points,
    make_player,
    preset_options,
    presets_of,
    register_player,
    registered_players,
    validate_params,
)

if TYPE_CHECKING:
    from evo_mastermind.players import (
        archive,
        classic,
        evolutionary,
        fcol,
        joint,
        one_ply,
        rao,
        sampler,
        tree,
    )
    from evo_mastermind.players.registry import PLAYERS

# The built-in players' modules, as attributes imported on first use.
_MODULES = frozenset(module.rpartition(".")[2] for module in BUILTIN_PLAYERS.values())


def __getattr__(name: str) -> Any:
    if name == "PLAYERS":
        players = globals()["PLAYERS"] = registered_players()  # complete: later reads are plain
        return players
    if name in _MODULES:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "BUILTIN_PLAYERS",
    "ENTRY_POINT_GROUP",
    "PLAYERS",
    "InvalidPlayerParamsError",
    "Player",
    "PlayerParams",
    "PlayerStats",
    "PluginError",
    "Preset",
    "UnknownPlayerError",
    "UnknownPresetError",
    "archive",
    "classic",
    "evolutionary",
    "fcol",
    "import_plugins",
    "joint",
    "known_player",
    "load_entry_points",
    "make_player",
    "one_ply",
    "preset_options",
    "presets_of",
    "rao",
    "register_player",
    "registered_players",
    "sampler",
    "tree",
    "validate_params",
]

"""The former home of the player protocol and the registry, which now have a module each.

The protocol (:class:`Player`, :class:`PlayerParams`, :class:`Preset`) is in
:mod:`evo_mastermind.players.protocol`, the registry (:func:`register_player`,
:data:`PLAYERS`, :func:`make_player`, ...) in :mod:`evo_mastermind.players.registry`; both are
re-exported here, so that imports from this module keep working. Users import them from
:mod:`evo_mastermind.players`.
"""

from typing import TYPE_CHECKING, Any

from evo_mastermind.players.protocol import (
    ParamsT,
    Player,
    PlayerParams,
    PlayerStats,
    Preset,
    heuristic_option,
    option_error,
)
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
    from evo_mastermind.players.registry import PLAYERS


def __getattr__(name: str) -> Any:
    if name == "PLAYERS":  # read lazily: reading it imports every built-in player
        return registered_players()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "BUILTIN_PLAYERS",
    "ENTRY_POINT_GROUP",
    "PLAYERS",
    "InvalidPlayerParamsError",
    "ParamsT",
    "Player",
    "PlayerParams",
    "PlayerStats",
    "PluginError",
    "Preset",
    "UnknownPlayerError",
    "UnknownPresetError",
    "heuristic_option",
    "import_plugins",
    "known_player",
    "load_entry_points",
    "make_player",
    "option_error",
    "preset_options",
    "presets_of",
    "register_player",
    "registered_players",
    "validate_params",
]

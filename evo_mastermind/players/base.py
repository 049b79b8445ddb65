"""The former home of the player protocol and the registry, which now have a module each.

The protocol (:class:`~evo_mastermind.players.protocol.Player`, ``PlayerParams``,
``Preset``) is in :mod:`evo_mastermind.players.protocol`, the registry (``register_player``,
``PLAYERS``, ``make_player``, ...) in :mod:`evo_mastermind.players.registry`; every public
name of both is re-exported here, so that imports from this module keep working. Users
import them from :mod:`evo_mastermind.players`.
"""

from typing import TYPE_CHECKING, Any

from evo_mastermind.players import protocol, registry
from evo_mastermind.players.protocol import *  # noqa: F403  (this module is their former home)
from evo_mastermind.players.registry import *  # noqa: F403

if TYPE_CHECKING:
    from evo_mastermind.players.registry import PLAYERS


def __getattr__(name: str) -> Any:
    if name == "PLAYERS":  # read lazily: reading it imports every built-in player
        return registry.registered_players()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [*protocol.__all__, *registry.__all__, "PLAYERS"]

"""Every registered player; importing this package fills the registry."""

from evo_mastermind.players import archive, classic, evolutionary, one_ply, tree
from evo_mastermind.players.base import (
    PLAYERS,
    InvalidPlayerParamsError,
    Player,
    PlayerParams,
    UnknownPlayerError,
    make_player,
    register_player,
    validate_params,
)

__all__ = [
    "PLAYERS",
    "InvalidPlayerParamsError",
    "Player",
    "PlayerParams",
    "UnknownPlayerError",
    "archive",
    "classic",
    "evolutionary",
    "make_player",
    "one_ply",
    "register_player",
    "tree",
    "validate_params",
]

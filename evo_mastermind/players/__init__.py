"""Every registered player; importing this package fills the registry."""

from evo_mastermind.players import classic, one_ply, tree
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
    "classic",
    "make_player",
    "one_ply",
    "register_player",
    "tree",
    "validate_params",
]

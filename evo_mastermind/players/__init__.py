"""Every registered player; importing this package fills the registry."""

from evo_mastermind.players import (
    archive,
    classic,
    evolutionary,
    fcol,
    joint,
    one_ply,
    rao,
    tree,
)
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
    "fcol",
    "joint",
    "make_player",
    "one_ply",
    "rao",
    "register_player",
    "tree",
    "validate_params",
]

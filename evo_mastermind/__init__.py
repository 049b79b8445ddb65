"""evo_mastermind: Mastermind code-breaking strategies, experiments, statistics and plots."""

from evo_mastermind.codes import CodeSpace, InvalidGameError, SpaceTooLargeError
from evo_mastermind.game import (
    Codemaker,
    GameResult,
    InconsistentResponsesError,
    InvalidGuessError,
    Move,
    PlayerStats,
    play_game,
)
from evo_mastermind.players import PLAYERS, Player, PlayerParams, make_player, register_player
from evo_mastermind.players.tree import DecisionTree, build_tree
from evo_mastermind.scoring import Response, score

__all__ = [
    "PLAYERS",
    "CodeSpace",
    "Codemaker",
    "DecisionTree",
    "GameResult",
    "InconsistentResponsesError",
    "InvalidGameError",
    "InvalidGuessError",
    "Move",
    "Player",
    "PlayerParams",
    "PlayerStats",
    "Response",
    "SpaceTooLargeError",
    "build_tree",
    "make_player",
    "play_game",
    "register_player",
    "score",
]

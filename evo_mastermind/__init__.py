"""evo_mastermind: Mastermind code-breaking strategies, experiments, statistics and plots."""

from typing import TYPE_CHECKING

from evo_mastermind.lazy import lazy_exports, public_dir

if TYPE_CHECKING:
    from evo_mastermind.api import Results, load, run
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
    from evo_mastermind.heuristics import Heuristic, register_heuristic
    from evo_mastermind.players import PLAYERS, Player, PlayerParams, make_player, register_player
    from evo_mastermind.players.decision_tree import DecisionTree
    from evo_mastermind.players.tree_building import build_tree
    from evo_mastermind.scoring import Response, score

# Names resolve on first use (PEP 562): the players (pydantic, DEAP, scipy) load when used.
_EXPORTS = {
    "Results": "evo_mastermind.api",
    "load": "evo_mastermind.api",
    "run": "evo_mastermind.api",
    "CodeSpace": "evo_mastermind.codes",
    "InvalidGameError": "evo_mastermind.codes",
    "SpaceTooLargeError": "evo_mastermind.codes",
    "Codemaker": "evo_mastermind.game",
    "GameResult": "evo_mastermind.game",
    "InconsistentResponsesError": "evo_mastermind.game",
    "InvalidGuessError": "evo_mastermind.game",
    "Move": "evo_mastermind.game",
    "PlayerStats": "evo_mastermind.game",
    "play_game": "evo_mastermind.game",
    "Heuristic": "evo_mastermind.heuristics",
    "register_heuristic": "evo_mastermind.heuristics",
    "PLAYERS": "evo_mastermind.players",
    "Player": "evo_mastermind.players",
    "PlayerParams": "evo_mastermind.players",
    "make_player": "evo_mastermind.players",
    "register_player": "evo_mastermind.players",
    "DecisionTree": "evo_mastermind.players.decision_tree",
    "build_tree": "evo_mastermind.players.tree_building",
    "Response": "evo_mastermind.scoring",
    "score": "evo_mastermind.scoring",
}


_lazy = lazy_exports(__name__, _EXPORTS)


def __getattr__(name: str) -> object:
    if name == "__version__":  # read from the installed package's metadata when asked
        from importlib.metadata import version

        return version("evo_mastermind")
    return _lazy(name)


__dir__ = public_dir(__name__)  # dir() and tab completion list the API, not the machinery


__all__ = [
    "PLAYERS",
    "CodeSpace",
    "Codemaker",
    "DecisionTree",
    "GameResult",
    "Heuristic",
    "InconsistentResponsesError",
    "InvalidGameError",
    "InvalidGuessError",
    "Move",
    "Player",
    "PlayerParams",
    "PlayerStats",
    "Response",
    "Results",
    "SpaceTooLargeError",
    "__version__",
    "build_tree",
    "load",
    "make_player",
    "play_game",
    "register_heuristic",
    "register_player",
    "run",
    "score",
]

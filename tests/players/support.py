"""Shared by the tests: codemakers that lie, games against SCSA secrets, every player."""

from pathlib import Path
from typing import Any

import numpy as np

from evo_mastermind.codes import Code, CodeSpace
from evo_mastermind.game import Codemaker, GameResult, play_game
from evo_mastermind.players import PLAYERS, make_player
from evo_mastermind.players.tree import build_tree
from evo_mastermind.scoring import Response
from evo_mastermind.scsa import draw_secrets
from evo_mastermind.seeding import game_rng


def scsa_games(
    name: str,
    space: CodeSpace,
    scsa: str,
    n: int,
    params: dict[str, Any] | None = None,
    draw_seed: int | None = None,
    root_seed: int = 5,
    guess_limit: int = 100,
) -> list[tuple[str, GameResult]]:
    """``n`` games of the named player against secrets of an SCSA, each seeded by its identity.

    The secrets are drawn from ``draw_seed`` (default: the number of pegs).
    """
    player = make_player(name, space, params)
    draw_rng = np.random.default_rng(space.pegs if draw_seed is None else draw_seed)
    games = []
    for secret in draw_secrets(scsa, space, draw_rng, n):
        text = space.format(secret)
        rng = game_rng(root_seed, name, 0, text, space.colors)
        games.append((text, play_game(player, Codemaker(space, text), rng, guess_limit)))
    return games


class SilentCodemaker(Codemaker):
    """Answers (0,0) to everything: no code has no colour at all."""

    def respond(self, guess: Code) -> Response:
        return Response(0, 0)


class SwitchingCodemaker(Codemaker):
    """Answers for one secret, then, from guess ``switch_at`` on, for another."""

    def __init__(self, space: CodeSpace, first: str, then: str, switch_at: int) -> None:
        super().__init__(space, first)
        self.then = Codemaker(space, then)
        self.switch_at = switch_at
        self.answered = 0

    def respond(self, guess: Code) -> Response:
        self.answered += 1
        if self.answered > self.switch_at:
            return self.then.respond(guess)
        return super().respond(guess)


class RandomCodemaker(Codemaker):
    """Answers a random possible-looking response (b + w <= pegs), never a win."""

    def __init__(self, space: CodeSpace, seed: int) -> None:
        super().__init__(space, "A" * space.pegs)
        self.rng = np.random.default_rng(seed)

    def respond(self, guess: Code) -> Response:
        pegs = self.space.pegs
        black = int(self.rng.integers(0, pegs))
        return Response(black, int(self.rng.integers(0, pegs - black + 1)))


def every_player(tree_path: Path) -> list[dict[str, Any]]:
    """One config entry per registered player and randomised option (small, fast settings).

    The ``tree`` player replays the tree of ``knuth`` on (4,6), saved to ``tree_path``.
    """
    if not tree_path.exists():
        build_tree(make_player("knuth", CodeSpace(4, 6))).save(tree_path)
    small_archive = {"mu": 10, "population_size": 40, "max_generations_without_new": 8}
    entries: list[dict[str, Any]] = [
        {"label": "EDA f_l", "player": "eda", "population_size": 60},
        {"label": "EDA f", "player": "eda", "fitness": "f", "population_size": 60},
        {"label": "GA", "player": "ga", "population_size": 40},
        {"label": "Archive DEAP", "player": "archive", "search": "deap", **small_archive},
        {"label": "Archive numpy", "player": "archive", "search": "vectorised", **small_archive},
        {"label": "Archive all", "player": "archive", "play": "all", **small_archive},
        {
            "label": "Archive uniform",
            "player": "archive",
            "uniform_seeds": 5,
            "uniform_complete": True,
            **small_archive,
        },
        {"label": "Most parts mu", "player": "most_parts", "mu": 10},
        {"label": "One-ply worst case", "player": "one_ply", "heuristic": "worst_case", "mu": 10},
        {"label": "Rao random", "player": "rao", "color_order": "random"},
        {"label": "Joint random", "player": "joint", "color_order": "random"},
        {"label": "Tree", "player": "tree", "path": str(tree_path)},
        {"label": "Sampler", "player": "sampler", "mu": 20},
        {"label": "Sampler all", "player": "sampler", "mu": 20, "play": "all"},
    ]
    for name in ("entropy", "most_parts", "expected_size", "worst_case", "random"):
        entries.append({"label": name, "player": name})
    for name in ("local_entropy", "knuth", "first_consistent", "fcol", "optimal"):
        entries.append({"label": name, "player": name})
    missing = set(PLAYERS) - {entry["player"] for entry in entries}
    assert not missing, f"add the players {sorted(missing)} to every_player()"
    return entries

"""Shared by the players' tests: codemakers that lie, and games against SCSA secrets."""

from typing import Any

import numpy as np

from evo_mastermind.codes import Code, CodeSpace
from evo_mastermind.game import Codemaker, GameResult, play_game
from evo_mastermind.players import make_player
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

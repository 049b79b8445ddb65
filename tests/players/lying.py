"""Codemakers that lie, shared by the constructive players' tests."""

import numpy as np

from evo_mastermind.codes import Code, CodeSpace
from evo_mastermind.game import Codemaker
from evo_mastermind.scoring import Response


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

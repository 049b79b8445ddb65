"""mylab's players for evo_mastermind: one small player, written as any user would write one.

``colourful`` plays a code still consistent with every answer, preferring codes with many
distinct colours (they split the remaining codes more evenly), ties broken at random with
the game's own generator: never the global ``random`` or ``np.random``, so a game is the
same on every executor. Like the built-in ``sampler`` and ``archive``, it takes the exact end
game's options (``endgame: T``: once at most ``T`` codes are consistent, the optimum plays).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from evo_mastermind.codes import Code, CodeSpace
from evo_mastermind.evolution.fitness import History
from evo_mastermind.players import Player, PlayerParams, Preset, register_player
from evo_mastermind.players.endgame import EndGame, EndgameParams
from evo_mastermind.scoring import Response, score_codes


class ColourfulParams(EndgameParams):
    """Options of the colourful player (unknown keys are errors, as for every player).

    ``EndgameParams`` (a ``PlayerParams``) adds ``endgame``, ``endgame_work`` and
    ``endgame_pool``.
    """

    first_guess: str | None = None
    """A code such as ABCD for the first move; unset: chosen like any other move."""
    prefer_colours: bool = True
    """Prefer consistent codes with more distinct colours; false: any consistent code."""


@register_player("colourful")
class ColourfulPlayer(Player):
    """A consistent code with the most distinct colours, ties at random (mylab example)."""

    Params = ColourfulParams
    presets: ClassVar[Mapping[str, Preset]] = {
        "abcd": Preset({"first_guess": "ABCD"}, "always open with ABCD"),
    }

    @classmethod
    def check_game(cls, space: CodeSpace, params: PlayerParams) -> None:
        """Refuse, before any game, a space too large to list."""
        space.require_enumerable("the colourful player")

    def __init__(self, space: CodeSpace, params: PlayerParams | None = None) -> None:
        super().__init__(space, params)
        assert isinstance(self.params, ColourfulParams)
        self.settings = self.params
        # Made once per game size and kept across games: the codes and their colour counts.
        self.codes = space.all_codes
        ordered = np.sort(self.codes, axis=1)
        self.distinct = 1 + np.count_nonzero(ordered[:, 1:] != ordered[:, :-1], axis=1)
        self.first = (
            None if self.settings.first_guess is None else space.parse(self.settings.first_guess)
        )
        self.consistent: npt.NDArray[np.int64] = np.arange(len(self.codes))
        self.rng = np.random.default_rng(0)  # replaced by the game's generator in start()
        self.history = History(space.pegs, space.colors)
        self.endgame = EndGame(space, self.params)

    def start(self, rng: np.random.Generator) -> None:
        """A new game: every code is possible again."""
        self.rng = rng
        self.consistent = np.arange(len(self.codes))
        self.history = History(self.space.pegs, self.space.colors)
        self.endgame.start()

    def ask(self) -> Code:
        """The next guess."""
        if self.first is not None and len(self.consistent) == len(self.codes):
            return self.first
        exact = self.endgame.guess(self.history)  # None: off, the set too large, or out of work
        if exact is not None:
            return exact
        candidates = self.consistent
        if self.settings.prefer_colours:
            colours = self.distinct[candidates]
            candidates = candidates[colours == colours.max()]
        return self.codes[self.rng.choice(candidates)]

    def tell(self, guess: Code, response: Response) -> None:
        """Keep the codes that would have given the same answer."""
        self.history.add(guess, response)
        answers = score_codes(guess, self.codes[self.consistent], self.space.colors)
        self.consistent = self.consistent[answers == response.pack(self.space.pegs)]

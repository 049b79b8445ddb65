"""The ``sampler`` player: a heuristic's pick over μ uniform samples of the consistent codes.

Each move draws up to μ distinct codes uniformly from those consistent with the history
(:func:`evo_mastermind.sampling.sample_consistent`: exact at every game size, the whole set
when it has at most μ codes) and lets the archive EA's choice
(:func:`evo_mastermind.evolution.choice.choose_guess`) pick the guess over them. It is the
archive EA with its search replaced by an unbiased sample: the baseline that prices the
search's bias (``docs/studies/uniform-sampling.md``). The code space is never listed.

With ``play: all`` the possible guesses also include codes one peg away from sample members
(a random member, a random peg, another colour): the kind of near-consistent code the
archive EA's search evaluates and may play (sample members win ties).

``lookahead`` also plays over a sample (``heuristic_when_full`` unset): each sampled code
stands for (consistent set size / μ) codes, so the part sizes it estimates are the set's.

``whole_set: N`` (off by default) plays the heuristic over every consistent code, not over
μ of them, once the set holds at most ``N`` codes: the preset's lookahead a move earlier
(priced on (8,12) in ``docs/studies/endgame.md``, "The price of greed in the middle game").

Presets per game size (``preset: 8x12``) keep the archive EA's first guesses and heuristics,
and its μ (1,000; 2,000 on (8,12)): over the 500 secrets of (5,8), (6,9) and (7,10), μ from
250 to 4,000 played no better than 1,000 with p < 0.05 (the study page's μ and play sweeps).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Literal

import numpy as np
from pydantic import PositiveInt, field_validator

from evo_mastermind.codes import Code, Codes, CodeSpace
from evo_mastermind.evolution.archive import outside
from evo_mastermind.evolution.choice import (
    LOOKAHEAD,
    HeuristicName,
    RemainingGuesses,
    choose_guess,
)
from evo_mastermind.evolution.fitness import History
from evo_mastermind.evolution.neighbourhood import distinct_rows
from evo_mastermind.game import InconsistentResponsesError, PlayerStats
from evo_mastermind.players.base import (
    Player,
    PlayerParams,
    Preset,
    heuristic_option,
    register_player,
)
from evo_mastermind.players.cost import Cost, choice_cost, items_memory
from evo_mastermind.players.endgame import EndGame, EndgameParams
from evo_mastermind.players.first_guess import opening_code
from evo_mastermind.sampling import (
    ConsistentSample,
    Constraints,
    NoConsistentCodeError,
    count_consistent,
    halves_memory,
    sample_consistent,
)
from evo_mastermind.scoring import Response

Play = Literal["consistent", "all"]


class SamplerParams(EndgameParams):
    """Options of the sampler player."""

    mu: PositiveInt = 1000
    """How many distinct consistent codes are drawn uniformly each move (every one when
    fewer are consistent)."""
    heuristic: HeuristicName = "entropy"
    """Score computed over the sample: a registered partition heuristic (``entropy``,
    ``most_parts``, ``expected_size``, ``worst_case``, or one of your own), or ``lookahead``
    (expected guesses, two moves ahead; see :mod:`evo_mastermind.evolution.choice`)."""
    heuristic_when_full: HeuristicName | None = None
    """The score used instead when the sample is not the whole consistent set (unset:
    ``heuristic``). ``lookahead`` over a sample counts each sampled code as (consistent set
    size / sample size) codes, the set's size counted exactly."""
    play: Play = "consistent"
    """``consistent`` plays a sampled code; ``all`` may also play a code one peg away from
    a sampled one (sampled codes win ties)."""
    pool_limit: PositiveInt = 2000
    """With ``play: all``, how many codes one peg away from sampled codes are scored."""
    lookahead_width: PositiveInt = 20
    """With ``lookahead``, how many guesses get the second ply."""
    remaining_a: float = RemainingGuesses.a
    """With ``lookahead``, ``a`` of the one-ply estimate ``a + b ln m``."""
    remaining_b: float = RemainingGuesses.b
    """With ``lookahead``, ``b`` of that estimate."""
    first_guess: str | None = None
    """The opening code, e.g. ``AABBCCDE``; unset for the ``AABC`` pattern (``AABCD`` ...)."""
    whole_set: PositiveInt | None = None
    """Play over every consistent code (with ``heuristic``, not ``heuristic_when_full``)
    once the set, counted exactly, holds at most this many codes, more than μ; unset: only
    when it holds at most μ. Off by default."""

    @field_validator("heuristic", "heuristic_when_full")
    @classmethod
    def _known(cls, name: str | None) -> str | None:
        return heuristic_option(name)


def _size_preset(mu: int, first_guess: str | None, about: str) -> Preset:
    options: dict[str, object] = {
        "heuristic": "lookahead",
        "heuristic_when_full": "entropy",
        "mu": mu,
    }
    if first_guess is not None:
        options["first_guess"] = first_guess
    return Preset(options, about)


PRESETS = MappingProxyType(
    {
        "5x8": _size_preset(1000, None, "(5,8): the archive EA's best heuristics over μ = 1000"),
        "6x9": _size_preset(1000, "AABBCD", "(6,9): as 5x8, the archive EA's first guess"),
        "7x10": _size_preset(1000, "AABBCCD", "(7,10): as 5x8, the archive EA's first guess"),
        "8x12": _size_preset(
            2000, "AABBCCDE", "(8,12): the archive EA's best heuristics and μ = 2000"
        ),
    }
)
"""Settings per game size: the archive EA's best heuristics and first guesses, its μ."""


def draw_consistent(constraints: Constraints, n: int, rng: np.random.Generator) -> ConsistentSample:
    """``n`` distinct uniform consistent codes (every one when fewer), for a player's move.

    Raises:
        InconsistentResponsesError: no code agrees with every response (found exactly).
    """
    try:
        return sample_consistent(constraints, n, rng)
    except NoConsistentCodeError:
        raise InconsistentResponsesError.because(
            f"no code of {constraints.space} agrees with all {len(constraints)} responses"
        ) from None


@register_player("sampler")
class SamplerPlayer(Player[SamplerParams]):
    """Plays a heuristic's pick over μ codes drawn uniformly from the consistent set."""

    Params = SamplerParams
    presets = PRESETS

    def __init__(self, space: CodeSpace, params: SamplerParams | None = None) -> None:
        super().__init__(space, params)
        first = opening_code(space, self.params.first_guess, "aabc", self.name)
        assert first is not None  # the default is a pattern: never the strategy's choice
        self.first_guess = first
        self.curve = RemainingGuesses(self.params.remaining_a, self.params.remaining_b)
        self.history = History(space.pegs, space.colors)
        self._rng = np.random.default_rng(0)
        self._trials = 0
        self._sampled = 0
        self.endgame = EndGame(space, self.params)

    @classmethod
    def estimate(cls, params: PlayerParams, space: CodeSpace) -> Cost:
        """Time and memory of a game, dominated by the choice over μ codes at every move.

        Each move scores μ sampled codes (and, with ``play: all``, ``pool_limit`` more) over
        the sample; ``lookahead`` then plays ``lookahead_width`` of them a ply further, over
        the same guesses. About ``pegs`` choices (8.3 guesses on (8,12)); with ``whole_set``
        above μ, one more choice over that many codes (sets shrink about tenfold a move, so
        about one move a game plays over a whole set of that size). Memory: the sample, the
        largest choice's response matrix, and the tables of the halves the consistent set is
        counted by (or the listing, on games too large to split). Drawing the sample is not
        timed: its exact paths cost too little to matter, or, on a few histories of the
        largest games, more than any model of the history can tell in advance.
        """
        assert isinstance(params, SamplerParams)
        pool = params.pool_limit if params.play == "all" else 0
        lookahead = LOOKAHEAD in (params.heuristic, params.heuristic_when_full)
        width = params.lookahead_width if lookahead else 0
        choice = choice_cost(params.mu + pool, params.mu, space.pegs, width)
        seconds, largest = choice.seconds, params.mu
        if params.whole_set is not None and params.whole_set > params.mu:
            whole = choice_cost(params.whole_set + pool, params.whole_set, 1, width)
            seconds = (seconds or 0.0) + (whole.seconds or 0.0)
            choice, largest = whole, params.whole_set
        memory = items_memory(largest + pool, space.pegs) + choice.memory + halves_memory(space)
        return Cost(seconds=seconds, memory=memory)

    def start(self, rng: np.random.Generator) -> None:
        """Begin a game with its own generator."""
        self._rng = rng
        self.history = History(self.space.pegs, self.space.colors)
        self._trials = 0
        self._sampled = 0
        self.endgame.start()

    def tell(self, guess: Code, response: Response) -> None:
        """Record the response."""
        self.history.add(guess, response)

    def stats(self) -> PlayerStats:
        """What the sampling cost in this game.

        ``evaluations``: codes drawn from the whole space and tested; ``distinct_codes``:
        consistent codes sampled (counted once per move).
        """
        return PlayerStats(evaluations=self._trials, distinct_codes=self._sampled)

    def ask(self) -> Code:
        """The first guess, then the heuristic's pick over a uniform consistent sample.

        With ``endgame`` set, the exact end game's guess once the consistent set is that
        small (:mod:`evo_mastermind.players.endgame`), when its search fits its work.

        Raises:
            InconsistentResponsesError: no code agrees with every response (the sampler
                finds that exactly).
        """
        if len(self.history) == 0:
            return self.first_guess.copy()
        exact = self.endgame.guess(self.history)
        if exact is not None:
            return exact
        options = self.params
        constraints = Constraints.of(self.space, self.history)
        sample = draw_consistent(constraints, options.mu, self._rng)
        complete = sample.complete
        if not complete and options.whole_set is not None:
            size = sample.size if sample.size is not None else count_consistent(constraints)
            if size <= options.whole_set:
                # Small enough to play over whole: the sample above is drawn, then replaced
                # by ``size`` distinct codes, every consistent one (rejection may not say so).
                self._trials += sample.trials
                sample = draw_consistent(constraints, size, self._rng)
                complete = True
        self._trials += sample.trials
        self._sampled += sample.codes.shape[0]
        heuristic = options.heuristic
        if not complete and options.heuristic_when_full is not None:
            heuristic = options.heuristic_when_full
        scale = 1.0
        if not complete and heuristic == LOOKAHEAD:
            size = sample.size if sample.size is not None else count_consistent(constraints)
            scale = size / sample.codes.shape[0]
        guess, _ = choose_guess(
            sample.codes,
            self._neighbours(sample.codes) if options.play == "all" else None,
            heuristic,
            self.space.colors,
            self._rng,
            options.lookahead_width,
            self.curve,
            scale,
        )
        return guess.copy()

    def _neighbours(self, members: Codes) -> Codes:
        """Up to ``pool_limit`` distinct codes one peg away from members, outside them."""
        limit = self.params.pool_limit
        rows = self._rng.integers(0, members.shape[0], size=limit)
        pegs = self._rng.integers(0, self.space.pegs, size=limit)
        # A different colour: shift by 1 .. colors - 1 (modulo the colours).
        shift = self._rng.integers(1, self.space.colors, size=limit).astype(np.uint8)
        codes = members[rows].copy()
        at = np.arange(limit)
        codes[at, pegs] = (codes[at, pegs] + shift) % self.space.colors
        codes = distinct_rows(codes)
        return codes[outside(codes, members)]

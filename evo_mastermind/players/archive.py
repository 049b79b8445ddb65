"""The ``archive`` player: the archive-based EA Runarsson & Merelo (2009) leave as future work.

Each move a genetic population searches toward consistency (fitness ``f``); every consistent
code it finds enters an archive of at most μ distinct codes. The search stops when the
archive is full, or once it has a member and ``max_generations_without_new`` generations
have added none; an archive left short is then completed by a local scan around its members
(their Hamming neighbourhood and the rearrangements of their colours,
:mod:`evo_mastermind.evolution.neighbourhood`). A heuristic computed over the archive picks
the guess, from the archive (consistent play) or from every code evaluated during the move
(all-codes play; archive members win ties). After the response the archive keeps only the
members still consistent, and they seed the next move's population. The code space is never
listed, so the player runs on games whose space could not be.

Two options bring in the exact uniform sampler of the consistent codes
(:func:`evo_mastermind.sampling.sample_consistent`, drawn with the game's generator), which
the search's archive only approximates (a biased sample early in a game, an incomplete one
late): ``uniform_seeds`` puts that many uniform consistent codes into the archive and the
search's first population before each move's search, and ``uniform_complete`` tops up an
archive the search and scans left short of μ with uniform consistent codes (the whole
consistent set when it has fewer than μ codes). Both are off by default; the scaling studies
``scaling/uniform_*`` measure them (docs/studies/uniform-sampling.md).

Variants measured as no gain on (8,12) and removed (restarts away from the archive, members
ranked behind new codes, uniform draws): see the docs' study notes, "Larger games".

Best settings found per game size (options not listed keep their defaults; the shipped
studies ``evolution/archive_4x6`` and ``scaling/*`` play them)::

    (4,6)   heuristic: lookahead, mu: 300, max_generations_without_new: 20,
            population_size: 100; play: consistent, or all
    (5,8)   heuristic: lookahead, heuristic_when_full: entropy, mu: 1000, play: all
    (6,9)   as (5,8), first_guess: AABBCD
    (7,10)  as (5,8) with play: consistent, first_guess: AABBCCD
    (8,12)  heuristic: lookahead, heuristic_when_full: entropy, mu: 2000,
            population_size: 300, max_generations_without_new: 60, first_guess: AABBCCDE,
            max_evaluations_per_guess: 2000000

The first guesses are the colour patterns whose partition of the whole space has the highest
entropy (computed once, offline, by enumeration or sampling; the player only reads them).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import ClassVar, Literal

import numpy as np
from pydantic import Field, PositiveInt, field_validator, model_validator

from evo_mastermind.codes import Code, Codes, CodeSpace
from evo_mastermind.evolution.archive import Archive, outside
from evo_mastermind.evolution.choice import (
    LOOKAHEAD,
    HeuristicName,
    RemainingGuesses,
    choose_guess,
)
from evo_mastermind.evolution.neighbourhood import distinct_rows, scan_around
from evo_mastermind.evolution.search import PopulationSearch, SearchSettings
from evo_mastermind.evolution.vectorised import VectorisedSearch
from evo_mastermind.game import PlayerStats
from evo_mastermind.players.base import (
    PlayerParams,
    Preset,
    heuristic_option,
    option_error,
    register_player,
)
from evo_mastermind.players.cost import Cost, choice_cost
from evo_mastermind.players.endgame import EndGame, EndgameParams
from evo_mastermind.players.evolutionary import BestSoFar, GAParams, _SearchPlayer
from evo_mastermind.players.sampler import draw_consistent
from evo_mastermind.sampling import ConsistentSample, Constraints
from evo_mastermind.scoring import Response

Play = Literal["consistent", "all"]
SearchEngine = Literal["deap", "vectorised"]


class ArchiveParams(GAParams, EndgameParams):
    """Options of the archive player (μ, heuristic and play default to Runarsson & Merelo's)."""

    population_size: PositiveInt = 200
    """Parents kept each generation."""
    mu: PositiveInt = 30
    """The archive's capacity μ (Runarsson & Merelo 2009, section 5: 20-30 suffices on (4,6))."""
    heuristic: HeuristicName = "entropy"
    """Score computed over the archive: a registered partition heuristic (``entropy``,
    ``most_parts``, ``expected_size``, ``worst_case``, or one of your own), or ``lookahead``
    (expected guesses, two moves ahead; see :mod:`evo_mastermind.evolution.choice`)."""
    heuristic_when_full: HeuristicName | None = None
    """The score used instead when the archive is full, i.e. only a sample of the consistent
    codes (unset: ``heuristic``). Partition scores do not depend on the sample's scale;
    ``lookahead`` needs the true part sizes."""
    play: Play = "consistent"
    """``consistent`` plays an archive member; ``all`` may play any code evaluated during
    the move (archive members win ties)."""
    max_generations_without_new: PositiveInt = 40
    """With at least one member, stop the genetic search after this many generations that
    added no member."""
    removed_options = MappingProxyType(
        {
            name: f"measured as no gain on (8,12) ({where}); the finding is in the docs' study "
            "notes, docs/studies/larger-games.md"
            for name, where in {
                "avoid_archive": "8.386 against 8.334, commit 4b749c6",
                "restart_without_new": "8.316 against 8.334, paired -0.018 (se 0.035), "
                "commit 3873e2c",
                "members_per_restart": "8.365 over 1,000 secrets, paired +0.016 (se 0.037), "
                "commit 936e6cc",
                "uniform_draws": "8.410, paired +0.076 (se 0.053), commit 936e6cc",
            }.items()
        }
    )

    search: SearchEngine = "vectorised"
    """``vectorised`` runs the genetic search on numpy arrays (fast); ``deap`` runs the same
    algorithm on DEAP individuals (the readable reference)."""
    neighbourhood_radius: int = Field(default=1, ge=0, le=3)
    """When the search stops short of μ members, scan every code within this Hamming
    distance of each member (0: no scan); a round narrows the radius until every ball it
    scans fits the remaining budget (down to 1)."""
    rearrange: bool = True
    """When the search stops short of μ members, scan every rearrangement of each member's
    colours (random ones beyond 8 pegs)."""
    neighbourhood_budget: PositiveInt = 200_000
    """The most evaluations those scans may spend in one move."""
    pool_limit: PositiveInt = 2000
    """With ``play: all``, score at most this many of the move's evaluated codes (a random
    subset) besides the archive."""
    lookahead_width: PositiveInt = 20
    """With ``lookahead``, how many guesses get the second ply."""
    remaining_a: float = RemainingGuesses.a
    """With ``lookahead``, ``a`` of the one-ply estimate ``a + b ln m`` of the guesses a part
    of ``m`` candidates still needs."""
    remaining_b: float = RemainingGuesses.b
    """With ``lookahead``, ``b`` of that estimate (two scalars, not a pair: a list value in a
    config is a sweep)."""
    max_evaluations_per_guess: PositiveInt = 1_000_000
    """The genetic search's cap per move (the scans have their own budget). A search that
    reaches it with an empty archive first counts the consistent codes exactly (games up to
    (12,12)) and stops the game as inconsistent if there are none."""
    uniform_seeds: int = Field(default=0, ge=0)
    """At each move after the first, draw this many distinct codes uniformly from the codes
    consistent with the history (exactly, with the game's generator; every one when fewer
    are consistent) and put them into the archive, beside the members kept from the last
    move (as many as it has room for), before the search runs: the archive's members
    start the search's population. 0: none; at most ``mu``. The archive then holds an
    unbiased share beside what the search finds."""
    uniform_complete: bool = False
    """After the move's search and scans, top up an archive left short of μ with distinct
    codes drawn uniformly from the consistent codes not yet in it (the whole consistent set
    when it has fewer than μ codes), so that the heuristic scores a full archive or every
    consistent code. A search that spent its budget with no member is then completed the
    same way instead of playing a capped guess."""

    @field_validator("heuristic", "heuristic_when_full")
    @classmethod
    def _known(cls, name: str | None) -> str | None:
        return heuristic_option(name)

    @model_validator(mode="after")
    def _seeds_fit_the_archive(self) -> ArchiveParams:
        if self.uniform_seeds > self.mu:
            raise option_error(
                ValueError(
                    f"uniform_seeds ({self.uniform_seeds}) is more than the archive holds "
                    f"(mu: {self.mu})"
                )
            )
        return self


_LARGE = {"heuristic": "lookahead", "heuristic_when_full": "entropy", "mu": 1000}

BEST_SETTINGS = MappingProxyType(
    {
        "best_4x6": Preset(
            {
                "heuristic": "lookahead",
                "mu": 300,
                "max_generations_without_new": 20,
                "population_size": 100,
            },
            "'Archive best' on (4,6), as the study evolution/archive_4x6 plays it",
        ),
        "best_5x8": Preset(_LARGE, "'Archive best' on (5,8) (the study scaling/5x8)"),
        "best_6x9": Preset({**_LARGE, "first_guess": "AABBCD"}, "'Archive best' on (6,9)"),
        "best_7x10": Preset({**_LARGE, "first_guess": "AABBCCD"}, "'Archive best' on (7,10)"),
        "best_8x12": Preset(
            {
                "heuristic": "lookahead",
                "heuristic_when_full": "entropy",
                "mu": 2000,
                "population_size": 300,
                "max_generations_without_new": 60,
                "max_evaluations_per_guess": 2_000_000,
                "first_guess": "AABBCCDE",
            },
            "'Archive best' on (8,12) (the study scaling/8x12)",
        ),
    }
)
"""The archive's best settings per game size, as the scaling studies play them (``play``
is left to the config: both ``consistent`` and ``all`` are compared)."""


@register_player("archive")
class ArchivePlayer(_SearchPlayer[ArchiveParams]):
    """Evolves an archive of up to μ consistent codes and plays a heuristic's pick from it."""

    Params = ArchiveParams
    presets = BEST_SETTINGS

    def __init__(self, space: CodeSpace, params: ArchiveParams | None = None) -> None:
        super().__init__(space, params)
        self.archive = Archive(space.pegs, self.params.mu)
        self.curve = RemainingGuesses(self.params.remaining_a, self.params.remaining_b)
        self._seen: list[Codes] = []
        self._whole = False
        """Whether the archive is known to hold every consistent code (a uniform draw
        returned the whole set; filtering by a response keeps that true)."""
        self._uniform_trials = 0
        self.endgame = EndGame(space, self.params)

    # Fitted to 'Archive best' (μ = 1,000, lookahead) on this machine
    # (benchmarks/results/evolution.json): 70,126 evaluations a game on (5,8), 122,245 on
    # (6,9), 801,783 on (8,12), about 3 µs each with the numpy search; μ = 30 spends about
    # sqrt(30 / 1,000) as many (6 against 21 thousand measured on (6,9)).
    evaluations_scale: ClassVar[float] = 4670.0
    evaluations_exponent: ClassVar[float] = 0.26
    evaluation_seconds: ClassVar[float] = 3e-6
    DEAP_EVALUATION_SECONDS: ClassVar[float] = 1.3e-5
    """Seconds an evaluation costs with ``search: deap`` (DEAP individuals, as the GA's)."""

    @classmethod
    def estimate(cls, params: PlayerParams, space: CodeSpace) -> Cost:
        """The search's evaluations and the choice over the archive, in time and memory.

        The choice scores the archive (and, with ``play: all``, the pool) against its
        members at every move, with ``lookahead`` a ply further for ``lookahead_width``
        guesses; its responses are the memory that grows with μ.
        """
        assert isinstance(params, ArchiveParams)
        guesses = params.mu + (params.pool_limit if params.play == "all" else 0)
        lookahead = LOOKAHEAD in (params.heuristic, params.heuristic_when_full)
        width = params.lookahead_width if lookahead else 0
        choice = choice_cost(guesses, params.mu, space.pegs, width)
        each = (
            cls.evaluation_seconds if params.search == "vectorised" else cls.DEAP_EVALUATION_SECONDS
        )
        search = cls.evaluations(params, space) * each
        memory = super().estimate(params, space).memory + choice.memory
        return Cost(seconds=search + (choice.seconds or 0.0), memory=memory)

    @classmethod
    def evaluations(cls, params: PlayerParams, space: CodeSpace) -> float:
        """As the other evolutionary players', scaled by ``sqrt(mu / 1000)``; capped per move.

        A move spends at most its cap and the scans' budget.
        """
        assert isinstance(params, ArchiveParams)
        typical = cls.evaluations_scale * float(space.size) ** cls.evaluations_exponent
        typical *= (params.mu / 1000) ** 0.5
        per_move = params.max_evaluations_per_guess + params.neighbourhood_budget
        return min(typical, (space.pegs + 1) * per_move)

    @classmethod
    def items_held(cls, params: PlayerParams) -> int:
        """The population, the archive (μ) or the pool of all-codes play, whichever is largest."""
        assert isinstance(params, ArchiveParams)
        return max(super().items_held(params), params.mu, params.pool_limit, params.lookahead_width)

    def make_search(self, settings: SearchSettings) -> PopulationSearch:
        """The numpy search unless ``search: deap`` asks for the DEAP reference."""
        if self.params.search == "vectorised":
            return VectorisedSearch(self.space, settings, self.evaluator)
        return super().make_search(settings)

    def reset_game(self) -> None:
        """Empty the archive and the population."""
        super().reset_game()
        self.archive.clear()
        self._whole = False
        self._uniform_trials = 0
        self.endgame.start()

    def stats(self) -> PlayerStats:
        """Evaluations, distinct codes evaluated and capped guesses in this game.

        ``evaluations`` also counts the codes the uniform sampler drew from the whole space
        and tested (``uniform_seeds``, ``uniform_complete``).
        """
        counted = super().stats()
        if not self._uniform_trials:
            return counted
        return PlayerStats(
            evaluations=(counted.evaluations or 0) + self._uniform_trials,
            distinct_codes=counted.distinct_codes,
            capped_guesses=counted.capped_guesses,
        )

    def consistent_held(self) -> int | None:
        """The archive's members when the guess was chosen."""
        return len(self.archive)

    def after_response(self, guess: Code, response: Response) -> None:
        """Keep only the members still consistent."""
        self.archive.keep_consistent(guess, response.pack(self.space.pegs), self.space.colors)

    def next_guess(self) -> Code:
        """Fill the archive (uniform seeds, search, scans, uniform completion), then choose.

        Raises:
            InconsistentResponsesError: no code agrees with every response (found exactly
                by a uniform draw, or counted after a search that found no member).
        """
        exact = self.endgame.guess(self.history)
        if exact is not None:
            return exact
        self._seen = []
        options = self.params
        if options.uniform_seeds and not self._whole:
            self._draw_uniform(options.uniform_seeds)
        best = self._search()
        if len(self.archive) == 0 and not options.uniform_complete:
            return self.capped(best)
        if len(self.archive):
            self._scan()
        if options.uniform_complete and not self.archive.full and not self._whole:
            self._draw_uniform(options.mu)
        members = self.archive.codes
        heuristic = options.heuristic
        if self.archive.full and options.heuristic_when_full is not None:
            heuristic = options.heuristic_when_full
        guess, _ = choose_guess(
            members,
            self._pool(members) if options.play == "all" else None,
            heuristic,
            self.space.colors,
            self._rng,
            options.lookahead_width,
            self.curve,
        )
        return guess.copy()

    def _draw_uniform(self, n: int) -> None:
        """Offer ``n`` distinct uniform consistent codes to the archive, until it is full.

        Drawing ``n <= mu`` codes in a uniformly random order and offering them in that order
        adds, to an archive of ``m`` members, a uniform choice of ``min(n, mu - m)`` of the
        consistent codes outside it: at most ``m`` drawn codes are already members.

        Raises:
            InconsistentResponsesError: no code agrees with every response.
        """
        sample = self._sample_consistent(n)
        self.archive.offer(sample.codes)
        # Members are consistent codes, so as many members as the whole set are the set.
        self._whole = sample.complete and len(self.archive) == sample.codes.shape[0]

    def _sample_consistent(self, n: int) -> ConsistentSample:
        sample = draw_consistent(Constraints.of(self.space, self.history), n, self._rng)
        self._uniform_trials += sample.trials
        return sample

    def _search(self) -> BestSoFar:
        """Run the genetic search until the archive is full or stops growing."""
        options = self.params
        best = BestSoFar(self.history.guesses)
        without_new = 0
        for batch in self.watched(self.search.generations(self._rng, self.archive.codes)):
            added = self.archive.offer(batch.codes[batch.distance == 0])
            self._remember(batch.codes)
            if len(self.archive) == 0:
                best.update(batch.codes, batch.distance)
            without_new = 0 if added else without_new + 1
            if self.archive.full or self.over_cap():
                break
            if len(self.archive) and without_new >= options.max_generations_without_new:
                break
        return best

    def _scan(self) -> None:
        """Complete an archive left short of μ members by scanning around its members."""
        options = self.params
        if self.archive.full or not (options.neighbourhood_radius or options.rearrange):
            return
        for scanned in scan_around(
            self.archive,
            self.evaluator,
            self._rng,
            options.neighbourhood_budget,
            options.neighbourhood_radius,
            options.rearrange,
        ):
            self._remember(scanned)

    def _remember(self, codes: Codes) -> None:
        if self.params.play == "all":
            self._seen.append(codes)

    def _pool(self, members: Codes) -> Codes | None:
        """Codes evaluated this move, outside the archive: at most ``pool_limit``, at random."""
        if not self._seen:
            return None
        seen = np.concatenate(self._seen)
        limit = self.params.pool_limit
        if seen.shape[0] > 2 * limit:
            # Draw from the evaluations, then drop repeats: a random subset of the seen codes.
            seen = seen[np.sort(self._rng.choice(seen.shape[0], 2 * limit, replace=False))]
        pool = distinct_rows(seen)
        pool = pool[outside(pool, members)]
        if pool.shape[0] > limit:
            pool = pool[np.sort(self._rng.choice(pool.shape[0], limit, replace=False))]
        return pool

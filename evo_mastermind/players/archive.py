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

A full archive is a sample of the consistent codes, and the search's sample is clustered:
one population's finds lie near its first ones. Two options spread it:
``members_per_restart`` restarts the population from random codes after each share of
members, and ``uniform_draws`` fills the archive from uniform random codes while consistent
ones are common enough (early in a game).

Best settings found per game size (options not listed keep their defaults; the studies
``configs/evolution/archive_4x6.yaml`` and ``configs/scaling/*.yaml`` play them)::

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
from typing import Literal

import numpy as np
from pydantic import Field, NonNegativeInt, PositiveInt

from evo_mastermind.codes import Code, Codes, CodeSpace
from evo_mastermind.evolution.archive import Archive, outside
from evo_mastermind.evolution.choice import Heuristic, RemainingGuesses, choose_guess
from evo_mastermind.evolution.neighbourhood import distinct_rows, scan_around
from evo_mastermind.evolution.search import PopulationSearch, SearchSettings
from evo_mastermind.evolution.vectorised import VectorisedSearch
from evo_mastermind.players.base import PlayerParams, Preset, register_player
from evo_mastermind.players.evolutionary import GAParams, _BestSoFar, _SearchPlayer
from evo_mastermind.scoring import Response

Play = Literal["consistent", "all"]
SearchEngine = Literal["deap", "vectorised"]

UNIFORM_PROBE = 10_000
"""The first uniform random draws of a move (see ``uniform_draws``): enough to estimate the
consistent fraction, few enough to waste little late in a game, when it is tiny."""
UNIFORM_BATCH = 100_000
"""Uniform random codes drawn and evaluated at once after the probe."""


class ArchiveParams(GAParams):
    """Options of the archive player (μ, heuristic and play default to Runarsson & Merelo's)."""

    population_size: PositiveInt = 200
    """Parents kept each generation."""
    mu: PositiveInt = 30
    """The archive's capacity μ (Runarsson & Merelo 2009, section 5: 20-30 suffices on (4,6))."""
    heuristic: Heuristic = "entropy"
    """Score computed over the archive: the partition scores ``entropy``, ``most_parts``,
    ``expected_size``, ``worst_case``, or ``lookahead`` (expected guesses, two moves ahead;
    see :mod:`evo_mastermind.evolution.choice`)."""
    heuristic_when_full: Heuristic | None = None
    """The score used instead when the archive is full, i.e. only a sample of the consistent
    codes (unset: ``heuristic``). Partition scores do not depend on the sample's scale;
    ``lookahead`` needs the true part sizes."""
    play: Play = "consistent"
    """``consistent`` plays an archive member; ``all`` may play any code evaluated during
    the move (archive members win ties)."""
    max_generations_without_new: PositiveInt = 40
    """With at least one member, stop the genetic search after this many generations that
    added no member."""
    avoid_archive: bool = False
    """Members rank behind every other code when the genetic search picks its survivors, so
    the population leaves the codes already found and looks for new ones (otherwise it fills
    with members and drifts among them)."""
    restart_without_new: PositiveInt | None = None
    """With at least one member, restart the genetic population from random codes every this
    many generations that added no member (unset: never). Seeded by the archive, the search
    stays near its members, while the consistent codes it misses late in a game can lie far
    from them."""
    members_per_restart: PositiveInt | None = None
    """Restart the genetic population from random codes each time it has added this many
    members (unset: never). One population's finds cluster around its first ones (on
    (8,12) members of the same archive are closer to each other than consistent codes
    are), so capping each population's share spreads the archive over the consistent
    codes."""
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
    """The genetic search's cap per move, uniform draws included (the scans have their own
    budget)."""
    uniform_draws: NonNegativeInt = 0
    """Before the genetic search, draw up to this many uniformly random codes each move; the
    consistent ones join the archive, an unbiased sample of the consistent codes (the
    genetic search's sample clusters around the codes it starts from). Drawing stops when
    the archive is full or when the consistent fraction so far says the rest of this budget
    cannot fill it (0: never draw)."""


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
            "'Archive best' on (4,6), as configs/evolution/archive_4x6.yaml plays it",
        ),
        "best_5x8": Preset(_LARGE, "'Archive best' on (5,8) (configs/scaling/5x8.yaml)"),
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
            "'Archive best' on (8,12) (configs/scaling/8x12.yaml)",
        ),
    }
)
"""The archive's best settings per game size, as the scaling studies play them (``play``
is left to the config: both ``consistent`` and ``all`` are compared)."""


@register_player("archive")
class ArchivePlayer(_SearchPlayer):
    """Evolves an archive of up to μ consistent codes and plays a heuristic's pick from it."""

    Params = ArchiveParams
    presets = BEST_SETTINGS

    def __init__(self, space: CodeSpace, params: PlayerParams | None = None) -> None:
        super().__init__(space, params)
        assert isinstance(self.params, ArchiveParams)
        self.archive_options: ArchiveParams = self.params
        self.archive = Archive(space.pegs, self.archive_options.mu)
        self.curve = RemainingGuesses(
            self.archive_options.remaining_a, self.archive_options.remaining_b
        )
        self._seen: list[Codes] = []

    def make_search(self, settings: SearchSettings) -> PopulationSearch:
        """The numpy search unless ``search: deap`` asks for the DEAP reference."""
        assert isinstance(self.params, ArchiveParams)
        if self.params.search == "vectorised":
            return VectorisedSearch(self.space, settings, self.evaluator)
        return super().make_search(settings)

    def reset_game(self) -> None:
        """Empty the archive and the population."""
        super().reset_game()
        self.archive.clear()

    def after_response(self, guess: Code, response: Response) -> None:
        """Keep only the members still consistent."""
        self.archive.keep_consistent(guess, response.pack(self.space.pegs), self.space.colors)

    def next_guess(self) -> Code:
        """Fill the archive (uniform draws, search, scans), then let the heuristic choose."""
        self._seen = []
        self._draw_uniformly()
        best = self._search()
        if len(self.archive) == 0:
            return self.capped(best)
        self._scan()
        options = self.archive_options
        members, sample = self.scored_members()
        heuristic = options.heuristic
        if sample and options.heuristic_when_full is not None:
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

    def scored_members(self) -> tuple[Codes, bool]:
        """The consistent codes the heuristic scores, and whether they are only a sample.

        The archive's members, a sample when it is full. Studies override it to score
        another set (``benchmarks/studies/completeness.py``: the exact consistent set).
        """
        return self.archive.codes, self.archive.full

    def _search(self) -> _BestSoFar:
        """Run the genetic search until the archive is full or stops growing."""
        options = self.archive_options
        best = _BestSoFar(self.history.guesses)
        without_new = since_restart = 0
        found = self.archive.contains if options.avoid_archive else None
        generations = self.search.generations(self._rng, self.archive.codes, found)
        while True:
            batch = next(generations)
            added = self.archive.offer(batch.codes[batch.distance == 0])
            self._remember(batch.codes)
            if len(self.archive) == 0:
                best.update(batch.codes, batch.distance)
            without_new = 0 if added else without_new + 1
            since_restart += added
            if self.archive.full or self.over_cap():
                return best
            if len(self.archive) and without_new >= options.max_generations_without_new:
                return best
            explore, share = options.restart_without_new, options.members_per_restart
            barren = len(self.archive) and explore and without_new and not without_new % explore
            if barren or (share and since_restart >= share):
                # Seeded by the archive the population stays near its members; look elsewhere.
                self.search.reset()
                generations = self.search.generations(self._rng, found=found)
                since_restart = 0

    def _draw_uniformly(self) -> None:
        """Offer the consistent codes among uniform random draws while they can fill the archive."""
        budget = self.archive_options.uniform_draws
        spent = consistent = 0
        while not self.archive.full and spent < budget:
            size = UNIFORM_BATCH if spent else UNIFORM_PROBE
            batch = self.space.sample(self._rng, min(size, budget - spent))
            hits = batch[self.evaluator.evaluate(batch).consistent]
            spent += batch.shape[0]
            consistent += hits.shape[0]
            self.archive.offer(hits)
            self._remember(batch)
            missing = self.archive.capacity - len(self.archive)
            # Only a full archive is unbiased; a partial one costs draws and gains little.
            if consistent * (budget - spent) < missing * spent:
                return

    def _scan(self) -> None:
        """Complete an archive left short of μ members by scanning around its members."""
        options = self.archive_options
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
        if self.archive_options.play == "all":
            self._seen.append(codes)

    def _pool(self, members: Codes) -> Codes | None:
        """Codes evaluated this move, outside the archive: at most ``pool_limit``, at random."""
        if not self._seen:
            return None
        seen = np.concatenate(self._seen)
        limit = self.archive_options.pool_limit
        if seen.shape[0] > 2 * limit:
            # Draw from the evaluations, then drop repeats: a random subset of the seen codes.
            seen = seen[np.sort(self._rng.choice(seen.shape[0], 2 * limit, replace=False))]
        pool = distinct_rows(seen)
        pool = pool[outside(pool, members)]
        if pool.shape[0] > limit:
            pool = pool[np.sort(self._rng.choice(pool.shape[0], limit, replace=False))]
        return pool

"""The evolutionary players ``eda`` and ``ga`` on DEAP, and what they share with ``archive``.

Runarsson & Merelo 2009, sections 4-6 (the ``archive`` player itself is in :mod:`.archive`). Every
player counts its fitness evaluations and the distinct codes it evaluated, and has a stall guard:
its population restarts after a bounded number of stagnant generations, and after
``max_evaluations_per_guess`` evaluations without a consistent code it plays the code nearest to
consistency found so far (recorded as a capped guess). None of them lists the code space, so they
play any game size.

A search that ends its budget empty-handed may mean that no code is consistent (a codemaker who
lied about positions: the game's colour check catches lies about colours). Before a capped
guess the player then counts the consistent codes exactly
(:func:`evo_mastermind.sampling.count_consistent`, by halves of the code) and, if there are
none, raises :class:`~evo_mastermind.game.InconsistentResponsesError` at once instead of
playing capped guesses to the guess limit. The count only decides "none exist": the code
played is never changed, so games against a truthful codemaker are identical with or without
it. It is exact where the halves of a code can be listed (``colors ** ceil(pegs / 2)`` at
most :data:`~evo_mastermind.sampling.HALF_LIMIT`, 2^22: up to (12,12), (10,20), (14,8));
it takes about 50 ms at (8,12), 20-150 ms at (10,10) and 1-13 s at (12,12). On larger games
the capped guesses go on as before, bounded by the guess limit.

Randomness: each player owns a :class:`random.Random` that the DEAP operators of its
toolbox draw from (:mod:`evo_mastermind.evolution.operators`: equivalents of DEAP's helpers,
which draw from the global :mod:`random`). :meth:`EvolutionaryPlayer.start` reseeds it from
the game's generator, so a game depends only on its seed; no player reads or writes the
global ``random``, which other threads of a process (a Dask worker's) draw from too.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Iterator
from types import MappingProxyType
from typing import Any, ClassVar, Generic

import numpy as np
from pydantic import Field, PositiveInt
from typing_extensions import TypeVar

from evo_mastermind.codes import Code, Codes, CodeSpace
from evo_mastermind.evolution.archive import outside
from evo_mastermind.evolution.eda import EDASearch, UnivariateEDA
from evo_mastermind.evolution.fitness import CountingEvaluator, Distances, History
from evo_mastermind.evolution.individuals import FitnessKind
from evo_mastermind.evolution.logbook import Logbook
from evo_mastermind.evolution.search import (
    Batch,
    ConsistencySearch,
    PopulationSearch,
    SearchSettings,
)
from evo_mastermind.game import InconsistentResponsesError, PlayerStats
from evo_mastermind.players.base import Player, PlayerParams, Preset, register_player
from evo_mastermind.players.cost import Cost, items_memory
from evo_mastermind.players.first_guess import opening_code
from evo_mastermind.sampling import (
    Constraints,
    can_split,
    count_consistent,
    halves_memory,
    space_splits,
)
from evo_mastermind.scoring import Response


class EvolutionaryParams(PlayerParams):
    """Options shared by every evolutionary player."""

    population_size: PositiveInt = 100
    """Individuals per generation."""
    first_guess: str | None = None
    """The opening code, e.g. ``AABB``; unset for the player's default pattern."""
    max_stagnant_generations: PositiveInt = 30
    """Restart the population after this many generations in which the smallest distance to
    consistency did not improve."""
    max_evaluations_per_guess: PositiveInt = 200_000
    """The hard cap: after this many evaluations in one move without a consistent code, the
    code nearest to consistency found is played and the game records a capped guess. First
    the consistent codes are counted exactly (games up to (12,12); see the module's notes):
    if there are none, the answers contradict each other and the player says so at once."""


class BestSoFar:
    """The code nearest to consistency seen in a move, excluding codes already played.

    Give :meth:`update` every evaluated batch; :meth:`EvolutionaryPlayer.capped` plays its
    code when the move's evaluations run out.

    Args:
        played: the codes already played (``player.history.guesses``).
    """

    def __init__(self, played: Codes) -> None:
        self.played = played
        self.code: Code | None = None
        self.distance = np.inf

    def update(self, codes: Codes, distance: Distances) -> None:
        """Keep the nearest of ``codes`` (distances ``distance``) if nearer than the best."""
        if codes.shape[0] == 0:
            return
        allowed = outside(codes, self.played)
        if not allowed.any():
            return
        candidates = np.flatnonzero(allowed)
        best = candidates[np.argmin(distance[candidates])]
        if distance[best] < self.distance:
            self.code, self.distance = codes[best].copy(), float(distance[best])


EvolutionaryT = TypeVar("EvolutionaryT", bound=EvolutionaryParams, covariant=True)


class EvolutionaryPlayer(Player[EvolutionaryT], Generic[EvolutionaryT]):
    """What the evolutionary players share: first guess, history, counts, seeding, the cap."""

    Params: ClassVar[type[PlayerParams]] = EvolutionaryParams
    default_first_guess: ClassVar[str] = "aabc"
    """First-guess pattern (:meth:`CodeSpace.patterned_code`) when none is given."""

    def __init__(self, space: CodeSpace, params: EvolutionaryT | None = None) -> None:
        super().__init__(space, params)
        first = opening_code(space, self.params.first_guess, self.default_first_guess, self.name)
        assert first is not None  # the defaults are patterns: never the strategy's choice
        self.first_guess = first
        self.evaluator = CountingEvaluator(space.pegs, space.colors, self.needs_local_entropy())
        self.capped_guesses = 0
        self._rng = np.random.default_rng(0)
        self.random = random.Random(0)
        """The generator of the DEAP operators, reseeded at every game."""
        self._move_start_evaluations = 0
        self.search: PopulationSearch | None = None
        """The population search the player drives, if any (its restarts are logged)."""
        self.logbook = Logbook()
        """Per-move records of the search, kept only when a run enables it."""

    evaluations_scale: ClassVar[float] = 100.0
    """``c`` of the evaluations a game spends, about ``c * size ** k`` for a space of
    ``size`` codes (each player sets its own, fitted to its games on this machine)."""
    evaluations_exponent: ClassVar[float] = 0.3
    """``k`` of that model."""
    evaluation_seconds: ClassVar[float] = 1e-5
    """CPU seconds a fitness evaluation costs, its share of the search around it included."""

    @classmethod
    def estimate(cls, params: PlayerParams, space: CodeSpace) -> Cost:
        """Time of a game (its evaluations) and memory of the population at its largest.

        The evaluations of a game follow :meth:`evaluations`, at :attr:`evaluation_seconds`
        each; memory is the population's parents and offspring, and the tables of the exact
        count a capped move makes by halves where the halves can be listed.
        """
        seconds = cls.evaluations(params, space) * cls.evaluation_seconds
        memory = items_memory(cls.items_held(params), space.pegs)
        if space_splits(space):
            memory += halves_memory(space)
        return Cost(seconds=seconds, memory=memory)

    @classmethod
    def evaluations(cls, params: PlayerParams, space: CodeSpace) -> float:
        """Evaluations a game spends, roughly: ``c * size ** k``, at most the cap every move.

        A game is about ``pegs + 1`` moves; none spends more than ``max_evaluations_per_guess``.
        """
        typical = cls.evaluations_scale * float(space.size) ** cls.evaluations_exponent
        cap = getattr(params, "max_evaluations_per_guess", typical)
        return min(typical, (space.pegs + 1) * cap)

    @classmethod
    def items_held(cls, params: PlayerParams) -> int:
        """The most codes these options keep at once (population, offspring)."""
        sizes = (getattr(params, "population_size", 0), getattr(params, "offspring_size", 0))
        return max(size or 0 for size in sizes)

    def needs_local_entropy(self) -> bool:
        """Whether evaluations must compute the local entropy ``s``."""
        return False

    @property
    def rng(self) -> np.random.Generator:
        """The game's own numpy generator (set by :meth:`start`): draw every code from it."""
        return self._rng

    @property
    def history(self) -> History:
        """The guesses and responses of the current game."""
        return self.evaluator.history

    # -- the protocol --------------------------------------------------------------------
    def start(self, rng: np.random.Generator) -> None:
        """Begin a game: reset every per-game state and reseed :attr:`random` from ``rng``."""
        self._rng = rng
        self.random.seed(int(rng.integers(2**63)))
        self.evaluator.reset()
        self.capped_guesses = 0
        self.logbook.start_game()
        self.reset_game()

    def ask(self) -> Code:
        """The first guess, then whatever this move's evolution finds."""
        if len(self.history) == 0:
            if self.logbook.enabled:
                self.logbook.start_move()
                self.logbook.end_move(0, 0, None, capped=False)
            return self.first_guess.copy()
        self._move_start_evaluations = self.evaluator.evaluations
        if not self.logbook.enabled:
            return self.next_guess()
        return self._logged_guess()

    def _logged_guess(self) -> Code:
        """:meth:`next_guess`, recorded in the logbook (it draws nothing: same guess)."""
        evaluations = self.stats().evaluations or 0
        restarts = self.search.restarts if self.search is not None else 0
        capped = self.capped_guesses
        self.logbook.start_move()
        guess = self.next_guess()
        self.logbook.end_move(
            evaluations=(self.stats().evaluations or 0) - evaluations,
            restarts=(self.search.restarts if self.search is not None else 0) - restarts,
            consistent=self.consistent_held(),
            capped=self.capped_guesses > capped,
        )
        return guess

    def tell(self, guess: Code, response: Response) -> None:
        """Record the response; subclasses update their populations."""
        self.history.add(guess, response)
        self.after_response(np.asarray(guess, dtype=np.uint8), response)

    def stats(self) -> PlayerStats:
        """Evaluations, distinct codes evaluated and capped guesses in this game."""
        return PlayerStats(
            evaluations=self.evaluator.evaluations,
            distinct_codes=self.evaluator.distinct_codes,
            capped_guesses=self.capped_guesses,
        )

    # -- helpers for subclasses ----------------------------------------------------------
    def watched(self, batches: Iterator[Batch]) -> Iterator[Batch]:
        """``batches`` as they are, counted by the logbook when it is enabled.

        Wrap the search's generations in it (``for batch in self.watched(...)``) so the
        logbook sees every generation; with the logbook off it returns ``batches`` itself.
        """
        if not self.logbook.enabled:
            return batches
        return self.logbook.watch(batches)

    def consistent_held(self) -> int | None:
        """Consistent codes held when the guess was chosen (the logbook's ``consistent``).

        By default those of the last generation watched; a player keeping a set of its own
        (the archive) counts that instead.
        """
        return self.logbook.last_consistent

    def over_cap(self) -> bool:
        """Whether this move has used up its evaluations."""
        spent = self.evaluator.evaluations - self._move_start_evaluations
        return spent >= self.params.max_evaluations_per_guess

    def capped(self, best: BestSoFar) -> Code:
        """Play the code nearest to consistency after the cap, and count it.

        Raises:
            InconsistentResponsesError: no code agrees with every response (counted exactly
                where the game's halves can be listed).
        """
        self.check_some_code_consistent()
        self.capped_guesses += 1
        if best.code is None:  # every evaluated code was already played: play a fresh one
            return self.space.sample(self._rng, 1)[0]
        return best.code

    def check_some_code_consistent(self) -> None:
        """Count the codes consistent with the history exactly; raise if there are none.

        Only where :func:`~evo_mastermind.sampling.can_split` says the count is quick;
        elsewhere nothing is checked.

        Raises:
            InconsistentResponsesError: no code of the game agrees with every response.
        """
        constraints = Constraints.of(self.space, self.history)
        if not can_split(constraints) or count_consistent(constraints) > 0:
            return
        spent = self.evaluator.evaluations - self._move_start_evaluations
        raise InconsistentResponsesError.because(
            f"no code of {self.space} agrees with all {len(self.history)} responses (counted "
            f"exactly after {spent:,} evaluations found none consistent)"
        )

    @abstractmethod
    def reset_game(self) -> None:
        """Forget the previous game's populations."""

    @abstractmethod
    def next_guess(self) -> Code:
        """Evolve until a guess is found (the first guess is already played)."""

    @abstractmethod
    def after_response(self, guess: Code, response: Response) -> None:
        """Learn a response (the history already holds it)."""


class EDAParams(EvolutionaryParams):
    """Options of the EDA (defaults from Runarsson & Merelo 2009, section 4).

    Unless ``first_guess`` says otherwise it opens with ``AABB`` (pairs of colours on larger
    games), as in Runarsson & Merelo 2009.
    """

    population_size: PositiveInt = 200
    """Codes per generation (200 in Runarsson & Merelo 2009)."""
    replacement_rate: float = Field(default=0.5, gt=0.0, lt=1.0)
    """Share of the population replaced by new samples each generation (0.5 in the paper)."""
    fitness: FitnessKind = "f_local_entropy"
    """``f`` (distance to consistency) or ``f_local_entropy`` (``s / (1 + f)``)."""
    smoothing: float = Field(default=0.01, ge=0.0, lt=1.0)
    """Weight of the uniform distribution mixed into each peg's colour frequencies, so no
    colour is lost for good."""


@register_player("eda")
class EDAPlayer(EvolutionaryPlayer[EDAParams]):
    """Univariate EDA that plays as soon as its population holds a consistent code.

    With ``f_local_entropy`` it plays the consistent code of highest local entropy in that
    generation; with ``f`` a consistent code of the generation chosen at random.
    """

    # Fitted to EDA + f_l on this machine (benchmarks/results/evolution.json): 1,048
    # evaluations a game on (4,6), 3,937 on (5,8), 11,856 on (6,9), 78,012 on (8,12), at
    # 6.3-8.8 µs each (0.0066 s a game on (4,6), 0.69 s on (8,12)).
    evaluations_scale: ClassVar[float] = 92.0
    evaluations_exponent: ClassVar[float] = 0.34
    evaluation_seconds: ClassVar[float] = 8e-6

    presets = MappingProxyType(
        {
            "paper_f_local_entropy": Preset(
                {"fitness": "f_local_entropy", "first_guess": "AABB"},
                "Runarsson & Merelo-Guervós (2009), Table 3: EDA + f_l, first guess AABB",
            ),
            "paper_f": Preset(
                {"fitness": "f", "first_guess": "AABB"},
                "Runarsson & Merelo-Guervós (2009), Table 3: EDA + f, first guess AABB",
            ),
        }
    )

    Params = EDAParams
    default_first_guess = "aabb"
    search: EDASearch

    def __init__(self, space: CodeSpace, params: EDAParams | None = None) -> None:
        super().__init__(space, params)
        self.strategy = UnivariateEDA(
            space.pegs,
            space.colors,
            self.params.population_size,
            self.params.replacement_rate,
            self.params.smoothing,
            self.params.fitness,
            self.random,
        )
        settings = SearchSettings(
            population_size=self.params.population_size,
            max_stagnant_generations=self.params.max_stagnant_generations,
        )
        self.search = EDASearch(space, settings, self.evaluator, self.strategy)

    def needs_local_entropy(self) -> bool:
        """Only ``f_local_entropy`` needs ``s``."""
        return self.params.fitness == "f_local_entropy"

    def reset_game(self) -> None:
        """Start from the uniform distribution."""
        self.strategy.restart(self._rng)

    def after_response(self, guess: Code, response: Response) -> None:
        """The survivors' fitness is stale; they are re-evaluated at the next move."""
        self.strategy.invalidate()

    def next_guess(self) -> Code:
        """Generate, evaluate, update until a generation holds a consistent code."""
        best = BestSoFar(self.history.guesses)
        for batch in self.watched(self.search.generations(self._rng)):
            consistent = np.flatnonzero(batch.distance == 0)
            if consistent.size:
                return batch.codes[self._pick(consistent, batch.entropy)].copy()
            best.update(batch.codes, batch.distance)
            if self.over_cap():
                break
        return self.capped(best)

    def _pick(self, consistent: Any, entropy: Any) -> int:
        if entropy is not None:
            scores = entropy[consistent]
            consistent = consistent[scores >= scores.max() - 1e-12]
        return int(consistent[self._rng.integers(consistent.size)])


class GAParams(EvolutionaryParams):
    """Options of the genetic search (``ga`` and ``archive``).

    Its population is the parents kept each generation.
    """

    offspring_size: PositiveInt | None = None
    """Children per generation (unset: the population size)."""
    tournament_size: PositiveInt = 2
    """Contestants per parent tournament."""
    crossover_probability: float = Field(default=0.5, ge=0.0, le=1.0)
    """Chance that two parents are crossed (two-point crossover)."""
    mutation_probability: float = Field(default=0.8, ge=0.0, le=1.0)
    """Chance that a child is mutated."""
    swap_probability: float = Field(default=0.3, ge=0.0, le=1.0)
    """Share of mutations that swap two pegs; the rest recolour one peg."""

    def search_settings(self) -> SearchSettings:
        """These options as the search's settings."""
        return SearchSettings(
            population_size=self.population_size,
            offspring_size=self.offspring_size or self.population_size,
            tournament_size=self.tournament_size,
            crossover_probability=self.crossover_probability,
            mutation_probability=self.mutation_probability,
            swap_probability=self.swap_probability,
            max_stagnant_generations=self.max_stagnant_generations,
        )


SearchT = TypeVar("SearchT", bound=GAParams, covariant=True)


class _SearchPlayer(EvolutionaryPlayer[SearchT], Generic[SearchT]):
    """A player driving a :class:`PopulationSearch` (see :meth:`make_search`)."""

    Params: ClassVar[type[PlayerParams]] = GAParams

    search: PopulationSearch

    def __init__(self, space: CodeSpace, params: SearchT | None = None) -> None:
        super().__init__(space, params)
        self.search = self.make_search(self.params.search_settings())

    def make_search(self, settings: SearchSettings) -> PopulationSearch:
        """The search this player drives: the DEAP one (subclasses may choose another)."""
        return ConsistencySearch(self.space, settings, self.evaluator, self.random)

    def reset_game(self) -> None:
        """Forget the population."""
        self.search.reset()


@register_player("ga")
class GAPlayer(_SearchPlayer[GAParams]):
    """A DEAP genetic algorithm that plays the first consistent code it finds (fitness ``f``)."""

    # Fitted to the GA on this machine (benchmarks/results/evolution.json): 1,761
    # evaluations a game on (5,8), 3,679 on (6,9), 19,078 on (8,12), at 11-13 µs each (DEAP
    # individuals: 0.020 s a game on (5,8), 0.256 s on (8,12)).
    evaluations_scale: ClassVar[float] = 131.0
    evaluations_exponent: ClassVar[float] = 0.25
    evaluation_seconds: ClassVar[float] = 1.3e-5

    def after_response(self, guess: Code, response: Response) -> None:
        """Nothing to do: the population is re-evaluated at the next move."""

    def next_guess(self) -> Code:
        """Evolve until an evaluated code is consistent, and play the first such code."""
        best = BestSoFar(self.history.guesses)
        for batch in self.watched(self.search.generations(self._rng)):
            consistent = np.flatnonzero(batch.distance == 0)
            if consistent.size:
                return batch.codes[consistent[0]].copy()
            best.update(batch.codes, batch.distance)
            if self.over_cap():
                break
        return self.capped(best)

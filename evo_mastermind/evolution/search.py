"""The genetic search for consistent codes shared by the ``ga`` and ``archive`` players.

A (μ+λ) genetic algorithm on DEAP minimising the distance to consistency ``f``: tournament
selection, two-point crossover, mutation of one peg to another colour or a swap of two pegs
(:mod:`evo_mastermind.evolution.operators`), and survivors chosen among the distinct codes
of parents and offspring. The player owns the loop: :meth:`PopulationSearch.generations`
yields each evaluated batch, and the player stops iterating when it has what it needs. The
``ga``, ``archive`` and ``eda`` players drive every search this one way (the numpy engine,
:mod:`.vectorised`, and the EDA, :class:`evo_mastermind.evolution.eda.EDASearch`, present the
same protocol).
Every batch is evaluated through the game's :class:`CountingEvaluator`, so every
evaluation is counted. The DEAP search draws from its own :class:`random.Random`, which the
player reseeds from each game's generator; nothing reads or writes the global ``random``.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
from deap import base, tools

from evo_mastermind.codes import Codes, CodeSpace
from evo_mastermind.evolution.fitness import CountingEvaluator, Distances, Scores, code_keys
from evo_mastermind.evolution.individuals import (
    assign_fitness,
    clone,
    codes_of,
    individuals_from_codes,
)
from evo_mastermind.evolution.operators import crossover, mutate, select_tournament, vary_and


@dataclass(frozen=True)
class SearchSettings:
    """How the genetic search runs.

    Attributes:
        population_size: individuals kept each generation (μ of the (μ+λ) scheme).
        offspring_size: children made each generation (λ).
        tournament_size: contestants per tournament when choosing parents.
        crossover_probability: chance that a pair of parents is crossed.
        mutation_probability: chance that a child is mutated.
        swap_probability: share of mutations that swap two pegs (the rest recolour one).
        max_stagnant_generations: restart from a fresh random population after this many
            generations in which the best ``f`` did not improve while no consistent code was
            in the population.
    """

    population_size: int = 100
    offspring_size: int = 100
    tournament_size: int = 2
    crossover_probability: float = 0.5
    mutation_probability: float = 0.8
    swap_probability: float = 0.3
    max_stagnant_generations: int = 30


@dataclass(frozen=True)
class Batch:
    """Codes evaluated in one generation, with their distances to consistency.

    Attributes:
        codes: the codes, one per row.
        distance: ``f`` of each code.
        entropy: the local entropy ``s`` of each code, when the search's fitness needs it.
    """

    codes: Codes
    distance: Distances
    entropy: Scores | None = None


def make_toolbox(colors: int, settings: SearchSettings, rng: random.Random) -> base.Toolbox:
    """The DEAP toolbox of the search: clone, mate, mutate and select, drawing from ``rng``."""
    toolbox = base.Toolbox()
    toolbox.register("clone", clone)
    toolbox.register("mate", crossover, rng=rng)
    toolbox.register(
        "mutate", mutate, colors=colors, swap_probability=settings.swap_probability, rng=rng
    )
    toolbox.register("select", select_tournament, tournsize=settings.tournament_size, rng=rng)
    toolbox.register("survivors", tools.selBest)
    return toolbox


class PopulationSearch(ABC):
    """A population searching for codes consistent with a game's history.

    The population lives across the moves of a game: at each move the previous population is
    re-evaluated against the longer history, joined by any seed codes (an archive's members)
    and topped up with random codes.

    Args:
        space: the game size (never enumerated).
        settings: the search parameters.
        evaluator: the game's counting evaluator, which also holds the history.
    """

    def __init__(
        self, space: CodeSpace, settings: SearchSettings, evaluator: CountingEvaluator
    ) -> None:
        self.space = space
        self.settings = settings
        self.evaluator = evaluator
        self.restarts = 0
        self.reset()

    @abstractmethod
    def reset(self) -> None:
        """Forget the population and the restart count (a new game)."""

    @abstractmethod
    def generations(self, rng: np.random.Generator, seeds: Codes | None = None) -> Iterator[Batch]:
        """Evolve for as long as the caller keeps iterating; yield every evaluated batch.

        The first batch is the move's starting population: ``seeds`` first, then the previous
        population, then random codes up to the population size.
        """


class ConsistencySearch(PopulationSearch):
    """The search on DEAP individuals, with DEAP's operators and selections (the reference).

    Args:
        space: the game size (never enumerated).
        settings: the search parameters.
        evaluator: the game's counting evaluator, which also holds the history.
        random_source: the generator every operator draws from; the owner reseeds it at
            each game (unset: a private one seeded with 0).
    """

    def __init__(
        self,
        space: CodeSpace,
        settings: SearchSettings,
        evaluator: CountingEvaluator,
        random_source: random.Random | None = None,
    ) -> None:
        self.random = random.Random(0) if random_source is None else random_source
        self.toolbox = make_toolbox(space.colors, settings, self.random)
        self.population: list[Any] = []
        super().__init__(space, settings, evaluator)

    def reset(self) -> None:
        """Forget the population and the restart count (a new game)."""
        self.population = []
        self.restarts = 0

    def generations(self, rng: np.random.Generator, seeds: Codes | None = None) -> Iterator[Batch]:
        """Evolve for as long as the caller keeps iterating; yield every evaluated batch."""
        yield self._start_move(rng, seeds)
        settings = self.settings
        best = min(ind.fitness.values[0] for ind in self.population)
        stagnant = 0
        while True:
            parents = self.toolbox.select(self.population, settings.offspring_size)
            offspring = vary_and(
                parents,
                self.toolbox,
                settings.crossover_probability,
                settings.mutation_probability,
                self.random,
            )
            batch = self._evaluate(offspring)
            self.population = self._survivors(self.population + offspring)
            generation_best = float(batch.distance.min()) if batch.distance.size else best
            if generation_best < best:
                best, stagnant = generation_best, 0
            elif best > 0:
                stagnant += 1
            if stagnant >= settings.max_stagnant_generations:
                # Stuck in a local optimum with nothing consistent found: start afresh.
                self.restarts += 1
                self.population = []
                batch = self._fill(rng, [], np.zeros((0, self.space.pegs), np.uint8))
                best = float(batch.distance.min())
                stagnant = 0
            yield batch

    def _start_move(self, rng: np.random.Generator, seeds: Codes | None) -> Batch:
        carried = self.population
        for individual in carried:
            del individual.fitness.values  # the history changed: every fitness is stale
        seed_codes = np.zeros((0, self.space.pegs), np.uint8) if seeds is None else seeds
        return self._fill(rng, carried, seed_codes)

    def _fill(self, rng: np.random.Generator, carried: list[Any], seeds: Codes) -> Batch:
        """Seeds, then carried individuals, then random codes: distinct, evaluated, selected."""
        size = self.settings.population_size
        pool = individuals_from_codes("f", seeds) + carried
        missing = size - len(pool)
        if missing > 0:
            pool += individuals_from_codes("f", self.space.sample(rng, missing))
        pool = self._distinct(pool)
        batch = self._evaluate(pool)
        self.population = self._survivors(pool)
        return batch

    def _evaluate(self, individuals: list[Any]) -> Batch:
        """Evaluate the individuals whose fitness is not valid, in one vectorised call."""
        stale = [ind for ind in individuals if not ind.fitness.valid]
        if not stale:
            return Batch(np.zeros((0, self.space.pegs), np.uint8), np.zeros(0, np.int64))
        codes = codes_of(stale)
        distance = self.evaluator.evaluate(codes).distance
        assign_fitness(stale, distance.tolist())
        return Batch(codes, distance)

    def _survivors(self, individuals: list[Any]) -> list[Any]:
        """The best distinct codes, ties broken at random."""
        pool = self._distinct(individuals)
        self.random.shuffle(pool)  # selBest sorts stably: shuffle so ties fall at random
        size = min(len(pool), self.settings.population_size)
        return list(self.toolbox.survivors(pool, size))

    @staticmethod
    def _distinct(individuals: list[Any]) -> list[Any]:
        if not individuals:
            return []
        unique: dict[bytes, Any] = {}
        for key, individual in zip(code_keys(codes_of(individuals)), individuals, strict=True):
            unique.setdefault(key, individual)
        return list(unique.values())

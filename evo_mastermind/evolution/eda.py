"""A univariate estimation of distribution algorithm as a DEAP ``generate``/``update`` strategy.

Runarsson & Merelo 2009, section 4: a population of 200 and a replacement rate of 0.5.
:meth:`update` ranks the evaluated population, keeps the best half as survivors and re-estimates,
for each peg, the frequency of every colour among them; :meth:`generate` returns the survivors
followed by new codes drawn peg by peg from those frequencies. A little of the uniform distribution
is mixed in so that no colour's probability ever reaches zero. As in DEAP's own EDA examples the
strategy's methods are registered in a toolbox; :class:`EDASearch` runs them as a
:class:`~evo_mastermind.evolution.search.PopulationSearch`, yielding each generation's evaluated
codes, so the player drives it as the ``ga`` and ``archive`` players drive the genetic search and
stops as soon as a guess is found. The strategy draws from the game's generators only (never the
global ``random``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import numpy.typing as npt
from deap import base, tools

from evo_mastermind.codes import Codes, CodeSpace
from evo_mastermind.evolution.archive import outside
from evo_mastermind.evolution.fitness import CountingEvaluator
from evo_mastermind.evolution.individuals import (
    FitnessKind,
    assign_fitness,
    codes_of,
    individuals_from_codes,
)
from evo_mastermind.evolution.search import Batch, PopulationSearch, SearchSettings

Probabilities = npt.NDArray[np.float64]


class UnivariateEDA:
    """Per-peg categorical distributions over colours, re-estimated from the best codes.

    Args:
        pegs: code length.
        colors: number of colours.
        population_size: codes per generation.
        replacement_rate: share of the population replaced each generation.
        smoothing: weight of the uniform distribution mixed into each peg's frequencies.
        kind: the fitness the individuals carry.
        random_source: breaks ranking ties; the owner reseeds it at each game (unset: a
            private one seeded with 0).
    """

    def __init__(
        self,
        pegs: int,
        colors: int,
        population_size: int,
        replacement_rate: float,
        smoothing: float,
        kind: FitnessKind,
        random_source: random.Random | None = None,
    ) -> None:
        self.pegs = pegs
        self.colors = colors
        self.population_size = population_size
        self.survivor_count = max(1, round(population_size * (1.0 - replacement_rate)))
        self.smoothing = smoothing
        self.kind: FitnessKind = kind
        self.rng = np.random.default_rng(0)
        self.random = random.Random(0) if random_source is None else random_source
        self.survivors: list[Any] = []
        self.probabilities: Probabilities = self.uniform()

    def uniform(self) -> Probabilities:
        """Every colour equally likely at every peg, shape ``(pegs, colors)``."""
        return np.full((self.pegs, self.colors), 1.0 / self.colors)

    def restart(self, rng: np.random.Generator) -> None:
        """Start again from the uniform distribution with no survivors, drawing from ``rng``."""
        self.rng = rng
        self.survivors = []
        self.probabilities = self.uniform()

    def invalidate(self) -> None:
        """Mark the survivors' fitness stale (the history changed)."""
        for individual in self.survivors:
            del individual.fitness.values

    def generate(self) -> list[Any]:
        """The survivors, then new codes sampled from the distribution up to the population."""
        missing = self.population_size - len(self.survivors)
        return self.survivors + individuals_from_codes(self.kind, self.sample(missing))

    def sample(self, n: int) -> npt.NDArray[np.uint8]:
        """Draw ``n`` codes, each peg independently from its distribution."""
        cumulative = np.cumsum(self.probabilities, axis=1)
        cumulative[:, -1] = 1.0  # rounding must not leave a gap above the last colour
        draws = self.rng.random((n, self.pegs))
        colours = (draws[:, :, None] >= cumulative[None, :, :]).sum(axis=2)
        return np.minimum(colours, self.colors - 1).astype(np.uint8)

    def update(self, population: list[Any]) -> None:
        """Keep the best codes (ties at random) and re-estimate the distribution from them."""
        ranked = list(population)
        self.random.shuffle(ranked)  # selBest sorts stably: shuffle so ties fall at random
        self.survivors = tools.selBest(ranked, self.survivor_count)
        codes = codes_of(self.survivors)
        counts = np.zeros((self.pegs, self.colors))
        for peg in range(self.pegs):
            counts[peg] = np.bincount(codes[:, peg], minlength=self.colors)
        frequencies = counts / len(self.survivors)
        self.probabilities = (1.0 - self.smoothing) * frequencies + self.smoothing / self.colors


def make_toolbox(strategy: UnivariateEDA) -> base.Toolbox:
    """A toolbox with the strategy's ``generate`` and ``update``, as DEAP's EDA examples do."""
    toolbox = base.Toolbox()
    toolbox.register("generate", strategy.generate)
    toolbox.register("update", strategy.update)
    return toolbox


class EDASearch(PopulationSearch):
    """The EDA as a population search: each generation's newly evaluated codes, as a batch.

    The population lives across the moves of a game (the survivors are re-evaluated against the
    longer history). After ``max_stagnant_generations`` generations in which the nearest code
    not yet played did not get nearer, the distribution starts again from uniform.

    Args:
        space: the game size (never enumerated).
        settings: its ``max_stagnant_generations`` (the strategy holds the rest).
        evaluator: the game's counting evaluator, which also holds the history.
        strategy: the distribution and its survivors.
    """

    def __init__(
        self,
        space: CodeSpace,
        settings: SearchSettings,
        evaluator: CountingEvaluator,
        strategy: UnivariateEDA,
    ) -> None:
        self.strategy = strategy
        self.toolbox = make_toolbox(strategy)
        super().__init__(space, settings, evaluator)

    def reset(self) -> None:
        """Forget the survivors and the distribution (a new game)."""
        self.strategy.restart(self.strategy.rng)
        self.restarts = 0

    def generations(self, rng: np.random.Generator, seeds: Codes | None = None) -> Iterator[Batch]:
        """Generate, evaluate, update; yield each generation's evaluated codes (no seeds)."""
        played = self.evaluator.history.guesses
        nearest = smallest = np.inf  # nearest code not yet played this move, and its record
        stagnant = 0
        while True:
            population = self.toolbox.generate()
            stale = [individual for individual in population if not individual.fitness.valid]
            codes = codes_of(stale)
            evaluation = self.evaluator.evaluate(codes)
            if evaluation.entropy is not None:
                assign_fitness(stale, evaluation.local_entropy_fitness.tolist())
            else:
                assign_fitness(stale, evaluation.distance.tolist())
            self.toolbox.update(population)
            yield Batch(codes, evaluation.distance, evaluation.entropy)
            allowed = outside(codes, played) if codes.shape[0] else np.zeros(0, bool)
            if allowed.any():
                nearest = min(nearest, float(evaluation.distance[allowed].min()))
            if nearest < smallest:
                smallest, stagnant = nearest, 0
            else:
                stagnant += 1
            if stagnant >= self.settings.max_stagnant_generations:
                self.restarts += 1
                self.strategy.restart(rng)
                stagnant = 0

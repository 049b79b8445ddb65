"""A univariate estimation of distribution algorithm as a DEAP ``generate``/``update`` strategy.

Runarsson & Merelo 2009, section 4: a population of 200 and a replacement rate of 0.5.
:meth:`update` ranks the evaluated population, keeps the best half as survivors and re-estimates,
for each peg, the frequency of every colour among them; :meth:`generate` returns the survivors
followed by new codes drawn peg by peg from those frequencies. A little of the uniform distribution
is mixed in so that no colour's probability ever reaches zero. As in DEAP's own EDA examples the
strategy's methods are registered in a toolbox; the player runs the loop, so it can stop as soon as
a guess is found. The strategy draws from the game's generators only (never the global
``random``).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import numpy.typing as npt
from deap import base, tools

from evo_mastermind.evolution.individuals import FitnessKind, codes_of, individuals_from_codes

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

"""A (μ, λ) genetic algorithm for Mastermind on evo_mastermind's DEAP plumbing (mylab example).

Each generation λ children are bred from tournament winners of the μ parents (two-point
crossover, then a recolour or a swap of two pegs) and the best μ children become the next
parents. The player plays the first consistent code it evaluates.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
from deap import base, tools
from pydantic import Field, PositiveInt

from evo_mastermind.codes import Code, CodeSpace
from evo_mastermind.evolution import (
    Batch,
    assign_fitness,
    codes_of,
    crossover,
    individuals_from_codes,
    mutate,
    select_tournament,
    vary_and,
)
from evo_mastermind.players import register_player
from evo_mastermind.players.evolutionary import BestSoFar, EvolutionaryParams, EvolutionaryPlayer
from evo_mastermind.scoring import Response


class CommaParams(EvolutionaryParams):
    """Options of the (μ, λ) GA; ``population_size`` is μ, the parents kept."""

    offspring_size: PositiveInt = 200
    """Children bred each generation (λ); the best μ of them are the next parents."""
    crossover_probability: float = Field(default=0.5, ge=0.0, le=1.0)
    """Chance that two parents are crossed (two-point crossover)."""
    mutation_probability: float = Field(default=0.9, ge=0.0, le=1.0)
    """Chance that a child is mutated."""


@register_player("comma_ga")
class CommaGAPlayer(EvolutionaryPlayer[CommaParams]):
    """A (μ, λ) genetic algorithm on DEAP that plays the first consistent code (mylab example)."""

    Params = CommaParams

    def __init__(self, space: CodeSpace, params: CommaParams | None = None) -> None:
        super().__init__(space, params)  # first guess, evaluator, self.random, the logbook
        self.toolbox = base.Toolbox()  # DEAP's toolbox; its clone is a deep copy
        # evo_mastermind's operators are DEAP's drawing from the game's own random.Random.
        self.toolbox.register("mate", crossover, rng=self.random)
        self.toolbox.register(
            "mutate", mutate, colors=space.colors, swap_probability=0.3, rng=self.random
        )
        self.toolbox.register("select", select_tournament, tournsize=2, rng=self.random)
        self.parents: list[Any] = []

    def reset_game(self) -> None:
        """A new game: no parents yet."""
        self.parents = []

    def after_response(self, guess: Code, response: Response) -> None:
        """The parents' fitness is stale: the next move evaluates them again."""
        for individual in self.parents:
            del individual.fitness.values

    def next_guess(self) -> Code:
        """Breed until an evaluated code is consistent; at the cap, the nearest one."""
        best = BestSoFar(self.history.guesses)
        for batch in self.watched(self.generations()):
            consistent = np.flatnonzero(batch.distance == 0)
            if consistent.size:
                return batch.codes[consistent[0]].copy()
            best.update(batch.codes, batch.distance)
            if self.over_cap():
                break
        return self.capped(best)  # counts the capped guess; raises if no code is consistent

    def generations(self) -> Iterator[Batch]:
        """The move's first parents (last move's, topped up at random), then each brood."""
        options = self.params
        missing = options.population_size - len(self.parents)
        self.parents += individuals_from_codes("f", self.space.sample(self.rng, missing))
        yield self.evaluate(self.parents)
        while True:
            chosen = self.toolbox.select(self.parents, options.offspring_size)
            brood = vary_and(
                chosen,
                self.toolbox,
                options.crossover_probability,
                options.mutation_probability,
                self.random,
            )
            batch = self.evaluate(brood)
            self.parents = tools.selBest(brood, options.population_size)
            yield batch

    def evaluate(self, individuals: list[Any]) -> Batch:
        """Give the individuals without a fitness their distance to consistency ``f``."""
        stale = [individual for individual in individuals if not individual.fitness.valid]
        if not stale:  # every child a clone of a parent: nothing new to count
            return Batch(np.zeros((0, self.space.pegs), np.uint8), np.zeros(0, np.int64))
        codes = codes_of(stale)
        distance = self.evaluator.evaluate(codes).distance  # counted in the game's stats
        assign_fitness(stale, distance.tolist())
        return Batch(codes, distance)

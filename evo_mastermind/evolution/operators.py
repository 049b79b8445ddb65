"""Variation and selection operators on DEAP individuals, drawing from a game's own generator.

The mutations of the evolutionary Mastermind of Runarsson & Merelo's (2009) reference [10]:
one peg changes to another colour, or two pegs swap places. DEAP's own ``cxTwoPoint``,
``cxUniform``, ``selTournament`` and ``varAnd`` draw from Python's global :mod:`random`,
which other code in the process (a Dask worker's threads, for one) draws from too; the
equivalents here take a :class:`random.Random` instance and call its methods exactly where
and in the order DEAP's versions call the module's functions, so a generator seeded as the
global one was gives the same individuals. They are registered in the toolbox bound to the
game's generator (:func:`functools.partial`); DEAP's structure is otherwise unchanged.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from operator import attrgetter
from typing import Any

from deap import base


def mutate_colour(individual: Any, colors: int, rng: random.Random) -> tuple[Any]:
    """Change one random peg to a different colour."""
    peg = rng.randrange(len(individual))
    colour = rng.randrange(colors - 1)
    individual[peg] = colour + (colour >= individual[peg])  # skip the current colour
    return (individual,)


def swap_pegs(individual: Any, rng: random.Random) -> tuple[Any]:
    """Swap the colours of two random distinct pegs (a permutation of two pegs)."""
    if len(individual) > 1:
        first, second = rng.sample(range(len(individual)), 2)
        individual[first], individual[second] = individual[second], individual[first]
    return (individual,)


def mutate(individual: Any, colors: int, swap_probability: float, rng: random.Random) -> tuple[Any]:
    """Either swap two pegs (with ``swap_probability``) or recolour one peg."""
    if rng.random() < swap_probability:
        return swap_pegs(individual, rng)
    return mutate_colour(individual, colors, rng)


def two_point_crossover(first: Any, second: Any, rng: random.Random) -> tuple[Any, Any]:
    """DEAP's ``tools.cxTwoPoint`` drawing from ``rng``."""
    size = min(len(first), len(second))
    point1 = rng.randint(1, size)
    point2 = rng.randint(1, size - 1)
    if point2 >= point1:
        point2 += 1
    else:
        point1, point2 = point2, point1
    first[point1:point2], second[point1:point2] = second[point1:point2], first[point1:point2]
    return first, second


def uniform_crossover(
    first: Any, second: Any, swap_probability: float, rng: random.Random
) -> tuple[Any, Any]:
    """DEAP's ``tools.cxUniform`` drawing from ``rng``."""
    for peg in range(min(len(first), len(second))):
        if rng.random() < swap_probability:
            first[peg], second[peg] = second[peg], first[peg]
    return first, second


def crossover(first: Any, second: Any, rng: random.Random) -> tuple[Any, Any]:
    """Two-point crossover (uniform on one-peg codes, where two points do not exist)."""
    if len(first) < 2:
        return uniform_crossover(first, second, 0.5, rng)
    return two_point_crossover(first, second, rng)


def select_tournament(
    individuals: Sequence[Any], k: int, tournsize: int, rng: random.Random
) -> list[Any]:
    """DEAP's ``tools.selTournament`` drawing from ``rng``: ``k`` tournament winners."""
    chosen = []
    for _ in range(k):
        aspirants = [rng.choice(individuals) for _ in range(tournsize)]
        chosen.append(max(aspirants, key=attrgetter("fitness")))
    return chosen


def vary_and(
    population: Sequence[Any],
    toolbox: base.Toolbox,
    crossover_probability: float,
    mutation_probability: float,
    rng: random.Random,
) -> list[Any]:
    """DEAP's ``algorithms.varAnd`` drawing from ``rng``: cloned, crossed, mutated offspring."""
    offspring = [toolbox.clone(individual) for individual in population]
    for i in range(1, len(offspring), 2):
        if rng.random() < crossover_probability:
            offspring[i - 1], offspring[i] = toolbox.mate(offspring[i - 1], offspring[i])
            del offspring[i - 1].fitness.values, offspring[i].fitness.values
    for i in range(len(offspring)):
        if rng.random() < mutation_probability:
            (offspring[i],) = toolbox.mutate(offspring[i])
            del offspring[i].fitness.values
    return offspring

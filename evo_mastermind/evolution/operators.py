"""Variation operators on codes, in DEAP's style (in place, returning a tuple, global ``random``).

The mutations of the evolutionary Mastermind of Runarsson & Merelo's (2009) reference [10]: one
peg changes to another colour, or two pegs swap places. Crossover comes from :mod:`deap.tools`.
"""

from __future__ import annotations

import random
from typing import Any

from deap import tools


def mutate_colour(individual: Any, colors: int) -> tuple[Any]:
    """Change one random peg to a different colour."""
    peg = random.randrange(len(individual))
    colour = random.randrange(colors - 1)
    individual[peg] = colour + (colour >= individual[peg])  # skip the current colour
    return (individual,)


def swap_pegs(individual: Any) -> tuple[Any]:
    """Swap the colours of two random distinct pegs (a permutation of two pegs)."""
    if len(individual) > 1:
        first, second = random.sample(range(len(individual)), 2)
        individual[first], individual[second] = individual[second], individual[first]
    return (individual,)


def mutate(individual: Any, colors: int, swap_probability: float) -> tuple[Any]:
    """Either swap two pegs (with ``swap_probability``) or recolour one peg."""
    if random.random() < swap_probability:
        return swap_pegs(individual)
    return mutate_colour(individual, colors)


def crossover(first: Any, second: Any) -> tuple[Any, Any]:
    """Two-point crossover (uniform on one-peg codes, where two points do not exist)."""
    if len(first) < 2:
        return tools.cxUniform(first, second, 0.5)
    return tools.cxTwoPoint(first, second)

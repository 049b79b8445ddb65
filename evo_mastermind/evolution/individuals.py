"""The DEAP types of this package, created once at import, and helpers to move codes in and out.

DEAP's ``creator`` makes classes inside the ``deap.creator`` module. They are created here and
nowhere else, exactly once per process (DEAP issues #57, #110, #323: a worker must see the
same classes as the parent). An individual pickles as a call to :func:`rebuild_individual`
of this module, so unpickling in a fresh worker imports this module, which creates the
classes, and never re-creates a class from a pickled copy.

Two individual types share one layout (a ``list`` of colour numbers):

* :data:`DistanceIndividual`, fitness ``f`` (distance to consistency), minimised;
* :data:`EntropyIndividual`, fitness ``f_ℓ = s / (1 + f)`` (Runarsson & Merelo 2009), maximised.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Literal

import numpy as np
from deap import base, creator

from evo_mastermind.codes import Codes

FitnessKind = Literal["f", "f_local_entropy"]

_PREFIX = "EvoMastermind"  # the creator namespace is shared with user code: avoid clashes


def rebuild_individual(kind: FitnessKind, genes: list[int], values: tuple[float, ...]) -> Any:
    """Recreate a pickled individual from this module's own classes."""
    individual = individual_class(kind)(genes)
    if values:
        individual.fitness.values = values
    return individual


def _reduce_distance(self: Any) -> tuple[Any, ...]:
    return (rebuild_individual, ("f", list(self), self.fitness.values))


def _reduce_entropy(self: Any) -> tuple[Any, ...]:
    return (rebuild_individual, ("f_local_entropy", list(self), self.fitness.values))


def _create_types() -> None:
    if hasattr(creator, f"{_PREFIX}DistanceIndividual"):
        return  # this module was reloaded: keep the classes the process already uses
    creator.create(f"{_PREFIX}DistanceFitness", base.Fitness, weights=(-1.0,))
    creator.create(f"{_PREFIX}EntropyFitness", base.Fitness, weights=(1.0,))
    creator.create(
        f"{_PREFIX}DistanceIndividual",
        list,
        fitness=getattr(creator, f"{_PREFIX}DistanceFitness"),
        __reduce__=_reduce_distance,
    )
    creator.create(
        f"{_PREFIX}EntropyIndividual",
        list,
        fitness=getattr(creator, f"{_PREFIX}EntropyFitness"),
        __reduce__=_reduce_entropy,
    )


_create_types()

DistanceIndividual: Any = getattr(creator, f"{_PREFIX}DistanceIndividual")
"""A code (list of colour numbers) whose fitness is ``f``, minimised."""

EntropyIndividual: Any = getattr(creator, f"{_PREFIX}EntropyIndividual")
"""A code (list of colour numbers) whose fitness is ``f_ℓ``, maximised."""

_CLASSES: dict[str, Any] = {"f": DistanceIndividual, "f_local_entropy": EntropyIndividual}


def individual_class(kind: FitnessKind) -> Any:
    """The individual type whose fitness is ``kind``."""
    return _CLASSES[kind]


def individuals_from_codes(kind: FitnessKind, codes: Codes) -> list[Any]:
    """New individuals (fitness not yet valid) holding the given codes."""
    make = _CLASSES[kind]
    return [make(row) for row in np.atleast_2d(codes).tolist()]


def codes_of(population: Sequence[Sequence[int]]) -> Codes:
    """The codes of a population as one ``(n, pegs)`` array."""
    return np.array(population, dtype=np.uint8).reshape(len(population), -1)


def clone(individual: Any) -> Any:
    """A copy of an individual and its fitness (much cheaper than ``copy.deepcopy``)."""
    twin = type(individual)(individual)
    if individual.fitness.valid:
        twin.fitness.values = individual.fitness.values
    return twin


def assign_fitness(population: Iterable[Any], values: Iterable[float]) -> None:
    """Set each individual's one-objective fitness."""
    for individual, value in zip(population, values, strict=True):
        individual.fitness.values = (float(value),)

import importlib
import multiprocessing
import pickle
import warnings
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np
from deap import creator

from evo_mastermind.evolution.individuals import (
    DistanceIndividual,
    EntropyIndividual,
    FitnessKind,
    clone,
    codes_of,
    individuals_from_codes,
)


def describe(individual: Any) -> tuple[bool, list[int], tuple[float, ...]]:
    """Runs in a fresh worker: is the individual of this process's own class?"""
    from evo_mastermind.evolution import individuals as fresh

    return type(individual) is fresh.DistanceIndividual, list(individual), individual.fitness.values


def reload_keeps_classes() -> bool:
    """Runs in a fresh worker: does reloading the module keep the classes, without warnings?"""
    from evo_mastermind.evolution import individuals as fresh

    before = fresh.DistanceIndividual
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # creator warns when a class is created twice
        reloaded = importlib.reload(fresh)
    return reloaded.DistanceIndividual is before


def test_types_live_in_deap_creator_and_are_not_recreated_on_reload() -> None:
    assert creator.EvoMastermindDistanceIndividual is DistanceIndividual
    # A reload rebinds the module's functions, so it runs in its own process, not this one.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=context) as pool:
        assert pool.submit(reload_keeps_classes).result()
    assert DistanceIndividual().fitness.weights == (-1.0,)
    assert EntropyIndividual().fitness.weights == (1.0,)


def test_individuals_survive_pickling_with_their_fitness() -> None:
    kinds: list[tuple[FitnessKind, Any]] = [
        ("f", DistanceIndividual),
        ("f_local_entropy", EntropyIndividual),
    ]
    for kind, cls in kinds:
        individual = individuals_from_codes(kind, np.array([[0, 1, 2, 3]], np.uint8))[0]
        individual.fitness.values = (2.5,)
        copy = pickle.loads(pickle.dumps(individual))
        assert type(copy) is cls and copy == [0, 1, 2, 3]
        assert copy.fitness.values == (2.5,)
    unevaluated = pickle.loads(pickle.dumps(DistanceIndividual([1, 1])))
    assert not unevaluated.fitness.valid


def test_individuals_survive_a_round_trip_to_a_fresh_worker_process() -> None:
    individual = DistanceIndividual([5, 4, 3, 2])
    individual.fitness.values = (3.0,)
    context = multiprocessing.get_context("spawn")  # a fresh interpreter, as a Dask worker
    with ProcessPoolExecutor(1, mp_context=context) as pool:
        assert pool.submit(describe, individual).result() == (True, [5, 4, 3, 2], (3.0,))


def test_clone_copies_genes_and_fitness_independently() -> None:
    individual = DistanceIndividual([0, 1, 2])
    individual.fitness.values = (1.0,)
    twin = clone(individual)
    twin[0] = 5
    del twin.fitness.values
    assert individual == [0, 1, 2] and individual.fitness.values == (1.0,)
    assert codes_of([individual, twin]).tolist() == [[0, 1, 2], [5, 1, 2]]

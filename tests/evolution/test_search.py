import random

import numpy as np

from evo_mastermind.codes import CodeSpace
from evo_mastermind.evolution.fitness import CountingEvaluator
from evo_mastermind.evolution.search import ConsistencySearch, SearchSettings
from evo_mastermind.scoring import score


def searcher(
    space: CodeSpace, secret: str, guesses: list[str], seed: int = 0, **settings: int
) -> ConsistencySearch:
    evaluator = CountingEvaluator(space.pegs, space.colors)
    for guess in guesses:
        evaluator.history.add(space.parse(guess), score(guess, secret))
    return ConsistencySearch(space, SearchSettings(**settings), evaluator, random.Random(seed))


def test_search_reaches_consistent_codes_and_counts_every_evaluation() -> None:
    space = CodeSpace(6, 9)
    search = searcher(space, "ABCDEF", ["AABBCC", "DDEEFF", "GHIABC"])
    evaluated = 0
    for generation, batch in enumerate(search.generations(np.random.default_rng(0))):
        evaluated += batch.codes.shape[0]
        if (batch.distance == 0).any():
            found = batch.codes[np.flatnonzero(batch.distance == 0)[0]]
            break
        assert generation < 2000
    for guess in ["AABBCC", "DDEEFF", "GHIABC"]:
        assert score(guess, found) == score(guess, "ABCDEF")
    assert search.evaluator.evaluations == evaluated
    assert len(search.population) == 100
    assert len({tuple(ind) for ind in search.population}) == 100  # survivors are distinct


def test_seeds_and_the_previous_population_start_the_next_move() -> None:
    space = CodeSpace(4, 6)
    search = searcher(space, "ABBC", ["AABB"], seed=1, population_size=10, offspring_size=10)
    rng = np.random.default_rng(1)
    first = next(search.generations(rng))
    assert first.codes.shape == (10, 4)
    previous = {tuple(ind) for ind in search.population}
    seeds = np.stack([space.parse("ABBC"), space.parse("BBBC")])
    start = next(search.generations(rng, seeds=seeds))
    starting = {tuple(row) for row in start.codes.tolist()}
    assert {(0, 1, 1, 2), (1, 1, 1, 2)} <= starting
    assert len(starting & previous) >= 8  # the carried population is re-evaluated


def test_stagnation_restarts_the_population() -> None:
    space = CodeSpace(8, 12)
    search = searcher(
        space,
        "ABCDEFGH",
        ["AABBCCDD", "EEFFGGHH", "IIJJKKLL", "ABCDIJKL"],
        seed=2,
        population_size=4,
        offspring_size=4,
        max_stagnant_generations=2,
    )
    for generation, _ in enumerate(search.generations(np.random.default_rng(2))):
        if generation == 300:
            break
    assert search.restarts > 0

import random

import numpy as np
import numpy.typing as npt
import pytest

from evo_mastermind.codes import Codes, CodeSpace
from evo_mastermind.evolution.fitness import CountingEvaluator, code_keys
from evo_mastermind.evolution.search import ConsistencySearch, SearchSettings
from evo_mastermind.evolution.vectorised import VectorisedSearch
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


@pytest.mark.parametrize("engine", [ConsistencySearch, VectorisedSearch])
def test_codes_already_found_rank_behind_every_other_survivor(
    engine: type[ConsistencySearch | VectorisedSearch],
) -> None:
    space = CodeSpace(4, 6)
    evaluator = CountingEvaluator(4, 6)
    evaluator.history.add(space.parse("AABB"), score("AABB", "ABBC"))
    search: ConsistencySearch | VectorisedSearch = engine(
        space, SearchSettings(population_size=10, offspring_size=10), evaluator
    )
    codes = space.all_codes
    seeds = codes[evaluator.evaluate(codes).distance == 0][:10]
    known = set(code_keys(seeds))

    def found(candidates: Codes) -> npt.NDArray[np.bool_]:
        return np.array([key in known for key in code_keys(candidates)])

    generations = search.generations(np.random.default_rng(3), seeds, found)
    next(generations)  # the population is the ten seeds, all found
    for _ in range(5):
        batch = next(generations)
        population = [bytes(row) for row in np.asarray(list(search.population), np.uint8)]
        old = [key in known for key in population]
        assert old == sorted(old)  # every code found comes after every other
        if any(old):  # then no code not yet found was left out
            assert set(code_keys(batch.codes)) - known <= set(population)
        known |= set(code_keys(batch.codes[batch.distance == 0]))  # as an archive would

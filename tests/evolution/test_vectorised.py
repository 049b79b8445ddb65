import numpy as np

from evo_mastermind.codes import CodeSpace
from evo_mastermind.evolution.fitness import CountingEvaluator
from evo_mastermind.evolution.search import SearchSettings
from evo_mastermind.evolution.vectorised import VectorisedSearch
from evo_mastermind.scoring import score

GUESSES = ["AABBCC", "DDEEFF", "GHIABC"]


def searcher(**settings: int) -> VectorisedSearch:
    space = CodeSpace(6, 9)
    evaluator = CountingEvaluator(6, 9)
    for guess in GUESSES:
        evaluator.history.add(space.parse(guess), score(guess, "ABCDEF"))
    return VectorisedSearch(space, SearchSettings(**settings), evaluator)


def first_consistent(search: VectorisedSearch, seed: int) -> tuple[list[int], int]:
    evaluated = 0
    for generation, batch in enumerate(search.generations(np.random.default_rng(seed))):
        evaluated += batch.codes.shape[0]
        assert np.array_equal(batch.distance, search.evaluator.evaluate(batch.codes).distance)
        if (batch.distance == 0).any():
            return batch.codes[np.flatnonzero(batch.distance == 0)[0]].tolist(), evaluated
        assert generation < 2000
    raise AssertionError("the search ended")


def test_vectorised_search_reaches_consistent_codes_and_counts_evaluations() -> None:
    search = searcher()
    found, evaluated = first_consistent(search, 0)
    for guess in GUESSES:
        assert score(guess, np.array(found, np.uint8)) == score(guess, "ABCDEF")
    # first_consistent re-evaluates every batch once more to check it.
    assert search.evaluator.evaluations == 2 * evaluated
    assert search.population.shape == (100, 6)
    assert np.unique(search.population, axis=0).shape[0] == 100
    assert (np.diff(search.distance) >= 0).all()  # survivors sorted best first


def test_vectorised_search_depends_only_on_its_generator() -> None:
    assert first_consistent(searcher(), 3) == first_consistent(searcher(), 3)
    assert first_consistent(searcher(), 3) != first_consistent(searcher(), 4)


def test_vectorised_search_restarts_when_stuck() -> None:
    search = searcher(population_size=4, offspring_size=4, max_stagnant_generations=2)
    for generation, _ in enumerate(search.generations(np.random.default_rng(2))):
        if generation == 300:
            break
    assert search.restarts > 0


def test_one_peg_codes_are_only_recoloured() -> None:
    space = CodeSpace(1, 5)
    evaluator = CountingEvaluator(1, 5)
    evaluator.history.add(space.parse("A"), score("A", "C"))
    search = VectorisedSearch(space, SearchSettings(population_size=3, offspring_size=4), evaluator)
    for generation, batch in enumerate(search.generations(np.random.default_rng(0))):
        assert batch.codes.max(initial=0) < 5
        if generation == 20:
            break
    assert (search.distance[0] == 0) and search.population[0, 0] != 0

"""The front door: every way it answers (numpy, kernel, counts + numpy) gives the same guesses."""

import numpy as np
import pytest

from evo_mastermind import engine
from evo_mastermind.codes import CodeSpace
from evo_mastermind.heuristics import Heuristic, known_heuristic
from evo_mastermind.partitions import best_guesses
from evo_mastermind.scoring import IndexedScorer, indexed_scorer, response_matrix

BUILT_IN = ("entropy", "most_parts", "expected_size", "worst_case")


def without_table(space: CodeSpace) -> IndexedScorer:
    """A scorer of a small space that answers as a large one does (no response table)."""
    scorer = IndexedScorer(space)
    scorer.has_table = False
    return scorer


def positions(space: CodeSpace, count: int, seed: int) -> list[tuple[np.ndarray, tuple[int, ...]]]:
    """Consistent sets and played guesses after one to three random guesses."""
    scorer = indexed_scorer(space)
    rng = np.random.default_rng(seed)
    found = []
    for _ in range(count):
        secret = space.all_codes[rng.integers(space.size)]
        played = tuple(int(g) for g in rng.choice(space.size, rng.integers(1, 4), replace=False))
        candidates = np.arange(space.size)
        for guess in played:
            wanted = response_matrix(space.all_codes[[guess]], secret[None, :], space.colors)[0, 0]
            candidates = candidates[scorer.responses(guess, candidates) == wanted]
        found.append((candidates, played))
    return found


@pytest.mark.parametrize("name", BUILT_IN)
@pytest.mark.parametrize("pool_all", [True, False])
def test_every_way_finds_the_guesses_of_the_numpy_definition(name: str, pool_all: bool) -> None:
    space = CodeSpace(4, 6)
    table, large = indexed_scorer(space), without_table(space)
    compiled = known_heuristic(name)
    uncompiled = Heuristic(compiled.score, name=f"{name} in numpy")
    for candidates, played in positions(space, 12, seed=len(name)):
        expected = best_guesses(table, candidates, pool_all, compiled, False)
        for scorer, heuristic in ((table, compiled), (large, compiled), (large, uncompiled)):
            for first_only in (False, True):
                got = engine.best_guesses_at(
                    scorer, candidates, played, pool_all, heuristic, first_only
                )
                wanted = expected[:1] if first_only else expected
                assert got.tolist() == wanted.tolist()


@pytest.mark.parametrize("name", BUILT_IN)
def test_a_large_consistent_pool_without_a_compiled_form_is_scored_per_class(name: str) -> None:
    space = CodeSpace(4, 8)
    scorer = indexed_scorer(space)
    # After AAAA answered 0,0 the 2401 codes without A are consistent; B..H are alike.
    candidates = np.flatnonzero(scorer.counts[:, 0] == 0)
    assert candidates.size >= engine.CLASSES_FROM
    uncompiled = Heuristic(known_heuristic(name).score, name=name)
    expected = best_guesses(scorer, candidates, False, known_heuristic(name), False)
    played = (0,)  # AAAA
    got = engine.best_guesses_at(without_table(space), candidates, played, False, uncompiled, False)
    assert got.tolist() == expected.tolist()


@pytest.mark.parametrize("name", BUILT_IN)
def test_pool_scores_agree_every_way(name: str) -> None:
    space = CodeSpace(4, 6)
    table, large = indexed_scorer(space), without_table(space)
    guesses = np.arange(0, space.size, 3, dtype=np.int64)
    candidates = np.arange(0, space.size, 5, dtype=np.int64)
    compiled = known_heuristic(name)
    expected = engine.pool_scores(table, guesses, candidates, compiled)
    uncompiled = Heuristic(compiled.score, name=name)
    for scorer, heuristic in ((large, compiled), (large, uncompiled)):
        got = engine.pool_scores(scorer, guesses, candidates, heuristic)
        np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)


def test_trees_are_grown_only_with_a_compiled_form() -> None:
    assert engine.can_grow_trees(known_heuristic("entropy"))
    uncompiled = Heuristic(known_heuristic("entropy").score, name="slow")
    assert not engine.can_grow_trees(uncompiled)
    space = CodeSpace(3, 3)
    every = np.arange(space.size, dtype=np.int64)
    with pytest.raises(ValueError, match="no compiled form"):
        engine.grow_tree(indexed_scorer(space), every, 0, 1, -1, True, uncompiled, 10)

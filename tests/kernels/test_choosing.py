"""The choosing kernel against the numpy definition of a best guess."""

import numpy as np
import pytest

from evo_mastermind.codes import CodeSpace
from evo_mastermind.engine import CLASSES_FROM
from evo_mastermind.heuristics import known_heuristic
from evo_mastermind.kernels.choosing import NOT_GROUPED, _choose, choose, space_multisets
from evo_mastermind.kernels.responses import columns, weight
from evo_mastermind.kernels.rules import REDUCTIONS
from evo_mastermind.kernels.scanning import by_multiset
from evo_mastermind.partitions import best_guesses
from evo_mastermind.scoring import indexed_scorer, response_matrix
from evo_mastermind.symmetry import colour_classes


@pytest.mark.parametrize("heuristic", list(REDUCTIONS))
@pytest.mark.parametrize("pool_all", [True, False])
def test_choose_finds_the_best_guesses_of_the_numpy_definition(
    heuristic: str, pool_all: bool
) -> None:
    space = CodeSpace(4, 6)
    scorer = indexed_scorer(space)
    rng = np.random.default_rng(7)
    for _ in range(30):
        # A position after one to three random guesses against a random secret.
        secret = space.all_codes[rng.integers(space.size)]
        played = rng.choice(space.size, rng.integers(1, 4), replace=False)
        candidates = np.arange(space.size)
        for guess in played:
            answers = scorer.responses(int(guess), candidates)
            wanted = response_matrix(space.all_codes[[guess]], secret[None, :], space.colors)[0, 0]
            candidates = candidates[answers == wanted]
        used = frozenset(space.all_codes[played].ravel().tolist())
        zero = frozenset(np.flatnonzero(~scorer.counts[candidates].any(axis=0)).tolist())
        classes = colour_classes(space, used, zero)
        groups = (
            (classes.representatives, classes.of_code)
            if classes is not None
            else (np.arange(space.size),) * 2
        )
        expected = best_guesses(scorer, candidates, pool_all, known_heuristic(heuristic), False)
        best = choose(scorer.codes, scorer.counts, candidates, groups, pool_all, heuristic, False)
        first = choose(scorer.codes, scorer.counts, candidates, groups, pool_all, heuristic, True)
        assert best.tolist() == expected.tolist()
        assert first.tolist() == expected[:1].tolist()


@pytest.mark.parametrize("heuristic", list(REDUCTIONS))
def test_choose_scores_a_large_consistent_pool_once_per_class(heuristic: str) -> None:
    space = CodeSpace(4, 8)
    scorer = indexed_scorer(space)
    # After AAAA answered 0,0 the 2401 codes without A are consistent; B..H are alike.
    candidates = np.flatnonzero(scorer.counts[:, 0] == 0)
    classes = colour_classes(space, frozenset({0}), frozenset({0}))
    assert classes is not None and candidates.size >= CLASSES_FROM
    groups = (classes.representatives, classes.of_code)
    expected = best_guesses(scorer, candidates, False, known_heuristic(heuristic), False)
    best = choose(scorer.codes, scorer.counts, candidates, groups, False, heuristic, False)
    assert best.tolist() == expected.tolist()


@pytest.mark.parametrize("heuristic", list(REDUCTIONS))
def test_response_tables_choose_what_the_columns_choose(heuristic: str) -> None:
    space = CodeSpace(5, 6)
    scorer = indexed_scorer(space)
    codes, counts = scorer.codes, scorer.counts
    every = np.arange(space.size, dtype=np.int64)
    pool_pegs, pool_counts = columns(codes, counts, every)
    no_tables = (np.empty(0, dtype=np.int64), np.empty((0, space.colors), dtype=np.uint8))
    rng = np.random.default_rng(11)
    halt = np.zeros(1, dtype=np.uint8)
    grouped = by_multiset(every, space_multisets(counts)[0], space_multisets(counts)[1].shape[0])
    for size in (8, 20, 40, 200, 900):  # below and above the blocks' 160 candidates
        candidates = np.sort(rng.choice(space.size, size, replace=False))
        expected = best_guesses(scorer, candidates, True, known_heuristic(heuristic), False)
        for first_only in (False, True):  # the first only: later guesses must beat the best
            # From tables, from columns, and (the first only) read multiset by multiset.
            ways = [(space_multisets(counts), NOT_GROUPED), (no_tables, NOT_GROUPED)]
            if first_only:
                ways.append((space_multisets(counts), grouped))
            chosen = [
                _choose(
                    codes,
                    counts,
                    candidates,
                    every,
                    every,
                    pool_pegs,
                    pool_counts,
                    True,
                    REDUCTIONS[heuristic],
                    first_only,
                    (space.pegs + 1) ** 2,
                    weight(space.pegs),
                    halt,
                    *multisets,
                    *groups,
                ).tolist()
                for multisets, groups in ways
            ]
            want = expected[: 1 if first_only else None].tolist()
            assert all(choice == want for choice in chosen)

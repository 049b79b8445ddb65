"""The scoring kernels against their numpy definitions (partitions, heuristics, scoring)."""

import numpy as np
import pytest

from evo_mastermind.codes import CodeSpace
from evo_mastermind.heuristics import known_heuristic
from evo_mastermind.kernels.rules import REDUCTIONS
from evo_mastermind.kernels.scoring import partition_counts, pool_scores
from evo_mastermind.partitions import partition_counts as count_parts
from evo_mastermind.scoring import indexed_scorer, response_matrix


@pytest.mark.parametrize(("pegs", "colors"), [(4, 6), (3, 5), (5, 3)])
@pytest.mark.parametrize("m", [1, 3, 20, 70, 400])
@pytest.mark.parametrize("heuristic", list(REDUCTIONS))
def test_pool_scores_match_the_numpy_reference(
    pegs: int, colors: int, m: int, heuristic: str
) -> None:
    space = CodeSpace(pegs, colors)
    scorer = indexed_scorer(space)
    rng = np.random.default_rng(pegs * 100 + m)
    candidates = np.sort(rng.choice(space.size, min(m, space.size), replace=False))
    guesses = np.arange(space.size, dtype=np.int64)
    counts = count_parts(
        response_matrix(space.all_codes, space.all_codes[candidates], colors), space.n_responses
    )
    scores, parts = pool_scores(
        scorer.codes, scorer.counts, guesses, candidates, space.n_responses, heuristic
    )
    np.testing.assert_allclose(scores, known_heuristic(heuristic).score(counts), rtol=0, atol=1e-12)
    np.testing.assert_array_equal(parts, np.count_nonzero(counts, axis=1))


def test_integer_heuristics_are_exact() -> None:
    space = CodeSpace(4, 6)
    scorer = indexed_scorer(space)
    candidates = np.arange(0, space.size, 7, dtype=np.int64)
    counts = count_parts(scorer.matrix(None, candidates), space.n_responses)
    for heuristic in ("worst_case", "most_parts", "expected_size"):
        scores, _ = pool_scores(
            scorer.codes,
            scorer.counts,
            np.arange(space.size, dtype=np.int64),
            candidates,
            space.n_responses,
            heuristic,
        )
        assert scores.tolist() == known_heuristic(heuristic).score(counts).tolist()


def test_the_parallel_kernel_gives_the_serial_scores(monkeypatch: pytest.MonkeyPatch) -> None:
    space = CodeSpace(5, 8)
    scorer = indexed_scorer(space)
    guesses = np.arange(0, space.size, 3, dtype=np.int64)
    candidates = np.arange(0, space.size, 11, dtype=np.int64)
    args = (scorer.codes, scorer.counts, guesses, candidates, space.n_responses, "entropy")
    monkeypatch.setattr("evo_mastermind.kernels.scoring.PARALLEL_PAIRS", 1)
    parallel = pool_scores(*args)
    monkeypatch.setattr("evo_mastermind.kernels.scoring.PARALLEL_PAIRS", 1 << 62)
    serial = pool_scores(*args)
    np.testing.assert_array_equal(parallel[0], serial[0])
    np.testing.assert_array_equal(parallel[1], serial[1])


def test_sixteen_pegs_use_two_bytes_per_response() -> None:
    space = CodeSpace(16, 2)
    scorer = indexed_scorer(space)
    candidates = np.arange(0, space.size, 501, dtype=np.int64)
    guesses = np.arange(0, space.size, 1001, dtype=np.int64)
    counts = count_parts(
        response_matrix(space.all_codes[guesses], space.all_codes[candidates], 2),
        space.n_responses,
    )
    scores, _ = pool_scores(
        scorer.codes, scorer.counts, guesses, candidates, space.n_responses, "worst_case"
    )
    assert scores.tolist() == known_heuristic("worst_case").score(counts).tolist()


@pytest.mark.parametrize(("pegs", "colors"), [(4, 6), (16, 2)])
def test_partition_counts_match_the_numpy_definition(pegs: int, colors: int) -> None:
    space = CodeSpace(pegs, colors)
    scorer = indexed_scorer(space)
    guesses = np.arange(0, space.size, 13, dtype=np.int64)
    candidates = np.arange(0, space.size, 7, dtype=np.int64)
    got = partition_counts(scorer.codes, scorer.counts, guesses, candidates, space.n_responses)
    expected = count_parts(scorer.matrix(guesses, candidates), space.n_responses)
    np.testing.assert_array_equal(got, expected)


def test_parallel_partition_counts_equal_serial(monkeypatch: pytest.MonkeyPatch) -> None:
    space = CodeSpace(5, 8)
    scorer = indexed_scorer(space)
    guesses = np.arange(0, space.size, 5, dtype=np.int64)
    candidates = np.arange(0, space.size, 9, dtype=np.int64)
    args = (scorer.codes, scorer.counts, guesses, candidates, space.n_responses)
    monkeypatch.setattr("evo_mastermind.kernels.scoring.PARALLEL_PAIRS", 1)
    parallel = partition_counts(*args)
    monkeypatch.setattr("evo_mastermind.kernels.scoring.PARALLEL_PAIRS", 1 << 62)
    np.testing.assert_array_equal(parallel, partition_counts(*args))

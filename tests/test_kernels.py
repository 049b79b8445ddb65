"""The compiled kernels against the readable numpy reference (partitions, scoring)."""

import numpy as np
import pytest

from evo_mastermind.codes import CodeSpace
from evo_mastermind.kernels import HEURISTICS, choose, pool_scores, responses, warm
from evo_mastermind.partitions import PARTITION_SCORES, best_guesses, partition_counts
from evo_mastermind.players.one_ply import CLASSES_FROM
from evo_mastermind.scoring import indexed_scorer, response_matrix
from evo_mastermind.symmetry import colour_classes


@pytest.mark.parametrize(("pegs", "colors"), [(4, 6), (3, 5), (5, 3)])
@pytest.mark.parametrize("m", [1, 3, 20, 70, 400])
@pytest.mark.parametrize("heuristic", list(HEURISTICS))
def test_pool_scores_match_the_numpy_reference(
    pegs: int, colors: int, m: int, heuristic: str
) -> None:
    space = CodeSpace(pegs, colors)
    scorer = indexed_scorer(space)
    rng = np.random.default_rng(pegs * 100 + m)
    candidates = np.sort(rng.choice(space.size, min(m, space.size), replace=False))
    guesses = np.arange(space.size, dtype=np.int64)
    counts = partition_counts(
        response_matrix(space.all_codes, space.all_codes[candidates], colors), space.n_responses
    )
    scores, parts = pool_scores(
        scorer.codes, scorer.counts, guesses, candidates, space.n_responses, heuristic
    )
    np.testing.assert_allclose(scores, PARTITION_SCORES[heuristic](counts), rtol=0, atol=1e-12)
    np.testing.assert_array_equal(parts, np.count_nonzero(counts, axis=1))


def test_integer_heuristics_are_exact() -> None:
    space = CodeSpace(4, 6)
    scorer = indexed_scorer(space)
    candidates = np.arange(0, space.size, 7, dtype=np.int64)
    counts = partition_counts(scorer.matrix(None, candidates), space.n_responses)
    for heuristic in ("worst_case", "most_parts", "expected_size"):
        scores, _ = pool_scores(
            scorer.codes,
            scorer.counts,
            np.arange(space.size, dtype=np.int64),
            candidates,
            space.n_responses,
            heuristic,
        )
        assert scores.tolist() == PARTITION_SCORES[heuristic](counts).tolist()


def test_the_parallel_kernel_gives_the_serial_scores(monkeypatch: pytest.MonkeyPatch) -> None:
    space = CodeSpace(5, 8)
    scorer = indexed_scorer(space)
    guesses = np.arange(0, space.size, 3, dtype=np.int64)
    candidates = np.arange(0, space.size, 11, dtype=np.int64)
    args = (scorer.codes, scorer.counts, guesses, candidates, space.n_responses, "entropy")
    monkeypatch.setattr("evo_mastermind.kernels.PARALLEL_PAIRS", 1)
    parallel = pool_scores(*args)
    monkeypatch.setattr("evo_mastermind.kernels.PARALLEL_PAIRS", 1 << 62)
    serial = pool_scores(*args)
    np.testing.assert_array_equal(parallel[0], serial[0])
    np.testing.assert_array_equal(parallel[1], serial[1])


@pytest.mark.parametrize(("pegs", "colors"), [(5, 8), (16, 2)])
def test_responses_match_the_reference(pegs: int, colors: int) -> None:
    space = CodeSpace(pegs, colors)
    scorer = indexed_scorer(space)
    candidates = np.arange(0, space.size, 97, dtype=np.int64)
    got = responses(scorer.codes, scorer.counts, 123, candidates)
    expected = response_matrix(space.all_codes[[123]], space.all_codes[candidates], colors)[0]
    np.testing.assert_array_equal(got, expected)


def test_sixteen_pegs_use_two_bytes_per_response() -> None:
    space = CodeSpace(16, 2)
    scorer = indexed_scorer(space)
    candidates = np.arange(0, space.size, 501, dtype=np.int64)
    guesses = np.arange(0, space.size, 1001, dtype=np.int64)
    counts = partition_counts(
        response_matrix(space.all_codes[guesses], space.all_codes[candidates], 2),
        space.n_responses,
    )
    scores, _ = pool_scores(
        scorer.codes, scorer.counts, guesses, candidates, space.n_responses, "worst_case"
    )
    assert scores.tolist() == PARTITION_SCORES["worst_case"](counts).tolist()


def test_warm_is_quiet_once_compiled(capsys: pytest.CaptureFixture[str]) -> None:
    warm()
    warm()
    assert capsys.readouterr().err.count("compiled") <= 1


@pytest.mark.parametrize("heuristic", list(HEURISTICS))
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
        expected = best_guesses(scorer, candidates, pool_all, heuristic, False)
        best = choose(scorer.codes, scorer.counts, candidates, groups, pool_all, heuristic, False)
        first = choose(scorer.codes, scorer.counts, candidates, groups, pool_all, heuristic, True)
        assert best.tolist() == expected.tolist()
        assert first.tolist() == expected[:1].tolist()


@pytest.mark.parametrize("heuristic", list(HEURISTICS))
def test_choose_scores_a_large_consistent_pool_once_per_class(heuristic: str) -> None:
    space = CodeSpace(4, 8)
    scorer = indexed_scorer(space)
    # After AAAA answered 0,0 the 2401 codes without A are consistent; B..H are alike.
    candidates = np.flatnonzero(scorer.counts[:, 0] == 0)
    classes = colour_classes(space, frozenset({0}), frozenset({0}))
    assert classes is not None and candidates.size >= CLASSES_FROM
    groups = (classes.representatives, classes.of_code)
    expected = best_guesses(scorer, candidates, False, heuristic, False)
    best = choose(scorer.codes, scorer.counts, candidates, groups, False, heuristic, False)
    assert best.tolist() == expected.tolist()

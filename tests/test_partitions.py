import math

import numpy as np
import pytest

from evo_mastermind.codes import CodeSpace
from evo_mastermind.heuristics import known_heuristic
from evo_mastermind.partitions import (
    best_indices,
    local_entropy,
    partition_counts,
    prefer_consistent,
)
from evo_mastermind.scoring import indexed_scorer


def test_first_guess_partitions_of_the_classic_game() -> None:
    space = CodeSpace(4, 6)
    scorer = indexed_scorer(space)
    aabb = space.index(space.parse("AABB"))
    counts = partition_counts(scorer.responses(aabb, np.arange(space.size)), space.n_responses)[0]
    # Runarsson & Merelo 2009: 256 codes answer AABB with (0,0) and 256 with (0,1).
    assert counts[0] == 256 and counts[1] == 256
    assert counts.sum() == 1296 and counts.max() == 256  # Knuth's minimax value for AABB


def test_consistent_codes_win_ties() -> None:
    consistent = np.array([3, 8, 20, 41], dtype=np.int64)
    tied = np.array([2, 8, 19, 41, 50], dtype=np.int64)
    assert prefer_consistent(tied, consistent).tolist() == [8, 41]
    # No tied code consistent: every tied guess stays (on either side of the consistent ones).
    assert prefer_consistent(np.array([0, 9, 60]), consistent).tolist() == [0, 9, 60]
    assert prefer_consistent(np.array([], dtype=np.int64), consistent).tolist() == []


def test_scores_are_oriented_higher_is_better() -> None:
    counts = np.array([[1, 1, 1, 1, 0], [4, 0, 0, 0, 0], [2, 1, 1, 0, 0]])
    entropy = known_heuristic("entropy").score(counts)
    assert entropy == pytest.approx([2.0, 0.0, 1.5])
    assert known_heuristic("most_parts").score(counts).tolist() == [4, 1, 3]
    assert known_heuristic("expected_size").score(counts).tolist() == [-1.0, -4.0, -1.5]
    assert known_heuristic("worst_case").score(counts).tolist() == [-1, -4, -2]


def test_local_entropy_follows_equation_3() -> None:
    space = CodeSpace(4, 6)
    played = np.stack([space.parse("AABB")])
    candidates = np.stack([space.parse("CDEF"), space.parse("AABB")])
    scores = local_entropy(candidates, played, space.colors)
    # CDEF + AABB: A,B twice, C..F once over 8 symbols; AABB + AABB: A,B four times each.
    expected_cdef = 2 * (2 / 8) * math.log2(8 / 2) + 4 * (1 / 8) * math.log2(8)
    assert scores == pytest.approx([expected_cdef, 1.0])


def test_best_indices_treats_rounding_noise_as_a_tie() -> None:
    scores = np.array([1.0, 3.0, 3.0 - 1e-13, 2.9])
    assert best_indices(scores).tolist() == [1, 2]

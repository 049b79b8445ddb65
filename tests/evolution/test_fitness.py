import math

import numpy as np
import pytest

from evo_mastermind.codes import CodeSpace
from evo_mastermind.evolution.fitness import (
    CountingEvaluator,
    History,
    code_keys,
    distance_to_consistency,
    f_local_entropy,
    local_entropy_of,
)
from evo_mastermind.scoring import Response, score, score_codes

SPACE = CodeSpace(4, 6)


def history_of(secret: str, guesses: list[str]) -> History:
    history = History(SPACE.pegs, SPACE.colors)
    for guess in guesses:
        history.add(SPACE.parse(guess), score(guess, secret))
    return history


def codes(*texts: str) -> np.ndarray:
    return np.stack([SPACE.parse(text) for text in texts])


def test_distance_on_hand_worked_examples() -> None:
    # Runarsson & Merelo 2009, table 1: the secret ABBC answers AABB with 2 black, 1 white.
    history = history_of("ABBC", ["AABB"])
    # ABBC: consistent. AABB vs AABB is (4,0): |4-2| + |0-1| = 3. CDEF draws (0,0): 2 + 1 = 3.
    # ABCD vs AABB: one black (A), common A and B -> (1,1): |1-2| + |1-1| = 1.
    # BBAA vs AABB: no black, four common -> (0,4): 2 + 3 = 5.
    assert distance_to_consistency(
        codes("ABBC", "AABB", "CDEF", "ABCD", "BBAA"), history
    ).tolist() == [
        0,
        3,
        3,
        1,
        5,
    ]


def test_distance_sums_over_every_played_guess() -> None:
    history = history_of("ABBC", ["AABB", "ACDE"])
    # FFDA vs AABB: (0,1) -> |0-2| + |1-1| = 2; vs ACDE (1,1) wanted, FFDA gives (1,1) -> 0.
    assert score("ACDE", "FFDA") == (1, 1)
    assert distance_to_consistency(codes("FFDA"), history).tolist() == [2]


def test_distance_is_zero_exactly_on_the_consistent_set() -> None:
    rng = np.random.default_rng(7)
    everything = SPACE.all_codes
    for _ in range(5):
        secret = SPACE.format(SPACE.sample(rng, 1)[0])
        guesses = [SPACE.format(code) for code in SPACE.sample(rng, 3)]
        history = history_of(secret, guesses)
        consistent = np.ones(SPACE.size, dtype=bool)
        for guess in guesses:
            wanted = score(guess, secret).pack(SPACE.pegs)
            consistent &= score_codes(SPACE.parse(guess), everything, SPACE.colors) == wanted
        distance = distance_to_consistency(everything, history)
        assert np.array_equal(distance == 0, consistent)
        assert (distance[~consistent] >= 1).all()


def test_empty_history_makes_every_code_consistent() -> None:
    assert distance_to_consistency(codes("ABCD", "FFFF"), History(4, 6)).tolist() == [0, 0]


def test_local_entropy_and_f_local_entropy() -> None:
    history = history_of("ABBC", ["AABB"])
    entropy = local_entropy_of(codes("CDEF", "AABB"), history)
    # CDEF + AABB: A and B twice, C..F once, over 8 symbols (Runarsson & Merelo 2009, equation 3).
    expected = 2 * (2 / 8) * math.log2(8 / 2) + 4 * (1 / 8) * math.log2(8)
    assert entropy == pytest.approx([expected, 1.0])
    distance = distance_to_consistency(codes("CDEF", "AABB"), history)
    assert f_local_entropy(distance, entropy) == pytest.approx([expected / 4, 1.0 / 4])


def test_counting_evaluator_counts_evaluations_and_distinct_codes() -> None:
    evaluator = CountingEvaluator(4, 6, with_entropy=True)
    evaluator.history.add(SPACE.parse("AABB"), Response(2, 1))
    first = evaluator.evaluate(codes("ABBC", "ABCD", "ABBC"))
    assert first.consistent.tolist() == [True, False, True]
    assert first.entropy is not None and first.local_entropy_fitness.shape == (3,)
    evaluator.evaluate(codes("ABCD", "FFFF"))
    assert (evaluator.evaluations, evaluator.distinct_codes) == (5, 3)
    evaluator.reset()
    assert (evaluator.evaluations, evaluator.distinct_codes, len(evaluator.history)) == (0, 0, 0)


def test_evaluations_without_entropy_refuse_f_local_entropy() -> None:
    evaluation = CountingEvaluator(4, 6).evaluate(codes("ABCD"))
    assert evaluation.entropy is None
    with pytest.raises(ValueError, match="local entropy"):
        _ = evaluation.local_entropy_fitness


def test_code_keys_tell_codes_apart_on_large_games() -> None:
    space = CodeSpace(20, 26)
    sample = space.sample(np.random.default_rng(1), 500)
    sample[1] = sample[0]
    keys = code_keys(sample)
    assert len(keys) == 500 and keys[0] == keys[1]
    assert len(set(keys)) == len({row.tobytes() for row in sample})

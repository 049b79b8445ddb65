import numpy as np
import pytest

from benchmarks.studies.exact import consistent_codes
from evo_mastermind.codes import CodeSpace
from evo_mastermind.evolution.fitness import History, distance_to_consistency
from evo_mastermind.scoring import score


def random_history(space: CodeSpace, rng: np.random.Generator, moves: int) -> History:
    secret = space.sample(rng, 1)[0]
    history = History(space.pegs, space.colors)
    for guess in space.sample(rng, moves):
        history.add(guess, score(guess, secret))
    return history


@pytest.mark.parametrize(("pegs", "colors", "moves"), [(4, 6, 1), (4, 6, 3), (5, 7, 2), (6, 5, 4)])
def test_consistent_codes_are_exactly_the_codes_at_distance_zero(
    pegs: int, colors: int, moves: int
) -> None:
    space = CodeSpace(pegs, colors)
    everything = space.all_codes
    rng = np.random.default_rng(pegs * 100 + moves)
    for _ in range(5):
        history = random_history(space, rng, moves)
        expected = everything[distance_to_consistency(everything, history) == 0]
        np.testing.assert_array_equal(consistent_codes(history), expected)


def test_an_empty_history_or_too_many_prefixes_is_refused() -> None:
    space = CodeSpace(4, 6)
    with pytest.raises(ValueError, match="empty history"):
        consistent_codes(History(4, 6))
    history = random_history(space, np.random.default_rng(1), 1)
    with pytest.raises(ValueError, match="more than 100 prefixes"):
        consistent_codes(history, max_prefixes=100)

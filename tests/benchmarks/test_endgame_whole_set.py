"""The whole-set pairing's pieces: touched moves found by exact counts, picks priced exactly."""

import numpy as np
import pytest

from benchmarks.studies.endgame_whole_set import pick_value, touched
from evo_mastermind.codes import CodeSpace
from evo_mastermind.evolution.fitness import History
from evo_mastermind.players.endgame import EndGame
from evo_mastermind.players.sampler import SamplerParams
from evo_mastermind.sampling import Constraints, count_consistent
from evo_mastermind.scoring import score

SPACE = CodeSpace(4, 6)


def test_the_touched_move_is_the_first_whose_set_is_above_mu_and_within_whole_set() -> None:
    secret = "ABCD"
    moves = ["AABB", "ACCE", "ABDC", "ABCD"]
    code = SPACE.parse(secret)
    sizes = []
    for played in range(1, len(moves)):
        history = History(SPACE.pegs, SPACE.colors)
        for guess in moves[:played]:
            history.add(SPACE.parse(guess), score(SPACE.parse(guess), code))
        sizes.append(count_consistent(Constraints.of(SPACE, history)))
    assert sizes[0] > sizes[1] > sizes[2]
    # The set before move 2 holds sizes[0] codes: touched there when mu < it <= whole_set.
    assert touched(SPACE, secret, moves, sizes[0] - 1, sizes[0]) == 1
    assert touched(SPACE, secret, moves, sizes[1] - 1, sizes[0] - 1) == 2
    assert touched(SPACE, secret, moves, sizes[0], 10_000) == 0  # never above mu
    assert touched(SPACE, secret, moves, 0, sizes[2] - 1) == 0  # first set above whole_set


def test_a_pick_is_priced_at_the_optimum_when_it_is_the_optimum_s_and_never_below() -> None:
    first = SPACE.parse("AABB")
    response = score(first, SPACE.parse("ABCD"))
    history = History(SPACE.pegs, SPACE.colors)
    history.add(first, response)
    endgame = EndGame(SPACE, SamplerParams(endgame=SPACE.size, endgame_work=10**12))
    endgame.start()
    best = endgame.guess(history)
    assert best is not None and endgame.expected is not None
    optimum = endgame.expected - 1
    assert pick_value(SPACE, [first], [response], best, 10**12) == pytest.approx(optimum)
    others = SPACE.sample(np.random.default_rng(1), 8)
    for pick in others:
        value = pick_value(SPACE, [first], [response], pick, 10**12)
        assert value is not None and value >= optimum - 1e-9

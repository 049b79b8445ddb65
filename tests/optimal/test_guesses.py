"""The compiled pieces of the optimum that look at one set: its table, orbits and bounds."""

from __future__ import annotations

import numpy as np
import pytest

from evo_mastermind.codes import CodeSpace
from evo_mastermind.optimal import guesses, orbits
from evo_mastermind.optimal.solver import OptimalSolver
from evo_mastermind.scoring import score_codes


@pytest.mark.parametrize(("pegs", "colors"), [(1, 2), (2, 9), (3, 5), (4, 6), (6, 3)])
def test_the_response_table_packs_every_score(pegs: int, colors: int) -> None:
    space = CodeSpace(pegs, colors)
    codes = np.ascontiguousarray(space.all_codes)
    table = guesses.response_table(codes, colors)
    for guess in range(0, space.size, max(1, space.size // 40)):
        # score_codes packs black * (pegs + 1) + white, as the table does
        expected = score_codes(codes[guess], codes, colors)
        assert np.array_equal(table[guess], expected)
        assert np.array_equal(table[:, guess], expected)  # symmetric


def test_the_counting_bounds_fill_the_levels_in_order() -> None:
    floor, capacity = guesses.level_bounds(1296, 13)
    # 1 secret at the first guess, 13 at the second, 169 at the third, the rest after
    assert floor[1] == 1 and floor[14] == 1 + 2 * 13 and floor[183] == 1 + 26 + 3 * 169
    assert floor[1296] == 1 + 26 + 3 * 169 + 4 * (1296 - 183)
    assert list(capacity[:4]) == [0, 1, 14, 183]
    assert capacity[guesses.UNLIMITED] == guesses.INF


@pytest.mark.parametrize(("pegs", "colors"), [(4, 6), (6, 3)])
def test_kept_orbits_answer_as_the_orbits_worked_out(pegs: int, colors: int) -> None:
    """Every history answered alike, whether worked out, kept, or its slot taken by another."""
    solver = OptimalSolver(CodeSpace(pegs, colors))
    n = solver.space.size
    rng = np.random.default_rng(2026)
    histories = [rng.integers(0, n, size=4).astype(np.int32) for _ in range(12)]
    roomy = orbits.kept_orbits(n)
    one_slot = (  # every history in the same slot: each call replaces the last
        np.zeros((1, 1 + orbits.KEPT_PLAYED), dtype=np.int32),
        np.empty((1, n + 1), dtype=np.int32),
    )
    expected = np.empty(n, dtype=np.int32)
    out = np.empty(n, dtype=np.int32)
    for _ in range(2):  # the second round is answered from what the first kept
        for history in histories:
            for played in range(4):
                found = orbits.canonical(history, played, solver.game, expected)
                for kept in (roomy, one_slot):
                    out[:] = -1
                    assert orbits.canonical_kept(history, played, solver.game, out, kept) == found
                    assert np.array_equal(out[:found], expected[:found])

"""The lookahead kernel against its numpy definition (partitions.fewest_totals)."""

import numpy as np
import pytest

from evo_mastermind.codes import CodeSpace
from evo_mastermind.evolution.choice import RemainingGuesses
from evo_mastermind.kernels.lookahead import fewest_totals
from evo_mastermind.partitions import fewest_totals as numpy_fewest_totals
from evo_mastermind.scoring import response_matrix


@pytest.mark.parametrize(("pegs", "colors"), [(4, 6), (5, 8), (8, 12)])
@pytest.mark.parametrize("scale", [1.0, 37.5])
def test_fewest_totals_match_the_numpy_definition(pegs: int, colors: int, scale: float) -> None:
    space = CodeSpace(pegs, colors)
    rng = np.random.default_rng(pegs * colors)
    candidates = space.sample(rng, 300)
    guesses = np.concatenate([candidates, space.sample(rng, 200)])
    responses = response_matrix(guesses, candidates, colors)
    n_responses = (pegs + 1) ** 2
    win = pegs * (pegs + 1)
    totals = RemainingGuesses().totals(np.arange(candidates.shape[0] + 1) * scale)
    for size in (3, 40, 300):
        members = np.sort(rng.choice(candidates.shape[0], size, replace=False)).astype(np.int64)
        for rows in (members, np.arange(guesses.shape[0], dtype=np.int64)):
            expected = numpy_fewest_totals(responses, rows, members, totals, n_responses, win)
            got = fewest_totals(responses, rows, members, totals, n_responses, win)
            assert got == pytest.approx(expected, rel=1e-12)

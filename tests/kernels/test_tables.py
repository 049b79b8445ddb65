"""The response tables' kernels: the multisets' bounds against every guess's exact score."""

import numpy as np
import pytest

from evo_mastermind.codes import CodeSpace
from evo_mastermind.kernels.choosing import space_multisets
from evo_mastermind.kernels.responses import columns, weight
from evo_mastermind.kernels.rules import REDUCTIONS, SCORE_TOLERANCE
from evo_mastermind.kernels.scoring import _clog_table, pool_scores
from evo_mastermind.kernels.tables import _multiset_bound, _split_tables
from evo_mastermind.scoring import indexed_scorer


@pytest.mark.parametrize("reduction", list(REDUCTIONS))
@pytest.mark.parametrize("game", [(4, 6), (5, 5)])
def test_no_guess_scores_above_its_multisets_bound(reduction: str, game: tuple[int, int]) -> None:
    space = CodeSpace(*game)
    scorer = indexed_scorer(space)
    multiset_of, multiset_counts = space_multisets(scorer.counts)
    every = np.arange(space.size)
    rng = np.random.default_rng(5)
    attained = 0
    for size in (3, 11, 40, 150, 600):
        candidates = np.sort(rng.choice(space.size, size, replace=False))
        scores, _ = pool_scores(
            scorer.codes, scorer.counts, every, candidates, (space.pegs + 1) ** 2, reduction
        )
        cand_pegs, cand_counts = columns(scorer.codes, scorer.counts, candidates)
        clog = _clog_table(size)
        scratch = np.empty(size, dtype=np.uint8)
        no_table = np.empty((0, 0), dtype=np.uint8)
        split = space.pegs // 2
        *_, common = _split_tables(
            cand_pegs, cand_counts, space.colors, split, multiset_counts, weight(space.pegs)
        )
        for row in range(multiset_counts.shape[0]):
            bound = _multiset_bound(
                row,
                cand_counts,
                multiset_counts,
                space.pegs,
                REDUCTIONS[reduction],
                clog,
                scratch,
                no_table,
            )
            # The same bound from the response tables' common colours.
            assert bound == _multiset_bound(
                row,
                cand_counts,
                multiset_counts,
                space.pegs,
                REDUCTIONS[reduction],
                clog,
                scratch,
                common,
            )
            best = scores[multiset_of == row].max()
            assert best <= bound + SCORE_TOLERANCE
            attained += bool(best >= bound - SCORE_TOLERANCE)
    # Tight for some multisets (all of them when every group of common colours is small).
    assert attained > 0

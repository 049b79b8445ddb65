"""The response tables' kernels: the multisets' bounds against every guess's exact score."""

import numpy as np
import pytest

from evo_mastermind.codes import CodeSpace
from evo_mastermind.kernels.choosing import space_multisets
from evo_mastermind.kernels.responses import columns, weight
from evo_mastermind.kernels.rules import REDUCTIONS, SCORE_TOLERANCE
from evo_mastermind.kernels.scoring import _clog_table, pool_scores
from evo_mastermind.kernels.tables import (
    _forced_classes,
    _multiset_bound,
    _pair_colours,
    _split_tables,
)
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


@pytest.mark.parametrize("reduction", list(REDUCTIONS))
@pytest.mark.parametrize("game", [(4, 6), (5, 5)])
def test_no_guess_scores_above_its_multisets_bound_with_forced_parts(
    reduction: str, game: tuple[int, int]
) -> None:
    """The bound joining the candidates a multiset's colours cannot tell apart holds too.

    On random candidate sets and on sets that answer alike to two guesses (as a tree's
    nodes do, where many pairs differ in a few colours only), it never falls below a
    guess's exact score, never rises above the plain bound, and is tighter for some.
    """
    space = CodeSpace(*game)
    scorer = indexed_scorer(space)
    multiset_of, multiset_counts = space_multisets(scorer.counts)
    every = np.arange(space.size)
    rng = np.random.default_rng(7)
    tighter = 0
    for size in (3, 6, 11, 20, 27):
        random_set = np.sort(rng.choice(space.size, size, replace=False))
        first, second = rng.choice(space.size, 2, replace=False)
        answers = scorer.responses(first, every).astype(np.int64) * 100 + scorer.responses(
            second, every
        )
        values, sizes = np.unique(answers, return_counts=True)
        alike = every[answers == values[np.argmin(np.abs(sizes - size))]]
        for candidates in (random_set, alike):
            m = candidates.size
            scores, _ = pool_scores(
                scorer.codes, scorer.counts, every, candidates, (space.pegs + 1) ** 2, reduction
            )
            cand_pegs, cand_counts = columns(scorer.codes, scorer.counts, candidates)
            clog = _clog_table(m)
            scratch = np.empty(m, dtype=np.uint8)
            pairs = _pair_colours(cand_pegs)
            order = np.empty(m, dtype=np.int64)
            ends = np.empty(m, dtype=np.int64)
            forced_sizes = np.empty((space.pegs + 1, m + 4), dtype=np.int64)
            no_table = np.empty((0, 0), dtype=np.uint8)
            for row in range(multiset_counts.shape[0]):
                colour_set = sum(1 << int(k) for k in np.flatnonzero(multiset_counts[row]))
                n_classes = _forced_classes(colour_set, pairs, order, ends)
                args = (row, cand_counts, multiset_counts, space.pegs, REDUCTIONS[reduction])
                plain = _multiset_bound(*args, clog, scratch, no_table)
                bound = _multiset_bound(
                    *args, clog, scratch, no_table, (order, ends, n_classes, forced_sizes)
                )
                best = scores[multiset_of == row].max()
                assert best <= bound + SCORE_TOLERANCE <= plain + 2 * SCORE_TOLERANCE
                tighter += bool(bound < plain - SCORE_TOLERANCE)
    assert tighter > 0

"""The one front door to the exhaustive engine: numpy definition or compiled kernel, decided here.

The exhaustive players and the decision trees call only this module. For every question
(the scores of a pool of guesses, the best guesses at a position, a whole subtree) it
decides once how to answer it:

* spaces with a response table (:data:`evo_mastermind.scoring.TABLE_LIMIT` codes) are
  answered by the numpy definitions (:mod:`evo_mastermind.partitions`), so a small game
  never waits for the compiler;
* larger spaces by the compiled kernels (:mod:`evo_mastermind.kernels`) when the heuristic
  has a compiled form (the built-ins);
* and a heuristic without one by the compiled partition counts
  (:func:`evo_mastermind.kernels.partition_counts`) scored by its numpy definition, a block
  of guesses at a time, with the same rules: the same guesses, more slowly.

Each way gives the same guesses (the tests hold the kernels to their definitions). A
heuristic comes as its :class:`~evo_mastermind.heuristics.Heuristic` object, looked up once
by the player that plays it, never by name here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from evo_mastermind.heuristics import Heuristic, Scores
from evo_mastermind.partitions import (
    PARTITION_BLOCK_CELLS,
    best_guesses,
    best_indices,
    partition_counts,
    prefer_consistent,
)
from evo_mastermind.partitions import fewest_totals as counted_fewest_totals
from evo_mastermind.scoring import IndexedScorer, Packed
from evo_mastermind.symmetry import CodeClasses, colour_classes

if TYPE_CHECKING:
    from evo_mastermind.kernels.trees import ClassTables

Indices = npt.NDArray[np.int64]

CLASSES_FROM = 2000
"""Consistent sets from this size are scored once per symmetry class (smaller: directly)."""

FEWEST_TOTALS_KERNEL_CELLS = 1 << 16
"""Responses from which the inner ply of the lookahead is counted by the kernel."""

POOL_BLOCK_PAIRS = 1 << 26
"""Guess-candidate pairs scored by one call of the compiled scoring (tens of milliseconds)."""


def position_classes(
    scorer: IndexedScorer, played: tuple[int, ...], consistent: Indices
) -> CodeClasses | None:
    """Classes of codes a position cannot tell apart (its unplayed and its zero colours).

    Args:
        scorer: the space's scorer.
        played: the indices of the guesses played so far.
        consistent: the indices of the codes still consistent.
    """
    colours = frozenset(scorer.codes[list(played)].ravel().tolist())
    present = scorer.counts[consistent].any(axis=0)
    zero = frozenset(np.flatnonzero(~present).tolist())
    return colour_classes(scorer.space, colours, zero)


def pool_scores(
    scorer: IndexedScorer,
    guesses: Indices,
    candidates: Indices,
    heuristic: Heuristic,
) -> Scores:
    """The heuristic's score of each guess (indices) over the candidates, higher is better."""
    if scorer.has_table:  # small games need no compiler
        return heuristic.scores(
            partition_counts(scorer.matrix(guesses, candidates), scorer.space.n_responses)
        )
    if heuristic.compiled is not None:
        from evo_mastermind.kernels.scoring import pool_scores as kernel_scores

        n_responses = scorer.space.n_responses
        codes, colours = scorer.codes, scorer.counts
        # Blocks of guesses (each scored alone): Ctrl-C and a time limit act between two.
        rows = max(1, POOL_BLOCK_PAIRS // max(1, candidates.size))
        blocks = [
            kernel_scores(
                codes, colours, guesses[at : at + rows], candidates, n_responses, heuristic.compiled
            )[0]
            for at in range(0, guesses.size, rows)
        ]
        return np.concatenate(blocks) if len(blocks) > 1 else (blocks[0] if blocks else np.empty(0))
    return _counted_scores(scorer, guesses, candidates, heuristic)


def _counted_scores(
    scorer: IndexedScorer, guesses: Indices, candidates: Indices, heuristic: Heuristic
) -> Scores:
    """Compiled partition counts scored by the numpy definition, a block of guesses at a time.

    Blocks keep the counts to :data:`~evo_mastermind.partitions.PARTITION_BLOCK_CELLS` cells.
    """
    from evo_mastermind.kernels.scoring import partition_counts as kernel_counts

    n_responses = scorer.space.n_responses
    rows = max(1, PARTITION_BLOCK_CELLS // n_responses)
    blocks = [
        heuristic.scores(
            kernel_counts(
                scorer.codes, scorer.counts, guesses[start : start + rows], candidates, n_responses
            )
        )
        for start in range(0, guesses.size, rows)
    ]
    return np.concatenate(blocks) if blocks else np.empty(0)


def best_guesses_at(
    scorer: IndexedScorer,
    consistent: Indices,
    played: tuple[int, ...],
    pool_all: bool,
    heuristic: Heuristic,
    first_only: bool,
) -> Indices:
    """Every best guess at a position, sorted (the first only if ``first_only``).

    The rules of :func:`evo_mastermind.partitions.best_guesses`: with two candidates or
    fewer every one is best; otherwise the pool (every code with ``pool_all``, else the
    consistent codes) is scored and the tied guesses kept, consistent ones first. Large
    pools are scored once per symmetry class (:func:`position_classes`).
    """
    if scorer.has_table:
        return best_guesses(scorer, consistent, pool_all, heuristic, first_only)
    classes = None
    if consistent.size > 2 and (pool_all or consistent.size >= CLASSES_FROM):
        classes = position_classes(scorer, played, consistent)
    if heuristic.compiled is not None:
        from evo_mastermind.kernels.choosing import choose

        if classes is None:
            every = np.arange(scorer.space.size, dtype=np.int64)  # every code its own class
            groups, class_columns = (every, every), scorer.columns
        else:
            groups, class_columns = (classes.representatives, classes.of_code), None
        codes, counts = scorer.codes, scorer.counts
        return choose(
            codes,
            counts,
            consistent,
            groups,
            pool_all,
            heuristic.compiled,
            first_only,
            class_columns,
        )
    return _best_by_counts(scorer, consistent, classes, pool_all, heuristic, first_only)


def _best_by_counts(
    scorer: IndexedScorer,
    consistent: Indices,
    classes: CodeClasses | None,
    pool_all: bool,
    heuristic: Heuristic,
    first_only: bool,
) -> Indices:
    """:func:`best_guesses_at` for a heuristic without a compiled form (one guess a class)."""
    if consistent.size <= 2:
        return consistent[:1] if first_only else consistent
    if pool_all:
        if classes is None:
            every = np.arange(scorer.space.size, dtype=np.int64)
            scores = _counted_scores(scorer, every, consistent, heuristic)
        else:
            by_class = _counted_scores(scorer, classes.representatives, consistent, heuristic)
            scores = by_class[classes.of_code]
        tied = prefer_consistent(best_indices(scores), consistent)
    else:
        scores = once_per_class(
            consistent,
            classes,
            lambda guesses: _counted_scores(scorer, guesses, consistent, heuristic),
        )
        tied = consistent[best_indices(scores)]
    return tied[:1] if first_only else tied


def once_per_class(
    consistent: Indices, classes: CodeClasses | None, score: Callable[[Indices], Scores]
) -> Scores:
    """The consistent codes' scores, ``score`` called on one code of each class.

    A class is consistent as a whole, and the consistent codes are sorted, so each
    class's first consistent member is its representative.
    """
    if classes is None:
        return score(consistent)
    _, first, of_class = np.unique(
        classes.of_code[consistent], return_index=True, return_inverse=True
    )
    return score(consistent[first])[of_class.ravel()]


def can_grow_trees(heuristic: Heuristic) -> bool:
    """Whether :func:`grow_tree` can grow this heuristic's trees (it has a compiled form)."""
    return heuristic.compiled is not None


def grow_tree(
    scorer: IndexedScorer,
    candidates: Indices,
    played: int,
    depth: int,
    first: int,
    pool_all: bool,
    heuristic: Heuristic,
    max_depth: int,
    tables: ClassTables | None = None,
) -> tuple[Indices, Indices, Indices, Indices, Indices]:
    """A subtree of a partition player with lexicographic ties, grown by the kernel.

    See :func:`evo_mastermind.kernels.grow_tree` for the arguments and the arrays returned;
    a thread growing several subtrees passes them the same ``tables``
    (:func:`subtree_tables`), so that each list of class representatives is made once.

    Raises:
        ValueError: the heuristic has no compiled form (:func:`can_grow_trees`).
    """
    from evo_mastermind.kernels.trees import grow_tree as kernel_tree

    reduction = heuristic.compiled
    if reduction is None:
        raise ValueError(f"heuristic {heuristic.name!r} has no compiled form to grow trees with")
    return kernel_tree(
        scorer.codes,
        scorer.counts,
        scorer.space.place_values,
        candidates,
        played,
        depth,
        first,
        pool_all,
        reduction,
        CLASSES_FROM,
        max_depth,
        tables,
    )


def subtree_tables() -> ClassTables:
    """Empty class tables, for one thread to pass to every subtree it grows (:func:`grow_tree`)."""
    from evo_mastermind.kernels.trees import class_tables

    return class_tables()


def fewest_totals(
    responses: Packed,
    rows: Indices,
    members: Indices,
    totals: npt.NDArray[np.float64],
    n_responses: int,
    win: int,
) -> float:
    """The least summed part totals of ``members`` over the guesses ``rows`` (the lookahead).

    The numpy definition (:func:`evo_mastermind.partitions.fewest_totals`) for small parts,
    the kernel (:func:`evo_mastermind.kernels.lookahead.fewest_totals`) from
    :data:`FEWEST_TOTALS_KERNEL_CELLS` responses on.
    """
    if rows.size * members.size < FEWEST_TOTALS_KERNEL_CELLS:
        return counted_fewest_totals(responses, rows, members, totals, n_responses, win)
    from evo_mastermind.kernels.lookahead import fewest_totals as kernel_fewest_totals

    return kernel_fewest_totals(responses, rows, members, totals, n_responses, win)

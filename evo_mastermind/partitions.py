"""Partitions of a candidate set by a guess, and the readable definition of a best guess.

The heuristics that score a partition are the table of :mod:`evo_mastermind.heuristics`
(every score oriented so that *higher is better*). The tie rules every exhaustive player
follows are written here once: :func:`best_indices` (scores within
:data:`SCORE_TOLERANCE` of the best tie) and :func:`prefer_consistent` (consistent codes
win ties).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from evo_mastermind.codes import Codes, color_counts
from evo_mastermind.heuristics import Counts, Heuristic, Scores
from evo_mastermind.kernels.rules import SCORE_TOLERANCE
from evo_mastermind.scoring import IndexedScorer, Packed

Indices = npt.NDArray[np.int64]


def partition_counts(responses: Packed, n_responses: int) -> Counts:
    """Partition sizes: ``counts[g, r]`` = candidates that answer guess ``g`` with response ``r``.

    Args:
        responses: packed responses, shape ``(guesses, candidates)``, or one row.
        n_responses: the packed response range, ``(pegs + 1) ** 2``.
    """
    rows = np.atleast_2d(responses)
    keys = rows.astype(np.intp, order="C")
    keys += np.arange(0, rows.shape[0] * n_responses, n_responses, dtype=np.intp)[:, None]
    flat = np.bincount(keys.ravel(), minlength=rows.shape[0] * n_responses)
    return flat.reshape(rows.shape[0], n_responses)


def fewest_totals(
    responses: Packed,
    rows: Indices,
    members: Indices,
    totals: npt.NDArray[np.float64],
    n_responses: int,
    win: int,
) -> float:
    """The least summed ``totals[part size]`` of the parts guesses ``rows`` cut ``members`` into.

    Args:
        responses: packed responses, guesses (rows) against candidates (columns).
        rows: the guesses to try.
        members: the candidates (columns) to partition.
        totals: ``totals[k]``, what a part of ``k`` candidates costs (``totals[0] == 0``).
        n_responses: the packed response range, ``(pegs + 1) ** 2``.
        win: the packed response of a guess that is the secret (its part costs nothing).
    """
    counts = partition_counts(responses[rows][:, members], n_responses)
    costs = totals[counts]
    costs[:, win] = 0.0
    return float(costs.sum(axis=1).min())


PARTITION_BLOCK_CELLS = 1 << 24
"""Responses held at once when partitioning a large set (16 M cells: tens of MB, not GB)."""


def local_entropy(candidates: Codes, played: Codes, colors: int) -> Scores:
    """Local entropy (Runarsson & Merelo 2009, eq. 3) of each candidate joined to the played codes.

    ``s(c) = Σ_g (#g / ((n+1)ℓ)) log2((n+1)ℓ / #g)`` over the symbols g of the candidate and
    the n codes played so far.
    """
    candidates = np.atleast_2d(candidates)
    pegs = candidates.shape[1]
    played_counts = np.bincount(np.asarray(played, dtype=np.int64).ravel(), minlength=colors)
    counts = color_counts(candidates, colors).astype(np.int64) + played_counts[None, :]
    length = float((len(played) + 1) * pegs)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(counts > 0, counts / length * np.log2(length / np.maximum(counts, 1)), 0.0)
    return terms.sum(axis=1)


def best_indices(scores: Scores) -> Indices:
    """Positions of every score tied with the best (within :data:`SCORE_TOLERANCE`)."""
    return np.flatnonzero(scores >= scores.max() - SCORE_TOLERANCE)


def prefer_consistent(tied: Indices, consistent: Indices) -> Indices:
    """Consistent codes win ties: the tied guesses that are consistent, else every tied guess.

    Args:
        tied: the tied best guesses (code indices), in the order they are kept.
        consistent: the indices of the codes still consistent, sorted.
    """
    # Sorted, so membership is a binary search.
    at = np.minimum(np.searchsorted(consistent, tied), consistent.size - 1)
    inside = tied[consistent[at] == tied]
    return inside if inside.size else tied


def best_guesses(
    scorer: IndexedScorer,
    candidates: Indices,
    pool_all: bool,
    heuristic: Heuristic,
    first_only: bool,
) -> Indices:
    """Every best guess of a partition player at a position, sorted (or only the first).

    The readable definition that :func:`evo_mastermind.kernels.choose` computes faster
    (for heuristics with a compiled form):
    with two candidates or fewer every one is best; otherwise every guess of the pool (every
    code, or the candidates, sorted) is scored under ``heuristic`` and the tied ones kept,
    consistent ones winning ties (:func:`prefer_consistent`) when the pool is every code.
    Spaces with a response table are played with this (no compiler to start); the tests
    hold the kernel to it.
    """
    if candidates.size <= 2:
        return candidates[:1] if first_only else candidates
    guesses = np.arange(scorer.space.size, dtype=np.int64) if pool_all else candidates
    counts = partition_counts(scorer.matrix(guesses, candidates), scorer.space.n_responses)
    tied = guesses[best_indices(heuristic.scores(counts))]
    if pool_all:
        tied = prefer_consistent(tied, candidates)
    return tied[:1] if first_only else tied

"""Partitions of a candidate set by a guess, and the readable definition of a best guess.

The heuristics that score a partition are the table of :mod:`evo_mastermind.heuristics`
(every score oriented so that *higher is better*); the built-ins' definitions are
re-exported here, where they used to live.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from evo_mastermind.codes import Codes, color_counts
from evo_mastermind.heuristics import (
    Counts,
    Heuristic,
    Scores,
    entropy_score,
    expected_size_score,
    known_heuristic,
    most_parts_score,
    worst_case_score,
)
from evo_mastermind.kernels.rules import SCORE_TOLERANCE
from evo_mastermind.scoring import IndexedScorer, Packed

__all__ = [
    "PARTITION_BLOCK_CELLS",
    "SCORE_TOLERANCE",
    "Counts",
    "Scores",
    "best_guesses",
    "best_indices",
    "entropy_score",
    "expected_size_score",
    "local_entropy",
    "most_parts_score",
    "partition_counts",
    "scored_partition_counts",
    "worst_case_score",
]


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
    rows: npt.NDArray[np.int64],
    members: npt.NDArray[np.int64],
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


def scored_partition_counts(
    scorer: IndexedScorer,
    guesses: npt.NDArray[np.int64] | None,
    candidates: npt.NDArray[np.int64],
    n_responses: int,
) -> Counts:
    """:func:`partition_counts` of guesses (indices; ``None`` for every code) against candidates.

    The responses are computed a block of guesses at a time, so memory stays bounded when
    both sets are large (e.g. 96,900 consistent codes after one guess on (6,9)).
    """
    n_guesses = scorer.space.size if guesses is None else guesses.size
    rows = max(1, PARTITION_BLOCK_CELLS // max(1, candidates.size))
    if n_guesses <= rows:
        return partition_counts(scorer.matrix(guesses, candidates), n_responses)
    everything = np.arange(n_guesses, dtype=np.int64) if guesses is None else guesses
    return np.concatenate(
        [
            partition_counts(
                scorer.matrix(everything[start : start + rows], candidates), n_responses
            )
            for start in range(0, n_guesses, rows)
        ]
    )


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


def best_indices(scores: Scores) -> npt.NDArray[np.int64]:
    """Positions of every score tied with the best (within :data:`SCORE_TOLERANCE`)."""
    return np.flatnonzero(scores >= scores.max() - SCORE_TOLERANCE)


def best_guesses(
    scorer: IndexedScorer,
    candidates: npt.NDArray[np.int64],
    pool_all: bool,
    heuristic: str | Heuristic,
    first_only: bool,
) -> npt.NDArray[np.int64]:
    """Every best guess of a partition player at a position, sorted (or only the first).

    The readable definition that :func:`evo_mastermind.kernels.choose` computes faster
    (for heuristics with a compiled form):
    with two candidates or fewer every one is best; otherwise every guess of the pool (every
    code, or the candidates) is scored under ``heuristic`` and the tied ones kept,
    consistent ones first when the pool is every code. Spaces with a response table are
    played with this (no compiler to start); the tests hold the kernel to it.
    """
    if candidates.size <= 2:
        return candidates[:1] if first_only else candidates
    guesses = np.arange(scorer.space.size, dtype=np.int64) if pool_all else candidates
    counts = partition_counts(scorer.matrix(guesses, candidates), scorer.space.n_responses)
    tied = guesses[best_indices(known_heuristic(heuristic).scores(counts))]
    if pool_all:
        inside = tied[np.isin(tied, candidates, assume_unique=True)]
        tied = inside if inside.size else tied
    return tied[:1] if first_only else tied

"""Scanning kernel: a pool of guesses scored in blocks, with the bounds that skip guesses.

:func:`~evo_mastermind.kernels.choosing._choose` scores its pool through
:func:`_score_until_stopped` (blocks between two reads of the stop flag) or
:func:`_score_range` (one stretch): from the response tables when it has them
(:mod:`evo_mastermind.kernels.tables`), else from the guesses' columns
(:mod:`evo_mastermind.kernels.scoring`), a guess skipped when its multiset of colours bounds
its score below the best met so far.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from evo_mastermind.kernels.rules import SCORE_TOLERANCE
from evo_mastermind.kernels.scoring import GUESS_BLOCK, _score_guesses
from evo_mastermind.kernels.stopping import stopped
from evo_mastermind.kernels.tables import _multiset_bound, _score_tabled_serial

BOUNDED_CHUNK = 1024
"""Pool guesses filtered by their multisets' bounds at a time (the best score read between)."""

GROUPED_CHUNK = 128
"""Codes of a multiset scored at a time: between two, the rest may be found unable to win."""

STOP_PAIRS = 1 << 22
"""Guess-candidate pairs scored between two reads of the stop flag (a few milliseconds)."""


@njit(cache=True, nogil=True)
def _score_until_stopped(
    pool_pegs: npt.NDArray[np.uint8],
    pool_counts: npt.NDArray[np.uint8],
    start: int,
    stop: int,
    cand_pegs: npt.NDArray[np.uint8],
    cand_counts: npt.NDArray[np.uint8],
    n_responses: int,
    heuristic: int,
    clog: npt.NDArray[np.float64],
    weight: npt.NDArray[np.unsignedinteger],
    scores: npt.NDArray[np.float64],
    parts: npt.NDArray[np.int64],
    floor: npt.NDArray[np.float64],
    halt: npt.NDArray[np.uint8],
    tables: tuple[
        npt.NDArray[np.int64],
        npt.NDArray[np.unsignedinteger],
        npt.NDArray[np.unsignedinteger],
        npt.NDArray[np.unsignedinteger],
        npt.NDArray[np.int64],
        npt.NDArray[np.uint8],
        npt.NDArray[np.float64],
    ],
) -> bool:
    """:func:`_score_range` of ``start:stop`` block by block; ``False`` if ``halt`` stopped it.

    Blocks are whole multiples of the scoring's own blocks of guesses, and the best score
    goes from one to the next in ``floor``: the scores are those of one call.
    """
    m = max(1, cand_pegs.shape[1])
    block = max(1, STOP_PAIRS // m // GUESS_BLOCK) * GUESS_BLOCK
    at = start
    while at < stop:
        if stopped(halt):
            return False
        end = min(at + block, stop)
        _score_range(
            pool_pegs,
            pool_counts,
            at,
            end,
            cand_pegs,
            cand_counts,
            n_responses,
            heuristic,
            clog,
            weight,
            scores,
            parts,
            floor,
            tables,
        )
        at = end
    return True


@njit(cache=True, nogil=True)
def _score_range(
    pool_pegs: npt.NDArray[np.uint8],
    pool_counts: npt.NDArray[np.uint8],
    start: int,
    stop: int,
    cand_pegs: npt.NDArray[np.uint8],
    cand_counts: npt.NDArray[np.uint8],
    n_responses: int,
    heuristic: int,
    clog: npt.NDArray[np.float64],
    weight: npt.NDArray[np.unsignedinteger],
    scores: npt.NDArray[np.float64],
    parts: npt.NDArray[np.int64],
    floor: npt.NDArray[np.float64],
    tables: tuple[
        npt.NDArray[np.int64],
        npt.NDArray[np.unsignedinteger],
        npt.NDArray[np.unsignedinteger],
        npt.NDArray[np.unsignedinteger],
        npt.NDArray[np.int64],
        npt.NDArray[np.uint8],
        npt.NDArray[np.float64],
    ],
) -> None:
    """:func:`_score_guesses` of the pool's guesses ``start:stop`` (or from tables).

    ``tables`` holds the pool's code indices, the response tables (:func:`_split_tables`;
    empty: none), each code's multiset, each multiset's colour counts and each multiset's
    bound (:func:`_multiset_bound`, computed when first needed: NaN until then; empty: no
    bounds). From the tables when there are any: the same scores and parts. With the
    bounds, a guess whose multiset cannot reach the best score met so far is not scored
    (minus infinity, no parts): the others are gathered a chunk at a time and scored.
    """
    pool, head, tail, common, multiset_of, multiset_counts, bounds = tables
    if bounds.size == 0:
        _score_all(
            pool_pegs,
            pool_counts,
            start,
            stop,
            cand_pegs,
            cand_counts,
            n_responses,
            heuristic,
            clog,
            weight,
            scores,
            parts,
            floor,
            tables,
        )
        return
    chunk = max(1, min(BOUNDED_CHUNK, stop - start))
    where = np.empty(chunk, dtype=np.int64)
    kept_pool = np.empty(chunk, dtype=np.int64)
    tabled = head.shape[0] > 0
    width = 0 if tabled else chunk
    kept_pegs = np.empty((pool_pegs.shape[0], width), dtype=np.uint8)
    kept_counts = np.empty((pool_counts.shape[0], width), dtype=np.uint8)
    kept_scores = np.empty(chunk)
    kept_parts = np.empty(chunk, dtype=np.int64)
    kept_tables = (kept_pool, head, tail, common, multiset_of, multiset_counts, bounds[:0])
    pegs = cand_pegs.shape[0]
    scratch = np.empty(cand_pegs.shape[1], dtype=np.uint8)
    for first in range(start, stop, chunk):
        limit = floor[0] - floor[1]
        n_kept = 0
        for at in range(first, min(first + chunk, stop)):
            row = multiset_of[pool[at]]
            bound = bounds[row]
            if np.isnan(bound):
                bound = _multiset_bound(
                    row, cand_counts, multiset_counts, pegs, heuristic, clog, scratch, common
                )
                bounds[row] = bound
            if bound < limit:
                scores[at] = -np.inf
                parts[at] = 0
            else:
                where[n_kept] = at
                n_kept += 1
        if n_kept == 0:
            continue
        for i in range(n_kept):
            kept_pool[i] = pool[where[i]]
        if not tabled:
            for i in range(n_kept):
                for p in range(pool_pegs.shape[0]):
                    kept_pegs[p, i] = pool_pegs[p, where[i]]
                for k in range(pool_counts.shape[0]):
                    kept_counts[k, i] = pool_counts[k, where[i]]
        _score_all(
            kept_pegs,
            kept_counts,
            0,
            n_kept,
            cand_pegs,
            cand_counts,
            n_responses,
            heuristic,
            clog,
            weight,
            kept_scores,
            kept_parts,
            floor,
            kept_tables,
        )
        for i in range(n_kept):
            scores[where[i]] = kept_scores[i]
            parts[where[i]] = kept_parts[i]


@njit(cache=True, nogil=True)
def _score_all(
    pool_pegs: npt.NDArray[np.uint8],
    pool_counts: npt.NDArray[np.uint8],
    start: int,
    stop: int,
    cand_pegs: npt.NDArray[np.uint8],
    cand_counts: npt.NDArray[np.uint8],
    n_responses: int,
    heuristic: int,
    clog: npt.NDArray[np.float64],
    weight: npt.NDArray[np.unsignedinteger],
    scores: npt.NDArray[np.float64],
    parts: npt.NDArray[np.int64],
    floor: npt.NDArray[np.float64],
    tables: tuple[
        npt.NDArray[np.int64],
        npt.NDArray[np.unsignedinteger],
        npt.NDArray[np.unsignedinteger],
        npt.NDArray[np.unsignedinteger],
        npt.NDArray[np.int64],
        npt.NDArray[np.uint8],
        npt.NDArray[np.float64],
    ],
) -> None:
    """:func:`_score_range` of every guess ``start:stop``, the multisets' bounds unread."""
    pool, head, tail, common, multiset_of, _, _ = tables
    if head.shape[0]:
        _score_tabled_serial(
            pool,
            start,
            stop,
            head,
            tail,
            common,
            multiset_of,
            n_responses,
            heuristic,
            clog,
            scores,
            parts,
            floor,
        )
    else:
        _score_guesses(
            pool_pegs,
            pool_counts,
            start,
            stop,
            cand_pegs,
            cand_counts,
            n_responses,
            heuristic,
            clog,
            weight,
            scores,
            parts,
            floor,
        )


@njit(cache=True, nogil=True)
def by_multiset(
    pool: npt.NDArray[np.int64], multiset_of: npt.NDArray[np.int64], n_multisets: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The pool's codes grouped by multiset of colours, each group in increasing order.

    Returns where each multiset's group starts (one more entry: the end) and the codes; a
    sorted ``pool`` keeps each group sorted (a counting sort).
    """
    start = np.zeros(n_multisets + 1, dtype=np.int64)
    for code in pool:
        start[multiset_of[code] + 1] += 1
    for row in range(n_multisets):
        start[row + 1] += start[row]
    at = start[:-1].copy()
    grouped = np.empty(pool.size, dtype=np.int64)
    for code in pool:
        row = multiset_of[code]
        grouped[at[row]] = code
        at[row] += 1
    return start, grouped


@njit(cache=True, nogil=True)
def _first_best_by_multiset(
    group_start: npt.NDArray[np.int64],
    grouped: npt.NDArray[np.int64],
    from_code: int,
    bounds: npt.NDArray[np.float64],
    tables: tuple[
        npt.NDArray[np.unsignedinteger],
        npt.NDArray[np.unsignedinteger],
        npt.NDArray[np.unsignedinteger],
        npt.NDArray[np.int64],
    ],
    n_responses: int,
    heuristic: int,
    clog: npt.NDArray[np.float64],
    best: float,
    best_code: int,
    halt: npt.NDArray[np.uint8],
) -> tuple[int, float]:
    """The first best guess among the pool's codes from ``from_code`` on, multiset by multiset.

    ``group_start`` and ``grouped`` are the pool by multiset (:func:`by_multiset`),
    ``bounds`` every multiset's bound (:func:`_multiset_bound`), ``tables`` the response
    tables and each code's multiset. ``best`` is the best score met so far and
    ``best_code`` the first code reaching it (-1: a consistent code, which wins ties).
    The multisets are taken best bound first (then the first met in order), so that the
    best is met early and most multisets are never read: one whose bound is below the best
    ends the scan, one whose bound only ties it is read only for codes before the best
    code (a chunk at a time, :data:`GROUPED_CHUNK`: left as soon as the rest cannot win).
    Returns the first best code (-1: still a consistent code) and its score; stopped
    by ``halt``, what it had met.
    """
    head, tail, common, multiset_of = tables
    # Only the multisets that can reach the best met so far, with codes left, are ordered.
    kept = np.empty(bounds.size, dtype=np.int64)
    low = np.empty(bounds.size, dtype=np.int64)
    firsts = np.empty(bounds.size, dtype=np.int64)
    n_kept = 0
    for row in range(bounds.size):
        if bounds[row] < best - SCORE_TOLERANCE:
            continue
        begin, end = group_start[row], group_start[row + 1]
        if from_code > 0:
            begin += np.searchsorted(grouped[begin:end], from_code)
        if begin == end:
            continue
        kept[n_kept] = row
        low[row] = begin
        firsts[n_kept] = grouped[begin]
        n_kept += 1
    by_first = np.argsort(firsts[:n_kept], kind="mergesort")
    by_first_bounds = np.empty(n_kept)
    for i in range(n_kept):
        by_first_bounds[i] = -bounds[kept[by_first[i]]]
    order = kept[by_first[np.argsort(by_first_bounds, kind="mergesort")]]
    scores = np.empty(GROUPED_CHUNK)  # a chunk's scores at a time
    parts = np.empty(GROUPED_CHUNK, dtype=np.int64)
    floor = np.empty(2)
    for i in range(n_kept):
        row = order[i]
        if bounds[row] < best - SCORE_TOLERANCE:
            break  # every later multiset's bound is lower still
        if i % 64 == 0 and stopped(halt):
            break
        at, end = low[row], group_start[row + 1]
        while at < end:
            if best_code < 0 or grouped[at] > best_code:
                if bounds[row] <= best + SCORE_TOLERANCE:
                    break  # the rest can at best tie a code that wins ties over them
                slack = -SCORE_TOLERANCE  # from here on, a code must beat the best
                stop = min(at + GROUPED_CHUNK, end)
            else:
                slack = SCORE_TOLERANCE  # a code before the best code wins a tie
                stop = at + np.searchsorted(grouped[at : min(at + GROUPED_CHUNK, end)], best_code)
            floor[0] = best
            floor[1] = slack
            _score_tabled_serial(
                grouped[at:stop],
                0,
                stop - at,
                head,
                tail,
                common,
                multiset_of,
                n_responses,
                heuristic,
                clog,
                scores,
                parts,
                floor,
            )
            for k in range(stop - at):
                code = grouped[at + k]
                if scores[k] > best + SCORE_TOLERANCE:
                    best = scores[k]
                    best_code = code
                elif scores[k] >= best - SCORE_TOLERANCE and 0 <= code < best_code:
                    best_code = code
            at = stop
    return best_code, best

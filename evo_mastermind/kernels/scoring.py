"""Scoring kernels: a pool of guesses' partitions of the candidates, counted or scored.

:func:`pool_scores` scores a pool of guesses against a candidate set: for every guess the
response to every candidate, the partition counted, reduced to a score by one of the
:data:`~evo_mastermind.kernels.rules.REDUCTIONS` (oriented higher-is-better, as the numpy
definitions of :mod:`evo_mastermind.partitions`). Guesses and candidates are laid out peg by
peg and colour by colour (:mod:`~evo_mastermind.kernels.responses`), so blacks and common
colours are computed in byte-wide SIMD loops before the counting pass: along the candidates
for each guess, or, when the candidates are few, along a block of guesses for each
candidate. Large calls run on every core (``prange``). :func:`partition_counts` returns the
counts themselves, for heuristics that have no compiled reduction.
"""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt
from numba import njit, prange

from evo_mastermind.codes import Codes
from evo_mastermind.kernels.responses import _pack, columns, weight
from evo_mastermind.kernels.rules import REDUCTIONS, SCORE_TOLERANCE
from evo_mastermind.kernels.startup import call

SMALL_SET = 160
"""Candidate sets up to this size are scored a block of guesses at a time."""

GUESS_BLOCK = 256
"""Guesses scored together against a small candidate set (their responses stay in cache)."""

PARALLEL_PAIRS = 1 << 20
"""Guess-candidate pairs from which a call is spread over every core."""

KNOWN_PARTS = 4
"""The parts of this many first candidates are counted exactly to bound a guess's largest part."""

SCAN_PAIRS = 1 << 18
"""Guess-candidate pairs scored between two checks for a perfect splitter."""


@njit(cache=True, nogil=True, inline="always")
def _bits(word: np.uint64) -> int:
    """The number of bits set (a branch-free population count)."""
    word = word - ((word >> np.uint64(1)) & np.uint64(0x5555555555555555))
    word = (word & np.uint64(0x3333333333333333)) + (
        (word >> np.uint64(2)) & np.uint64(0x3333333333333333)
    )
    word = (word + (word >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return int((word * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True, nogil=True)
def new_floor() -> npt.NDArray[np.float64]:
    """A scan's floor: the best score met so far (none yet) and the slack below it.

    A guess is scored only if its bound reaches the best less the slack. While every best
    guess is wanted the slack is :data:`SCORE_TOLERANCE`, so that tied guesses are scored
    too; once only the first best is wanted and the guesses are met in order (the
    consistent codes, which win ties, scored apart), a caller sets it to minus the
    tolerance: a later guess must then beat the best to be chosen.
    """
    return np.array([-np.inf, SCORE_TOLERANCE])


@njit(cache=True, nogil=True, inline="always")
def _settled_by_parts(
    seen: np.uint64,
    heuristic: int,
    total: float,
    limit: float,
    scores: npt.NDArray[np.float64],
    parts: npt.NDArray[np.int64],
    at: int,
) -> bool:
    """Count guess ``at``'s parts from its responses' bits; ``True`` if that settles its score.

    Most parts' score is the count; a guess whose count bounds its score below ``limit``
    (:func:`new_floor`) scores minus infinity (it cannot be chosen).
    """
    parts[at] = _bits(seen)
    if heuristic == 1:
        scores[at] = float(parts[at])
        return True
    if _bound(heuristic, parts[at], total) < limit:
        scores[at] = -np.inf
        return True
    return False


@njit(cache=True, nogil=True, inline="always")
def _partition_score(
    heuristic: int, m: int, largest: int, n_parts: int, squares: int, logs: float
) -> float:
    """A heuristic's score of a partition of ``m`` codes, written once for every scorer.

    From its largest part, number of parts, sum of squared sizes and sum of
    ``size * log2(size)`` (entropy's only).
    """
    total = float(m)
    if heuristic == 0:
        return -float(largest)
    if heuristic == 1:
        return float(n_parts)
    if heuristic == 2:
        return -float(squares) / total
    return np.log2(total) - logs / total


@njit(cache=True, nogil=True, inline="always")
def _store_partition(
    scores: npt.NDArray[np.float64],
    parts: npt.NDArray[np.int64],
    at: int,
    packed: npt.NDArray[np.unsignedinteger],
    hist: npt.NDArray[np.int64],
    lanes: npt.NDArray[np.int64],
    heuristic: int,
    clog: npt.NDArray[np.float64],
) -> None:
    """Count the partition of one guess's packed responses and write its parts and score.

    Integer scores are summed over every response without branches (:func:`_store_counted`);
    entropy's float sum visits the parts in a fixed order (first reached, or by response).
    ``hist`` (one count per response) and ``lanes`` (four of them) are zeroed buffers, left
    zeroed.
    """
    m = packed.size
    n_parts = 0
    largest = 0
    squares = 0
    logs = 0.0
    if heuristic != 3:
        # Integer scores, the same whatever the order of the parts: counted without branches.
        for j in range(m):
            hist[packed[j]] += 1
        _store_counted(scores, parts, at, m, hist, heuristic)
        return
    if m < 2 * hist.size:
        # Few responses for the range: count, then visit and clear only what was touched.
        for j in range(m):
            hist[packed[j]] += 1
        for j in range(m):
            size = hist[packed[j]]
            if size > 0:
                hist[packed[j]] = 0
                n_parts += 1
                largest = max(largest, size)
                squares += size * size
                if heuristic == 3:
                    logs += clog[size]
    else:
        # Four interleaved histograms: consecutive equal responses do not stall.
        j = 0
        while j + 4 <= m:
            lanes[0, packed[j]] += 1
            lanes[1, packed[j + 1]] += 1
            lanes[2, packed[j + 2]] += 1
            lanes[3, packed[j + 3]] += 1
            j += 4
        while j < m:
            lanes[0, packed[j]] += 1
            j += 1
        for r in range(hist.size):
            size = lanes[0, r] + lanes[1, r] + lanes[2, r] + lanes[3, r]
            if size > 0:
                n_parts += 1
                largest = max(largest, size)
                squares += size * size
                if heuristic == 3:
                    logs += clog[size]
        lanes[:] = 0
    parts[at] = n_parts
    scores[at] = _partition_score(heuristic, m, largest, n_parts, squares, logs)


@njit(cache=True, nogil=True, inline="always")
def _store_counted(
    scores: npt.NDArray[np.float64],
    parts: npt.NDArray[np.int64],
    at: int,
    m: int,
    hist: npt.NDArray[np.int64],
    heuristic: int,
) -> None:
    """Write the parts and integer score (not entropy) of the partition counted in ``hist``.

    ``hist`` holds the part sizes of ``m`` codes, one per response; it is left zeroed.
    """
    n_parts = 0
    largest = 0
    squares = 0
    for r in range(hist.size):
        size = hist[r]
        n_parts += size > 0
        largest = max(largest, size)
        squares += size * size
        hist[r] = 0
    parts[at] = n_parts
    scores[at] = _partition_score(heuristic, m, largest, n_parts, squares, 0.0)


@njit(cache=True, nogil=True, inline="always")
def _first_parts_exceed(packed: npt.NDArray[np.unsignedinteger], cap: float) -> bool:
    """Whether the part of one of the first candidates (:data:`KNOWN_PARTS`) exceeds ``cap``.

    Their parts' sizes are counted along every response (a vectorised pass each): Knuth's
    largest part is at least each of them, so most guesses that cannot reach the best are
    told apart before their partition is counted.
    """
    n_first = min(KNOWN_PARTS, packed.size)
    k = 0
    while k < n_first and _part_size(packed, k) <= cap:
        k += 1
    return k < n_first


@njit(cache=True, nogil=True, inline="always")
def _part_size(packed: npt.NDArray[np.unsignedinteger], k: int) -> int:
    """The size of candidate ``k``'s part: the candidates answering as it does."""
    answer = packed[k]
    alike = 0
    for j in range(packed.size):
        alike += packed[j] == answer
    return alike


def _score_pool(
    pool_pegs: npt.NDArray[np.uint8],
    pool_counts: npt.NDArray[np.uint8],
    start: int,
    stop: int,
    cand_pegs: npt.NDArray[np.uint8],
    cand_counts: npt.NDArray[np.uint8],
    n_responses: int,
    heuristic: int,
    clog: npt.NDArray[np.float64],
    n_chunks: int,
    weight: npt.NDArray[np.unsignedinteger],
    scores: npt.NDArray[np.float64],
    parts: npt.NDArray[np.int64],
    floor: npt.NDArray[np.float64],
    prune: bool,
) -> None:
    """Score the guesses ``start:stop`` of a pool against the candidates.

    Guesses and candidates are given as columns (pegs and colour counts, see
    :func:`_columns`); ``scores`` and ``parts`` are indexed as the pool. With ``prune``, only
    the best guesses need exact scores: ``floor`` (:func:`new_floor`) holds a score some
    guess already reaches, raised as better ones are found, and the slack below it; a guess
    whose number of parts bounds its score below the floor less the slack scores minus
    infinity (it cannot be chosen). A serial call leaves the best score it found in
    ``floor[0]``.
    """
    pegs, m = cand_pegs.shape
    colors = cand_counts.shape[0]
    total = float(m)
    # One byte per packed response up to 15 pegs (16 ** 2 responses), two beyond.
    step = weight[0]
    # Up to 7 pegs a response fits a bit of one word: the number of parts is a popcount,
    # all that most parts needs and what bounds the other heuristics' scores.
    prune = prune and n_responses <= 64 and heuristic != 1
    bits = prune or (n_responses <= 64 and heuristic == 1)
    small = m <= SMALL_SET
    slack = floor[1]
    for chunk in prange(n_chunks):
        best = floor[0]
        # Buffers once per chunk of guesses, not once per guess.
        packed = np.empty(m, dtype=weight.dtype)
        hist = np.zeros(n_responses, dtype=np.int64)
        lanes = np.zeros((4, n_responses), dtype=np.int64)
        if small:
            # Few candidates: a block of guesses at a time, the SIMD passes running along
            # the guesses (one candidate's response to each guess of the block).
            block = np.empty((m, GUESS_BLOCK), dtype=weight.dtype)
            seen = np.empty(GUESS_BLOCK, dtype=np.uint64)
            # The block's guesses copied, so that the passes index from zero (SIMD loads).
            block_pegs = np.empty((pegs, GUESS_BLOCK), dtype=np.uint8)
            block_counts = np.empty((colors, GUESS_BLOCK), dtype=np.uint8)
            # The size of the part of each of the first candidates, for each guess (Knuth).
            known = np.empty((KNOWN_PARTS, GUESS_BLOCK), dtype=np.uint8)
            n_known = min(KNOWN_PARTS, m) if prune and heuristic == 0 else 0
            first_sizes = np.zeros(KNOWN_PARTS, dtype=np.int64)
            first_answers = np.zeros(KNOWN_PARTS, dtype=np.int64)
            for first in range(start + chunk * GUESS_BLOCK, stop, n_chunks * GUESS_BLOCK):
                size = min(GUESS_BLOCK, stop - first)
                for p in range(pegs):
                    block_pegs[p, :size] = pool_pegs[p, first : first + size]
                for k in range(colors):
                    block_counts[k, :size] = pool_counts[k, first : first + size]
                seen[:size] = 0
                for j in range(m):
                    x = cand_pegs[0, j]
                    for i in range(size):
                        block[j, i] = step * np.uint8(block_pegs[0, i] == x)
                    for p in range(1, pegs):
                        x = cand_pegs[p, j]
                        for i in range(size):
                            block[j, i] += step * np.uint8(block_pegs[p, i] == x)
                    for k in range(colors):
                        v = cand_counts[k, j]
                        if v == 0:
                            continue  # a colour the candidate lacks adds no common peg
                        for i in range(size):
                            block[j, i] += min(block_counts[k, i], v)
                    if bits:
                        for i in range(size):
                            seen[i] |= np.uint64(1) << np.uint64(block[j, i])
                for k in range(n_known):
                    known[k, :size] = 0
                    for j in range(m):
                        for i in range(size):
                            known[k, i] += np.uint8(block[j, i] == block[k, i])
                for i in range(size):
                    at = first + i
                    if bits:
                        limit = best - slack
                        if _settled_by_parts(seen[i], heuristic, total, limit, scores, parts, at):
                            best = max(
                                best, scores[at]
                            )  # most parts' score, the floor of its bounds
                            continue
                        if n_known:
                            for k in range(n_known):
                                first_sizes[k] = known[k, i]
                                first_answers[k] = block[k, i]
                            bound = _bound_known(
                                heuristic, parts[at], m, first_sizes, first_answers, n_known, clog
                            )
                            if bound < limit:
                                scores[at] = -np.inf
                                continue
                    if heuristic == 3:
                        for j in range(m):
                            packed[j] = block[j, i]
                        _store_partition(scores, parts, at, packed, hist, lanes, heuristic, clog)
                    else:
                        # Integer scores: counted straight from the block, summed branch-free.
                        for j in range(m):
                            hist[block[j, i]] += 1
                        _store_counted(scores, parts, at, m, hist, heuristic)
                    best = max(best, scores[at])
        else:
            for at in range(start + chunk, stop, n_chunks):
                _pack(pool_pegs, pool_counts, at, cand_pegs, cand_counts, step, packed)
                if prune and heuristic == 0 and _first_parts_exceed(packed, slack - best):
                    scores[at] = -np.inf
                    parts[at] = 0
                    continue
                if bits:
                    # Which responses occur, one bit each: most parts needs nothing more.
                    seen_here = np.uint64(0)
                    for j in range(m):
                        seen_here |= np.uint64(1) << np.uint64(packed[j])
                    limit = best - slack
                    if _settled_by_parts(seen_here, heuristic, total, limit, scores, parts, at):
                        best = max(best, scores[at])  # most parts' score, the floor of its bounds
                        continue
                _store_partition(scores, parts, at, packed, hist, lanes, heuristic, clog)
                best = max(best, scores[at])
        if n_chunks == 1:
            floor[0] = best


@njit(cache=True, nogil=True, inline="always")
def _bound(heuristic: int, n_parts: int, total: float) -> float:
    """The best score a partition of ``total`` codes into ``n_parts`` parts can have.

    Equal parts are best for every heuristic: the largest part is at least
    ``ceil(total / n_parts)``, the sum of squared sizes at least ``total ** 2 / n_parts``,
    and the entropy at most ``log2(n_parts)``.
    """
    if heuristic == 0:
        return -float(np.ceil(total / n_parts))
    if heuristic == 2:
        return -total / n_parts
    if heuristic == 3:
        return np.log2(float(n_parts))
    return float(n_parts)


@njit(cache=True, nogil=True, inline="always")
def _bound_known(
    heuristic: int,
    n_parts: int,
    m: int,
    sizes: npt.NDArray[np.int64],
    answers: npt.NDArray[np.int64],
    n_first: int,
    clog: npt.NDArray[np.float64],
) -> float:
    """The best score a partition of ``m`` codes into ``n_parts`` parts can have, some known.

    The first ``n_first`` candidates answered ``answers`` and their parts have ``sizes``
    (two alike answers: one part). The other parts share the rest of the codes, at best
    equally (the heuristics are convex in the sizes): the largest part is at least the
    largest known one and the rest's mean, the sum of squared sizes at least the known
    squares plus the rest's squared total over their number, and ``Σ c log2 c`` at least the
    known terms plus the rest's total times the log of its mean.
    """
    n_known = 0
    known_total = 0
    largest = 0
    squares = 0
    logs = 0.0
    for k in range(n_first):
        repeated = False
        for earlier in range(k):
            if answers[earlier] == answers[k]:
                repeated = True
        if repeated:
            continue
        size = sizes[k]
        n_known += 1
        known_total += size
        largest = max(largest, size)
        squares += size * size
        if heuristic == 3:
            logs += clog[size]
    rest = m - known_total
    others = n_parts - n_known
    total = float(m)
    if heuristic == 0:
        if others > 0:
            largest = max(largest, (rest + others - 1) // others)
        return -float(largest)
    if heuristic == 2:
        spread = float(rest) * float(rest) / float(others) if others > 0 else 0.0
        return -(float(squares) + spread) / total
    if others > 0 and rest > 0:
        logs += float(rest) * np.log2(float(rest) / float(others))
    return np.log2(total) - logs / total


_score_serial = njit(cache=True, nogil=True)(_score_pool)

_score_parallel = njit(cache=True, nogil=True, parallel=True)(_score_pool)


@njit(cache=True, nogil=True)
def _score_guesses(
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
) -> None:
    """Score the guesses ``start:stop`` on this thread, exactly only where best (``floor``).

    Choosing a guess stays on one thread: a tree grows several subtrees at once, a run
    plays several games at once, and a kernel that needs no thread pool loads at once.
    """
    _score_serial(
        pool_pegs,
        pool_counts,
        start,
        stop,
        cand_pegs,
        cand_counts,
        n_responses,
        heuristic,
        clog,
        1,
        weight,
        scores,
        parts,
        floor,
        True,
    )


@njit(cache=True, nogil=True)
def _clog_table(m: int) -> npt.NDArray[np.float64]:
    """``c * log2(c)`` for part sizes 0..m (entropy is ``log2 m - Σ c log2 c / m``)."""
    table = np.zeros(m + 1)
    for size in range(2, m + 1):
        table[size] = size * np.log2(size)
    return table


def pool_scores(
    codes: Codes,
    counts: npt.NDArray[np.uint8],
    guesses: npt.NDArray[np.int64],
    candidates: npt.NDArray[np.int64],
    n_responses: int,
    reduction: str,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """Partition score of each guess (indices into ``codes``) over the candidates.

    Args:
        codes: every code of the space, ``(n, pegs)`` bytes.
        counts: their colour counts, ``(n, colors)``.
        guesses: the indices of the guesses to score.
        candidates: the indices of the candidate codes.
        n_responses: the packed response range, ``(pegs + 1) ** 2``.
        reduction: a key of :data:`~evo_mastermind.kernels.rules.REDUCTIONS`.

    Returns:
        The scores (higher is better, as the numpy definitions of
        :mod:`evo_mastermind.partitions`) and the number of non-empty parts of each guess.
    """
    pool_pegs, pool_counts = columns(codes, counts, guesses)
    cand_pegs, cand_counts = columns(codes, counts, candidates)
    scores = np.empty(guesses.size)
    parts = np.empty(guesses.size, dtype=np.int64)
    clog = _clog_table(candidates.size) if reduction == "entropy" else np.zeros(1)
    kernel = _score_parallel if guesses.size * candidates.size >= PARALLEL_PAIRS else _score_serial
    call(
        kernel,
        pool_pegs,
        pool_counts,
        0,
        guesses.size,
        cand_pegs,
        cand_counts,
        n_responses,
        REDUCTIONS[reduction],
        clog,
        min(guesses.size, 64 * numba.get_num_threads()),
        weight(codes.shape[1]),
        scores,
        parts,
        new_floor(),
        False,
    )
    return scores, parts


def _count_parts(
    pool_pegs: npt.NDArray[np.uint8],
    pool_counts: npt.NDArray[np.uint8],
    cand_pegs: npt.NDArray[np.uint8],
    cand_counts: npt.NDArray[np.uint8],
    weight: npt.NDArray[np.unsignedinteger],
    n_chunks: int,
    out: npt.NDArray[np.int64],
) -> None:
    """``out[g, r]``: the candidates answering guess ``g`` of the pool with response ``r``.

    ``out`` is zeroed on entry; guesses and candidates are columns (:func:`_columns`).
    """
    m = cand_pegs.shape[1]
    step = weight[0]
    n_guesses = pool_pegs.shape[1]
    for chunk in prange(n_chunks):
        packed = np.empty(m, dtype=weight.dtype)
        for at in range(chunk, n_guesses, n_chunks):
            _pack(pool_pegs, pool_counts, at, cand_pegs, cand_counts, step, packed)
            for j in range(m):
                out[at, packed[j]] += 1


_count_serial = njit(cache=True, nogil=True)(_count_parts)
_count_parallel = njit(cache=True, nogil=True, parallel=True)(_count_parts)


def partition_counts(
    codes: Codes,
    counts: npt.NDArray[np.uint8],
    guesses: npt.NDArray[np.int64],
    candidates: npt.NDArray[np.int64],
    n_responses: int,
) -> npt.NDArray[np.int64]:
    """Partition sizes of each guess (indices) over the candidates, ``(guesses, n_responses)``.

    What :func:`evo_mastermind.partitions.partition_counts` of the guesses' responses defines,
    for heuristics with no compiled reduction: their numpy scores are computed from these.
    """
    pool_pegs, pool_counts = columns(codes, counts, guesses)
    cand_pegs, cand_counts = columns(codes, counts, candidates)
    out = np.zeros((guesses.size, n_responses), dtype=np.int64)
    kernel = _count_parallel if guesses.size * candidates.size >= PARALLEL_PAIRS else _count_serial
    n_chunks = max(1, min(guesses.size, 64 * numba.get_num_threads()))
    weights = weight(codes.shape[1])
    call(kernel, pool_pegs, pool_counts, cand_pegs, cand_counts, weights, n_chunks, out)
    return out

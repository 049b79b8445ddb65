"""Compiled kernels (Numba) for the exhaustive players on spaces too large for a response table.

Three layers, each the readable numpy definition's faster twin (the tests hold them to it):

* :func:`pool_scores` scores a pool of guesses against a candidate set: for every guess the
  response to every candidate, the partition counted, reduced to a heuristic score with the
  orientation of :mod:`evo_mastermind.partitions`. Guesses and candidates are laid out peg
  by peg and colour by colour (:func:`columns`), so blacks and common colours are computed
  in byte-wide SIMD loops before the counting pass: along the candidates for each guess,
  or, when the candidates are few, along a block of guesses for each candidate. Large
  calls run on every core (``prange``).
* :func:`choose` picks a partition player's best guesses at a position
  (:func:`evo_mastermind.partitions.best_guesses` is the definition), with the solver's
  shortcuts: one guess per symmetry class, consistent perfect splitters first, the scan
  stopped at the first perfect splitter, and a guess scored exactly only when its number of
  parts lets it reach the best score met so far.
* :func:`grow_tree` grows a whole subtree with :func:`choose`'s choices, for decision trees.

The kernels are compiled once per machine and cached beside this file (``cache=True``);
``make`` warms the cache after installing (:func:`warm`), and a first call that compiles
(or loads) for more than a second says so on stderr.
"""

from __future__ import annotations

import sys
import time
from typing import Any

import numba
import numpy as np
import numpy.typing as npt
from numba import njit, prange, types
from numba.typed import Dict

from evo_mastermind.codes import Codes


def _load_numpy_support_without_scipy() -> None:
    """Import Numba's numpy support with ``scipy.linalg`` hidden (0.2 s of start-up).

    Numba imports ``scipy.linalg`` the first time it loads a kernel, only to learn whether
    its inner products may call BLAS; no kernel here uses one. Hidden, the probe fails at
    once and Numba keeps its own loops for them; ``scipy.linalg`` imports as usual later.
    """
    if "scipy.linalg" in sys.modules or "numba.np.arraymath" in sys.modules:
        return  # already paid for, or the probe already ran
    sys.modules["scipy.linalg"] = None  # type: ignore[assignment]
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        del sys.modules["scipy.linalg"]


_load_numpy_support_without_scipy()

HEURISTICS = {"worst_case": 0, "most_parts": 1, "expected_size": 2, "entropy": 3}
"""Heuristic numbers understood by the kernels (scores oriented higher-is-better)."""

SMALL_SET = 64
"""Candidate sets up to this size are scored a block of guesses at a time."""

GUESS_BLOCK = 256
"""Guesses scored together against a small candidate set (their responses stay in cache)."""

PARALLEL_PAIRS = 1 << 20
"""Guess-candidate pairs from which a call is spread over every core."""

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

    ``hist`` (one count per response) and ``lanes`` (four of them) are zeroed buffers, left
    zeroed.
    """
    m = packed.size
    n_parts = 0
    largest = 0
    squares = 0
    logs = 0.0
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
    total = float(m)
    if heuristic == 0:
        scores[at] = -float(largest)
    elif heuristic == 1:
        scores[at] = float(n_parts)
    elif heuristic == 2:
        scores[at] = -float(squares) / total
    else:
        scores[at] = np.log2(total) - logs / total


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
    the best guesses need exact scores: ``floor[0]`` is a score some guess already reaches,
    raised as better ones are found; a guess whose number of parts bounds its score below it
    scores minus infinity (it can be neither best nor tied). A serial call leaves the best
    score it found in ``floor[0]``.
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
                for i in range(size):
                    at = first + i
                    if bits:
                        parts[at] = _bits(seen[i])
                        if heuristic == 1:
                            scores[at] = float(parts[at])
                            continue
                        if _bound(heuristic, parts[at], total) < best - SCORE_TOLERANCE:
                            scores[at] = -np.inf
                            continue
                    for j in range(m):
                        packed[j] = block[j, i]
                    _store_partition(scores, parts, at, packed, hist, lanes, heuristic, clog)
                    best = max(best, scores[at])
        else:
            for at in range(start + chunk, stop, n_chunks):
                # black * pegs + common = black * (pegs + 1) + white, in byte-wide SIMD passes.
                packed[:] = 0
                for p in range(pegs):
                    gp = pool_pegs[p, at]
                    for j in range(m):
                        packed[j] += step * np.uint8(cand_pegs[p, j] == gp)
                for k in range(colors):
                    gk = pool_counts[k, at]
                    if gk == 0:
                        continue  # a colour the guess lacks adds no common peg
                    for j in range(m):
                        packed[j] += min(cand_counts[k, j], gk)
                if bits:
                    # Which responses occur, one bit each: most parts needs nothing more.
                    seen_here = np.uint64(0)
                    for j in range(m):
                        seen_here |= np.uint64(1) << np.uint64(packed[j])
                    parts[at] = _bits(seen_here)
                    if heuristic == 1:
                        scores[at] = float(parts[at])
                        continue
                    if _bound(heuristic, parts[at], total) < best - SCORE_TOLERANCE:
                        scores[at] = -np.inf
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


SCORE_TOLERANCE = 1e-9
"""As :data:`evo_mastermind.partitions.SCORE_TOLERANCE`: closer scores are tied."""


@njit(cache=True, nogil=True)
def _columns(
    codes: npt.NDArray[np.uint8], counts: npt.NDArray[np.uint8], candidates: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """The candidates' pegs and colour counts as columns (the layout the scoring loops read)."""
    m = candidates.size
    cand_pegs = np.empty((codes.shape[1], m), dtype=np.uint8)
    cand_counts = np.empty((counts.shape[1], m), dtype=np.uint8)
    for j in range(m):
        c = candidates[j]
        for p in range(codes.shape[1]):
            cand_pegs[p, j] = codes[c, p]
        for k in range(counts.shape[1]):
            cand_counts[k, j] = counts[c, k]
    return cand_pegs, cand_counts


@njit(cache=True, nogil=True)
def _choose(
    codes: npt.NDArray[np.uint8],
    counts: npt.NDArray[np.uint8],
    candidates: npt.NDArray[np.int64],
    representatives: npt.NDArray[np.int64],
    of_code: npt.NDArray[np.int64],
    rep_pegs: npt.NDArray[np.uint8],
    rep_counts: npt.NDArray[np.uint8],
    pool_all: bool,
    heuristic: int,
    first_only: bool,
    n_responses: int,
    weight: npt.NDArray[np.unsignedinteger],
) -> npt.NDArray[np.int64]:
    """Every best guess of a partition player at a position, sorted (or only the first).

    ``candidates`` are the consistent codes (sorted); the pool is every code
    (``pool_all``: one per class, ``representatives[k]`` the first code of class ``k`` and
    ``of_code`` each code's class; ``rep_pegs``/``rep_counts`` are the representatives'
    columns) or the candidates themselves. With two candidates or
    fewer every one is best. A consistent perfect splitter (every candidate in a part of its
    own) attains the optimum of every heuristic, so those are the answer when there are
    any. Otherwise every guess of the pool is scored and the tied ones kept, consistent
    codes first when the pool is every code. Asked for the first only, the scan of the pool
    stops at its first perfect splitter (the first of its class is the class's
    representative, and no consistent code ties with it).
    """
    m = candidates.size
    if m <= 2:
        return candidates[:1].copy() if first_only else candidates.copy()
    cand_pegs, cand_counts = _columns(codes, counts, candidates)
    clog = _clog_table(m if heuristic == 3 else 0)
    floor = np.full(1, -np.inf)  # the best score met so far: worse guesses are not scored
    if not pool_all:
        if representatives.size == of_code.size:  # no two codes alike: score every candidate
            scores = np.empty(m)
            parts = np.empty(m, dtype=np.int64)
            _score_guesses(
                cand_pegs,
                cand_counts,
                0,
                m,
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
            return _tied(candidates, scores, first_only)
        # One guess per class; a class is consistent as a whole, so its first code is here.
        at_class = np.full(representatives.size, -1, dtype=np.int64)
        firsts = np.empty(m, dtype=np.int64)
        n_firsts = 0
        for j in range(m):
            k = of_code[candidates[j]]
            if at_class[k] < 0:
                at_class[k] = n_firsts
                firsts[n_firsts] = candidates[j]
                n_firsts += 1
        scores = np.empty(n_firsts)
        parts = np.empty(n_firsts, dtype=np.int64)
        first_pegs, first_counts = _columns(codes, counts, firsts[:n_firsts])
        _score_guesses(
            first_pegs,
            first_counts,
            0,
            n_firsts,
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
        every = np.empty(m)
        for j in range(m):
            every[j] = scores[at_class[of_code[candidates[j]]]]
        return _tied(candidates, every, first_only)
    if m <= n_responses:
        scores = np.empty(m)
        parts = np.empty(m, dtype=np.int64)
        _score_guesses(
            cand_pegs,
            cand_counts,
            0,
            m,
            cand_pegs,
            cand_counts,
            n_responses,
            1,
            clog,
            weight,
            scores,
            parts,
            np.full(1, -np.inf),
        )
        perfect = candidates[parts == m]
        if perfect.size:
            return perfect[:1].copy() if first_only else perfect
    n_pool = representatives.size
    scores = np.empty(n_pool)
    parts = np.empty(n_pool, dtype=np.int64)
    if first_only and m <= n_responses:
        # Blocks that double: an early splitter costs little, a whole scan few calls.
        start = 0
        block = 64
        largest = max(64, SCAN_PAIRS // m)
        while start < n_pool:
            stop = min(start + block, n_pool)
            _score_guesses(
                rep_pegs,
                rep_counts,
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
            for at in range(start, stop):
                if parts[at] == m:
                    return representatives[at : at + 1].copy()
            start = stop
            block = min(2 * block, largest)
    else:
        _score_guesses(
            rep_pegs,
            rep_counts,
            0,
            n_pool,
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
    threshold = scores.max() - SCORE_TOLERANCE
    # Consistent codes win ties: a class is consistent as a whole or not at all.
    inside = np.empty(m, dtype=np.int64)
    n_inside = 0
    for j in range(m):
        if scores[of_code[candidates[j]]] >= threshold:
            if first_only:
                return candidates[j : j + 1].copy()
            inside[n_inside] = candidates[j]
            n_inside += 1
    if n_inside:
        return inside[:n_inside].copy()
    if first_only:
        return _tied(representatives, scores, True)
    tied = np.empty(of_code.size, dtype=np.int64)
    n_tied = 0
    for code in range(of_code.size):
        if scores[of_code[code]] >= threshold:
            tied[n_tied] = code
            n_tied += 1
    return tied[:n_tied].copy()


@njit(cache=True, nogil=True)
def _tied(
    guesses: npt.NDArray[np.int64], scores: npt.NDArray[np.float64], first_only: bool
) -> npt.NDArray[np.int64]:
    """The guesses scoring within the tolerance of the best (the first of them only)."""
    threshold = scores.max() - SCORE_TOLERANCE
    tied = guesses[scores >= threshold]
    return tied[:1].copy() if first_only else tied


@njit(cache=True, nogil=True)
def _longer(array: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The array copied into one twice as long (the rest unset)."""
    longer = np.empty(2 * array.size, dtype=array.dtype)
    longer[: array.size] = array
    return longer


@njit(cache=True, nogil=True)
def _grow_tree(
    codes: npt.NDArray[np.uint8],
    counts: npt.NDArray[np.uint8],
    place_values: npt.NDArray[np.int64],
    candidates: npt.NDArray[np.int64],
    played: int,
    depth: int,
    first: int,
    pool_all: bool,
    heuristic: int,
    classes_from: int,
    max_depth: int,
    weight: npt.NDArray[np.unsignedinteger],
) -> tuple[
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
]:
    """The subtree of a partition player with lexicographic ties, grown depth first.

    The subtree's root is reached after guesses using the colours of bitmask ``played``
    with the sorted ``candidates`` consistent, its guess being the game's ``depth``-th and
    ``first`` if that is not negative (a player's own first guess). Each
    node's codes are a sorted slice of one array, split in place by their responses (a
    stable counting sort keeps every part sorted). A node's guess is :func:`_choose`'s
    first, with the classes of codes its history cannot tell apart (unplayed and zero
    colours, cached by which colours those are).

    Returns:
        Each node's guess, parent (-1 for the root) and response from its parent (siblings
        are numbered in increasing order of response), then each secret and the number of
        guesses its game needed; an empty guess array when a game would need more than
        ``max_depth``.
    """
    n, pegs = codes.shape
    colors = counts.shape[1]
    n_responses = (pegs + 1) * (pegs + 1)
    win = pegs * (pegs + 1)
    colour_mask = np.zeros(n, dtype=np.int64)
    for i in range(n):
        for p in range(pegs):
            colour_mask[i] |= 1 << codes[i, p]
    everything = np.arange(n, dtype=np.int64)
    every_pegs, every_counts = _columns(codes, counts, everything)
    cached_firsts = Dict.empty(key_type=types.int64, value_type=types.int64[:])
    cached_classes = Dict.empty(key_type=types.int64, value_type=types.int64[:])
    cached_pegs = Dict.empty(key_type=types.int64, value_type=types.uint8[:, ::1])
    cached_counts = Dict.empty(key_type=types.int64, value_type=types.uint8[:, ::1])
    cache_limit = max(16, (1 << 25) // n)  # half a gigabyte of class tables at most
    kind = np.empty(colors, dtype=np.int64)
    class_of = np.empty(n, dtype=np.int64)
    class_first = np.empty(n, dtype=np.int64)

    size = candidates.size
    secrets = candidates.copy()
    sorted_part = np.empty(size, dtype=np.int64)
    answers = np.empty(size, dtype=np.int64)
    won = np.empty(size, dtype=np.int64)
    won_at = np.empty(size, dtype=np.int64)
    n_won = 0
    node_guess = np.empty(1024, dtype=np.int64)
    node_parent = np.empty(1024, dtype=np.int64)
    node_response = np.empty(1024, dtype=np.int64)
    node_parent[0] = -1
    node_response[0] = -1
    n_nodes = 1
    # The nodes still to expand: their number, slice of ``secrets``, played colours, depth.
    stack_size = (max_depth + 1) * n_responses
    stack_node = np.empty(stack_size, dtype=np.int64)
    stack_start = np.empty(stack_size, dtype=np.int64)
    stack_stop = np.empty(stack_size, dtype=np.int64)
    stack_played = np.empty(stack_size, dtype=np.int64)
    stack_depth = np.empty(stack_size, dtype=np.int64)
    stack_node[0], stack_start[0], stack_stop[0] = 0, 0, size
    stack_played[0], stack_depth[0] = played, depth
    top = 1
    part_size = np.zeros(n_responses, dtype=np.int64)
    part_start = np.zeros(n_responses, dtype=np.int64)
    while top:
        top -= 1
        node = stack_node[top]
        start = stack_start[top]
        stop = stack_stop[top]
        played = stack_played[top]
        depth = stack_depth[top]
        if depth > max_depth:
            empty = np.empty(0, dtype=np.int64)
            return empty, empty, empty, empty, empty
        here = secrets[start:stop]
        m = stop - start
        if node == 0 and first >= 0:
            guess = first
        else:
            firsts = everything
            of_class = everything
            first_pegs = every_pegs
            first_counts = every_counts
            if m > 2 and (pool_all or m >= classes_from):
                present = 0
                for j in range(m):
                    present |= colour_mask[here[j]]
                n_free = 0
                n_zero = 0
                key = 0
                for k in range(colors):
                    if not present >> k & 1:
                        kind[k] = 2
                        n_zero += 1
                    elif not played >> k & 1:
                        kind[k] = 1
                        n_free += 1
                    else:
                        kind[k] = 0
                    key = key * 3 + kind[k]
                if n_free >= 2 or n_zero >= 2:
                    if key not in cached_firsts:
                        if len(cached_firsts) >= cache_limit:
                            cached_firsts.clear()
                            cached_classes.clear()
                            cached_pegs.clear()
                            cached_counts.clear()
                        n_classes = _canonical_serial(
                            codes, kind, place_values, class_of, class_first
                        )
                        cached_firsts[key] = class_first[:n_classes].copy()
                        cached_classes[key] = class_of.copy()
                        cached_pegs[key], cached_counts[key] = _columns(
                            codes, counts, cached_firsts[key]
                        )
                    firsts = cached_firsts[key]
                    of_class = cached_classes[key]
                    first_pegs = cached_pegs[key]
                    first_counts = cached_counts[key]
            guess = _choose(
                codes,
                counts,
                here,
                firsts,
                of_class,
                first_pegs,
                first_counts,
                pool_all,
                heuristic,
                True,
                n_responses,
                weight,
            )[0]
        node_guess[node] = guess
        # Split the node's codes by their response to the guess, each part kept sorted.
        _responses_serial(codes, counts, guess, here, answers[:m])
        part_size[:] = 0
        for j in range(m):
            part_size[answers[j]] += 1
        at = 0
        for r in range(n_responses):
            part_start[r] = at
            at += part_size[r]
        for j in range(m):
            r = answers[j]
            sorted_part[part_start[r]] = here[j]
            part_start[r] += 1
        secrets[start:stop] = sorted_part[:m]
        played_now = played | colour_mask[guess]
        at = start
        for r in range(n_responses):
            if part_size[r] == 0:
                continue
            if r == win:
                won[n_won] = secrets[at]
                won_at[n_won] = depth
                n_won += 1
            else:
                if n_nodes == node_guess.size:
                    node_guess = _longer(node_guess)
                    node_parent = _longer(node_parent)
                    node_response = _longer(node_response)
                node_parent[n_nodes] = node
                node_response[n_nodes] = r
                stack_node[top] = n_nodes
                stack_start[top] = at
                stack_stop[top] = at + part_size[r]
                stack_played[top] = played_now
                stack_depth[top] = depth + 1
                top += 1
                n_nodes += 1
            at += part_size[r]
    return node_guess[:n_nodes], node_parent[:n_nodes], node_response[:n_nodes], won, won_at


def pool_scores(
    codes: Codes,
    counts: npt.NDArray[np.uint8],
    guesses: npt.NDArray[np.int64],
    candidates: npt.NDArray[np.int64],
    n_responses: int,
    heuristic: str,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """Partition score of each guess (indices into ``codes``) over the candidates.

    Args:
        codes: every code of the space, ``(n, pegs)`` bytes.
        counts: their colour counts, ``(n, colors)``.
        guesses: the indices of the guesses to score.
        candidates: the indices of the candidate codes.
        n_responses: the packed response range, ``(pegs + 1) ** 2``.
        heuristic: a key of :data:`HEURISTICS`.

    Returns:
        The scores (higher is better, as :data:`evo_mastermind.partitions.PARTITION_SCORES`)
        and the number of non-empty parts of each guess.
    """
    pool_pegs, pool_counts = columns(codes, counts, guesses)
    cand_pegs, cand_counts = columns(codes, counts, candidates)
    scores = np.empty(guesses.size)
    parts = np.empty(guesses.size, dtype=np.int64)
    clog = _clog_table(candidates.size) if heuristic == "entropy" else np.zeros(1)
    kernel = _score_parallel if guesses.size * candidates.size >= PARALLEL_PAIRS else _score_serial
    _call(
        kernel,
        pool_pegs,
        pool_counts,
        0,
        guesses.size,
        cand_pegs,
        cand_counts,
        n_responses,
        HEURISTICS[heuristic],
        clog,
        min(guesses.size, 64 * numba.get_num_threads()),
        _weight(codes.shape[1]),
        scores,
        parts,
        np.full(1, -np.inf),
        False,
    )
    return scores, parts


def columns(
    codes: Codes, counts: npt.NDArray[np.uint8], indices: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """Some codes' pegs and colour counts as columns, ``(pegs, k)`` and ``(colors, k)``.

    The layout in which the kernels read guesses and candidates (see :func:`_columns`).
    """
    return _call(_columns, codes, counts, np.ascontiguousarray(indices, dtype=np.int64))


def _responses(
    codes: npt.NDArray[np.uint8],
    counts: npt.NDArray[np.uint8],
    guess: int,
    candidates: npt.NDArray[np.int64],
    out: npt.NDArray[np.integer[Any]],
) -> None:
    """Packed responses of one guess against the candidates (indices into ``codes``)."""
    pegs = codes.shape[1]
    colors = counts.shape[1]
    for j in range(candidates.size):
        c = candidates[j]
        blacks = 0
        for p in range(pegs):
            blacks += codes[guess, p] == codes[c, p]
        common = 0
        for k in range(colors):
            common += min(counts[guess, k], counts[c, k])
        out[j] = blacks * pegs + common


_responses_serial = njit(cache=True, nogil=True)(_responses)


def responses(
    codes: Codes, counts: npt.NDArray[np.uint8], guess: int, candidates: npt.NDArray[np.int64]
) -> npt.NDArray[np.unsignedinteger]:
    """Packed responses of one guess (an index) against the candidates (indices)."""
    pegs = codes.shape[1]
    dtype = np.dtype(np.uint8) if (pegs + 1) ** 2 <= 256 else np.dtype(np.uint16)
    out: npt.NDArray[np.unsignedinteger] = np.empty(candidates.size, dtype=dtype)
    _call(_responses_serial, codes, counts, guess, candidates, out)
    return out


def _canonical_codes(
    codes: npt.NDArray[np.uint8],
    kind: npt.NDArray[np.int64],
    place_values: npt.NDArray[np.int64],
    out: npt.NDArray[np.int64],
    first: npt.NDArray[np.int64],
) -> int:
    """Each code's class number under the colour relabellings ``kind`` allows.

    ``kind[colour]`` is 0 for a colour that must stay as it is, 1 for a free colour (free
    colours are renamed, by first use, to the free colours in increasing order) and 2 for a
    zero colour (every zero colour becomes the smallest zero colour). The representative is
    the lexicographically first code of the class; classes are numbered in the order of
    their representatives.
    """
    n, pegs = codes.shape
    colors = kind.size
    free = np.empty(colors, dtype=np.int64)
    n_free = 0
    smallest_zero = -1
    for colour in range(colors):
        if kind[colour] == 1:
            free[n_free] = colour
            n_free += 1
        elif kind[colour] == 2 and smallest_zero < 0:
            smallest_zero = colour
    label = np.empty(colors, dtype=np.int64)
    n_classes = 0
    for i in range(n):
        label[:] = -1
        used = 0
        index = 0
        for p in range(pegs):
            colour = codes[i, p]
            mapped = int(colour)
            if kind[colour] == 1:
                if label[colour] < 0:
                    label[colour] = free[used]
                    used += 1
                mapped = int(label[colour])
            elif kind[colour] == 2:
                mapped = smallest_zero
            index += mapped * place_values[p]
        # A representative is the first of its class, so its number is known by then.
        if index == i:
            out[i] = n_classes
            first[n_classes] = i
            n_classes += 1
        else:
            out[i] = out[index]
    return n_classes


_canonical_serial = njit(cache=True, nogil=True)(_canonical_codes)


def canonical_codes(
    codes: Codes, kind: npt.NDArray[np.int64], place_values: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The class number of each code and the first code of each class.

    See :func:`_canonical_codes` for the meaning of ``kind``.
    """
    out = np.empty(codes.shape[0], dtype=np.int64)
    first = np.empty(codes.shape[0], dtype=np.int64)
    n_classes = _call(
        _canonical_serial, codes, np.ascontiguousarray(kind, np.int64), place_values, out, first
    )
    return out, first[:n_classes].copy()


def choose(
    codes: Codes,
    counts: npt.NDArray[np.uint8],
    candidates: npt.NDArray[np.int64],
    classes: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]],
    pool_all: bool,
    heuristic: str,
    first_only: bool,
    class_columns: tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]] | None = None,
) -> npt.NDArray[np.int64]:
    """Every best guess of a partition player at a position (see :func:`_choose`).

    Args:
        codes: every code of the space, ``(n, pegs)`` bytes.
        counts: their colour counts, ``(n, colors)``.
        candidates: the sorted indices of the consistent codes.
        classes: the first code of each class and each code's class (every code its own
            class: ``arange(n)`` twice).
        pool_all: score every code (consistent codes win ties), not only the candidates.
        heuristic: a key of :data:`HEURISTICS`.
        first_only: only the first best guess is wanted (lexicographic ties).
        class_columns: the :func:`columns` of the classes' first codes, if the caller
            keeps them (else computed here).
    """
    pegs = codes.shape[1]
    if class_columns is None:
        class_columns = columns(codes, counts, classes[0])
    return _call(
        _choose,
        codes,
        counts,
        np.ascontiguousarray(candidates, dtype=np.int64),
        classes[0],
        classes[1],
        class_columns[0],
        class_columns[1],
        pool_all,
        HEURISTICS[heuristic],
        first_only,
        (pegs + 1) ** 2,
        _weight(pegs),
    )


def grow_tree(
    codes: Codes,
    counts: npt.NDArray[np.uint8],
    place_values: npt.NDArray[np.int64],
    candidates: npt.NDArray[np.int64],
    played: int,
    depth: int,
    first: int,
    pool_all: bool,
    heuristic: str,
    classes_from: int,
    max_depth: int,
) -> tuple[
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
]:
    """A subtree of a partition player with lexicographic ties (see :func:`_grow_tree`).

    Scores on one thread: callers grow several subtrees at once instead.
    """
    return _call(
        _grow_tree,
        codes,
        counts,
        place_values,
        np.ascontiguousarray(candidates, dtype=np.int64),
        played,
        depth,
        first,
        pool_all,
        HEURISTICS[heuristic],
        classes_from,
        max_depth,
        _weight(codes.shape[1]),
    )


def _weight(pegs: int) -> npt.NDArray[np.unsignedinteger]:
    """The weight of a black peg in a packed response, typed as wide as responses need."""
    return np.array([pegs], dtype=np.uint8 if (pegs + 1) ** 2 <= 256 else np.uint16)


_CALLED: set[Any] = set()


def _call(kernel: Any, *args: Any) -> Any:
    """Call a kernel; its first call in a process says so when compiling took over a second."""
    if kernel in _CALLED:  # a set lookup: ``kernel.signatures`` hashes every type, slowly
        return kernel(*args)
    start = time.perf_counter()
    result = kernel(*args)
    _CALLED.add(kernel)
    seconds = time.perf_counter() - start
    if seconds > 1.0:
        print(
            f"evo_mastermind: compiled the exhaustive players' kernel {kernel.__name__} in "
            f"{seconds:.1f} s (once per machine, then cached)",
            file=sys.stderr,
        )
    return result


def warm() -> None:
    """Compile (or load from the cache) every kernel, as ``make`` does after installing.

    A small space's own arrays are used, so that the types are the ones games pass.
    """
    from evo_mastermind.codes import CodeSpace
    from evo_mastermind.scoring import indexed_scorer

    space = CodeSpace(3, 4)
    scorer = indexed_scorer(space)
    every = np.arange(space.size, dtype=np.int64)
    every_pegs, every_counts = columns(scorer.codes, scorer.counts, every)
    for kernel in (_score_serial, _score_parallel):
        scores = np.empty(space.size)
        parts = np.empty(space.size, dtype=np.int64)
        clog = _clog_table(space.size)
        weight = _weight(space.pegs)
        pool = (every_pegs, every_counts, 0, space.size)
        args = (every_pegs, every_counts, space.n_responses, 3, clog, 2, weight)
        _call(kernel, *pool, *args, scores, parts, np.zeros(1), False)
    for pool_all in (True, False):
        choose(scorer.codes, scorer.counts, every[::5], (every, every), pool_all, "entropy", True)
    grow_tree(
        scorer.codes, scorer.counts, space.place_values, every, 0, 1, -1, True, "entropy", 2000, 100
    )
    canonical_codes(scorer.codes, np.ones(space.colors, dtype=np.int64), space.place_values)
    responses(scorer.codes, scorer.counts, 0, every)

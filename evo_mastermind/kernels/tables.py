"""Response tables: a pool's responses to a candidate set read as three rows added.

A guess's response to a candidate is the black pegs of its first pegs, those of its last pegs
and the colours it has in common with the candidate; :func:`_split_tables` lists each of the
three once per candidate (per head, per tail, per colour multiset), so that
:func:`_score_tabled` scores a large pool with three reads per pair instead of a pass per peg
and colour. The scores and parts are those of
:func:`~evo_mastermind.kernels.scoring._score_guesses`.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from evo_mastermind.kernels.scoring import (
    KNOWN_PARTS,
    _bound_known,
    _partition_score,
    _settled_by_parts,
    _store_partition,
)

TABLE_BYTES = 1 << 24
"""Largest response tables (:func:`_split_tables`) a choice builds: 16 MB."""


def multisets(counts: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint8]]:
    """Each code's multiset of colours, numbered, and each multiset's colour counts.

    The common colours of a guess and a code depend on the guess's multiset only; the
    tables of :func:`_split_tables` have one row per multiset.
    """
    base = int(counts.max(initial=0)) + 1
    if base ** counts.shape[1] < 2**62:  # one integer a multiset: a faster sort
        keys = counts.astype(np.int64) @ (base ** np.arange(counts.shape[1], dtype=np.int64))
        _, first, of_code = np.unique(keys, return_index=True, return_inverse=True)
    else:
        _, first, of_code = np.unique(counts, axis=0, return_index=True, return_inverse=True)
    return of_code.astype(np.int64).ravel(), np.ascontiguousarray(counts[first])


@njit(cache=True, nogil=True)
def _split_tables(
    cand_pegs: npt.NDArray[np.uint8],
    cand_counts: npt.NDArray[np.uint8],
    colors: int,
    split: int,
    multiset_counts: npt.NDArray[np.uint8],
    weight: npt.NDArray[np.unsignedinteger],
) -> tuple[
    npt.NDArray[np.unsignedinteger],
    npt.NDArray[np.unsignedinteger],
    npt.NDArray[np.unsignedinteger],
]:
    """Every candidate's response to any guess, in three parts that add up: the tables.

    A guess of index ``g`` (pegs read most significant first) answers candidate ``j`` with
    ``head[g // tail_size, j] + tail[g % tail_size, j] + common[multiset(g), j]``: the
    black pegs of its first ``split`` pegs, those of the others (each worth a black peg's
    weight), and the colours it has in common with the candidate.
    """
    pegs, m = cand_pegs.shape
    head_size = colors**split
    tail_size = colors ** (pegs - split)
    step = weight[0]
    head = np.zeros((head_size, m), dtype=weight.dtype)
    tail = np.zeros((tail_size, m), dtype=weight.dtype)
    for part in range(2):
        table = head if part == 0 else tail
        first_peg = 0 if part == 0 else split
        n_pegs = split if part == 0 else pegs - split
        for row in range(table.shape[0]):
            rest = row
            for p in range(first_peg + n_pegs - 1, first_peg - 1, -1):
                colour = rest % colors
                rest //= colors
                for j in range(m):
                    table[row, j] += step * np.uint8(cand_pegs[p, j] == colour)
    common = np.zeros((multiset_counts.shape[0], m), dtype=weight.dtype)
    for row in range(multiset_counts.shape[0]):
        for k in range(colors):
            v = multiset_counts[row, k]
            if v == 0:
                continue  # a colour the guess lacks adds no common peg
            for j in range(m):
                common[row, j] += min(cand_counts[k, j], v)
    return head, tail, common


def _score_tabled(
    pool: npt.NDArray[np.int64],
    start: int,
    stop: int,
    head: npt.NDArray[np.unsignedinteger],
    tail: npt.NDArray[np.unsignedinteger],
    common: npt.NDArray[np.unsignedinteger],
    multiset_of: npt.NDArray[np.int64],
    n_responses: int,
    heuristic: int,
    clog: npt.NDArray[np.float64],
    scores: npt.NDArray[np.float64],
    parts: npt.NDArray[np.int64],
    floor: npt.NDArray[np.float64],
) -> None:
    """:func:`_score_pool` of the guesses ``pool[start:stop]`` (code indices), from tables.

    On one thread, each guess's responses read from the tables of :func:`_split_tables`
    (three rows added). The same scores and parts as :func:`_score_guesses` of those
    guesses' columns: each guess's partition is counted as there
    (:func:`_store_partition`), in the same order.
    """
    m = head.shape[1]
    total = float(m)
    tail_size = tail.shape[0]
    bits = n_responses <= 64
    best = floor[0]
    slack = floor[1]
    packed = np.empty(m, dtype=head.dtype)
    hist = np.zeros(n_responses, dtype=np.int64)
    lanes = np.zeros((4, n_responses), dtype=np.int64)
    n_first = min(KNOWN_PARTS, m)
    first_sizes = np.zeros(KNOWN_PARTS, dtype=np.int64)
    first_answers = np.zeros(KNOWN_PARTS, dtype=np.int64)
    for at in range(start, stop):
        guess = pool[at]
        a = guess // tail_size
        b = guess - a * tail_size
        c = multiset_of[guess]
        for j in range(m):
            packed[j] = head[a, j] + tail[b, j] + common[c, j]
        if bits:
            seen_here = np.uint64(0)
            for j in range(m):
                seen_here |= np.uint64(1) << np.uint64(packed[j])
            limit = best - slack
            if _settled_by_parts(seen_here, heuristic, total, limit, scores, parts, at):
                best = max(best, scores[at])  # most parts' score, the floor of its bounds
                continue
            if heuristic == 0:
                # The exact parts of the first candidates bound the largest part more tightly
                # (measured: it pays for Knuth's largest part, not for the sums).
                for k in range(n_first):
                    answer = packed[k]
                    alike = 0
                    for j in range(m):
                        alike += packed[j] == answer
                    first_sizes[k] = alike
                    first_answers[k] = answer
                bound = _bound_known(
                    heuristic, parts[at], m, first_sizes, first_answers, n_first, clog
                )
                if bound < limit:
                    scores[at] = -np.inf
                    continue
        _store_partition(scores, parts, at, packed, hist, lanes, heuristic, clog)
        best = max(best, scores[at])
    floor[0] = best


_score_tabled_serial = njit(cache=True, nogil=True)(_score_tabled)


@njit(cache=True, nogil=True)
def _multiset_bound(
    row: int,
    cand_counts: npt.NDArray[np.uint8],
    multiset_counts: npt.NDArray[np.uint8],
    pegs: int,
    heuristic: int,
    clog: npt.NDArray[np.float64],
    common: npt.NDArray[np.uint8],
    common_table: npt.NDArray[np.unsignedinteger],
) -> float:
    """The best score any guess of multiset ``row`` can have (``common``: a scratch array).

    A guess's response tells how many colours it has in common with a candidate (black plus
    white pegs), and that number depends on the guess's multiset of colours only: its
    partition refines the candidates' partition by common colours. A group of ``n``
    candidates with ``v`` common colours splits into at most ``v + 1`` parts (``pegs`` when
    ``v == pegs``: one black short of all is no response), at best evenly; the heuristics
    are convex in the part sizes, so no guess of the multiset scores more than those even
    splits do. The common colours are read from the response tables' ``common_table``
    (:func:`_split_tables`) when given (else empty), else counted.
    """
    colors, m = cand_counts.shape
    if common_table.shape[0]:
        for j in range(m):
            common[j] = common_table[row, j]
    else:
        common[:] = 0
        for k in range(colors):
            v = multiset_counts[row, k]
            if v == 0:
                continue  # a colour the guess lacks adds no common peg
            for j in range(m):
                common[j] += min(cand_counts[k, j], v)
    group = np.zeros(pegs + 1, dtype=np.int64)
    for j in range(m):
        group[common[j]] += 1
    n_parts = 0
    largest = 0
    squares = 0
    logs = 0.0
    for v in range(pegs + 1):
        n = group[v]
        if n == 0:
            continue
        most = min(n, v + 1 if v < pegs else pegs)
        size, extra = divmod(n, most)
        n_parts += most
        largest = max(largest, size + (extra > 0))
        squares += extra * (size + 1) * (size + 1) + (most - extra) * size * size
        if heuristic == 3:
            logs += (most - extra) * clog[size]
            if extra:
                logs += extra * clog[size + 1]
    return _partition_score(heuristic, m, largest, n_parts, squares, logs)

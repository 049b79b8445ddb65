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
    _first_parts_exceed,
    _part_size,
    _partition_score,
    _settled_by_parts,
    _store_counted,
    _store_partition,
)

TABLE_BYTES = 1 << 27
"""Largest response tables (:func:`_split_tables`) a choice builds: 128 MB."""

CAPPED_FROM = 64
"""Candidates from which Knuth's partition is counted only until a part is too large."""


def multisets(counts: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint8]]:
    """Each code's multiset of colours, numbered, and each multiset's colour counts.

    The common colours of a guess and a code depend on the guess's multiset only; the
    tables of :func:`_split_tables` have one row per multiset. The multisets of one set of
    colours are numbered together (their forced classes, :func:`_forced_classes`, are
    found once).
    """
    base = int(counts.max(initial=0)) + 1
    if base ** counts.shape[1] < 2**62:  # one integer a multiset: a faster sort
        keys = counts.astype(np.int64) @ (base ** np.arange(counts.shape[1], dtype=np.int64))
        _, first, of_code = np.unique(keys, return_index=True, return_inverse=True)
    else:
        _, first, of_code = np.unique(counts, axis=0, return_index=True, return_inverse=True)
    order = np.lexsort((counts[first] > 0).T)  # a full sort: equal colour sets side by side
    number = np.empty_like(order)
    number[order] = np.arange(order.size)
    return number[of_code.astype(np.int64).ravel()], np.ascontiguousarray(counts[first][order])


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
        if heuristic == 0 and m >= CAPPED_FROM:
            # Knuth's largest part, counted until a part grows past what can reach the best.
            cap = slack - best
            if _first_parts_exceed(packed, cap):
                scores[at] = -np.inf
                parts[at] = 0
                continue
            j = 0
            while j < m and hist[packed[j]] + 1 <= cap:
                hist[packed[j]] += 1
                j += 1
            if j < m:
                for k in range(j):
                    hist[packed[k]] = 0
                scores[at] = -np.inf
                parts[at] = 0
                continue
            _store_counted(scores, parts, at, m, hist, heuristic)
            best = max(best, scores[at])
            continue
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
                    first_sizes[k] = _part_size(packed, k)
                    first_answers[k] = packed[k]
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
def _pair_colours(
    cand_pegs: npt.NDArray[np.uint8],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Each pair of candidates and the colours (bitmask) they have where their pegs differ.

    A guess with none of a pair's colours gives both candidates the same black pegs
    (:func:`_forced_classes`). Pairs listed ``first < second``.
    """
    pegs, m = cand_pegs.shape
    n_pairs = m * (m - 1) // 2
    first = np.empty(n_pairs, dtype=np.int64)
    second = np.empty(n_pairs, dtype=np.int64)
    mask = np.zeros(n_pairs, dtype=np.int64)
    at = 0
    for i in range(m):
        for j in range(i + 1, m):
            first[at] = i
            second[at] = j
            for p in range(pegs):
                a = cand_pegs[p, i]
                b = cand_pegs[p, j]
                if a != b:
                    mask[at] |= (np.int64(1) << a) | (np.int64(1) << b)
            at += 1
    return first, second, mask


@njit(cache=True, nogil=True)
def _forced_classes(
    colour_set: int,
    pairs: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]],
    order: npt.NDArray[np.int64],
    ends: npt.NDArray[np.int64],
) -> int:
    """The candidates no guess of the colours ``colour_set`` (bitmask) gives different blacks.

    Where two candidates differ, a guess peg of neither of their colours adds a black to
    neither, so a guess without any colour of the pair (:func:`_pair_colours`) gives both
    the same black pegs; so does it to every candidate joined to them by such pairs.
    Fills ``order`` with the candidates class by class, ``ends[c]`` the end of class ``c``
    in it, and returns the number of classes (the candidates' number: all apart).
    """
    first, second, mask = pairs
    m = order.size
    root = np.arange(m)
    for at in range(mask.size):
        if mask[at] & colour_set:
            continue
        a = first[at]
        while root[a] != a:
            a = root[a]
        b = second[at]
        while root[b] != b:
            b = root[b]
        if a != b:
            root[max(a, b)] = min(a, b)  # the smaller index roots: a root precedes its class
    size = np.zeros(m, dtype=np.int64)
    for j in range(m):
        r = j
        while root[r] != r:
            r = root[r]
        root[j] = r
        size[r] += 1
    n_classes = 0
    at = 0
    for j in range(m):
        if root[j] == j:
            size[j], at = at, at + size[j]  # the class's first slot in ``order``
            ends[n_classes] = at
            n_classes += 1
    for j in range(m):
        order[size[root[j]]] = j
        size[root[j]] += 1
    return n_classes


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
    forced: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], int, npt.NDArray[np.int64]]
    | None = None,
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

    With ``forced`` (:func:`_forced_classes` of the multiset's colours: ``order``,
    ``ends``, their number, and a scratch array of ``pegs + 1`` rows of ``m + 4``), the
    candidates of a class and a group always share a part: each group's parts join whole
    forced parts, so there are no more of them than forced parts, the largest is at least
    the largest forced part, and the sizes are spread no more evenly than the forced parts
    above the even level kept whole and the rest spread evenly (the top ``t`` parts hold
    at least the top ``t`` forced parts, and the heuristics are Schur-convex).
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
    if forced is not None and forced[2] < m:
        return _forced_bound(common, forced, pegs, heuristic, clog)
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


@njit(cache=True, nogil=True)
def _forced_bound(
    common: npt.NDArray[np.uint8],
    forced: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], int, npt.NDArray[np.int64]],
    pegs: int,
    heuristic: int,
    clog: npt.NDArray[np.float64],
) -> float:
    """:func:`_multiset_bound` from the forced parts: each class split by common colours."""
    order, ends, n_classes, sizes = forced
    m = common.size
    # Row v of ``sizes``: group v's forced parts' sizes, then their number, their largest,
    # their sum and a tally; the sizes themselves only for the sums of the heuristics.
    keep_sizes = heuristic >= 2
    for v in range(pegs + 1):
        for column in range(m, m + 4):
            sizes[v, column] = 0
    start = 0
    for c in range(n_classes):
        stop = ends[c]
        for at in range(start, stop):
            sizes[common[order[at]], m + 3] += 1
        for at in range(start, stop):
            v = common[order[at]]
            size = sizes[v, m + 3]
            if size:
                if keep_sizes:
                    sizes[v, sizes[v, m]] = size
                sizes[v, m] += 1
                sizes[v, m + 1] = max(sizes[v, m + 1], size)
                sizes[v, m + 2] += size
                sizes[v, m + 3] = 0
        start = stop
    n_parts = 0
    largest = 0
    squares = 0
    logs = 0.0
    for v in range(pegs + 1):
        k = sizes[v, m]
        if k == 0:
            continue
        n = sizes[v, m + 2]
        most = min(k, v + 1 if v < pegs else pegs)
        n_parts += most
        largest = max(largest, sizes[v, m + 1], (n + most - 1) // most)
        if not keep_sizes:
            continue  # the largest part and the number of parts are all they need
        if k <= most:
            for t in range(k):
                squares += sizes[v, t] * sizes[v, t]
                logs += clog[sizes[v, t]]
            continue
        group = np.sort(sizes[v, :k])[::-1]
        # Forced parts above the even level of the rest keep their size (water-filling).
        kept = 0
        rest = n
        while kept + 1 < most:
            left = rest - group[kept]
            if (left + most - kept - 2) // (most - kept - 1) > group[kept]:
                break
            rest = left
            kept += 1
        for t in range(kept):
            squares += group[t] * group[t]
            logs += clog[group[t]]
        bins = most - kept
        size, extra = divmod(rest, bins)
        squares += extra * (size + 1) * (size + 1) + (bins - extra) * size * size
        logs += (bins - extra) * clog[size] + extra * clog[size + 1]
    return _partition_score(heuristic, m, largest, n_parts, squares, logs)

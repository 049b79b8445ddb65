"""Choosing kernel: every best guess of a partition player at a position.

:func:`choose` computes what :func:`evo_mastermind.partitions.best_guesses` defines, with the
shortcuts of Magruder's solver: one guess per symmetry class, consistent perfect splitters
first, the scan stopped at the first perfect splitter, and a guess scored exactly only when
its number of parts lets it reach the best score met so far; beyond those, a guess is not
scored at all when its multiset of colours bounds it below that score, and a tree's choice
(the first best only) reads the pool multiset by multiset, best bound first. A large pool is
scored in blocks, the stop flag (:func:`evo_mastermind.kernels.flags.stop_flag`) read
between two.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from evo_mastermind.codes import Codes
from evo_mastermind.kernels import flags
from evo_mastermind.kernels.responses import _columns, columns, weight
from evo_mastermind.kernels.rules import REDUCTIONS, SCORE_TOLERANCE
from evo_mastermind.kernels.scanning import (
    _first_best_by_multiset,
    _score_range,
    _score_until_stopped,
)
from evo_mastermind.kernels.scoring import (
    SCAN_PAIRS,
    SMALL_SET,
    _clog_table,
    _score_guesses,
    new_floor,
)
from evo_mastermind.kernels.startup import call
from evo_mastermind.kernels.stopping import stopped
from evo_mastermind.kernels.tables import (
    TABLE_BYTES,
    _forced_classes,
    _multiset_bound,
    _pair_colours,
    _split_tables,
    multisets,
)

TABLED_FROM = 2
"""A pool is scored from response tables when it has this many times as many guesses as the
tables have rows (building a row costs about what scoring a guess does)."""

BOUNDED_FROM = 11
"""Candidates from which a choice bounds each multiset's guesses (:func:`_multiset_bound`)."""

REFINED_TO = 27
"""Candidates up to which those bounds join the candidates no guess tells apart
(:func:`_forced_classes`): beyond, finding them costs more than they save."""

NOT_GROUPED = (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))
"""No pool by multiset (:func:`~evo_mastermind.kernels.scanning.by_multiset`): read in order."""

GROUPED_FROM = 6
"""Candidates from which a choice reads the pool by multiset (fewer: in order, cheaper)."""

PERFECT_PREFIX = 4096
"""Guesses read in order for a perfect splitter before the pool is read by multiset."""


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
    halt: npt.NDArray[np.uint8],
    multiset_of: npt.NDArray[np.int64],
    multiset_counts: npt.NDArray[np.uint8],
    group_start: npt.NDArray[np.int64],
    grouped: npt.NDArray[np.int64],
) -> npt.NDArray[np.int64]:
    """Every best guess of a partition player at a position, sorted (or only the first).

    ``candidates`` are the consistent codes (sorted); the pool is every code
    (``pool_all``: one per class, ``representatives[k]`` the first code of class ``k`` and
    ``of_code`` each code's class; ``rep_pegs``/``rep_counts`` are the representatives'
    columns) or the candidates themselves. With two candidates or
    fewer every one is best. A consistent perfect splitter (every candidate in a part of its
    own) attains the optimum of every heuristic, so those are the answer when there are
    any. Otherwise every guess of the pool is scored and the tied ones kept, consistent
    codes first when the pool is every code; from :data:`BOUNDED_FROM` candidates, a guess
    whose multiset of colours bounds its score below the best met so far is not scored
    (:func:`_multiset_bound`). Asked for the first only, the scan of the pool
    stops at its first perfect splitter (the first of its class is the class's
    representative, and no consistent code ties with it); the candidates, which win ties,
    are then scored apart first (up to :data:`SMALL_SET` of them, or a quarter of the
    pool), and a guess of the pool is scored only if its bounds let it beat the best met so
    far (a later guess that merely ties loses). A large pool of the whole space's codes
    (``multiset_of``: each code's multiset of colours, :func:`multisets`; empty: none) is
    scored from response tables (:func:`_split_tables`). Given the pool by multiset
    (``group_start``, ``grouped``: :func:`~evo_mastermind.kernels.scanning.by_multiset`;
    empty: not given), the first best is looked for multiset by multiset, best bound first
    (:func:`_first_best_by_multiset`), from :data:`GROUPED_FROM` candidates, after the
    pool's first :data:`PERFECT_PREFIX` guesses in order when a perfect splitter may be
    among them. Stopped by ``halt``, it returns the first candidate (any valid code: the
    caller raises instead of playing it).
    """
    m = candidates.size
    if m <= 2:
        return candidates[:1].copy() if first_only else candidates.copy()
    cand_pegs, cand_counts = _columns(codes, counts, candidates)
    clog = _clog_table(m if heuristic == 3 else 0)
    floor = new_floor()  # the best score met so far: worse guesses are not scored
    no_table = np.empty((0, 0), dtype=weight.dtype)
    no_bounds = np.empty(0)
    untabled = (
        representatives,
        no_table,
        no_table,
        no_table,
        multiset_of,
        multiset_counts,
        no_bounds,
    )
    if not pool_all:
        if representatives.size == of_code.size:  # no two codes alike: score every candidate
            scores = np.empty(m)
            parts = np.empty(m, dtype=np.int64)
            if not _score_until_stopped(
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
                halt,
                untabled,
            ):
                return candidates[:1].copy()
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
        if not _score_until_stopped(
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
            halt,
            untabled,
        ):
            return candidates[:1].copy()
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
            new_floor(),
        )
        perfect = candidates[parts == m]
        if perfect.size:
            return perfect[:1].copy() if first_only else perfect
    n_pool = representatives.size
    scores = np.empty(n_pool)
    parts = np.empty(n_pool, dtype=np.int64)
    bounds = no_bounds
    own = no_bounds  # the candidates' own scores, when they are scored apart
    pegs, colors = codes.shape[1], counts.shape[1]
    split = pegs // 2
    rows = colors**split + colors ** (pegs - split) + multiset_counts.shape[0]
    tabled = (
        multiset_of.size == codes.shape[0]
        and codes.shape[0] == colors**pegs
        and rows * m * weight.itemsize <= TABLE_BYTES
        and n_pool >= TABLED_FROM * rows
    )
    # The first best only: the candidates, which win ties, scored apart if few beside the
    # pool; then every multiset bounded and the pool read multiset by multiset.
    apart = first_only and m <= n_pool // 4
    grouping = apart and group_start.size > 0 and tabled and m >= GROUPED_FROM
    if multiset_of.size == codes.shape[0] and (m >= BOUNDED_FROM or grouping):
        # Most guesses' multisets bound them below the best: those are never scored.
        bounds = np.full(multiset_counts.shape[0], np.nan)  # computed when first needed
    tables = (
        representatives,
        no_table,
        no_table,
        no_table,
        multiset_of,
        multiset_counts,
        bounds,
    )
    # Counted a block of guesses at a time (SMALL_SET), the other heuristics' few candidates
    # are scored faster from the guesses' columns, unless the bounds leave only a few guesses
    # of each chunk to score.
    head, tail, common = no_table, no_table, no_table
    if tabled and (m > SMALL_SET or heuristic == 1 or bounds.size):
        head, tail, common = _split_tables(
            cand_pegs, cand_counts, colors, split, multiset_counts, weight
        )
        tables = (representatives, head, tail, common, multiset_of, multiset_counts, bounds)
    if apart or (m <= SMALL_SET and (first_only or bounds.size)):
        own = np.empty(m)
        if _reached_by_candidates(
            cand_pegs,
            cand_counts,
            n_responses,
            heuristic,
            clog,
            weight,
            multiset_counts,
            common,
            codes.shape[1],
            bounds,
            own,
            floor,
            first_only,
        ):
            return _tied(candidates, own, first_only)
        if first_only:
            # The candidates, which win ties, are scored: the pool's guesses, met in order,
            # must beat the best met so far to be chosen.
            floor[1] = -SCORE_TOLERANCE
    in_order = n_pool
    if grouping:
        # A perfect splitter is often early in order: the multisets read only after those.
        in_order = min(n_pool, PERFECT_PREFIX) if m <= n_responses else 0
    if first_only and m <= n_responses:
        # Blocks that double: an early splitter costs little, a whole scan few calls.
        start = 0
        block = 64
        largest = max(64, SCAN_PAIRS // m)
        while start < in_order:
            if stopped(halt):
                return candidates[:1].copy()
            stop = min(start + block, in_order)
            _score_range(
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
                tables,
            )
            for at in range(start, stop):
                if parts[at] == m:
                    return representatives[at : at + 1].copy()
            start = stop
            block = min(2 * block, largest)
    if grouping:
        best = floor[0]
        best_code = -1
        if best > own.max() + SCORE_TOLERANCE:
            best_code = _tied(representatives[:in_order], scores[:in_order], True)[0]
        from_code = representatives[in_order] if in_order < n_pool else codes.shape[0]
        best_code, best = _first_best_by_multiset(
            group_start,
            grouped,
            from_code,
            bounds,
            (head, tail, common, multiset_of),
            n_responses,
            heuristic,
            clog,
            best,
            best_code,
            halt,
        )
        if stopped(halt):
            return candidates[:1].copy()
        return _tied(candidates, own, True) if best_code < 0 else np.array([best_code])
    if not (first_only and m <= n_responses) and not _score_until_stopped(
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
        halt,
        tables,
    ):
        return candidates[:1].copy()
    threshold = scores.max() - SCORE_TOLERANCE
    if own.size:
        threshold = max(threshold, own.max() - SCORE_TOLERANCE)
    # Consistent codes win ties: a class is consistent as a whole or not at all.
    inside = np.empty(m, dtype=np.int64)
    n_inside = 0
    for j in range(m):
        score = own[j] if own.size else scores[of_code[candidates[j]]]
        if score >= threshold:
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
def _reached_by_candidates(
    cand_pegs: npt.NDArray[np.uint8],
    cand_counts: npt.NDArray[np.uint8],
    n_responses: int,
    heuristic: int,
    clog: npt.NDArray[np.float64],
    weight: npt.NDArray[np.unsignedinteger],
    multiset_counts: npt.NDArray[np.uint8],
    common: npt.NDArray[np.unsignedinteger],
    pegs: int,
    bounds: npt.NDArray[np.float64],
    scores: npt.NDArray[np.float64],
    floor: npt.NDArray[np.float64],
    first_only: bool,
) -> bool:
    """Whether a candidate reaches every multiset's bound: then no guess of the pool beats it.

    Fills ``bounds`` (:func:`_multiset_bound`, from the response tables' ``common`` colours
    if built; empty: none, and no candidate is known to reach them), scores the candidates
    into ``scores`` (minus infinity where their parts bound them below the best met) and
    leaves their best score in ``floor[0]``: the floor of the pool's scan otherwise. Up to
    :data:`REFINED_TO` candidates, the bounds of the multisets that can beat that best
    (``first_only``: ties lose) or reach it are tightened by the candidates their colours
    cannot tell apart (:func:`_forced_classes`).
    """
    m = cand_pegs.shape[1]
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
        np.empty(m, dtype=np.int64),
        floor,
    )
    scratch = np.empty(m, dtype=np.uint8)
    top = -np.inf
    # A multiset that cannot beat the candidates' best (reach it, unless the first only is
    # wanted) is not scanned: only the others' bounds are worth tightening.
    limit = floor[0] + (SCORE_TOLERANCE if first_only else -SCORE_TOLERANCE)
    # Multisets of one colour set are numbered together (:func:`multisets`): the set's
    # forced classes are found once, when the first of them needs them.
    pairs = _pair_colours(cand_pegs[:, : m if m <= REFINED_TO else 0])
    order = np.empty(m, dtype=np.int64)
    ends = np.empty(m, dtype=np.int64)
    sizes = np.empty((pegs + 1, m + 4), dtype=np.int64)
    n_classes = m
    found = -1
    for row in range(bounds.size):
        bound = _multiset_bound(
            row, cand_counts, multiset_counts, pegs, heuristic, clog, scratch, common
        )
        if m <= REFINED_TO and bound > limit:
            colour_set = 0
            for k in range(multiset_counts.shape[1]):
                if multiset_counts[row, k]:
                    colour_set |= 1 << k
            if colour_set != found:
                found = colour_set
                n_classes = _forced_classes(found, pairs, order, ends)
            if n_classes < m:
                bound = _multiset_bound(
                    row,
                    cand_counts,
                    multiset_counts,
                    pegs,
                    heuristic,
                    clog,
                    scratch,
                    common,
                    (order, ends, n_classes, sizes),
                )
        bounds[row] = bound
        top = max(top, bound)
    return bounds.size > 0 and floor[0] >= top


@njit(cache=True, nogil=True)
def _tied(
    guesses: npt.NDArray[np.int64], scores: npt.NDArray[np.float64], first_only: bool
) -> npt.NDArray[np.int64]:
    """The guesses scoring within the tolerance of the best (the first of them only)."""
    threshold = scores.max() - SCORE_TOLERANCE
    tied = guesses[scores >= threshold]
    return tied[:1].copy() if first_only else tied


def choose(
    codes: Codes,
    counts: npt.NDArray[np.uint8],
    candidates: npt.NDArray[np.int64],
    classes: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]],
    pool_all: bool,
    reduction: str,
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
        reduction: a key of :data:`~evo_mastermind.kernels.rules.REDUCTIONS`.
        first_only: only the first best guess is wanted (lexicographic ties).
        class_columns: the :func:`columns` of the classes' first codes, if the caller
            keeps them (else computed here).
    """
    pegs = codes.shape[1]
    if class_columns is None:
        class_columns = columns(codes, counts, classes[0])
    columns_of = class_columns
    return flags.stoppable(
        lambda halt: call(
            _choose,
            codes,
            counts,
            np.ascontiguousarray(candidates, dtype=np.int64),
            classes[0],
            classes[1],
            columns_of[0],
            columns_of[1],
            pool_all,
            REDUCTIONS[reduction],
            first_only,
            (pegs + 1) ** 2,
            weight(pegs),
            halt,
            *space_multisets(counts),
            *NOT_GROUPED,
        )
    )


def space_multisets(
    counts: npt.NDArray[np.uint8],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint8]]:
    """:func:`multisets` of a whole space's codes (kept per game), else none (empty arrays)."""
    n, colors = counts.shape
    pegs = int(counts[-1].sum()) if n else 0
    if n == 0 or n != colors**pegs:
        return np.empty(0, dtype=np.int64), np.empty((0, colors), dtype=np.uint8)
    return _space_multisets(pegs, colors, counts)


_kept: dict[tuple[int, int], tuple[npt.NDArray[np.int64], npt.NDArray[np.uint8]]] = {}


def _space_multisets(
    pegs: int, colors: int, counts: npt.NDArray[np.uint8]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint8]]:
    """:func:`multisets` of the space of ``pegs`` and ``colors``, computed once per game."""
    key = (pegs, colors)
    if key not in _kept:
        _kept[key] = multisets(counts)
    return _kept[key]

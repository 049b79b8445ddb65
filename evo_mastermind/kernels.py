"""Compiled kernels (Numba) for the exhaustive players' hot path.

One call scores a pool of guesses against a candidate set: for every guess it computes the
response to every candidate, counts the partition, and reduces it to a heuristic score,
with the same orientation and formulas as :mod:`evo_mastermind.partitions` (the readable
numpy reference the tests compare against). Candidates are laid out peg by peg and colour
by colour (structure of arrays), so blacks and common colours are computed for a whole
block of candidates in byte-wide SIMD loops before the histogram pass. Large calls run on
every core (``prange`` over guesses); small ones stay on one thread, where starting the
pool would cost more than the work.

The kernels are compiled once per machine and cached beside this file (``cache=True``);
``make`` warms the cache after installing (:func:`warm`), and a first call that compiles
for more than a second says so on stderr.
"""

from __future__ import annotations

import sys
import time
from typing import Any

import numba
import numpy as np
import numpy.typing as npt
from numba import njit, prange

from evo_mastermind.codes import Codes

HEURISTICS = {"worst_case": 0, "most_parts": 1, "expected_size": 2, "entropy": 3}
"""Heuristic numbers understood by the kernels (scores oriented higher-is-better)."""

SMALL_SET = 64
"""Candidate sets up to this size are scored from per-call tables of response rows."""

PARALLEL_PAIRS = 1 << 20
"""Guess-candidate pairs from which a call is spread over every core."""


@njit(cache=True, nogil=True, inline="always")
def _store(
    scores: npt.NDArray[np.float64],
    parts: npt.NDArray[np.int64],
    at: int,
    heuristic: int,
    n_parts: int,
    largest: int,
    squares: int,
    logs: float,
    total: float,
) -> None:
    """Write one guess's score from its partition's statistics."""
    parts[at] = n_parts
    if heuristic == 0:
        scores[at] = -float(largest)
    elif heuristic == 1:
        scores[at] = float(n_parts)
    elif heuristic == 2:
        scores[at] = -float(squares) / total
    else:
        scores[at] = np.log2(total) - logs / total


def _score_pool(
    codes: npt.NDArray[np.uint8],
    counts: npt.NDArray[np.uint8],
    guesses: npt.NDArray[np.int64],
    cand_pegs: npt.NDArray[np.uint8],
    cand_counts: npt.NDArray[np.uint8],
    n_responses: int,
    heuristic: int,
    clog: npt.NDArray[np.float64],
    n_chunks: int,
    weight: npt.NDArray[np.unsignedinteger],
    scores: npt.NDArray[np.float64],
    parts: npt.NDArray[np.int64],
) -> None:
    """Score every guess against the candidates (columns of ``cand_pegs``/``cand_counts``)."""
    pegs, m = cand_pegs.shape
    colors = cand_counts.shape[0]
    n_guesses = guesses.size
    total = float(m)
    # One byte per packed response up to 15 pegs (16 ** 2 responses), two beyond.
    step = weight[0]
    small = m <= SMALL_SET
    if small:
        # Few candidates: a guess's responses are a sum of table rows, one per peg (blacks)
        # and one per colour it uses (common pegs), instead of a pass per peg and colour.
        black_rows = np.zeros((pegs, colors, m), dtype=weight.dtype)
        common_rows = np.zeros((colors, pegs + 1, m), dtype=weight.dtype)
        for j in range(m):
            for p in range(pegs):
                black_rows[p, cand_pegs[p, j], j] = step
            for k in range(colors):
                for v in range(pegs + 1):
                    common_rows[k, v, j] = min(cand_counts[k, j], v)
    else:
        black_rows = np.zeros((0, 0, 0), dtype=weight.dtype)
        common_rows = np.zeros((0, 0, 0), dtype=weight.dtype)
    for chunk in prange(n_chunks):
        # Buffers once per chunk of guesses, not once per guess.
        packed = np.empty(m, dtype=weight.dtype)
        lanes = np.zeros((4, n_responses), dtype=np.int64)
        hist = np.zeros(n_responses, dtype=np.int64)
        for at in range(chunk, n_guesses, n_chunks):
            g = guesses[at]
            if small:
                # Indexed loops, not row slices: a slice is a reference-counted view.
                x = codes[g, 0]
                for j in range(m):
                    packed[j] = black_rows[0, x, j]
                for p in range(1, pegs):
                    x = codes[g, p]
                    for j in range(m):
                        packed[j] += black_rows[p, x, j]
                for k in range(colors):
                    v = counts[g, k]
                    if v:
                        for j in range(m):
                            packed[j] += common_rows[k, v, j]
            else:
                # black * pegs + common = black * (pegs + 1) + white, in byte-wide SIMD passes.
                packed[:] = 0
                for p in range(pegs):
                    gp = codes[g, p]
                    for j in range(m):
                        packed[j] += step * np.uint8(cand_pegs[p, j] == gp)
                for k in range(colors):
                    gk = counts[g, k]
                    if gk == 0:
                        continue  # a colour the guess lacks adds no common peg
                    for j in range(m):
                        packed[j] += min(cand_counts[k, j], gk)
            if m < 2 * n_responses:
                # Few candidates: count into the histogram and clear only what was touched.
                for j in range(m):
                    hist[packed[j]] += 1
                n_parts = 0
                largest = 0
                squares = 0
                logs = 0.0
                for j in range(m):
                    size = hist[packed[j]]
                    if size > 0:
                        hist[packed[j]] = 0
                        n_parts += 1
                        largest = max(largest, size)
                        squares += size * size
                        if heuristic == 3:
                            logs += clog[size]
                _store(scores, parts, at, heuristic, n_parts, largest, squares, logs, total)
                continue
            # Four interleaved histograms: consecutive equal responses do not stall.
            lanes[:] = 0
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
            n_parts = 0
            largest = 0
            squares = 0
            logs = 0.0
            for r in range(n_responses):
                size = lanes[0, r] + lanes[1, r] + lanes[2, r] + lanes[3, r]
                if size > 0:
                    n_parts += 1
                    largest = max(largest, size)
                    squares += size * size
                    if heuristic == 3:
                        logs += clog[size]
            _store(scores, parts, at, heuristic, n_parts, largest, squares, logs, total)


_score_serial = njit(cache=True, nogil=True)(_score_pool)
_score_parallel = njit(cache=True, nogil=True, parallel=True)(_score_pool)


def _clog_table(m: int) -> npt.NDArray[np.float64]:
    """``c * log2(c)`` for part sizes 0..m (entropy is ``log2 m - Σ c log2 c / m``)."""
    sizes = np.arange(m + 1, dtype=np.float64)
    table = np.zeros(m + 1)
    table[1:] = sizes[1:] * np.log2(sizes[1:])
    return table


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
    cand_pegs = np.ascontiguousarray(codes[candidates].T)
    cand_counts = np.ascontiguousarray(counts[candidates].T)
    guesses = np.ascontiguousarray(guesses, dtype=np.int64)
    scores = np.empty(guesses.size)
    parts = np.empty(guesses.size, dtype=np.int64)
    clog = _clog_table(candidates.size) if heuristic == "entropy" else np.zeros(1)
    kernel = _score_parallel if guesses.size * candidates.size >= PARALLEL_PAIRS else _score_serial
    _call(
        kernel,
        codes,
        counts,
        guesses,
        cand_pegs,
        cand_counts,
        n_responses,
        HEURISTICS[heuristic],
        clog,
        min(guesses.size, 64 * numba.get_num_threads()),
        np.array([codes.shape[1]], dtype=np.uint8 if n_responses <= 256 else np.uint16),
        scores,
        parts,
    )
    return scores, parts


def _responses(
    codes: npt.NDArray[np.uint8],
    counts: npt.NDArray[np.uint8],
    guess: int,
    candidates: npt.NDArray[np.int64],
    out: npt.NDArray[np.unsignedinteger],
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
    """Compile (or load from the cache) every kernel, as ``make`` does after installing."""
    codes = np.zeros((2, 2), dtype=np.uint8)
    codes.flags.writeable = False  # as CodeSpace.all_codes: numba types read-only apart
    counts = np.array([[2, 0], [2, 0]], dtype=np.uint8)
    everything = np.arange(2, dtype=np.int64)
    for kernel in (_score_serial, _score_parallel):
        _call(
            kernel,
            codes,
            counts,
            everything,
            np.ascontiguousarray(codes.T),
            np.ascontiguousarray(counts.T),
            9,
            0,
            np.zeros(3),
            2,
            np.array([2], dtype=np.uint8),
            np.empty(2),
            np.empty(2, dtype=np.int64),
        )
    canonical_codes(codes, np.zeros(2, dtype=np.int64), np.array([2, 1], dtype=np.int64))
    responses(codes, counts, 0, everything)

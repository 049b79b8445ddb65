"""Compiled kernels (Numba) of the consistent-code sampler; the tests hold each to a numpy twin.

Three exact ways to reach the codes consistent with a history, each a kernel here:

* :func:`consistent_mask` tests drawn codes one by one (rejection from the whole space);
* :func:`half_codes` and :func:`join_halves` split a code into its first and last pegs: the
  halves that can still be completed are listed once, grouped by what a completion depends
  on (their blacks against every guess, their colour counts capped at what any guess holds),
  and two groups pair into consistent codes exactly when their blacks add up to the
  responses' and their merged colour counts give the responses' colour matches. The pairs
  count the consistent set exactly and number it, so a uniform index is a uniform code;
* :func:`list_consistent` lists the set peg by peg, dropping a prefix as soon as some guess
  rules it out (a compiled constraint search).

A history is given as its guesses ``(k, pegs)``, their colour counts ``(k, colors)``, and the
blacks and colour matches (black + white) each response requires. The long kernels take a
stop flag (:func:`evo_mastermind.kernels.flags.stop_flag`), poll it every few milliseconds of work
and then return early, whole results or not: their caller raises
(:func:`evo_mastermind.kernels.flags.stoppable`). Nothing here imports the rest of the package
beyond :mod:`evo_mastermind.codes` and the flag's reader.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

import evo_mastermind.kernels.startup  # noqa: F401  (Numba loads without SciPy: 0.2 s)
from evo_mastermind.kernels.stopping import stopped

Ints = npt.NDArray[np.int64]
Bytes = npt.NDArray[np.uint8]

_HASH_STEP = np.uint64(0x9E3779B97F4A7C15)  # odd 64-bit multiplier (golden ratio): mixes digits

POLL_EVERY = 1 << 16
"""Codes (halves, prefixes) a kernel handles between two reads of its stop flag: well under a
millisecond of work, a read of one byte."""


@njit(cache=True, nogil=True, inline="always")
def _blacks_within(
    digits: Bytes,
    counts: Ints,
    guesses: Bytes,
    guess_counts: Ints,
    first_peg: int,
    blacks: Ints,
    matches: Ints,
    slack: int,
    out_blacks: Bytes,
) -> bool:
    """Whether ``digits`` (pegs ``first_peg..``, colour counts ``counts``) may draw every response.

    Against each guess, its blacks and colour matches must be at most the response's and at
    least the response's less ``slack`` (the pegs not yet given). Writes the blacks to
    ``out_blacks``.
    """
    k, colors = guess_counts.shape
    for i in range(k):
        black = 0
        for p in range(digits.size):
            if digits[p] == guesses[i, first_peg + p]:
                black += 1
        if black > blacks[i] or black + slack < blacks[i]:
            return False
        match = 0
        for c in range(colors):
            match += min(counts[c], guess_counts[i, c])
        if match > matches[i] or match + slack < matches[i]:
            return False
        out_blacks[i] = black
    return True


@njit(cache=True, nogil=True)
def consistent_mask(
    codes: Bytes, guesses: Bytes, guess_counts: Ints, blacks: Ints, matches: Ints
) -> npt.NDArray[np.bool_]:
    """Which ``codes`` (rows) draw every response of the history."""
    n, pegs = codes.shape
    k, colors = guess_counts.shape
    out = np.empty(n, dtype=np.bool_)
    counts = np.zeros(colors, dtype=np.int64)
    scratch = np.empty(k, dtype=np.uint8)
    for j in range(n):
        counts[:] = 0
        for p in range(pegs):
            counts[codes[j, p]] += 1
        out[j] = _blacks_within(
            codes[j], counts, guesses, guess_counts, 0, blacks, matches, 0, scratch
        )
    return out


@njit(cache=True, nogil=True)
def half_codes(
    first_peg: int,
    length: int,
    pegs: int,
    guesses: Bytes,
    guess_counts: Ints,
    blacks: Ints,
    matches: Ints,
    caps: Ints,
    halt: Bytes,
) -> tuple[Bytes, Bytes, Bytes]:
    """Every code of pegs ``first_peg .. first_peg + length - 1`` that some completion keeps.

    A half is dropped when, against some guess, its blacks or colour matches already exceed
    the response's or cannot reach it with the other ``pegs - length`` pegs.

    Returns:
        The kept halves' colours ``(m, length)``, their blacks against each guess ``(m, k)``,
        and their colour counts capped at ``caps`` (the most of each colour any guess holds:
        more cannot change a match) ``(m, colors)``; halves in lexicographic order.
    """
    k, colors = guess_counts.shape
    other = pegs - length
    size = colors**length
    out_digits = np.empty((size, length), dtype=np.uint8)
    out_blacks = np.empty((size, k), dtype=np.uint8)
    out_counts = np.empty((size, colors), dtype=np.uint8)
    digits = np.zeros(length, dtype=np.uint8)
    counts = np.zeros(colors, dtype=np.int64)
    kept = 0
    for rank in range(size):
        if rank % POLL_EVERY == 0 and stopped(halt):
            break
        rest = rank
        for p in range(length - 1, -1, -1):
            digits[p] = rest % colors
            rest //= colors
        counts[:] = 0
        for p in range(length):
            counts[digits[p]] += 1
        if _blacks_within(
            digits,
            counts,
            guesses,
            guess_counts,
            first_peg,
            blacks,
            matches,
            other,
            out_blacks[kept],
        ):
            for p in range(length):
                out_digits[kept, p] = digits[p]
            for c in range(colors):
                out_counts[kept, c] = min(counts[c], caps[c])
            kept += 1
    return out_digits[:kept].copy(), out_blacks[:kept].copy(), out_counts[:kept].copy()


@njit(cache=True, nogil=True, inline="always")
def _hash_row(values: Bytes) -> np.uint64:
    h = np.uint64(len(values))
    for v in values:
        h = (h ^ np.uint64(v)) * _HASH_STEP
    return h


@njit(cache=True, nogil=True)
def row_hashes(rows: Bytes) -> npt.NDArray[np.uint64]:
    """A 64-bit hash of each row (equal rows, equal hashes)."""
    out = np.empty(rows.shape[0], dtype=np.uint64)
    for j in range(rows.shape[0]):
        out[j] = _hash_row(rows[j])
    return out


@njit(cache=True, nogil=True)
def join_halves(
    left_blacks: Bytes,
    left_counts: Bytes,
    right_blacks: Bytes,
    right_counts: Bytes,
    right_by_hash: Ints,
    right_hashes_sorted: npt.NDArray[np.uint64],
    guess_counts: Ints,
    blacks: Ints,
    matches: Ints,
    halt: Bytes,
) -> Ints:
    """The pairs (left group, right group) whose codes are consistent, shape ``(p, 2)``.

    Groups are given by their blacks and capped colour counts. For each left group, the
    right groups with the blacks still missing are found by hash (``right_by_hash`` orders
    the right groups by the hash of their blacks, ``right_hashes_sorted`` those hashes),
    then checked exactly: equal blacks, and for each guess the colour matches of the merged
    counts equal to the response's. Pairs come out left group by left group, then in
    ``right_by_hash`` order.
    """
    k, colors = guess_counts.shape
    n_left = left_blacks.shape[0]
    pairs = np.empty((max(16, n_left), 2), dtype=np.int64)
    found = 0
    missing = np.empty(k, dtype=np.uint8)
    for left in range(n_left):
        if left % 256 == 0 and stopped(halt):
            break  # a left group may meet many right groups: polled more often
        for i in range(k):
            missing[i] = blacks[i] - left_blacks[left, i]
        h = _hash_row(missing)
        at = np.searchsorted(right_hashes_sorted, h)
        while at < right_hashes_sorted.size and right_hashes_sorted[at] == h:
            right = right_by_hash[at]
            at += 1
            ok = True
            for i in range(k):
                if right_blacks[right, i] != missing[i]:
                    ok = False
                    break
            if not ok:
                continue
            for i in range(k):
                match = 0
                for c in range(colors):
                    match += min(left_counts[left, c] + right_counts[right, c], guess_counts[i, c])
                if match != matches[i]:
                    ok = False
                    break
            if not ok:
                continue
            if found == pairs.shape[0]:
                grown = np.empty((2 * found, 2), dtype=np.int64)
                grown[:found] = pairs
                pairs = grown
            pairs[found, 0] = left
            pairs[found, 1] = right
            found += 1
    return pairs[:found].copy()


@njit(cache=True, nogil=True)
def list_consistent(
    pegs: int,
    guesses: Bytes,
    guess_counts: Ints,
    blacks: Ints,
    matches: Ints,
    limit: int,
    halt: Bytes,
) -> tuple[Bytes, bool]:
    """Every consistent code in lexicographic order, built peg by peg with pruning.

    A prefix is dropped as soon as, against some guess, its blacks or colour matches exceed
    the response's or can no longer reach it with the pegs left.

    Returns:
        The codes, and whether the listing is whole: ``False`` when more than ``limit``
        codes were found (the listing then stops, holding the first ``limit``).
    """
    k, colors = guess_counts.shape
    out = np.empty((min(limit, 1024), pegs), dtype=np.uint8)
    found = 0
    code = np.zeros(pegs, dtype=np.uint8)
    next_colour = np.zeros(pegs, dtype=np.int64)
    counts = np.zeros(colors, dtype=np.int64)
    prefix_blacks = np.zeros((pegs + 1, k), dtype=np.int64)
    prefix_matches = np.zeros((pegs + 1, k), dtype=np.int64)
    depth = 0
    steps = 0
    while depth >= 0:
        steps += 1
        if steps % POLL_EVERY == 0 and stopped(halt):
            return out[:found].copy(), False
        colour = next_colour[depth]
        if colour == colors:
            depth -= 1
            if depth >= 0:
                counts[code[depth]] -= 1
                next_colour[depth] += 1
            continue
        left = pegs - depth - 1
        ok = True
        for i in range(k):
            black = prefix_blacks[depth, i] + (1 if guesses[i, depth] == colour else 0)
            match = prefix_matches[depth, i] + (
                1 if counts[colour] < guess_counts[i, colour] else 0
            )
            if black > blacks[i] or black + left < blacks[i]:
                ok = False
                break
            if match > matches[i] or match + left < matches[i]:
                ok = False
                break
            prefix_blacks[depth + 1, i] = black
            prefix_matches[depth + 1, i] = match
        if not ok:
            next_colour[depth] += 1
            continue
        code[depth] = colour
        if depth == pegs - 1:
            if found == limit:
                return out[:found].copy(), False
            if found == out.shape[0]:
                grown = np.empty((min(limit, 2 * found), pegs), dtype=np.uint8)
                grown[:found] = out
                out = grown
            out[found] = code
            found += 1
            next_colour[depth] += 1
            continue
        counts[colour] += 1
        depth += 1
        next_colour[depth] = 0
    return out[:found].copy(), True

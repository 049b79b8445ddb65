"""The guesses the optimal search tries at a set of secrets, and their counting bounds.

The compiled half of :mod:`~evo_mastermind.optimal.search` that looks at one set without
searching below it (Numba):

* Counting: at most ``R ** (k - 1)`` secrets can be found by the ``k``-th guess (``R`` the
  number of responses other than the win), so filling the levels in order bounds ``T``
  from below (:func:`level_bounds`); a part too large for the guesses left cannot be
  finished at all.
* Symmetry: colour and position permutations that fix every guess played map the
  candidate set onto itself, so only the least code of each orbit is tried (colours never
  played are interchangeable, which the canonical relabelling of unplayed colours covers);
  these codes depend on the guesses played only, so the sets those guesses reach share
  them (:func:`~evo_mastermind.optimal.orbits.canonical`). A colour no candidate holds
  scores like a blank peg, so of guesses differing only in such colours only the least is
  tried (the same parts).
* Every guess tried is scored member by member over the symmetric response table, a chunk
  of guesses at a time (:func:`candidates`): its counting bound and whether a part holds
  more than two secrets come out of one packed sum.
* Plain answers (the "obvious" guesses of fancidev's 2012 solver, ties kept to the lowest
  code): only a member can reach the set's counting bound, so the first member that does
  with parts of at most two is the answer (:func:`member_at_floor`); failing that, the
  first code of all reaching one more with such parts.

Responses are packed ``black * (pegs + 1) + white`` as everywhere in the project.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

import evo_mastermind.kernels.startup  # noqa: F401  (Numba loads without SciPy: 0.2 s)
from evo_mastermind.optimal.orbits import canonical

INF = 1 << 40
"""A total no tree reaches: a value at or above it means "cannot be done in time"."""

UNLIMITED = 255
"""Guesses left when there is no limit (never decreased, so never reached)."""

UNSURE = -1
NO_MEMBER = -2
"""What :func:`member_at_floor` returns when it finds no plain answer."""

CHUNK = 256
"""Guesses evaluated together (:func:`_evaluate`): their part sizes stay in the fastest cache."""


Game = tuple[
    npt.NDArray[np.uint8],  # every code
    int,  # colours
    npt.NDArray[np.uint8],  # the response table
    npt.NDArray[np.int64],  # every permutation of the positions (none: a pool, see below)
    npt.NDArray[np.int64],  # counting bound by set size (level_bounds)
    npt.NDArray[np.int64],  # most secrets by guesses left (level_bounds)
]
"""What the search knows of the game, built once by the solver.

With no permutations (shape ``(0, pegs)``) the codes are a pool of guesses holding every
candidate, not the whole space (the exact end game, :mod:`evo_mastermind.players.endgame`):
no symmetry of the space holds there, so none prunes (colour relabelling, blank colours).
"""


@njit(cache=True, nogil=True)
def response_table(codes: npt.NDArray[np.uint8], colors: int) -> npt.NDArray[np.uint8]:
    """The packed response of every code (row, the guess) to every code (column).

    A row at a time, peg by peg and colour by colour over every column, so that each inner
    loop runs over contiguous arrays (the compiler turns it into vector instructions).
    """
    n, pegs = codes.shape
    table = np.empty((n, n), dtype=np.uint8)
    by_peg = np.ascontiguousarray(codes.T)
    by_colour = np.zeros((colors, n), dtype=np.uint8)
    for j in range(n):
        for peg in range(pegs):
            by_colour[codes[j, peg], j] += 1
    black = np.empty(n, dtype=np.uint8)
    common = np.empty(n, dtype=np.uint8)
    for i in range(n):
        black[:] = 0
        for peg in range(pegs):
            mine = codes[i, peg]
            column = by_peg[peg]
            for j in range(n):
                black[j] += column[j] == mine
        common[:] = 0
        for colour in range(colors):
            mine = by_colour[colour, i]
            if mine == 0:
                continue
            column = by_colour[colour]
            for j in range(n):
                common[j] += min(mine, column[j])
        row = table[i]
        for j in range(n):
            row[j] = black[j] * pegs + common[j]
    return table


def level_bounds(n_codes: int, others: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The counting bounds: least total for ``m`` secrets, and most secrets in ``d`` guesses.

    ``others`` is the number of responses other than the win. Returns ``floor[m]`` for
    ``m`` up to ``n_codes`` and ``capacity[d]`` for ``d`` up to :data:`UNLIMITED`. Plain
    Python, once per game: loading a compiled kernel would take longer.
    """
    floor = [0] * (n_codes + 1)
    level, width, left, total = 1, 1, 0, 0
    for m in range(1, n_codes + 1):
        if left == 0:
            left = width
            if level > 1:
                width = min(width * others, INF)
                left = width
            level += 1
        total += level - 1
        left -= 1
        floor[m] = total
    capacity = [0] * (UNLIMITED + 1)
    reach = 1
    for d in range(1, UNLIMITED + 1):
        capacity[d] = min(capacity[d - 1] + reach, INF)
        reach = min(reach * others, INF)
    capacity[UNLIMITED] = INF
    return np.array(floor, dtype=np.int64), np.array(capacity, dtype=np.int64)


@njit(cache=True, nogil=True, inline="always")
def part_floor(
    m: int, d: int, floor: npt.NDArray[np.int64], capacity: npt.NDArray[np.int64]
) -> int:
    """The counting bound of a part of ``m`` secrets with ``d`` guesses left."""
    if m > capacity[d]:
        return INF
    return floor[m]


@njit(cache=True, nogil=True)
def steps(
    n: int, d: int, floor: npt.NDArray[np.int64], capacity: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """What the ``c``-th secret of a part adds to its counting bound, ``d`` guesses left.

    ``INF`` past the most secrets ``d`` guesses can find; index ``c`` from 0 to ``n``.
    """
    step = np.empty(n + 1, dtype=np.int64)
    step[0] = 0
    for c in range(1, n + 1):
        step[c] = floor[c] - floor[c - 1] if c <= capacity[d] else INF
    return step


@njit(cache=True, nogil=True, inline="always")
def _split(
    g: int,
    members: npt.NDArray[np.int32],
    table: npt.NDArray[np.uint8],
    step: npt.NDArray[np.int64],
    win: int,
    counts: npt.NDArray[np.int64],
) -> tuple[int, int]:
    """``(counting bound, largest part other than the win)`` of guess ``g`` on the set.

    ``counts`` is scratch, all zero on entry and on return.
    """
    total = members.shape[0]
    big = 0
    for m in members:
        r = table[g, m]
        c = counts[r] + 1
        counts[r] = c
        if r != win:
            total += step[c]
            if c > big:
                big = c
    for m in members:
        counts[table[g, m]] = 0
    return total, big


@njit(cache=True, nogil=True)
def _evaluate(
    members: npt.NDArray[np.int32],
    chunk: npt.NDArray[np.int64],
    size: int,
    table: npt.NDArray[np.uint8],
    step: npt.NDArray[np.int64],
    win: int,
    n_responses: int,
    counts: npt.NDArray[np.uint16],
    totals: npt.NDArray[np.int64],
) -> None:
    """The parts of the first ``size`` guesses of ``chunk``, summed up by :data:`_PACKED` steps.

    ``counts[k * n_responses + r]`` is the size of part ``r`` of guess ``chunk[k]``, and
    ``totals[k]`` the sum of ``step`` over its secrets in turn (the win excluded). Member by
    member: the response table is symmetric, so each member's row holds its response to
    every guess, read from one place in memory.
    """
    counts[: size * n_responses] = 0
    totals[:size] = 0
    for m in members:
        row = table[m]
        for k in range(size):
            at = k * n_responses + row[chunk[k]]
            c = counts[at] + 1
            counts[at] = c
            totals[k] += step[c]
    for k in range(size):  # the win is no part: what it added is taken back
        totals[k] -= step[counts[k * n_responses + win]]


_PAST = 1 << 24
"""The packed step of a secret past what the guesses left can find (:func:`_packed_steps`)."""
_TOTAL_BITS = 40
_SECOND_BITS = 12


@njit(cache=True, nogil=True)
def _packed_steps(step: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """:func:`steps` packed so that one sum tells a guess's bound and its largest part.

    Bits 0-39 sum the counting bound's steps (:data:`_PAST` for a secret too many: no real
    bound comes near it), bits 40-51 count the parts reaching two secrets, and the bits
    from 52 up the parts reaching three.
    """
    packed = np.empty(step.shape[0], dtype=np.int64)
    for c in range(step.shape[0]):
        packed[c] = step[c] if step[c] < INF else _PAST
        if c == 2:
            packed[c] += 1 << _TOTAL_BITS
        elif c == 3:
            packed[c] += 1 << (_TOTAL_BITS + _SECOND_BITS)
    return packed


@njit(cache=True, nogil=True)
def member_at_floor(
    members: npt.NDArray[np.int32],
    floor_n: int,
    step: npt.NDArray[np.int64],
    table: npt.NDArray[np.uint8],
    win: int,
    counts: npt.NDArray[np.int64],
) -> tuple[int, int]:
    """The best guess when a member plainly reaches the set's counting bound ``floor_n``.

    No guess costs less than ``floor_n``, and only a member can reach it: a guess outside
    the set finds no secret with its first guess, so the levels fill one place later. The
    first member whose bound is ``floor_n`` is the answer when its parts hold at most two
    secrets (its bound is then its exact total). Returns that member and its largest part,
    or :data:`UNSURE` when the first such member has a larger part (it may cost more, or
    tie: the search decides), or :data:`NO_MEMBER` when none reaches the bound (then
    nothing costs less than ``floor_n + 1``).
    """
    for m in members:
        total, big = _split(m, members, table, step, win, counts)
        if total == floor_n:
            return (int(m), big) if big <= 2 else (UNSURE, 0)
    return NO_MEMBER, 0


@njit(cache=True, nogil=True)
def guess_bounds(
    members: npt.NDArray[np.int32],
    d: int,
    history: npt.NDArray[np.int32],
    played: int,
    game: Game,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Every guess :func:`~evo_mastermind.optimal.search.solve` tries at this set, by code.

    One guess per symmetry class, each splitting the set; with each its counting lower
    bound and the size of its largest part other than the win.
    """
    canon = np.empty(game[0].shape[0] + 1, dtype=np.int32)
    canon[0] = canonical(history, played, game, canon[1:])
    guesses, bounds, largest, _ = candidates(members, d, canon, game, -1)
    return guesses, bounds, largest


@njit(cache=True, nogil=True)
def candidates(
    members: npt.NDArray[np.int32],
    d: int,
    canon: npt.NDArray[np.int32],
    game: Game,
    target: int,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64], int]:
    """:func:`guess_bounds` among the codes ``canon[1 : 1 + canon[0]]`` (:func:`canonical`).

    Stops early at a plain answer of total ``target``: a proven lower bound of every guess's
    total (or -1: none). The first code whose bound is ``target`` with parts of at most two
    secrets (its exact total) is then the best guess, returned last and listed last (-1 when
    there is none; the guesses are then complete).
    It is the first such code of all: a code the symmetries skip has a lower one with parts
    of the same sizes.
    """
    codes, colors, table, perms, floor, capacity = game
    n = members.shape[0]
    pegs = codes.shape[1]
    win = pegs * (pegs + 1)
    child_d = d if d == UNLIMITED else d - 1
    # A colour no member holds scores like a blank peg: such colours are interchangeable in a
    # guess (the same parts), so only guesses whose blanks are the least of them are tried.
    blank = np.ones(colors, dtype=np.bool_)
    for m in members:
        for colour in codes[m]:
            blank[colour] = False
    for colour in range(colors):
        if blank[colour]:
            blank[colour] = False
            break
    if perms.shape[0] == 0:  # a pool of guesses: a code with another blank may be missing
        blank[:] = False
    any_blank = blank.any()
    step = steps(n, child_d, floor, capacity)
    n_responses = (pegs + 1) * (pegs + 1)
    n_canon = canon[0]
    guesses = np.empty(n_canon, dtype=np.int64)
    bounds = np.empty(n_canon, dtype=np.int64)
    largest = np.empty(n_canon, dtype=np.int64)
    chunk = np.empty(CHUNK, dtype=np.int64)
    counts = np.empty(CHUNK * n_responses, dtype=np.uint16)
    totals = np.empty(CHUNK, dtype=np.int64)
    packed = _packed_steps(step)
    first = table[members[0]]  # all in one part: all the response of the first
    found = 0
    at = 1
    while at <= n_canon:
        # The next codes worth trying, a chunk at a time (a plain answer stops the scan early).
        size = 0
        while at <= n_canon and size < CHUNK:
            g = canon[at]
            at += 1
            chunk[size] = g
            if any_blank:  # without a branch per peg: which codes hold one is unpredictable
                held = False
                for i in range(pegs):
                    held |= blank[codes[g, i]]
                size += not held
            else:
                size += 1
        _evaluate(members, chunk, size, table, packed, win, n_responses, counts, totals)
        for k in range(size):
            code = chunk[k]
            if counts[k * n_responses + first[code]] == n:
                continue  # one part holding every secret: the guess tells nothing
            sum_ = totals[k]
            total = n + (sum_ & ((1 << _TOTAL_BITS) - 1))
            if total >= _PAST:
                total = INF
            if (sum_ >> (_TOTAL_BITS + _SECOND_BITS)) != 0:
                big = 3  # three or more: only whether it is more than two matters
            elif (sum_ >> _TOTAL_BITS) != 0:
                big = 2
            else:
                big = 1
            if total == target:
                if big <= 2:
                    guesses[found] = code
                    bounds[found] = total
                    largest[found] = big
                    return guesses[: found + 1], bounds[: found + 1], largest[: found + 1], code
                target = -1  # the first code reaching it may cost more: the search decides
            guesses[found] = code
            bounds[found] = total
            largest[found] = big
            found += 1
    return guesses[:found], bounds[:found], largest[:found], -1


@njit(cache=True, nogil=True)
def greedy_guess(
    members: npt.NDArray[np.int32],
    d: int,
    history: npt.NDArray[np.int32],
    played: int,
    game: Game,
) -> int:
    """The guess of the quick first tree: the least counting bound, lowest code on ties.

    -1 when no guess can finish the set in ``d`` guesses by the counting bound.
    """
    if members.shape[0] <= 2:
        return int(members[0])
    guesses, bounds, _ = guess_bounds(members, d, history, played, game)
    if guesses.shape[0] == 0:
        return -1
    k = int(np.argmin(bounds))  # the first of the least: guesses are in code order
    return int(guesses[k]) if bounds[k] < INF else -1

"""What the optimal search's transposition table proves, read back without searching.

:func:`tree_from` reads the tree of a solved set off the table in one compiled call (the
solver searches only the parts it leaves).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from evo_mastermind.optimal.guesses import (
    UNLIMITED,
    Game,
    member_at_floor,
    part_floor,
    steps,
)
from evo_mastermind.optimal.memo import Memo, entry, find, set_hash
from evo_mastermind.optimal.search import OBVIOUS_MAX, TT_MIN


@njit(cache=True, nogil=True)
def _exact(
    members: npt.NDArray[np.int32],
    d: int,
    tt_key: npt.NDArray[np.uint64],
    tt_meta: npt.NDArray[np.int64],
    pool: npt.NDArray[np.int32],
) -> int:
    """The best guess the table holds exactly for the set with ``d`` guesses left (-1: none).

    As :func:`_node` reads it: the tree found without a limit serves any limit it fits.
    """
    slot = find(members, d, set_hash(members, d), tt_key, tt_meta, pool)
    if slot >= 0:
        _, depth, guess = entry(slot, tt_meta)
        if depth > 0:
            return guess
    if d != UNLIMITED:
        slot = find(members, UNLIMITED, set_hash(members, UNLIMITED), tt_key, tt_meta, pool)
        if slot >= 0:
            _, depth, guess = entry(slot, tt_meta)
            if 0 < depth <= d:
                return guess
    return -1


@njit(cache=True, nogil=True)
def tree_from(
    members: npt.NDArray[np.int32], d: int, guess: int, game: Game, memo: Memo
) -> tuple[
    npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int32]
]:
    """The tree of a sorted set from ``guess`` on, as far as it is known without a search.

    Every part takes the guess :func:`_node` would answer at once: the member of a part of
    one or two secrets, the table's exact answer, or a plain member
    (:func:`~evo_mastermind.optimal.guesses.member_at_floor`); a part with none of these is
    left to search. One compiled call reads what took a call of :func:`solve` per node.

    Returns ``nodes``: per node its parent (-1 for the set's own node 0), the packed
    response from its parent, and its guess, one row each, depth first with parts in
    increasing response; ``needs``: by code index, the
    guesses each member needs from the set on (0: under a part left to search); and the
    parts left to search, ``left``: per part its parent node, response and guesses left,
    its members ``left_members[left[3, k] : left[3, k] + left[4, k]]``.
    """
    codes, _, table, _, floor, capacity = game
    tt_key, tt_meta, pool, _ = memo
    n = members.shape[0]
    pegs = codes.shape[1]
    win = pegs * (pegs + 1)
    n_responses = (pegs + 1) * (pegs + 1)
    # A node finds a member or splits its set in two or more: at most 2n nodes.
    nodes = np.empty((3, 2 * n + 1), dtype=np.int64)
    needs = np.zeros(codes.shape[0], dtype=np.int64)
    left = np.empty((5, n), dtype=np.int64)
    left_members = np.empty(n, dtype=np.int32)
    # Each part's members overwrite its parent's in place: a stack of (start, size, guesses
    # left, parent node, response, guess, guesses played from the set); a node is numbered
    # when it is taken off, so they are numbered depth first, parts by response.
    buffer = members.copy()
    grouped = np.empty(n, dtype=np.int32)
    stack = np.empty((7, n + 1), dtype=np.int64)
    counts = np.zeros(n_responses, dtype=np.int64)
    scratch = np.zeros(n_responses, dtype=np.int64)  # member_at_floor's, all zero
    starts = np.empty(n_responses, dtype=np.int64)
    n_nodes, n_left, used_left = 0, 0, 0
    stack[:, 0] = (0, n, d, -1, -1, guess, 0)
    top = 1
    while top > 0:
        top -= 1
        at, size, dd, level = stack[0, top], stack[1, top], stack[2, top], stack[6, top]
        node = n_nodes
        n_nodes += 1
        nodes[0, node], nodes[1, node], nodes[2, node] = stack[3, top], stack[4, top], stack[5, top]
        g = nodes[2, node]
        child_d = dd if dd == UNLIMITED else dd - 1
        counts[:] = 0
        for i in range(at, at + size):
            m = buffer[i]
            if m == g:
                needs[m] = level + 1
            counts[table[g, m]] += 1
        start = 0
        for r in range(n_responses):
            starts[r] = start
            start += counts[r]
        for i in range(at, at + size):
            m = buffer[i]
            r = table[g, m]
            grouped[starts[r]] = m
            starts[r] += 1
        buffer[at : at + size] = grouped[:size]
        for r in range(n_responses - 1, -1, -1):  # the last pushed is taken off first
            c = counts[r]
            if c == 0 or r == win:
                continue
            first = at + starts[r] - c
            part = buffer[first : first + c]
            chosen = int(part[0]) if c <= 2 else -1
            if chosen < 0 and c >= TT_MIN:
                chosen = _exact(part, child_d, tt_key, tt_meta, pool)
            if chosen < 0 and c <= OBVIOUS_MAX:
                step = steps(c, child_d if child_d == UNLIMITED else child_d - 1, floor, capacity)
                bound = part_floor(c, child_d, floor, capacity)
                chosen, _ = member_at_floor(part, bound, step, table, win, scratch)
            if chosen < 0:
                left[0, n_left], left[1, n_left], left[2, n_left] = node, r, child_d
                left[3, n_left], left[4, n_left] = used_left, c
                left_members[used_left : used_left + c] = part
                used_left += c
                n_left += 1
                continue
            stack[:, top] = (first, c, child_d, node, r, chosen, level + 1)
            top += 1
    return nodes[:, :n_nodes], needs, left[:, :n_left], left_members[:used_left]

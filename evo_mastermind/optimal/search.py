"""The compiled branch and bound behind the exact optimal strategy (Numba).

``solve`` returns ``T(S, d)``: the fewest guesses, summed over the secrets of the candidate
set ``S``, of any decision tree that finds each of them within ``d`` more guesses, any code
allowed as a guess::

    T(S, d) = min over guesses g splitting S of  |S| + sum of T(S_r, d - 1) over the parts S_r
              of S by response r other than the win.

It is called with a budget ``B`` and returns the exact value when it is at most ``B``, else
a lower bound above ``B`` (the search stops as soon as the budget is exceeded). Every
shortcut is exact:

* ``|S| = 1`` costs 1 and ``|S| = 2`` costs 3 (guess either member).
* The counting bound, the symmetries and the plain answers of
  :mod:`~evo_mastermind.optimal.guesses` decide which guesses are tried and in what order
  (least bound first); most small sets are settled by a plain answer, without a search.
* A guess whose parts all have at most two secrets is scored exactly without recursion.
* The parts of a guess are searched smallest first: each one solved tightens the budget
  of the larger ones, and the largest is searched last with the least slack.
* A transposition table keeps, per candidate set and guesses left, the exact value and
  its best guess, or the best lower bound proven; sets are compared member by member.
  What is proven without a guess limit bounds the same set under a limit.

The pruning never drops a guess unless a lower code is at least as good, so it keeps the
tree the plain search finds. The search returns to Python between bounded stretches of
work (:func:`solve`), so a Ctrl-C or a time limit stops it within a fraction of a second.

Ties between equally good guesses go to the lowest code index, which makes the tree a
function of the game alone: a guess with a lower index than the best one found so far is
searched with the best total as its limit (so an equal total is found), any other with
one less. No bound depends on timing or on the order in which sets were met.

Responses are packed ``black * (pegs + 1) + white`` as everywhere in the project.
"""

from __future__ import annotations

import time

import numpy as np
import numpy.typing as npt
from numba import njit

from evo_mastermind.optimal.guesses import (
    INF,
    NO_MEMBER,
    UNLIMITED,
    Game,
    candidates,
    canonical,
    greedy_guess,
    guess_bounds,
    level_bounds,
    member_at_floor,
    part_floor,
    response_table,
    steps,
)
from evo_mastermind.optimal.memo import Memo, find, set_hash, store

__all__ = [
    "INF",
    "UNLIMITED",
    "Game",
    "greedy_guess",
    "guess_bounds",
    "level_bounds",
    "proven",
    "response_table",
    "solve",
]

TT_MIN = 4
"""Candidate sets from this size are kept in the transposition table."""

STOPPED = -2
"""The guess :func:`_search` returns when stopped before it finished."""

STRETCH = 20_000_000
"""Responses the compiled search looks up (a few hundredths of a second) before its first
return to Python, where a Ctrl-C or a time limit can be raised; later stretches are sized
to take :data:`STRETCH_SECONDS` of CPU time (each return costs the walk back to where the
search stopped: a few per cent)."""

STRETCH_SECONDS = 0.1
"""CPU seconds the compiled search runs between two returns to Python."""

OBVIOUS_MAX = 64
"""Candidate sets up to this size are first tried for a plain answer
(:func:`~evo_mastermind.optimal.guesses.member_at_floor`)."""


def solve(
    members: npt.NDArray[np.int32],
    d: int,
    budget: int,
    history: npt.NDArray[np.int32],
    played: int,
    game: Game,
    memo: Memo,
) -> tuple[int, int]:
    """``(T, best guess)`` of the sorted candidate set ``members`` with ``d`` guesses left.

    Exact when ``T <= budget``; otherwise ``T`` is a lower bound above the budget and the
    guess is -1. ``history[:played]`` are the guesses played to reach the set (they only
    decide which symmetries may prune). ``memo`` is the transposition table; its ``used``
    counts the pool and the table entries filled, then the nodes searched.

    Interruptible: the compiled search returns to Python after every stretch of about
    :data:`STRETCH_SECONDS` of CPU time, so a Ctrl-C or a time limit is raised there, in
    the calling thread (whose CPU time the limit counts); otherwise it resumes, finding
    what it finished in the table.
    """
    work = STRETCH
    while True:
        control = np.array([0, work], dtype=np.int64)
        stored = int(memo[3][1])
        start = time.thread_time()
        canon = np.empty(game[0].shape[0] + 1, dtype=np.int32)
        canon[0] = -1
        value, guess, _ = _search(members, d, budget, history, played, game, memo, control, canon)
        if control[0] == 0:
            return int(value), int(guess)
        if memo[3][1] == stored:  # nothing new kept (a full table): a longer stretch
            work *= 2
        else:  # the next stretch sized to take about STRETCH_SECONDS on this game
            spent = max(time.thread_time() - start, 1e-3)
            work = max(1, int(work * min(2.0, max(0.25, STRETCH_SECONDS / spent))))


@njit(cache=True, nogil=True)
def _search(
    members: npt.NDArray[np.int32],
    d: int,
    budget: int,
    history: npt.NDArray[np.int32],
    played: int,
    game: Game,
    memo: Memo,
    control: npt.NDArray[np.int64],
    canon: npt.NDArray[np.int32],
) -> tuple[int, int, int]:
    """:func:`solve` compiled, with the depth of the tree found; ``control``: ``[stop, work left]``.

    The depth (guesses the deepest secret needs) is 0 when the total is only a bound.

    Every node searched spends its size times the number of codes from the work left, and
    every guess split eight times the size (about the responses and members they read);
    ``stop`` is set when none is left, and every node then returns at once with guess
    :data:`STOPPED`, storing nothing.
    """
    codes, _, table, _, floor, capacity = game
    tt_key, tt_meta, pool, used = memo
    n = members.shape[0]
    if n == 1:
        return (1, int(members[0]), 1) if d >= 1 else (INF, -1, 0)
    if n == 2:
        return (3, int(members[0]), 2) if d >= 2 else (INF, -1, 0)
    bound = part_floor(n, d, floor, capacity)
    if bound > budget:
        return bound, -1, 0
    if n >= TT_MIN:
        slot = find(members, d, set_hash(members, d), tt_key, tt_meta, pool)
        if slot >= 0:
            if tt_meta[slot, 1] > 0:
                value = tt_meta[slot, 0]
                if value > budget:
                    return value, -1, 0
                return value, tt_meta[slot, 5], tt_meta[slot, 1]
            if tt_meta[slot, 0] > budget:
                return tt_meta[slot, 0], -1, 0
        if d != UNLIMITED:
            # The tree found without a limit is this set's tree under any limit it fits.
            slot = find(members, UNLIMITED, set_hash(members, UNLIMITED), tt_key, tt_meta, pool)
            if slot >= 0:
                value = tt_meta[slot, 0]
                if value > budget:
                    return value, -1, 0
                if 0 < tt_meta[slot, 1] <= d:
                    return value, tt_meta[slot, 5], tt_meta[slot, 1]
    used[2] += 1
    control[1] -= n * codes.shape[0]
    if control[1] < 0:
        control[0] = 1
    if control[0] != 0:
        return INF, STOPPED, 0
    pegs = codes.shape[1]
    n_codes = codes.shape[0]
    win = pegs * (pegs + 1)
    n_responses = (pegs + 1) * (pegs + 1)
    child_d = d if d == UNLIMITED else d - 1
    counts = np.zeros(n_responses, dtype=np.int64)
    target = -1
    if n <= OBVIOUS_MAX:
        step = steps(n, child_d, floor, capacity)
        member, big = member_at_floor(members, bound, step, table, win, counts)
        if member >= 0:
            return bound, member, 1 + big
        if member == NO_MEMBER:
            target = bound + 1
    if canon[0] < 0:  # the first set after these guesses to need them: shared with the others
        canon[0] = canonical(history, played, game, canon[1:])
    guesses, bounds, largest, plain = candidates(members, d, canon, game, target)
    if plain >= 0:
        depth = 1 + largest[-1]
        if n >= TT_MIN:
            store(members, d, target, depth, plain, tt_key, tt_meta, pool, used)
        return (target, plain, depth) if target <= budget else (target, -1, 0)
    best, best_guess, best_depth = budget + 1, -1, 0
    failed = INF  # the least lower bound of a guess that did not fit the budget
    pending_key = np.empty(guesses.shape[0], dtype=np.int64)
    pending = 0
    for k in range(guesses.shape[0]):
        g, total = guesses[k], bounds[k]
        if largest[k] <= 2:  # parts of one or two secrets: the bound is the exact total
            if total < best or (total == best and g < best_guess):
                best, best_guess, best_depth = total, g, 1 + largest[k]
            else:
                failed = min(failed, total)
        elif total <= budget:
            pending_key[pending] = total * n_codes + g
            pending += 1
        else:
            failed = min(failed, total)

    order = np.sort(pending_key[:pending])
    answers = np.empty(n, dtype=np.int64)
    grouped = np.empty(n, dtype=np.int32)
    starts = np.empty(n_responses, dtype=np.int64)
    sizes = np.empty(n_responses, dtype=np.int64)
    known = np.empty(n_responses, dtype=np.int64)
    for item in order:
        bound_g = item // n_codes
        g = item % n_codes
        if bound_g > best:
            failed = min(failed, bound_g)
            break
        limit = best if g < best_guess else best - 1
        if bound_g > limit:
            failed = min(failed, bound_g)
            continue
        # Splitting the set and looking its parts up costs a few passes over it.
        control[1] -= 8 * n
        if control[1] < 0:
            control[0] = 1
            return INF, STOPPED, 0
        counts[:] = 0
        row = table[g]
        for i in range(n):
            answers[i] = row[members[i]]
            counts[answers[i]] += 1
        at = 0
        for r in range(n_responses):
            starts[r] = at
            sizes[r] = counts[r]
            at += counts[r]
        for i in range(n):
            r = answers[i]
            grouped[starts[r]] = members[i]
            starts[r] += 1
        for r in range(n_responses):
            starts[r] -= counts[r]
        # The parts' bounds, tightened by what the table has proven of them.
        sizes[win] = 0
        rest = 0
        for r in range(n_responses):
            c = sizes[r]
            known[r] = 0
            if c == 0:
                continue
            known[r] = part_floor(c, child_d, floor, capacity)
            if c >= TT_MIN:
                part = grouped[starts[r] : starts[r] + c]
                known[r] = max(known[r], _proven(part, child_d, tt_key, tt_meta, pool))
            rest += known[r]
        spent = n
        if spent + rest > limit:
            failed = min(failed, spent + rest)
            continue
        ok = True
        child_canon = np.empty(n_codes + 1, dtype=np.int32)
        child_canon[0] = -1
        depth = 1  # parts of one or two secrets take one or two more guesses
        for r in range(n_responses):
            if 0 < sizes[r] <= 2:
                depth = max(depth, 1 + sizes[r])
        while True:  # smallest parts first: each one solved tightens the larger ones' budget
            r = -1
            for q in range(n_responses):
                if sizes[q] > 2 and (r < 0 or sizes[q] < sizes[r]):
                    r = q
            if r < 0:
                break
            c = sizes[r]
            sizes[r] = 0
            rest -= known[r]
            child_budget = limit - spent - rest
            history[played] = g
            value, _, below = _search(
                grouped[starts[r] : starts[r] + c],
                child_d,
                child_budget,
                history,
                played + 1,
                game,
                memo,
                control,
                child_canon,
            )
            if control[0] != 0:
                return INF, STOPPED, 0
            if value > child_budget:
                failed = min(failed, spent + value + rest)
                ok = False
                break
            spent += value
            depth = max(depth, 1 + below)
        if ok:
            best, best_guess, best_depth = spent + rest, g, depth

    if best_guess >= 0:
        if n >= TT_MIN:
            store(members, d, best, best_depth, best_guess, tt_key, tt_meta, pool, used)
        return best, best_guess, best_depth
    failed = max(failed, budget + 1)
    if n >= TT_MIN:
        store(members, d, failed, 0, -1, tt_key, tt_meta, pool, used)
    return failed, -1, 0


def proven(members: npt.NDArray[np.int32], d: int, memo: Memo) -> int:
    """The least total the table proves for the sorted set with ``d`` guesses left (0: none)."""
    tt_key, tt_meta, pool, _ = memo
    return int(_proven(members, d, tt_key, tt_meta, pool))


@njit(cache=True, nogil=True)
def _proven(
    members: npt.NDArray[np.int32],
    d: int,
    tt_key: npt.NDArray[np.uint64],
    tt_meta: npt.NDArray[np.int64],
    pool: npt.NDArray[np.int32],
) -> int:
    """The least total the table proves for the set with ``d`` guesses left (0: nothing).

    A limit never lowers the optimum, so with ``d`` limited what is proven without a
    limit holds too (the search for the shallowest optimal tree meets the sets the search
    without a limit solved).
    """
    slot = find(members, d, set_hash(members, d), tt_key, tt_meta, pool)
    value = tt_meta[slot, 0] if slot >= 0 else 0
    if d != UNLIMITED:
        slot = find(members, UNLIMITED, set_hash(members, UNLIMITED), tt_key, tt_meta, pool)
        if slot >= 0:
            value = max(value, tt_meta[slot, 0])
    return value

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

import threading
import time
from collections.abc import Callable

import numpy as np
import numpy.typing as npt
from numba import njit

from evo_mastermind.kernels import flags
from evo_mastermind.optimal.guesses import (
    INF,
    NO_MEMBER,
    UNLIMITED,
    Game,
    candidates,
    greedy_guess,
    guess_bounds,
    level_bounds,
    member_at_floor,
    part_floor,
    response_table,
    steps,
)
from evo_mastermind.optimal.memo import (
    BUSY,
    Memo,
    claim,
    entry,
    find,
    load,
    publish,
    set_hash,
    store,
)
from evo_mastermind.optimal.orbits import Kept, canonical_kept, kept_orbits

__all__ = [
    "INF",
    "STOPPED",
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

DEFERRED = -3
"""The guess :func:`_node` returns for a set another thread is searching, when told to."""

SHARE_MIN = 12
"""Sets from this size are marked in the busy table while a thread searches them."""

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


_THREAD = threading.local()


def _kept(game: Game) -> Kept:
    """This thread's least codes of orbits lately worked out (:func:`canonical_kept`)."""
    held = getattr(_THREAD, "kept", None)
    if held is None or held[0] is not game[0]:
        held = _THREAD.kept = (game[0], kept_orbits(game[0].shape[0]))
    return held[1]


def solve(
    members: npt.NDArray[np.int32],
    d: int,
    budget: int,
    history: npt.NDArray[np.int32],
    played: int,
    game: Game,
    memo: Memo,
    busy: npt.NDArray[np.uint64] | None = None,
    carry_on: Callable[[npt.NDArray[np.int64]], bool] | None = None,
) -> tuple[int, int]:
    """``(T, best guess)`` of the sorted candidate set ``members`` with ``d`` guesses left.

    Exact when ``T <= budget``; otherwise ``T`` is a lower bound above the budget and the
    guess is -1. ``history[:played]`` are the guesses played to reach the set (they only
    decide which symmetries may prune). The table's ``used`` counts the pool and the table
    entries filled, then the nodes searched.

    Interruptible: the compiled search returns to Python after every stretch of about
    :data:`STRETCH_SECONDS` of CPU time, so a Ctrl-C or a time limit is raised there, in
    the calling thread (whose CPU time the limit counts); otherwise it resumes, finding
    what it finished in the table.

    Args:
        members: the set, sorted code indices.
        d: guesses left (:data:`UNLIMITED`: no limit).
        budget: the largest total of interest.
        history: the guesses played to reach the set, then room for the search's own.
        played: how many of ``history`` were played.
        game: the game (:data:`~evo_mastermind.optimal.guesses.Game`).
        memo: the transposition table.
        busy: the busy table of the threads searching with ``memo`` at once
            (:mod:`~evo_mastermind.optimal.team`; None: this thread alone).
        carry_on: called with each stretch's ``control`` before it runs (setting its
            first element stops the stretch); False stops the search, which then returns
            ``(INF, STOPPED)`` (None: it runs to the end).
    """
    work = STRETCH
    while True:
        control = np.array([0, work], dtype=np.int64)
        if carry_on is not None and not carry_on(control):
            return INF, STOPPED
        stored = int(memo[3][1])
        start = time.thread_time()
        canon = np.empty(game[0].shape[0] + 1, dtype=np.int32)
        canon[0] = -1
        with flags.signal_stops(control):  # Ctrl-C ends the stretch at once, however long
            if busy is None:
                value, guess, _ = _search(
                    members, d, budget, history, played, game, memo, control, canon
                )
            else:
                value, guess, _ = _node(
                    members,
                    d,
                    budget,
                    history,
                    played,
                    game,
                    memo,
                    control,
                    canon,
                    busy,
                    False,
                    _kept(game),
                )
        if control[0] == 0:
            return int(value), int(guess)
        if memo[3][1] == stored:  # nothing new kept (a full table): a longer stretch
            work *= 2
        else:  # the next stretch sized to take about STRETCH_SECONDS on this game
            spent = max(time.thread_time() - start, 1e-3)
            work = max(1, int(work * min(2.0, max(0.25, STRETCH_SECONDS / spent))))


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
    """One stretch of :func:`solve` in this thread alone: :func:`_node` with no busy table.

    Called from Python only (a compiled caller of the recursive :func:`_node` would crash
    when loaded from Numba's cache).
    """
    alone = np.zeros(1, dtype=np.uint64)
    value, guess, depth = _node(
        members, d, budget, history, played, game, memo, control, canon, alone, False, _kept(game)
    )
    return int(value), int(guess), int(depth)


@njit(cache=True, nogil=True)
def _free(busy: npt.NDArray[np.uint64], held: int) -> int:
    """Give back the busy table's slot ``held`` (none if negative); -1."""
    if held >= 0:
        publish(busy, held, np.uint64(0))
    return -1


@njit(cache=True, nogil=True)
def _busy_slot(key: np.uint64, busy: npt.NDArray[np.uint64]) -> int:
    """Where the busy table keeps ``key``."""
    return int(np.int64(key & np.uint64(busy.shape[0] - 1)))


@njit(cache=True, nogil=True)
def _guess_key(key: np.uint64, guess: int) -> np.uint64:
    """The busy table's key of trying ``guess`` at the set of hash ``key``."""
    mixed = key + np.uint64(guess + 1) * np.uint64(0x9E3779B97F4A7C15)
    if mixed == 0 or mixed == BUSY:
        mixed = np.uint64(2)
    return mixed


@njit(cache=True, nogil=True)
def _release(
    busy: npt.NDArray[np.uint64], claimed: int, value: int, guess: int, depth: int
) -> tuple[int, int, int]:
    """Give back the busy table's slot a search held (if any); what it returns."""
    _free(busy, claimed)
    return value, guess, depth


@njit(cache=True, nogil=True)
def _node(
    members: npt.NDArray[np.int32],
    d: int,
    budget: int,
    history: npt.NDArray[np.int32],
    played: int,
    game: Game,
    memo: Memo,
    control: npt.NDArray[np.int64],
    canon: npt.NDArray[np.int32],
    busy: npt.NDArray[np.uint64],
    exclusive: bool,
    kept: Kept,
) -> tuple[int, int, int]:
    """:func:`solve` compiled, with the depth of the tree found; ``control``: ``[stop, work left]``.

    The depth (guesses the deepest secret needs) is 0 when the total is only a bound.

    ``busy``: the sets other threads on the same table are searching, by hash (one slot:
    no other thread). A set of at least :data:`SHARE_MIN` secrets that the table does not
    answer is marked there while it is searched; ``exclusive``: if another thread holds
    it, return at once with guess :data:`DEFERRED` (its parent searches its other parts
    first). A thread alone searches exactly as if there were no busy table.

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
    key = np.uint64(0)
    if n >= TT_MIN:
        key = set_hash(members, d)
        slot = find(members, d, key, tt_key, tt_meta, pool)
        if slot >= 0:
            value, depth, guess = entry(slot, tt_meta)
            if value > budget:
                return value, -1, 0
            if depth > 0:
                return value, guess, depth
        if d != UNLIMITED:
            # The tree found without a limit is this set's tree under any limit it fits.
            slot = find(members, UNLIMITED, set_hash(members, UNLIMITED), tt_key, tt_meta, pool)
            if slot >= 0:
                value, depth, guess = entry(slot, tt_meta)
                if value > budget:
                    return value, -1, 0
                if 0 < depth <= d:
                    return value, guess, depth
    claimed = -1  # the busy table's slot of this set, if this thread holds it
    if busy.shape[0] > 1 and n >= SHARE_MIN:
        at = _busy_slot(key, busy)
        holder = load(busy, at)
        if holder == key:
            if exclusive:
                return INF, DEFERRED, 0  # another thread is on it: come back to it later
        elif holder == 0 and claim(busy, at, key):
            claimed = at
    used[2] += 1
    control[1] -= n * codes.shape[0]
    if control[1] < 0:
        control[0] = 1
    if control[0] != 0:
        return _release(busy, claimed, INF, STOPPED, 0)
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
            return _release(busy, claimed, bound, member, 1 + big)
        if member == NO_MEMBER:
            target = bound + 1
    if canon[0] < 0:  # the first set after these guesses to need them: shared with the others
        canon[0] = canonical_kept(history, played, game, canon[1:], kept)
    guesses, bounds, largest, plain = candidates(members, d, canon, game, target)
    if plain >= 0:
        depth = 1 + largest[-1]
        if n >= TT_MIN:
            store(members, d, target, depth, plain, tt_key, tt_meta, pool, used)
        if target > budget:
            return _release(busy, claimed, target, -1, 0)
        return _release(busy, claimed, target, plain, depth)
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

    # Tried in increasing (bound, code): each next one picked when it is needed, as the first
    # bound above the best total ends the loop after a few (sorting them all cost more).
    order = pending_key[:pending]
    placed = 0
    answers = np.empty(n, dtype=np.int64)
    grouped = np.empty(n, dtype=np.int32)
    starts = np.empty(n_responses, dtype=np.int64)
    sizes = np.empty(n_responses, dtype=np.int64)
    known = np.empty(n_responses, dtype=np.int64)
    deferred = np.zeros(n_responses, dtype=np.bool_)
    child_canon = np.empty(n_codes + 1, dtype=np.int32)
    # With other threads on the table, a guess one of them is trying here is skipped in a
    # first sweep and tried in a second one (by then its parts are mostly in the table).
    sharing = busy.shape[0] > 1 and n >= SHARE_MIN
    skipped = np.zeros(pending, dtype=np.bool_)
    sweeps_end = 2 * pending if sharing else pending
    held = -1  # the busy table's slot of the guess this thread is trying, if it holds one
    j = -1
    while True:
        held = _free(busy, held)
        j += 1
        if j >= sweeps_end:
            break
        if j >= pending and not skipped[j - pending]:
            continue
        if j == placed:  # the least of those not yet placed comes next
            least = j
            for k in range(j + 1, pending):
                if order[k] < order[least]:
                    least = k
            order[j], order[least] = order[least], order[j]
            placed += 1
        item = order[j % pending]
        bound_g = item // n_codes
        g = item % n_codes
        if bound_g > best:
            failed = min(failed, bound_g)
            if j < pending and sharing:
                j = pending - 1  # on to the second sweep
                continue
            break
        limit = best if g < best_guess else best - 1
        if bound_g > limit:
            failed = min(failed, bound_g)
            continue
        if j < pending and sharing:
            trying = _guess_key(key, g)
            at = _busy_slot(trying, busy)
            holder = load(busy, at)
            if holder == trying:
                skipped[j] = True
                continue
            if holder == 0 and claim(busy, at, trying):
                held = at
        # Splitting the set and looking its parts up costs a few passes over it.
        control[1] -= 8 * n
        if control[1] < 0:
            control[0] = 1
            _free(busy, held)
            return _release(busy, claimed, INF, STOPPED, 0)
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
        child_canon[0] = -1  # worked out for this guess when a part first needs it
        depth = 1  # parts of one or two secrets take one or two more guesses
        for r in range(n_responses):
            if 0 < sizes[r] <= 2:
                depth = max(depth, 1 + sizes[r])
        # Smallest parts first: each one solved tightens the larger ones' budget. With other
        # threads on the table, a part one of them is searching is left for later (when it
        # is likely found in the table) and the next one taken; then the parts left.
        first_pass = busy.shape[0] > 1
        deferred[:] = False
        while True:
            r = -1
            for q in range(n_responses):
                if sizes[q] > 2 and not deferred[q] and (r < 0 or sizes[q] < sizes[r]):
                    r = q
            if r < 0:
                if first_pass:
                    first_pass = False
                    deferred[:] = False
                    continue
                break
            c = sizes[r]
            rest -= known[r]
            child_budget = limit - spent - rest
            history[played] = g
            value, chosen, below = _node(
                grouped[starts[r] : starts[r] + c],
                child_d,
                child_budget,
                history,
                played + 1,
                game,
                memo,
                control,
                child_canon,
                busy,
                first_pass,
                kept,
            )
            if chosen == DEFERRED:
                rest += known[r]
                deferred[r] = True
                continue
            sizes[r] = 0
            if control[0] != 0:
                _free(busy, held)
                return _release(busy, claimed, INF, STOPPED, 0)
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
        return _release(busy, claimed, best, best_guess, best_depth)
    failed = max(failed, budget + 1)
    if n >= TT_MIN:
        store(members, d, failed, 0, -1, tt_key, tt_meta, pool, used)
    return _release(busy, claimed, failed, -1, 0)


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
    value = entry(slot, tt_meta)[0] if slot >= 0 else 0
    if d != UNLIMITED:
        slot = find(members, UNLIMITED, set_hash(members, UNLIMITED), tt_key, tt_meta, pool)
        if slot >= 0:
            value = max(value, entry(slot, tt_meta)[0])
    return value

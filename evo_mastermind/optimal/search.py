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
* Counting: at most ``R ** (k - 1)`` secrets can be found by the ``k``-th guess (``R`` the
  number of responses other than the win), so filling the levels in order bounds ``T``
  from below; a part too large for the guesses left cannot be finished at all.
* A guess whose parts all have at most two secrets is scored exactly without recursion.
* Plain answers (the "obvious" guesses of fancidev's 2012 solver, ties kept to the lowest
  code): only a member can reach the set's counting bound, so the first member
  that does with parts of at most two is the answer; failing that, the first code of all
  reaching one more with such parts. Most small sets are settled so, without a search.
* Symmetry: colour and position permutations that fix every guess played map the
  candidate set onto itself, so only the least code of each orbit is tried (colours never
  played are interchangeable, which the canonical relabelling of unplayed colours covers).
  A colour no candidate holds scores like a blank peg, so of guesses differing only in
  such colours only the least is tried (the same parts).
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

from evo_mastermind.optimal.memo import Memo, find, set_hash, store

INF = 1 << 40
"""A total no tree reaches: a value at or above it means "cannot be done in time"."""

UNLIMITED = 255
"""Guesses left when there is no limit (never decreased, so never reached)."""

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

UNSURE = -1
NO_MEMBER = -2
"""What :func:`_member_at_floor` returns when it finds no plain answer."""

OBVIOUS_MAX = 64
"""Candidate sets up to this size are first tried for a plain answer (:func:`_member_at_floor`)."""

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
    """The packed response of every code (row, the guess) to every code (column)."""
    n, pegs = codes.shape
    table = np.empty((n, n), dtype=np.uint8)
    counts = np.zeros((n, colors), dtype=np.uint8)
    for i in range(n):
        for peg in range(pegs):
            counts[i, codes[i, peg]] += 1
    for i in range(n):
        for j in range(n):
            black = 0
            for peg in range(pegs):
                if codes[i, peg] == codes[j, peg]:
                    black += 1
            common = 0
            for colour in range(colors):
                common += min(counts[i, colour], counts[j, colour])
            table[i, j] = black * (pegs + 1) + common - black
    return table


@njit(cache=True, nogil=True)
def level_bounds(n_codes: int, others: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The counting bounds: least total for ``m`` secrets, and most secrets in ``d`` guesses.

    ``others`` is the number of responses other than the win. Returns ``floor[m]`` for
    ``m`` up to ``n_codes`` and ``capacity[d]`` for ``d`` up to :data:`UNLIMITED`.
    """
    floor = np.zeros(n_codes + 1, dtype=np.int64)
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
    capacity = np.zeros(UNLIMITED + 1, dtype=np.int64)
    reach = 1
    for d in range(1, UNLIMITED + 1):
        capacity[d] = min(capacity[d - 1] + reach, INF)
        reach = min(reach * others, INF)
    capacity[UNLIMITED] = INF
    return floor, capacity


@njit(cache=True, nogil=True, inline="always")
def _part_floor(
    m: int, d: int, floor: npt.NDArray[np.int64], capacity: npt.NDArray[np.int64]
) -> int:
    """The counting bound of a part of ``m`` secrets with ``d`` guesses left."""
    if m > capacity[d]:
        return INF
    return floor[m]


@njit(cache=True, nogil=True)
def _stabiliser(
    codes: npt.NDArray[np.uint8],
    colors: int,
    perms: npt.NDArray[np.int64],
    history: npt.NDArray[np.int32],
    played: int,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Position and colour permutations fixing every guess played (played colours only).

    Acting as ``image[sigma[i]] = pi[code[i]]``; unplayed colours are left to the canonical
    relabelling. Returns the position permutations and their colour maps, identity first.
    """
    n_perms, pegs = perms.shape
    sigmas = np.empty((n_perms, pegs), dtype=np.int64)
    maps = np.empty((n_perms, colors), dtype=np.int64)
    found = 0
    for k in range(n_perms):
        mapping = np.full(colors, -1, dtype=np.int64)
        inverse = np.full(colors, -1, dtype=np.int64)
        good = True
        for h in range(played):
            code = codes[history[h]]
            for i in range(pegs):
                a, b = code[i], code[perms[k, i]]
                if (mapping[a] >= 0 and mapping[a] != b) or (inverse[b] >= 0 and inverse[b] != a):
                    good = False
                    break
                mapping[a] = b
                inverse[b] = a
            if not good:
                break
        if good:
            for c in range(colors):
                if mapping[c] < 0:
                    mapping[c] = c
            sigmas[found] = perms[k]
            maps[found] = mapping
            found += 1
    return sigmas[:found], maps[:found]


@njit(cache=True, nogil=True)
def _is_representative(
    code: npt.NDArray[np.uint8],
    index: int,
    colors: int,
    used: npt.NDArray[np.bool_],
    sigmas: npt.NDArray[np.int64],
    maps: npt.NDArray[np.int64],
    image: npt.NDArray[np.int64],
    relabel: npt.NDArray[np.int64],
) -> bool:
    """Whether ``code`` is the least code of its orbit under the symmetries of the history."""
    pegs = code.shape[0]
    for k in range(sigmas.shape[0]):
        for i in range(pegs):
            image[sigmas[k, i]] = maps[k, code[i]]
        relabel[:] = -1
        fresh = 0
        value = 0
        for i in range(pegs):
            colour = image[i]
            if not used[colour]:
                if relabel[colour] < 0:
                    while used[fresh]:
                        fresh += 1
                    relabel[colour] = fresh
                    fresh += 1
                colour = relabel[colour]
            value = value * colors + colour
        if value < index:
            return False
    return True


@njit(cache=True, nogil=True)
def _steps(
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
def _member_at_floor(
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
    """Every guess :func:`solve` tries at this set, in increasing code index.

    One guess per symmetry class, each splitting the set; with each its counting lower
    bound and the size of its largest part other than the win.
    """
    guesses, bounds, largest, _ = _candidates(members, d, history, played, game, -1)
    return guesses, bounds, largest


@njit(cache=True, nogil=True)
def _candidates(
    members: npt.NDArray[np.int32],
    d: int,
    history: npt.NDArray[np.int32],
    played: int,
    game: Game,
    target: int,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64], int]:
    """:func:`guess_bounds`, stopping early at a plain answer of total ``target``.

    ``target`` is a proven lower bound of every guess's total (or -1: none). The first code
    whose bound is ``target`` with parts of at most two secrets (its exact total) is then
    the best guess, returned last and listed last (-1 when there is none; the guesses are
    then complete).
    It is the first such code of all: a code the symmetries skip has a lower one with parts
    of the same sizes.
    """
    codes, colors, table, perms, floor, capacity = game
    n = members.shape[0]
    pegs = codes.shape[1]
    n_codes = codes.shape[0]
    win = pegs * (pegs + 1)
    child_d = d if d == UNLIMITED else d - 1
    colour_used = np.zeros(colors, dtype=np.bool_)
    for h in range(played):
        for colour in codes[history[h]]:
            colour_used[colour] = True
    sigmas, maps = _stabiliser(codes, colors, perms, history, played)
    # With no symmetry but the relabelling of unplayed colours, a code is its orbit's least
    # when its unplayed colours first appear in increasing order, from the least of them.
    symmetric = sigmas.shape[0] > 1
    rank = np.full(colors, -1, dtype=np.int64)
    unplayed = 0
    for colour in range(colors):
        if not colour_used[colour]:
            rank[colour] = unplayed
            unplayed += 1
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
    if perms.shape[0] == 0:  # a pool of guesses: no code stands for another
        rank[:] = -1
        blank[:] = False
    step = _steps(n, child_d, floor, capacity)
    image = np.empty(pegs, dtype=np.int64)
    relabel = np.empty(colors, dtype=np.int64)
    counts = np.zeros((pegs + 1) * (pegs + 1), dtype=np.int64)
    guesses = np.empty(n_codes, dtype=np.int64)
    bounds = np.empty(n_codes, dtype=np.int64)
    largest = np.empty(n_codes, dtype=np.int64)
    found = 0
    for g in range(n_codes):
        skip = False
        fresh = 0
        for i in range(pegs):
            colour = codes[g, i]
            if blank[colour] or rank[colour] > fresh:
                skip = True
                break
            if rank[colour] == fresh:
                fresh += 1
        if skip:
            continue
        if symmetric and not _is_representative(
            codes[g], g, colors, colour_used, sigmas, maps, image, relabel
        ):
            continue
        total, big = _split(g, members, table, step, win, counts)
        if big == n:  # one part holding every secret: the guess tells nothing
            continue
        if total == target:
            if big <= 2:
                guesses[found] = g
                bounds[found] = total
                largest[found] = big
                return guesses[: found + 1], bounds[: found + 1], largest[: found + 1], g
            target = -1  # the first code reaching it may cost more: the search decides
        guesses[found] = g
        bounds[found] = min(total, INF)
        largest[found] = big
        found += 1
    return guesses[:found], bounds[:found], largest[:found], -1


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
        value, guess, _ = _search(members, d, budget, history, played, game, memo, control)
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
    bound = _part_floor(n, d, floor, capacity)
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
        step = _steps(n, child_d, floor, capacity)
        member, big = _member_at_floor(members, bound, step, table, win, counts)
        if member >= 0:
            return bound, member, 1 + big
        if member == NO_MEMBER:
            target = bound + 1
    guesses, bounds, largest, plain = _candidates(members, d, history, played, game, target)
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
            known[r] = _part_floor(c, child_d, floor, capacity)
            if c >= TT_MIN:
                part = grouped[starts[r] : starts[r] + c]
                known[r] = max(known[r], _proven(part, child_d, tt_key, tt_meta, pool))
            rest += known[r]
        spent = n
        if spent + rest > limit:
            failed = min(failed, spent + rest)
            continue
        ok = True
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

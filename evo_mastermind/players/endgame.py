"""The exact end game: once few codes are consistent, the optimum finishes the game.

A player with ``endgame: T`` (the ``sampler`` and ``archive`` players) plays as usual until
at most ``T`` codes are consistent with the history; from then on it plays the optimal
strategy for that set: the fewest guesses summed over its codes, found by the branch and
bound of :mod:`evo_mastermind.optimal.search` (counting bounds, plain answers, transposition
table; ties to the lowest code, so the strategy is a function of the set alone).

The guesses the optimum may play:

* On games of at most :data:`FULL_SPACE` codes, every code, in the game's own response table,
  with the symmetries the history leaves (colour and position permutations fixing every
  guess played) pruning: the end game is then exact, and at a ``T`` covering the whole
  space the player plays the optimum ((4,6): 5625 guesses over every secret).
* On larger games, a pool: the consistent codes, then the ``endgame_pool`` codes one peg
  away from a consistent code whose partition of the set has the highest entropy (ties to
  the lower code). The optimum is then the best strategy over that pool (the consistent
  codes win ties), exact over it, and no symmetry prunes.

Identical games everywhere: the search of a set is given ``endgame_work`` units of work
(the compiled search's own count: a node costs its set's size times the number of codes,
a guess split eight times the set's size), never a time limit. When they run out the move
is the player's own choice, and the next move tries again on the smaller set. Once a set is
solved the rest of the game walks down its optimal strategy (a search of its parts, found
in the table that solved it), with no limit. Each answer is a function of the history
alone, so a process keeps the last solved sets for games that reach the same history.
"""

from __future__ import annotations

import itertools
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
from pydantic import NonNegativeInt, PositiveInt

from evo_mastermind.codes import Code, Codes, CodeSpace, digit_keys
from evo_mastermind.evolution.fitness import History
from evo_mastermind.evolution.neighbourhood import distinct_rows
from evo_mastermind.game import InconsistentResponsesError
from evo_mastermind.heuristics import entropy_score
from evo_mastermind.optimal import search
from evo_mastermind.optimal.memo import Memo
from evo_mastermind.partitions import partition_counts
from evo_mastermind.players.protocol import PlayerParams
from evo_mastermind.sampling import Constraints, SamplingError, consistent_codes
from evo_mastermind.scoring import response_matrix

FULL_SPACE = 6**5
"""Games of at most this many codes search every code as a guess (a square response table
of the whole space, as the ``optimal`` player's)."""

DEFAULT_WORK = 400_000_000
"""Work units a set's search may spend before the move falls back to the player's choice."""

DEFAULT_POOL = 300
"""Codes outside the consistent set offered as guesses on games larger than
:data:`FULL_SPACE`."""

STRETCH = 25_000_000
"""Work units of one call to the compiled search: between two calls a Ctrl-C is raised."""

KEPT = 16
"""Solved sets a process keeps, by history, for later games reaching the same history."""

FULL_SLOTS = 1 << 18
"""Transposition-table slots of a set's search over every code of a small game."""


class EndgameParams(PlayerParams):
    """Options of the exact end game (:mod:`evo_mastermind.players.endgame`)."""

    endgame: NonNegativeInt = 0
    """Once at most this many codes are consistent, the rest of the game is the optimum for
    them (0: off)."""
    endgame_work: PositiveInt = DEFAULT_WORK
    """Work units (the optimal search's count, never time) a set's search may spend before
    the move is the player's own choice."""
    endgame_pool: NonNegativeInt = DEFAULT_POOL
    """On games above 7,776 codes, how many codes outside the consistent set the optimum
    may also guess (those one peg away from a consistent code splitting it best)."""


@dataclass
class _Solved:
    """A set the search solved: its game, its table, and its members (the game's indices)."""

    game: search.Game
    memo: Memo
    members: npt.NDArray[np.int32]
    indices: npt.NDArray[np.int64] | None
    """Pool mode: the pool's codes by index (None: the game is the whole space)."""
    total: int = 0
    """The optimum's guesses summed over the members (set once solved)."""
    lock: threading.Lock = field(default_factory=threading.Lock)


def _memo(n: int, full: bool) -> Memo:
    """A transposition table for a set of ``n`` codes (pages touched only when used).

    Over every code of a small game a set's search meets many more sets (every guess is
    tried): :data:`FULL_SLOTS` slots then.
    """
    slots = FULL_SLOTS if full else 1 << max(12, min(20, int(64 * n).bit_length()))
    return (
        np.zeros(slots, dtype=np.uint64),
        np.zeros((slots, 6), dtype=np.int64),
        np.zeros(slots * 32, dtype=np.int32),
        np.zeros(3, dtype=np.int64),
    )


def _level_game(codes: Codes, colors: int, perms: npt.NDArray[np.int64]) -> search.Game:
    """The search's game over ``codes`` (every code, or a pool when ``perms`` is empty)."""
    pegs = codes.shape[1]
    others = (pegs + 1) * (pegs + 2) // 2 - 2  # responses other than the win
    table = search.response_table(codes, colors)
    floor, capacity = search.level_bounds(codes.shape[0], max(others, 1))
    return (codes, colors, table, perms, floor, capacity)


_FULL_GAMES: dict[CodeSpace, search.Game] = {}
_KEPT: OrderedDict[tuple[object, ...], tuple[_Solved | None, bool]] = OrderedDict()
_LOCK = threading.Lock()


def _full_game(space: CodeSpace) -> search.Game:
    """Every code of ``space`` with its response table and position permutations (kept)."""
    with _LOCK:
        game = _FULL_GAMES.get(space)
        if game is None:
            codes = np.ascontiguousarray(space.all_codes)
            perms = np.array(list(itertools.permutations(range(space.pegs))), dtype=np.int64)
            game = _FULL_GAMES[space] = _level_game(codes, space.colors, perms)
        return game


def pool_codes(members: Codes, extra: int, colors: int) -> Codes:
    """The end game's guesses on a large game: ``members`` then ``extra`` codes outside them.

    The extra codes are those one peg away from a member whose partition of the members has
    the highest entropy, the lower code first on ties (a function of the set alone).
    """
    n, pegs = members.shape
    if extra == 0 or n <= 2:
        return members
    shifts = np.arange(1, colors, dtype=np.uint8)
    near = np.repeat(members, pegs * (colors - 1), axis=0).reshape(n, pegs, colors - 1, pegs)
    for peg in range(pegs):
        near[:, peg, :, peg] = (near[:, peg, :, peg] + shifts[None, :]) % colors
    near = distinct_rows(near.reshape(-1, pegs))
    keys = digit_keys(near, colors)
    near = near[~np.isin(keys, digit_keys(members, colors))]
    keys = digit_keys(near, colors)
    scores = np.empty(near.shape[0], dtype=np.float64)
    rows = max(1, 4_000_000 // n)  # a bounded response matrix at a time
    for start in range(0, near.shape[0], rows):
        block = response_matrix(near[start : start + rows], members, colors)
        scores[start : start + rows] = entropy_score(partition_counts(block, (pegs + 1) ** 2))
    # Rounded so that equal partitions tie exactly whatever the summation order.
    order = np.lexsort((keys, -np.round(scores, 9)))[:extra]
    return np.concatenate([members, near[np.sort(order)]])


class EndGame:
    """A player's exact end game: the optimum's guess once the consistent set is small.

    Args:
        space: the game.
        params: the player's options (``endgame``, ``endgame_work``, ``endgame_pool``).
    """

    def __init__(self, space: CodeSpace, params: EndgameParams) -> None:
        self.space = space
        self.limit = params.endgame
        self.work = params.endgame_work
        self.extra = params.endgame_pool
        self.full = space.size <= FULL_SPACE
        self.moves = 0
        """Moves the end game played in the current game."""
        self.misses = 0
        """Searches in the current game whose work ran out (those moves were the player's)."""
        self.expected: float | None = None
        """When the end game took over: the guesses played before, plus the optimum's mean
        over the set it took over (each of its codes equally likely to be the secret). Its
        mean over games is the player's expected guesses, without the luck of the draw
        after that point."""
        self._solved: _Solved | None = None
        self._members = np.zeros(0, dtype=np.int32)
        """What is left of the solved set in this game."""
        self._seen = 0

    @property
    def enabled(self) -> bool:
        """Whether the option is on."""
        return self.limit > 0

    def start(self) -> None:
        """Begin a game: no set solved yet."""
        self._solved = None
        self._seen = 0
        self.moves = 0
        self.misses = 0
        self.expected = None

    def guess(self, history: History) -> Code | None:
        """The optimum's guess, or None when the set is too large or its search ran out.

        Raises:
            InconsistentResponsesError: no code agrees with every response.
        """
        if not self.enabled or len(history) == 0:
            return None
        if self._solved is None:
            self._solved = self._solve(history)
            self._seen = len(history)
            if self._solved is None:
                return None
            self._members = self._solved.members
            self.expected = len(history) + self._solved.total / self._members.shape[0]
        else:
            self._follow(history)
        code = self._next(history)
        self.moves += 1
        return code

    def _solve(self, history: History) -> _Solved | None:
        """The solved set of this history (kept by history), or None.

        None when the set is larger than the threshold, or its search ran out of work (a
        miss, counted).
        """
        key = (
            self.space,
            self.full,
            self.limit,
            self.work,
            self.extra,
            history.guesses.tobytes(),
            history.blacks.tobytes(),
            history.whites.tobytes(),
        )
        with _LOCK:
            found = _KEPT.get(key)
            if found is not None:
                _KEPT.move_to_end(key)
        if found is None:
            found = self._search_set(history)
            with _LOCK:
                _KEPT[key] = found
                while len(_KEPT) > KEPT:
                    _KEPT.popitem(last=False)
        solved, missed = found
        self.misses += missed
        return solved

    def _search_set(self, history: History) -> tuple[_Solved | None, bool]:
        """The consistent set searched from a fresh table within the work budget.

        Returns the solved set (None: larger than the threshold, or a miss) and whether
        the work ran out.
        """
        constraints = Constraints.of(self.space, history)
        try:
            members = consistent_codes(constraints, self.limit)
        except SamplingError:
            return None, False  # more than the threshold
        if members.shape[0] == 0:
            raise InconsistentResponsesError.because(
                f"no code of {self.space} agrees with all {len(history)} responses"
            )
        if self.full:
            game = _full_game(self.space)
            indices = None
            ids = self.space.indices(members).astype(np.int32)
        else:
            pool = np.ascontiguousarray(pool_codes(members, self.extra, self.space.colors))
            game = _level_game(pool, self.space.colors, np.zeros((0, self.space.pegs), np.int64))
            indices = digit_keys(pool, self.space.colors)
            ids = np.arange(members.shape[0], dtype=np.int32)
        solved = _Solved(game, _memo(ids.shape[0], self.full), np.sort(ids), indices)
        played = self._played(solved, history)
        solved.total = _bounded(solved, solved.members, played, self.work)
        return (solved, False) if solved.total >= 0 else (None, True)

    def _played(self, solved: _Solved, history: History) -> npt.NDArray[np.int32]:
        """The guesses played, as the game's code indices (pool mode: none, no symmetry)."""
        if solved.indices is not None:
            return np.zeros(0, dtype=np.int32)
        return self.space.indices(history.guesses).astype(np.int32)

    def _follow(self, history: History) -> None:
        """Keep the members agreeing with the responses since the last move."""
        solved = self._solved
        assert solved is not None
        table = solved.game[2]
        pegs = self.space.pegs
        guesses, blacks, whites = history.guesses, history.blacks, history.whites
        for move in range(self._seen, len(history)):
            g = self._index(solved, guesses[move])
            packed = int(blacks[move]) * (pegs + 1) + int(whites[move])
            self._members = self._members[table[g, self._members] == packed]
        self._seen = len(history)
        if self._members.shape[0] == 0:
            raise InconsistentResponsesError.because(
                f"no code of {self.space} agrees with all {len(history)} responses"
            )

    def _index(self, solved: _Solved, code: Code) -> int:
        key = int(digit_keys(code[None, :], self.space.colors)[0])
        if solved.indices is None:
            return key
        return int(np.flatnonzero(solved.indices == key)[0])

    def _next(self, history: History) -> Code:
        """The optimal guess for what is left of the solved set (no work limit)."""
        solved = self._solved
        assert solved is not None
        if self._members.shape[0] <= 2:
            guess = int(self._members[0])
        else:
            guess = _unbounded(solved, self._members, self._played(solved, history))
        return np.asarray(solved.game[0][guess], dtype=np.uint8).copy()


def _history(
    played: npt.NDArray[np.int32], members: npt.NDArray[np.int32]
) -> npt.NDArray[np.int32]:
    """The guesses played, with room for those the search plays below ``members``."""
    buffer = np.zeros(played.shape[0] + members.shape[0] + 2, dtype=np.int32)
    buffer[: played.shape[0]] = played
    return buffer


def _call(
    solved: _Solved,
    members: npt.NDArray[np.int32],
    played: npt.NDArray[np.int32],
    control: npt.NDArray[np.int64],
) -> tuple[int, int]:
    """One stretch of the compiled search of ``members`` (``control``: stop flag, work)."""
    canon = np.empty(solved.game[0].shape[0] + 1, dtype=np.int32)
    canon[0] = -1  # the search lists the guesses worth trying after these ones when first needed
    value, guess, _ = search._search(
        members,
        search.UNLIMITED,
        search.INF - 1,
        _history(played, members),
        played.shape[0],
        solved.game,
        solved.memo,
        control,
        canon,
    )
    return int(value), int(guess)


def _bounded(
    solved: _Solved, members: npt.NDArray[np.int32], played: npt.NDArray[np.int32], work: int
) -> int:
    """The set's optimal total within ``work`` units, or -1 when they run out.

    The units are spent in stretches of :data:`STRETCH` (the search resumes from its table
    between them), so the answer depends on the set and ``work`` alone.
    """
    left = work
    with solved.lock:
        while left > 0:
            stretch = min(STRETCH, left)
            control = np.array([0, stretch], dtype=np.int64)
            value, _ = _call(solved, members, played, control)
            if control[0] == 0:
                return value
            left -= stretch
    return -1


def _unbounded(
    solved: _Solved, members: npt.NDArray[np.int32], played: npt.NDArray[np.int32]
) -> int:
    """The optimal guess for ``members``, searched to the end (the table holds most of it)."""
    with solved.lock:
        _, guess = search.solve(
            members,
            search.UNLIMITED,
            search.INF - 1,
            _history(played, members),
            played.shape[0],
            solved.game,
            solved.memo,
        )
    return guess

"""The exact optimal strategy: the search driver, its progress, and the tree it finds.

:class:`OptimalSolver` prepares a game (every code, the response table, the counting
bounds, a transposition table kept across calls) and searches with the compiled
:func:`evo_mastermind.optimal.search.solve`. The first guess is chosen here, opening by
opening, each opening's parts solved as tasks on an executor (this process by default), so
that a long search can show its progress (the best total found and the proven lower bound)
and be interrupted between two parts with the best complete tree found so far. Ties go to
the lowest code index at every node, so the tree depends only on the game and the options,
never on the executor, its workers or the order their tasks finish.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar, Literal

import numpy as np
import numpy.typing as npt

from evo_mastermind.codes import CodeSpace, InvalidGameError
from evo_mastermind.execution import Executor, SerialExecutor
from evo_mastermind.optimal.checkpoint import Checkpoint
from evo_mastermind.optimal.opening_search import OpeningSearch
from evo_mastermind.optimal.outcome import Progress as Progress  # re-exported: where it was
from evo_mastermind.optimal.outcome import SearchInterrupted
from evo_mastermind.optimal.outcome import Solution as Solution
from evo_mastermind.optimal.parts import PartTask, Subtree
from evo_mastermind.optimal.team import Team

Objective = Literal["expected", "worst"]

POOL_PER_SLOT = 16
"""Code indices the transposition table may store per slot (its sets average about ten)."""


def table_slots(size: int) -> int:
    """Transposition-table slots for a game of ``size`` codes: a power of two.

    The sets a search meets grow about as the square of the codes ((4,6) keeps 16,000,
    (4,7) 425,000); a table sized to the game spares the small ones the time to clear
    pages they would never use.
    """
    wanted = max(size * size // 8, 1 << 14)
    return min(1 << (wanted - 1).bit_length(), 1 << 22)


LARGEST_SPACE = 6**5
"""The largest code space the solver takes (its response table is square in the size)."""


class OptimalSolver:
    """Exact optimal decision trees of one game size.

    Args:
        space: the game; at most :data:`LARGEST_SPACE` codes.

    Raises:
        InvalidGameError: a space too large.
    """

    _kept: ClassVar[dict[CodeSpace, OptimalSolver]] = {}
    _keeping: ClassVar[threading.Lock] = threading.Lock()

    @classmethod
    def of(cls, space: CodeSpace) -> OptimalSolver:
        """This process's solver of ``space``, built on first use.

        One is kept per process, the last game's (its table is large): what it learns
        serves every later search and task of that game, whatever the options.
        """
        with cls._keeping:
            kept = cls._kept.get(space)
            if kept is None or type(kept) is not cls:
                cls._kept.clear()
                kept = cls._kept[space] = cls(space)
            return kept

    def __init__(self, space: CodeSpace) -> None:
        from evo_mastermind.optimal import search, tree_reading

        if space.size > LARGEST_SPACE:
            raise InvalidGameError(
                f"player 'optimal' searches spaces of at most {LARGEST_SPACE:,} codes; "
                f"{space} has {space.size:,}"
            )
        self.space = space
        self.max_guesses: int | None = None
        self.objective: Objective = "expected"
        self.first_guess: int | None = None
        self._checkpoint: Checkpoint | None = None
        self.team = Team(1)
        """The threads that search each set (one: this thread; see :meth:`solve`)."""
        self._search = search
        self._tree_reading = tree_reading
        self.codes = np.ascontiguousarray(space.all_codes)
        self.table = search.response_table(self.codes, space.colors)
        pegs = space.pegs
        others = (pegs + 1) * (pegs + 2) // 2 - 2  # responses other than the win
        self.floor, self.capacity = search.level_bounds(space.size, max(others, 1))
        self.perms = np.array(list(itertools.permutations(range(pegs))), dtype=np.int64)
        slots = table_slots(space.size)
        self.tt_key = np.zeros(slots, dtype=np.uint64)
        self.tt_meta = np.zeros((slots, 6), dtype=np.int64)
        self.pool = np.zeros(slots * POOL_PER_SLOT, dtype=np.int32)
        self.used = np.zeros(3, dtype=np.int64)
        self.game = (self.codes, space.colors, self.table, self.perms, self.floor, self.capacity)
        self.memo = (self.tt_key, self.tt_meta, self.pool, self.used)
        self.win = pegs * (pegs + 1)
        self.inf: int = search.INF
        self.unlimited: int = search.UNLIMITED

    def _solve(
        self,
        members: npt.NDArray[np.int32],
        d: int,
        budget: int,
        history: list[int],
        together: bool = True,
    ) -> tuple[int, int]:
        """``(T, best guess)`` of a set (see :func:`~.search.solve`).

        ``together``: by this solver's team; else by this thread alone (the tree read off
        the table, where nearly every set is found at once).
        """
        buffer = np.zeros(len(history) + min(d, members.size) + 2, dtype=np.int32)
        buffer[: len(history)] = history
        solver = self.team if together else Team(1)
        value, guess = solver.solve(members, d, budget, buffer, len(history), self.game, self.memo)
        return int(value), int(guess)

    def parts(
        self, members: npt.NDArray[np.int32], guess: int
    ) -> list[tuple[int, npt.NDArray[np.int32]]]:
        """The non-winning parts of ``members`` by response to ``guess``, in response order."""
        answers = self.table[guess][members]
        return [(int(r), members[answers == r]) for r in np.unique(answers) if int(r) != self.win]

    def solve(
        self,
        max_guesses: int | None = None,
        objective: Objective = "expected",
        first_guess: str | None = None,
        report: Callable[[Progress], None] | None = None,
        executor: Executor | None = None,
        checkpoint: str | Path | None = None,
        threads: int = 1,
    ) -> Solution:
        """The optimal tree (or, if interrupted with Ctrl-C, the best complete one so far).

        What the search learns is kept for later calls on the same game, whatever options.
        An interrupted search's tree says so: ``complete`` is False and ``lower`` is the
        proven lower bound on the optimum.

        Args:
            max_guesses: no secret may need more guesses (None: no limit).
            objective: ``"expected"``: fewest total guesses (then the least depth);
                ``"worst"``: the least depth, then the fewest total guesses.
            first_guess: a fixed opening (a code), or None to choose it.
            report: called with the search's :class:`Progress` after every part solved.
            executor: where the parts under the openings are solved (None: here, one
                after the other); the tree is the same on every executor.
            checkpoint: a file where what is proven is written as the search goes, and
                from which a search interrupted before resumes (None: none). The same
                options must be given again.
            threads: threads of this process that search each set together, sharing its
                transposition table (:mod:`~evo_mastermind.optimal.team`); the tree is the
                same whatever their number.

        Raises:
            InvalidGameError: options out of range, or no tree meets ``max_guesses``.
        """
        search = self._search
        if max_guesses is not None and not 1 <= max_guesses < search.UNLIMITED:
            raise InvalidGameError(
                f"max_guesses must be between 1 and {search.UNLIMITED - 1}, got {max_guesses}"
            )
        if objective not in ("expected", "worst"):
            raise InvalidGameError(f"objective must be 'expected' or 'worst', got {objective!r}")
        if threads < 1:
            raise InvalidGameError(f"threads must be at least 1, got {threads}")
        with Team(threads) as self.team:
            try:
                return self._solve_options(
                    max_guesses, objective, first_guess, report, executor, checkpoint
                )
            finally:
                self.team = Team(1)

    def _solve_options(
        self,
        max_guesses: int | None,
        objective: Objective,
        first_guess: str | None,
        report: Callable[[Progress], None] | None,
        executor: Executor | None,
        checkpoint: str | Path | None,
    ) -> Solution:
        """:meth:`solve` with its options checked, on this solver's team."""
        search = self._search
        self.max_guesses, self.objective = max_guesses, objective
        space = self.space
        self.first_guess = None if first_guess is None else space.index(space.parse(first_guess))
        executor = executor or SerialExecutor()
        self._checkpoint = (
            None if checkpoint is None else Checkpoint(Path(checkpoint), space.pegs, space.colors)
        )
        limit = search.UNLIMITED if self.max_guesses is None else self.max_guesses
        if self.objective == "worst":
            depth = 1
            while depth < limit and not self._fits(depth, executor):
                depth += 1
            limit = depth
        solution = self._search_openings(limit, report, executor)
        if solution is None:
            raise InvalidGameError(
                f"no strategy finds every secret of {self.space} within {limit} guesses"
                + ("" if self.first_guess is None else " after that first guess")
            )
        if self.objective == "expected":
            solution = self._shallowest(solution, executor)
        return solution

    def _search_openings(
        self,
        d: int,
        report: Callable[[Progress], None] | None,
        executor: Executor,
        ceiling: int | None = None,
    ) -> Solution | None:
        """The optimal tree within ``d`` guesses (and ``ceiling`` guesses in all), or None.

        Unless a ceiling is given, a quick first tree is kept if it is interrupted before
        any opening is solved; it is grown at the start only when progress is reported (its
        total is the first best shown, and caps the search), else when it is needed (it
        does not speed the search up).
        """
        first = None if ceiling is not None or report is None else self._greedy(d)
        if first is not None:
            ceiling = first.total  # the optimum is no worse: nothing above it is searched
        try:
            if first is not None and report is not None:
                report(Progress(first.total, first.lower, 0, len(self.openings(d)[0])))
            return self._opening_search(d, executor, report, ceiling=ceiling)
        except KeyboardInterrupt as stop:
            if first is None and ceiling is None:
                first = self._greedy(d)
            if first is None:
                raise
            if isinstance(stop, SearchInterrupted):  # its parts solved prove more than counting
                first.lower = max(first.lower, stop.lower)
            return first

    def _greedy(self, d: int) -> Solution | None:
        """A quick first tree: at every node the guess of least counting bound.

        Its total bounds the optimum from above; it is the tree kept if the search is
        interrupted before any opening is solved. None if it cannot finish in ``d`` guesses.
        """
        search = self._search
        everything = np.arange(self.space.size, dtype=np.int32)
        nodes: dict[tuple[int, ...], int] = {}
        counts = np.zeros(self.space.size, dtype=np.int64)

        def grow(members: npt.NDArray[np.int32], d: int, guess: int, path: tuple[int, ...]) -> bool:
            if guess < 0:
                return False
            nodes[path] = guess
            counts[members[members == guess]] = len(path) + 1
            child_d = d if d == search.UNLIMITED else d - 1
            played = np.array([*(nodes[path[:k]] for k in range(len(path))), guess, 0], np.int32)
            for response, part in self.parts(members, guess):
                if child_d < 1:
                    return False
                chosen = search.greedy_guess(part, child_d, played, len(path) + 1, self.game)
                if not grow(part, child_d, chosen, (*path, response)):
                    return False
            return True

        opening = self.first_guess
        if opening is None:
            opening = search.greedy_guess(everything, d, np.zeros(1, np.int32), 0, self.game)
        if not grow(everything, d, opening, ()):
            return None
        total = int(counts.sum())
        lower = min(self.openings(d)[1])
        return Solution(total, int(counts.max()), counts, nodes, False, lower)

    def _shallowest(self, solution: Solution, executor: Executor) -> Solution:
        """Among the trees with the fewest guesses, one of the least depth.

        The optimum within ``d - 1`` guesses is searched with the optimal total as its
        budget, one guess less each time, until it costs more. Interrupted, the tree kept
        has the optimal total (``lower`` equals it) but may not be the shallowest.
        """
        try:
            while solution.complete and solution.depth > 1:
                found = self._search_openings(solution.depth - 1, None, executor, solution.total)
                if found is None or found.total != solution.total:
                    break
                solution = found
        except KeyboardInterrupt:
            solution.complete = False
        return solution

    def _opening_search(
        self,
        d: int,
        executor: Executor,
        report: Callable[[Progress], None] | None = None,
        ceiling: int | None = None,
    ) -> Solution | None:
        """The optimal tree within ``d`` guesses over the openings, or None if none fits.

        Each opening's parts are tasks on ``executor``, largest first, at most one per
        worker at a time; a part's budget is fixed when it is sent, from the best total
        found then and the parts of its opening already solved (on one worker: exactly the
        sequential branch and bound). A part's answer is exact whenever it fits its budget,
        so the tree found does not depend on the executor or on the order tasks finish.
        ``ceiling``: only totals up to it are searched for (unset: any). A Ctrl-C once an
        opening is solved keeps the best complete tree so far (``complete`` False).

        Raises:
            SearchInterrupted: interrupted before any opening was solved (a KeyboardInterrupt
                with the lower bound proven by then).
        """
        run = OpeningSearch(self, d, executor, report, ceiling, self._checkpoint)
        try:
            run.search()
        except KeyboardInterrupt:
            if run.best is None:
                raise SearchInterrupted(run.progress().lower) from None
            run.complete = False
        return run.solution()

    def _fits(self, depth: int, executor: Executor) -> bool:
        """Whether some tree finds every secret within ``depth`` guesses."""
        return OpeningSearch(self, depth, executor, None, None, self._checkpoint).fits()

    def openings(self, d: int) -> tuple[list[int], list[int]]:
        """The openings to try with ``d`` guesses, and their counting bounds, best bound first.

        The fixed first guess if there is one, else one per symmetry class of the codes.
        """
        search = self._search
        everything = np.arange(self.space.size, dtype=np.int32)
        if self.first_guess is not None:
            child_d = d if d == search.UNLIMITED else d - 1
            parts = self.parts(everything, self.first_guess)
            bound = self.space.size + sum(self.floor_of(p.size, child_d) for _, p in parts)
            return [self.first_guess], [min(bound, search.INF)]
        guesses, bounds = search.guess_bounds(
            everything, d, np.zeros(1, dtype=np.int32), 0, self.game
        )[:2]
        order = np.lexsort((guesses, bounds))
        return [int(g) for g in guesses[order]], [int(b) for b in bounds[order]]

    def part_bound(self, members: npt.NDArray[np.int32], d: int) -> int:
        """A lower bound on a part's cost with ``d`` guesses left.

        Its counting bound, or what this process's table proved of it (the search without a
        limit proves the parts the search for a shallower tree meets).
        """
        floor = self.floor_of(members.size, d)
        if members.size < 4 or floor >= self._search.INF:
            return floor
        return max(floor, self._search.proven(members, d, self.memo))

    def floor_of(self, size: int, d: int) -> int:
        """The counting bound of a set of ``size`` secrets with ``d`` guesses left."""
        if size > self.capacity[d]:
            return int(self._search.INF)
        return int(self.floor[size])

    def read_tree(
        self, opening: int, limit: int, total: int, lower: int, complete: bool
    ) -> Solution:
        """The whole tree after ``opening``, read off the transposition table."""
        everything = np.arange(self.space.size, dtype=np.int32)
        nodes, counts = self.subtree(everything, limit, opening, [])
        if int(counts.sum()) != total:
            raise AssertionError(f"optimal tree total {int(counts.sum())} != searched {total}")
        return Solution(total, int(counts.max()), counts, nodes, complete, lower)

    def subtree(
        self, members: npt.NDArray[np.int32], d: int, guess: int, history: list[int]
    ) -> tuple[dict[tuple[int, ...], int], npt.NDArray[np.int64]]:
        """The optimal tree of a set from its guess on, re-searching what the table forgot.

        Returns the guess at every node by its path of packed responses from the set, and
        the guesses each member needs from there (in the order of ``members``).
        """
        reading = self._tree_reading
        nodes: dict[tuple[int, ...], int] = {}
        needs = np.zeros(self.space.size, dtype=np.int64)

        def grow(
            members: npt.NDArray[np.int32],
            d: int,
            guess: int,
            path: tuple[int, ...],
            played: list[int],
        ) -> None:
            # What the table and the plain answers tell, in one compiled call; the parts
            # they leave are searched here, and read the same way from their guess on.
            found, known, left, left_members = reading.tree_from(
                members, d, guess, self.game, self.memo
            )
            parents, responses, guesses = found.tolist()
            nodes[path] = guess
            paths = [path]
            for parent, response, chosen in zip(
                parents[1:], responses[1:], guesses[1:], strict=True
            ):
                paths.append((*paths[parent], response))
                nodes[paths[-1]] = chosen
            reached = known[members]
            needs[members[reached > 0]] = reached[reached > 0] + len(path)
            for parent, response, part_d, start, size in left.T.tolist():
                part = left_members[start : start + size]
                at, chain = parent, []
                while at >= 0:
                    chain.append(guesses[at])
                    at = parents[at]
                before = [*played, *reversed(chain)]
                _, chosen = self._solve(part, part_d, self._search.INF - 1, before, False)
                grow(part, part_d, chosen, (*paths[parent], response), before)
                searched.append(part)

        searched: list[npt.NDArray[np.int32]] = []
        grow(members, d, guess, (), history)
        if searched:  # depth first in increasing response, as the compiled walk lists them
            return dict(sorted(nodes.items())), needs[members]
        return nodes, needs[members]

    def answer(self, task: PartTask) -> tuple[int, Subtree | None]:
        """A part's ``T`` within its budget (else a bound above it) and, if asked, its tree."""
        history = [task.opening]
        value, guess = self._solve(task.members, task.guesses_left, task.budget, history)
        if value > task.budget or not task.with_tree:
            return value, None
        return value, self.subtree(task.members, task.guesses_left, guess, history)

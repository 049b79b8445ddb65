"""The one search over the openings: each opening's parts solved as tasks on an executor.

An opening splits the secrets into parts by response; the opening's total is the number of
secrets plus the optimum of every part. The parts are sent largest first, at most one per
worker at a time, each with the budget that is left when it is sent: the limit (the best
total found so far, one less for an opening after the best one by code index, so that ties
go to the lowest code), less what the parts of its opening already solved cost and the
counting bound of the others. On one worker (the serial executor) that is exactly the
sequential branch and bound; on several, the parts of later openings start while earlier
ones finish. A part's answer is exact whenever it fits its budget, and one that does not
fit proves its opening no better than the best, so the tree found is the same whatever the
executor, the number of workers or the order tasks finish.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from evo_mastermind.codes import CodeSpace
from evo_mastermind.execution import Executor
from evo_mastermind.optimal.checkpoint import Checkpoint
from evo_mastermind.optimal.outcome import Progress, Solution
from evo_mastermind.optimal.parts import PartSolver, PartTask, Subtree, solve_part

WORKER_MODULES = ("evo_mastermind.optimal.solver",)
"""What a worker process of the search imports (a process pool preloads it once)."""


class PreparedGame(PartSolver, Protocol):
    """What the search asks of the solver of a game (:class:`~.solver.OptimalSolver`)."""

    space: CodeSpace
    inf: int
    unlimited: int

    def openings(self, d: int) -> tuple[list[int], list[int]]:
        """The openings to try with ``d`` guesses and their counting bounds, best first."""
        ...

    def parts(
        self, members: npt.NDArray[np.int32], guess: int
    ) -> list[tuple[int, npt.NDArray[np.int32]]]:
        """The non-winning parts of ``members`` by response to ``guess``."""
        ...

    def floor_of(self, size: int, d: int) -> int:
        """The counting bound of a set of ``size`` secrets with ``d`` guesses left."""
        ...

    def part_bound(self, members: npt.NDArray[np.int32], d: int) -> int:
        """A lower bound on a part's cost with ``d`` guesses left."""
        ...

    def read_tree(
        self, opening: int, limit: int, total: int, lower: int, complete: bool
    ) -> Solution:
        """The tree after ``opening``, read off this process's table."""
        ...


@dataclass
class _Opening:
    """One opening as the search decides it."""

    guess: int
    proven: int
    """Its proven lower bound: the counting bound, then raised as its parts are solved."""
    parts: list[tuple[int, npt.NDArray[np.int32]]] = field(default_factory=list)
    """Response and secrets of each part, largest first (filled when the opening starts)."""
    floors: list[int] = field(default_factory=list)
    values: dict[int, int] = field(default_factory=dict)
    """Exact cost of each part solved within its budget, by its place in ``parts``."""
    trees: dict[int, Subtree] = field(default_factory=dict)
    """Each part's tree by its response, when a worker elsewhere sent it."""
    started: bool = False
    sent: int = 0
    decided: bool = False
    """Solved, or shown no better than the best."""

    def known(self, size: int, failing: tuple[int, int] | None = None) -> int:
        """Its least possible total: solved parts' costs, the others' floors (or a bound)."""
        total = size + sum(self.values.values())
        for k, floor in enumerate(self.floors):
            if failing is not None and k == failing[0]:
                total += failing[1]
            elif k not in self.values:
                total += floor
        return total


class OpeningSearch:
    """The optimal tree within ``d`` guesses over the solver's openings, on ``executor``.

    Args:
        solver: the prepared game (its openings, parts and counting bounds).
        d: guesses allowed.
        executor: where the parts are solved; one running tasks in this process reads the
            tree off the solver's own table, others send each part's tree back.
        report: called with the :class:`Progress` after every part.
        ceiling: only totals up to it are searched for (None: any).
        checkpoint: where what is proven is written after every part, and read back at
            the start (None: nowhere).
    """

    def __init__(
        self,
        solver: PreparedGame,
        d: int,
        executor: Executor,
        report: Callable[[Progress], None] | None,
        ceiling: int | None,
        checkpoint: Checkpoint | None = None,
    ) -> None:
        self.solver, self.d, self.executor = solver, d, executor
        self.report, self.ceiling = report, ceiling
        self.child_d = d if d == solver.unlimited else d - 1
        self.size = solver.space.size
        guesses, bounds = solver.openings(d)
        self.openings = [_Opening(g, b) for g, b in zip(guesses, bounds, strict=True)]
        self.best: _Opening | None = None
        self.best_total: int = solver.inf
        self.complete = True
        self._token = object()  # tags results of this search apart from an abandoned one's
        self._next = 0
        self._in_flight = 0
        here = executor.in_process
        self._task: Callable[[PartTask], Any] = solver.answer if here else solve_part
        self.checkpoint = checkpoint
        openings = [o.guess for o in self.openings]
        self._key = f"limit {d}, ceiling {ceiling}, openings {openings}"
        if checkpoint is not None:
            self._resume(checkpoint.load(self._key))

    def _resume(self, state: dict[str, Any] | None) -> None:
        """Take what a checkpoint proved: decided openings, solved parts, the best."""
        if state is None:
            return
        by_guess = {o.guess: o for o in self.openings}
        for guess, saved in state["openings"].items():
            opening = by_guess[int(guess)]
            opening.proven = max(opening.proven, saved["proven"])
            if saved["started"]:
                opening.started = True
                self._start(opening)
                opening.values = {int(k): v for k, v in saved["values"].items()}
            opening.decided = saved["decided"]
        if state["best"] is not None:
            self.best, self.best_total = by_guess[state["best"]], state["best_total"]

    def _save(self) -> None:
        """Write what is proven to the checkpoint."""
        assert self.checkpoint is not None
        openings = {
            str(o.guess): {
                "proven": o.proven,
                "started": o.started,
                "values": {str(k): v for k, v in o.values.items()},
                "decided": o.decided,
            }
            for o in self.openings
            if o.started or o.decided
        }
        progress = self.progress()
        state = {
            "best": None if self.best is None else self.best.guess,
            "best_total": self.best_total,
            "lower": progress.lower,
            "openings": openings,
        }
        self.checkpoint.save(self._key, state)

    def limit(self, opening: _Opening) -> int:
        """The largest total that would make ``opening`` the best (ties to the lower code)."""
        if self.best is None:
            return self.solver.inf - 1 if self.ceiling is None else self.ceiling
        return self.best_total if opening.guess < self.best.guess else self.best_total - 1

    def fits(self) -> bool:
        """Whether some opening can finish every secret in time (stops at the first)."""
        self.search(probe=True)
        return self.best is not None

    def search(self, probe: bool = False) -> None:
        """Decide every opening (``probe``: stop at the first one that fits)."""
        if probe and self.best is not None:
            return  # found before a checkpoint
        while True:
            while self._in_flight < self.executor.workers and self._send_next():
                pass
            if self._in_flight == 0:
                return
            tag, (value, tree) = self.executor.next_done()
            if tag[0] is not self._token:
                continue  # a task an earlier, interrupted search left behind
            self._in_flight -= 1
            self._receive(tag[1], tag[2], tag[3], value, tree)
            if probe and self.best is not None:
                return

    def _send_next(self) -> bool:
        """Send the next part to solve; False when every opening's parts have been sent."""
        while self._next < len(self.openings):
            opening = self.openings[self._next]
            if not opening.started:
                opening.started = True
                if opening.proven > self.limit(opening):
                    opening.decided = True  # its counting bound alone rules it out
                    self._next += 1
                    continue
                self._start(opening)
            while opening.sent in opening.values:  # solved before a checkpoint
                opening.sent += 1
            if opening.decided or opening.sent == len(opening.parts):
                self._next += 1
                continue
            k = opening.sent
            opening.sent += 1
            budget = self.limit(opening) - opening.known(self.size, (k, 0))
            members = opening.parts[k][1]
            task = PartTask(
                self.solver.space.pegs,
                self.solver.space.colors,
                members,
                self.child_d,
                budget,
                opening.guess,
                not self.executor.in_process,
                type(self.solver),
            )
            self.executor.submit(self._task, task, (self._token, self._next, k, budget))
            self._in_flight += 1
            return True
        return False

    def _start(self, opening: _Opening) -> None:
        everything = np.arange(self.size, dtype=np.int32)
        parts = self.solver.parts(everything, opening.guess)
        # Largest first: its budget is the loosest, and no worker is left alone with it.
        opening.parts = sorted(parts, key=lambda item: -item[1].size)
        opening.floors = [self.solver.part_bound(p, self.child_d) for _, p in opening.parts]

    def _receive(self, index: int, k: int, budget: int, value: int, tree: Subtree | None) -> None:
        opening = self.openings[index]
        if opening.decided:
            return  # a part of an opening another part already ruled out
        if value > budget:
            opening.proven = max(opening.proven, opening.known(self.size, (k, value)))
            opening.decided = True
        else:
            opening.values[k] = value
            if tree is not None:
                opening.trees[opening.parts[k][0]] = tree
            opening.proven = max(opening.proven, opening.known(self.size))
            if len(opening.values) == len(opening.parts):
                opening.decided = True
                total = opening.known(self.size)
                if total <= self.limit(opening):
                    self.best, self.best_total = opening, total
        if self.checkpoint is not None:
            self._save()
        if self.report is not None:
            self.report(self.progress())

    def progress(self) -> Progress:
        """What the search knows now."""
        best = self.best_total if self.ceiling is None else min(self.best_total, self.ceiling)
        done = sum(1 for o in self.openings if o.decided)
        found = None if best >= self.solver.inf else best
        return Progress(found, self.lower(best), done, len(self.openings))

    def lower(self, best: int) -> int:
        """The proven lower bound on the optimum within ``d`` guesses."""
        return min(min((o.proven for o in self.openings), default=best), best)

    def solution(self) -> Solution | None:
        """The best opening's tree (None if no opening fits)."""
        best = self.best
        if best is None:
            return None
        lower = self.lower(self.best_total)
        if self.executor.in_process or len(best.trees) < len(best.parts):
            # Here, or parts solved before a checkpoint: the tree read off this table.
            return self.solver.read_tree(best.guess, self.d, self.best_total, lower, self.complete)
        nodes: dict[tuple[int, ...], int] = {(): best.guess}
        counts = np.ones(self.size, dtype=np.int64)
        for response, part in best.parts:
            sub_nodes, needs = best.trees[response]
            for path, guess in sub_nodes.items():
                nodes[(response, *path)] = guess
            counts[part] = needs + 1
        # Depth first in increasing response, as the tree read off the table lists them.
        ordered = {path: nodes[path] for path in sorted(nodes)}
        return Solution(self.best_total, int(counts.max()), counts, ordered, self.complete, lower)

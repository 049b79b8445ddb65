"""The optimal search with the subtrees under the opening spread over an executor.

Every part of the secrets left by an opening is a task: its optimum within a budget, and
its tree when it fits. The budgets are fixed before the tasks are sent (the best opening
by its counting bound is solved first, then every other opening against its total), and a
task's answer is exact whenever it fits its budget, so which openings succeed and the tree
they give do not depend on the executor, the number of workers or the order tasks finish:
the tree is the same one the sequential search finds.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from evo_mastermind.codes import CodeSpace
from evo_mastermind.optimal.outcome import Progress, Solution

if TYPE_CHECKING:
    from evo_mastermind.optimal.solver import OptimalSolver
    from evo_mastermind.runner.executors import Executor

Subtree = tuple[dict[tuple[int, ...], int], npt.NDArray[np.int64]]


@dataclass(frozen=True)
class PartTask:
    """One part under one opening: its set, guesses left and budget."""

    pegs: int
    colors: int
    members: npt.NDArray[np.int32]
    guesses_left: int
    budget: int
    opening: int
    solver: type[OptimalSolver]
    """The solver's class, sent by reference: a worker builds its own from it."""


_WORKER_SOLVERS: dict[CodeSpace, OptimalSolver] = {}
"""Each worker's solver of the last game it met (its transposition table serves every task)."""


def solve_part(task: PartTask) -> tuple[int, Subtree | None]:
    """A task's optimum (exact within its budget, else a bound above it) and its tree."""
    space = CodeSpace(task.pegs, task.colors)
    if space not in _WORKER_SOLVERS:
        _WORKER_SOLVERS.clear()
        _WORKER_SOLVERS[space] = task.solver(space)
    solver = _WORKER_SOLVERS[space]
    return solver.solve_part(task.members, task.guesses_left, task.budget, [task.opening])


@dataclass
class _Opening:
    guess: int
    bound: int
    parts: list[tuple[int, npt.NDArray[np.int32]]]
    values: dict[int, int]
    trees: dict[int, Subtree]
    limit: int = 0
    failed: bool = False

    def proven(self, solver: OptimalSolver, d: int) -> int:
        total = solver.space.size
        for response, part in self.parts:
            known = self.values.get(response)
            total += known if known is not None else solver.floor_of(part.size, d)
        return total


def search_on(
    solver: OptimalSolver,
    executor: Executor,
    d: int,
    ceiling: int | None = None,
    report: Callable[[Progress], None] | None = None,
) -> Solution | None:
    """The optimal tree within ``d`` guesses and at most ``ceiling`` total, or None.

    A Ctrl-C after the first opening is solved keeps the best complete tree so far.
    """
    inf = solver.inf
    child_d = d if d == solver.unlimited else d - 1
    everything = np.arange(solver.space.size, dtype=np.int32)
    guesses, bounds = solver.openings(d)
    openings = [
        _Opening(g, b, solver.parts(everything, g), {}, {})
        for g, b in zip(guesses, bounds, strict=True)
    ]
    best: _Opening | None = None
    best_total = inf
    top = inf - 1 if ceiling is None else ceiling
    complete = True
    try:
        first, rest = openings[:1], openings[1:]
        for wave in (first, rest):
            for opening in wave:
                if best is None:
                    opening.limit = top
                else:
                    opening.limit = best_total if opening.guess < best.guess else best_total - 1
                if opening.bound > opening.limit:
                    opening.failed = True
                    continue
                floors = {r: solver.floor_of(p.size, child_d) for r, p in opening.parts}
                # Largest parts first, so that no worker is left alone with one at the end.
                for response, part in sorted(opening.parts, key=lambda item: -item[1].size):
                    others = sum(floors.values()) - floors[response]
                    budget = opening.limit - solver.space.size - others
                    task = PartTask(
                        solver.space.pegs,
                        solver.space.colors,
                        part,
                        child_d,
                        budget,
                        opening.guess,
                        type(solver),
                    )
                    executor.submit(solve_part, task, (openings.index(opening), response, budget))
            while executor.pending():
                (index, response, budget), (value, tree) = executor.next_done()
                opening = openings[index]
                opening.values[response] = value
                if value > budget:
                    opening.failed = True
                elif tree is not None:
                    opening.trees[response] = tree
                if report is not None:
                    found = None if best is None else best_total
                    lower = min(
                        min(o.proven(solver, child_d) for o in openings),
                        inf if best is None else best_total,
                    )
                    done = sum(1 for o in openings if o.failed or len(o.values) == len(o.parts))
                    report(Progress(found, lower, done, len(openings)))
            for opening in wave:
                if opening.failed or len(opening.values) != len(opening.parts):
                    continue
                total = opening.proven(solver, child_d)
                if total > opening.limit:
                    continue
                if best is None or (total, opening.guess) < (best_total, best.guess):
                    best, best_total = opening, total
    except KeyboardInterrupt:
        if best is None:
            raise
        complete = False
        print("interrupted: keeping the best complete tree found so far", file=sys.stderr)
    if best is None:
        return None
    nodes: dict[tuple[int, ...], int] = {(): best.guess}
    counts = np.ones(solver.space.size, dtype=np.int64)
    for response, part in best.parts:
        sub_nodes, needs = best.trees[response]
        for path, guess in sub_nodes.items():
            nodes[(response, *path)] = guess
        counts[part] = needs + 1
    lower = best_total if complete else min(o.proven(solver, child_d) for o in openings)
    return Solution(best_total, int(counts.max()), counts, _ordered(nodes), complete, lower)


def _ordered(nodes: dict[tuple[int, ...], int]) -> dict[tuple[int, ...], int]:
    """Nodes depth first in increasing response, as the sequential search lists them."""
    return {path: nodes[path] for path in sorted(nodes)}

"""The one opening search on every executor, and interrupted: the same tree, or the best so far."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from evo_mastermind.codes import CodeSpace
from evo_mastermind.execution import Executor, make_executor
from evo_mastermind.optimal.opening_search import WORKER_MODULES
from evo_mastermind.optimal.solver import OptimalSolver, Progress


@pytest.fixture(scope="module")
def pool() -> Iterator[Executor]:
    """One local pool for every test here (its workers load the compiled search once)."""
    with make_executor("process", 2, preload=WORKER_MODULES) as executor:
        yield executor


@pytest.mark.parametrize(
    ("pegs", "colors", "options"),
    [(3, 4, {}), (4, 3, {"objective": "worst"}), (3, 5, {"max_guesses": 5, "first_guess": "ABC"})],
)
def test_every_executor_gives_the_same_tree(
    pegs: int, colors: int, options: dict[str, Any], pool: Executor
) -> None:
    space = CodeSpace(pegs, colors)
    here = OptimalSolver(space).solve(**options)
    with make_executor("serial") as serial:
        for executor in (serial, pool):
            spread = OptimalSolver(space).solve(**options, executor=executor)
            assert list(spread.nodes.items()) == list(here.nodes.items())
            assert (spread.guesses == here.guesses).all() and spread.complete


def test_a_dask_cluster_gives_the_same_tree() -> None:
    space = CodeSpace(3, 4)
    with make_executor("dask", 2) as executor:
        spread = OptimalSolver(space).solve(executor=executor)
    assert spread.nodes == OptimalSolver(space).solve().nodes


@pytest.mark.parametrize("where", ["default", "serial", "process"])
def test_an_interrupted_search_keeps_the_best_complete_tree(where: str, pool: Executor) -> None:
    space = CodeSpace(3, 5)
    seen: list[Progress] = []

    def interrupt_once_an_opening_is_solved(progress: Progress) -> None:
        seen.append(progress)
        if progress.openings_done >= 1 and progress.best is not None:
            raise KeyboardInterrupt

    solver = OptimalSolver(space)
    if where == "default":
        kept = solver.solve(report=interrupt_once_an_opening_is_solved)
    else:
        with make_executor("serial") as serial:
            executor = pool if where == "process" else serial
            kept = solver.solve(report=interrupt_once_an_opening_is_solved, executor=executor)
    optimum = OptimalSolver(space).solve().total  # held to the oracle in test_solver
    assert not kept.complete
    assert kept.lower <= optimum <= kept.total == int(kept.guesses.sum())
    assert all(p.lower <= optimum for p in seen)
    assert seen[-1].best == kept.total


def test_a_search_after_an_interrupted_one_on_the_same_pool_is_whole(pool: Executor) -> None:
    space = CodeSpace(3, 4)

    def interrupt(progress: Progress) -> None:
        if progress.openings_done >= 1:
            raise KeyboardInterrupt

    OptimalSolver(space).solve(report=interrupt, executor=pool)  # leaves tasks in the pool
    again = OptimalSolver(space).solve(executor=pool)
    assert again.complete and list(again.nodes.items()) == list(
        OptimalSolver(space).solve().nodes.items()
    )


def test_interrupted_before_any_opening_keeps_the_quick_first_tree() -> None:
    space = CodeSpace(3, 5)
    seen: list[Progress] = []

    def interrupt(progress: Progress) -> None:
        seen.append(progress)
        raise KeyboardInterrupt

    kept = OptimalSolver(space).solve(report=interrupt)
    optimum = OptimalSolver(space).solve().total
    assert not kept.complete and seen[0].best == kept.total >= optimum
    assert kept.lower <= optimum and int(kept.guesses.sum()) == kept.total
    # every secret is found by the kept tree, in the number of guesses it counts
    for secret in range(space.size):
        path: tuple[int, ...] = ()
        for turn in range(1, 10):
            guess = kept.nodes[path]
            if guess == secret:
                assert kept.guesses[secret] == turn
                break
            path = (*path, int(solver_table(space)[guess, secret]))


def solver_table(space: CodeSpace) -> np.ndarray:
    from evo_mastermind.scoring import indexed_scorer

    scorer = indexed_scorer(space)
    codes = np.arange(space.size)
    return np.stack([scorer.responses(g, codes) for g in range(space.size)])


def test_interrupted_after_a_part_keeps_the_lower_bound_its_parts_proved() -> None:
    space = CodeSpace(3, 5)
    seen: list[Progress] = []

    def interrupt_after_the_first_part(progress: Progress) -> None:
        seen.append(progress)
        if len(seen) == 2:
            raise KeyboardInterrupt

    kept = OptimalSolver(space).solve(report=interrupt_after_the_first_part)
    quick, first_part = seen
    assert first_part.openings_done == 0 and not kept.complete and kept.total == quick.best
    # Counting alone proves 431; the part solved raises it (to 434), and the kept tree says so.
    assert kept.lower == first_part.lower > quick.lower
    assert kept.lower <= OptimalSolver(space).solve().total


def test_every_executor_keeps_the_quick_first_tree_when_interrupted_at_once(
    pool: Executor,
) -> None:
    def interrupt(progress: Progress) -> None:
        raise KeyboardInterrupt

    space = CodeSpace(3, 5)
    quick = OptimalSolver(space).solve(report=interrupt)
    with make_executor("serial") as serial:
        for executor in (serial, pool):
            kept = OptimalSolver(space).solve(report=interrupt, executor=executor)
            assert not kept.complete and kept.nodes == quick.nodes and kept.lower == quick.lower

"""The optimal search spread over executors, and interrupted: the same tree, or the best so far."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from evo_mastermind.codes import CodeSpace
from evo_mastermind.optimal.solver import OptimalSolver, Progress
from evo_mastermind.runner.executors import Executor, make_executor


@pytest.fixture(scope="module")
def pool() -> Iterator[Executor]:
    """One local pool for every test here (its workers load the compiled search once)."""
    with make_executor("process", 2) as executor:
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


@pytest.mark.parametrize("spread", [False, True])
def test_an_interrupted_search_keeps_the_best_complete_tree(spread: bool) -> None:
    space = CodeSpace(3, 5)
    seen: list[Progress] = []

    def interrupt_once_an_opening_is_solved(progress: Progress) -> None:
        seen.append(progress)
        if progress.openings_done >= 1 and progress.best is not None:
            raise KeyboardInterrupt

    solver = OptimalSolver(space)
    if spread:
        with make_executor("serial") as executor:
            kept = solver.solve(report=interrupt_once_an_opening_is_solved, executor=executor)
    else:
        kept = solver.solve(report=interrupt_once_an_opening_is_solved)
    optimum = OptimalSolver(space).solve().total  # held to the oracle in test_solver
    assert not kept.complete
    assert kept.lower <= optimum <= kept.total == int(kept.guesses.sum())
    assert all(p.lower <= optimum for p in seen)
    assert seen[-1].best == kept.total


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


def test_interrupted_spread_search_before_any_tree_is_an_interrupt() -> None:
    def interrupt(progress: Progress) -> None:
        raise KeyboardInterrupt

    with make_executor("serial") as executor, pytest.raises(KeyboardInterrupt):
        OptimalSolver(CodeSpace(3, 5)).solve(report=interrupt, executor=executor)

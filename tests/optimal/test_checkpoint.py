"""A search written to a checkpoint resumes where it was interrupted, to the same tree."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evo_mastermind.codes import CodeSpace, InvalidGameError
from evo_mastermind.optimal.solver import OptimalSolver, Progress


def _interrupt_after_one_opening(progress: Progress) -> None:
    if progress.openings_done >= 1 and progress.best is not None:
        raise KeyboardInterrupt


@pytest.mark.parametrize("max_guesses", [None, 5])
def test_an_interrupted_search_resumes_to_the_same_tree(
    tmp_path: Path, max_guesses: int | None
) -> None:
    space = CodeSpace(3, 5)
    where = tmp_path / "search.json"
    kept = OptimalSolver(space).solve(
        max_guesses, report=_interrupt_after_one_opening, checkpoint=where
    )
    assert not kept.complete
    saved = json.loads(where.read_text())["searches"]
    (state,) = saved.values()
    assert state["best_total"] == kept.total and state["lower"] == kept.lower

    seen: list[Progress] = []
    resumed = OptimalSolver(space).solve(max_guesses, report=seen.append, checkpoint=where)
    whole = OptimalSolver(space).solve(max_guesses)
    assert resumed.complete
    assert (resumed.total, resumed.depth, resumed.nodes) == (whole.total, whole.depth, whole.nodes)
    # seen[0] is the quick first tree; the first part finished after it finds the opening
    # solved before the interruption decided already, and its total the best
    assert seen[1].openings_done >= 1 and seen[1].best == kept.total


def test_a_finished_search_resumed_reads_its_tree_again(tmp_path: Path) -> None:
    space = CodeSpace(3, 4)
    where = tmp_path / "search.json"
    first = OptimalSolver(space).solve(objective="worst", checkpoint=where)
    again = OptimalSolver(space).solve(objective="worst", checkpoint=where)
    assert (again.total, again.depth, again.nodes) == (first.total, first.depth, first.nodes)


def test_a_checkpoint_of_another_game_is_refused(tmp_path: Path) -> None:
    where = tmp_path / "search.json"
    OptimalSolver(CodeSpace(2, 3)).solve(checkpoint=where)
    with pytest.raises(InvalidGameError, match=r"is not of \(2,4\)"):
        OptimalSolver(CodeSpace(2, 4)).solve(checkpoint=where)

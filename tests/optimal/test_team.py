"""Threads searching together over one table: the same answers and trees as one thread."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from evo_mastermind.codes import CodeSpace, InvalidGameError
from evo_mastermind.optimal import search
from evo_mastermind.optimal.memo import entry, find, set_hash, store
from evo_mastermind.optimal.solver import OptimalSolver, Progress
from evo_mastermind.optimal.team import Team


@pytest.mark.parametrize(
    ("pegs", "colors", "options"),
    [
        (3, 5, {}),
        (4, 4, {"objective": "worst"}),
        (5, 3, {"max_guesses": 4}),
        (4, 5, {"first_guess": "AABB"}),
        (4, 5, {}),
    ],
)
def test_any_number_of_threads_finds_the_same_tree(
    pegs: int, colors: int, options: dict[str, Any]
) -> None:
    space = CodeSpace(pegs, colors)
    alone = OptimalSolver(space).solve(**options)
    for threads in (2, 3):
        together = OptimalSolver(space).solve(**options, threads=threads)
        assert together.complete and together.total == alone.total
        assert list(together.nodes.items()) == list(alone.nodes.items())
        assert (together.guesses == alone.guesses).all()


def test_every_part_of_every_opening_has_the_same_value_on_two_threads() -> None:
    space = CodeSpace(4, 5)
    alone, pair = OptimalSolver(space), OptimalSolver(space)
    with Team(2) as team:
        for opening in alone.openings(search.UNLIMITED)[0]:
            for _, part in alone.parts(np.arange(space.size, dtype=np.int32), opening):
                history = np.zeros(part.size + 3, dtype=np.int32)
                history[0] = opening
                args = (part, search.UNLIMITED, search.INF - 1, history, 1)
                one = search.solve(*args, alone.game, alone.memo)
                two = team.solve(*args, pair.game, pair.memo)
                assert one == two


def test_a_search_on_threads_interrupted_resumes_to_the_same_tree(tmp_path: Path) -> None:
    space = CodeSpace(3, 5)
    where = tmp_path / "search.json"
    before = threading.active_count()

    def interrupt_after_one_opening(progress: Progress) -> None:
        if progress.openings_done >= 1 and progress.best is not None:
            raise KeyboardInterrupt

    kept = OptimalSolver(space).solve(
        report=interrupt_after_one_opening, checkpoint=where, threads=2
    )
    assert not kept.complete
    assert threading.active_count() == before  # the helpers ended with the search
    resumed = OptimalSolver(space).solve(checkpoint=where, threads=2)
    whole = OptimalSolver(space).solve()
    assert resumed.complete and list(resumed.nodes.items()) == list(whole.nodes.items())


def test_threads_must_be_at_least_one() -> None:
    with pytest.raises(InvalidGameError, match="threads must be at least 1"):
        OptimalSolver(CodeSpace(2, 2)).solve(threads=0)


def _table(slots: int = 64) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    return (
        np.zeros(slots, np.uint64),
        np.zeros((slots, 6), np.int64),
        np.zeros(slots * 8, np.int32),
        np.zeros(3, np.int64),
    )


def test_the_table_keeps_the_strongest_fact_of_a_set() -> None:
    memo = _table()
    members = np.array([1, 4, 6, 9], dtype=np.int32)

    def held() -> tuple[int, int, int]:
        slot = find(members, 3, set_hash(members, 3), *memo[:3])
        return entry(slot, memo[1])

    store(members, 3, 10, 0, -1, *memo)
    assert held() == (10, 0, -1)
    store(members, 3, 8, 0, -1, *memo)  # a weaker bound changes nothing
    assert held() == (10, 0, -1)
    store(members, 3, 12, 3, 6, *memo)  # the exact value, its depth and guess
    assert held() == (12, 3, 6)
    store(members, 3, 20, 0, -1, *memo)  # an exact value is final
    assert held() == (12, 3, 6)
    assert memo[3][1] == 1  # one entry

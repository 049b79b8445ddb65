"""The compiled search stopped and resumed: the same trees, and a time limit obeyed inside it."""

from __future__ import annotations

import numpy as np
import pytest

from evo_mastermind import watchdog
from evo_mastermind.codes import CodeSpace
from evo_mastermind.optimal import search
from evo_mastermind.optimal.solver import OptimalSolver


@pytest.mark.parametrize(("pegs", "colors"), [(2, 6), (3, 4), (4, 3)])
def test_a_search_cut_into_short_stretches_finds_the_same_tree(
    pegs: int, colors: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = OptimalSolver(CodeSpace(pegs, colors)).solve()
    monkeypatch.setattr(search, "STRETCH", 500)  # a few nodes between returns to Python
    cut = OptimalSolver(CodeSpace(pegs, colors)).solve()
    assert (cut.total, cut.depth, cut.nodes) == (whole.total, whole.depth, whole.nodes)


def test_a_time_limit_stops_one_compiled_search_partway(monkeypatch: pytest.MonkeyPatch) -> None:
    """One call over every secret of (4,6) takes about 0.2 s: a 10 ms limit acts inside it."""
    solver = OptimalSolver(CodeSpace(4, 6))
    everything = np.arange(solver.space.size, dtype=np.int32)
    history = np.zeros(8, dtype=np.int32)
    search.solve(everything[:3], search.UNLIMITED, 100, history, 0, solver.game, solver.memo)
    # Stretches of 0.2 ms at first: the limit is read long before the search could end.
    monkeypatch.setattr(search, "STRETCH", 100_000)
    with pytest.raises(watchdog.GameTimeout), watchdog.time_limit(0.01):
        search.solve(
            everything, search.UNLIMITED, search.INF - 1, history, 0, solver.game, solver.memo
        )
    stopped_after = int(solver.used[2])
    # What the stopped search kept is sound: resumed, it ends where a fresh search does.
    value = search.solve(
        everything, search.UNLIMITED, search.INF - 1, history, 0, solver.game, solver.memo
    )
    fresh = OptimalSolver(CodeSpace(4, 6))
    assert value == search.solve(
        everything, search.UNLIMITED, search.INF - 1, history, 0, fresh.game, fresh.memo
    )
    assert value[0] == 5625
    assert stopped_after < int(fresh.used[2])

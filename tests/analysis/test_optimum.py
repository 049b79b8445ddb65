"""The optimum of a game in reports and plots, and the recorded optima held to the solver."""

from __future__ import annotations

import json

import numpy as np
import pytest

from benchmarks._record import RESULTS
from evo_mastermind.analysis.optimum import _TOTALS, COMPUTED, LONG_TOTALS, known_optimum
from evo_mastermind.analysis.plots import plot_distribution
from evo_mastermind.analysis.report import build_report
from evo_mastermind.codes import CodeSpace
from evo_mastermind.optimal.solver import OptimalSolver
from tests.analysis.synthetic import experiment_record, fixed_games

QUICK = [game for game in _TOTALS if CodeSpace(*game).size <= 256]


@pytest.mark.parametrize("game", QUICK)
def test_recorded_optima_are_the_solvers(game: tuple[int, int]) -> None:
    assert OptimalSolver(CodeSpace(*game)).solve().total == _TOTALS[game]


@pytest.mark.slow
@pytest.mark.parametrize("game", [game for game in _TOTALS if game not in QUICK])
def test_larger_recorded_optima_are_the_solvers(game: tuple[int, int]) -> None:
    assert OptimalSolver(CodeSpace(*game)).solve().total == _TOTALS[game]


def test_optima_proven_in_minutes_are_the_recorded_replayed_trees() -> None:
    recorded = json.loads((RESULTS / "optimal_new.json").read_text())["figures"]
    for (pegs, colors), total in LONG_TOTALS.items():
        figures = recorded[f"({pegs},{colors})"]
        assert figures["proven optimal"] and figures["total"] == total
        assert sum(figures["secrets by guesses needed (1, 2, ...)"]) == colors**pegs
        optimum = known_optimum(pegs, colors)
        assert optimum is not None and optimum.total == total and "minutes" in optimum.source


def test_known_optima_and_their_sources() -> None:
    classic = known_optimum(4, 6)
    assert classic is not None and classic.total == 5625 and "Koyama & Lai" in classic.source
    seven = known_optimum(4, 7)
    assert seven is not None and round(seven.mean, 3) == 4.676 and seven.total == 11228
    eight = known_optimum(4, 8)
    assert eight is not None and eight.total == 20471 and "arfst23" in eight.source
    small = known_optimum(3, 4)
    assert small is not None and small.mean == 206 / 64 and small.source == COMPUTED
    assert known_optimum(6, 9) is None


def test_the_report_measures_each_player_from_the_optimum() -> None:
    games = fixed_games({"Entropy": [[4] * 600 + [5] * 400] * 2, "Random": [[5] * 1000] * 2})
    markdown = build_report(games, experiment_record(games)).markdown
    assert "Optimum: 4.340 (5625 guesses over 1296 secrets), Koyama & Lai 1993" in markdown
    assert "- Entropy: 4.400, +0.060 above the optimum" in markdown
    assert "- Random: 5.000, +0.660 above the optimum" in markdown


def test_no_optimum_line_for_a_game_without_one() -> None:
    games = fixed_games({"Entropy": [[4] * 10] * 2}, pegs=6, colors=9)
    assert "Optimum" not in build_report(games, experiment_record(games)).markdown


def test_the_distribution_plot_draws_the_optimum() -> None:
    games = fixed_games({"Entropy": [[4] * 600 + [5] * 400] * 2})
    figure = plot_distribution(games, experiment_record(games))
    axis = figure.axes[0]
    floors = [line for line in axis.get_lines() if line.get_linestyle() == ":"]
    assert [np.asarray(line.get_xdata())[0] for line in floors] == [pytest.approx(5625 / 1296)]
    legend = axis.get_legend()  # named in the legend, where no mean line can cross it
    assert legend is not None and "optimum 4.340" in [t.get_text() for t in legend.get_texts()]

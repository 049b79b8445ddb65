"""The convergence summary and plot of a move log."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from evo_mastermind.analysis.convergence import convergence_table, plot_convergence
from evo_mastermind.analysis.plots import make_figure, save_figure
from evo_mastermind.analysis.results import AnalysisError
from evo_mastermind.runner.storage import MOVES_SCHEMA


def move_log(moves_per_game: dict[str, list[list[int]]]) -> pd.DataFrame:
    """A log of games given as evaluations per searched move (the first move is added)."""
    rows = []
    for label, games in moves_per_game.items():
        for number, spent in enumerate(games):
            for move, evaluations in enumerate([0, *spent], start=1):
                capped = evaluations < 0
                rows.append(
                    {
                        "label": label,
                        "player": "ga",
                        "pegs": 4,
                        "colors": 6,
                        "secrets": "full",
                        "run": 0,
                        "secret": f"S{number}",
                        "occurrence": 0,
                        "move": move,
                        "generations": abs(evaluations) // 100,
                        "evaluations": abs(evaluations),
                        "restarts": 0,
                        "best_distance": None if move == 1 else (1 if capped else 0),
                        "consistent": None if move == 1 or capped else 3,
                        "capped": capped,
                    }
                )
    frame = pd.DataFrame(rows)
    return frame[[name for name in MOVES_SCHEMA.names if name in frame.columns]]


def test_the_table_sums_up_each_move() -> None:
    log = move_log({"A": [[100, 300], [200]], "B": [[1000, -5000, 100]]})
    table = convergence_table(log).set_index(["label", "move"])
    assert table.loc[("A", 1), "games"] == 2 and table.loc[("A", 1), "evaluations"] == 0
    assert table.loc[("A", 2), "evaluations"] == 150 and table.loc[("A", 3), "games"] == 1
    assert table.loc[("B", 3), "capped_share"] == 1.0
    assert table["consistent"].isna().sum() == 3  # every first move, and the capped one
    assert convergence_table(log.iloc[0:0]).empty


def test_the_ecdf_counts_capped_moves_as_never_solved(tmp_path: Path) -> None:
    log = move_log({"A": [[100, 300], [200]], "B": [[1000, -5000, 100]]})
    figure = plot_convergence(log, {"name": "conv"})
    ecdf, anytime = figure.axes
    lines = {line.get_label(): line for line in ecdf.get_lines()}
    assert np.asarray(lines["A"].get_xdata()).tolist() == [100, 200, 300]
    assert np.asarray(lines["A"].get_ydata()).tolist() == pytest.approx([1 / 3, 2 / 3, 1.0])
    assert np.asarray(lines["B"].get_ydata()).tolist() == pytest.approx(
        [1 / 3, 2 / 3]
    )  # one move capped
    # Anytime: the median evaluations spent so far after each guess.
    a_curve = anytime.get_lines()[0]
    assert np.asarray(a_curve.get_ydata()).tolist() == [0, 150, 400]
    assert figure.notes == ("1 capped moves never find a consistent code.",)
    assert figure.get_suptitle() == "conv: 6 searched moves"
    assert save_figure(figure, tmp_path / "c.pdf").stat().st_size > 0


def test_results_without_a_log_say_how_to_keep_one() -> None:
    games = pd.DataFrame({"label": ["A"], "pegs": [4], "colors": [6], "secrets": ["full"]})
    with pytest.raises(AnalysisError, match="run the experiment with 'log: moves'"):
        make_figure(games, {"name": "x"}, "convergence")


def test_players_are_chosen_and_those_without_a_log_named() -> None:
    log = move_log({"A": [[100, 300], [200]], "B": [[1000, -5000, 100]]})
    games = pd.DataFrame({"label": ["A", "B", "Entropy"], "pegs": 4, "colors": 6})
    figure = make_figure(
        games, {"name": "x"}, "convergence", moves=log, players=["B", "Entropy"], title=""
    )
    assert [line.get_label() for line in figure.axes[0].get_lines()] == ["B"]
    assert "Not shown, keeping no move log: Entropy." in figure.notes
    assert figure.get_suptitle() == ""
    with pytest.raises(AnalysisError, match="no games of 'C' here"):
        make_figure(games, {"name": "x"}, "convergence", moves=log, players=["C"])

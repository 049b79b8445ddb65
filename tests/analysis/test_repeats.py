"""A deterministic player's identical runs count once in every unpaired test and interval."""

import pandas as pd

from evo_mastermind.analysis.analysis import Analysis
from evo_mastermind.analysis.markdown import paper_markdown
from evo_mastermind.analysis.repeats import distinct_games, identical_runs
from tests.analysis.synthetic import STRONG, WEAK, experiment_record, make_games


def _with_deterministic(runs: int = 3, games_per_run: int = 40) -> pd.DataFrame:
    """Games of a stochastic player and of one whose every run copies its first."""
    games = make_games({"Random": WEAK, "Knuth": STRONG}, runs=runs, games_per_run=games_per_run)
    knuth = games[(games["label"] == "Knuth") & (games["run"] == 0)]
    knuth = knuth.assign(occurrence=range(len(knuth)))  # each (secret, occurrence) once a run
    copies = [knuth.assign(run=run) for run in range(runs)]
    return pd.concat([games[games["label"] == "Random"], *copies], ignore_index=True)


def test_identical_runs_are_found_from_the_stored_games() -> None:
    games = _with_deterministic()
    repeated = identical_runs(games)
    assert repeated[["label", "runs"]].values.tolist() == [["Knuth", 3]]
    distinct = distinct_games(games, repeated)
    assert (distinct["label"] == "Knuth").sum() == 40
    assert (distinct["label"] == "Random").sum() == 120


def test_runs_differing_in_one_move_are_not_copies() -> None:
    games = _with_deterministic()
    knuth = games.index[(games["label"] == "Knuth") & (games["run"] == 2)][0]
    changed = games.copy()
    moves = list(changed["moves"].loc[knuth])
    changed["moves"] = changed["moves"].astype(object)
    changed.loc[[knuth], "moves"] = pd.Series([[*moves[:-1], "FFFF"]], index=[knuth])
    assert identical_runs(changed).empty
    assert distinct_games(changed).equals(changed)


def test_the_tests_a12_and_intervals_count_a_deterministic_players_games_once() -> None:
    games = _with_deterministic()
    analysis = Analysis(games, experiment_record(games))
    intervals = analysis.intervals.set_index("label")
    assert intervals.loc["Knuth", "n"] == 40 and intervals.loc["Random", "n"] == 120
    test = analysis.tests.iloc[0]
    assert {test["n_a"], test["n_b"]} == {40, 120}
    once = Analysis(games[games["run"] == 0], experiment_record(games))
    # Knuth's mean is that of its one run either way; only the count changed.
    once_mean = once.intervals.set_index("label")["mean"].to_dict()["Knuth"]
    assert intervals["mean"].to_dict()["Knuth"] == once_mean
    summary = analysis.summary.set_index("label")
    assert summary.loc["Knuth", "runs"] == 3  # the paper's table still shows every run
    report = paper_markdown(analysis)
    assert "Runs counted once: Knuth (3 identical runs)" in report


def test_on_run_means_a_deterministic_player_gives_one_value() -> None:
    games = _with_deterministic()
    analysis = Analysis(games, experiment_record(games, test_on="runs"))
    intervals = analysis.intervals.set_index("label")
    assert intervals.loc["Knuth", "n"] == 1 and intervals.loc["Random", "n"] == 3


def test_without_repeats_nothing_changes_and_nothing_is_said() -> None:
    games = make_games({"A": STRONG, "B": WEAK}, runs=3, games_per_run=30)
    analysis = Analysis(games, experiment_record(games))
    assert analysis.repeated.empty and analysis.distinct_games is games
    assert "Runs counted once" not in paper_markdown(analysis)

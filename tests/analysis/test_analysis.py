"""The analysis of an experiment: every table computed once, named files, groups and optimum."""

from pathlib import Path

import pandas as pd
import pytest

from evo_mastermind.analysis.analysis import TABLES, Analysis
from evo_mastermind.analysis.kinds import PLOT_KINDS
from evo_mastermind.analysis.report import build_report, write_report
from evo_mastermind.analysis.results import AnalysisError
from evo_mastermind.runner.storage import PLOT_OUTPUTS, REPORT_OUTPUTS
from tests.analysis.synthetic import (
    STRONG,
    WEAK,
    experiment_record,
    fixed_games,
    make_games,
    write_results,
)


def test_each_table_is_computed_once_and_the_report_reads_it() -> None:
    games = make_games({"A": STRONG, "B": WEAK, "C": STRONG}, runs=3, games_per_run=30)
    analysis = Analysis(games, experiment_record(games, test_on="runs"))
    for table in TABLES:
        assert analysis.table(table.name) is analysis.table(table.name)
    report = build_report(games, experiment_record(games, test_on="runs"))
    assert report.analysis is not None
    assert report.effect_sizes is not None and report.intervals is not None
    pd.testing.assert_frame_equal(report.effect_sizes, analysis.effect_sizes)
    pd.testing.assert_frame_equal(report.intervals, analysis.intervals)


def test_an_unknown_table_or_one_that_does_not_apply_is_one_line() -> None:
    games = make_games({"A": STRONG}, runs=2, games_per_run=10)
    analysis = Analysis(games, experiment_record(games))
    with pytest.raises(AnalysisError, match=r"^no analysis table 'a13'; the tables are summary"):
        analysis.table("a13")
    assert analysis.table("by_size") is None and analysis.comparison is None
    with pytest.raises(AnalysisError, match="the by_size table does not apply to synthetic"):
        analysis.frame("by_size")


def test_the_intervals_at_the_reports_seed_are_the_reports() -> None:
    games = make_games({"A": STRONG, "B": WEAK}, runs=3, games_per_run=30)
    analysis = Analysis(games, experiment_record(games, seed=4))
    assert analysis.intervals_at(4, 0.95) is analysis.intervals
    wider = analysis.intervals_at(4, 0.99)
    assert (
        wider["high"] - wider["low"] >= analysis.intervals["high"] - analysis.intervals["low"]
    ).all()


def test_a_player_without_a_solved_game_comes_last_in_no_group() -> None:
    games = pd.concat(
        [
            fixed_games({"A": [[4] * 50] * 2, "B": [[5] * 50] * 2}),
            fixed_games({"Lost": [[100] * 5] * 2}, solved=False, outcome="guess_limit"),
        ],
        ignore_index=True,
    )
    groups = Analysis(games, experiment_record(games)).groups()
    assert groups[["label", "rank", "group", "letters"]].values.tolist() == [
        ["A", 1, 1, "a"],
        ["B", 2, 2, "b"],
        ["Lost", 3, pd.NA, ""],
    ]
    assert groups["group"].isna().tolist() == [False, False, True]  # in no group, as report.md


def test_the_optimum_table_measures_each_row_from_the_floor() -> None:
    games = fixed_games({"Entropy": [[4] * 600 + [5] * 400] * 2, "Random": [[5] * 1000] * 2})
    floor = Analysis(games, experiment_record(games)).frame("optimum")
    assert floor["label"].tolist() == ["Entropy", "Random"]
    assert floor["above"].round(3).tolist() == [0.06, 0.66] and set(floor["total"]) == {5625}
    none = fixed_games({"Entropy": [[4] * 10] * 2}, pegs=6, colors=9)
    assert Analysis(none, experiment_record(none)).frame("optimum").empty


def test_every_output_is_named_by_the_results_contract() -> None:
    assert {table.file for table in TABLES if table.file} < set(REPORT_OUTPUTS)
    assert set(PLOT_OUTPUTS) == {
        f"{kind}.{suffix}" for kind in PLOT_KINDS for suffix in ("png", "pdf")
    }


def test_a_report_removes_the_outputs_it_no_longer_writes(tmp_path: Path) -> None:
    games = make_games({"A": STRONG, "B": WEAK}, runs=2, games_per_run=20)
    results = write_results(tmp_path / "r", games, experiment_record(games))
    for stale in ("by_size.csv", "tournament.csv", "score_tests.csv"):
        (results / stale).write_text("left by an earlier analysis")
    (results / "notes.csv").write_text("mine")
    write_report(results)
    written = {name for name in REPORT_OUTPUTS if (results / name).exists()}
    assert written == {"summary.csv", "wilcoxon.csv", "a12.csv", "intervals.csv", "report.md"}
    assert (results / "notes.csv").read_text() == "mine"


def test_failed_games_are_counted_once_per_block_and_player() -> None:
    games = make_games({"A": STRONG, "B": WEAK}, runs=2, games_per_run=50, unsolved={"B": 0.2})
    analysis = Analysis(games, experiment_record(games))
    failures = analysis.frame("failures")
    assert failures["label"].tolist() == ["B"]
    row = next(r for r in analysis.summary.to_dict("records") if r["label"] == "B")
    failed = int(row["failed"])
    assert int(failures["failed"].iloc[0]) == failed > 0
    assert int(failures["games"].iloc[0]) == int(row["games"]) == 100
    assert failures["reasons"].iloc[0] == f"guess limit {failed}"
    markdown = build_report(games, experiment_record(games)).markdown
    assert f"- † **B**: {failed} of 100 games failed (guess limit {failed})" in markdown

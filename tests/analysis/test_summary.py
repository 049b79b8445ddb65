import math

import pandas as pd
import pytest

from evo_mastermind.analysis.summary import (
    EXTRA_COLUMNS,
    GROUPED_COLUMNS,
    SUMMARY_COLUMNS,
    grouped_summary,
    run_means,
    summary_table,
)
from tests.analysis.synthetic import STRONG, WEAK, fixed_games, make_games


def test_paper_statistics_are_over_run_means() -> None:
    games = fixed_games({"Slow": [[4, 4], [5, 5], [6, 9]], "Fast": [[3, 5], [4, 4], [4, 4]]})
    table = summary_table(games)
    assert list(table.columns) == [*SUMMARY_COLUMNS, *EXTRA_COLUMNS]
    assert table["label"].tolist() == ["Fast", "Slow"]  # ranked by mean
    slow = table.set_index("label").to_dict("index")["Slow"]
    assert (slow["runs"], slow["min"], slow["median"], slow["max"]) == (3, 4.0, 5.0, 7.5)
    assert slow["mean"] == pytest.approx(5.5)
    assert slow["sd"] == pytest.approx(pd.Series([4.0, 5.0, 7.5]).std())
    assert slow["max_guesses"] == 9
    assert slow["games"] == 6
    assert slow["win_rate"] == 1.0
    assert math.isnan(slow["mean_evaluations"])


def test_one_run_has_no_standard_deviation_and_ties_keep_config_order() -> None:
    games = fixed_games({"B": [[4, 5]], "A": [[5, 4]]})
    table = summary_table(games, {"players": [{"label": "A"}, {"label": "B"}]})
    assert table["label"].tolist() == ["A", "B"]
    assert table["sd"].isna().all()


def test_extras_count_evaluations_unsolved_games_and_time() -> None:
    games = make_games(
        {"EA": WEAK, "Exhaustive": STRONG},
        runs=3,
        games_per_run=200,
        evaluations={"EA": 400.0},
        unsolved={"EA": 0.25},
    )
    table = summary_table(games).set_index("label").to_dict("index")
    assert table["EA"]["mean_evaluations"] == pytest.approx(400, rel=0.02)
    assert math.isnan(table["Exhaustive"]["mean_evaluations"])
    assert 0.7 < table["EA"]["win_rate"] < 0.8
    assert table["Exhaustive"]["win_rate"] == 1.0
    assert table["EA"]["mean_seconds"] > 0


def test_extras_give_the_share_of_the_space_examined_and_capped_guesses() -> None:
    games = make_games({"EA": WEAK, "Exhaustive": STRONG}, runs=2, games_per_run=50)
    ea = games["label"] == "EA"
    games["distinct_codes"] = pd.Series(pd.NA, index=games.index, dtype="Int64")
    games.loc[ea, "distinct_codes"] = 324  # a quarter of the 1296 codes of (4,6)
    games["capped_guesses"] = pd.Series(pd.NA, index=games.index, dtype="Int64")
    games.loc[ea, "capped_guesses"] = 1
    table = summary_table(games).set_index("label").to_dict("index")
    assert table["EA"]["mean_distinct_codes"] == 324
    assert table["EA"]["fraction_examined"] == pytest.approx(0.25)
    assert table["EA"]["capped_guesses"] == 100
    assert math.isnan(table["Exhaustive"]["fraction_examined"])
    assert math.isnan(table["Exhaustive"]["capped_guesses"])


def test_run_means() -> None:
    games = fixed_games({"A": [[4, 6], [5]]})
    means = run_means(games)
    assert means["mean_guesses"].tolist() == [5.0, 5.0]
    assert means["games"].tolist() == [2, 1]


def test_sizes_are_summarised_apart() -> None:
    small = make_games({"A": STRONG, "B": WEAK}, runs=2, games_per_run=50, pegs=4, colors=6)
    large = make_games({"A": WEAK}, runs=2, games_per_run=50, pegs=5, colors=8, secrets="sample")
    games = pd.concat([large, small], ignore_index=True)
    table = summary_table(games)
    assert list(zip(table["label"], table["pegs"], strict=True)) == [("A", 4), ("B", 4), ("A", 5)]
    grouped = grouped_summary(games)
    assert list(grouped.columns) == list(GROUPED_COLUMNS)
    assert list(zip(grouped["label"], grouped["colors"], strict=True)) == [
        ("A", 6),
        ("A", 8),
        ("B", 6),
    ]
    row = grouped.to_dict("records")[1]
    played = large[large["label"] == "A"]
    assert row["games"] == 100
    assert row["mean_guesses"] == pytest.approx(played["n_guesses"].mean())
    assert row["secrets"] == "sample"
    assert row["max_guesses"] == played["n_guesses"].max()


def test_sections_rank_rows_within_each_section_in_the_given_order() -> None:
    games = fixed_games(
        {
            "A1": [[4, 4]],
            "B1": [[6, 6]],
            "A2": [[5, 5]],
            "B2": [[3, 3]],
            "Free": [[2, 2]],
        }
    )
    sections = {"A2": "second", "B2": "second", "A1": "first", "B1": "first"}
    table = summary_table(games, sections=sections)
    assert table["label"].tolist() == ["B2", "A2", "A1", "B1", "Free"]
    assert table["section"].tolist() == ["second", "second", "first", "first", ""]
    assert (summary_table(games)["section"] == "").all()

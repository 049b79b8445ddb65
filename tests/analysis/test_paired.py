"""Paired comparisons by secret, held to hand-computed values and to the libraries' own results."""

import math

import numpy as np
import pandas as pd
import pytest
from scipy.stats import wilcoxon

from evo_mastermind.analysis.paired import (
    MEAN_RANK_COLUMNS,
    PAIRED_TEST_COLUMNS,
    bayesian_signed_rank_tests,
    bayesian_test_table,
    friedman_test,
    mean_rank_table,
    paired_blocks,
    paired_choices,
    paired_design,
    paired_test_table,
    signed_rank_tests,
)
from evo_mastermind.analysis.results import AnalysisError

# Five secrets; A is never worse than B, B never worse than C.
GUESSES = {"A": [3, 4, 5, 4, 3], "B": [4, 5, 5, 5, 4], "C": [5, 5, 6, 6, 5]}


def _games(
    guesses: dict[str, list[int]], runs: int = 1, unsolved: tuple[str, int] | None = None
) -> pd.DataFrame:
    rows = []
    for label, counts in guesses.items():
        for run in range(runs):
            for secret, n in enumerate(counts):
                rows.append(
                    {
                        "label": label,
                        "pegs": 4,
                        "colors": 6,
                        "secrets": "sample 5",
                        "secret": f"S{secret}",
                        "occurrence": 0,
                        "run": run,
                        "n_guesses": n,
                        "solved": (label, secret) != unsolved,
                        "moves": f"{label}{secret}{n}",
                    }
                )
    return pd.DataFrame(rows)


def test_the_design_holds_a_players_secret_means_in_order() -> None:
    design = paired_design(_games(GUESSES), players=["C", "A", "B"])
    assert design.players == ["C", "A", "B"]
    assert design.table["A"].tolist() == GUESSES["A"] and design.dropped == 0


def test_a_deterministic_players_repeats_count_once() -> None:
    once, twice = paired_design(_games(GUESSES)), paired_design(_games(GUESSES, runs=2))
    pd.testing.assert_frame_equal(once.table, twice.table)
    assert twice.repeats["identical_runs"].tolist() == [True, True, True]
    assert twice.repeats["runs"].tolist() == [2, 2, 2]
    # Two identical runs are one observation per secret: the tests do not change.
    pd.testing.assert_frame_equal(signed_rank_tests(once), signed_rank_tests(twice))
    assert friedman_test(once).statistic == friedman_test(twice).statistic


def test_a_secret_with_an_unsolved_game_is_dropped_and_counted() -> None:
    design = paired_design(_games(GUESSES, unsolved=("B", 2)))
    assert design.dropped == 1 and len(design.table) == 4
    assert "S2" not in design.table.index.get_level_values("secret")


def test_players_of_different_secrets_are_not_paired() -> None:
    games = _games(GUESSES)
    games = games[~((games["label"] == "C") & (games["secret"] == "S0"))]
    with pytest.raises(AnalysisError, match="did not all play the same secrets"):
        paired_design(games)


def test_friedman_by_hand() -> None:
    result = friedman_test(paired_design(_games(GUESSES)))
    # Mean ranks: A (1+1+1.5+1+1)/5, B (2+2.5+1.5+2+2)/5, C (3+2.5+3+3+3)/5.
    assert result.mean_ranks.round(6).to_dict() == {"A": 1.1, "B": 2.0, "C": 2.9}
    # 12N/(k(k+1)) * sum (R - (k+1)/2)^2 = 8.1, over the tie correction 1 - 12/120.
    assert result.statistic == pytest.approx(9.0)
    # Demšar (2006): q_0.05 = 2.343 for k = 3, CD = 2.343 * sqrt(3 * 4 / (6 * 5)).
    assert result.critical_difference == pytest.approx(2.343 * math.sqrt(12 / 30), abs=1e-3)
    nemenyi = result.nemenyi.to_numpy()
    assert nemenyi[0, 2] < 0.05 < nemenyi[0, 1]  # A-C differ, A-B do not


def test_signed_rank_by_hand_and_by_scipy() -> None:
    table = signed_rank_tests(paired_design(_games(GUESSES)), holm=True)
    a_b = table.iloc[0]
    assert (a_b["label_a"], a_b["label_b"], a_b["n_secrets"]) == ("A", "B", 5)
    # Differences -1, -1, 0, -1, -1: no positive rank at all.
    assert a_b["statistic"] == 0 and a_b["mean_difference"] == pytest.approx(-0.8)
    expected = wilcoxon(GUESSES["A"], GUESSES["B"], zero_method="pratt").pvalue
    assert a_b["p"] == pytest.approx(expected)
    # Holm: the smallest of three p-values times 3, the others never below it.
    ordered = table.sort_values("p")
    assert ordered["p_adjusted"].iloc[0] == pytest.approx(min(1.0, 3 * ordered["p"].iloc[0]))
    assert (np.diff(ordered["p_adjusted"].to_numpy()) >= 0).all()


def test_bayesian_signed_rank_is_seeded_and_sums_to_one() -> None:
    rng = np.random.default_rng(1)
    better = {"A": rng.integers(3, 5, 40).tolist(), "B": rng.integers(5, 7, 40).tolist()}
    design = paired_design(_games(better))
    first = bayesian_signed_rank_tests(design, rope=0.1, seed=3, samples=2000)
    again = bayesian_signed_rank_tests(design, rope=0.1, seed=3, samples=2000)
    pd.testing.assert_frame_equal(first, again)
    row = first.iloc[0]
    assert row["p_a_better"] + row["p_equivalent"] + row["p_b_better"] == pytest.approx(1.0)
    assert row["p_a_better"] > 0.95


def test_auto_asks_friedman_from_three_players_and_signed_rank_from_two() -> None:
    assert paired_choices("auto", 3) == {"friedman", "signed_rank"}
    assert paired_choices("auto", 2) == {"signed_rank"}
    assert paired_choices("bayesian", 4) == {"bayesian"} and paired_choices("none", 4) == set()


def test_the_report_tables_name_their_block_and_follow_the_setting() -> None:
    games = _games(GUESSES, unsolved=("C", 4))
    record = {"players": [{"label": label} for label in ("C", "B", "A")]}
    found = paired_blocks(games, record)
    ranks, pairs = mean_rank_table(found, record), paired_test_table(found, record)
    assert ranks is not None and pairs is not None
    assert list(ranks.columns) == list(MEAN_RANK_COLUMNS)
    assert list(pairs.columns) == list(PAIRED_TEST_COLUMNS)
    # The config's order, one secret dropped (C failed on it), four used.
    assert ranks["label"].tolist() == ["C", "B", "A"] and set(ranks["dropped"]) == {1}
    # By hand over secrets 0-3 (ties share ranks): C 3, 2.5, 3, 3; B 2, 2.5, 1.5, 2; A the rest.
    assert ranks["mean_rank"].tolist() == [2.875, 2.0, 1.125] and set(ranks["n_secrets"]) == {4}
    assert set(ranks["friedman_statistic"]) == {friedman_test(found[0].design).statistic}  # type: ignore[arg-type]
    assert pairs[["label_a", "label_b"]].values.tolist() == [["C", "B"], ["C", "A"], ["B", "A"]]
    assert bayesian_test_table(found, record) is None  # not asked for
    only_ranks = {**record, "paired": "friedman"}
    assert paired_test_table(found, only_ranks) is None
    assert mean_rank_table(found, {**record, "paired": "signed_rank"}) is None
    assert mean_rank_table(found, only_ranks) is not None


def test_blocks_of_other_secrets_say_why_they_are_not_paired() -> None:
    games = _games(GUESSES)
    games.loc[games["label"] == "C", "secret"] = "other"
    (found,) = paired_blocks(games)
    assert found.design is None and "did not all play the same secrets" in found.reason
    assert paired_test_table([found], None) is None and mean_rank_table([found], None) is None


def test_the_cd_diagram_draws_each_paired_block_or_says_why_not() -> None:
    from evo_mastermind.analysis.plots import make_figure

    figure = make_figure(_games(GUESSES), {}, "cd")
    assert "CD = " in figure.axes[0].get_title()
    assert "5 secrets used, 0 dropped for failed games" in figure.notes[0]
    two = _games({"A": GUESSES["A"], "B": GUESSES["B"]})
    with pytest.raises(AnalysisError, match="needs three or more players that played the same"):
        make_figure(two, {}, "cd")

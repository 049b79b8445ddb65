"""Paired comparisons by secret, held to hand-computed values and to the libraries' own results."""

import math

import numpy as np
import pandas as pd
import pytest
from scipy.stats import wilcoxon

from evo_mastermind.analysis.paired import (
    bayesian_signed_rank_tests,
    friedman_test,
    paired_design,
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
    assert (a_b["a"], a_b["b"], a_b["secrets"]) == ("A", "B", 5)
    # Differences -1, -1, 0, -1, -1: no positive rank at all.
    assert a_b["statistic"] == 0 and a_b["mean_difference"] == pytest.approx(-0.8)
    expected = wilcoxon(GUESSES["A"], GUESSES["B"], zero_method="pratt").pvalue
    assert a_b["p"] == pytest.approx(expected)
    # Holm: the smallest of three p-values times 3, the others never below it.
    ordered = table.sort_values("p")
    assert ordered["p_holm"].iloc[0] == pytest.approx(min(1.0, 3 * ordered["p"].iloc[0]))
    assert (np.diff(ordered["p_holm"].to_numpy()) >= 0).all()


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

import numpy as np
import pandas as pd
import pytest

from evo_mastermind.analysis.effect_sizes import (
    A12_COLUMNS,
    INTERVAL_COLUMNS,
    a12_magnitude,
    mean_confidence_intervals,
    pairwise_a12,
    vargha_delaney_a12,
)
from evo_mastermind.analysis.report import build_report
from evo_mastermind.analysis.results import AnalysisError
from tests.analysis.synthetic import STRONG, WEAK, experiment_record, fixed_games, make_games


def hand_count(first: list[int], second: list[int]) -> float:
    """A12 by counting every pair: wins score 1, ties 1/2."""
    score = sum(1.0 if x > y else 0.5 if x == y else 0.0 for x in first for y in second)
    return score / (len(first) * len(second))


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        ([5, 6, 7], [4, 4, 4], 1.0),  # every pair: first above
        ([4, 4], [5, 6, 7], 0.0),
        ([4, 5], [4, 5], 0.5),  # 1 tie + 1 win + 0 + 1 tie out of 4: (0.5 + 1 + 0.5)/4
        ([4, 5, 6], [5], 0.5),  # one below, one tie, one above
        ([3, 4, 4, 5], [4, 6], 0.25),  # pairs above: (5,4); ties: (4,4)×2 → (1 + 1)/8
        ([2, 3, 3, 7], [3, 5], 0.375),  # above: (7,3), (7,5); ties: (3,3)×2 → (2 + 1)/8
    ],
)
def test_a12_equals_a_hand_count_on_small_samples(
    first: list[int], second: list[int], expected: float
) -> None:
    assert vargha_delaney_a12(first, second) == pytest.approx(expected)
    assert hand_count(first, second) == pytest.approx(expected)
    assert vargha_delaney_a12(second, first) == pytest.approx(1 - expected)


def test_a12_agrees_with_counting_every_pair_on_random_guess_counts() -> None:
    rng = np.random.default_rng(7)
    for _ in range(20):
        first = rng.integers(1, 8, rng.integers(1, 15)).tolist()
        second = rng.integers(1, 8, rng.integers(1, 15)).tolist()
        assert vargha_delaney_a12(first, second) == pytest.approx(hand_count(first, second))


def test_a12_refuses_empty_or_nan_samples() -> None:
    with pytest.raises(AnalysisError, match="at least one value"):
        vargha_delaney_a12([], [1, 2])
    with pytest.raises(AnalysisError, match="NaN"):
        vargha_delaney_a12([1.0, float("nan")], [1, 2])


@pytest.mark.parametrize(
    ("a12", "magnitude"),
    [
        (0.5, "negligible"),
        (0.559, "negligible"),
        (0.441, "negligible"),
        (0.56, "small"),
        (0.44, "small"),
        (0.639, "small"),
        (0.64, "medium"),
        (0.30, "medium"),
        (0.71, "large"),
        (0.29, "large"),
        (0.0, "large"),
        (1.0, "large"),
    ],
)
def test_magnitude_follows_vargha_and_delaney_on_both_sides(a12: float, magnitude: str) -> None:
    assert a12_magnitude(a12) == magnitude


def test_magnitude_refuses_values_outside_zero_one() -> None:
    with pytest.raises(AnalysisError, match="between 0 and 1"):
        a12_magnitude(1.2)


def test_pairwise_a12_has_one_row_per_pair_in_each_block_in_config_order() -> None:
    games = fixed_games({"B": [[4, 4, 5]], "A": [[5, 6, 7]], "C": [[4, 5, 5]]})
    table = pairwise_a12(games, experiment={"players": [{"label": "A"}, {"label": "B"}]})
    assert list(table.columns) == list(A12_COLUMNS)
    pairs = list(zip(table["label_a"], table["label_b"], strict=True))
    assert pairs == [("A", "B"), ("A", "C"), ("B", "C")]
    by_pair = dict(zip(pairs, table["a12"], strict=True))
    assert by_pair[("A", "B")] == pytest.approx(hand_count([5, 6, 7], [4, 4, 5]))
    assert by_pair[("B", "C")] == pytest.approx(hand_count([4, 4, 5], [4, 5, 5]))
    assert table.loc[0, "magnitude"] == "large"
    assert set(table["pegs"]) == {4} and set(table["secrets"]) == {"full"}


def test_pairwise_a12_on_run_means_compares_the_runs() -> None:
    games = fixed_games({"A": [[4, 4], [5, 5], [6, 6]], "B": [[5, 5], [5, 5], [5, 5]]})
    on_runs = pairwise_a12(games, on="runs")
    # Run means 4, 5, 6 against 5, 5, 5: one above, three ties... (0×3 + 0.5×3 + 1×3)/9.
    assert on_runs["a12"].iloc[0] == pytest.approx(hand_count([4, 5, 6], [5, 5, 5]))
    on_games = pairwise_a12(games, on="games")
    assert on_games["a12"].iloc[0] == pytest.approx(hand_count([4, 4, 5, 5, 6, 6], [5] * 6))


def test_pairwise_a12_compares_within_blocks_only() -> None:
    small = make_games({"A": STRONG, "B": WEAK}, runs=2, games_per_run=30)
    large = make_games({"A": WEAK, "B": STRONG}, runs=2, games_per_run=30, pegs=5, colors=8)
    table = pairwise_a12(pd.concat([small, large], ignore_index=True))
    assert len(table) == 2
    first, second = table["a12"]
    assert first < 0.5 < second  # the stronger player needs fewer guesses in each block


def test_intervals_hold_the_mean_and_are_the_same_for_the_same_seed() -> None:
    games = make_games({"A": STRONG, "B": WEAK}, runs=3, games_per_run=200)
    intervals = mean_confidence_intervals(games, seed=11)
    assert list(intervals.columns) == list(INTERVAL_COLUMNS)
    assert intervals["label"].tolist() == ["A", "B"]
    for row in intervals.to_dict("records"):
        played = games.loc[games["label"] == row["label"], "n_guesses"]
        low, mean, high = float(row["low"]), float(row["mean"]), float(row["high"])
        assert row["n"] == len(played)
        assert mean == pytest.approx(played.mean())
        assert low < mean < high
        # About 2 standard errors either side of the mean, not a wrong statistic's width.
        error = played.std() / np.sqrt(len(played))
        assert 2.5 * error < high - low < 5.5 * error
    again = mean_confidence_intervals(games, seed=11)
    pd.testing.assert_frame_equal(intervals, again)
    other = mean_confidence_intervals(games, seed=12)
    assert not np.allclose(other["low"], intervals["low"])


def test_a_label_interval_does_not_depend_on_the_other_labels() -> None:
    games = make_games({"A": STRONG, "B": WEAK}, runs=2, games_per_run=100)
    alone = mean_confidence_intervals(games[games["label"] == "B"], seed=3)
    together = mean_confidence_intervals(games, seed=3)
    assert alone.iloc[0]["low"] == together.iloc[1]["low"]


def test_intervals_on_run_means_and_of_constant_samples() -> None:
    games = fixed_games({"A": [[4, 4], [5, 5], [6, 6]], "B": [[5, 5], [5, 5], [5, 5]]})
    intervals = mean_confidence_intervals(games, seed=0, on="runs", confidence=0.9)
    a, b = intervals.to_dict("records")
    assert a["n"] == 3 and 4.0 <= a["low"] < 5.0 < a["high"] <= 6.0
    assert (b["low"], b["mean"], b["high"]) == (5.0, 5.0, 5.0)


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        ({"seed": 0, "confidence": 1.0}, "confidence"),
        ({"seed": -1}, "non-negative"),
        ({"seed": 0, "resamples": 10}, "resamples"),
    ],
)
def test_interval_arguments_are_checked(options: dict[str, float], problem: str) -> None:
    games = fixed_games({"A": [[4, 5]]})
    with pytest.raises(AnalysisError, match=problem):
        mean_confidence_intervals(games, **options)  # type: ignore[arg-type]


def test_the_report_shows_intervals_and_effect_sizes_and_is_byte_stable() -> None:
    games = make_games({"Entropy": STRONG, "Random": WEAK}, runs=3, games_per_run=100)
    experiment = experiment_record(games)
    report = build_report(games, experiment)
    markdown = report.markdown
    assert "## Mean guesses with bootstrap 95% confidence intervals" in markdown
    assert "## Effect sizes (Vargha–Delaney A12)" in markdown
    assert report.effect_sizes is not None and report.intervals is not None
    a12 = float(report.effect_sizes["a12"].iloc[0])
    assert f"| Entropy | Random | {a12:.3f} | {report.effect_sizes['magnitude'].iloc[0]} |" in (
        markdown
    )
    low, high = report.intervals.loc[0, ["low", "high"]]
    assert "| Entropy | 300 | " in markdown and f"{low:.3f}–{high:.3f}" in markdown
    assert build_report(games, experiment).markdown == markdown

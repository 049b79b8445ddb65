import numpy as np
import pandas as pd
import pytest
from scipy.stats import wilcoxon

from benchmarks.studies.paired import compare, paired_difference, reference_for


def test_a_paired_difference_is_the_mean_of_the_differences_with_its_standard_error() -> None:
    values, reference = [5, 6, 4, 7, 5, 6], [5, 5, 5, 6, 4, 5]
    paired = paired_difference(values, reference)
    assert paired.mean == pytest.approx(0.5)
    # Differences 0, 1, -1, 1, 1, 1: sd sqrt(0.7), over sqrt(6).
    assert paired.standard_error == pytest.approx(np.sqrt(0.7 / 6))
    assert paired.wilcoxon_p == pytest.approx(wilcoxon([0, 1, -1, 1, 1, 1]).pvalue)


def test_identical_games_have_no_test_and_unequal_ones_are_refused() -> None:
    assert paired_difference([5, 6], [5, 6]).wilcoxon_p is None
    with pytest.raises(ValueError, match="equally long"):
        paired_difference([5], [5, 6])


def test_an_entry_is_paired_with_the_longest_reference_its_label_begins_with() -> None:
    references = ["Sampler", "Sampler (all)"]
    assert reference_for("Sampler (all) mu=500", references) == "Sampler (all)"
    assert reference_for("Sampler mu=500", references) == "Sampler"
    assert reference_for("Archive", references) is None


def games(label: str, guesses: list[int], secrets: list[str]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "label": label,
            "pegs": 4,
            "colors": 6,
            "secrets": "full",
            "run": 0,
            "secret": secrets,
            "occurrence": 0,
            "n_guesses": guesses,
            "solved": True,
            "player_seconds": 0.5,
        }
    )


def test_games_are_paired_by_secret_whatever_their_order() -> None:
    table = pd.concat(
        [
            games("Entropy", [4, 5, 3], ["AAAA", "ABCD", "FFFF"]),
            games("Entropy mu=10", [6, 4, 4], ["FFFF", "AAAA", "ABCD"]),
        ]
    )
    figures = compare(table, ["Entropy"])
    assert figures["Entropy"]["mean_guesses"] == 4.0
    assert "paired_difference" not in figures["Entropy"]
    swept = figures["Entropy mu=10"]
    # Per secret: AAAA 4 - 4, ABCD 4 - 5, FFFF 6 - 3.
    assert swept["paired_difference"] == pytest.approx(round(2 / 3, 4))
    assert swept["max_guesses"] == 6 and swept["cpu_seconds_per_game"] == 0.5


def test_entries_that_played_other_secrets_or_failed_are_not_paired() -> None:
    other = games("Entropy mu=10", [4, 5], ["AAAA", "BBBB"])
    with pytest.raises(ValueError, match="same games"):
        compare(pd.concat([games("Entropy", [4, 5], ["AAAA", "ABCD"]), other]), ["Entropy"])
    failed = games("Entropy", [4, 100], ["AAAA", "ABCD"]).assign(solved=[True, False])
    with pytest.raises(ValueError, match="1 failed games"):
        compare(failed, ["Entropy"])
    with pytest.raises(ValueError, match="not an entry"):
        compare(other, ["Entropy"])


def test_any_two_entries_can_be_paired_beside_the_references() -> None:
    table = pd.concat(
        [games("Consistent", [4, 5], ["AAAA", "ABCD"]), games("All", [4, 4], ["AAAA", "ABCD"])]
    )
    figures = compare(table, ["Consistent"], [("All", "Consistent")])
    assert figures["All vs Consistent"]["paired_difference"] == -0.5
    assert "paired_difference" not in figures["All"]


def test_pooled_directories_pair_each_game_within_its_own() -> None:
    # The same secret in two samples: each game pairs with its own sample's, not the other's.
    first = pd.concat([games("A", [4], ["ABCD"]), games("B", [6], ["ABCD"])]).assign(
        results="first"
    )
    second = pd.concat([games("A", [8], ["ABCD"]), games("B", [5], ["ABCD"])]).assign(
        results="second"
    )
    figures = compare(pd.concat([second, first]), ["A"], [("B", "A")])
    # Pairs: first 6 - 4, second 5 - 8.
    assert figures["B vs A"]["paired_difference"] == pytest.approx(-0.5)

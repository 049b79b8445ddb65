import math
from itertools import combinations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import rankdata

from evo_mastermind.analysis.results import AnalysisError
from evo_mastermind.analysis.stats import (
    ACROSS_SECTIONS,
    TEST_COLUMNS,
    compact_letters,
    compared_values,
    group_exceptions,
    holm_adjust,
    pairwise_tests,
    paper_groups,
    rank_sum_test,
    significant_pairs,
)
from evo_mastermind.analysis.summary import summary_table
from tests.analysis.synthetic import STRONG, WEAK, fixed_games, make_games

# A non-transitive chain: A~B and B~C at α = 0.05 (p ≈ 0.07), A≠C (p ≈ 0.0003).
CHAIN = {
    "A": [[4] * 600 + [5] * 400],
    "B": [[4] * 560 + [5] * 440],
    "C": [[4] * 520 + [5] * 480],
}


def tie_corrected_p(first: list[float], second: list[float]) -> float:
    """The normal approximation written out: tie-corrected variance, continuity 0.5."""
    n1, n2 = len(first), len(second)
    ranks = rankdata(first + second)
    u = ranks[:n1].sum() - n1 * (n1 + 1) / 2
    _, ties = np.unique(first + second, return_counts=True)
    n = n1 + n2
    variance = n1 * n2 / 12 * ((n + 1) - (ties**3 - ties).sum() / (n * (n - 1)))
    z = (abs(u - n1 * n2 / 2) - 0.5) / math.sqrt(variance)
    return math.erfc(z / math.sqrt(2))


def pairs(*names: str) -> set[frozenset[str]]:
    return {frozenset(name) for name in names}


def test_rank_sum_matches_the_formula_with_ties_and_continuity() -> None:
    statistic, p = rank_sum_test([1, 2, 3], [4, 5, 6])
    assert statistic == 0
    assert p == pytest.approx(math.erfc((4.5 - 0.5) / math.sqrt(5.25) / math.sqrt(2)))
    first, second = [1.0, 1, 2, 3, 3, 5], [2.0, 3, 3, 4, 4, 6, 6]
    assert rank_sum_test(first, second)[1] == pytest.approx(tie_corrected_p(first, second))
    assert rank_sum_test([4, 4, 4], [4, 4, 4])[1] == 1.0
    with pytest.raises(AnalysisError, match="at least one value"):
        rank_sum_test([], [1.0])


def test_holm_adjustment() -> None:
    assert holm_adjust([0.01, 0.04, 0.03]).tolist() == pytest.approx([0.03, 0.06, 0.06])
    assert holm_adjust([0.5, 0.9]).tolist() == [1.0, 1.0]
    assert holm_adjust([]).size == 0


def test_every_pair_is_tested_in_config_order() -> None:
    games = make_games({"A": STRONG, "B": WEAK, "C": STRONG, "D": WEAK}, runs=10, seed=3)
    tests = pairwise_tests(games)
    assert list(tests.columns) == list(TEST_COLUMNS)
    tested = zip(tests["label_a"], tests["label_b"], strict=True)
    assert list(tested) == list(combinations("ABCD", 2))
    assert (tests["n_a"] == 1000).all()
    assert (tests["p_adjusted"] == tests["p"]).all()
    assert significant_pairs(tests) >= pairs("AB", "BC", "AD", "CD")
    assert frozenset("AC") not in significant_pairs(tests)


def test_identical_distributions_are_called_different_about_alpha_of_the_time() -> None:
    rng = np.random.default_rng(2024)
    draws = [
        rank_sum_test(rng.choice(7, 500, p=WEAK), rng.choice(7, 500, p=WEAK))[1] for _ in range(400)
    ]
    assert 0.02 <= np.mean(np.asarray(draws) <= 0.05) <= 0.085


def test_runs_test_the_run_means_and_holm_only_raises_p() -> None:
    games = make_games({"A": STRONG, "B": WEAK, "C": STRONG}, runs=10, games_per_run=30, seed=5)
    on_runs = pairwise_tests(games, on="runs", holm=True)
    assert (on_runs["n_a"] == 10).all()
    assert on_runs["p_adjusted"].tolist() == pytest.approx(
        holm_adjust(on_runs["p"].tolist()).tolist()
    )
    assert (on_runs["p_adjusted"] >= on_runs["p"]).all()
    assert significant_pairs(on_runs) >= pairs("AB", "BC")
    values = compared_values(games, "runs")
    assert values["A"] == pytest.approx(
        games[games["label"] == "A"].groupby("run")["n_guesses"].mean().to_numpy()
    )


def test_bad_options_are_clear_errors() -> None:
    games = fixed_games({"A": [[4]], "B": [[5]]})
    with pytest.raises(AnalysisError, match="test_on must be"):
        pairwise_tests(games, on="moves")  # type: ignore[arg-type]
    with pytest.raises(AnalysisError, match="alpha must be"):
        pairwise_tests(games, alpha=1.5)
    with pytest.raises(AnalysisError, match="group rule"):
        paper_groups(["A"], set(), rule="bands")  # type: ignore[arg-type]


def test_tests_run_within_each_game_size() -> None:
    small = make_games({"A": STRONG, "B": WEAK}, runs=2, games_per_run=50)
    large = make_games({"A": STRONG, "B": WEAK, "C": WEAK}, runs=2, games_per_run=50, pegs=5)
    tests = pairwise_tests(pd.concat([small, large], ignore_index=True))
    assert tests.groupby("pegs").size().to_dict() == {4: 1, 5: 3}


def test_clearly_different_players_fall_in_separate_groups_and_letters() -> None:
    games = make_games({"Good": STRONG, "Bad": WEAK}, runs=10, seed=11)
    different = significant_pairs(pairwise_tests(games))
    assert paper_groups(["Good", "Bad"], different) == [["Good"], ["Bad"]]
    assert compact_letters(["Good", "Bad"], different) == {"Good": "a", "Bad": "b"}


def test_identical_players_form_one_group() -> None:
    games = fixed_games({"X": [[4, 5, 6]] * 3, "Y": [[4, 5, 6]] * 3, "Z": [[6, 5, 4]] * 3})
    different = significant_pairs(pairwise_tests(games))
    assert different == set()
    ranked = summary_table(games)["label"].tolist()
    assert paper_groups(ranked, different) == [ranked]
    assert set(compact_letters(ranked, different).values()) == {"a"}
    assert group_exceptions([ranked], different) == []


def test_a_non_transitive_chain() -> None:
    games = fixed_games(CHAIN)
    different = significant_pairs(pairwise_tests(games))
    assert different == pairs("AC")
    assert compact_letters(["A", "B", "C"], different) == {"A": "a", "B": "ab", "C": "b"}
    clique = paper_groups(["A", "B", "C"], different)
    assert clique == [["A", "B"], ["C"]]
    assert group_exceptions(clique, different) == [
        "B and C are not significantly different, though a line separates them"
    ]
    chain = paper_groups(["A", "B", "C"], different, rule="chain")
    assert chain == [["A", "B", "C"]]
    assert group_exceptions(chain, different) == [
        "A and C differ significantly, though in one group"
    ]


def test_letters_go_in_rank_order_and_run_past_the_alphabet() -> None:
    different = pairs("AB", "AC", "AD", "BD")
    assert compact_letters(["A", "B", "C", "D"], different) == {
        "A": "a",
        "B": "b",
        "C": "bc",
        "D": "c",
    }
    many = [f"p{i}" for i in range(60)]
    letters = compact_letters(many, {frozenset(p) for p in combinations(many, 2)})
    assert letters["p0"] == "a"
    assert letters["p26"] == "A"
    assert letters["p53"] == "b'"
    assert len(set(letters.values())) == 60


@given(
    st.integers(min_value=1, max_value=7).flatmap(
        lambda n: st.tuples(
            st.just(n), st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)))
        )
    )
)
def test_shared_letter_exactly_when_not_different(case: tuple[int, set[tuple[int, int]]]) -> None:
    size, raw = case
    labels = [f"L{i}" for i in range(size)]
    different = {frozenset((labels[i], labels[j])) for i, j in raw if i != j}
    letters = compact_letters(labels, different)
    assert all(letters[label] for label in labels)
    for first, second in combinations(labels, 2):
        shares = bool(set(letters[first]) & set(letters[second]))
        assert shares == (frozenset((first, second)) not in different)
    for group in paper_groups(labels, different):
        assert all(frozenset(pair) not in different for pair in combinations(group, 2))


def test_sections_label_pairs_and_make_holm_families() -> None:
    games = make_games(
        {"A1": STRONG, "B1": WEAK, "C1": WEAK, "A2": STRONG, "B2": WEAK, "X": WEAK, "Y": STRONG},
        runs=2,
        games_per_run=60,
        seed=8,
    )
    sections = {"A1": "one", "B1": "one", "C1": "one", "A2": "two", "B2": "two"}
    tests = pairwise_tests(games, holm=True, sections=sections)
    assert list(tests.columns) == list(TEST_COLUMNS)
    assert len(tests) == 21  # every pair is still tested
    counts = tests["section"].value_counts().to_dict()
    assert counts == {"one": 3, "two": 1, "": 1, ACROSS_SECTIONS: 16}
    for section, family in tests.groupby("section"):
        assert family["p_adjusted"].tolist() == pytest.approx(
            holm_adjust(family["p"].tolist()).tolist()
        ), section
    single = tests[tests["section"] == "two"].iloc[0]
    assert single["p_adjusted"] == single["p"]  # a family of one pair is not adjusted
    plain = pairwise_tests(games, holm=True)
    assert (plain["section"] == "").all()
    assert plain["p_adjusted"].tolist() == pytest.approx(holm_adjust(plain["p"].tolist()).tolist())

import math

import numpy as np
import pandas as pd
import pytest

from evo_mastermind.analysis.analysis import Analysis
from evo_mastermind.analysis.report import report_markdown
from evo_mastermind.analysis.tournament import (
    pairwise_score_tests,
    round_scores,
    tournament_table,
)


def rounds(
    label: str,
    outcomes: list[tuple[str, int]],
    pegs: int = 8,
    colors: int = 10,
    source: str = "scsa:insert_colors",
) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "label": label,
            "pegs": pegs,
            "colors": colors,
            "secrets": source,
            "outcome": [o for o, _ in outcomes],
            "n_guesses": [g for _, g in outcomes],
            "seconds": 0.01,
        }
    )


def test_scores_follow_both_seed_scales() -> None:
    games = rounds(
        "rao", [("solved", 16), ("solved", 4), ("guess_limit", 100), ("invalid_guess", 3)]
    )
    scored = round_scores(games)
    assert scored["result"].tolist() == ["win", "win", "loss", "failure"]
    assert scored["score_sqrt"].tolist() == pytest.approx([5 / 4, 5 / 2, 0.0, -2.0])
    assert scored["score_scaled"].tolist() == pytest.approx([100.0, 200.0, 0.0, -160.0])


def test_table_counts_rounds_per_player_size_and_source() -> None:
    games = pd.concat(
        [
            rounds("rao", [("solved", 16)] * 3 + [("time_limit", 40)]),
            rounds("fcol", [("solved", 9)] * 4),
            rounds("fcol", [("solved", 25)] * 2, pegs=22, colors=24),
        ]
    )
    table = {(r["label"], r["pegs"]): r for r in tournament_table(games).to_dict("records")}
    rao = table[("rao", 8)]
    assert (rao["rounds"], rao["wins"], rao["losses"], rao["failures"]) == (4, 3, 1, 0)
    assert rao["win_rate"] == 0.75 and rao["mean_guesses"] == pytest.approx((48 + 40) / 4)
    assert rao["score_sqrt"] == pytest.approx(3 * 5 / 4)
    big = table[("fcol", 22)]
    assert big["score_scaled"] == pytest.approx(2 * 22 * 24 * 5 / math.sqrt(25))


def test_pairwise_tests_per_source() -> None:
    rng = np.random.default_rng(0)
    good = [("solved", int(g)) for g in rng.integers(8, 12, 200)]
    bad = [("solved", int(g)) for g in rng.integers(30, 40, 200)]
    games = pd.concat(
        [
            rounds("good", good),
            rounds("bad", bad),
            rounds("same", good),
            rounds("good", [("solved", 9)] * 5, source="scsa:ab_color"),
            rounds("bad", [("solved", 9)] * 5, source="scsa:ab_color"),
        ]
    )
    tests = pairwise_score_tests(games)
    rows = tests.to_dict("records")
    p = {(r["secrets"], r["label_a"], r["label_b"]): float(r["p"]) for r in rows}
    assert p[("scsa:insert_colors", "good", "bad")] < 1e-10
    assert p[("scsa:insert_colors", "good", "same")] == 1.0
    assert p[("scsa:ab_color", "good", "bad")] == 1.0


def test_report_follows_the_config_order_of_sources_and_lists_lost_rounds() -> None:
    games = pd.concat(
        [
            rounds("rao", [("solved", 16)] * 3, source="scsa:two_color"),
            rounds("rao", [("solved", 9), ("guess_limit", 100)], pegs=4, colors=4),
            rounds("fcol", [("solved", 10)] * 2, pegs=4, colors=4),
        ]
    )
    experiment = {
        "name": "t",
        "guess_limit": 100,
        "time_limit": 5.0,
        "secrets": ["scsa:two_color", "scsa:insert_colors"],
        "report": "tournament",
    }
    analysis = Analysis(games, experiment)
    markdown = report_markdown(analysis)
    by_size, tests = analysis.frame("tournament"), analysis.frame("score_tests")
    assert markdown.index("## scsa:two_color") < markdown.index("## scsa:insert_colors")
    assert (
        "| label | rounds | wins | losses | failures | win_rate | mean_guesses | mean_ms"
        in markdown
    )
    assert (
        "## Rounds not won" in markdown
        and "| rao | 4 | 4 | scsa:insert_colors | 2 | 1 | 1 |" in markdown
    )
    assert len(by_size) == 3 and list(tests["secrets"]) == ["scsa:insert_colors"]

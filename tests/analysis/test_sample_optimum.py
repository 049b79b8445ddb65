"""The optimum over the secrets actually played, and failed games kept out of the floor."""

import numpy as np
import pandas as pd
import pytest

from evo_mastermind.analysis.analysis import Analysis
from evo_mastermind.analysis.markdown import paper_markdown
from evo_mastermind.analysis.optimum import SAMPLE_SOURCE, optimal_guesses
from evo_mastermind.codes import CodeSpace
from evo_mastermind.game import Codemaker, play_game
from evo_mastermind.players import make_player
from tests.analysis.synthetic import STRONG, WEAK, experiment_record, fixed_games, make_games


def _replayed(pegs: int, colors: int, secrets: list[str]) -> float:
    """The optimal player's mean guesses, played game by game on these secrets."""
    space = CodeSpace(pegs, colors)
    player = make_player("optimal", space)
    played = [
        play_game(player, Codemaker(space, secret), np.random.default_rng(0)) for secret in secrets
    ]
    assert all(game.solved for game in played)
    return float(np.mean([len(game.moves) for game in played]))


@pytest.mark.parametrize(("pegs", "colors"), [(3, 3), (4, 4)])
def test_the_sample_floor_is_the_optimal_tree_replayed_on_the_sample(
    pegs: int, colors: int
) -> None:
    games = make_games({"A": STRONG, "B": WEAK}, runs=2, games_per_run=15, pegs=pegs, colors=colors)
    games["secrets"] = "sample"
    table = Analysis(games, experiment_record(games)).frame("optimum")
    floor = {str(row["label"]): row for row in table.to_dict("records")}
    for label in ("A", "B"):
        played = games[games["label"] == label]
        runs = [_replayed(pegs, colors, list(run["secret"])) for _, run in played.groupby("run")]
        row = floor[label]
        assert row["source"] == SAMPLE_SOURCE
        assert row["optimum"] == pytest.approx(np.mean(runs))
        assert (row["optimum_low"], row["optimum_high"]) == pytest.approx((min(runs), max(runs)))
        assert row["above"] == pytest.approx(row["mean"] - np.mean(runs))
    guesses = optimal_guesses(pegs, colors)
    assert guesses is not None and row["whole_space"] == pytest.approx(guesses.mean())


def test_a_full_block_keeps_the_whole_spaces_optimum_and_a_sample_says_its_size() -> None:
    games = make_games({"A": STRONG}, runs=2, games_per_run=12, pegs=3, colors=3)
    floor = Analysis(games, experiment_record(games)).frame("optimum")
    assert floor["optimum"].tolist() == [pytest.approx(73 / 27)]
    games["secrets"] = "sample"
    report = paper_markdown(Analysis(games, experiment_record(games)))
    assert "secrets: sample of 12." in report
    assert "over the secrets played" in report


def test_failed_games_are_counted_beside_the_distance_and_no_nan_is_shown() -> None:
    games = pd.concat(
        [
            fixed_games({"A": [[4] * 30] * 2, "B": [[2] * 30] * 2}),
            fixed_games({"B": [[], [8] * 6]}, solved=False, outcome="guess_limit"),
            fixed_games({"Lost": [[8] * 18] * 2}, solved=False, outcome="guess_limit"),
        ],
        ignore_index=True,
    )
    analysis = Analysis(games, experiment_record(games))
    floor = {str(row["label"]): row for row in analysis.frame("optimum").to_dict("records")}
    assert floor["B"]["failed"] == 6 and floor["B"]["played"] == 66
    assert pd.isna(floor["Lost"]["above"])
    report = paper_markdown(analysis)
    assert "nan" not in report
    assert "- Lost: no solved game (36 of 36 failed)" in report
    assert (
        "- B: 2.000, -2.340 above the optimum, over its 60 solved games only (6 of 66 failed"
        in report
    )
    lost = analysis.groups().to_dict("records")[-1]
    assert lost["label"] == "Lost" and pd.isna(lost["group"]) and lost["letters"] == ""

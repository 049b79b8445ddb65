"""The threshold sweep's games: the runner's games without the end game, the optimum with it."""

from pathlib import Path
from typing import Any

import pytest

from benchmarks.studies.endgame_thresholds import Games, play, sampler_keys, sweep
from evo_mastermind.api import run
from evo_mastermind.runner.config import config_from_data

CONFIG = {
    "name": "endgame_thresholds_3x4",
    "game": {"pegs": 3, "colors": 4},
    "runs": 1,
    "seed": 2024,
    "players": [{"label": "Sampler (all)", "player": "sampler", "play": "all", "mu": 20}],
}


def test_without_the_end_game_the_sweep_plays_the_runner_s_own_games(tmp_path: Path) -> None:
    config = config_from_data(CONFIG)
    options, keys = sampler_keys(config, "Sampler (all)", 64)
    games = play(config, "Sampler (all)", options, keys)
    played = run(CONFIG, out=tmp_path / "run", executor="serial", progress=False, quiet=True)
    runner = {(row.secret, row.occurrence): row.n_guesses for row in played.games.itertuples()}
    assert len(runner) == len(keys) == 64
    assert games.guesses == [runner[key.secret, key.occurrence] for key in keys]
    assert games.moves == games.taken_over == 0 and games.expected == games.guesses


def test_a_threshold_covering_the_space_plays_the_optimum_on_every_secret() -> None:
    out: dict[str, Any] = {}
    sweep(config_from_data(CONFIG), "Sampler (all)", [64], 64, out)
    covered, plain = out["T=64"], out["none"]
    # The optimum of (3,4) over its 64 secrets, every code a guess: 206 guesses.
    assert covered["mean"] == covered["expected"] == pytest.approx(206 / 64, abs=1e-4)
    # It takes over from the second guess on: every game but the one the opening wins.
    assert covered["taken_over"] == 63 and covered["endgame_share_of_moves"] > 0.6
    assert covered["misses"] == 0
    difference = covered["mean"] - plain["mean"]
    assert covered["paired_difference"] == pytest.approx(difference, abs=2e-4)


def test_an_unknown_label_is_named() -> None:
    with pytest.raises(ValueError, match="no entry labelled 'Nobody'"):
        sampler_keys(config_from_data(CONFIG), "Nobody", 3)
    assert Games().guesses == []

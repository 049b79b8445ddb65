"""Fabricated games tables and results directories with chosen guess-count distributions."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from evo_mastermind.analysis.results import GAME_COLUMNS
from evo_mastermind.codes import CodeSpace


def make_games(
    guesses: Mapping[str, Sequence[float]],
    runs: int = 10,
    games_per_run: int = 100,
    seed: int = 0,
    pegs: int = 4,
    colors: int = 6,
    secrets: str = "full",
    evaluations: Mapping[str, float] | None = None,
    unsolved: Mapping[str, float] | None = None,
) -> pd.DataFrame:
    """A games table: each label's guess counts drawn from its probabilities of 1, 2, ... guesses.

    Args:
        guesses: per label, the probability of solving in exactly 1, 2, ... guesses.
        runs: runs per label.
        games_per_run: games in each run.
        seed: seed of the draws.
        pegs: code length of every game.
        colors: number of colours of every game.
        secrets: the secret source written in every row.
        evaluations: per label that counts evaluations, the mean evaluations per game
            (labels not named get missing values, as exhaustive players do).
        unsolved: per label, the share of games stopped by the guess limit.
    """
    rng = np.random.default_rng(seed)
    space = CodeSpace(pegs, colors)
    rows: list[dict[str, Any]] = []
    for label, probabilities in guesses.items():
        weights = np.asarray(probabilities, dtype=float)
        means = dict(evaluations or {})
        for run in range(runs):
            drawn = rng.choice(
                np.arange(1, weights.size + 1), games_per_run, p=weights / weights.sum()
            )
            failed = rng.random(games_per_run) < (unsolved or {}).get(label, 0.0)
            for n_guesses, lost in zip(drawn.tolist(), failed.tolist(), strict=True):
                codes = [space.format(code) for code in space.sample(rng, n_guesses)]
                rows.append(
                    {
                        "label": label,
                        "player": label.split()[0].lower(),
                        "params": "{}",
                        "run": run,
                        "secret": codes[-1],
                        "pegs": pegs,
                        "colors": colors,
                        "secrets": secrets,
                        "occurrence": 0,
                        "n_guesses": n_guesses,
                        "solved": not lost,
                        "outcome": "guess_limit" if lost else "solved",
                        "moves": codes,
                        "evaluations": int(rng.poisson(means[label])) if label in means else None,
                        "distinct_codes": None,
                        "capped_guesses": None,
                        "seconds": float(rng.exponential(0.002)),
                        "player_seconds": float(rng.exponential(0.001)),
                        "failure": "guess limit: not solved" if lost else None,
                    }
                )
    games = pd.DataFrame(rows, columns=list(GAME_COLUMNS))
    for column in ("evaluations", "distinct_codes", "capped_guesses"):
        games[column] = games[column].astype("Int64")
    return games


def fixed_games(guesses: Mapping[str, Sequence[Sequence[int]]], **columns: Any) -> pd.DataFrame:
    """A games table with exactly the given guess counts: per label, one list per run."""
    rows = [
        {"label": label, "run": run, "n_guesses": n}
        for label, per_run in guesses.items()
        for run, counts in enumerate(per_run)
        for n in counts
    ]
    games = pd.DataFrame(rows)
    defaults: dict[str, Any] = {
        "player": "entropy",
        "params": "{}",
        "secret": "AABB",
        "pegs": 4,
        "colors": 6,
        "secrets": "full",
        "occurrence": 0,
        "solved": True,
        "outcome": "solved",
        "evaluations": pd.NA,
        "distinct_codes": pd.NA,
        "capped_guesses": pd.NA,
        "seconds": 0.01,
        "player_seconds": 0.005,
        "failure": None,
    }
    for column, value in {**defaults, **columns}.items():
        games[column] = value
    games["moves"] = [["AABB"] * n for n in games["n_guesses"]]
    for column in ("evaluations", "distinct_codes", "capped_guesses"):
        games[column] = games[column].astype("Int64")
    return games[list(GAME_COLUMNS)]


def experiment_record(
    games: pd.DataFrame, name: str = "synthetic", **fields: Any
) -> dict[str, Any]:
    """An ``experiment.json`` record for a games table (players in first-seen order)."""
    sizes = games[["pegs", "colors"]].drop_duplicates()
    single = len(sizes) == 1
    players = [
        {"label": label, "player": "entropy", "params": {}}
        for label in dict.fromkeys(games["label"])
    ]
    record: dict[str, Any] = {
        "name": name,
        "pegs": int(sizes["pegs"].iloc[0]) if single else None,
        "colors": int(sizes["colors"].iloc[0]) if single else None,
        "runs": int(games["run"].nunique()),
        "seed": 1,
        "players": players,
        "compare_with": None,
        "alpha": 0.05,
        "test_on": "games",
        "holm": False,
    }
    record.update(fields)
    return record


def write_results(directory: Path, games: pd.DataFrame, experiment: dict[str, Any]) -> Path:
    """Write a results directory (games in two shards, as the runner does) and return it."""
    shards = directory / "games"
    shards.mkdir(parents=True)
    half = len(games) // 2
    games.iloc[:half].to_parquet(shards / "part-00000.parquet", index=False)
    games.iloc[half:].to_parquet(shards / "part-00001.parquet", index=False)
    (directory / "experiment.json").write_text(json.dumps(experiment, indent=2))
    return directory


# Guess-count probabilities (1, 2, ... guesses) resembling (4,6) players.
STRONG = (0.001, 0.02, 0.1, 0.4, 0.45, 0.029)
WEAK = (0.001, 0.01, 0.05, 0.25, 0.45, 0.2, 0.039)

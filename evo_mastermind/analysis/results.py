"""Reading a results directory: the games table, the experiment record, and their checks.

A results directory holds ``games/part-*.parquet`` (one row per game) and
``experiment.json`` (the experiment's name, game size, players, seed and analysis options).
Everything in :mod:`evo_mastermind.analysis` works on the games table as a pandas
DataFrame; this module is the one place that reads it from disk.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, cast

import pandas as pd

from evo_mastermind.codes import InvalidGameError
from evo_mastermind.runner.record import ExperimentRecord, as_record
from evo_mastermind.runner.storage import GAMES_SCHEMA, ResultsDir

Experiment = ExperimentRecord | Mapping[str, Any]
"""An experiment record, or its fields as a mapping (read into a record where used)."""

GAME_COLUMNS = tuple(GAMES_SCHEMA.names)
"""Every column of a games table, in the runner's order."""

BLOCK_COLUMNS = ("pegs", "colors", "secrets")
"""A block of games played under the same conditions: players are compared within one."""


class AnalysisError(InvalidGameError):
    """Data that cannot be analysed as asked (missing columns, no games, a plot that cannot be)."""


def require_columns(
    table: pd.DataFrame, columns: Iterable[str], what: str = "games", allow_empty: bool = False
) -> None:
    """Raise :class:`AnalysisError` naming the columns ``table`` lacks.

    Raises:
        AnalysisError: a column is missing, or the table has no rows (unless allowed).
    """
    missing = [column for column in columns if column not in table.columns]
    if missing:
        raise AnalysisError(f"the {what} table has no column {', '.join(map(repr, missing))}")
    if table.empty and not allow_empty:
        raise AnalysisError(f"the {what} table has no rows")


def load_games(results_dir: Path | str) -> pd.DataFrame:
    """Read every shard of ``results_dir/games`` into one games table.

    Shards are checked against the experiment record: a shard of another experiment, or a
    damaged one, is named in the error.

    Raises:
        AnalysisError: no ``games`` directory, a damaged or foreign shard, or shards lacking
            a contract column.
    """
    results = ResultsDir(results_dir)
    if not results.shards():
        raise AnalysisError(f"no games found: {results.games} has no Parquet shards")
    identity, labels = None, None
    if results.manifest_path.is_file():
        record = load_experiment(results_dir)
        identity = record.identity
        labels = set(record.labels()) if record.players else None
    try:
        return results.load_games(identity, labels)
    except InvalidGameError as error:
        raise AnalysisError(str(error)) from None


def missing_games(results_dir: Path | str) -> int | None:
    """Planned games the results directory lacks (negative: more stored than planned).

    ``None`` if the record does not say how many were planned.
    """
    results = ResultsDir(results_dir)
    try:
        planned = results.read_manifest().games
    except InvalidGameError:
        return None
    if planned is None:
        return None
    return planned - results.count_games()


def load_experiment(results_dir: Path | str) -> ExperimentRecord:
    """Read ``results_dir/experiment.json``.

    Raises:
        AnalysisError: the file is missing, is not valid JSON, or is not an experiment
            record (a JSON object with a ``name``).
    """
    results = ResultsDir(results_dir)
    path = results.manifest_path
    if not path.is_file():
        raise AnalysisError(f"no experiment record: {path} does not exist")
    try:
        return results.read_manifest()
    except InvalidGameError as error:
        if "not an experiment record" in str(error):
            raise AnalysisError(f"{path} must be a JSON object with a 'name'") from None
        raise AnalysisError(str(error)) from None


def blocks(games: pd.DataFrame) -> list[tuple[tuple[int, int, str], pd.DataFrame]]:
    """The games split by (pegs, colors, secrets), in sorted order."""
    require_columns(games, BLOCK_COLUMNS)
    split = []
    for key, block in games.groupby(list(BLOCK_COLUMNS), sort=True):
        pegs, colors, secrets = cast(tuple[int, int, str], key)
        split.append(((int(pegs), int(colors), str(secrets)), block))
    return split


def label_order(games: pd.DataFrame, experiment: Experiment | None = None) -> list[str]:
    """Labels in config order (from ``experiment``'s players), then any others as first seen."""
    configured = as_record(experiment).labels()
    present = list(dict.fromkeys(games["label"].astype(str)))
    return [label for label in configured if label in present] + [
        label for label in present if label not in configured
    ]


def secrets_text(secrets: str, block: pd.DataFrame) -> str:
    """A block's secret source for titles and captions, with its size: ``sample of 200``.

    ``full`` (every code once) is named alone; any other source with the secrets each run
    played (the most over the block's players and runs).
    """
    if secrets == "full" or block.empty:
        return secrets
    per_run = block.groupby(["label", "run"], sort=False, observed=True).size()
    return f"{secrets} of {int(per_run.max())}"


def size_text(games: pd.DataFrame) -> str:
    """The game size for titles: ``(4,6)``, a few sizes listed, or many summarised.

    E.g. ``(4,6), (5,8)``; beyond six sizes ``144 sizes, (4,4) to (26,26)``.
    """
    sizes = sorted({(int(p), int(c)) for p, c in zip(games["pegs"], games["colors"], strict=True)})
    named = [f"({pegs},{colors})" for pegs, colors in sizes]
    if len(named) <= 6:
        return ", ".join(named)
    return f"{len(named)} sizes, {named[0]} to {named[-1]}"

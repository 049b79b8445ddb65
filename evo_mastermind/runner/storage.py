"""A results directory: the experiment manifest and the games table as Parquet shards.

Layout::

    DIR/experiment.json        what was run (config, fingerprint, players, statistics)
    DIR/config.yaml            the config file as given
    DIR/games/part-NNNNN.parquet   one shard per finished batch

A shard is written to a hidden temporary name and renamed into place, so a killed run
leaves only whole shards; the keys in the shards are the games already played.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from evo_mastermind.codes import InvalidGameError
from evo_mastermind.runner.plan import KEY_COLUMNS, GameKey

GAMES_SCHEMA = pa.schema(
    [
        ("label", pa.string()),
        ("player", pa.string()),
        ("params", pa.string()),
        ("pegs", pa.int16()),
        ("colors", pa.int16()),
        ("secrets", pa.string()),
        ("run", pa.int32()),
        ("secret", pa.string()),
        ("occurrence", pa.int32()),
        ("n_guesses", pa.int32()),
        ("solved", pa.bool_()),
        ("outcome", pa.string()),
        ("moves", pa.list_(pa.string())),
        ("evaluations", pa.int64()),
        ("distinct_codes", pa.int64()),
        ("capped_guesses", pa.int64()),
        ("seconds", pa.float64()),
        ("player_seconds", pa.float64()),
    ]
)
"""The games table: one row per game; ``evaluations`` and the like are null where not counted."""

TIMING_COLUMNS = ["seconds", "player_seconds"]
"""Columns that measure time and so differ between otherwise identical runs."""

_OUTPUTS = (
    "summary.csv",
    "wilcoxon.csv",
    "by_size.csv",
    "tournament.csv",
    "score_tests.csv",
    "report.md",
    "plots",
)


class ResultsDir:
    """One experiment's results directory."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.games = self.path / "games"
        self.manifest_path = self.path / "experiment.json"

    def holds_results(self) -> bool:
        """Whether anything of an earlier run is here."""
        return self.manifest_path.exists() or any(self.shards())

    def is_empty(self) -> bool:
        """Whether the directory is missing or has nothing in it."""
        return not self.path.exists() or not any(self.path.iterdir())

    def shards(self) -> list[Path]:
        """Every finished shard, in name order."""
        return sorted(self.games.glob("part-*.parquet")) if self.games.exists() else []

    def clear(self) -> None:
        """Remove every earlier result (for ``--force``)."""
        for name in ("games", *_OUTPUTS):
            target = self.path / name
            if target.is_dir():
                shutil.rmtree(target)
            elif target.exists():
                target.unlink()
        for name in ("experiment.json", "config.yaml"):
            (self.path / name).unlink(missing_ok=True)

    def remove_partial_shards(self) -> None:
        """Delete temporary shards left by a killed run."""
        if self.games.exists():
            for leftover in self.games.glob(".part-*.tmp"):
                leftover.unlink()

    def write_manifest(self, manifest: dict[str, Any], config_text: str) -> None:
        """Record what is being run, atomically."""
        self.path.mkdir(parents=True, exist_ok=True)
        _atomic_write_text(self.manifest_path, json.dumps(manifest, indent=2) + "\n")
        _atomic_write_text(self.path / "config.yaml", config_text)

    def read_manifest(self) -> dict[str, Any]:
        """What :meth:`write_manifest` recorded."""
        data: dict[str, Any] = json.loads(self.manifest_path.read_text())
        return data

    def write_shard(self, games: pa.Table) -> Path:
        """Write one batch's games as a new shard: temporary name first, then renamed."""
        self.games.mkdir(parents=True, exist_ok=True)
        numbers = [int(p.stem.split("-")[1]) for p in self.shards()]
        final = self.games / f"part-{max(numbers, default=-1) + 1:05d}.parquet"
        temporary = self.games / f".{final.name}.tmp"
        pq.write_table(games, temporary)
        os.replace(temporary, final)
        return final

    def load_games(self) -> pd.DataFrame:
        """The whole games table, sorted by game identity (empty with the schema if none)."""
        shards = self.shards()
        if not shards:
            return GAMES_SCHEMA.empty_table().to_pandas()
        table = pa.concat_tables([_read_shard(shard) for shard in shards])
        frame = table.to_pandas(types_mapper=_nullable_ints)
        return frame.sort_values(KEY_COLUMNS, kind="stable").reset_index(drop=True)

    def done_keys(self) -> set[GameKey]:
        """The identities of every game already stored."""
        keys: set[GameKey] = set()
        for shard in self.shards():
            table = pq.read_table(shard, columns=KEY_COLUMNS)
            keys.update(
                GameKey(*values) for values in zip(*table.to_pydict().values(), strict=True)
            )
        return keys


def _read_shard(shard: Path) -> pa.Table:
    table = pq.read_table(shard)
    missing = [name for name in GAMES_SCHEMA.names if name not in table.column_names]
    if missing:
        raise InvalidGameError(
            f"{shard}: the games table has no column {', '.join(map(repr, missing))}"
        )
    return table.select(GAMES_SCHEMA.names).cast(GAMES_SCHEMA)


def _nullable_ints(arrow_type: pa.DataType) -> Any:
    # Counters absent for most players stay integers with nulls, not floats.
    return pd.Int64Dtype() if arrow_type == pa.int64() else None


def _atomic_write_text(path: Path, text: str) -> None:
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text(text)
    os.replace(temporary, path)

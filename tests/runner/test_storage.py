import json
from pathlib import Path

import pytest

from evo_mastermind.runner.storage import MARKER_NAME, ResultsDir, ResultsError


def test_one_lock_holder_at_a_time(tmp_path: Path) -> None:
    results = ResultsDir(tmp_path / "out")
    busy = r"being written by another run \(process \d+"
    with results.lock(), pytest.raises(ResultsError, match=busy), ResultsDir(results.path).lock():
        pass
    with results.lock():  # released on exit
        pass


def test_a_stale_lock_is_taken_over_and_said(tmp_path: Path) -> None:
    results = ResultsDir(tmp_path)
    stale = {"pid": 999_999_999, "host": "elsewhere", "started": "yesterday"}
    results.lock_path.write_text(json.dumps(stale))
    said: list[str] = []
    with results.lock(said.append):
        pass
    assert said == [
        f"took over the lock of {tmp_path} left by a stopped run (process "
        "999999999 on elsewhere, started yesterday)"
    ]


def test_ownership_and_clear(tmp_path: Path) -> None:
    results = ResultsDir(tmp_path)
    (tmp_path / "mine.txt").write_text("x")
    assert not results.owned()
    with pytest.raises(ResultsError, match="not one"):
        results.clear()
    results.write_manifest({"name": "x", "fingerprint": "f"}, "name: x\n")
    assert (tmp_path / MARKER_NAME).is_file() and results.owned()
    results.clear()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([MARKER_NAME, "mine.txt"])


def test_a_shard_written_before_the_failure_column_reads_it_as_empty(tmp_path: Path) -> None:
    import pyarrow as pa

    from evo_mastermind.runner.storage import GAMES_SCHEMA

    old_schema = pa.schema([field for field in GAMES_SCHEMA if field.name != "failure"])
    row = {
        "label": "E", "player": "entropy", "params": "{}", "pegs": 3, "colors": 3,
        "secrets": "full", "run": 0, "secret": "ABC", "occurrence": 0, "n_guesses": 3,
        "solved": True, "outcome": "solved", "moves": ["AAB", "BCA", "ABC"],
        "evaluations": None, "distinct_codes": None, "capped_guesses": None,
        "seconds": 0.1, "player_seconds": 0.1,
    }  # fmt: skip
    results = ResultsDir(tmp_path)
    results.write_shard(pa.Table.from_pylist([row], schema=old_schema))
    games = results.load_games()
    assert list(games.columns) == GAMES_SCHEMA.names and games["failure"].isna().all()

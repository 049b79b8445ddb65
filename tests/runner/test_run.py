import math
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from evo_mastermind.runner import (
    TIMING_COLUMNS,
    ResultsDir,
    RunnerError,
    load_config,
    make_executor,
    run_experiment,
)
from evo_mastermind.runner.executors import DaskExecutor
from tests.players.support import every_player
from tests.runner.conftest import ConfigWriter


def run(
    config_path: Path,
    out: Path,
    executor: str = "serial",
    workers: int | None = None,
    resume: bool = False,
    force: bool = False,
) -> pd.DataFrame:
    config = load_config(config_path)
    with make_executor(executor, workers) as pool:  # type: ignore[arg-type]
        run_experiment(config, config_path, out, pool, resume, force, progress=False)
    return ResultsDir(out).load_games()


def comparable(games: pd.DataFrame) -> pd.DataFrame:
    return games.drop(columns=TIMING_COLUMNS)


def test_every_game_is_played_once_with_the_full_schema(
    write_config: ConfigWriter, tmp_path: Path
) -> None:
    games = run(write_config(), tmp_path / "out")
    assert len(games) == 2 * 2 * 64  # players x runs x (3,4) secrets
    assert not games.duplicated(["label", "run", "secret"]).any()
    assert games["solved"].all() and (games["outcome"] == "solved").all()
    row = games.iloc[0]
    assert row["moves"][-1] == row["secret"] and len(row["moves"]) == row["n_guesses"]
    assert row["params"] == "{}" and row["secrets"] == "full" and row["pegs"] == 3
    assert pd.isna(row["evaluations"])
    manifest = ResultsDir(tmp_path / "out").read_manifest()
    assert manifest.name == "small" and manifest.pegs == 3 and manifest.runs == 2
    assert manifest.labels() == ["Entropy", "Random"]


def test_same_games_table_for_serial_process_and_dask(
    write_config: ConfigWriter, tmp_path: Path
) -> None:
    path = write_config(
        game={"pegs": 4, "colors": 6},
        secrets={"sample": 150},
        players=[
            {"label": "Entropy", "player": "entropy"},
            {"label": "Parts mu={mu}", "player": "most_parts", "mu": [10]},
            {"label": "Random", "player": "random"},
            {"label": "Sampler", "player": "sampler", "mu": 20, "play": "all"},
        ],
        batch_games=None,
    )
    serial = comparable(run(path, tmp_path / "serial"))
    process = comparable(run(path, tmp_path / "process", "process", workers=2))
    dask = comparable(run(path, tmp_path / "dask", "dask", workers=2))
    pd.testing.assert_frame_equal(serial, process)
    pd.testing.assert_frame_equal(serial, dask)


def test_every_player_plays_the_same_games_on_a_threaded_dask_cluster(
    write_config: ConfigWriter, tmp_path: Path
) -> None:
    # A worker of `dask worker` runs several tasks at once in threads of one process, beside
    # its own threads; games there must not share a player or a random state.
    from distributed import LocalCluster

    path = write_config(
        game={"pegs": 4, "colors": 6},
        secrets={"sample": 3},
        players=every_player(tmp_path / "knuth.json"),
        batch_games=1,
    )
    serial = comparable(run(path, tmp_path / "serial"))
    config = load_config(path)
    with (
        LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=1, threads_per_worker=2, processes=True, dashboard_address=None
        ) as cluster,
        DaskExecutor(address=cluster.scheduler_address) as pool,
    ):
        run_experiment(config, path, tmp_path / "dask", pool, progress=False)
    threaded = comparable(ResultsDir(tmp_path / "dask").load_games())
    pd.testing.assert_frame_equal(serial, threaded)


def test_committed_reports_without_games_are_replayed_on_resume(
    write_config: ConfigWriter, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    first = run(write_config(), out)
    shutil.rmtree(out / "games")  # what a fresh clone holds: reports and manifest, no games
    # Even a manifest of an older config version must not stop the replay: nothing can mix.
    replayed = run(write_config(seed=99), out, resume=True)
    assert len(replayed) == len(first)
    assert ResultsDir(out).read_manifest().seed == 99


def test_batch_size_never_changes_results(write_config: ConfigWriter, tmp_path: Path) -> None:
    adaptive = comparable(run(write_config(), tmp_path / "a"))
    fixed = comparable(run(write_config("b.yaml", batch_games=5), tmp_path / "b"))
    pd.testing.assert_frame_equal(adaptive, fixed)
    assert len(ResultsDir(tmp_path / "b").shards()) == 2 * math.ceil(2 * 64 / 5)  # per player


def test_force_into_a_new_directory_runs_and_runs_again(
    write_config: ConfigWriter, tmp_path: Path
) -> None:
    path, out = write_config(), tmp_path / "new"
    first = run(path, out, force=True)  # nothing to replace yet: the lock alone is no stranger
    again = run(path, out, force=True)
    pd.testing.assert_frame_equal(comparable(first), comparable(again))


def test_existing_results_are_never_overwritten_silently(
    write_config: ConfigWriter, tmp_path: Path
) -> None:
    path, out = write_config(), tmp_path / "out"
    first = run(path, out)
    with pytest.raises(RunnerError, match=r"already holds results; use --resume .* or --force"):
        run(path, out)
    resumed = run(path, out, resume=True)  # nothing left to play
    pd.testing.assert_frame_equal(comparable(first), comparable(resumed))
    with pytest.raises(RunnerError, match="different configuration"):
        run(write_config("other.yaml", seed=99), out, resume=True)
    forced = run(write_config("other.yaml", seed=99), out, force=True)
    assert len(forced) == len(first)
    stranger = tmp_path / "stranger"
    stranger.mkdir()
    (stranger / "notes.txt").write_text("mine")
    with pytest.raises(RunnerError, match="is not empty"):
        run(path, stranger)


def test_killed_run_resumes_to_the_uninterrupted_table(
    write_config: ConfigWriter, tmp_path: Path
) -> None:
    path = write_config(
        game={"pegs": 4, "colors": 6},
        runs=4,
        batch_games=150,
        players=[
            {"label": "Entropy", "player": "entropy"},
            {"label": "Worst", "player": "worst_case"},
        ],
    )
    out = tmp_path / "killed"
    command = [
        sys.executable,
        "-m",
        "evo_mastermind.cli",
        "run",
        str(path),
        "--out",
        str(out),
        "--executor",
        "serial",
        "--no-progress",
    ]
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while len(ResultsDir(out).shards()) < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    partial = ResultsDir(out)
    assert 3 <= len(partial.load_games()) // 150 < 2 * 4 * 1296 // 150, "kill came too late"
    (partial.games / ".part-99999.parquet.tmp").write_bytes(b"half a shard")
    resumed = run(path, out, resume=True)
    assert not list(partial.games.glob(".*.tmp"))
    uninterrupted = run(path, tmp_path / "whole")
    assert len(resumed) == 2 * 4 * 1296
    pd.testing.assert_frame_equal(comparable(resumed), comparable(uninterrupted))


def test_sample_and_list_secrets_are_shared_by_players_and_runs(
    write_config: ConfigWriter, tmp_path: Path
) -> None:
    path = write_config(
        game={"pegs": 5, "colors": 8},
        secrets=[{"sample": 6}, {"list": ["ABCDE", "ABCDE"]}],
        players=[{"label": "Entropy", "player": "entropy"}],
    )
    games = run(path, tmp_path / "out")
    sample = games[games["secrets"] == "sample"]
    assert sample.groupby("run")["secret"].apply(list).map(tuple).nunique() == 1
    listed = games[games["secrets"] == "list"]
    assert sorted(listed["occurrence"].tolist()) == [0, 0, 1, 1]
    again = run(path, tmp_path / "again")
    pd.testing.assert_frame_equal(comparable(games), comparable(again))

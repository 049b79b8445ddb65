"""The results directory is the tool's own: ownership, --force, foreign and damaged shards."""

import json
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from evo_mastermind.runner import TIMING_COLUMNS, ResultsDir
from tests.reliability.conftest import Cli, Failure, snapshot, write_yaml

SERIAL = ("--executor", "serial", "--no-progress")


def games_of(out: Path) -> pd.DataFrame:
    return ResultsDir(out).load_games().drop(columns=TIMING_COLUMNS)


def test_force_refuses_a_folder_the_tool_did_not_write(fails: Failure, tmp_path: Path) -> None:
    folder = tmp_path / "work"
    (folder / "plots").mkdir(parents=True)
    config = write_yaml(folder / "config.yaml")
    (folder / "plots" / "important.png").write_bytes(b"png")
    (folder / "report.md").write_text("my report")
    before = snapshot(folder)
    fails("run", config, "--out", folder, "--force", *SERIAL, pattern="not written by evo-ma")
    fails("run", config, "--out", folder, *SERIAL, pattern="not written by evo-mastermind")
    assert snapshot(folder) == before


def test_force_removes_only_what_the_tool_wrote(cli: Cli, played: Path, tmp_path: Path) -> None:
    (played / "plots").mkdir(exist_ok=True)
    (played / "plots" / "mine.png").write_bytes(b"mine")
    (played / "notes.txt").write_text("keep")
    (played / "games" / "README").write_text("keep too")
    status, _, err = cli("run", tmp_path / "small.yaml", "--out", played, "--force", *SERIAL)
    assert status == 0, err
    assert (played / "plots" / "mine.png").read_bytes() == b"mine"
    assert (played / "notes.txt").read_text() == "keep"
    assert (played / "games" / "README").read_text() == "keep too"


def test_out_that_is_a_file_or_on_a_virtual_filesystem(fails: Failure, tmp_path: Path) -> None:
    config = write_yaml(tmp_path / "c.yaml")
    afile = tmp_path / "afile"
    afile.write_text("x")
    fails("run", config, "--out", afile, *SERIAL, pattern="is a file, not a results directory")
    assert afile.read_text() == "x"
    fails("run", config, "--out", "/proc/evo-mastermind-test", *SERIAL, pattern=r"error: /proc")


def test_foreign_shard_is_named(cli: Cli, fails: Failure, played: Path, tmp_path: Path) -> None:
    other = write_yaml(tmp_path / "other.yaml", name="other", seed=6)
    status, _, _ = cli("run", other, "--out", tmp_path / "other", *SERIAL)
    assert status == 0
    stranger = played / "games" / "part-09999.parquet"
    stranger.write_bytes(ResultsDir(tmp_path / "other").shards()[0].read_bytes())
    before = snapshot(played)
    fails("report", played, pattern=r"part-09999\.parquet belongs to another experiment")
    fails("plot", played, pattern=r"part-09999\.parquet belongs to another experiment")
    config = tmp_path / "small.yaml"
    fails("run", config, "--out", played, "--resume", *SERIAL, pattern="another experiment")
    assert snapshot(played) == before


def test_unstamped_foreign_shard_is_named_by_its_players(
    fails: Failure, played: Path, tmp_path: Path
) -> None:
    table = pq.read_table(ResultsDir(played).shards()[0]).replace_schema_metadata(None)
    labels = pa.array(["Intruder"] * table.num_rows)
    pq.write_table(table.set_column(0, "label", labels), played / "games" / "part-08888.parquet")
    fails("report", played, pattern=r"part-08888.*players not in this experiment: Intruder")


DAMAGE: dict[str, Callable[[bytes], bytes]] = {
    "truncated": lambda data: data[: len(data) // 2],
    "garbage": lambda data: bytes(range(256)) * 8,
    "empty": lambda data: b"",
}


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_damaged_shard_named_then_set_aside_and_replayed(
    cli: Cli, fails: Failure, played: Path, tmp_path: Path, damage: str
) -> None:
    whole = games_of(played)
    shard = ResultsDir(played).shards()[1]
    original = shard.read_bytes()
    shard.write_bytes(DAMAGE[damage](original))
    before = snapshot(played)
    fails("report", played, pattern=rf"{shard.name} is damaged .*--resume")
    fails("plot", played, pattern=rf"{shard.name} is damaged")
    assert snapshot(played) == before
    status, _, err = cli("run", tmp_path / "small.yaml", "--out", played, "--resume", *SERIAL)
    assert status == 0
    assert f"{shard.name} is damaged" in err and "moved to" in err
    assert (played / "set-aside" / shard.name).read_bytes() == DAMAGE[damage](original)
    pd.testing.assert_frame_equal(games_of(played), whole)


def test_shard_with_wrong_columns(cli: Cli, fails: Failure, played: Path, tmp_path: Path) -> None:
    whole = games_of(played)
    shard = ResultsDir(played).shards()[0]
    pq.write_table(pa.table({"x": [1, 2]}), shard)
    fails("report", played, pattern=r"damaged \(the games table has no column 'label'")
    status, _, _ = cli("run", tmp_path / "small.yaml", "--out", played, "--resume", *SERIAL)
    assert status == 0
    pd.testing.assert_frame_equal(games_of(played), whole)


def test_malformed_record(cli: Cli, fails: Failure, played: Path, tmp_path: Path) -> None:
    whole = games_of(played)
    (played / "experiment.json").write_text("{not json")
    fails("report", played, pattern=r"experiment\.json is not valid JSON")
    status, _, err = cli("run", tmp_path / "small.yaml", "--out", played, "--resume", *SERIAL)
    assert status == 0 and "rewritten from the config" in err
    assert json.loads((played / "experiment.json").read_text())["version"] == 1
    pd.testing.assert_frame_equal(games_of(played), whole)


def test_version_less_records_are_read(played: Path) -> None:
    record = json.loads((played / "experiment.json").read_text())
    del record["version"]
    (played / "experiment.json").write_text(json.dumps(record))
    assert ResultsDir(played).read_manifest().name == "small"
    record["version"] = 99
    (played / "experiment.json").write_text(json.dumps(record))
    with pytest.raises(Exception, match="newer than this evo-mastermind reads"):
        ResultsDir(played).read_manifest()


def test_committed_reference_records_are_owned_and_read() -> None:
    for record in Path("results").glob("*/*/experiment.json"):
        results = ResultsDir(record.parent)
        assert results.owned()
        assert results.read_manifest().name


def test_run_failing_before_its_first_game_needs_no_force(
    cli: Cli, fails: Failure, tmp_path: Path
) -> None:
    config = write_yaml(tmp_path / "c.yaml")
    out = tmp_path / "out"
    fails(
        "run",
        config,
        "--out",
        out,
        "--executor",
        "dask",
        "--scheduler",
        "nonsense:://x",
        "--no-progress",
        pattern="is not a scheduler address",
    )
    ResultsDir(out).write_manifest({"name": "small"}, "")  # as if stopped before any game
    status, _, err = cli("run", config, "--out", out, *SERIAL)
    assert status == 0, err


def test_report_on_incomplete_run_warns(cli: Cli, played: Path) -> None:
    for shard in ResultsDir(played).shards()[:2]:
        shard.unlink()
    status, _, err = cli("report", played)
    assert status == 0
    assert "warning: 18 planned games are missing" in err and "--resume" in err


def test_resume_adds_runs_and_players_only(
    cli: Cli, fails: Failure, played: Path, tmp_path: Path
) -> None:
    before = games_of(played)
    players = [*write_players(), {"label": "Worst", "player": "worst_case"}]
    more = write_yaml(tmp_path / "more.yaml", runs=3, players=players)
    status, out, err = cli("run", more, "--out", played, "--resume", *SERIAL)
    assert status == 0, err
    assert "playing only the new games (runs 2 to 2; players Worst)" in err
    assert "135 games played (108 already done)" in out
    after = games_of(played)
    old = after[after["label"].isin(["Entropy", "Parts"]) & (after["run"] < 2)]
    pd.testing.assert_frame_equal(old.reset_index(drop=True), before)
    changed = write_yaml(
        tmp_path / "changed.yaml",
        runs=3,
        players=[{"label": "Entropy", "player": "entropy", "ties": "lexicographic"}, *players[1:]],
    )
    fails(
        "run",
        changed,
        "--out",
        played,
        "--resume",
        *SERIAL,
        pattern="'Entropy' changed its player or options",
    )
    fewer = write_yaml(tmp_path / "fewer.yaml", runs=1, players=players)
    fails("run", fewer, "--out", played, "--resume", *SERIAL, pattern="holds 3 runs but")
    other = write_yaml(tmp_path / "other.yaml", seed=77, runs=3, players=players)
    fails("run", other, "--out", played, "--resume", *SERIAL, pattern="different configuration")


def write_players() -> list[dict[str, object]]:
    return [{"label": "Entropy", "player": "entropy"}, {"label": "Parts", "player": "most_parts"}]


def test_full_disk_is_one_line_and_keeps_the_shards(
    fails: Failure, played: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for shard in ResultsDir(played).shards()[3:]:
        shard.unlink()
    before = snapshot(played / "games")

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device", str(played / "games" / ".part.tmp"))

    monkeypatch.setattr(ResultsDir, "write_shard", full)
    fails(
        "run",
        tmp_path / "small.yaml",
        "--out",
        played,
        "--resume",
        *SERIAL,
        pattern=r"No space left on device; nothing already written is lost",
    )
    assert snapshot(played / "games") == before


def test_interrupt_is_one_line_and_exit_130(
    fails: Failure, played: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(ResultsDir, "write_shard", interrupted)
    for shard in ResultsDir(played).shards()[3:]:
        shard.unlink()
    fails(
        "run",
        tmp_path / "small.yaml",
        "--out",
        played,
        "--resume",
        *SERIAL,
        pattern=r"interrupted; finished games are kept \(rerun with --resume\)",
        status=130,
    )


def test_games_stored_twice_are_refused_then_set_aside(
    cli: Cli, fails: Failure, played: Path, tmp_path: Path
) -> None:
    whole = games_of(played)
    first = ResultsDir(played).shards()[0]
    (played / "games" / "part-07777.parquet").write_bytes(first.read_bytes())
    status, _, err = cli("report", played)
    assert status == 0 and "stores 9 more games than planned" in err and "--resume" in err
    status, _, err = cli("run", tmp_path / "small.yaml", "--out", played, "--resume", *SERIAL)
    assert status == 0 and "part-07777.parquet is damaged (9 of its games" in err
    assert (played / "set-aside" / "part-07777.parquet").exists()
    pd.testing.assert_frame_equal(games_of(played), whole)


def test_a_dead_worker_is_one_line(
    fails: Failure, played: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from concurrent.futures.process import BrokenProcessPool

    def broken(*args: object, **kwargs: object) -> None:
        raise BrokenProcessPool("A process in the process pool was terminated abruptly")

    monkeypatch.setattr("evo_mastermind.runner.run_experiment", broken)  # the CLI imports it late
    before = snapshot(played)
    fails(
        "run",
        tmp_path / "small.yaml",
        "--out",
        played,
        "--resume",
        *SERIAL,
        pattern=r"a worker process died .*rerun with --resume",
    )
    assert snapshot(played) == before


def test_sigterm_stops_a_run_with_one_line(played: Path, tmp_path: Path) -> None:
    config = write_yaml(
        tmp_path / "long.yaml", game={"pegs": 4, "colors": 6}, runs=30, batch_games=20
    )
    out = tmp_path / "long"
    child = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "evo_mastermind.cli",
            "run",
            str(config),
            "--out",
            str(out),
            "--executor",
            "serial",
            "--no-progress",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while len(ResultsDir(out).shards()) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    child.send_signal(signal.SIGTERM)
    _, err = child.communicate()
    assert child.returncode == 130
    assert err == "evo-mastermind: interrupted; finished games are kept (rerun with --resume)\n"
    assert len(ResultsDir(out).load_games()) >= 40


def test_sample_with_replacement_is_explicit(tmp_path: Path) -> None:
    from evo_mastermind.runner.config import load_config
    from evo_mastermind.runner.plan import draw_secrets

    path = write_yaml(
        tmp_path / "c.yaml",
        game={"pegs": 4, "colors": 6},
        secrets={"sample": 5000, "replace": True},
    )
    config = load_config(path)
    secrets = draw_secrets(config, config.game[0], config.secrets[0])
    assert len(secrets) == 5000 and len(set(secrets)) < 1296
    plain = load_config(write_yaml(tmp_path / "d.yaml", secrets={"sample": 20}))
    assert "replace" not in json.dumps(plain.model_dump(mode="json"))  # old fingerprints hold

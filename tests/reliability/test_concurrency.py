"""One writer at a time; a killed writer's lock is taken over; workers die with the main."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from evo_mastermind.runner import ResultsDir
from evo_mastermind.runner.config import PlanLimits, load_config
from evo_mastermind.runner.plan import check_plan, estimate_plan
from tests.reliability.conftest import Cli, Failure, snapshot, write_yaml

HOLD_LOCK = """
import sys, time
from evo_mastermind.runner import ResultsDir
with ResultsDir(sys.argv[1]).lock():
    print("locked", flush=True)
    time.sleep(120)
"""


def hold_lock(out: Path) -> subprocess.Popen[str]:
    child = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(out)], stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None and child.stdout.readline() == "locked\n"
    return child


def test_second_writer_is_refused_naming_the_first(
    cli: Cli, fails: Failure, played: Path, tmp_path: Path
) -> None:
    for shard in ResultsDir(played).shards()[2:]:
        shard.unlink()
    before = snapshot(played / "games")
    holder = hold_lock(played)
    try:
        config = tmp_path / "small.yaml"
        for flags in (("--resume",), ("--force",)):
            fails(
                "run",
                config,
                "--out",
                played,
                *flags,
                "--executor",
                "serial",
                "--no-progress",
                pattern=rf"being written by another run \(process {holder.pid}",
            )
        assert snapshot(played / "games") == before
    finally:
        holder.kill()
        holder.wait()
    status, _, err = cli(
        "run",
        tmp_path / "small.yaml",
        "--out",
        played,
        "--resume",
        "--executor",
        "serial",
        "--no-progress",
    )
    assert status == 0
    assert f"took over the lock of {played} left by a stopped run (process {holder.pid}" in err
    assert len(ResultsDir(played).load_games()) == 108


def test_concurrent_resumes_never_duplicate_games(played: Path, tmp_path: Path) -> None:
    for shard in ResultsDir(played).shards()[1:]:
        shard.unlink()
    command = [
        sys.executable,
        "-m",
        "evo_mastermind.cli",
        "run",
        str(tmp_path / "small.yaml"),
        "--out",
        str(played),
        "--resume",
        "--executor",
        "serial",
        "--no-progress",
    ]
    children = [
        subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        for _ in range(3)
    ]
    results = [(child.wait(), child.communicate()[1]) for child in children]
    assert any(status == 0 for status, _ in results)
    for status, err in results:
        assert status == 0 or "being written by another run" in err, err
        assert "Traceback" not in err
    games = ResultsDir(played).load_games()
    assert len(games) == 108 and not games.duplicated(["label", "run", "secret"]).any()


@pytest.mark.slow
def test_workers_die_with_a_killed_main_process(tmp_path: Path) -> None:
    config = write_yaml(tmp_path / "c.yaml", game={"pegs": 4, "colors": 6}, runs=50, batch_games=20)
    main = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "evo_mastermind.cli",
            "run",
            str(config),
            "--out",
            str(tmp_path / "out"),
            "--workers",
            "2",
            "--no-progress",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 120
    while not ResultsDir(tmp_path / "out").shards() and time.monotonic() < deadline:
        time.sleep(0.1)
    children = _descendants(main.pid)
    assert children, "no worker processes seen"
    os.kill(main.pid, signal.SIGKILL)
    main.wait()
    deadline = time.monotonic() + 30
    while any(_alive(pid) for pid in children) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not [pid for pid in children if _alive(pid)]


def _descendants(pid: int) -> list[int]:
    found, frontier = [], [pid]
    while frontier:
        parent = frontier.pop()
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == parent:
                found.append(int(entry.name))
                frontier.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.parametrize(
    ("player", "size", "pattern"),
    [
        ("entropy", (7, 9), r"estimate: about [\d,.]+ (h|min) .*Entropy on \(7,9\)"),
        ("knuth", (8, 7), r"estimate: about [\d,.]+ (h|min) .*Knuth on \(8,7\)"),
        ("knuth", (7, 7), r"Knuth on \(7,7\): ~[\d,.]+ s a game"),
    ],
)
def test_long_exhaustive_plans_announce_their_estimate(
    tmp_path: Path, player: str, size: tuple[int, int], pattern: str
) -> None:
    config = load_config(
        write_yaml(
            tmp_path / "c.yaml",
            game={"pegs": size[0], "colors": size[1]},
            secrets={"sample": 100},
            runs=1,
            players=[{"label": player.capitalize(), "player": player}],
        )
    )
    announcement = check_plan(estimate_plan(config), PlanLimits(), workers=2)
    assert announcement is not None
    import re

    assert re.search(pattern, announcement), announcement


def test_short_plans_say_nothing(tmp_path: Path) -> None:
    config = load_config(write_yaml(tmp_path / "c.yaml"))
    assert check_plan(estimate_plan(config), PlanLimits(), workers=2) is None

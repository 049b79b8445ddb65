"""A researcher's buggy player: never a wrong table, a hang, or a wall of traceback."""

import math
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from evo_mastermind.cli import EXIT_GAMES_FAILED
from evo_mastermind.codes import CodeSpace
from evo_mastermind.game import DEFAULT_GUESS_LIMIT, Codemaker, play_game
from evo_mastermind.players import PLAYERS, import_plugins, make_player
from evo_mastermind.runner import ResultsDir
from evo_mastermind.runner.plan import KEY_COLUMNS
from tests.reliability.buggy import buggy_plugin
from tests.reliability.conftest import Cli, Failure, write_yaml

INVALID = {
    "short": r"returned array\(\[0, 0\], dtype=uint8\) \(ndarray: shape \(2,\), not \(3,\)\)",
    "float": r"ask\(\) returned array\(\[0.5, 0.5, 0.5\]\) \(ndarray: values of type float64",
    "colour": r"ask\(\) returned array\(\[3, 3, 3\]\) \(ndarray: a colour outside 0 to 2\)",
    "none": r"ask\(\) returned None \(NoneType: a single value\)",
    "text": r"ask\(\) returned 'AAA' \(str: letters; self.space.parse\(\)",
    "grid": r"\(ndarray: shape \(2, 3\), not \(3,\)\)",
}


def mine(player: str, **changes: object) -> dict[str, object]:
    """SMALL's changes: the buggy plugin, Entropy and the buggy player labelled Mine."""
    return {
        "plugins": ["buggy_players"],
        "players": [
            {"label": "Entropy", "player": "entropy"},
            {"label": "Mine", "player": player},
        ],
        **changes,
    }


@pytest.fixture
def plugin(registry: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The buggy players' plugin, importable; the registry restored afterwards."""
    return buggy_plugin(tmp_path, monkeypatch)


def failed_run(cli: Cli, tmp_path: Path, player: str, **changes: object) -> tuple[str, str]:
    """Run Entropy and ``player`` serially; a run with failed games: its (stdout, stderr)."""
    config = write_yaml(tmp_path / "config.yaml", **mine(player, **changes))
    serially = ("--executor", "serial", "--no-progress")
    status, stdout, stderr = cli("run", config, "--out", tmp_path / "out", *serially)
    assert status == EXIT_GAMES_FAILED, stderr
    return stdout, stderr


@pytest.mark.parametrize("kind", sorted(INVALID))
def test_an_invalid_guess_is_a_failed_game_never_a_good_mean(
    plugin: str, tmp_path: Path, cli: Cli, kind: str
) -> None:
    out, err = failed_run(cli, tmp_path, f"returns_{kind}")
    # The closing line: how many, why, the first game, what was returned and what a code is.
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "player 'Mine': 54 of 54 games failed (invalid guess 54); the first: run 0" in err
    assert re.search(INVALID[kind], err), err
    assert "a code of (3,3) is a 1-D array of 3 integers from 0 to 2" in err
    # The table: Mine is flagged, has no figures and is in no group; Entropy is unchanged.
    summary = pd.read_csv(tmp_path / "out" / "summary.csv")
    rows = summary.set_index("label")
    assert (rows.loc["Mine", "solved"], rows.loc["Mine", "failed"]) == (0, 54)
    assert (rows.loc["Entropy", "solved"], rows.loc["Entropy", "failed"]) == (54, 0)
    assert math.isnan(rows["mean"]["Mine"]) and summary["label"].iloc[0] == "Entropy"
    assert "| Mine † | 0 |  |  |  |  |  |  |  |" in out
    assert "- † **Mine**: 54 of 54 games failed (invalid guess 54)" in out
    tests = pd.read_csv(tmp_path / "out" / "wilcoxon.csv")
    assert tests.empty  # Mine has no solved game to compare


def test_the_figures_cover_the_solved_games_and_the_flag_says_so(
    plugin: str, tmp_path: Path, cli: Cli
) -> None:
    # Two guesses solve few secrets: the rest stop at the limit, and are not averaged in.
    out, err = failed_run(cli, tmp_path, "never_solves", guess_limit=2)
    summary = pd.read_csv(tmp_path / "out" / "summary.csv").set_index("label")
    assert summary.loc["Mine", "solved"] == 2 and summary.loc["Mine", "failed"] == 52
    assert summary.loc["Mine", "mean"] == 1.0  # AAA solved in one guess, in each run
    # Entropy solves some secrets within two guesses: its mean is over those only.
    entropy = summary.loc["Entropy"]
    assert entropy["solved"] + entropy["failed"] == 54 and entropy["failed"] > 0
    assert 1.0 <= entropy["mean"] <= 2.0 and entropy["max_guesses"] == 2
    assert "Figures and tests cover the solved games only" in out
    assert "guess limit: not solved within 2 guesses" in err


def test_a_player_that_never_solves_stops_at_the_default_cap(
    plugin: str, tmp_path: Path, cli: Cli
) -> None:
    _, err = failed_run(cli, tmp_path, "never_solves", runs=1)
    games = ResultsDir(tmp_path / "out").load_games()
    failed = games[~games["solved"]]
    assert set(failed["n_guesses"]) == {DEFAULT_GUESS_LIMIT}
    assert set(failed["outcome"]) == {"guess_limit"}
    assert f"not solved within {DEFAULT_GUESS_LIMIT} guesses" in err


def test_a_time_limit_stops_an_ask_that_never_returns(
    plugin: str, tmp_path: Path, cli: Cli
) -> None:
    secrets = {"list": ["ABC", "CBA"]}
    _, err = failed_run(cli, tmp_path, "loops", runs=1, time_limit=0.1, secrets=secrets)
    games = ResultsDir(tmp_path / "out").load_games()
    looped = games[games["label"] == "Mine"]
    assert set(looped["outcome"]) == {"time_limit"} and len(looped) == 2
    assert "the player's call did not return within 0.1 s of CPU time (at guess 1)" in err


def test_the_time_limit_reaches_a_call_in_any_thread(plugin: str) -> None:
    # Dask workers play in threads, where no signal arrives: the watchdog still stops the call.
    import_plugins([plugin])

    space = CodeSpace(3, 3)
    results = []

    def play() -> None:
        player = make_player("loops", space)
        codemaker = Codemaker(space, "ABC")
        results.append(play_game(player, codemaker, np.random.default_rng(0), time_limit=0.1))

    thread = threading.Thread(target=play)
    thread.start()
    thread.join(timeout=60)
    assert not thread.is_alive()
    assert results[0].outcome == "time_limit" and results[0].player_seconds >= 0.1


def test_a_player_claiming_contradictions_fails_its_games(
    plugin: str, tmp_path: Path, cli: Cli
) -> None:
    _, err = failed_run(cli, tmp_path, "claims_lies", runs=1)
    assert "(inconsistent answers 26)" in err  # AAA, the first guess, solves one secret
    assert "the player said the truthful answers contradict each other" in err


@pytest.mark.parametrize(
    ("where", "error"),
    [
        ("init", r"RuntimeError: broken in __init__ at buggy_players.py:\d+ in __init__, building"),
        ("start", r"ValueError: broken in start at buggy_players.py:\d+ in start, game run 0"),
        ("ask", r"KeyError: 'missing' at buggy_players.py:\d+ in ask, game run 0, secret AAC"),
        ("tell", r"ZeroDivisionError: broken in tell at buggy_players.py:\d+ in tell, game run"),
        ("exit", r"SystemExit: 0 at buggy_players.py:\d+ in ask, game run 0, secret AAC"),
    ],
)
def test_an_exception_in_a_player_is_one_line_naming_the_game(
    plugin: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    cli: Cli,
    fails: Failure,
    where: str,
    error: str,
) -> None:
    config = write_yaml(tmp_path / "config.yaml", **mine(f"raises_in_{where}", batch_games=100))
    out = tmp_path / "out"
    line = fails(
        "run", config, "--out", out, "--executor", "serial", "--no-progress", pattern=error
    )
    log = out / "player-error.log"
    assert f"player 'Mine' (raises_in_{where}) raised" in line
    assert "seed 5; " in line or where == "init"
    assert (
        "finished games are kept (fix the player, then rerun with --resume, adding "
        "--accept-changed-code to keep them beside games of the fixed code, or with --force); "
    ) in line
    assert line.rstrip().endswith(f"full traceback in {log}")
    assert "Traceback (most recent call last)" in log.read_text()
    # Entropy's games, and Mine's before the bug struck, are stored; the rest resume.
    stored = ResultsDir(out).load_games()
    assert len(stored[stored["label"] == "Entropy"]) == 54
    assert len(stored[stored["label"] == "Mine"]) == (0 if where == "init" else 2)
    # The player fixed (it now plays AAA every time), the run resumes with only the rest.
    monkeypatch.setattr(PLAYERS[f"raises_in_{where}"], "where", "nowhere")
    status, _, _ = cli(
        "run", config, "--out", out, "--executor", "serial", "--no-progress", "--resume"
    )
    assert status == EXIT_GAMES_FAILED  # AAA solves one secret of 27 in each run
    resumed = ResultsDir(out).load_games()
    assert len(resumed) == 108 and not resumed.duplicated(KEY_COLUMNS).any()
    assert not log.exists()  # the crash is replayed: its log is gone with it


def test_a_crash_on_the_process_pool_is_the_same_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "plugin"
    folder.mkdir()
    with pytest.MonkeyPatch.context() as patch:
        buggy_plugin(folder, patch)
    config = write_yaml(tmp_path / "config.yaml", **mine("raises_in_ask"))
    out = tmp_path / "out"
    command = ["run", str(config), "--out", str(out), "--executor", "process", "--workers", "2"]
    done = subprocess.run(
        [sys.executable, "-m", "evo_mastermind.cli", *command, "--no-progress"],
        env={**os.environ, "PYTHONPATH": str(folder)},
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "player 'Mine' (raises_in_ask) raised KeyError: 'missing'" in done.stderr
    assert "Traceback" in (out / "player-error.log").read_text()


def test_a_crash_on_dask_is_the_same_one_line(plugin: str, tmp_path: Path, fails: Failure) -> None:
    from distributed import LocalCluster

    config = write_yaml(tmp_path / "config.yaml", **mine("raises_in_tell"))
    with LocalCluster(  # type: ignore[no-untyped-call]
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0"
    ) as cluster:
        fails(
            "run",
            config,
            "--out",
            tmp_path / "out",
            "--executor",
            "dask",
            "--scheduler",
            cluster.scheduler_address,
            "--no-progress",
            pattern=r"player 'Mine' \(raises_in_tell\) raised ZeroDivisionError: broken in tell",
        )
    assert (tmp_path / "out" / "player-error.log").is_file()


def test_play_names_a_crash_in_one_line_with_a_log(plugin: str, fails: Failure) -> None:
    line = fails(
        "play",
        "--plugin",
        plugin,
        "--player",
        "raises_in_init",
        pattern=r"player 'raises_in_init' raised RuntimeError: broken in __init__ at buggy_players",
    )
    log = Path(line.rpartition("full traceback in ")[2].strip())
    assert "Traceback" in log.read_text()
    log.unlink()


def test_play_names_an_invalid_guess_and_exits_with_failure(plugin: str, cli: Cli) -> None:
    status, out, err = cli("play", "--plugin", plugin, "--player", "returns_none")
    assert status == EXIT_GAMES_FAILED
    assert "not solved (invalid guess) in 0 guesses" in out
    assert "ask() returned None" in err and err.count("\n") == 1


def test_play_without_a_guess_limit_stops_at_the_default_cap(plugin: str, cli: Cli) -> None:
    status, _, err = cli("play", "--plugin", plugin, "--player", "never_solves", "--json")
    assert status == EXIT_GAMES_FAILED
    assert f"not solved within {DEFAULT_GUESS_LIMIT} guesses" in err


def test_a_plugin_calling_sys_exit_at_import_is_one_line(
    registry: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fails: Failure
) -> None:
    (tmp_path / "exits_at_import.py").write_text("import sys\nsys.exit(0)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    config = write_yaml(tmp_path / "config.yaml", plugins=["exits_at_import"])
    pattern = (
        r"plugins: plugin 'exits_at_import' does not import: SystemExit: 0 at "
        r"exits_at_import.py:2 in <module>; full traceback in "
    )
    line = fails("run", config, "--out", tmp_path / "out", pattern=pattern)
    Path(line.rpartition("full traceback in ")[2].strip()).unlink()
    assert not (tmp_path / "out").exists()

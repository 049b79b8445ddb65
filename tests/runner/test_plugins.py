"""Players of the user's own and presets, from configs, on every executor."""

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import yaml

from evo_mastermind import registry as registries
from evo_mastermind.cli import main
from evo_mastermind.players import PLAYERS
from evo_mastermind.runner import (
    TIMING_COLUMNS,
    ResultsDir,
    load_config,
    make_executor,
    run_experiment,
)
from evo_mastermind.runner.config import ConfigError
from evo_mastermind.runner.executors import DaskExecutor
from evo_mastermind.runner.plan import make_batch, plan_groups
from evo_mastermind.runner.worker import play_batch
from evo_mastermind.studies import study_names
from tests.distributions import install
from tests.runner.conftest import ConfigWriter

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "custom_player"
EXAMPLE_SOURCE = EXAMPLE / "src"
NOT_YET_RUN = [
    name
    for name in study_names()
    if name.startswith("scaling/uniform_") and not (ROOT / "results" / name).is_dir()
]
"""Shipped studies whose full run is still to come (docs/studies/uniform-sampling.md)."""
SHIPPED = [name for name in study_names() if name not in NOT_YET_RUN]
PAIRED_WITH_AN_ARCHIVE_STUDY = [
    name
    for name in study_names()
    if name.startswith("scaling/uniform_")
    and (ROOT / "results" / name.replace("uniform_", "")).is_dir()
]
"""The uniform-sampling studies that replay the archive EA's games of a committed study."""


@pytest.mark.parametrize("name", PAIRED_WITH_AN_ARCHIVE_STUDY)
def test_uniform_studies_replay_the_archive_games_they_are_paired_with(name: str) -> None:
    # Each plays the secrets of the archive study it names, and the archive EA's entry as
    # committed there (same label, same settings): its games are those games, move for move.
    paired = name.replace("uniform_", "")
    manifest = json.loads((ROOT / "results" / paired / "experiment.json").read_text())
    recorded = {player["label"]: player for player in manifest["players"]}
    config = load_config(name)
    archive = [entry.model_dump() for entry in config.entries() if entry.label in recorded]
    assert archive and all(entry == recorded[entry["label"]] for entry in archive)
    dumped, study_dumped = config.model_dump(), load_config(paired).model_dump()
    for key in ("game", "secrets", "seed", "runs", "guess_limit"):
        assert dumped[key] == study_dumped[key], key


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_configs_play_the_games_of_their_committed_results(name: str) -> None:
    # The presets a config names must expand to the settings its committed games were played
    # with: same fingerprint (so --resume accepts the results) and same per-game params.
    recorded = ROOT / "results" / name
    manifest = json.loads((recorded / "experiment.json").read_text())
    config = load_config(name)
    assert config.fingerprint() == manifest["fingerprint"]
    assert [entry.model_dump() for entry in config.entries()] == manifest["players"]


def test_a_preset_is_the_options_written_out(write_config: ConfigWriter) -> None:
    named = load_config(
        write_config(
            game={"pegs": 4, "colors": 6},
            players=[
                {"label": "A", "player": "archive", "preset": "best_4x6", "play": "all"},
                {"label": "E", "player": "entropy", "preset": "paper", "first_guess": "AABB"},
            ],
        )
    )
    written = load_config(
        write_config(
            game={"pegs": 4, "colors": 6},
            players=[
                {
                    "label": "A",
                    "player": "archive",
                    "heuristic": "lookahead",
                    "mu": 300,
                    "max_generations_without_new": 20,
                    "population_size": 100,
                    "play": "all",
                },
                {"label": "E", "player": "entropy", "first_guess": "AABB"},
            ],
        )
    )
    assert named.fingerprint() == written.fingerprint()
    assert named.entries() == written.entries()
    assert named.entries()[1].params == {"first_guess": "AABB"}  # the override wins


def test_an_unknown_preset_is_one_line(write_config: ConfigWriter) -> None:
    path = write_config(players=[{"label": "E", "player": "entropy", "preset": "papr"}])
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    message = str(caught.value)
    assert "\n" not in message and "players: entry 0 ('E')" in message
    assert "no preset 'papr' (did you mean 'paper'?)" in message


def test_a_plugin_that_does_not_import_is_one_line(
    write_config: ConfigWriter, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_config(plugins=["mylab.absent"])
    with pytest.raises(ConfigError, match=r"plugins: plugin 'mylab.absent' does not import"):
        load_config(path)
    status = main(["run", str(path), "--executor", "serial", "--no-progress"])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and "'mylab.absent'" in err
    for command in (["players"], ["play"], ["tree", "--out", "x.json"]):
        assert main([*command, "--plugin", "mylab.absent"]) == 2
        assert capsys.readouterr().err.startswith("evo-mastermind: error: plugin 'mylab.absent'")


def test_a_worker_imports_the_plugins_a_batch_names(
    registry: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(EXAMPLE_SOURCE))
    config = load_config(EXAMPLE / "compare.yaml", runs=1)
    group = plan_groups(config)[0]
    batch = make_batch(config, group, group.keys[:3])
    assert batch.plugins == ("mylab.players",)
    # The defining module travels too, for a player registered by a script's own import.
    unnamed = config.model_copy(update={"plugins": []})
    assert make_batch(unnamed, group, group.keys[:3]).plugins == ("mylab.players",)
    # Every executor ships the batch pickled, its validated options object included.
    shipped = pickle.dumps(batch)
    # A fresh worker: it has never imported the plugin, and knows the built-in players only.
    del PLAYERS["colourful"]
    registries._imported_plugins.clear()
    for name in [name for name in sys.modules if name.startswith("mylab")]:
        del sys.modules[name]
    played = play_batch(pickle.loads(shipped))
    games = played.games
    assert played.crash is None
    assert games.num_rows == 3 and set(games.column("player").to_pylist()) == {"colourful"}


def comparable(out: Path) -> pd.DataFrame:
    return ResultsDir(out).load_games().drop(columns=TIMING_COLUMNS)


def test_the_example_plays_identical_games_on_every_executor(
    registry: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from distributed import LocalCluster

    # The example's config, on fewer secrets to keep the test short.
    config_path = tmp_path / "compare.yaml"
    example = yaml.safe_load((EXAMPLE / "compare.yaml").read_text())
    config_path.write_text(yaml.safe_dump({**example, "secrets": {"sample": 60}}))
    # Another process, as a user runs it: the pool's workers import the plugin by name.
    environment = {**os.environ, "PYTHONPATH": str(EXAMPLE_SOURCE)}
    out = str(tmp_path / "process")
    command = ["run", str(config_path), "--runs", "1", "--executor", "process", "--workers", "2"]
    done = subprocess.run(
        [sys.executable, "-m", "evo_mastermind.cli", *command, "--no-progress", "--out", out],
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr

    monkeypatch.syspath_prepend(str(EXAMPLE_SOURCE))
    config = load_config(config_path, runs=1)
    with make_executor("serial") as serial:
        run_experiment(config, config_path, tmp_path / "serial", serial, progress=False)
    # One worker thread: two would share the worker's player cache (not yet thread-safe).
    with (
        LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0"
        ) as cluster,
        DaskExecutor(address=cluster.scheduler_address) as threaded,
    ):
        run_experiment(config, config_path, tmp_path / "dask", threaded, progress=False)

    games = comparable(tmp_path / "serial")
    assert set(games["label"]) == {"Colourful", "Colourful ABCD", "Entropy", "Random"}
    assert games["solved"].all()
    opening = games[games["label"] == "Colourful ABCD"]["moves"].map(lambda moves: moves[0])
    assert set(opening) == {"ABCD"}
    pd.testing.assert_frame_equal(games, comparable(tmp_path / "process"))
    pd.testing.assert_frame_equal(games, comparable(tmp_path / "dask"))


def test_an_installed_package_needs_no_config_line(
    registry: None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # What `pip install examples/custom_player` leaves on sys.path: its metadata, entry points.
    project = (EXAMPLE / "pyproject.toml").read_text()
    assert 'colourful = "mylab.players:ColourfulPlayer"' in project
    install(
        tmp_path, "mylab", "evo_mastermind.players", "colourful = mylab.players:ColourfulPlayer"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.syspath_prepend(str(EXAMPLE_SOURCE))
    PLAYERS.pop("colourful", None)
    assert main(["players"]) == 0
    listing = capsys.readouterr().out
    assert any(line.startswith("colourful ") for line in listing.splitlines())
    assert "preset abcd (first_guess=ABCD): always open with ABCD" in listing
    config = yaml.safe_load((EXAMPLE / "compare.yaml").read_text())
    del config["plugins"]
    path = tmp_path / "no_plugins.yaml"
    path.write_text(yaml.safe_dump(config))
    assert load_config(path).entries()[0].player == "colourful"


def test_a_misspelt_player_suggests_once(write_config: ConfigWriter) -> None:
    path = write_config(players=[{"label": "E", "player": "entropi"}])
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    message = str(caught.value)
    assert message.count("did you mean") == 1 and "(did you mean 'entropy'?)" in message
    assert "\n" not in message


def test_a_plugin_taking_a_reserved_heuristic_name_is_one_line(
    registry: None,
    write_config: ConfigWriter,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # 'lookahead' means the archive EA's two-ply choice: a user's heuristic of that name
    # would be listed but never played.
    (tmp_path / "mylab_lookahead.py").write_text(
        "from evo_mastermind import register_heuristic\n\n"
        "register_heuristic('lookahead')(lambda counts: counts.sum(axis=1))\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    path = write_config(plugins=["mylab_lookahead"])
    with pytest.raises(ConfigError, match=r"plugins: plugin 'mylab_lookahead': heuristic name "):
        load_config(path)
    assert main(["run", str(path), "--executor", "serial", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'lookahead' of mylab_lookahead.<lambda> clashes" in err

"""The heuristic table: registering a heuristic of one's own, and where it then plays."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from evo_mastermind import Codemaker, CodeSpace, Heuristic, make_player, play_game
from evo_mastermind import register_heuristic as exported
from evo_mastermind.cli import main
from evo_mastermind.heuristics import (
    ENTRY_POINT_GROUP,
    HEURISTIC_REGISTRY,
    Counts,
    HeuristicError,
    Scores,
    known_heuristic,
    register_heuristic,
    registered_heuristics,
)
from evo_mastermind.players.tree import build_tree
from evo_mastermind.runner import (
    TIMING_COLUMNS,
    ResultsDir,
    load_config,
    make_executor,
    run_experiment,
)
from evo_mastermind.runner.config import ConfigError
from tests.distributions import install

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "custom_heuristic"
EXAMPLE_SOURCE = EXAMPLE / "src"

BUILT_IN = ("entropy", "most_parts", "expected_size", "worst_case")


def smallest_part(counts: Counts) -> Scores:
    """Minus the smallest non-empty part (a toy)."""
    return -np.where(counts > 0, counts, counts.max() + 1).min(axis=1).astype(float)


def test_the_scores_are_oriented_higher_is_better() -> None:
    counts = np.array([[1, 1, 1, 1, 0], [4, 0, 0, 0, 0], [2, 1, 1, 0, 0]])
    assert known_heuristic("entropy").scores(counts) == pytest.approx([2.0, 0.0, 1.5])
    assert known_heuristic("most_parts").scores(counts).tolist() == [4, 1, 3]
    assert known_heuristic("expected_size").scores(counts).tolist() == [-1.0, -4.0, -1.5]
    assert known_heuristic("worst_case").scores(counts).tolist() == [-1, -4, -2]


def test_the_built_ins_are_entries_like_any_other() -> None:
    table = registered_heuristics()
    for name in BUILT_IN:
        assert table[name].name == name and table[name].compiled == name and table[name].about
    assert exported is register_heuristic


def test_a_plain_function_is_enough(registry: None) -> None:
    returned = register_heuristic("smallest_part")(smallest_part)
    assert returned is smallest_part
    entry = known_heuristic("smallest_part")
    assert entry.compiled is None and entry.about == "Minus the smallest non-empty part (a toy)."
    register_heuristic("smallest_part")(smallest_part)  # the same again: quietly accepted


def test_it_plays_in_the_one_ply_player_with_every_option(registry: None) -> None:
    register_heuristic("smallest_part")(smallest_part)
    space = CodeSpace(4, 6)
    for options in (
        {},
        {"pool": "all", "ties": "lexicographic"},
        {"mu": 50, "first_guess": "AABB"},
        {"first_guess": "auto"},
    ):
        player = make_player("one_ply", space, {"heuristic": "smallest_part", **options})
        game = play_game(player, Codemaker(space, "BCDA"), np.random.default_rng(3))
        assert game.solved


def test_it_plays_in_the_archive_ea(registry: None) -> None:
    register_heuristic("smallest_part")(smallest_part)
    space = CodeSpace(4, 6)
    player = make_player("archive", space, {"heuristic": "smallest_part", "mu": 20})
    assert play_game(player, Codemaker(space, "FEDC"), np.random.default_rng(5)).solved
    player = make_player("archive", space, {"heuristic_when_full": "smallest_part", "mu": 5})
    assert play_game(player, Codemaker(space, "FEDC"), np.random.default_rng(5)).solved


def test_it_plays_in_the_sampler_player(registry: None) -> None:
    register_heuristic("smallest_part")(smallest_part)
    space = CodeSpace(5, 8)
    for options in ({"heuristic": "smallest_part"}, {"heuristic_when_full": "smallest_part"}):
        player = make_player("sampler", space, {**options, "mu": 30})
        assert play_game(player, Codemaker(space, "HGFED"), np.random.default_rng(5)).solved


def test_the_evolutionary_choice_refuses_an_unknown_heuristic_in_one_line() -> None:
    for player in ("archive", "sampler"):
        with pytest.raises(ValueError, match="no_such_score"):
            make_player(player, CodeSpace(4, 6), {"heuristic": "no_such_score"})


def test_a_copy_of_a_built_in_plays_the_built_ins_games(registry: None) -> None:
    register_heuristic("my_entropy")(known_heuristic("entropy").score)
    space = CodeSpace(4, 6)
    mine = make_player("one_ply", space, {"heuristic": "my_entropy"})
    ours = make_player("entropy", space)
    for secret in ("ABCD", "FFFA", "CABE"):
        games = [
            play_game(player, Codemaker(space, secret), np.random.default_rng(9))
            for player in (mine, ours)
        ]
        assert [m.guess for m in games[0].moves] == [m.guess for m in games[1].moves]


def test_its_tree_is_the_built_ins_tree_for_a_copy(registry: None) -> None:
    # No compiled form: the tree is built by asking the player at every node.
    register_heuristic("my_most_parts")(known_heuristic("most_parts").score)
    space = CodeSpace(4, 6)
    options = {"ties": "lexicographic", "pool": "all"}
    mine = build_tree(make_player("one_ply", space, {"heuristic": "my_most_parts", **options}))
    ours = build_tree(make_player("most_parts", space, options))
    assert mine.root.to_json() == ours.root.to_json()
    assert int(mine.guess_counts().sum()) == 5668


def test_a_clash_is_one_line(registry: None) -> None:
    with pytest.raises(HeuristicError, match="clashes with a built-in heuristic"):
        register_heuristic("entropy")(smallest_part)
    with pytest.raises(HeuristicError, match="not one of the engine's reductions"):
        register_heuristic("fast")(Heuristic(smallest_part, compiled="fastest"))
    with pytest.raises(HeuristicError, match="neither a function"):
        register_heuristic("three")(3)  # type: ignore[type-var]


@pytest.mark.parametrize(
    ("score", "problem"),
    [
        (lambda counts: np.zeros(3), "returned scores of shape (3,)"),
        (lambda counts: np.full(counts.shape[0], np.nan), "returned NaN"),
        (lambda counts: counts.nosuch(), "failed on partition counts"),
    ],
)
def test_bad_scores_are_one_line(
    registry: None, score: object, problem: str, capsys: pytest.CaptureFixture[str]
) -> None:
    register_heuristic("broken")(score)  # type: ignore[type-var]
    argv = ["play", "--player", "one_ply", "-o", "heuristic=broken", "--secret", "ABCD"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert problem in err and err.count("\n") == 1 and "Traceback" not in err


def test_an_unknown_heuristic_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", "--player", "one_ply", "-o", "heuristic=entropyy"]) == 2
    err = capsys.readouterr().err
    assert "unknown heuristic 'entropyy' (did you mean 'entropy'?)" in err
    config = tmp_path / "c.yaml"
    config.write_text(
        yaml.safe_dump(
            {
                "name": "c",
                "game": {"pegs": 4, "colors": 6},
                "players": [{"label": "A", "player": "archive", "heuristic": "parts"}],
            }
        )
    )
    with pytest.raises(ConfigError, match=r"unknown heuristic 'parts'.*; or 'lookahead'"):
        load_config(config)


def test_plugin_heuristics_reach_play_tree_and_players(
    registry: None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.syspath_prepend(str(EXAMPLE_SOURCE))
    plugin = ["--plugin", "mylab_heuristics.scores"]
    out = tmp_path / "tree.json"
    tree = ["tree", "--player", "one_ply", "-o", "heuristic=parts_then_entropy"]
    assert main([*tree, "-o", "ties=lexicographic", "--out", str(out), *plugin]) == 0
    assert "one_ply on (4,6)" in capsys.readouterr().out
    assert main(["players", *plugin]) == 0
    listing = capsys.readouterr().out
    assert any(
        line.startswith("parts_then_entropy ") and "[mylab_heuristics.scores]" in line
        for line in listing.splitlines()
    )


def test_an_installed_package_needs_no_plugin_line(
    registry: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What `pip install examples/custom_heuristic` leaves on sys.path: metadata, entry points.
    project = (EXAMPLE / "pyproject.toml").read_text()
    point = 'parts_then_entropy = "mylab_heuristics.scores:parts_then_entropy"'
    assert point in project
    install(tmp_path, "mylab_heuristics", ENTRY_POINT_GROUP, point.replace('"', ""))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.syspath_prepend(str(EXAMPLE_SOURCE))
    assert known_heuristic("parts_then_entropy").compiled is None


def test_the_example_plays_identical_games_in_process_and_in_a_pool(
    registry: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config_path = tmp_path / "compare.yaml"
    example = yaml.safe_load((EXAMPLE / "compare.yaml").read_text())
    config_path.write_text(yaml.safe_dump({**example, "secrets": {"sample": 30}}))
    environment = {**os.environ, "PYTHONPATH": str(EXAMPLE_SOURCE)}
    out = tmp_path / "process"
    command = ["run", str(config_path), "--runs", "1", "--executor", "process", "--workers", "2"]
    done = subprocess.run(
        [sys.executable, "-m", "evo_mastermind.cli", *command, "--no-progress", "--out", str(out)],
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
    games = ResultsDir(tmp_path / "serial").load_games().drop(columns=TIMING_COLUMNS)
    pooled = ResultsDir(out).load_games().drop(columns=TIMING_COLUMNS)
    assert games["solved"].all() and len(games) == 4 * 30
    pd.testing.assert_frame_equal(games, pooled)


@pytest.mark.parametrize("name", [*BUILT_IN, "lookahead"])
def test_a_built_in_name_is_refused_in_one_line(registry: None, name: str) -> None:
    with pytest.raises(HeuristicError) as caught:
        register_heuristic(name)(smallest_part)
    message = str(caught.value)
    assert message.startswith(f"heuristic name {name!r} of tests.test_heuristics.smallest_part")
    assert "clashes with a built-in" in message and "\n" not in message
    if name in BUILT_IN:
        assert known_heuristic(name).score is not smallest_part
    else:
        assert name not in registered_heuristics()


def test_lookahead_stays_the_built_in_two_ply_choice(registry: None) -> None:
    # Registering it was once accepted and listed, while the players played the built-in.
    with pytest.raises(HeuristicError, match="the two-ply choice of the archive and sampler"):
        register_heuristic("lookahead")(smallest_part)
    with pytest.raises(HeuristicError, match="unknown heuristic 'lookahead': the name is the"):
        known_heuristic("lookahead")
    player = make_player("archive", CodeSpace(4, 6), {"heuristic": "lookahead", "mu": 20})
    assert play_game(player, Codemaker(CodeSpace(4, 6), "FEDC"), np.random.default_rng(5)).solved


def test_a_name_taken_by_another_users_heuristic_clashes(registry: None) -> None:
    register_heuristic("smallest_part")(smallest_part)
    with pytest.raises(
        HeuristicError,
        match=r"heuristic name 'smallest_part' of .*<lambda> clashes with "
        r"tests\.test_heuristics\.smallest_part; register it under another name",
    ):
        register_heuristic("smallest_part")(lambda counts: -smallest_part(counts))


def test_an_unknown_heuristic_suggests_once(capsys: pytest.CaptureFixture[str]) -> None:
    for player in ("one_ply", "archive", "sampler"):
        assert main(["play", "--player", player, "-o", "heuristic=entropi"]) == 2
        err = capsys.readouterr().err
        assert err.count("did you mean") == 1 and "(did you mean 'entropy'?)" in err, err


def test_an_entry_point_under_a_reserved_name_is_one_line(
    registry: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install(
        tmp_path, "lookalike", ENTRY_POINT_GROUP, "lookahead = tests.test_heuristics:smallest_part"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(HeuristicError) as caught:
        registered_heuristics()
    message = str(caught.value)
    assert message.startswith(
        "entry point 'lookahead' = 'tests.test_heuristics:smallest_part' (group "
        "evo_mastermind.heuristics): heuristic name 'lookahead' of "
        "tests.test_heuristics.smallest_part clashes with a built-in name"
    )
    assert "\n" not in message and "lookahead" not in HEURISTIC_REGISTRY

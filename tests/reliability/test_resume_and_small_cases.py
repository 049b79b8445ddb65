"""Resume never mixes options, and the smaller cases a new user meets each get one line."""

import json
from pathlib import Path

import pytest

from tests.reliability.conftest import SMALL, Cli, Failure, snapshot, write_yaml

RESUME = ("--executor", "serial", "--no-progress", "--resume")


def with_options(**options: object) -> list[dict[str, object]]:
    return [{"label": "GA", "player": "ga", **options}, {"label": "Entropy", "player": "entropy"}]


@pytest.mark.parametrize("record", ["deleted", "damaged"])
def test_resume_without_a_record_checks_the_stored_games_options(
    cli: Cli, fails: Failure, tmp_path: Path, record: str
) -> None:
    config = write_yaml(tmp_path / "c.yaml", players=with_options(population_size=20))
    out = tmp_path / "out"
    assert cli("run", config, "--out", out, "--executor", "serial", "--no-progress")[0] == 0
    if record == "deleted":
        (out / "experiment.json").unlink()
    else:
        (out / "experiment.json").write_text("{ damaged")
    before = snapshot(out / "games")
    write_yaml(tmp_path / "c.yaml", players=with_options(population_size=30))
    fails(
        "run",
        config,
        "--out",
        out,
        *RESUME,
        pattern=r"player 'GA' has games in .* played with population_size=20, but the config "
        r"gives population_size=30 \(checked on the stored games: experiment.json is missing",
    )
    assert snapshot(out / "games") == before
    # Back to the options the games were played with, the resume is accepted.
    write_yaml(tmp_path / "c.yaml", players=with_options(population_size=20))
    status, _, err = cli("run", config, "--out", out, *RESUME)
    assert status == 0, err
    assert snapshot(out / "games") == before


def test_resume_without_a_record_names_an_option_set_back_to_its_default(
    cli: Cli, fails: Failure, tmp_path: Path
) -> None:
    config = write_yaml(tmp_path / "c.yaml", players=with_options(population_size=20))
    out = tmp_path / "out"
    assert cli("run", config, "--out", out, "--executor", "serial", "--no-progress")[0] == 0
    (out / "experiment.json").unlink()
    write_yaml(tmp_path / "c.yaml", players=with_options())
    fails(
        "run",
        config,
        "--out",
        out,
        *RESUME,
        pattern=r"played with population_size=20, but the config gives population_size at its "
        "default",
    )


def test_resume_without_a_record_refuses_a_player_taken_out(
    cli: Cli, fails: Failure, played: Path, tmp_path: Path
) -> None:
    (played / "experiment.json").unlink()
    entropy_only = [{"label": "Entropy", "player": "entropy"}]
    config = write_yaml(tmp_path / "small.yaml", players=entropy_only)
    fails(
        "run",
        config,
        "--out",
        played,
        *RESUME,
        pattern=r"player 'Parts' has games in .* but is not in the config \(checked on the stored",
    )


def test_a_newer_record_is_refused_and_left_untouched(
    cli: Cli, fails: Failure, played: Path, tmp_path: Path
) -> None:
    record = json.loads((played / "experiment.json").read_text())
    (played / "experiment.json").write_text(json.dumps({**record, "version": 99}))
    before = snapshot(played)
    config = write_yaml(tmp_path / "small.yaml")
    fails(
        "run",
        config,
        "--out",
        played,
        *RESUME,
        pattern=r"has record version 99, newer than this evo-mastermind reads .* it is left "
        "untouched",
    )
    assert snapshot(played) == before


def test_yaml_merge_keys_work(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "merge.yaml"
    path.write_text(
        "name: merged\ngame: {pegs: 3, colors: 3}\n"
        "x-base: &base {player: ga, population_size: 20}\n"
        "players:\n"
        "  - {<<: *base, label: GA20}\n"
        "  - <<: *base\n    label: GA30\n    population_size: 30\n"
    )
    out = tmp_path / "out"
    status, _, err = cli("run", path, "--out", out, "--executor", "serial", "--no-progress")
    assert status == 0, err
    players = json.loads((out / "experiment.json").read_text())["players"]
    assert [(p["label"], p["params"]) for p in players] == [
        ("GA20", {"population_size": 20}),
        ("GA30", {"population_size": 30}),
    ]


def test_a_key_given_twice_beside_a_merge_is_still_refused(fails: Failure, tmp_path: Path) -> None:
    path = tmp_path / "twice.yaml"
    path.write_text(
        "name: x\ngame: {pegs: 3, colors: 3}\nx-base: &base {player: ga}\n"
        "players:\n  - {<<: *base, label: A, label: B}\n"
    )
    fails("run", path, "--out", tmp_path / "out", pattern=r"'label' is given twice")


def test_an_empty_sweep_is_named(fails: Failure, tmp_path: Path) -> None:
    config = write_yaml(
        tmp_path / "c.yaml",
        players=[{"label": "GA {population_size}", "player": "ga", "population_size": []}],
    )
    fails(
        "run",
        config,
        "--out",
        tmp_path / "out",
        pattern=r"option 'population_size' sweeps over no values \(\[\]\); give it at least one",
    )
    assert not (tmp_path / "out").exists()


def test_a_misspelt_player_option_gets_a_suggestion(fails: Failure, tmp_path: Path) -> None:
    config = write_yaml(
        tmp_path / "c.yaml", players=[{"label": "GA", "player": "ga", "populaton_size": 20}]
    )
    fails(
        "run",
        config,
        "--out",
        tmp_path / "out",
        pattern=r"populaton_size: unknown option \(did you mean 'population_size'\?\)",
    )
    fails(
        "play",
        "--player",
        "ga",
        "-o",
        "populaton_size=3",
        pattern=r"did you mean 'population_size'",
    )


@pytest.mark.parametrize(
    ("args", "pattern"),
    [
        (("play", "--seed", "-1"), r"--seed must be 0 or more, got -1"),
        (
            ("play", "--interactive", "--secret", "ABCD"),
            r"--secret and --interactive contradict each other",
        ),
    ],
)
def test_play_arguments_that_cannot_be(fails: Failure, args: tuple[str, ...], pattern: str) -> None:
    fails(*args, pattern=pattern)


def test_an_empty_out_is_refused(fails: Failure, tmp_path: Path) -> None:
    config = write_yaml(tmp_path / "c.yaml")
    fails("run", config, "--out", "", pattern=r"--out is empty")
    assert not (Path("results") / str(SMALL["name"])).exists()

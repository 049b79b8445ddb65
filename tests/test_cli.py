import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from evo_mastermind.cli import main


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_play_prints_each_guess_and_the_count(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(
        capsys,
        "play",
        "--pegs",
        "4",
        "--colors",
        "6",
        "--player",
        "entropy",
        "--secret",
        "ABBC",
        "--seed",
        "1",
    )
    lines = out.strip().splitlines()
    assert status == 0
    assert lines[0].startswith("1. AABC  3 black, 0 white")
    assert lines[-1].startswith("secret ABBC: solved in") and lines[-2].split()[1] == "ABBC"


def test_play_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "play", "--player", "knuth", "--secret", "ABBC", "--json")
    game = json.loads(out)
    assert status == 0 and set(game) == {"secret", "guesses", "solved", "outcome", "failure"}
    assert game["secret"] == "ABBC" and game["solved"] is True
    assert game["guesses"][0] == {"guess": "AABB", "black": 2, "white": 1}
    assert game["guesses"][-1] == {"guess": "ABBC", "black": 4, "white": 0}


def test_play_without_secret_draws_one_from_the_seed(capsys: pytest.CaptureFixture[str]) -> None:
    _, first, _ = run_cli(capsys, "play", "--seed", "5", "--json")
    _, again, _ = run_cli(capsys, "play", "--seed", "5", "--json")
    _, other, _ = run_cli(capsys, "play", "--seed", "6", "--json")
    assert json.loads(first) == json.loads(again)
    assert json.loads(first)["secret"] != json.loads(other)["secret"]


def test_player_options_are_passed(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(
        capsys,
        "play",
        "--player",
        "entropy",
        "-o",
        "first_guess=ABCD",
        "-o",
        "mu=20",
        "--secret",
        "FFFF",
        "--json",
    )
    assert status == 0 and json.loads(out)["guesses"][0]["guess"] == "ABCD"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "--player", "nosuch"], "unknown player 'nosuch'"),
        (["play", "--secret", "ABBG"], "code 'ABBG' uses 'G'"),
        (["play", "--secret", "ABB"], "code 'ABB' has 3 letters"),
        (["play", "--pegs", "0"], "pegs must be between 1 and 64"),
        (["play", "--colors", "27"], "colors must be between 2 and 26"),
        (["play", "--pegs", "four"], "argument --pegs: invalid int value"),
        (["play", "-o", "mux=3"], "mux: unknown option"),
        (["play", "-o", "mu"], "option 'mu' is not KEY=VALUE"),
        (["play", "--pegs", "8", "--colors", "12"], "has 429,981,696 codes"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    status, out, err = run_cli(capsys, *args)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err
    assert err.startswith("evo-mastermind: error: ")


def test_interactive_codemaker_solves(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io

    # Secret ABBC answered by hand for the knuth player: AABB 2,1 then the rest.
    from evo_mastermind.scoring import score

    class Answers(io.StringIO):
        def readline(self, size: int = -1) -> str:  # type: ignore[override]
            guess = capsys.readouterr().out.strip().split()[-3]
            black, white = score(guess, "ABBC")
            return f"{black} {white}\n"

    monkeypatch.setattr("sys.stdin", Answers())
    status = main(["play", "--interactive", "--player", "knuth"])
    assert status == 0


def test_tree_command_writes_a_replayable_tree(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_file = tmp_path / "knuth.json"
    status, out, _ = run_cli(capsys, "tree", "--player", "knuth", "--out", str(out_file))
    assert status == 0 and "5801 guesses over 1296 secrets" in out and "max 5" in out
    status, out, _ = run_cli(
        capsys, "play", "--player", "tree", "-o", f"path={out_file}", "--secret", "ABBC", "--json"
    )
    assert json.loads(out)["guesses"][0]["guess"] == "AABB"


def test_players_lists_every_registered_player(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "players")
    assert status == 0
    for name in ("entropy", "knuth", "first_consistent", "random", "local_entropy", "tree"):
        assert any(line.startswith(name) for line in out.splitlines())
    options = [line for line in out.splitlines() if line.startswith("    ")]
    assert len(options) > 50
    assert [line for line in options if "): " not in line] == []  # each with its description


def test_console_script_exit_status() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "evo_mastermind.cli", "play", "--player", "x"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1


def test_console_script_writes_a_tree(tmp_path: Path) -> None:
    out = tmp_path / "tree.json"
    command = ["tree", "--pegs", "3", "--colors", "4", "--player", "knuth", "--out", str(out)]
    done = subprocess.run(
        [sys.executable, "-m", "evo_mastermind.cli", *command],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(out.read_text())["player"] == "knuth"
    assert "written to" in done.stdout


def small_config(tmp_path: Path, body: str = "") -> Path:
    path = tmp_path / "exp.yaml"
    path.write_text(
        "name: exp\ngame: {pegs: 3, colors: 3}\nruns: 1\nplayers:\n"
        "  - {label: Knuth, player: knuth}\n" + body
    )
    return path


def test_run_writes_results_and_refuses_to_overwrite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    args = ["run", str(small_config(tmp_path)), "--out", str(out), "--executor", "serial"]
    status, stdout, _ = run_cli(capsys, *args, "--no-progress")
    assert status == 0 and "27 games played" in stdout
    assert (out / "games").is_dir() and (out / "experiment.json").is_file()
    status, stdout, err = run_cli(capsys, *args)
    assert status == 2 and "already holds results" in err and len(err.strip().splitlines()) == 1
    status, stdout, _ = run_cli(capsys, *args, "--resume")
    assert status == 0 and "0 games played (27 already done)" in stdout


@pytest.mark.parametrize(
    ("extra", "body", "message"),
    [
        ([], "runz: 3\n", "exp.yaml: runz: unknown key"),
        ([], "  - {label: X, player: nosuch}\n", "unknown player 'nosuch'"),
        (["--resume", "--force"], "", "--resume and --force contradict"),
        (["--workers", "0"], "", "--workers must be at least 1"),
        (["--runs", "0"], "", "--runs must be at least 1"),
        (["--executor", "mpi"], "", "argument --executor: invalid choice"),
    ],
)
def test_run_bad_input_is_one_line_status_2_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], body: str, message: str
) -> None:
    out = tmp_path / "out"
    status, _, err = run_cli(
        capsys, "run", str(small_config(tmp_path, body)), "--out", str(out), *extra
    )
    assert status == 2 and message in err and len(err.strip().splitlines()) == 1
    assert not out.exists()


def test_run_missing_config(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_cli(capsys, "run", str(tmp_path / "none.yaml"))
    assert status == 2 and "none.yaml: cannot read" in err


def test_report_and_plot_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    config = (
        small_config(tmp_path)
        .read_text()
        .replace(
            "  - {label: Knuth, player: knuth}\n",
            "  - {label: Knuth, player: knuth}\n  - {label: Random, player: random}\n",
        )
    )
    (tmp_path / "exp.yaml").write_text(config.replace("runs: 1", "runs: 3"))
    run_cli(
        capsys,
        "run",
        str(tmp_path / "exp.yaml"),
        "--out",
        str(out),
        "--executor",
        "serial",
        "--no-progress",
    )
    status, stdout, _ = run_cli(capsys, "report", str(out))
    assert status == 0 and stdout.startswith("# exp: (3,3)") and "| Knuth |" in stdout
    for name in ("summary.csv", "wilcoxon.csv", "report.md"):
        assert (out / name).is_file()
    status, stdout, _ = run_cli(
        capsys, "plot", str(out), "--kind", "cumulative", "--out", str(tmp_path / "c.pdf")
    )
    assert status == 0 and (tmp_path / "c.pdf").read_bytes().startswith(b"%PDF")
    status, _, err = run_cli(capsys, "plot", str(out), "--kind", "heatmap")
    assert status == 2 and "several sizes" in err and len(err.strip().splitlines()) == 1
    status, _, err = run_cli(capsys, "report", str(tmp_path / "nowhere"))
    assert status == 2 and "no games found" in err


def test_a_small_tournament_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "tour.yaml"
    config.write_text(
        "name: tour\ngame: {pegs: [4, 6], colors: [5, 8]}\nreport: tournament\n"
        "secrets: [{scsa: only_once, n: 3}, {scsa: ab_color, n: 3}]\nskip_impossible: true\n"
        "guess_limit: 100\ntime_limit: 5\nplayers:\n"
        "  - {label: Rao, player: rao}\n  - {label: fcol, player: fcol}\n"
        "  - {label: Archive EA, player: archive, mu: 20}\n"  # any registered player may enter
    )
    out = tmp_path / "out"
    status, stdout, _ = run_cli(
        capsys, "run", str(config), "--out", str(out), "--executor", "serial", "--no-progress"
    )
    assert status == 0 and stdout.startswith("# Tournament tour: (4,5), (4,8), (6,5), (6,8)")
    assert stdout.index("## scsa:only_once") < stdout.index("## scsa:ab_color")
    assert (out / "tournament.csv").is_file() and (out / "score_tests.csv").is_file()
    table = pd.read_csv(out / "tournament.csv")
    archive = table[table["label"] == "Archive EA"]
    assert len(archive) == 7 and (archive["win_rate"] == 1.0).all()  # only_once skips (6,5)
    status, stdout, _ = run_cli(capsys, "plot", str(out), "--kind", "heatmap", "--pool-secrets")
    assert status == 0 and stdout.strip().endswith("heatmap.png")

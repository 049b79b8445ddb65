"""The optimal player through the command line: trees, openings, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evo_mastermind.cli import main
from evo_mastermind.codes import CodeSpace
from evo_mastermind.players.openings import distinct_openings
from tests.optimal.oracle import optimal_total


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_tree_command_writes_the_optimal_tree(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_file = tmp_path / "optimal.json"
    game = ("--pegs", "3", "--colors", "4")
    status, out, _ = run_cli(
        capsys, "tree", "--player", "optimal", *game, "--out", str(out_file), "--no-progress"
    )
    total, depth = optimal_total(3, 4)
    assert status == 0 and f"{total} guesses over 64 secrets" in out and f"max {depth}" in out
    saved = json.loads(out_file.read_text())
    assert saved["player"] == "optimal" and saved["root"]["guess"] == "AAB"
    status, out, _ = run_cli(
        capsys, "play", *game, "--player", "tree", "-o", f"path={out_file}", "--secret", "DCB"
    )
    assert status == 0


def test_options_reach_the_solver(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = ("--pegs", "2", "--colors", "5", "--out", str(tmp_path / "t.json"), "--no-progress")
    _, out, _ = run_cli(capsys, "tree", "--player", "optimal", *game, "-o", "objective=worst")
    total, depth = optimal_total(2, 5, objective="worst")
    assert f"{total} guesses" in out and f"max {depth}" in out
    _, out, _ = run_cli(capsys, "tree", "--player", "optimal", *game, "--first-guess", "AA")
    assert f"{optimal_total(2, 5, first_guess='AA')[0]} guesses" in out
    status, _, err = run_cli(capsys, "tree", "--player", "optimal", *game, "-o", "max_guesses=2")
    assert status != 0 and "within 2 guesses" in err and "Traceback" not in err


def test_every_opening_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_dir = tmp_path / "openings"
    status, out, _ = run_cli(
        capsys,
        "tree",
        "--player",
        "optimal",
        "--pegs",
        "3",
        "--colors",
        "3",
        "--first-guess",
        "all",
        "--out",
        str(out_dir),
        "--no-progress",
    )
    assert status == 0
    openings = distinct_openings(CodeSpace(3, 3))
    assert openings == ["AAA", "AAB", "ABC"]
    for opening in openings:
        total, depth = optimal_total(3, 3, first_guess=opening)
        row = next(line for line in out.splitlines() if line.startswith(opening + " "))
        assert row.split()[1] == str(total) and row.split()[3] == str(depth)
        assert (out_dir / f"{opening}.json").is_file()
    assert f"best opening AAB ({optimal_total(3, 3)[0]} guesses)" in out


def test_every_opening_needs_a_first_guess_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run_cli(
        capsys, "tree", "--player", "tree", "--first-guess", "all", "--out", str(tmp_path)
    )
    assert status != 0 and "Traceback" not in err


def test_tree_on_an_executor_is_the_same_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from evo_mastermind.players import optimal

    game = ("--pegs", "3", "--colors", "4", "--no-progress")
    here, spread = tmp_path / "here.json", tmp_path / "spread.json"
    run_cli(capsys, "tree", "--player", "optimal", *game, "--out", str(here))
    monkeypatch.setattr(optimal, "_SOLVED", {})  # searched again, on the executor
    status, _, _ = run_cli(
        capsys, "tree", "--player", "optimal", *game, "--executor", "serial", "--out", str(spread)
    )
    assert status == 0 and spread.read_text() == here.read_text()
    status, _, err = run_cli(
        capsys, "tree", "--player", "knuth", *game, "--executor", "serial", "--out", str(spread)
    )
    assert status != 0 and "builds its tree here only" in err

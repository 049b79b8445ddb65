"""Bad command-line input and lying codemakers: one line, exit 2, whichever player plays."""

import io
import sys
from pathlib import Path

import numpy as np
import pytest

from evo_mastermind.cli import BAD_ANSWERS_IN_A_ROW, UsageError, main
from evo_mastermind.cli import play as cli_play
from evo_mastermind.codes import CodeSpace
from evo_mastermind.game import Codemaker, InconsistentResponsesError, play_game
from evo_mastermind.players import PLAYERS, make_player
from evo_mastermind.scoring import Response
from tests.reliability.conftest import Cli, Failure, write_yaml

LIARS = sorted(name for name in PLAYERS if name != "tree")
"""Every registered player that plays without a prepared file."""


def answer(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))


@pytest.mark.parametrize("player", LIARS)
@pytest.mark.parametrize("lie", ["0 0", "1 0"])
def test_every_player_catches_a_lying_codemaker(
    fails: Failure,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    player: str,
    lie: str,
) -> None:
    answer(monkeypatch, f"{lie}\n" * 200)
    status = main(["play", "--interactive", "--player", player])
    out, err = capsys.readouterr()
    assert status == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert "contradict" in err, err
    # The lie is refused (asked again) up to BAD_ANSWERS_IN_A_ROW times, then the game ends.
    assert out.count("black white?") <= 10 + BAD_ANSWERS_IN_A_ROW


@pytest.mark.parametrize("player", ["ga", "eda", "archive"])
@pytest.mark.parametrize("lie", ["0 0", "1 0"])
def test_evolutionary_players_meet_a_liar_on_a_space_too_large_to_list(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, player: str, lie: str
) -> None:
    # (10,10) has 10^10 codes but 92,378 colour mixes: the colours give the lie away within
    # a few guesses (it took the 100-guess stop, minutes of capped evolution, before), unless
    # the player's exact count after a fruitless search finds no consistent code first.
    answer(monkeypatch, f"{lie}\n" * 200)
    status = main(["play", "--interactive", "--pegs", "10", "--colors", "10", "--player", player])
    out, err = capsys.readouterr()
    assert status == 2 and err.count("\n") == 1 and "Traceback" not in err
    caught = ("leaves no mix of colours that agrees with it", "no code of (10,10) agrees with all")
    assert any(reason in err for reason in caught), err
    assert out.count("black white?") <= 10 + BAD_ANSWERS_IN_A_ROW


def test_the_contradicting_answer_is_named(fails: Failure, monkeypatch: pytest.MonkeyPatch) -> None:
    answer(monkeypatch, "0 0\n" * 10)
    fails(
        "play",
        "--interactive",
        "--player",
        "ga",
        pattern=r"answer 3 \(\w{4}: 0 black, 0 white\) contradicts answers 1 to 2: no code",
    )


def test_unlistable_space_is_bounded_by_the_guess_limit(
    fails: Failure, monkeypatch: pytest.MonkeyPatch
) -> None:
    answer(monkeypatch, "1 0\n" * 500)
    fails(
        "play",
        "--interactive",
        "--pegs",
        "12",
        "--colors",
        "13",
        "--player",
        "ga",
        "-o",
        "max_evaluations_per_guess=200",
        "-o",
        "population_size=10",
        pattern=r"not solved within 100 guesses; on \(12,13\) the answers cannot be checked",
    )


@pytest.mark.parametrize(
    ("text", "pattern"),
    [
        ("\u00b2 0\n", r"answer '² 0' is not two numbers"),
        ("1" * 10_000_000 + " 0\n", r"answer '1{20}'\.\.\. \([0-9,]+ characters\) is too long"),
        ("x" * 50_000_000 + "\n", r"answer 'x{20}'\.\.\. \([0-9,]+ characters\) is too long"),
        ("5 0\n", r"impossible with 4 pegs"),
    ],
    ids=["superscript", "10-million digits", "50 MB junk", "impossible"],
)
def test_bad_interactive_answers(
    fails: Failure, monkeypatch: pytest.MonkeyPatch, text: str, pattern: str
) -> None:
    answer(monkeypatch, text)
    fails("play", "--interactive", pattern=pattern)


def test_no_answer_at_all_stops_the_game(fails: Failure, monkeypatch: pytest.MonkeyPatch) -> None:
    answer(monkeypatch, "")
    fails("play", "--interactive", pattern=r"game stopped after 0 guesses", status=1)


@pytest.mark.parametrize(
    ("args", "pattern"),
    [
        (("play", "--guess-limit", "0"), r"--guess-limit must be at least 1, got 0"),
        (("play", "--guess-limit", "-3"), r"--guess-limit must be at least 1, got -3"),
        (("play", "-o", "mu=!!python/object/apply:os.system ['true']"), r"not a plain YAML"),
        (("play", "-o", "mu=[[[[[[[" + "[" * 50_000), r"not a plain YAML|option"),
        (("play", "--pegs", "0"), r"error:"),
        (("play", "--player", "nobody"), r"unknown player 'nobody'"),
        (("tree", "--out", "."), r"--out \. is a directory"),
        (("report", "/nonexistent-results"), r"no games found"),
    ],
)
def test_bad_command_lines(fails: Failure, args: tuple[str, ...], pattern: str) -> None:
    fails(*args, pattern=pattern)


def test_run_options_checked(fails: Failure, tmp_path: Path) -> None:
    config = write_yaml(tmp_path / "c.yaml")
    fails("run", config, "--workers", "10000", pattern=r"--workers 10000 is more than 4 per core")
    fails(
        "run",
        config,
        "--scheduler",
        "tcp://127.0.0.1:1",
        pattern=r"--scheduler needs --executor dask",
    )
    fails("run", config, "--resume", "--force", pattern="contradict each other")
    assert not (tmp_path / "results").exists()


def test_compare_with_garbage_named_on_the_command_line(
    fails: Failure, played: Path, tmp_path: Path
) -> None:
    garbage = tmp_path / "table.csv"
    garbage.write_bytes(bytes(range(256)) * 16)
    fails("report", played, "--compare-with", garbage, pattern=r"is not a CSV table|no column")
    fails("report", played, "--compare-with", tmp_path / "missing.csv", pattern="no published")


def test_play_game_catches_a_lying_codemaker_for_any_player() -> None:
    class Liar(Codemaker):
        def respond(self, guess: np.ndarray) -> Response:
            return Response(0, 0)

    space = CodeSpace(4, 6)
    for name in ("ga", "eda", "archive"):
        player = make_player(name, space, {})
        with pytest.raises(InconsistentResponsesError, match="contradicts"):
            play_game(player, Liar(space, "ABCD"), np.random.default_rng(0), check_answers=True)


def test_a_long_exhaustive_game_says_its_estimate_first(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    def stop(*args: object) -> int:
        raise UsageError("stopped before the first guess")

    monkeypatch.setattr(cli_play, "_play_interactive", stop)
    status, _, err = cli(
        "play", "--interactive", "--pegs", "7", "--colors", "7", "--player", "knuth"
    )
    assert status == 2
    assert err.splitlines()[0].startswith("evo-mastermind: estimate: about")

"""``evo-mastermind play --interactive``: a person is the codemaker."""

import io
import re

import numpy as np
import pytest

from evo_mastermind.cli import main
from evo_mastermind.cli.play import PersonAtTheTerminal
from evo_mastermind.codes import CodeSpace
from evo_mastermind.game import Codemaker, play_game
from evo_mastermind.players import make_player
from evo_mastermind.scoring import score


def play(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    stdin: io.StringIO,
    *args: str,
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", stdin)
    status = main(["play", "--interactive", *args])
    out, err = capsys.readouterr()
    return status, out, err


class Truthful(io.StringIO):
    """Answers each guess for ``secret``, after the given lines of garbage for the first one."""

    def __init__(self, capsys: pytest.CaptureFixture[str], secret: str, garbage: list[str]):
        super().__init__()
        self.capsys, self.secret, self.garbage, self.out = capsys, secret, garbage, ""

    def readline(self, size: int = -1) -> str:  # type: ignore[override]
        if self.garbage:
            return self.garbage.pop(0)
        captured = self.capsys.readouterr().out
        self.out += captured
        guess = captured.strip().split()[-3]
        black, white = score(guess, self.secret)
        return f"{black} {white}\n"


def test_first_line_says_the_game_and_the_answer_format(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = play(monkeypatch, capsys, io.StringIO(""), "--pegs", "5", "--colors", "8")
    first = out.splitlines()[0]
    for part in ("5 pegs", "8 colours", "A to H", "'black white'", "Ctrl-D"):
        assert part in first


def test_bad_answers_ask_again_then_the_game_goes_on(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    garbage = ["two one\n", "9 9\n", "3 1\n", "² 0\n", "-1 0\n", "\n"]
    stdin = Truthful(capsys, "ABBC", list(garbage))
    monkeypatch.setattr("sys.stdin", stdin)
    status = main(["play", "--interactive", "--player", "knuth"])
    out = stdin.out + capsys.readouterr().out
    assert status == 0 and out.rstrip().endswith("guesses")
    assert out.count("answer again") == len(garbage)
    assert "impossible with 4 pegs" in out and "is not two numbers" in out


def test_one_guess_is_singular(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = play(monkeypatch, capsys, io.StringIO("4 0\n"), "--player", "knuth")
    assert status == 0 and out.splitlines()[-1].endswith("solved in 1 guess")


def test_a_lie_names_the_answer_and_asks_again(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Two guesses answered 0 0 leave one code here: 2 black to it contradicts them.
    stdin = io.StringIO("0 0\n0 0\n2 0\n4 0\n")
    status, out, _ = play(
        monkeypatch, capsys, stdin, "--player", "entropy", "-o", "ties=lexicographic"
    )
    assert status == 0 and "solved in 3 guesses" in out
    assert re.search(r"answer 3 \([A-F]{4}: 2 black, 0 white\) contradicts answers 1 to 2", out)


def test_a_lie_in_a_game_too_large_to_check_ends_with_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    stdin = io.StringIO("0 0\n" * 12)
    args = ("--pegs", "8", "--colors", "12", "--player", "fcol")
    status, out, err = play(monkeypatch, capsys, stdin, *args)
    assert status == 2 and out.endswith("\n") and len(err.strip().splitlines()) == 1
    # 8^12 codes are too many to list; the colours alone give the lie away.
    assert "answer 12 (LLLLLLLL: 0 black, 0 white) leaves no mix of colours" in err


@pytest.mark.parametrize("ending", ["eof", "interrupt"])
def test_ctrl_d_and_ctrl_c_end_cleanly_on_a_new_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], ending: str
) -> None:
    class Stop(io.StringIO):
        def readline(self, size: int = -1) -> str:  # type: ignore[override]
            if ending == "interrupt":
                raise KeyboardInterrupt
            return ""

    status, out, err = play(monkeypatch, capsys, Stop())
    assert status == 1 and out.endswith("black white? \n")
    assert err == "evo-mastermind: game stopped after 0 guesses\n"


@pytest.mark.parametrize(
    "line",
    ["² 0\n", "1" * 10_000_000 + "\n", "x" * 50_000_000 + "\n", "1 " + "9" * 5000 + "\n"],
    ids=["superscript", "ten-million-digits", "fifty-megabytes", "long-number"],
)
def test_huge_or_garbage_answers_get_a_short_message(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], line: str
) -> None:
    status, out, err = play(monkeypatch, capsys, io.StringIO(line))
    # The input ends right after the refused answer: that answer is the error.
    assert status == 2 and "Traceback" not in out + err and err.count("\n") == 1
    complaint = next(text for text in out.splitlines() if "answer again" in text)
    assert len(complaint) < 160


def test_the_person_is_a_codemaker_of_the_one_game_loop(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    space = CodeSpace(4, 6)
    stdin = Truthful(capsys, "ABBC", [])
    monkeypatch.setattr("sys.stdin", stdin)
    person = PersonAtTheTerminal(space)
    game = play_game(make_player("knuth", space), person, np.random.default_rng(0))
    # The same game as against the codemaker holding the secret, the secret kept unsaid.
    knuth = make_player("knuth", space)
    truthful = play_game(knuth, Codemaker(space, "ABBC"), np.random.default_rng(0))
    assert game.moves == truthful.moves and game.solved and game.secret == ""
    assert person.answered == game.n_guesses and person.checker.answers == game.n_guesses - 1

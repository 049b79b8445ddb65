"""A codemaker who lies only about positions, on a space too large to list: players stop at once.

The game's colour check cannot see such lies (black + white stays true), so the players that
search for consistent codes with a budget count the consistent codes exactly when a search
ends empty-handed; zero ends the game as inconsistent at that move, not at the guess limit.
"""

import re
import sys

import numpy as np
import pytest

from evo_mastermind.cli import main
from evo_mastermind.codes import Code, CodeSpace
from evo_mastermind.game import Codemaker, InconsistentResponsesError, play_game
from evo_mastermind.players import make_player
from evo_mastermind.sampling import Constraints, count_consistent
from evo_mastermind.scoring import Response

SPACE = CodeSpace(10, 10)
SECRET = "ABCDEFGHIJ"
CAP = 50_000
"""A smaller budget than the defaults keeps the tests short; the stop does not depend on it."""
BUDGETED = ["ga", "eda", "archive"]


def position_lie(truth: Response, pegs: int) -> Response:
    """One black moved to white (two for a solved code): the colours stay true."""
    if truth.black == pegs:
        return Response(pegs - 2, 2)
    if truth.black:
        return Response(truth.black - 1, truth.white + 1)
    return truth


class PositionLiar(Codemaker):
    """Answers every guess with its blacks understated by one (see :func:`position_lie`)."""

    def respond(self, guess: Code) -> Response:
        return position_lie(super().respond(guess), self.space.pegs)


def first_contradiction(guesses: list[Code], responses: list[Response]) -> int:
    """How many answers it takes until no code of SPACE agrees with all of them (exact count)."""
    for answers in range(1, len(guesses) + 1):
        constraints = Constraints.from_responses(
            SPACE, np.array(guesses[:answers]), responses[:answers]
        )
        if count_consistent(constraints) == 0:
            return answers
    raise AssertionError("the answers never contradict each other")


@pytest.mark.parametrize("name", [*BUDGETED, "sampler"])
def test_a_position_liar_stops_the_player_at_the_first_contradiction(name: str) -> None:
    options = {"max_evaluations_per_guess": CAP} if name in BUDGETED else {}
    player = make_player(name, SPACE, options)
    with pytest.raises(InconsistentResponsesError, match=r"no code of \(10,10\) agrees with all"):
        play_game(
            player,
            PositionLiar(SPACE, SECRET),
            np.random.default_rng(3),
            guess_limit=100,
            check_answers=True,  # checks the colours only on (10,10): the lie passes it
        )
    history = player.history  # type: ignore[attr-defined]
    guesses = list(history.guesses)
    responses = [
        Response(int(b), int(w)) for b, w in zip(history.blacks, history.whites, strict=True)
    ]
    # Stopped at the very move after the answers became contradictory, far from the limit.
    assert len(guesses) == first_contradiction(guesses, responses) < 30
    stats = player.stats()
    if name in BUDGETED:
        # Every move before the last found a code or played a capped one (codes existed);
        # the last spent its budget, then the count said none exist.
        assert stats.capped_guesses is not None and stats.capped_guesses < len(guesses)
        assert stats.evaluations is not None and stats.evaluations >= CAP
        assert stats.evaluations < len(guesses) * (CAP + 250_000)


class LyingPerson:
    """Stands for a person at ``play --interactive``: reads each prompt, answers with a lie.

    It is both ``sys.stdout`` (the prompts) and ``sys.stdin`` (the answers).
    """

    PROMPT = re.compile(r"\d+\. ([A-Z]+)  black white\? $")

    def __init__(self) -> None:
        self.liar = PositionLiar(SPACE, SECRET)
        self.prompts = 0
        self.pending = ""

    def write(self, text: str) -> int:  # sys.stdout: remember the last prompt
        self.pending = (self.pending + text).rsplit("\n", 1)[-1]
        return len(text)

    def flush(self) -> None:
        """Nothing is buffered."""

    def readline(self, limit: int = -1) -> str:  # sys.stdin: answer it
        match = self.PROMPT.search(self.pending)
        assert match is not None, self.pending
        self.prompts += 1
        lie = self.liar.respond(SPACE.parse(match.group(1)))
        return f"{lie.black} {lie.white}\n"


@pytest.mark.parametrize("name", BUDGETED)
def test_interactive_position_liar_is_told_within_a_few_guesses(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    person = LyingPerson()
    monkeypatch.setattr(sys, "stdin", person)
    monkeypatch.setattr(sys, "stdout", person)
    args = ["play", "--interactive", "--pegs", "10", "--colors", "10", "--player", name]
    status = main([*args, "-o", f"max_evaluations_per_guess={CAP}"])
    _, err = capsys.readouterr()
    assert status == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert re.search(r"contradicts the answers before it: .*no code of \(10,10\) agrees", err)
    # Before: 100 guesses, each after a whole budget of fruitless search.
    assert person.prompts < 30

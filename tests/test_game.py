import time

import numpy as np
import pytest

from evo_mastermind.codes import Code, CodeSpace
from evo_mastermind.game import Codemaker, InconsistentResponsesError, play_game
from evo_mastermind.players import Player, make_player
from evo_mastermind.scoring import Response, score
from tests.players.support import SilentCodemaker

SPACE = CodeSpace(4, 6)


class ScriptedPlayer(Player):
    """Plays a fixed list of guesses (anything, valid or not)."""

    def __init__(self, guesses: list[object], spin_seconds: float = 0.0) -> None:
        super().__init__(SPACE)
        self.guesses = guesses
        self.spin_seconds = spin_seconds

    def start(self, rng: np.random.Generator) -> None:
        self.turn = 0

    def ask(self) -> Code:
        # Spin on this thread's CPU clock: the same work whatever else the machine runs.
        deadline = time.thread_time() + self.spin_seconds
        while time.thread_time() < deadline:
            pass
        guess = self.guesses[self.turn % len(self.guesses)]
        self.turn += 1
        return guess  # type: ignore[return-value]

    def tell(self, guess: Code, response: Response) -> None:
        pass


def test_a_game_records_every_move_and_stops_when_solved() -> None:
    result = play_game(
        make_player("knuth", SPACE), Codemaker(SPACE, "ABBC"), np.random.default_rng(0)
    )
    assert result.solved and result.outcome == "solved"
    assert result.moves[-1].guess == "ABBC" and result.moves[-1].black == 4
    assert result.moves[0].guess == "AABB"
    for move in result.moves:
        assert (move.black, move.white) == score(move.guess, "ABBC")
    assert result.n_guesses == len(result.moves) <= 5
    assert result.seconds >= 0 and result.player_seconds >= 0


def test_guess_limit_stops_an_unsolved_game() -> None:
    player = ScriptedPlayer([SPACE.parse("AAAA")])
    result = play_game(player, Codemaker(SPACE, "ABBC"), np.random.default_rng(0), guess_limit=3)
    assert result.outcome == "guess_limit" and not result.solved and result.n_guesses == 3


def test_time_limit_on_the_players_own_time() -> None:
    player = ScriptedPlayer([SPACE.parse("AAAA")], spin_seconds=0.02)
    result = play_game(player, Codemaker(SPACE, "ABBC"), np.random.default_rng(0), time_limit=0.05)
    assert result.outcome == "time_limit" and not result.solved
    assert result.n_guesses < 4


@pytest.mark.parametrize("bad", [np.array([0, 0, 9, 0]), np.array([0, 0, 0]), "AABB"])
def test_an_invalid_guess_is_a_failure_not_a_crash(bad: object) -> None:
    result = play_game(ScriptedPlayer([bad]), Codemaker(SPACE, "ABBC"), np.random.default_rng(0))
    assert result.outcome == "invalid_guess" and result.n_guesses == 0


@pytest.mark.parametrize(
    "name", ["entropy", "knuth", "random", "first_consistent", "local_entropy"]
)
def test_a_lying_codemaker_stops_the_game_with_a_clear_error(name: str) -> None:
    with pytest.raises(InconsistentResponsesError, match="contradict"):
        play_game(
            make_player(name, SPACE), SilentCodemaker(SPACE, "ABBC"), np.random.default_rng(0)
        )

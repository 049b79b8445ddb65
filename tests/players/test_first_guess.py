"""The one ``first_guess`` resolution, as every player that has the option uses it."""

import pytest

from evo_mastermind.codes import CodeSpace, InvalidGameError
from evo_mastermind.players import known_player, make_player
from evo_mastermind.players.first_guess import AUTO, opening_code

SPACE = CodeSpace(4, 6)


def letters(space: CodeSpace, written: str | None, default: str) -> str:
    code = opening_code(space, written, default, "a player")
    assert code is not None
    return space.format(code)


def test_a_written_code_wins_over_the_default() -> None:
    assert letters(SPACE, "abcd", "aabc") == "ABCD"
    assert letters(SPACE, None, "aabc") == "AABC"
    assert letters(SPACE, None, "aabb") == "AABB"
    assert letters(CodeSpace(6, 9), None, "aabc") == "AABCDE"


def test_auto_is_the_strategy_choosing_for_the_players_that_can() -> None:
    assert opening_code(SPACE, None, AUTO, "knuth") is None
    assert opening_code(SPACE, " Auto ", "aabc", "entropy", chooses=True) is None
    with pytest.raises(InvalidGameError, match="player 'ga': first_guess: "):
        opening_code(SPACE, "auto", "aabc", "ga")


def test_a_code_that_does_not_fit_is_one_line_naming_the_player() -> None:
    with pytest.raises(InvalidGameError, match=r"^player 'sampler': first_guess: code 'AAB'"):
        opening_code(SPACE, "AAB", "aabc", "sampler")


@pytest.mark.parametrize(
    "name", ["entropy", "knuth", "first_consistent", "eda", "ga", "archive", "sampler", "optimal"]
)
def test_every_player_with_the_option_refuses_a_bad_code_alike(name: str) -> None:
    assert "first_guess" in known_player(name).Params.model_fields
    with pytest.raises(InvalidGameError, match=rf"player '{name}': first_guess: code 'ABCDE'"):
        make_player(name, SPACE, {"first_guess": "ABCDE"})

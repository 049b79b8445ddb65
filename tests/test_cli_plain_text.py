import pytest

from evo_mastermind.cli import main
from evo_mastermind.cli.plain_text import plain_text


@pytest.mark.parametrize(
    ("markup", "text"),
    [
        ("plays ``entropy`` or ``worst_case``", "plays entropy or worst_case"),
        ("see :mod:`evo_mastermind.evolution.choice`.", "see evo_mastermind.evolution.choice."),
        ("a :class:`~evo_mastermind.players.Player`", "a Player"),
        ("the :class:`base class <evo_mastermind.players.Player>`", "the base class"),
        (
            "`Koyama & Lai <https://doi.org/10.1080/10724117.1993.11974883>`_ 1993",
            "Koyama & Lai 1993",
        ),
        ("no markup: 2 * 3, a_b", "no markup: 2 * 3, a_b"),
    ],
)
def test_inline_markup_becomes_plain_text(markup: str, text: str) -> None:
    assert plain_text(markup) == text


def test_the_players_command_prints_no_markup(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["players"]) == 0
    printed = capsys.readouterr().out
    assert "``" not in printed and ":mod:`" not in printed and ":class:`" not in printed
    assert "(entropy, most_parts, expected_size, worst_case, or one of your own)" in printed

"""``evo-mastermind players`` lists presets; ``--preset`` starts a player from one."""

import json

import pytest

from evo_mastermind.cli import main


def test_players_lists_every_preset_with_its_settings(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["players"]) == 0
    lines = capsys.readouterr().out.splitlines()
    presets = [line.strip() for line in lines if line.startswith("    preset ")]
    paper = "preset paper (first_guess=AABC): Runarsson & Merelo-Guervós (2009), Tables 2-6"
    assert sum(line.startswith(paper) for line in presets) == 7  # the seven one-ply players
    names = {line.split()[1] for line in presets}
    assert {"paper", "paper_f", "paper_f_local_entropy", "best_4x6", "best_8x12"} <= names


@pytest.mark.parametrize(
    ("options", "opening"), [([], "AABC"), (["-o", "first_guess=AABB"], "AABB")]
)
def test_play_starts_from_a_preset_and_options_override_it(
    capsys: pytest.CaptureFixture[str], options: list[str], opening: str
) -> None:
    args = ["play", "--player", "random", "--preset", "paper", "--secret", "ABBC", "--json"]
    assert main([*args, *options]) == 0
    assert json.loads(capsys.readouterr().out)["guesses"][0]["guess"] == opening


def test_an_unknown_preset_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--player", "eda", "--preset", "paper"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no preset 'paper' (did you mean 'paper_f'?)" in err

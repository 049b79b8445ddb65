"""The README's examples run as written."""

import re
from pathlib import Path

import numpy as np
import pytest

from evo_mastermind import Codemaker, CodeSpace, make_player, play_game
from evo_mastermind.players import PLAYERS

README = Path(__file__).parents[1] / "README.md"


def test_the_add_a_player_example_registers_a_working_player() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.DOTALL)
    assert blocks, "the README lost its player example"
    try:
        exec(compile(blocks[0], str(README), "exec"), {})
        space = CodeSpace(3, 3)
        player = make_player("stubborn", space, {"colour": "B"})
        game = play_game(player, Codemaker(space, "ABC"), np.random.default_rng(0), guess_limit=50)
        assert game.moves[0].guess == "BBB" and game.n_guesses <= 50
    finally:
        PLAYERS.pop("stubborn", None)


def test_the_add_a_player_example_passes_mypy_strict(tmp_path: Path) -> None:
    from mypy import api

    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.DOTALL)
    example = tmp_path / "stubborn.py"
    example.write_text(blocks[0])
    config = README.parent / "pyproject.toml"  # the project's own settings: strict
    out, err, status = api.run(
        ["--config-file", str(config), "--cache-dir", str(tmp_path / "cache"), str(example)]
    )
    assert status == 0, out + err


def test_the_readme_names_both_setup_commands() -> None:
    text = README.read_text()
    assert "make reproduce" in text and "make test" in text


def test_the_use_it_from_python_example_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.DOTALL)
    example = next(block for block in blocks if "import evo_mastermind as em" in block)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    exec(compile(example, str(README), "exec"), {})
    assert "inside the published range" in capsys.readouterr().out
    assert not (tmp_path / "results" / "quick" / "report.md").exists()  # run writes no report
    assert (tmp_path / "results" / "quick" / "experiment.json").is_file()

"""docs/extending.md: its complete evolutionary player runs; every name the docs import exists."""

import ast
import importlib
import re
from pathlib import Path

import pytest
import yaml

from evo_mastermind.runner import ResultsDir, load_config, make_executor, run_experiment

ROOT = Path(__file__).parents[1]
EXTENDING = ROOT / "docs" / "extending.md"
EXAMPLE = ROOT / "examples" / "custom_player" / "src" / "mylab" / "comma_ga.py"
PYTHON_BLOCK = re.compile(r"```python\n(.*?)```", re.DOTALL)


def evolutionary_block() -> str:
    """The Python block under 'A complete evolutionary player'."""
    page = EXTENDING.read_text(encoding="utf-8")
    section = page.split("### A complete evolutionary player", 1)[1]
    found = PYTHON_BLOCK.search(section)
    assert found is not None
    return found.group(1)


def test_the_page_shows_the_example_file_whole() -> None:
    assert evolutionary_block() == EXAMPLE.read_text(encoding="utf-8")
    assert "..." not in evolutionary_block()


@pytest.mark.usefixtures("registry")
def test_the_pages_evolutionary_player_plays_and_logs_its_moves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "docs_comma_ga.py").write_text(evolutionary_block(), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    config = tmp_path / "comma.yaml"
    config.write_text(
        yaml.safe_dump(
            {
                "name": "comma",
                "game": [{"pegs": 4, "colors": 6}, {"pegs": 5, "colors": 8}],
                "secrets": {"sample": 6},
                "seed": 5,
                "log": "moves",
                "plugins": ["docs_comma_ga"],
                "players": [
                    {"label": "(mu, lambda) GA", "player": "comma_ga"},
                    {"label": "small", "player": "comma_ga", "offspring_size": 50},
                ],
            }
        )
    )
    with make_executor("serial") as pool:
        run_experiment(load_config(config), config, tmp_path / "out", pool, progress=False)
    results = ResultsDir(tmp_path / "out")
    games, moves = results.load_games(), results.load_moves()
    assert len(games) == 2 * 2 * 6 and games["solved"].all()
    assert (games["evaluations"] > 0).all() and (games["capped_guesses"] == 0).all()
    assert 3.5 < games["n_guesses"].mean() < 7.5  # a consistent-code player: 4-6 guesses
    assert len(moves) == games["n_guesses"].sum()
    assert moves.groupby(["label", "pegs", "secret"])["evaluations"].sum().sum() == (
        games["evaluations"].sum()
    )


def doc_imports() -> list[tuple[str, str, str]]:
    """(page, module, name) of every ``from evo_mastermind... import ...`` in a docs code block."""
    found = []
    for page in sorted((ROOT / "docs").rglob("*.md")):
        for block in PYTHON_BLOCK.findall(page.read_text(encoding="utf-8")):
            for line in block.splitlines():
                if not line.startswith("from evo_mastermind"):
                    continue
                statement = line if "(" not in line else _whole(block, line)
                node = ast.parse(statement).body[0]
                assert isinstance(node, ast.ImportFrom) and node.module
                for alias in node.names:
                    found.append((page.name, node.module, alias.name))
    return found


def _whole(block: str, line: str) -> str:
    start = block.index(line)
    return block[start : block.index(")", start) + 1]


def test_the_docs_import_many_names() -> None:
    modules = {module for _, module, _ in doc_imports()}
    assert {"evo_mastermind.players", "evo_mastermind.evolution"} <= modules


@pytest.mark.parametrize(("page", "module", "name"), doc_imports())
def test_every_name_the_docs_import_is_there(page: str, module: str, name: str) -> None:
    assert hasattr(importlib.import_module(module), name), f"{page}: {module}.{name}"


def test_player_stats_is_where_the_docs_say() -> None:
    from evo_mastermind.game import PlayerStats as InGame
    from evo_mastermind.players import PlayerStats

    assert PlayerStats is InGame

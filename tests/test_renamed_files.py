"""Files renamed from "seed N" names to author-and-year names: the old names still work."""

import shutil
from pathlib import Path

import pytest
import yaml

from evo_mastermind.paths import RENAMED_FILES, current_name
from evo_mastermind.runner.config import load_config
from evo_mastermind.studies import FOLDER, published_file

ROOT = Path(__file__).parents[1]


def test_every_renamed_file_is_found_under_its_new_name() -> None:
    # The new names are paths of before 0.2 too: shipped in the package since.
    for new in RENAMED_FILES.values():
        with pytest.warns(FutureWarning, match="moved into the package"):
            assert published_file(new) is not None, new


def test_an_old_name_gives_the_new_one_with_a_warning() -> None:
    with pytest.warns(FutureWarning, match="runarsson_merelo_2009_table2.csv"):
        assert current_name("experiments/seed002_table2.csv") == (
            "experiments/runarsson_merelo_2009_table2.csv"
        )
    assert current_name("experiments/mine.csv") == "experiments/mine.csv"


def test_a_config_naming_an_old_published_table_still_loads(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "experiments").mkdir()
    table = "experiments/runarsson_merelo_2009_table2.csv"
    shutil.copy(FOLDER / "published" / "runarsson_merelo_2009_table2.csv", tmp_path / table)
    config = {
        "name": "old",
        "game": {"pegs": 3, "colors": 4},
        "compare_with": "experiments/seed002_table2.csv",
        "players": [{"label": "Entropy", "player": "entropy"}],
    }
    path = tmp_path / "old.yaml"
    path.write_text(yaml.safe_dump(config))
    with pytest.warns(FutureWarning, match="until"):
        loaded = load_config(path)
    assert loaded.compare_with == table
    assert loaded.published_table(path) == tmp_path / table


def test_an_old_name_of_a_table_that_has_moved_since_still_finds_it(tmp_path: Path) -> None:
    # Through both steps: the first name, then the path of before the move into the package.
    with pytest.warns(FutureWarning):
        assert published_file("experiments/seed002_table5.csv", tmp_path) == (
            FOLDER / "published" / "runarsson_merelo_2009_table5.csv"
        )

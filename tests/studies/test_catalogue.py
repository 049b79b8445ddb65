"""The shipped studies and published tables: names, old paths, copies."""

from pathlib import Path

import pytest
import yaml

from evo_mastermind.analysis.report import write_report
from evo_mastermind.runner import load_config
from evo_mastermind.studies import (
    FOLDER,
    StudyError,
    config_file,
    copy_study,
    published_file,
    published_names,
    shipped_file,
    studies,
    study_names,
    study_path,
)
from tests.analysis.synthetic import STRONG, WEAK, experiment_record, make_games, write_results

PAPER = [f"paper/table{number}" for number in range(2, 7)]


def test_every_kind_of_study_is_shipped() -> None:
    names = study_names()
    assert set(PAPER) <= set(names)
    assert {"evolution/archive_4x6", "scaling/8x12", "tournament/fbi_8x10"} <= set(names)
    assert published_names() == [
        f"published/runarsson_merelo_2009_table{number}.csv" for number in range(2, 7)
    ]


@pytest.mark.parametrize("name", study_names())
def test_every_study_loads_by_name_and_its_published_table_is_shipped(name: str) -> None:
    config = load_config(name)
    assert config.players
    if config.compare_with is not None:
        assert config.compare_with in published_names()
        assert config.published_table(study_path(name)) == FOLDER / config.compare_with


def test_the_list_describes_each_study() -> None:
    listed = {study.name: study for study in studies()}
    table2 = listed["paper/table2"]
    assert "Table 2" in table2.description and "\n" not in table2.description
    assert table2.compare_with == "published/runarsson_merelo_2009_table2.csv"
    assert table2.path == FOLDER / "paper" / "table2.yaml"


def test_a_study_is_named_with_or_without_its_suffix() -> None:
    assert config_file("paper/table2") == FOLDER / "paper" / "table2.yaml"
    assert config_file("paper/table2.yaml") == FOLDER / "paper" / "table2.yaml"
    assert config_file("./scaling/5x8") == FOLDER / "scaling" / "5x8.yaml"


def test_a_file_that_exists_wins_over_a_study_of_the_same_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "paper").mkdir()
    (tmp_path / "paper" / "table2.yaml").write_text("name: mine\n")
    assert config_file("paper/table2.yaml") == Path("paper/table2.yaml")
    assert config_file("paper/table2") == FOLDER / "paper" / "table2.yaml"


def test_the_path_of_before_0_2_still_finds_the_study(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # a folder without configs/: as a clone is now
    with pytest.warns(FutureWarning, match="configs/paper/table3.yaml has moved .* paper/table3"):
        assert config_file("configs/paper/table3.yaml") == FOLDER / "paper" / "table3.yaml"


def test_an_unknown_study_is_one_line_with_the_closest_name() -> None:
    with pytest.raises(
        StudyError,
        match=r"^paper/tabel2: no such file, nor a shipped study .*"
        r"\(did you mean 'paper/table2'\?\); 'evo-mastermind studies' lists them$",
    ):
        config_file("paper/tabel2")
    with pytest.raises(StudyError, match=r"^no shipped study 'paper/tabel2' \(did you mean "):
        study_path("paper/tabel2")
    # Not in a study's folder: left for the config reader to report as a missing file.
    assert config_file("mine.yaml") == Path("mine.yaml")


def test_a_published_table_is_found_in_the_project_first(tmp_path: Path) -> None:
    own = tmp_path / "published" / "runarsson_merelo_2009_table2.csv"
    own.parent.mkdir()
    own.write_text("label,section,min,mean,median,max,sd,max_guesses\n")
    name = "published/runarsson_merelo_2009_table2.csv"
    assert published_file(name, tmp_path) == own
    assert published_file(name, tmp_path / "elsewhere") == FOLDER / name
    assert published_file("published/nowhere.csv", tmp_path) is None


def test_a_published_table_under_its_path_of_before_0_2(tmp_path: Path) -> None:
    with pytest.warns(FutureWarning, match="moved into the package"):
        found = published_file("experiments/runarsson_merelo_2009_table4.csv", tmp_path)
    assert found == FOLDER / "published" / "runarsson_merelo_2009_table4.csv"


def test_a_study_is_copied_to_start_from(tmp_path: Path) -> None:
    copied = copy_study("paper/table2", tmp_path)
    assert copied == tmp_path / "table2.yaml"
    assert copied.read_bytes() == study_path("paper/table2").read_bytes()
    # The copy runs from its new place: its published table is still found.
    config = load_config(copied)
    assert config.published_table(copied) == FOLDER / "published/runarsson_merelo_2009_table2.csv"
    with pytest.raises(StudyError, match="already exists"):
        copy_study("paper/table2", copied)
    assert copy_study("paper/table3", copied, force=True) == copied
    assert yaml.safe_load(copied.read_text())["name"] == "table3"


def test_a_published_table_is_shipped_and_copyable(tmp_path: Path) -> None:
    name = "published/runarsson_merelo_2009_table6.csv"
    assert shipped_file(name) == FOLDER / name
    assert copy_study(name, tmp_path / "mine.csv").read_text().startswith("label,section")


@pytest.mark.parametrize(
    ("recorded", "warned"),
    [
        ("published/runarsson_merelo_2009_table2.csv", False),
        ("experiments/runarsson_merelo_2009_table2.csv", True),  # a record of before 0.2
    ],
)
def test_a_record_outside_any_project_reports_against_the_shipped_table(
    recorded: str, warned: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = make_games({"Entropy": STRONG, "Random": WEAK}, runs=2)
    results = write_results(tmp_path / "r", games, experiment_record(games, compare_with=recorded))
    monkeypatch.chdir(tmp_path)  # no pyproject.toml above: an installed user's folder
    if warned:
        with pytest.warns(FutureWarning, match="moved into the package"):
            markdown = write_report(results)
    else:
        markdown = write_report(results)
    assert f"Compared with the published table `{recorded}`" in markdown
    assert "| 4.408 | 4.383–4.424 |" in markdown  # Entropy's published figures

"""Every results frame follows the one naming scheme ``docs/results.md`` lists, frame by frame."""

import re
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from evo_mastermind.analysis.analysis import TABLES, Analysis
from evo_mastermind.analysis.frames import (
    CSV_SIGNIFICANT_DIGITS,
    RENAMED_COLUMNS,
    read_table,
    results_frame,
    table_csv,
)
from evo_mastermind.analysis.published import compare_with_published, load_published
from evo_mastermind.analysis.report import write_report
from evo_mastermind.api import load
from evo_mastermind.studies import shipped_file
from tests.analysis.synthetic import STRONG, WEAK, experiment_record, make_games, write_results

RESULTS_DOC = Path(__file__).resolve().parents[2] / "docs" / "results.md"
LABELS = ("Entropy", "Most parts", "Random")
LABEL_COLUMNS = {"label", "label_a", "label_b", "published_label"}
"""The columns whose values are entries' labels (``published_label``: a published row's)."""
PAIRED = ("auto", "bayesian")
"""The ``paired`` settings that, between them, give every paired table."""


def _games() -> pd.DataFrame:
    """Three players on two game sizes, every player on the same secrets of each."""
    guesses = {"Entropy": STRONG, "Most parts": STRONG, "Random": WEAK}
    games = pd.concat(
        [
            make_games(guesses, runs=2, games_per_run=30, evaluations={"Random": 50}),
            make_games(guesses, runs=2, games_per_run=30, pegs=3, colors=4, seed=1),
        ],
        ignore_index=True,
    )
    games["secret"] = games.groupby(["label", "run", "pegs"]).cumcount().astype(str)
    return games


def frames_of_every_table() -> dict[str, pd.DataFrame]:
    """Each table of :data:`TABLES` (and ``groups``) of experiments where it applies."""
    games = _games()
    published = load_published(shipped_file("published/runarsson_merelo_2009_table2.csv"))
    frames: dict[str, pd.DataFrame] = {}
    for paired in PAIRED:
        analysis = Analysis(games, experiment_record(games, paired=paired), published)
        for table in TABLES:
            if table.report == "paper" and (frame := analysis.table(table.name)) is not None:
                frames.setdefault(table.name, frame)
        frames.setdefault("groups", analysis.groups())
    tournament = Analysis(games, experiment_record(games, report="tournament"))
    for table in TABLES:
        if table.report == "tournament":
            frames[table.name] = tournament.frame(table.name)
    return frames


def _section() -> str:
    text = RESULTS_DOC.read_text()
    return text.split("\n## Results frames\n", 1)[1].split("\n## ", 1)[0]


def documented_frames() -> dict[str, list[str]]:
    """The section's frames: each name (its ``table()`` name) and its columns, in order."""
    found = {}
    for line in _section().splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("| `") and len(cells) == 3:
            found[cells[0].strip("`")] = re.findall(r"`([a-z0-9_]+)`", cells[2])
    return found


def documented_columns() -> set[str]:
    """The columns the section's glossary explains."""
    glossary = _section().split("### Columns", 1)[1].split("**Former names.**", 1)[0]
    return {
        name
        for line in glossary.splitlines()
        if line.startswith("| `")
        for name in re.findall(r"`([a-z0-9_]+)`", line.split("|")[1])
    }


@pytest.fixture(scope="module")
def frames() -> dict[str, pd.DataFrame]:
    return frames_of_every_table()


def test_every_table_is_documented_with_its_columns_in_order(
    frames: dict[str, pd.DataFrame],
) -> None:
    assert {table.name for table in TABLES} | {"groups"} == set(frames)
    documented = documented_frames()
    for name, frame in frames.items():
        assert documented.get(name) == list(frame.columns), f"docs/results.md: {name}"
    assert set(documented) == set(frames)
    every = {column for frame in frames.values() for column in frame.columns}
    assert every <= documented_columns(), f"unexplained: {every - documented_columns()}"


def test_every_table_names_its_players_by_the_scheme(frames: dict[str, pd.DataFrame]) -> None:
    former = {old for renamed in RENAMED_COLUMNS.values() for old in renamed}
    for name, frame in frames.items():
        assert not former & set(frame.columns), f"{name} uses a former name"
        for column in frame.columns:
            values = frame[column].dropna().tolist()
            if values and all(isinstance(value, str) and value in LABELS for value in values):
                assert column in LABEL_COLUMNS, f"{name}.{column} holds labels"


def test_a_former_column_name_still_indexes_with_a_warning(tmp_path: Path) -> None:
    games = _games()
    results = load(write_results(tmp_path / "r", games, experiment_record(games)))
    summary, tests = results.summary(), results.tests()
    with pytest.warns(DeprecationWarning, match="the column 'player' is now 'label'"):
        assert summary["player"].tolist() == summary["label"].tolist()
    with pytest.warns(DeprecationWarning, match="the column '[ab]' is now 'label_[ab]'"):
        assert tests[["a", "b"]].values.tolist() == tests[["label_a", "label_b"]].values.tolist()
    with pytest.warns(DeprecationWarning, match="'player' is now 'label'"):
        assert summary[summary["mean"] > 0].player.tolist() == summary["label"].tolist()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert summary["label"].tolist()  # the current name does not warn


def test_an_old_directory_is_read_and_its_report_rewritten(tmp_path: Path) -> None:
    games = _games()
    results = write_results(tmp_path / "r", games, experiment_record(games))
    write_report(results)
    current = (results / "summary.csv").read_text()
    old = current.replace("label,runs", "player,runs", 1)
    (results / "summary.csv").write_text(old)
    (tmp_path / "current.csv").write_text(current)
    with pytest.warns(DeprecationWarning, match="former column names player"):
        again = read_table(results / "summary.csv", "summary")
    pd.testing.assert_frame_equal(again, read_table(tmp_path / "current.csv", "summary"))
    write_report(results)
    assert (results / "summary.csv").read_text() == current


def test_written_floats_are_rounded_in_one_place(tmp_path: Path) -> None:
    frame = pd.DataFrame(
        {"label": list("ABCD"), "mean": [4.404999999999999, 1.0, 1.880056433261788e-13, None]}
    )
    assert table_csv(frame).splitlines() == [
        "label,mean", "A,4.405", "B,1.0", "C,1.880056433e-13", "D,"
    ]  # fmt: skip
    games = _games()
    results = write_results(tmp_path / "r", games, experiment_record(games))
    write_report(results)
    analysis = Analysis.of_directory(results)
    for name, table in analysis.written():
        if table is None:  # does not apply: not written
            continue
        written = (results / name).read_text()
        assert written == table_csv(table)
        digits = [cell for cell in re.split(r"[,\n]", written) if re.fullmatch(r"[\d.e+-]+", cell)]
        mantissas = [re.sub(r"e.*|\D", "", cell).lstrip("0") for cell in digits]
        assert max(map(len, mantissas)) <= CSV_SIGNIFICANT_DIGITS + 1  # a trailing .0's zero
        read = read_table(results / name, next(t.name for t in TABLES if t.file == name))
        for column in table.select_dtypes("float").columns:
            assert np.allclose(read[column], table[column], rtol=1e-9, atol=0, equal_nan=True)


def test_a_summary_with_the_former_name_is_still_compared() -> None:
    published = load_published(shipped_file("published/runarsson_merelo_2009_table2.csv"))
    old = pd.DataFrame({"player": ["Entropy"], "mean": [4.401]})
    with pytest.warns(DeprecationWarning, match="the summary compared has the former column"):
        comparison = compare_with_published(old, published)
    assert comparison["label"].tolist() == ["Entropy"]


def test_results_frame_keeps_the_former_names_of_its_table_only() -> None:
    frame = results_frame(pd.DataFrame({"label": ["A"], "mean": [4.0]}), "intervals")
    with pytest.raises(KeyError):
        frame["player"]

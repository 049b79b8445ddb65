import math
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from evo_mastermind.analysis.published import (
    ABOVE,
    BELOW,
    COMPARISON_COLUMNS,
    INSIDE,
    PUBLISHED_COLUMNS,
    UNPUBLISHED,
    compare_with_published,
    load_published,
    published_sections,
    unreproduced,
    verdict,
)
from evo_mastermind.analysis.results import AnalysisError
from evo_mastermind.studies import FOLDER

EXPERIMENTS = FOLDER / "published"
TABLES = {
    number: EXPERIMENTS / f"runarsson_merelo_2009_table{number}.csv" for number in range(2, 7)
}


@pytest.mark.parametrize("number", sorted(TABLES))
def test_published_tables_load_and_are_consistent(number: int) -> None:
    table = load_published(TABLES[number])
    assert list(table.columns) == list(PUBLISHED_COLUMNS)
    assert (table["min"] <= table["median"]).all() and (table["median"] <= table["max"]).all()
    assert (table["min"] <= table["mean"]).all() and (table["mean"] <= table["max"]).all()
    assert table["sd"].between(0.005, 0.05).all()
    assert table["mean"].between(4.3, 4.7).all()


def records(number: int) -> dict[str, dict[str, Any]]:
    table = load_published(TABLES[number])
    return {
        str(row["label"]): {str(k): v for k, v in row.items()} for row in table.to_dict("records")
    }


def test_published_spot_values() -> None:
    tables = {number: records(number) for number in TABLES}
    assert list(tables[2]) == [
        "Entropy",
        "Most parts",
        "Expected size",
        "Worst case",
        "Random",
    ]
    assert tables[2]["Entropy"]["mean"] == 4.408
    assert tables[2]["Random"]["max_guesses"] == 8
    assert tables[3]["EDA + f"]["max"] == 4.665
    assert tables[3]["EDA + f_l"]["median"] == 4.580
    assert tables[3]["LocalEntropy"]["min"] == 4.529
    assert tables[4]["Worst case mu=10"]["max"] == 4.519
    assert tables[4]["Most parts mu=20"]["section"] == "mu=20"
    assert len(tables[4]) == 20
    assert tables[6]["Most parts mu=20"]["sd"] == 0.009
    assert math.isnan(tables[5]["Entropy mu=10"]["max_guesses"])
    assert tables[2]["Entropy"]["section"] == ""


def test_tables_agree_where_the_paper_repeats_a_row() -> None:
    tables = {number: records(number) for number in TABLES}

    def figures(number: int, label: str) -> list[float]:
        return [tables[number][label][f] for f in ("min", "mean", "median", "max", "sd")]

    assert all(tables[3][label] == row for label, row in tables[2].items())
    for number, strategy in ((5, "Entropy"), (6, "Most parts")):
        for mu in (10, 20, 30, 40, 50):
            label = f"{strategy} mu={mu}"
            assert figures(number, label) == figures(4, label)
        assert figures(number, f"{strategy} mu=inf") == figures(3, strategy)


def test_verdict_uses_the_published_precision() -> None:
    assert verdict(4.40, 4.383, 4.424) == INSIDE
    assert verdict(4.383, 4.383, 4.424) == INSIDE
    assert verdict(4.3826, 4.383, 4.424) == INSIDE  # shown as 4.383
    assert verdict(4.3824, 4.383, 4.424) == BELOW
    assert verdict(4.4246, 4.383, 4.424) == ABOVE


def test_comparison_joins_by_label() -> None:
    published = load_published(TABLES[2])
    summary = pd.DataFrame(
        {"label": ["Entropy", "Knuth", "Worst case"], "mean": [4.401, 4.476, 4.52]}
    )
    comparison = compare_with_published(summary, published)
    assert list(comparison.columns) == list(COMPARISON_COLUMNS)
    assert comparison["verdict"].tolist() == [INSIDE, UNPUBLISHED, ABOVE]
    worst = comparison.to_dict("records")[2]
    assert (worst["published_min"], worst["published_max"]) == (4.461, 4.506)
    assert worst["published_max_guesses"] == 6
    assert math.isnan(comparison.to_dict("records")[1]["published_mean"])
    assert unreproduced(summary, published) == ["Most parts", "Expected size", "Random"]
    assert comparison["published_label"].tolist() == ["Entropy", "", "Worst case"]


def test_a_row_compared_as_another_label_gets_that_rows_verdict() -> None:
    published = load_published(TABLES[3])
    summary = pd.DataFrame(
        {"label": ["EDA + f_l", "EDA + f_l, ABCA opening"], "mean": [4.627, 4.571]}
    )
    aliases = {"EDA + f_l, ABCA opening": "EDA + f_l"}
    comparison = compare_with_published(summary, published, aliases)
    assert comparison["verdict"].tolist() == [ABOVE, INSIDE]
    assert comparison["published_label"].tolist() == ["EDA + f_l", "EDA + f_l"]
    assert comparison["published_mean"].tolist() == [4.571, 4.571]
    only_alias = summary.iloc[1:]
    assert "EDA + f_l" not in unreproduced(only_alias, published, aliases)
    assert "EDA + f_l" in unreproduced(only_alias, published)


def write(path: Path, text: str) -> Path:
    path.write_text("label,section,min,mean,median,max,sd,max_guesses\n" + text)
    return path


def test_bad_published_tables_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(AnalysisError, match="no published table"):
        load_published(tmp_path / "missing.csv")
    bad = write(tmp_path / "bad.csv", "A,,4.4,4.5,4.45,4.49,0.01,6\n")
    with pytest.raises(AnalysisError, match="'A' has a mean or median outside"):
        load_published(bad)
    twice = write(tmp_path / "twice.csv", "A,,4.4,4.4,4.4,4.4,0.0,6\nA,,4.4,4.4,4.4,4.4,0.0,6\n")
    with pytest.raises(AnalysisError, match="'A' appears more than once"):
        load_published(twice)
    narrow = tmp_path / "narrow.csv"
    narrow.write_text("label,mean\nA,4.4\n")
    with pytest.raises(AnalysisError, match="no column 'section'"):
        load_published(narrow)


def test_published_sections_follow_the_published_order() -> None:
    sections = published_sections(load_published(TABLES[4]))
    assert len(sections) == 20
    assert list(dict.fromkeys(sections.values())) == [f"mu={mu}" for mu in (10, 20, 30, 40, 50)]
    assert sections["Worst case mu=40"] == "mu=40"
    assert published_sections(load_published(TABLES[2])) == {}
    mixed = pd.DataFrame({"label": ["A", "B", "C"], "section": ["s2", "", " s1 "]})
    assert published_sections(mixed) == {"A": "s2", "C": "s1"}
    assert published_sections(pd.DataFrame({"label": ["A"]})) == {}

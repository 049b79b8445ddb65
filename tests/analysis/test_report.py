import shutil
from pathlib import Path

import pandas as pd
import pytest

from evo_mastermind.analysis.files import write_unless_same
from evo_mastermind.analysis.markdown import SEPARATOR
from evo_mastermind.analysis.published import load_published
from evo_mastermind.analysis.report import build_report, write_report
from evo_mastermind.analysis.results import AnalysisError
from evo_mastermind.analysis.summary import SUMMARY_COLUMNS
from evo_mastermind.studies import FOLDER
from tests.analysis.synthetic import (
    STRONG,
    WEAK,
    experiment_record,
    fixed_games,
    make_games,
    write_results,
)

TABLE2 = FOLDER / "published" / "runarsson_merelo_2009_table2.csv"
# Guess counts whose run means sit inside (Entropy) and above (Random) Table 2's ranges.
INSIDE_ENTROPY = [[4] * 600 + [5] * 400] * 2  # mean 4.400
ABOVE_RANDOM = [[4] * 300 + [5] * 700] * 2  # mean 4.700


def table_rows(markdown: str) -> list[list[str]]:
    """The rows of the report's first table (the paper's)."""
    lines = markdown.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("| ")), len(lines))
    end = next((i for i in range(start, len(lines)) if not lines[i].startswith("| ")), len(lines))
    return [
        [cell.strip() for cell in line.strip("|").split("|")] for line in lines[start + 2 : end]
    ]


def test_report_has_the_paper_table_groups_letters_and_verdicts() -> None:
    games = fixed_games(
        {"Random": ABOVE_RANDOM, "Entropy": INSIDE_ENTROPY, "Knuth": INSIDE_ENTROPY}
    )
    experiment = experiment_record(games, name="Table 2 again")
    report = build_report(games, experiment, load_published(TABLE2), "experiments/t2.csv")
    markdown = report.markdown
    assert markdown.startswith("# Table 2 again: (4,6)\n")
    rows = table_rows(markdown)
    assert [row[0] for row in rows] == ["Entropy", "Knuth", SEPARATOR, "Random"]
    entropy, knuth, _, random = rows
    assert entropy[1:9] == ["2", "4.400", "4.400", "4.400", "4.400", "0.000", "5", "a"]
    assert entropy[9:] == ["4.408", "4.383–4.424", "inside the published range"]
    assert knuth[8:] == ["a", "", "", "no published row"]
    assert random[8:] == ["b", "4.608", "4.566–4.646", "outside: above the published range"]
    assert "on the per-game guess counts, α = 0.05, no multiple-test correction" in markdown
    assert "- The lines agree with every pairwise test." in markdown
    assert "**Random** is outside the published range: mean 4.700 is above 4.566–4.646" in markdown
    assert "- Not in the published table: Knuth." in markdown
    assert "Published but not played here: Most parts, Expected size, Worst case." in markdown
    assert report.by_size is None


def test_report_states_when_every_row_is_inside_and_lists_exceptions() -> None:
    games = fixed_games(
        {
            "Entropy": [[4] * 600 + [5] * 400],
            "Most parts": [[4] * 560 + [5] * 440],
            "Worst case": [[4] * 520 + [5] * 480],
        }
    )
    experiment = experiment_record(games, test_on="runs", holm=True, alpha=0.1)
    published = pd.DataFrame(
        {
            "label": ["Entropy", "Most parts", "Worst case"],
            "min": [4.3, 4.4, 4.45],
            "mean": [4.4, 4.44, 4.48],
            "max": [4.5, 4.5, 4.5],
            "max_guesses": [6, 7, 7],
        }
    )
    markdown = build_report(games, experiment, published).markdown
    assert "Every reproduced row is inside the published range of run means." in markdown
    assert "on the per-run mean guesses, α = 0.1, Holm's correction over the pairs" in markdown
    assert "- The lines agree with every pairwise test." in markdown
    chain = build_report(games, experiment_record(games), rule="chain").markdown
    assert "a line separates neighbouring rows that differ" in chain
    assert "- Entropy and Worst case differ significantly, though in one group." in chain
    header = next(line for line in chain.splitlines() if line.startswith("| Strategy"))
    assert "published" not in header and header.endswith("| letters |")


def test_several_game_sizes_get_a_section_each_and_a_size_table() -> None:
    small = make_games({"A": STRONG, "B": WEAK}, runs=2, games_per_run=40)
    large = make_games({"A": WEAK}, runs=2, games_per_run=40, pegs=5, colors=8)
    games = pd.concat([small, large], ignore_index=True)
    report = build_report(games, experiment_record(games, name="scaling"))
    assert report.markdown.startswith("# scaling: (4,6), (5,8)")
    assert "## (4,6), secrets: full" in report.markdown
    assert "## (5,8), secrets: full" in report.markdown
    assert "## By game size" in report.markdown
    assert report.by_size is not None and len(report.by_size) == 3
    assert "| A | 5 | 8 | full | 80 |" in report.markdown


def test_write_report_writes_every_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pyproject.toml").touch()
    (tmp_path / "experiments").mkdir()
    shutil.copy(TABLE2, tmp_path / "experiments" / "runarsson_merelo_2009_table2.csv")
    games = make_games({"Entropy": STRONG, "Most parts": STRONG, "Random": WEAK}, runs=3)
    experiment = experiment_record(
        games, compare_with="experiments/runarsson_merelo_2009_table2.csv"
    )
    results = write_results(tmp_path / "results" / "table2", games, experiment)
    monkeypatch.chdir(tmp_path.parent)  # the root comes from the results folder, not the cwd
    (results / "by_size.csv").write_text("left by an earlier analysis")
    markdown = write_report(results)
    assert (results / "report.md").read_text() == markdown
    assert "experiments/runarsson_merelo_2009_table2.csv" in markdown
    summary = pd.read_csv(results / "summary.csv")
    assert list(summary.columns[:8]) == list(SUMMARY_COLUMNS)
    assert set(summary["label"]) == {"Entropy", "Most parts", "Random"}
    tests = pd.read_csv(results / "wilcoxon.csv")
    assert len(tests) == 3
    columns = {"label_a", "label_b", "statistic", "p", "p_adjusted", "significant"}
    assert columns <= set(tests.columns)
    assert not (results / "by_size.csv").exists()


def test_write_report_for_several_sizes_and_without_published_table(tmp_path: Path) -> None:
    small = make_games({"A": STRONG}, runs=2, games_per_run=20)
    large = make_games({"A": WEAK}, runs=2, games_per_run=20, pegs=5, colors=8)
    games = pd.concat([small, large], ignore_index=True)
    results = write_results(tmp_path / "scaling", games, experiment_record(games))
    markdown = write_report(results)
    assert "verdict" not in markdown
    assert len(pd.read_csv(results / "by_size.csv")) == 2


def test_write_report_errors_name_the_problem(tmp_path: Path) -> None:
    games = make_games({"A": STRONG}, runs=1, games_per_run=5)
    experiment = experiment_record(games, compare_with="experiments/nowhere.csv")
    results = write_results(tmp_path / "r", games, experiment)
    (tmp_path / "pyproject.toml").touch()
    with pytest.raises(AnalysisError, match=r"no published table at .*nowhere\.csv"):
        write_report(results)


TABLE4 = TABLE2.with_name("runarsson_merelo_2009_table4.csv")
# Guess counts for mean 4.45 and 4.42 (1000 games a run, two runs).
MIDDLE = [[4] * 550 + [5] * 450] * 2
NEAR_BEST = [[4] * 580 + [5] * 420] * 2


def sectioned_games() -> pd.DataFrame:
    """Entropy and Worst case at μ = 10 (far apart), two equal μ = 20 rows, two unpublished."""
    return fixed_games(
        {
            "Entropy mu=10": INSIDE_ENTROPY,
            "Worst case mu=10": ABOVE_RANDOM,
            "Entropy mu=20": MIDDLE,
            "Most parts mu=20": MIDDLE,
            "Knuth": NEAR_BEST,
            "Random": NEAR_BEST,
        }
    )


def section_of(markdown: str) -> dict[str, list[list[str]]]:
    """Each ``## `` heading's table rows, up to the effect sizes and intervals."""
    found: dict[str, list[list[str]]] = {}
    for part in markdown.split("\n## ")[1:]:
        heading, _, body = part.partition("\n")
        if heading.startswith(("Mean guesses with bootstrap", "Effect sizes")):
            break
        found[heading] = table_rows(body)
    return found


def test_a_sectioned_table_is_ranked_grouped_and_tested_within_each_section() -> None:
    games = sectioned_games()
    # The published order, not the order of our means, sets the order of the sections.
    published = load_published(TABLE4)
    published = pd.concat([published.iloc[4:8], published.iloc[:4]], ignore_index=True)
    report = build_report(games, experiment_record(games, name="t4"), published, "t4.csv")
    markdown = report.markdown
    assert "rows are split into its sections (matched by label" in markdown
    sections = section_of(markdown)
    assert list(sections) == [
        "Section mu=20",
        "Section mu=10",
        "In no published section",
        "Against the published table",
    ]
    names = {heading: [row[0] for row in rows] for heading, rows in sections.items()}
    assert names["Section mu=20"] == ["Entropy mu=20", "Most parts mu=20"]
    assert names["Section mu=10"] == ["Entropy mu=10", SEPARATOR, "Worst case mu=10"]
    assert names["In no published section"] == ["Knuth", "Random"]
    letters = {row[0]: row[8] for rows in sections.values() for row in rows if row[0] != SEPARATOR}
    assert letters == {
        "Entropy mu=20": "a",
        "Most parts mu=20": "a",
        "Entropy mu=10": "a",  # letters restart in every section
        "Worst case mu=10": "b",
        "Knuth": "a",
        "Random": "a",
    }
    # Across sections Entropy mu=10 and Entropy mu=20 differ, yet no section mentions it.
    assert markdown.count("- The lines agree with every pairwise test.") == 3
    assert "Entropy mu=10 and Entropy mu=20" not in markdown
    assert "- Not in the published table: Knuth, Random." in markdown
    assert "Published but not played here: Expected size mu=20, Worst case mu=20, Most" in markdown
    assert report.summary["label"].tolist() == [
        "Entropy mu=20",
        "Most parts mu=20",
        "Entropy mu=10",
        "Worst case mu=10",
        "Knuth",
        "Random",
    ]
    assert report.summary["section"].tolist() == ["mu=20"] * 2 + ["mu=10"] * 2 + [""] * 2
    tests = report.tests
    assert len(tests) == 15  # every pair of the experiment is kept
    assert tests["section"].value_counts().to_dict() == {
        "(across sections)": 12,
        "mu=20": 1,
        "mu=10": 1,
        "": 1,
    }
    across = tests[(tests["label_a"] == "Entropy mu=10") & (tests["label_b"] == "Entropy mu=20")]
    assert across["significant"].tolist() == [True]


def test_sections_nobody_played_leave_the_plain_format() -> None:
    games = fixed_games({"Entropy": INSIDE_ENTROPY, "Random": ABOVE_RANDOM})
    report = build_report(games, experiment_record(games), load_published(TABLE4))
    assert "## Section" not in report.markdown
    assert "Rows are ranked by mean;" in report.markdown
    assert (report.tests["section"] == "").all()


def test_holm_is_per_section_and_the_method_says_so() -> None:
    games = sectioned_games()
    experiment = experiment_record(games, holm=True)
    report = build_report(games, experiment, load_published(TABLE4))
    assert "Holm's correction over the pairs of each section" in report.markdown
    mu20 = report.tests[report.tests["section"] == "mu=20"]
    assert mu20["p_adjusted"].tolist() == mu20["p"].tolist()
    plain = build_report(games, experiment)
    assert "Holm's correction over the pairs of each table" in plain.markdown


def test_write_report_keeps_the_section_of_every_pair(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").touch()
    (tmp_path / "experiments").mkdir()
    shutil.copy(TABLE4, tmp_path / "experiments" / "runarsson_merelo_2009_table4.csv")
    games = sectioned_games()
    experiment = experiment_record(
        games, compare_with="experiments/runarsson_merelo_2009_table4.csv"
    )
    results = write_results(tmp_path / "results" / "table4", games, experiment)
    markdown = write_report(results)
    assert markdown.index("## Section mu=10") < markdown.index("## Section mu=20")
    tests = pd.read_csv(results / "wilcoxon.csv", keep_default_na=False)
    assert len(tests) == 15
    assert set(tests["section"]) == {"mu=10", "mu=20", "", "(across sections)"}
    summary = pd.read_csv(results / "summary.csv", keep_default_na=False)
    assert summary["section"].tolist() == ["mu=10"] * 2 + ["mu=20"] * 2 + [""] * 2


def test_a_rerun_of_the_same_games_leaves_every_file_untouched(tmp_path: Path) -> None:
    games = make_games({"Entropy": STRONG, "Random": WEAK}, runs=2, games_per_run=30)
    results = write_results(tmp_path / "run", games, experiment_record(games))
    write_report(results)
    written = {path.name: path.read_bytes() for path in results.glob("*.*")}
    slower = games.assign(seconds=games["seconds"] * 3, player_seconds=games["player_seconds"] + 1)
    shutil.rmtree(results / "games")
    write_results(results, slower, experiment_record(slower))
    write_report(results)
    assert {path.name: path.read_bytes() for path in results.glob("*.*")} == written
    # Other games: the files say so.
    worse = games.assign(n_guesses=games["n_guesses"] + 1)
    shutil.rmtree(results / "games")
    write_results(results, worse, experiment_record(worse))
    write_report(results)
    assert (results / "summary.csv").read_bytes() != written["summary.csv"]
    assert (results / "report.md").read_bytes() != written["report.md"]


def test_timing_columns_of_markdown_tables_are_ignored_too(tmp_path: Path) -> None:
    path = tmp_path / "report.md"
    path.write_text("# T\n\n| label | mean_ms | wins |\n|---|---|---|\n| A | 1.5 | 3 |\n")
    write_unless_same(path, "# T\n\n| label | mean_ms | wins |\n|---|---|---|\n| A | 9.0 | 3 |\n")
    assert "1.5" in path.read_text()
    write_unless_same(path, "# T\n\n| label | mean_ms | wins |\n|---|---|---|\n| A | 9.0 | 4 |\n")
    assert "| A | 9.0 | 4 |" in path.read_text()


def test_a_row_compared_as_a_published_label_gets_its_verdict_and_a_note() -> None:
    games = fixed_games({"Entropy": INSIDE_ENTROPY, "Entropy, ABCD opening": ABOVE_RANDOM})
    experiment = experiment_record(games, compare_as={"Entropy, ABCD opening": "Entropy"})
    markdown = build_report(games, experiment, load_published(TABLE2), "t2.csv").markdown
    rows = {row[0]: row for row in table_rows(markdown)}
    assert rows["Entropy, ABCD opening"][9:] == [
        "4.408",
        "4.383–4.424",
        "outside: above the published range",
    ]
    assert (
        "**Entropy, ABCD opening** is outside the published range of Entropy: mean 4.700"
        in markdown
    )
    assert "- **Entropy, ABCD opening** is held against the published row Entropy." in markdown
    assert "Published but not played here: Most parts, Expected size, Worst case, Random." in (
        markdown
    )

"""``evo-mastermind reproduce``: the paper's tables played, reported, plotted and judged."""

from pathlib import Path

import pytest

from evo_mastermind.cli import main
from evo_mastermind.studies import StudyError
from evo_mastermind.studies.reproduce import paper_tables


def test_tables_are_named_in_any_of_three_ways_and_played_in_the_papers_order() -> None:
    assert paper_tables([]) == ["table2", "table3", "table4", "table5", "table6"]
    assert paper_tables(["paper/table5", "3", "table2"]) == ["table2", "table3", "table5"]
    with pytest.raises(StudyError, match="'table7' is not one of the paper's tables"):
        paper_tables(["table7"])


def test_reproduce_plays_reports_plots_and_judges_one_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # an empty folder: nothing of a clone is needed
    # One run of the ten: the figures move a little, the machinery is the same.
    arguments = ["reproduce", "table2", "--runs", "1", "--executor", "serial", "--no-progress"]
    assert main(arguments) == 0
    out = capsys.readouterr().out.splitlines()
    folder = Path("results/paper/table2")
    assert out[0].startswith("table2: 6,480 games played in ")
    assert out[0].endswith(f"report and plots in {folder}")
    rows = {line.split("  ")[1].strip(): line for line in out[1:6]}
    assert set(rows) == {"Entropy", "Most parts", "Expected size", "Worst case", "Random"}
    assert "published 4.408 (4.383–4.424)" in rows["Entropy"]
    assert all("inside the published range" in r or "outside" in r for r in rows.values())
    assert out[-1].split(" ", 1)[1].startswith("of 5 published rows reproduced inside")
    for written in ("report.md", "summary.csv", "wilcoxon.csv", "plots/distribution.png"):
        assert (folder / written).is_file(), written
    assert not (folder / "plots" / "evaluations.png").exists()  # no player counts them
    assert "published/runarsson_merelo_2009_table2.csv" in (folder / "report.md").read_text()

    # Again: every game is already there, so nothing is played and the verdicts are the same.
    assert main(arguments) == 0
    again = capsys.readouterr().out.splitlines()
    assert again[0].startswith("table2: 0 games played (6,480 already done)")
    assert again[1:] == out[1:]


def test_bad_options_are_one_line_before_any_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["reproduce", "table9"]) == 2
    assert "'table9' is not one of the paper's tables" in capsys.readouterr().err
    assert main(["reproduce", "--workers", "0"]) == 2
    assert "--workers must be at least 1" in capsys.readouterr().err
    assert not Path("results").exists()

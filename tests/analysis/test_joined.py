"""Several results directories in one analysis, and the pairings refused."""

from pathlib import Path

import pytest

from evo_mastermind.analysis.analysis import Analysis
from evo_mastermind.analysis.joined import join_results
from evo_mastermind.analysis.results import AnalysisError
from tests.analysis.synthetic import STRONG, WEAK, experiment_record, make_games, write_results


def _directory(tmp_path: Path, name: str, label: str, **record: object) -> Path:
    pegs = int(record.pop("pegs", 4))  # type: ignore[call-overload]
    games = make_games({label: STRONG if label < "M" else WEAK}, runs=2, games_per_run=20)
    games["pegs"] = pegs
    fields = {"secrets": ["full"], **record}
    return write_results(tmp_path / name, games, experiment_record(games, name=name, **fields))


def test_two_directories_are_analysed_as_one(tmp_path: Path) -> None:
    first = _directory(tmp_path, "baselines", "Entropy")
    second = _directory(tmp_path, "new", "Random")
    games, record = join_results([first, second])
    assert record.name == "baselines+new" and record.labels() == ["Entropy", "Random"]
    tests = Analysis(games, record).tests
    assert tests[["label_a", "label_b"]].values.tolist() == [["Entropy", "Random"]]
    assert len(games) == 80


def test_what_cannot_be_paired_is_refused_in_one_line(tmp_path: Path) -> None:
    first = _directory(tmp_path, "a", "Entropy", seed=1, secrets=["sample"])
    other_seed = _directory(tmp_path, "b", "Random", seed=2, secrets=["sample"])
    with pytest.raises(AnalysisError, match=r"^cannot pair .*b with .*a: secrets sample drawn "):
        join_results([first, other_seed])
    other_size = _directory(tmp_path, "c", "Random", pegs=5, seed=1, secrets=["sample"])
    with pytest.raises(AnalysisError, match=r"games of \(5, 6\), not \(4, 6\)$"):
        join_results([first, other_size])
    same_label = _directory(tmp_path, "d", "Entropy", seed=1, secrets=["sample"])
    with pytest.raises(AnalysisError, match="label 'Entropy' is played in both"):
        join_results([first, same_label])
    with pytest.raises(AnalysisError, match="at least two"):
        join_results([first])


def test_load_joins_directories_and_will_not_write_into_either(tmp_path: Path) -> None:
    import evo_mastermind

    first = _directory(tmp_path, "baselines", "Entropy")
    second = _directory(tmp_path, "new", "Random")
    results = evo_mastermind.load([first, second])
    assert results.joined == (first, second)
    assert results.summary()["label"].tolist() == ["Entropy", "Random"]
    assert "# baselines+new" in results.report()
    with pytest.raises(AnalysisError, match="joins 2 results directories and has none"):
        results.write_report()
    assert not (first / "report.md").exists()
    table = "evo_mastermind/studies/published/runarsson_merelo_2009_table2.csv"
    compared = _directory(tmp_path, "compared", "Knuth", compare_with=table)
    with pytest.warns(UserWarning, match=rf"\(none\); {compared} names .*table2.csv; list"):
        evo_mastermind.load([first, compared])


def test_the_report_command_writes_a_joint_report_into_a_new_out_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from evo_mastermind.cli import main

    first = _directory(tmp_path, "baselines", "Entropy")
    second = _directory(tmp_path, "new", "Random")
    assert main(["report", str(first), str(second), "--out", str(tmp_path / "joint")]) == 0
    assert "# baselines+new" in (tmp_path / "joint" / "report.md").read_text()
    assert not (first / "report.md").exists() and not (second / "report.md").exists()
    capsys.readouterr()
    assert main(["report", str(first), str(second)]) != 0
    assert "needs --out DIR" in capsys.readouterr().err
    assert main(["report", str(first), str(second), "--out", str(tmp_path / "joint")]) != 0
    assert "is not an empty directory" in capsys.readouterr().err
    table = "evo_mastermind/studies/published/runarsson_merelo_2009_table2.csv"
    compared = _directory(tmp_path, "compared", "Knuth", compare_with=table)
    assert main(["report", str(first), str(compared), "--out", str(tmp_path / "y")]) == 0
    (note,) = [line for line in capsys.readouterr().err.splitlines() if line.startswith("note")]
    assert note.endswith(f"{compared} names {table}; --compare-with FILE names another")
    other = _directory(tmp_path, "other", "Random", pegs=5)
    assert main(["report", str(first), str(other), "--out", str(tmp_path / "x")]) != 0
    error = capsys.readouterr().err
    assert "cannot pair" in error and len(error.strip().splitlines()) == 1

"""The command line's ``--version``, ``studies`` and ``run`` of a shipped study by name."""

import re
from importlib.metadata import version
from pathlib import Path

import pytest

from evo_mastermind.cli import main
from evo_mastermind.studies import study_names, study_path


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--version"])
    assert stopped.value.code == 0
    printed = capsys.readouterr().out.strip()
    assert printed == f"evo-mastermind {version('evo_mastermind')}"
    assert re.fullmatch(r"evo-mastermind \d+\.\d+\.\d+\S*", printed)


def test_studies_lists_every_study_and_published_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["studies"]) == 0
    out = capsys.readouterr().out
    listed = [line.split()[0] for line in out.splitlines() if line and line[0] != " "]
    assert [name for name in listed if "/" in name] == study_names()
    assert "  published/runarsson_merelo_2009_table2.csv" in out.splitlines()
    table2 = next(line for line in out.splitlines() if line.startswith("paper/table2 "))
    assert "Table 2" in table2 and "[compared with published/" in table2


def test_studies_show_and_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["studies", "show", "tournament/fbi_8x10"]) == 0
    assert capsys.readouterr().out == study_path("tournament/fbi_8x10").read_text()
    monkeypatch.chdir(tmp_path)
    assert main(["studies", "copy", "paper/table4"]) == 0
    assert "copied paper/table4 to table4.yaml" in capsys.readouterr().out
    assert Path("table4.yaml").read_text() == study_path("paper/table4").read_text()
    assert main(["studies", "copy", "paper/table4"]) == 2
    assert "table4.yaml already exists" in capsys.readouterr().err
    assert main(["studies", "copy", "paper/table4", "--force"]) == 0
    assert main(["studies", "show", "paper/tabel4"]) == 2
    assert "did you mean 'paper/table4'" in capsys.readouterr().err


def test_run_takes_a_study_by_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    arguments = ["run", "paper/table2", "--runs", "1", "--executor", "serial", "--no-progress"]
    assert main(arguments) == 0
    out = capsys.readouterr().out
    assert "Compared with the published table `published/runarsson_merelo_2009_table2.csv`" in out
    assert out.splitlines()[-1].startswith("table2: 6480 games played in ")
    assert (tmp_path / "results" / "table2" / "report.md").is_file()


def test_an_unknown_study_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "scaling/9x9"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("evo-mastermind: error: scaling/9x9: no such file, nor a shipped study")
    assert len(err.splitlines()) == 1

"""``run --quiet`` and ``run --sample N``."""

import json
from pathlib import Path

import pytest

import evo_mastermind as em
from evo_mastermind.cli import main
from evo_mastermind.messages import QUIET_VARIABLE, notify, silenced


def config(tmp_path: Path, secrets: str = "full") -> Path:
    path = tmp_path / "exp.yaml"
    path.write_text(
        f"name: exp\ngame: {{pegs: 3, colors: 3}}\nsecrets: {secrets}\nruns: 1\n"
        "players:\n  - {label: Knuth, player: knuth}\n  - {label: Random, player: random}\n"
    )
    return path


def test_quiet_prints_nothing_and_still_writes_the_results(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    status = main(
        ["run", str(config(tmp_path)), "--out", str(out), "--quiet", "--executor", "serial"]
    )
    stdout, stderr = capsys.readouterr()
    assert status == 0 and stdout == "" and stderr == ""
    assert (out / "report.md").is_file() and len(em.load(out).games) == 2 * 27


def test_quiet_errors_are_still_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["run", str(tmp_path / "none.yaml"), "--quiet"])
    _, stderr = capsys.readouterr()
    assert status == 2 and len(stderr.strip().splitlines()) == 1 and "none.yaml" in stderr


def test_a_quiet_run_silences_its_notices_and_restores_the_setting(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(QUIET_VARIABLE, raising=False)
    with silenced():
        notify("not said")
    notify("said")
    with silenced(False):
        notify("said too")
    assert capsys.readouterr().err.splitlines() == [
        "evo-mastermind: said",
        "evo-mastermind: said too",
    ]


def test_sample_replaces_the_secrets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    args = ["run", str(config(tmp_path)), "--out", str(out), "--executor", "serial"]
    status = main([*args, "--sample", "5", "--no-progress"])
    stdout, _ = capsys.readouterr()
    assert status == 0 and "10 games played" in stdout
    games = em.load(out).games
    assert (
        set(games["secrets"]) == {"sample"}
        and games.groupby("label")["secret"].nunique().eq(5).all()
    )
    record = json.loads((out / "experiment.json").read_text())
    assert "sample" in json.dumps(record["secrets"])
    # The same sample as the config that says so itself.
    said = tmp_path / "said"
    said.mkdir()
    em.run(config(said, "{sample: 5}"), out=said / "out", executor="serial", quiet=True)
    assert sorted(em.load(said / "out").games["secret"]) == sorted(games["secret"])


@pytest.mark.parametrize("value", ["0", "-3"])
def test_a_sample_below_one_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    status = main(["run", str(config(tmp_path)), "--out", str(tmp_path / "o"), "--sample", value])
    _, stderr = capsys.readouterr()
    expected = f"--sample must be a whole number of secrets, at least 1, got {value}"
    assert status == 2 and stderr.strip() == f"evo-mastermind: error: {expected}"
    assert not (tmp_path / "o").exists()


def test_python_callers_get_python_words(tmp_path: Path) -> None:
    with pytest.raises(em.InvalidGameError, match=r"^sample must be a whole number"):
        em.run(config(tmp_path), out=tmp_path / "o", sample=0)

"""The getting-started page's "Use it from Python" and "Install from a wheel" run as written."""

import os
import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "getting-started.md"


def section_block(heading: str, language: str) -> str:
    """The first ``language`` code block under the ``## heading`` of the page."""
    text = PAGE.read_text()
    section = text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    found = re.search(rf"```{language}\n(.*?)```", section, flags=re.DOTALL)
    assert found, f"no {language} block under '{heading}'"
    return found.group(1)


def test_the_python_section_runs_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    code = section_block("Use it from Python", "python")
    exec(compile(code, str(PAGE), "exec"), {"__name__": "getting_started"})
    printed = capsys.readouterr().out
    assert "inside the published range" in printed and "Knuth" in printed
    assert (tmp_path / "cumulative.png").stat().st_size > 0
    assert (tmp_path / "results" / "table2-quick" / "experiment.json").is_file()
    assert printed.count("# entropy-or-knuth") == 1  # the report's title


@pytest.mark.slow
def test_the_wheel_installs_and_reproduces_table2_from_an_empty_folder(tmp_path: Path) -> None:
    # The page's lines with its /tmp/ paths moved under tmp_path; `python` is this venv's.
    script = section_block("Install from a wheel", "sh").replace("/tmp/", f"{tmp_path}/")
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=ROOT,
        env={**os.environ, "PATH": path},
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert f"evo-mastermind {version('evo_mastermind')}" in lines
    assert any(line.startswith("table2: 64,800 games played in ") for line in lines)
    assert "  Entropy        4.402  published 4.408 (4.383–4.424)  inside the published range" in (
        lines
    )
    assert lines[-1].startswith("4 of 5 published rows reproduced inside the published range")
    table2 = tmp_path / "anywhere" / "results" / "paper" / "table2"
    assert (table2 / "report.md").is_file() and (table2 / "plots" / "distribution.png").is_file()
    # The installed package was used, not this clone's source.
    where = "import evo_mastermind; print(evo_mastermind.__file__)"
    python = tmp_path / "mm" / "bin" / "python"
    found = subprocess.run(
        [python, "-c", where], capture_output=True, text=True, check=True, cwd=tmp_path
    )
    assert found.stdout.startswith(str(tmp_path / "mm"))

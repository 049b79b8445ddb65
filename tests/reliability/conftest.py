"""Helpers of the reliability battery: run the CLI in-process, check one-line failures."""

import hashlib
import re
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from evo_mastermind.cli import main

SMALL: dict[str, object] = {
    "name": "small",
    "game": {"pegs": 3, "colors": 3},
    "runs": 2,
    "seed": 5,
    "batch_games": 9,
    "players": [
        {"label": "Entropy", "player": "entropy"},
        {"label": "Parts", "player": "most_parts"},
    ],
}
"""A config of 2 x 2 x 27 games, played serially in well under a second."""

Cli = Callable[..., tuple[int, str, str]]
Failure = Callable[..., str]


def snapshot(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` (hidden ones too) with a hash of its bytes."""
    if not folder.exists():
        return {}
    return {
        str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def write_yaml(path: Path, **changes: object) -> Path:
    """SMALL with top-level keys replaced, written to ``path``."""
    config = {**SMALL, **changes}
    path.write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True))
    return path


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Cli:
    """Run ``evo-mastermind ARGS`` in this process: (status, stdout, stderr)."""

    def run(*args: str) -> tuple[int, str, str]:
        status = main([str(arg) for arg in args])
        out, err = capsys.readouterr()
        return status, out, err

    return run


@pytest.fixture
def fails(cli: Cli) -> Failure:
    """Run the CLI and assert one clean line on stderr matching ``pattern`` and the status."""

    def check(*args: str, pattern: str, status: int = 2) -> str:
        code, _, err = cli(*args)
        assert code == status, err
        assert "Traceback" not in err
        assert err.endswith("\n") and err.count("\n") == 1, err
        assert len(err) < 600, err
        assert re.search(pattern, err), err
        return err

    return check


@pytest.fixture
def played(tmp_path: Path, cli: Cli) -> Path:
    """A results directory of SMALL, fully played serially (several shards)."""
    config = write_yaml(tmp_path / "small.yaml")
    out = tmp_path / "out"
    status, _, err = cli("run", config, "--out", out, "--executor", "serial", "--no-progress")
    assert status == 0, err
    return out

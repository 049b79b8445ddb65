import json
from pathlib import Path

import pytest

from evo_mastermind.runner.storage import MARKER_NAME, ResultsDir, ResultsError


def test_one_lock_holder_at_a_time(tmp_path: Path) -> None:
    results = ResultsDir(tmp_path / "out")
    busy = r"being written by another run \(process \d+"
    with results.lock(), pytest.raises(ResultsError, match=busy), ResultsDir(results.path).lock():
        pass
    with results.lock():  # released on exit
        pass


def test_a_stale_lock_is_taken_over_and_said(tmp_path: Path) -> None:
    results = ResultsDir(tmp_path)
    stale = {"pid": 999_999_999, "host": "elsewhere", "started": "yesterday"}
    results.lock_path.write_text(json.dumps(stale))
    said: list[str] = []
    with results.lock(said.append):
        pass
    assert said == [
        f"took over the lock of {tmp_path} left by a stopped run (process "
        "999999999 on elsewhere, started yesterday)"
    ]


def test_ownership_and_clear(tmp_path: Path) -> None:
    results = ResultsDir(tmp_path)
    (tmp_path / "mine.txt").write_text("x")
    assert not results.owned()
    with pytest.raises(ResultsError, match="not one"):
        results.clear()
    results.write_manifest({"name": "x", "fingerprint": "f"}, "name: x\n")
    assert (tmp_path / MARKER_NAME).is_file() and results.owned()
    results.clear()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([MARKER_NAME, "mine.txt"])

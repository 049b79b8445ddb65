"""The first compilation on a machine is announced before it starts."""

import sys
from pathlib import Path

import pytest

from evo_mastermind.kernels import startup


def _kernel(value: int) -> int:
    print("kernel ran", file=sys.stderr)
    return value + 1


def test_an_uncached_kernel_is_announced_before_it_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(startup, "CACHE", tmp_path)
    monkeypatch.setattr(startup, "_ANNOUNCED", [])
    monkeypatch.setattr(startup, "_CALLED", set())
    assert startup.call(_kernel, 1) == 2
    assert startup.call(_kernel, 2) == 3
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].startswith("evo_mastermind: compiling the exhaustive players' kernels")
    assert lines[1:] == ["kernel ran", "kernel ran"]  # announced once, before the first call


def test_a_cached_kernel_is_not_announced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "module._kernel-11.py311.nbi").write_bytes(b"")
    monkeypatch.setattr(startup, "CACHE", tmp_path)
    monkeypatch.setattr(startup, "_ANNOUNCED", [])
    monkeypatch.setattr(startup, "_CALLED", set())
    startup.call(_kernel, 1)
    assert capsys.readouterr().err.splitlines() == ["kernel ran"]

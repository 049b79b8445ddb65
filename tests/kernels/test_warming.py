"""Compiling every kernel ahead of use."""

from pathlib import Path

import pytest

from evo_mastermind import kernels


def test_warm_is_quiet_once_compiled(capsys: pytest.CaptureFixture[str]) -> None:
    kernels.warm()
    kernels.warm()
    assert capsys.readouterr().err.count("compiled") <= 1


def test_the_package_loads_no_compiler_until_a_kernel_is_asked_for() -> None:
    import subprocess
    import sys

    code = (
        "import sys, evo_mastermind.kernels, evo_mastermind.partitions; "
        "print('numba' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_an_edited_kernel_module_drops_every_cached_kernel(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from evo_mastermind.kernels import startup

    (tmp_path / "scoring.py").write_text("x = 1\n")
    cache = tmp_path / "__pycache__"
    cache.mkdir()
    kept = cache / "scoring.cpython-311.pyc"
    kept.write_text("")
    for attribute, value in {
        "PACKAGE": tmp_path,
        "CACHE": cache,
        "STAMP": cache / "kernels-sources.sha256",
    }.items():
        monkeypatch.setattr(startup, attribute, value)
    startup._drop_stale_kernels()  # the first stamp
    kernel = cache / "choosing._choose-28.py311.nbi"
    kernel.write_text("")
    startup._drop_stale_kernels()  # nothing changed: kept
    assert kernel.exists()
    (tmp_path / "scoring.py").write_text("x = 2\n")
    startup._drop_stale_kernels()  # another module's kernel depended on the old code
    assert not kernel.exists() and kept.exists()

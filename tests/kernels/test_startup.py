"""The first compilation on a machine is announced before it starts."""

import subprocess
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


def test_numba_loads_without_its_unused_extras_which_import_as_usual_afterwards() -> None:
    # A fresh process: this one may have imported them already (pytest-cov, other tests).
    script = (
        "import sys\n"
        "import evo_mastermind.kernels.startup\n"
        "from evo_mastermind.codes import CodeSpace\n"
        "from evo_mastermind.optimal.solver import OptimalSolver\n"
        "assert OptimalSolver.of(CodeSpace(3, 3)).solve().total == 73\n"
        "print(sorted(m for m in ('coverage', 'scipy.linalg', 'cffi') if m in sys.modules))\n"
        "import scipy.linalg\n"
        "print(scipy.linalg.det([[2.0]]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["[]", "2.0"]


def test_the_optimum_loads_numba_without_its_unused_extras() -> None:
    """Its modules import Numba first (imports in order): their package loads it as above."""
    script = (
        "import sys\n"
        "from evo_mastermind.optimal.solver import OptimalSolver\n"
        "from evo_mastermind.codes import CodeSpace\n"
        "assert OptimalSolver.of(CodeSpace(3, 3)).solve().total == 73\n"
        "print(sorted(m for m in ('coverage', 'scipy', 'cffi', 'yaml') if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["[]"]


def test_an_edit_beside_drops_the_cached_kernels_that_may_have_compiled_it_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kernels, optimal = tmp_path / "kernels", tmp_path / "optimal"
    for package in (kernels, optimal):
        (package / "__pycache__").mkdir(parents=True)
    (kernels / "scoring.py").write_text("x = 1\n")
    (optimal / "guesses.py").write_text("y = 1\n")
    monkeypatch.setattr(startup, "PACKAGE", kernels)
    monkeypatch.setattr(startup, "CACHE", kernels / "__pycache__")
    monkeypatch.setattr(startup, "STAMP", kernels / "__pycache__" / "kernels-sources.sha256")
    startup._drop_stale_kernels()  # the first stamps
    search = optimal / "__pycache__" / "search._search-132.py311.nbi"
    scoring = kernels / "__pycache__" / "scoring._score-20.py311.nbi"
    search.write_text("")
    scoring.write_text("")
    startup._drop_stale_kernels()  # nothing changed: kept
    assert search.exists() and scoring.exists()
    (optimal / "guesses.py").write_text("y = 2\n")  # the search compiled the old guesses in
    startup._drop_stale_kernels()
    assert not search.exists() and scoring.exists()
    search.write_text("")
    (kernels / "scoring.py").write_text("x = 2\n")  # every package's kernels may call these
    startup._drop_stale_kernels()
    assert not search.exists() and not scoring.exists()

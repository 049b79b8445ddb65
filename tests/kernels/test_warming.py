"""Compiling every kernel ahead of use."""

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

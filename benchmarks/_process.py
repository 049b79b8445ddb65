"""Timing whole processes, as a person at the terminal waits for them."""

from __future__ import annotations

import resource
import subprocess
import sys
import time
from pathlib import Path


def evo_mastermind() -> list[str]:
    """The installed console script beside this Python, else the module."""
    script = Path(sys.executable).with_name("evo-mastermind")
    return [str(script)] if script.exists() else [sys.executable, "-m", "evo_mastermind.cli"]


def time_process(
    argv: list[str], cwd: Path | None = None, env: dict[str, str] | None = None
) -> tuple[float, float, str]:
    """Wall and CPU (user + system) seconds of one whole process, and what it printed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout + done.stderr

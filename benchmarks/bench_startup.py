"""Start-up: whole ``evo-mastermind`` processes, as a person at the terminal waits for them.

Run with ``python -m benchmarks.bench_startup``. Goals from the issue, on this 2-core
machine: ``play --pegs 4 --colors 6`` (default player, secret drawn from the seed) under
0.8 s, ``--help`` under 0.5 s. Each figure is the median of the repeats; CPU is user plus
system seconds of the process. The compiled kernels must be cached first (``make`` does it).
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time
from pathlib import Path

from benchmarks._record import record

COMMANDS = {
    "play --pegs 4 --colors 6": ["play", "--pegs", "4", "--colors", "6"],
    "--help": ["--help"],
}


def command_line() -> list[str]:
    """The installed console script beside this Python, else the module."""
    script = Path(sys.executable).with_name("evo-mastermind")
    return [str(script)] if script.exists() else [sys.executable, "-m", "evo_mastermind.cli"]


def time_process(argv: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one whole process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def median(values: list[float]) -> float:
    return sorted(values)[len(values) // 2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    figures: dict[str, object] = {}
    for label, words in COMMANDS.items():
        argv = command_line() + words
        time_process(argv)  # not counted: files and compiled code come from disk once
        timings = [time_process(argv) for _ in range(args.repeats)]
        figures[f"{label}: median wall s"] = round(median([wall for wall, _ in timings]), 2)
        figures[f"{label}: median cpu s"] = round(median([cpu for _, cpu in timings]), 2)
    record("startup", figures)


if __name__ == "__main__":
    main()

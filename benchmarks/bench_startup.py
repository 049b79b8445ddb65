"""Start-up: whole ``evo-mastermind`` processes, as a person at the terminal waits for them.

Run with ``python -m benchmarks.bench_startup``. Goals from the issue, on this 2-core
machine: ``play --pegs 4 --colors 6`` (default player, secret drawn from the seed) under
0.8 s, ``--help`` under 0.5 s. Each figure is the median of the repeats; CPU is user plus
system seconds of the process. The compiled kernels must be cached first (``make`` does it).
"""

from __future__ import annotations

import argparse
import statistics

from benchmarks._process import evo_mastermind, time_process
from benchmarks._record import record

COMMANDS = {
    "play --pegs 4 --colors 6": ["play", "--pegs", "4", "--colors", "6"],
    "--help": ["--help"],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    figures: dict[str, object] = {}
    for label, words in COMMANDS.items():
        argv = evo_mastermind() + words
        time_process(argv)  # not counted: files and compiled code come from disk once
        timings = [time_process(argv) for _ in range(args.repeats)]
        figures[f"{label}: median wall s"] = round(statistics.median(t[0] for t in timings), 2)
        figures[f"{label}: median cpu s"] = round(statistics.median(t[1] for t in timings), 2)
    record("startup", figures)


if __name__ == "__main__":
    main()

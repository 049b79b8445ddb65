"""Start-up: whole ``evo-mastermind`` processes, as a person at the terminal waits for them.

Run with ``python -m benchmarks.bench_startup``. Goals from the issue, on this 2-core
machine: ``play --pegs 4 --colors 6`` (default player, secret drawn from the seed) under
0.8 s, ``--help`` under 0.5 s; and the floor of any command that runs a compiled kernel: the
optimum of (3,3), whose search takes a millisecond once Numba is loaded. Each figure is the
median of the repeats; CPU is user plus system seconds of the process. The compiled kernels
must be cached first (``make`` does it); Python's bytecode cache is written, as an installed
package has it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
from pathlib import Path

from benchmarks._process import evo_mastermind, time_process
from benchmarks._record import record

OPTIMUM = Path(tempfile.gettempdir()) / "evo-mastermind-startup-tree.json"
COMMANDS = {
    "play --pegs 4 --colors 6": ["play", "--pegs", "4", "--colors", "6"],
    "--help": ["--help"],
    "tree --player optimal --pegs 3 --colors 3": [
        *("tree", "--player", "optimal", "--pegs", "3", "--colors", "3", "--no-progress"),
        *("--out", str(OPTIMUM)),
    ],
}
_WITH_BYTECODE = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    figures: dict[str, object] = {}
    for label, words in COMMANDS.items():
        argv = evo_mastermind() + words
        time_process(argv, env=_WITH_BYTECODE)  # not counted: files come from disk once
        timings = [time_process(argv, env=_WITH_BYTECODE) for _ in range(args.repeats)]
        figures[f"{label}: median wall s"] = round(statistics.median(t[0] for t in timings), 2)
        figures[f"{label}: median cpu s"] = round(statistics.median(t[1] for t in timings), 2)
    OPTIMUM.unlink(missing_ok=True)
    figures["load average at the end (1, 5, 15 min)"] = [round(x, 1) for x in os.getloadavg()]
    record("startup", figures)


if __name__ == "__main__":
    main()

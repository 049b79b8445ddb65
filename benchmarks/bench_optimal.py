"""The optimal player's trees: whole ``evo-mastermind tree --player optimal`` processes.

Run with ``python -m benchmarks.bench_optimal``. Goals from the issue, on this 2-core
machine, whole process: (4,6) under 60 s; (3,k) up to k = 8, (4,4), (4,5) and (5,3) in
seconds; (5,4) under a minute. Each game's tree is built once after a warm-up process (the
compiled search comes from Numba's cache), and its total, mean and depth are recorded with
the wall and CPU seconds. ``--stretch SECONDS`` also runs the (4,7) search for at most that
long and records the best total found and the proven lower bound as it goes
(``optimal_4_7.json``). The totals go to ``results/optimal.csv``, the table
:mod:`evo_mastermind.analysis.optimum` cites.
"""

from __future__ import annotations

import argparse
import csv
import os
import re
import tempfile
import threading
import time
from pathlib import Path

from benchmarks._process import evo_mastermind, time_process
from benchmarks._record import RESULTS, record

GAMES: list[tuple[int, int, list[str]]] = [
    *((3, colors, []) for colors in range(2, 9)),
    (4, 4, []),
    (4, 5, []),
    (5, 3, []),
    (5, 4, []),
    (4, 6, []),
    (4, 6, ["-o", "max_guesses=5"]),
    (4, 6, ["-o", "objective=worst"]),
]
_PRINTED = re.compile(r"(\d+) guesses over (\d+) secrets \(mean ([\d.]+), max (\d+)\)")


def _tree(pegs: int, colors: int, options: list[str], out: Path) -> tuple[float, float, str]:
    argv = [
        *evo_mastermind(),
        "tree",
        "--player",
        "optimal",
        "--pegs",
        str(pegs),
        "--colors",
        str(colors),
        *options,
        "--no-progress",
        "--out",
        str(out),
    ]
    return time_process(argv)


def stretch(seconds: float) -> dict[str, object]:
    """The (4,7) search for at most ``seconds``: best total and lower bound as it runs.

    The search runs on a thread; past the time, what it reached is recorded and the process
    ends with it (the compiled search cannot be stopped from outside).
    """
    from evo_mastermind.codes import CodeSpace
    from evo_mastermind.optimal.solver import OptimalSolver, Progress, Solution

    start = time.perf_counter()
    timeline: list[dict[str, object]] = []
    solver = OptimalSolver(CodeSpace(4, 7))
    found: list[Solution] = []

    def report(progress: Progress) -> None:
        timeline.append(
            {
                "seconds": round(time.perf_counter() - start, 1),
                "best": progress.best,
                "lower": progress.lower,
                "openings decided": f"{progress.openings_done}/{progress.openings}",
            }
        )

    search = threading.Thread(target=lambda: found.append(solver.solve(report=report)), daemon=True)
    search.start()
    while search.is_alive() and time.perf_counter() - start < seconds:
        search.join(60)  # the compiled search releases the GIL: its counters can be read
        timeline.append(
            {
                "seconds": round(time.perf_counter() - start, 1),
                "nodes searched": int(solver.used[2]),
                "sets in the table": int(solver.used[1]),
            }
        )
    outcome: dict[str, object] = {"seconds": round(time.perf_counter() - start, 1)}
    if found:
        solution = found[0]
        outcome |= {
            "total": solution.total,
            "mean": round(solution.total / 2401, 4),
            "max": solution.depth,
            "proven optimal": solution.complete,
        }
    else:
        outcome["stopped"] = "no complete tree within the time"
    outcome["lower bound by counting"] = min(solver.openings(solver.unlimited)[1])
    outcome["timeline"] = timeline[-40:]
    return outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--stretch", type=float, default=0, help="seconds for (4,7); 0: skip")
    parser.add_argument("--stretch-only", action="store_true", help="only the (4,7) search")
    args = parser.parse_args()
    if args.stretch_only:
        record("optimal_4_7", stretch(args.stretch))
        os._exit(0)  # the search thread may still be in compiled code
    figures: dict[str, object] = {}
    rows = []
    with tempfile.TemporaryDirectory() as work:
        out = Path(work) / "tree.json"
        _tree(3, 3, [], out)  # not counted: the compiled search is loaded once from disk
        for pegs, colors, options in GAMES:
            wall, cpu, printed = _tree(pegs, colors, options, out)
            found = _PRINTED.search(printed)
            assert found is not None, printed
            total, _, mean, depth = found.groups()
            label = f"({pegs},{colors}) {' '.join(options[1::2])}".strip()
            figures[f"{label}: total / mean / max"] = f"{total} / {mean} / {depth}"
            figures[f"{label}: wall s / cpu s"] = f"{wall:.1f} / {cpu:.1f}"
            if not options:
                rows.append({"pegs": pegs, "colors": colors, "total": total, "max": depth})
    with (RESULTS / "optimal.csv").open("w", newline="") as table:
        writer = csv.DictWriter(table, fieldnames=["pegs", "colors", "total", "max"])
        writer.writeheader()
        writer.writerows(rows)
    record("optimal", figures)
    if args.stretch > 0:
        record("optimal_4_7", stretch(args.stretch))
        os._exit(0)  # the search thread may still be in compiled code


if __name__ == "__main__":
    main()

"""Runner speed: the whole of Runarsson & Merelo's Table 2 (5 players x 10 runs x 1296 games).

Run with ``python -m benchmarks.bench_runner``. Goal from the issue: under 10 s on this
2-core machine with the default local process pool. Measured in-process (the time of the
``run`` command adds Python start-up, about 1 s).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from benchmarks._record import record
from evo_mastermind.runner import ResultsDir, load_config, make_executor, run_experiment
from evo_mastermind.studies import study_path

TABLE2 = study_path("paper/table2")


def time_table2(executor: str, workers: int | None) -> tuple[float, int]:
    """Wall seconds for Table 2 into a fresh directory, and the number of games stored."""
    config = load_config(TABLE2)
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        with make_executor(executor, workers) as pool:  # type: ignore[arg-type]
            run_experiment(config, TABLE2, Path(out), pool, progress=False)
        seconds = time.perf_counter() - start
        return seconds, len(ResultsDir(out).load_games())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    figures: dict[str, object] = {}
    for executor, workers in (("process", 2), ("serial", None), ("dask", 2)):
        timings = [time_table2(executor, workers) for _ in range(args.repeats)]
        seconds = sorted(t for t, _ in timings)
        label = f"{executor}" + (f" ({workers} workers)" if workers else "")
        figures[f"table2 {label}: best s"] = round(seconds[0], 2)
        figures[f"table2 {label}: median s"] = round(seconds[len(seconds) // 2], 2)
        figures[f"table2 {label}: games"] = timings[0][1]
    record("runner", figures)


if __name__ == "__main__":
    main()

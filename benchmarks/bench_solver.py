"""Our exhaustive game trees against Magruder's C++ solver (mikemag/Mastermind), side by side.

Both sides are timed as whole processes, in turn (ours, the solver's, ours, …), so that a
machine whose speed drifts slows both alike: ``evo-mastermind tree`` with the solver's
settings (all-codes pool, lexicographic ties, its preset first guesses) against the
solver's single-threaded CPU build of the same strategy and game. "One core" pins both to
CPU 0 (``taskset``) with one Numba thread; "every core" gives ours every core and Numba
thread (the solver has one thread either way). CPU seconds are user + system time of the
finished child. Figures go to ``benchmarks/results/solver.json``.

The solver is not part of this project and is never committed: build it outside the tree
with ``benchmarks/build_solver.sh SOURCE_DIR`` (one binary per strategy and game, named
``mm_<Strategy>_<pegs><colors>``), then run
``python -m benchmarks.bench_solver --solver SOURCE_DIR/bin``; without ``--solver`` the
solver's side is skipped (and said so).

``--threads`` times our trees alone, one worker against two (``NUMBA_NUM_THREADS``), in
alternating pairs, with the load average before each run (other work on the machine slows
the two-worker runs most): the wall-time ratio of each pair is what two cores gain.
Figures go to ``benchmarks/results/trees.json``.

``--subtree B,W`` grows one (6,9) subtree in this process on one thread, the codes answering
B black and W white to AABBCD (e.g. ``1,2``: 67,436 codes), and prints its CPU seconds and a
hash of its arrays (guesses, parents, responses, secrets and their guesses): a kernel change
must leave the hash as it was, and paired runs of two checkouts time it.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

from benchmarks._process import evo_mastermind, time_process
from benchmarks._record import record
from benchmarks.bench_engine import SOLVER_FIRST_GUESSES

TREE_FIRST_GUESSES = {
    **SOLVER_FIRST_GUESSES,
    (6, 9): dict.fromkeys(["knuth", "most_parts", "expected_size", "entropy"], "AABBCD"),
}
"""The first guesses of the trees we time: the solver's presets, and AABBCD on (6,9)."""

SOLVER_NAMES = {
    "knuth": "Knuth",
    "most_parts": "MostParts",
    "expected_size": "ExpectedSize",
    "entropy": "Entropy",
}


def ours(pegs: int, colors: int, name: str, one_core: bool, out: Path) -> list[str]:
    """The ``evo-mastermind tree`` command with the solver's settings."""
    command = [*evo_mastermind(), "tree"]
    command += ["--pegs", str(pegs), "--colors", str(colors), "--player", name, "--no-progress"]
    command += ["-o", f"first_guess={TREE_FIRST_GUESSES[(pegs, colors)][name]}"]
    if name != "knuth":
        command += ["-o", "ties=lexicographic", "-o", "pool=all"]
    command += ["--out", str(out)]
    return pinned(command) if one_core else command


def pinned(command: list[str]) -> list[str]:
    """The command on CPU 0 only (when ``taskset`` exists)."""
    return ["taskset", "-c", "0", *command] if shutil.which("taskset") else command


def compare(
    solver: Path, pegs: int, colors: int, name: str, pairs: int, one_core: bool
) -> dict[str, object]:
    """Median wall and CPU seconds of both sides over alternating runs, and our totals."""
    binary = solver / f"mm_{SOLVER_NAMES[name]}_{pegs}{colors}"
    env = dict(os.environ, NUMBA_NUM_THREADS="1") if one_core else dict(os.environ)
    rows: dict[str, list[float]] = {
        "ours wall": [],
        "ours cpu": [],
        "solver wall": [],
        "solver cpu": [],
    }
    solver_elapsed: list[float] = []
    summary = ""
    with tempfile.TemporaryDirectory() as scratch:
        for _ in range(pairs):
            wall, cpu, summary = time_process(
                ours(pegs, colors, name, one_core, Path(scratch) / "t.json"), env=env
            )
            rows["ours wall"].append(wall)
            rows["ours cpu"].append(cpu)
            # The solver reads its data files from the directory above its binaries.
            command = pinned([str(binary)]) if one_core else [str(binary)]
            wall, cpu, printed = time_process(command, cwd=solver.parent)
            rows["solver wall"].append(wall)
            rows["solver cpu"].append(cpu)
            found = re.search(r"Elapsed time ([0-9.]+)s", printed)
            if found:
                solver_elapsed.append(float(found.group(1)))
    figures: dict[str, object] = {
        key: round(statistics.median(values), 4) for key, values in rows.items()
    }
    if solver_elapsed:
        figures["solver's own elapsed"] = round(statistics.median(solver_elapsed), 4)
    figures["ratio cpu"] = round(
        statistics.median(a / b for a, b in zip(rows["ours cpu"], rows["solver cpu"], strict=True)),
        3,
    )
    figures["ratio wall"] = round(
        statistics.median(
            a / b for a, b in zip(rows["ours wall"], rows["solver wall"], strict=True)
        ),
        3,
    )
    figures["ours"] = summary.strip().split(";")[0]
    return figures


def load() -> float:
    """The load average of the last minute (0 where the system does not say)."""
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return 0.0


def workers_compare(pegs: int, colors: int, name: str, pairs: int) -> dict[str, object]:
    """Our tree, whole process, on one worker and on two, in alternating pairs.

    Medians of wall and CPU seconds, the median of each pair's wall-time ratio (one worker
    over two) and the load average before every run.
    """
    rows: dict[str, list[float]] = {key: [] for key in ("1 wall", "1 cpu", "2 wall", "2 cpu")}
    loads: list[float] = []
    summary = ""
    with tempfile.TemporaryDirectory() as scratch:
        for _ in range(pairs):
            for workers in (1, 2):
                env = dict(os.environ, NUMBA_NUM_THREADS=str(workers))
                loads.append(load())
                command = ours(pegs, colors, name, False, Path(scratch) / "t.json")
                wall, cpu, summary = time_process(command, env=env)
                rows[f"{workers} wall"].append(wall)
                rows[f"{workers} cpu"].append(cpu)
    figures: dict[str, object] = {
        f"{key.split()[1]} s, {key.split()[0]} worker(s)": round(statistics.median(values), 3)
        for key, values in rows.items()
    }
    figures["two workers' gain (wall, median of pairs)"] = round(
        statistics.median(a / b for a, b in zip(rows["1 wall"], rows["2 wall"], strict=True)), 3
    )
    figures["load average before each run"] = loads
    figures["ours"] = summary.strip().split(";")[0]
    return figures


def subtree(name: str, black: int, white: int) -> dict[str, object]:
    """One (6,9) subtree under AABBCD grown on this thread: CPU seconds and its arrays' hash."""
    from evo_mastermind import engine
    from evo_mastermind.codes import CodeSpace
    from evo_mastermind.heuristics import known_heuristic
    from evo_mastermind.scoring import indexed_scorer

    space = CodeSpace(6, 9)
    scorer = indexed_scorer(space)
    first = space.index(space.parse(TREE_FIRST_GUESSES[(6, 9)][name]))
    every = np.arange(space.size, dtype=np.int64)
    part = every[scorer.responses(first, every) == black * (space.pegs + 1) + white]
    played = int(np.bitwise_or.reduce(1 << scorer.codes[first].astype(np.int64)))
    heuristic = known_heuristic("worst_case" if name == "knuth" else name)
    # The kernel loaded (or compiled) on a small part first: not timed.
    engine.grow_tree(scorer, part[:3], played, 2, -1, True, heuristic, 100)
    start = time.process_time()
    arrays = engine.grow_tree(scorer, part, played, 2, -1, True, heuristic, 100)
    cpu = time.process_time() - start
    digest = hashlib.sha256(b"".join(array.astype(np.int64).tobytes() for array in arrays))
    return {
        "codes": int(part.size),
        "nodes": int(arrays[0].size),
        "guesses": int(arrays[4].sum()),
        "cpu s": round(cpu, 2),
        "load": load(),
        "hash": digest.hexdigest()[:16],
    }


def games(text: str) -> list[tuple[int, int]]:
    """``"5,8 6,9"`` as games of :data:`TREE_FIRST_GUESSES`."""
    chosen = []
    for item in text.split():
        pegs, colors = (int(part) for part in item.split(","))
        if (pegs, colors) not in TREE_FIRST_GUESSES:
            raise SystemExit(
                f"no first guesses for ({pegs},{colors}): one of {list(TREE_FIRST_GUESSES)}"
            )
        chosen.append((pegs, colors))
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--solver", type=Path, default=None, help="directory of the solver's binaries"
    )
    parser.add_argument(
        "--pairs", type=int, default=3, help="alternating runs of each side (default 3)"
    )
    parser.add_argument(
        "--threads", action="store_true", help="ours alone, one worker against two (trees.json)"
    )
    parser.add_argument(
        "--games", default=None, help="games as 'pegs,colors' separated by spaces (default: all)"
    )
    parser.add_argument(
        "--players", default=None, help="players separated by commas (default: the four)"
    )
    parser.add_argument(
        "--subtree", default=None, help="'B,W': time one (6,9) subtree on one thread (no record)"
    )
    args = parser.parse_args()
    if args.subtree:
        black, white = (int(part) for part in args.subtree.split(","))
        names = args.players.split(",") if args.players else list(SOLVER_NAMES)
        for name in names:
            print(f"{name} subtree ({black},{white}) {subtree(name, black, white)}", flush=True)
        return
    chosen = games(args.games) if args.games else list(SOLVER_FIRST_GUESSES)
    figures: dict[str, object] = {}
    for pegs, colors in chosen:
        names = list(TREE_FIRST_GUESSES[(pegs, colors)])
        if args.players:
            names = [name for name in names if name in args.players.split(",")]
        for name in names:
            if args.threads:
                row = workers_compare(pegs, colors, name, args.pairs)
                figures[f"{name} tree ({pegs},{colors})"] = row
                continue
            if args.solver is None:
                print(f"{name} ({pegs},{colors}): no --solver given, the solver's side is skipped")
                continue
            for label, one_core in (("one core", True), ("every core", False)):
                row = compare(args.solver, pegs, colors, name, args.pairs, one_core)
                figures[f"{name} tree ({pegs},{colors}), {label}"] = row
    if figures:
        record("trees" if args.threads else "solver", figures)


if __name__ == "__main__":
    main()

"""The optimal player's trees: whole ``evo-mastermind tree --player optimal`` processes.

Run with ``python -m benchmarks.bench_optimal``. Goals from the issue, on this 2-core
machine, whole process: (4,6) under 60 s; (3,k) up to k = 8, (4,4), (4,5) and (5,3) in
seconds; (5,4) under a minute. Each game's tree is built once after a warm-up process (the
compiled search comes from Numba's cache), and its total, mean and depth are recorded with
the wall and CPU seconds. ``--stretch SECONDS`` also runs the (4,7) search for at most that
long and records the best total found and the proven lower bound as it goes
(``optimal_4_7.json``). ``--huge`` builds the (4,8) trees, without a guess limit and within
six guesses (minutes each, checkpointed), and replays each over every secret with a scorer
of its own (``optimal_4_8.json``). The totals go to ``results/optimal.csv``, the table
:mod:`evo_mastermind.analysis.optimum` cites.

``--prove 6x4,4x9:6 --seconds 1800`` proves each game's optimum (within M guesses after a
colon) on ``--threads`` threads, checkpointed in ``--checkpoints`` (run again, it resumes),
stopped past the time, each tree replayed over every secret by :func:`replay`
(``optimal_new.json``, one entry per game, kept across runs).

``--workers N`` compares one thread with ``N`` threads searching together (the player's
option ``threads``), on (4,7) and (4,8) unless ``--games`` names others, ``--runs`` pairs
run one after the other (the order swapped every pair): for each, the search's own wall and
CPU seconds (timed in its process, after the compiled search is loaded) and the whole
process's, with the load average before every run. The ratios of one thread's wall time to
``N`` threads' are taken pair by pair and their median recorded
(``optimal_threads.json``); the trees must be the same, node for node.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import itertools
import json
import os
import re
import resource
import signal
import statistics
import subprocess
import sys
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


def replay(path: Path) -> tuple[int, list[int]]:
    """Total guesses and guesses-per-secret counts of a tree file over every secret.

    An independent check: the tree is walked secret by secret with a scorer written here,
    not the solver's response table nor the project's scoring.
    """
    document = json.loads(path.read_text())
    pegs, colors = document["pegs"], document["colors"]
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[:colors]
    counts: dict[int, int] = {}
    total = 0
    for secret in itertools.product(letters, repeat=pegs):
        node, turn = document["root"], 1
        while True:
            guess = node["guess"]
            black = sum(g == s for g, s in zip(guess, secret, strict=True))
            common = sum(min(guess.count(c), secret.count(c)) for c in letters)
            if black == pegs:
                break
            node, turn = node["next"][f"{black},{common - black}"], turn + 1
        counts[turn] = counts.get(turn, 0) + 1
        total += turn
    return total, [counts.get(t, 0) for t in range(1, max(counts) + 1)]


def huge() -> dict[str, object]:
    """The (4,8) optimum without a guess limit and within six guesses, each replayed."""
    figures: dict[str, object] = {"load average at the start": list(os.getloadavg())}
    with tempfile.TemporaryDirectory() as work:
        for options in ([], ["-o", "max_guesses=6"]):
            out = Path(work) / "tree.json"
            saved = ["-o", f"checkpoint={Path(work) / 'checkpoint.json'}"]
            wall, cpu, printed = _tree(4, 8, [*options, *saved], out)
            found = _PRINTED.search(printed)
            assert found is not None, printed
            total, depths = replay(out)
            assert total == int(found.group(1)), (total, printed)
            label = f"(4,8) {' '.join(options[1::2])}".strip()
            figures[f"{label}: total / max"] = f"{total} / {len(depths)}"
            figures[f"{label}: secrets by guesses needed (1, 2, ...)"] = depths
            figures[f"{label}: wall s / cpu s"] = f"{wall:.1f} / {cpu:.1f}"
    figures["load average at the end"] = list(os.getloadavg())
    return figures


_INTERRUPTED = re.compile(r"the optimum is at least (\d+)")


def prove(spec: str, seconds: float, threads: int, checkpoints: Path) -> dict[str, object]:
    """One game's optimum (``PxC``, or ``PxC:M`` within M guesses), at most ``seconds``.

    The search runs as a whole ``tree`` process on ``threads`` threads with a checkpoint in
    ``checkpoints`` (run again, it resumes), is interrupted with SIGINT past the time, and
    its tree is replayed over every secret by :func:`replay`. A search interrupted says so:
    its best total and the proven lower bound.
    """
    game, _, limit = spec.partition(":")
    pegs, colors = (int(x) for x in game.split("x"))
    name = f"{pegs}x{colors}" + (f"_max{limit}" if limit else "")
    out = checkpoints / f"{name}.tree.json"
    argv = [*evo_mastermind(), "tree", "--player", "optimal", "--pegs", str(pegs)]
    # With progress (written to the captured output): a quick first tree caps the search,
    # and the checkpoint is that of a search run by hand with its progress bar.
    argv += ["--colors", str(colors), "-o", f"threads={threads}"]
    argv += ["-o", f"checkpoint={checkpoints / (name + '.checkpoint.json')}"]
    argv += [*(["-o", f"max_guesses={limit}"] if limit else []), "--out", str(out)]
    load = [round(x, 1) for x in os.getloadavg()]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    process = subprocess.Popen(
        argv,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        # A benchmark started in the background ignores SIGINT, and so would the search.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        printed, _ = process.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGINT)  # the best tree so far is written, marked partial
        printed, _ = process.communicate()
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    found = _PRINTED.search(printed)
    assert found is not None, printed
    total, depths = replay(out)
    assert total == int(found.group(1)), (total, printed)
    bound = _INTERRUPTED.search(printed)
    outcome: dict[str, object] = {
        "total": total,
        "mean": round(total / colors**pegs, 4),
        "max": len(depths),
        "secrets by guesses needed (1, 2, ...)": depths,
        "proven optimal": bound is None,
        "wall s": round(wall, 1),
        "cpu s": round(cpu, 1),
        "threads": threads,
        "load average at the start": load,
    }
    if bound is not None:
        outcome["proven lower bound"] = int(bound.group(1))
    return {f"({pegs},{colors})" + (f" within {limit}" if limit else ""): outcome}


def search_once(pegs: int, colors: int, threads: int) -> dict[str, object]:
    """One optimal solve in this process on ``threads`` threads: its own seconds and tree."""
    from evo_mastermind.codes import CodeSpace
    from evo_mastermind.optimal.solver import OptimalSolver

    OptimalSolver(CodeSpace(2, 2)).solve(threads=threads)  # loads the compiled search
    solver = OptimalSolver(CodeSpace(pegs, colors))
    wall, cpu, own = time.perf_counter(), time.process_time(), time.thread_time()
    solution = solver.solve(threads=threads)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    own = time.thread_time() - own
    nodes = json.dumps(sorted(solution.nodes.items())).encode()
    return {
        "total": solution.total,
        "max": solution.depth,
        "tree": hashlib.sha256(nodes).hexdigest()[:16],
        "search wall s": round(wall, 2),
        "search cpu s": round(cpu, 2),
        "calling thread's cpu s": round(own, 2),
    }


def _timed_search(pegs: int, colors: int, threads: int) -> dict[str, object]:
    """:func:`search_once` in a process of its own, with that whole process's seconds."""
    argv = [sys.executable, "-m", "benchmarks.bench_optimal", "--once"]
    argv += [f"{pegs}x{colors}", "--workers", str(threads)]
    load = round(os.getloadavg()[0], 1)
    wall, cpu, printed = time_process(argv, cwd=Path(__file__).parent.parent)
    figures: dict[str, object] = json.loads(printed.strip().splitlines()[-1])
    return figures | {
        "process wall s": round(wall, 2),
        "process cpu s": round(cpu, 2),
        "load before": load,
    }


def compare_threads(games: list[tuple[int, int]], workers: int, runs: int) -> dict[str, object]:
    """One thread against ``workers`` threads, pair by pair, on each game."""
    figures: dict[str, object] = {"threads compared": f"1 and {workers}"}
    figures["load average at the start"] = [round(x, 1) for x in os.getloadavg()]
    for pegs, colors in games:
        pairs = []
        for run in range(runs):
            order = [1, workers] if run % 2 == 0 else [workers, 1]
            timed = {threads: _timed_search(pegs, colors, threads) for threads in order}
            one, many = timed[1], timed[workers]
            if (one["total"], one["tree"]) != (many["total"], many["tree"]):
                raise RuntimeError(f"({pegs},{colors}): the trees differ: {one} and {many}")
            pairs.append((one, many))
        label = f"({pegs},{colors}) {pairs[0][0]['total']}"
        measures = {
            "search wall s": "search wall s",
            "process wall s": "process wall s",
            # The calling thread never waits for the others while they work: its CPU time is
            # the search's wall time on cores left free, whatever the load meanwhile.
            "search cpu s": "calling thread's cpu s",
        }
        for one_key, many_key in measures.items():
            gains = [float(a[one_key]) / float(b[many_key]) for a, b in pairs]  # type: ignore[arg-type]
            name = "on free cores (1 thread's cpu / the calling thread's)"
            name = name if one_key == "search cpu s" else one_key[:-2]
            figures[f"{label}: {name} gain, median of pairs"] = round(statistics.median(gains), 2)
        figures[f"{label}: runs (1 thread, {workers} threads)"] = pairs
    figures["load average at the end"] = [round(x, 1) for x in os.getloadavg()]
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--stretch", type=float, default=0, help="seconds for (4,7); 0: skip")
    parser.add_argument("--stretch-only", action="store_true", help="only the (4,7) search")
    parser.add_argument("--huge", action="store_true", help="only the (4,8) trees (minutes)")
    parser.add_argument("--workers", type=int, default=0, help="compare 1 and N threads")
    parser.add_argument("--games", default="4x7,4x8", help="--workers: games as PxC,...")
    parser.add_argument("--runs", type=int, default=3, help="--workers: pairs of runs")
    parser.add_argument("--once", help=argparse.SUPPRESS)  # one timed search (PxC), as JSON
    parser.add_argument("--prove", default="", help="games PxC or PxC:M,... to prove")
    parser.add_argument("--seconds", type=float, default=1800, help="--prove: time per game")
    parser.add_argument("--threads", type=int, default=2, help="--prove: search threads")
    parser.add_argument(
        "--checkpoints", type=Path, default=Path("."), help="--prove: checkpoints and trees"
    )
    args = parser.parse_args()
    if args.prove:
        path = RESULTS / "optimal_new.json"
        kept = json.loads(path.read_text())["figures"] if path.exists() else {}
        for spec in args.prove.split(","):
            kept |= prove(spec, args.seconds, args.threads, args.checkpoints)
            record("optimal_new", kept)
        return
    if args.once:
        pegs, colors = (int(x) for x in args.once.split("x"))
        print(json.dumps(search_once(pegs, colors, max(args.workers, 1))))
        return
    if args.workers:
        games = [(int(p), int(c)) for p, c in (g.split("x") for g in args.games.split(","))]
        record("optimal_threads", compare_threads(games, args.workers, args.runs))
        return
    if args.huge:
        record("optimal_4_8", huge())
        return
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

"""The exact optimum side by side with a peer's optimal solver: whole processes and the solve.

Run with ``python -m benchmarks.bench_peers --fancidev PATH``, PATH being the ``mmstrat``
program of fancidev/mastermind (C++, 2012: the commit "Import code from 2012", whose
``mmstrat -s optimal`` is one thread), built outside this repository by
``benchmarks/build_peers.sh`` from a checkout you made. Nothing is fetched or built here: a
peer not given, or not found, is said and skipped.

Each game is run in turn ``--runs`` times: our whole process (``evo-mastermind tree --player
optimal``: the interpreter's start, the imports and the loading of the compiled search
included), the peer's, then our search alone in this process (a fresh
:class:`~evo_mastermind.optimal.solver.OptimalSolver`, its kernels already loaded: what is
left once the start-up is paid). CPU seconds are user + system; each ratio to the peer's
whole process is taken pair by pair and its median recorded, so that a shared machine whose
speed drifts still gives a fair ratio. A time counts only when the totals agree. Our
processes run with Python's bytecode cache written, as an installed package has it. Figures
go to ``results/peers.json``.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import tempfile
import time
from pathlib import Path

from benchmarks._process import evo_mastermind, time_process
from benchmarks._record import record
from evo_mastermind.codes import CodeSpace
from evo_mastermind.optimal.solver import OptimalSolver

SMALL = [(2, k) for k in range(2, 7)] + [(3, k) for k in range(2, 11)]
SMALL += [(4, 2), (4, 3), (4, 4), (4, 5), (5, 2), (5, 3), (5, 4), (6, 2), (6, 3)]
GAMES = [*SMALL, (4, 6)]
"""Games timed by default; ``--large`` adds (4,7), ``--games`` names others (such as 4x8)."""
_OURS = re.compile(r"(\d+) guesses over (\d+) secrets")
_FANCIDEV = re.compile(r"^optimal\s+(\d+)\s", re.MULTILINE)
_WITH_BYTECODE = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def ours(pegs: int, colors: int, out: Path) -> tuple[float, int]:
    """CPU seconds and total of the whole ``evo-mastermind tree --player optimal`` process."""
    argv = [*evo_mastermind(), "tree", "--player", "optimal", "--pegs", str(pegs)]
    argv += ["--colors", str(colors), "--no-progress", "--out", str(out)]
    _, cpu, printed = time_process(argv, env=_WITH_BYTECODE)
    found = _OURS.search(printed)
    if found is None:
        raise RuntimeError(f"no total in our output: {printed[-300:]}")
    return cpu, int(found.group(1))


def our_search(pegs: int, colors: int) -> tuple[float, int]:
    """CPU seconds and total of our search alone: a fresh solver, in this process."""
    start = time.process_time()
    total = OptimalSolver(CodeSpace(pegs, colors)).solve().total
    return time.process_time() - start, total


def fancidev(program: Path, pegs: int, colors: int) -> tuple[float, int]:
    """CPU seconds and total of fancidev's ``mmstrat -s optimal`` on the game."""
    argv = [str(program), "-r", f"p{pegs}c{colors}r", "-s", "optimal", "-S"]
    _, cpu, printed = time_process(argv)
    found = _FANCIDEV.search(printed)
    if found is None:
        raise RuntimeError(f"no total in fancidev's output: {printed[-300:]}")
    return cpu, int(found.group(1))


def _median_ratio(ours: list[float], theirs: list[float]) -> float:
    """The median over the pairs of ours / theirs (a floor of 0.1 ms on the peer's)."""
    ratio = statistics.median(a / max(b, 1e-4) for a, b in zip(ours, theirs, strict=True))
    return round(ratio, 2 if ratio < 10 else 1)


def main() -> None:
    """Time every game against each peer given and record the paired ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fancidev", type=Path, help="fancidev's mmstrat program")
    parser.add_argument("--runs", type=int, default=5, help="paired runs per game")
    parser.add_argument("--large", action="store_true", help="(4,7) too (half a minute a run)")
    parser.add_argument(
        "--games", help="only these games, as PEGSxCOLORS,... (4x8: minutes a run)", default=""
    )
    args = parser.parse_args()
    if args.fancidev is None or not args.fancidev.is_file():
        print(
            f"fancidev: not found ({args.fancidev or 'no --fancidev given'}), skipped; "
            "benchmarks/build_peers.sh builds it from a checkout of fancidev/mastermind"
        )
        return
    games = [*GAMES, (4, 7)] if args.large else GAMES
    if args.games:
        games = [(int(p), int(c)) for p, c in (g.split("x") for g in args.games.split(","))]
    figures: dict[str, object] = {"peer": "fancidev/mastermind mmstrat -s optimal (2012)"}
    figures["load average at the start (1, 5, 15 min)"] = [round(x, 1) for x in os.getloadavg()]
    our_search(2, 3)  # the compiled search loaded here once, as a process's start-up does
    with tempfile.TemporaryDirectory() as scratch:
        ours(2, 3, Path(scratch) / "warm.json")  # not counted: bytecode and files from disk
        for pegs, colors in games:
            whole, search, theirs = [], [], []
            for run in range(args.runs):
                mine, total = ours(pegs, colors, Path(scratch) / f"{run}.json")
                peer, their_total = fancidev(args.fancidev, pegs, colors)
                alone, search_total = our_search(pegs, colors)
                if not total == search_total == their_total:
                    raise RuntimeError(
                        f"({pegs},{colors}): totals differ, {total}, {search_total} and "
                        f"{their_total}"
                    )
                whole.append(mine)
                theirs.append(peer)
                search.append(alone)
            game = f"({pegs},{colors})"
            figures[f"{game} total"] = total
            figures[f"{game} CPU s, ours whole / our search / fancidev whole (medians)"] = (
                f"{statistics.median(whole):.3f} / {statistics.median(search):.4f} / "
                f"{statistics.median(theirs):.4f}"
            )
            figures[f"{game} ratio ours whole / fancidev"] = _median_ratio(whole, theirs)
            figures[f"{game} ratio our search / fancidev"] = _median_ratio(search, theirs)
    figures["load average at the end (1, 5, 15 min)"] = [round(x, 1) for x in os.getloadavg()]
    record("peers" if not args.games else f"peers_{args.games.replace(',', '_')}", figures)


if __name__ == "__main__":
    main()

"""The exact optimum side by side with a peer's optimal solver: whole processes, CPU seconds.

Run with ``python -m benchmarks.bench_peers --fancidev PATH``, PATH being the ``mmstrat``
program of fancidev/mastermind (C++, 2012: the commit "Import code from 2012", whose
``mmstrat -s optimal`` is one thread) built outside this repository. Nothing is fetched or
built here: a peer not given, or not found, is said and skipped.

Each game is run in turn, ours then the peer's, ``--runs`` times; the ratio of CPU seconds
(user + system of the whole process: our interpreter's start and the loading of the
compiled search included) is taken pair by pair and its median recorded, so that a shared
machine whose speed drifts still gives a fair ratio. A time counts only when both totals
agree. Figures go to ``results/peers.json``.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import tempfile
from pathlib import Path

from benchmarks._process import evo_mastermind, time_process
from benchmarks._record import record

GAMES = [(3, 5), (3, 6), (3, 7), (3, 8), (4, 4), (4, 5), (5, 3), (5, 4), (4, 6)]
"""Games timed by default; ``--large`` adds (4,7), ``--games`` names others (such as 4x8)."""
_OURS = re.compile(r"(\d+) guesses over (\d+) secrets")
_FANCIDEV = re.compile(r"^optimal\s+(\d+)\s", re.MULTILINE)


def ours(pegs: int, colors: int, out: Path) -> tuple[float, int]:
    """CPU seconds and total of ``evo-mastermind tree --player optimal`` on the game."""
    argv = [*evo_mastermind(), "tree", "--player", "optimal", "--pegs", str(pegs)]
    argv += ["--colors", str(colors), "--no-progress", "--out", str(out)]
    _, cpu, printed = time_process(argv)
    found = _OURS.search(printed)
    if found is None:
        raise RuntimeError(f"no total in our output: {printed[-300:]}")
    return cpu, int(found.group(1))


def fancidev(program: Path, pegs: int, colors: int) -> tuple[float, int]:
    """CPU seconds and total of fancidev's ``mmstrat -s optimal`` on the game."""
    argv = [str(program), "-r", f"p{pegs}c{colors}r", "-s", "optimal", "-S"]
    _, cpu, printed = time_process(argv)
    found = _FANCIDEV.search(printed)
    if found is None:
        raise RuntimeError(f"no total in fancidev's output: {printed[-300:]}")
    return cpu, int(found.group(1))


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
        print(f"fancidev: not found ({args.fancidev or 'no --fancidev given'}), skipped")
        return
    games = [*GAMES, (4, 7)] if args.large else GAMES
    if args.games:
        games = [(int(p), int(c)) for p, c in (g.split("x") for g in args.games.split(","))]
    figures: dict[str, object] = {"peer": "fancidev/mastermind mmstrat -s optimal (2012)"}
    figures["load average at the start (1, 5, 15 min)"] = [round(x, 1) for x in os.getloadavg()]
    with tempfile.TemporaryDirectory() as scratch:
        for pegs, colors in games:
            pairs = []
            for run in range(args.runs):
                mine, total = ours(pegs, colors, Path(scratch) / f"{run}.json")
                theirs, their_total = fancidev(args.fancidev, pegs, colors)
                if total != their_total:
                    raise RuntimeError(
                        f"({pegs},{colors}): totals differ, {total} and {their_total}"
                    )
                pairs.append((mine, theirs))
            ratio = statistics.median(mine / max(theirs, 1e-3) for mine, theirs in pairs)
            figures[f"({pegs},{colors}) total"] = total
            figures[f"({pegs},{colors}) CPU s, ours / fancidev (medians)"] = (
                f"{statistics.median(p[0] for p in pairs):.2f} / "
                f"{statistics.median(p[1] for p in pairs):.3f}"
            )
            figures[f"({pegs},{colors}) ratio ours / fancidev (median of pairs)"] = round(ratio, 1)
    figures["load average at the end (1, 5, 15 min)"] = [round(x, 1) for x in os.getloadavg()]
    record("peers" if not args.games else f"peers_{args.games.replace(',', '_')}", figures)


if __name__ == "__main__":
    main()

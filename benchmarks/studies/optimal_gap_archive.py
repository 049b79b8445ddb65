"""How far the archive EA is from the optimum, on (3,k) and (4,5); (4,7) on demand.

Run with ``python -m benchmarks.studies.optimal_gap_archive`` (about five CPU minutes);
``--games 4x7`` for (4,7) (about four CPU minutes a run); ``--runs`` sets the runs of each
game (default 5). The archive EA plays every secret through the project's runner with its
(4,6) settings unchanged (``preset: best_4x6``, ``play: all``, the row that averages 4.348
in ``docs/studies/archive.md``): they were tuned on (4,6) and are not retuned for the other
sizes. The table (mean over every game, min–max of the run means, deepest game, failed
games, the gap to the optimum in guesses per game) goes to
``benchmarks/results/optimal_gap_archive.md`` (``optimal_gap_archive_4x7.md`` for (4,7)),
for ``docs/studies/optimal.md`` beside ``optimal_gap.md`` (the heuristic trees).
"""

from __future__ import annotations

import argparse
import tempfile
import time

from benchmarks._record import RESULTS
from evo_mastermind import run
from evo_mastermind.analysis.optimum import known_optimum

GAMES = [*((3, colors) for colors in range(2, 9)), (4, 5)]
SEED = 2026
ARCHIVE = {"label": "Archive best, all codes", "player": "archive", "preset": "best_4x6"}


def play(pegs: int, colors: int, runs: int) -> str:
    """One table row: the archive EA on every secret of ``(pegs, colors)``, ``runs`` runs."""
    config = {
        "name": f"optimal_gap_archive_{pegs}x{colors}",
        "game": {"pegs": pegs, "colors": colors},
        "secrets": "full",
        "runs": runs,
        "seed": SEED,
        "players": [{**ARCHIVE, "play": "all"}],
    }
    started = time.process_time()
    with tempfile.TemporaryDirectory() as out:
        games = run(config, out=out, executor="serial", progress=False).games
    seconds = time.process_time() - started
    solved = games[games["solved"]]
    run_means = solved.groupby("run")["n_guesses"].mean()
    mean = float(solved["n_guesses"].mean())
    optimum = known_optimum(pegs, colors)
    gap = f"{mean - optimum.mean:+.3f}" if optimum else "—"
    floor = f"{optimum.mean:.3f}" if optimum else "—"
    spread = f" ({run_means.min():.3f}–{run_means.max():.3f})" if runs > 1 else ""
    return (
        f"| ({pegs},{colors}) | {runs} | {floor} | {mean:.3f}{spread} | "
        f"{int(solved['n_guesses'].max())} | {len(games) - len(solved)} | {gap} | "
        f"{1000 * seconds / len(games):.0f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", nargs="*", help="games as PxC, e.g. 3x5 (default: the list)")
    parser.add_argument("--runs", type=int, default=5, help="runs of each game")
    args = parser.parse_args()
    games = [tuple(int(n) for n in game.split("x")) for game in args.games or []] or GAMES
    lines = [
        "| game | runs | optimum | archive EA mean (min–max of run means) | max | failed "
        "| above the optimum, guesses / game | CPU ms / game |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for pegs, colors in games:
        row = play(pegs, colors, args.runs)
        print(row, flush=True)
        lines.append(row)
    name = (
        "optimal_gap_archive.md"
        if games == GAMES
        else f"optimal_gap_archive_{'_'.join(args.games)}.md"
    )
    (RESULTS / name).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()

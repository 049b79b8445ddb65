"""How far every heuristic tree is from the optimum, on (3,k), (4,5) and (4,6).

Run with ``python -m benchmarks.studies.optimal_gap`` (a few minutes on two cores, most of
it the (4,6) optimum); ``--games 4x7`` for other games (the (4,7) optimum takes minutes).
Every deterministic player's whole tree is built as
``evo-mastermind tree`` builds it: the one-ply heuristics with lexicographic ties and every
code in the pool (consistent codes first among ties), their default first guess; Knuth and
the first consistent player as they are. The table (total guesses over every secret, and
above the optimum) goes to ``benchmarks/results/optimal_gap.md`` for
``docs/studies/optimal.md``.
"""

from __future__ import annotations

import argparse
from typing import Any

from benchmarks._record import RESULTS
from evo_mastermind.codes import CodeSpace
from evo_mastermind.players import make_player
from evo_mastermind.players.tree import build_tree

GAMES = [*((3, colors) for colors in range(2, 9)), (4, 5), (4, 6)]
ONE_PLY = {"ties": "lexicographic", "pool": "all"}
PLAYERS: dict[str, tuple[str, dict[str, Any]]] = {
    "Optimal": ("optimal", {}),
    "Most parts": ("most_parts", ONE_PLY),
    "Entropy": ("entropy", ONE_PLY),
    "Expected size": ("expected_size", ONE_PLY),
    "Worst case": ("worst_case", ONE_PLY),
    "Knuth": ("knuth", {}),
    "First consistent": ("first_consistent", {}),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", nargs="*", help="games as PxC, e.g. 4x7 (default: the list)")
    args = parser.parse_args()
    games = [tuple(int(n) for n in game.split("x")) for game in args.games or []] or GAMES
    lines = [
        "| game | " + " | ".join(PLAYERS) + " |",
        "|---|" + "---|" * len(PLAYERS),
    ]
    for pegs, colors in games:
        space = CodeSpace(pegs, colors)
        cells = []
        optimum = 0
        for name, options in PLAYERS.values():
            tree = build_tree(make_player(name, space, options), options)
            counts = tree.guess_counts()
            total = int(counts.sum())
            optimum = optimum or total
            first = tree.root.guess
            gap = "" if total == optimum else f" (+{total - optimum})"
            cells.append(f"{total}{gap}, max {int(counts.max())}, {first}")
        row = f"| ({pegs},{colors}) | " + " | ".join(cells) + " |"
        print(row, flush=True)
        lines.append(row)
    name = "optimal_gap.md" if games == GAMES else f"optimal_gap_{'_'.join(args.games)}.md"
    (RESULTS / name).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()

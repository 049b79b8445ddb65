"""Engine speed: exhaustive entropy games per second and Knuth decision-tree builds.

Run with ``python -m benchmarks.bench_engine`` (one process, one core). Goals from the
issue: >= 10,000 entropy games/s on (4,6), <= 20 ms per entropy game on (5,8), Knuth's
(4,6) tree in under 0.05 s.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from benchmarks._record import record
from evo_mastermind.codes import CodeSpace
from evo_mastermind.game import Codemaker, play_game
from evo_mastermind.players import make_player
from evo_mastermind.players.tree import build_tree
from evo_mastermind.scoring import indexed_scorer
from evo_mastermind.seeding import game_rng
from evo_mastermind.symmetry import multiplicity_classes, unplayed_colour_classes


def play_all(name: str, space: CodeSpace, secrets: np.ndarray, runs: int) -> tuple[float, float]:
    """Seconds to play every secret ``runs`` times with one player object, and the mean."""
    player = make_player(name, space)
    texts = [space.format(code) for code in secrets]
    guesses = []
    start = time.perf_counter()
    for run in range(runs):
        for text in texts:
            game = play_game(
                player, Codemaker(space, text), game_rng(1, name, run, text, space.colors)
            )
            guesses.append(game.n_guesses)
    return time.perf_counter() - start, float(np.mean(guesses))


def fresh_knuth_tree(space: CodeSpace) -> tuple[float, float, int]:
    """Seconds for a Knuth tree from nothing (response table included), and without it."""
    indexed_scorer.cache_clear()
    multiplicity_classes.cache_clear()
    unplayed_colour_classes.cache_clear()
    start = time.perf_counter()
    scorer = indexed_scorer(space)
    if scorer.has_table:
        _ = scorer.table
    table_done = time.perf_counter()
    tree = build_tree(make_player("knuth", space))
    end = time.perf_counter()
    return end - start, end - table_done, int(tree.guess_counts().sum())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="skip the (5,8) Knuth tree (~1 min)")
    args = parser.parse_args()
    figures: dict[str, object] = {}

    classic = CodeSpace(4, 6)
    seconds, mean = play_all("entropy", classic, classic.all_codes, runs=10)
    figures["entropy (4,6) 10x1296 games, games/s incl. cold cache"] = round(12960 / seconds)
    figures["entropy (4,6) mean guesses over those games"] = round(mean, 4)
    cold_seconds, _ = play_all("entropy", classic, classic.all_codes, runs=1)
    figures["entropy (4,6) first 1296 games (cold), s"] = round(cold_seconds, 3)

    medium = CodeSpace(5, 8)
    secrets = medium.sample(np.random.default_rng(2024), 500)
    seconds, mean = play_all("entropy", medium, secrets, runs=1)
    figures["entropy (5,8) 500 sampled secrets, ms/game (cold cache)"] = round(
        1000 * seconds / 500, 2
    )
    figures["entropy (5,8) mean guesses over those games"] = round(mean, 3)

    builds = [fresh_knuth_tree(classic) for _ in range(7)]
    figures["knuth tree (4,6) median s, incl. response table"] = round(
        statistics.median(b[0] for b in builds), 4
    )
    figures["knuth tree (4,6) median s, table already built"] = round(
        statistics.median(b[1] for b in builds), 4
    )
    figures["knuth tree (4,6) total guesses"] = builds[0][2]
    if not args.quick:
        total, _, guesses = fresh_knuth_tree(medium)
        figures["knuth tree (5,8) s"] = round(total, 1)
        figures["knuth tree (5,8) total guesses / mean"] = (
            f"{guesses} / {guesses / medium.size:.4f}"
        )
    record("engine", figures)


if __name__ == "__main__":
    main()

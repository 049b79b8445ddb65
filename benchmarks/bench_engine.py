"""Engine speed: exhaustive games per second and decision-tree builds with the compiled kernels.

Run with ``python -m benchmarks.bench_engine`` (``make benchmark``). Goals from the issues:
>= 10,000 entropy games/s on (4,6), <= 20 ms per entropy game on (5,8); the four game trees
of Magruder's C++ solver (all-codes pool, lexicographic ties, its first guesses) on (4,6)
and (5,8), on one core and on every core; one-ply (6,9) games in under 5 s each. The
kernels are compiled (or loaded from their cache) before any clock starts.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numba
import numpy as np

from benchmarks._record import record
from evo_mastermind import kernels
from evo_mastermind.codes import CodeSpace
from evo_mastermind.game import Codemaker, play_game
from evo_mastermind.players import make_player
from evo_mastermind.players.tree import build_tree
from evo_mastermind.scoring import indexed_scorer
from evo_mastermind.seeding import game_rng
from evo_mastermind.symmetry import colour_classes, multiplicity_classes

SOLVER_FIRST_GUESSES = {
    (4, 6): {"knuth": "AABB", "most_parts": "AABC", "expected_size": "AABB", "entropy": "AABC"},
    (5, 8): dict.fromkeys(["knuth", "most_parts", "expected_size", "entropy"], "AABBC"),
}
"""The first guesses Magruder's solver presets for these games."""


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
    colour_classes.cache_clear()
    start = time.perf_counter()
    scorer = indexed_scorer(space)
    if scorer.has_table:
        _ = scorer.table
    table_done = time.perf_counter()
    tree = build_tree(make_player("knuth", space))
    end = time.perf_counter()
    return end - start, end - table_done, int(tree.guess_counts().sum())


def solver_tree(space: CodeSpace, name: str) -> tuple[float, int, int]:
    """Seconds for one tree with the C++ solver's settings (fresh caches), its total and max."""
    indexed_scorer.cache_clear()
    multiplicity_classes.cache_clear()
    colour_classes.cache_clear()
    first = SOLVER_FIRST_GUESSES[(space.pegs, space.colors)][name]
    options = {"first_guess": first}
    if name != "knuth":
        options.update(ties="lexicographic", pool="all")
    start = time.perf_counter()
    tree = build_tree(make_player(name, space, options))
    seconds = time.perf_counter() - start
    counts = tree.guess_counts()
    return seconds, int(counts.sum()), int(counts.max())


def solver_trees(figures: dict[str, object], space: CodeSpace, repeats: int) -> None:
    """The four trees of the C++ solver on ``space``, on one thread and on every core."""
    threads = numba.get_num_threads()
    for name in SOLVER_FIRST_GUESSES[(space.pegs, space.colors)]:
        for label, n_threads in (("1 core", 1), (f"{threads} cores", threads)):
            numba.set_num_threads(n_threads)
            runs = [solver_tree(space, name) for _ in range(repeats)]
            figures[f"{name} tree {space} median s, {label}"] = round(
                statistics.median(r[0] for r in runs), 4
            )
        numba.set_num_threads(threads)
        total, longest = runs[0][1], runs[0][2]
        figures[f"{name} tree {space} total / mean / max"] = (
            f"{total} / {total / space.size:.4f} / {longest}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--quick", action="store_true", help="skip the (5,8) trees and (6,9) games (minutes)"
    )
    args = parser.parse_args()
    kernels.warm()
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
    solver_trees(figures, classic, repeats=7)
    if not args.quick:
        solver_trees(figures, medium, repeats=1)
        large = CodeSpace(6, 9)
        player = make_player("entropy", large, {"first_guess": "AABBCD"})
        texts = [large.format(code) for code in large.sample(np.random.default_rng(69), 5)]
        start = time.perf_counter()
        guesses = [
            play_game(
                player, Codemaker(large, text), game_rng(1, "entropy", 0, text, large.colors)
            ).n_guesses
            for text in texts
        ]
        figures["entropy (6,9) first 5 sampled games, s/game (cold cache)"] = round(
            (time.perf_counter() - start) / len(texts), 2
        )
        figures["entropy (6,9) mean guesses over those games"] = float(np.mean(guesses))
    record("engine", figures)


if __name__ == "__main__":
    main()

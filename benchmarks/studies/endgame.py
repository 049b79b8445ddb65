"""The exact end game by threshold on small games: every secret, the optimum as the mark.

Run with ``python -m benchmarks.studies.endgame --pegs 4 --colors 6 --thresholds 0 10 30 100
300 1296`` (about five CPU minutes on (4,6); (4,7) with a threshold covering its space about
fifteen, most of it solving the parts its opening leaves). For each threshold ``T`` the
sampler (its defaults: μ = 1,000 holds every consistent code after the first guess, entropy)
plays every secret twice:

* ``fixed``: every game from the same generator seed, so the player is one fixed strategy
  (its draws depend on the history alone): the end game is then never worse than the same
  strategy without it, and each set it takes over is played at that set's optimum;
* ``seeded``: each game its own generator, as the runner plays them: the player without the
  end game is then a random strategy, whose realized total may fall below any fixed
  strategy's (and below the optimum on (3,4): 203 against 206).

Per threshold: total and mean guesses over every secret, the gain against ``T = 0``, the
share of moves the end game played and the searches whose work ran out (``--work`` sets
``endgame_work``). Figures go to ``benchmarks/results/endgame_<pegs>x<colors>.json``
(``..._work<N>.json`` with ``--work``).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from benchmarks._record import record
from evo_mastermind.codes import CodeSpace
from evo_mastermind.game import Codemaker, play_game
from evo_mastermind.players import make_player


def play_all(space: CodeSpace, options: dict[str, Any], seeds: str) -> dict[str, Any]:
    """Every secret of ``space`` played by the sampler with ``options``; the figures."""
    player = make_player("sampler", space, options)
    guesses = moves = misses = 0
    worst = 0
    start = time.process_time()
    for i, code in enumerate(space.all_codes):
        rng = np.random.default_rng(7 if seeds == "fixed" else [7, i])
        result = play_game(player, Codemaker(space, code), rng)
        assert result.solved
        guesses += result.n_guesses
        worst = max(worst, result.n_guesses)
        moves += player.endgame.moves  # type: ignore[attr-defined]
        misses += player.endgame.misses  # type: ignore[attr-defined]
    return {
        "total": guesses,
        "mean": round(guesses / space.size, 4),
        "max": worst,
        "endgame_share": round(moves / guesses, 4),
        "misses": misses,
        "cpu_seconds": round(time.process_time() - start, 1),
    }


def main() -> None:
    """Play the thresholds given on the command line and record the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pegs", type=int, default=4)
    parser.add_argument("--colors", type=int, default=6)
    parser.add_argument("--thresholds", type=int, nargs="+", default=[0, 10, 30, 100, 300, 1296])
    parser.add_argument("--seeds", nargs="+", default=["fixed", "seeded"])
    parser.add_argument("--work", type=int, default=None, help="endgame_work (default: its)")
    args = parser.parse_args()
    space = CodeSpace(args.pegs, args.colors)
    figures: dict[str, Any] = {}
    for seeds in args.seeds:
        plain = None
        for threshold in args.thresholds:
            options = {"endgame": threshold}
            if args.work is not None:
                options["endgame_work"] = args.work
            found = play_all(space, options, seeds)
            if threshold == 0:
                plain = found["total"]
            if plain is not None:
                found["gain"] = plain - found["total"]
            figures[f"{seeds} T={threshold}"] = found
            print(seeds, threshold, found, flush=True)
    work = "" if args.work is None else f"_work{args.work}"
    record(f"endgame_{args.pegs}x{args.colors}{work}", figures)


if __name__ == "__main__":
    main()

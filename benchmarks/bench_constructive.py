"""Constructive players on tournament games: guesses, wins and seconds per game.

Run with ``python -m benchmarks.bench_constructive`` (one process, BLAS on one thread). Every game
has the tournament limits of the brENIAC and FBI reports: 100 guesses and 5 s of the player's own
time. Players: ``rao`` (brENIAC's rules, Alpha and Random colour orders; FBI's variant for
reference), ``fcol`` (Helsen's fcol_a_05) and ``joint`` (this project's player). Secrets come from
the SCSAs, drawn from root seed 2024; games are seeded by :func:`game_rng`.

Published anchors: team FBI (Lama et al.) InsertColors (8,10) 15.56 guesses, (22,24) 79.78 with 94%
of rounds won; brENIAC (Dekel et al.) "approximately 60" at (26,26) (its heat maps average a
mixed set of SCSAs). The targets: win every round on every SCSA up to (26,26), and beat those
means.
"""

from __future__ import annotations

import os

# One BLAS thread per process: the measurement is of one core, and threads thrash when
# processes share cores (set before numpy is imported).
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import argparse  # noqa: E402
import time  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402

from benchmarks._record import record  # noqa: E402
from evo_mastermind.codes import CodeSpace  # noqa: E402
from evo_mastermind.game import Codemaker, play_game  # noqa: E402
from evo_mastermind.players import make_player  # noqa: E402
from evo_mastermind.scsa import SCSAS, draw_secrets  # noqa: E402
from evo_mastermind.seeding import game_rng, stream_rng  # noqa: E402

ROOT_SEED = 2024
GUESS_LIMIT, TIME_LIMIT = 100, 5.0

PLAYERS: dict[str, tuple[str, dict[str, Any]]] = {
    "rao alphabetical": ("rao", {}),
    "rao random": ("rao", {"color_order": "random"}),
    "rao fbi variant": ("rao", {"variant": "fbi"}),
    "fcol": ("fcol", {}),
    "joint": ("joint", {}),
}
INSERT_SIZES = [(8, 10), (22, 24), (26, 26)]
SWEEP_SIZES = [(8, 10), (16, 16), (26, 26)]


def measure(label: str, scsa: str, space: CodeSpace, secrets: int) -> dict[str, Any]:
    """Play ``secrets`` secrets of one SCSA with one player; the figures of those games."""
    name, options = PLAYERS[label]
    player = make_player(name, space, options)
    codes = draw_secrets(scsa, space, stream_rng(ROOT_SEED, f"{scsa} {space}"), secrets)
    guesses, seconds, solved = [], [], 0
    for code in codes:
        text = space.format(code)
        game = play_game(
            player,
            Codemaker(space, text),
            game_rng(ROOT_SEED, label, 0, text, space.colors),
            guess_limit=GUESS_LIMIT,
            time_limit=TIME_LIMIT,
        )
        guesses.append(game.n_guesses)
        seconds.append(game.player_seconds)
        solved += game.solved
    return {
        "games": secrets,
        "mean guesses": round(float(np.mean(guesses)), 2),
        "max guesses": int(max(guesses)),
        "win rate": round(solved / secrets, 4),
        "mean s/game": round(float(np.mean(seconds)), 4),
        "max s/game": round(float(max(seconds)), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--insert-secrets", type=int, default=300)
    parser.add_argument("--sweep-secrets", type=int, default=100)
    parser.add_argument("--quick", action="store_true", help="30 and 10 secrets (a smoke run)")
    args = parser.parse_args()
    insert_n, sweep_n = (30, 10) if args.quick else (args.insert_secrets, args.sweep_secrets)
    figures: dict[str, Any] = {
        "limits": f"{GUESS_LIMIT} guesses, {TIME_LIMIT} s player time per game",
        "published": {
            "FBI insert_colors (8,10) mean guesses": 15.56,
            "FBI insert_colors (22,24) mean guesses / win rate": "79.78 / 0.94",
            "brENIAC (26,26) mean guesses (mixed SCSAs)": "about 60",
        },
    }
    start = time.perf_counter()
    for pegs, colors in INSERT_SIZES:
        space = CodeSpace(pegs, colors)
        for label in PLAYERS:
            figures[f"{label} | insert_colors {space}"] = measure(
                label, "insert_colors", space, insert_n
            )
    for pegs, colors in SWEEP_SIZES:
        space = CodeSpace(pegs, colors)
        for label in PLAYERS:
            means = []
            for scsa in sorted(SCSAS):
                if scsa == "only_once" and colors < pegs:
                    continue
                key = f"{label} | {scsa} {space}"
                if key not in figures:  # insert_colors may be measured above already
                    figures[key] = measure(label, scsa, space, sweep_n)
                means.append(figures[key]["mean guesses"])
            figures[f"{label} | mean over the SCSAs {space}"] = round(float(np.mean(means)), 2)
    figures["benchmark wall seconds"] = round(time.perf_counter() - start, 1)
    record("constructive", figures)


if __name__ == "__main__":
    main()

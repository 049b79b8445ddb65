"""The exact end game by threshold on the studies' sizes, paired by secret with the sampler.

Run with ``python -m benchmarks.studies.endgame_thresholds --size 5x8 --secrets 100
--thresholds 50 150 500``. The ``Sampler (all)`` entry of ``scaling/uniform_<size>`` (the
sampler with ``play: all`` and its size's preset, the uniform-sampling study's label and
seed) plays the first ``--secrets`` of that study's secrets in the order they were drawn,
each game with the generator the runner gives it, once without the end game (the study's own
games) and once per threshold ``T`` with ``endgame: T`` and the ``scaling/endgame_*``
configs' ``endgame_work`` (10^9 units) and ``endgame_pool`` (100). Until the end game takes
over, every game is move for move the sampler's.

Per threshold: the realized mean, the paired difference against the sampler on the same
secrets (with its standard error), the end game's expected guesses (the mean of
:attr:`evo_mastermind.players.endgame.EndGame.expected`: where it took over, the guesses
played before plus the optimum's mean over the set, else the game's own guesses), the share
of moves it played, its searches that ran out of work (misses) and CPU seconds a game; and
its expected guesses paired with the lowest threshold's, what a higher threshold adds without
the luck of the last draws (both sides' luck is in a realized difference). The
cost is about the sampler's time a game plus the end game's (0.3 to 0.45 s a game on (5,8)
to (7,10), 1.4 s on (8,12)), printed before the start. Figures go, size by size, to
``benchmarks/results/endgame_thresholds.json``; a run stopped by Ctrl-C records what it
finished, marked partial.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from benchmarks._record import RESULTS, record
from evo_mastermind.codes import CodeSpace
from evo_mastermind.game import Codemaker, play_game
from evo_mastermind.players import make_player
from evo_mastermind.players.endgame import EndGame
from evo_mastermind.runner import load_config
from evo_mastermind.runner.config import ExperimentConfig
from evo_mastermind.runner.plan import GameKey, plan_groups
from evo_mastermind.seeding import game_rng

LABEL = "Sampler (all)"
"""The entry of ``scaling/uniform_<size>`` the end game is added to."""

ENDGAME = {"endgame_work": 1_000_000_000, "endgame_pool": 100}
"""The ``scaling/endgame_*`` configs' work and pool (``docs/studies/endgame.md``)."""

NAME = "endgame_thresholds"

SECONDS_A_GAME = {"5x8": 0.35, "6x9": 0.35, "7x10": 0.45, "8x12": 1.4}
"""Rough CPU seconds a game with the end game, for the estimate printed before a run."""


@dataclass
class Games:
    """One player's games over the same secrets, game by game."""

    guesses: list[int] = field(default_factory=list)
    expected: list[float] = field(default_factory=list)
    moves: int = 0
    misses: int = 0
    taken_over: int = 0
    seconds: list[float] = field(default_factory=list)

    def add(self, n_guesses: int, endgame: EndGame, seconds: float = 0.0) -> None:
        """One finished game and what its player's end game did in it."""
        self.guesses.append(n_guesses)
        self.expected.append(n_guesses if endgame.expected is None else endgame.expected)
        self.taken_over += endgame.expected is not None
        self.moves += endgame.moves
        self.misses += endgame.misses
        self.seconds.append(seconds)


def sampler_keys(
    config: ExperimentConfig, label: str, n: int
) -> tuple[dict[str, Any], tuple[GameKey, ...]]:
    """The options of ``label``'s entry and its first ``n`` games, in the order drawn."""
    for group in plan_groups(config):
        if group.entry.label == label:
            return dict(group.entry.params), group.keys[:n]
    raise ValueError(f"{config.name}: no entry labelled {label!r}")


def play(
    config: ExperimentConfig,
    label: str,
    options: dict[str, Any],
    keys: tuple[GameKey, ...],
    games: Games | None = None,
) -> Games:
    """``keys`` played by ``label``'s player with ``options``, as the runner seeds them.

    Games are added to ``games`` (a new record by default) as they finish, so a Ctrl-C leaves
    the games played so far.
    """
    games = Games() if games is None else games
    space = CodeSpace(keys[0].pegs, keys[0].colors)
    player = make_player("sampler", space, options)
    for key in keys:
        rng = game_rng(config.seed, label, key.run, key.secret, key.colors, key.occurrence)
        start = time.process_time()
        result = play_game(player, Codemaker(space, key.secret), rng, config.guess_limit)
        seconds = time.process_time() - start
        if not result.solved:
            raise ValueError(f"{config.name}: the game of {key.secret} was not solved")
        games.add(result.n_guesses, player.endgame, seconds)  # type: ignore[attr-defined]
    return games


def figures_of(games: Games, plain: Games | None, lowest: Games | None = None) -> dict[str, Any]:
    """A threshold's figures, paired with the sampler's games on the same secrets.

    With ``lowest`` (the games of the lowest threshold), also its expected guesses paired
    with that threshold's: what the higher threshold adds, without the luck of the last draws.
    """
    n = len(games.guesses)
    found: dict[str, Any] = {
        "games": n,
        "mean": round(float(np.mean(games.guesses)), 4),
        "expected": round(float(np.mean(games.expected)), 4),
        "taken_over": games.taken_over,
        "endgame_share_of_moves": round(games.moves / sum(games.guesses), 4),
        "misses": games.misses,
        "cpu_seconds_per_game": round(float(np.mean(games.seconds)), 3),
        # the first games of a process compile the kernels: the median leaves that out
        "cpu_seconds_median": round(float(np.median(games.seconds)), 3),
        # game by game, for pairing thresholds with each other
        "guesses": games.guesses,
        "expected_by_game": [round(value, 4) for value in games.expected],
    }
    if plain is not None and n > 1:
        difference = np.subtract(games.guesses, plain.guesses[:n], dtype=float)
        found["paired_difference"] = round(float(difference.mean()), 4)
        found["paired_se"] = round(float(difference.std(ddof=1) / np.sqrt(n)), 4)
        expected = np.subtract(games.expected, plain.guesses[:n], dtype=float)
        found["expected_difference"] = round(float(expected.mean()), 4)
        found["expected_se"] = round(float(expected.std(ddof=1) / np.sqrt(n)), 4)
    if lowest is not None and lowest is not games and n > 1:
        gain = np.subtract(games.expected, lowest.expected[:n], dtype=float)
        found["expected_against_lowest_threshold"] = round(float(gain.mean()), 4)
        found["expected_against_lowest_threshold_se"] = round(
            float(gain.std(ddof=1) / np.sqrt(n)), 4
        )
    return found


def sweep(
    config: ExperimentConfig, label: str, thresholds: list[int], n: int, out: dict[str, Any]
) -> None:
    """The sampler and each threshold over the first ``n`` secrets; figures into ``out``.

    ``out`` holds every finished threshold (``"none"`` for the sampler without the end game)
    and, while one is being played, its games so far marked ``partial``.
    """
    options, keys = sampler_keys(config, label, n)
    plain: Games | None = None
    lowest: Games | None = None
    for threshold in [None, *sorted(thresholds)]:
        name = "none" if threshold is None else f"T={threshold}"
        changes = {} if threshold is None else {"endgame": threshold, **ENDGAME}
        games = Games()
        try:
            play(config, label, {**options, **changes}, keys, games)
        finally:
            if games.guesses:
                out[name] = figures_of(games, plain, lowest)
                if len(games.guesses) < len(keys):
                    out[name]["partial"] = True
        if threshold is None:
            plain = games
        elif lowest is None:
            lowest = games
        print(name, out[name], flush=True)


def main() -> None:
    """Sweep one size's thresholds and record them beside the sizes already recorded."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", required=True, choices=sorted(SECONDS_A_GAME))
    parser.add_argument("--secrets", type=int, default=100, help="the first N of the 500")
    parser.add_argument("--thresholds", type=int, nargs="+", default=[50, 150, 500])
    args = parser.parse_args()
    if not 2 <= args.secrets <= 500 or min(args.thresholds) < 1:
        parser.error("--secrets must be 2 to 500 and every threshold at least 1")
    config = load_config(f"scaling/uniform_{args.size}")
    games = args.secrets * (len(args.thresholds) + 1)
    print(f"{games} games, about {games * SECONDS_A_GAME[args.size] / 60:.0f} CPU minutes")
    path = RESULTS / f"{NAME}.json"
    recorded = json.loads(path.read_text())["figures"] if path.exists() else {}
    found: dict[str, Any] = {}
    recorded[args.size] = {"secrets": args.secrets, "label": LABEL, **ENDGAME, "figures": found}
    try:
        sweep(config, LABEL, args.thresholds, args.secrets, found)
    except KeyboardInterrupt:
        recorded[args.size]["partial"] = "stopped by Ctrl-C"
        print("stopped: the figures recorded are partial")
    finally:
        record(NAME, recorded)


if __name__ == "__main__":
    main()

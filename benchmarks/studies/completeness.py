"""What an incomplete archive costs on (8,12): the archive EA against itself with a perfect archive.

Run with ``python -m benchmarks.studies.completeness [--games N] [--workers N]`` (200 secrets
take about 25 minutes on two cores). Late in a game the search often stops short of μ members
without having found every consistent code, and the heuristic then scores a part of the
consistent set as if it were all of it. This study plays the first ``N`` secrets of
the study ``scaling/8x12`` twice with the same game generator:

* ``archive``: the best settings as they are (the committed games, move for move); at each
  move where the archive is short of μ, the exact consistent set is counted beside it;
* ``exact when short``: the same player, scoring the exact consistent set instead whenever
  its archive is short of μ (a uniform sample of μ of it, scored as a full archive, when it
  holds more than μ codes).

The games agree until the first move the two score differently, so their difference is
measured with far less noise than two independent runs give. The exact set comes from
:func:`benchmarks.studies.exact.consistent_codes`, which the players never call.
Figures go to ``benchmarks/results/completeness.json``.
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor
from itertools import pairwise
from typing import Any

import numpy as np
from tqdm import tqdm

from benchmarks._record import record
from benchmarks.studies.exact import consistent_codes
from evo_mastermind.codes import Code, Codes, CodeSpace
from evo_mastermind.evolution.choice import choose_guess
from evo_mastermind.game import Codemaker, play_game
from evo_mastermind.players.archive import ArchiveParams, ArchivePlayer
from evo_mastermind.runner import load_config
from evo_mastermind.runner.plan import GameKey, plan_groups
from evo_mastermind.seeding import game_rng
from evo_mastermind.studies import study_path

CONFIG = study_path("scaling/8x12")
LABEL = "Archive best (all)"
SIZE_BINS = (3, 20, 100, 500, 2001)
"""Archive sizes (members when the search stopped short of μ) the completeness is tallied by."""


class ExactWhenShort(ArchivePlayer):
    """The archive player, counting the exact consistent set whenever its archive is short."""

    replace = False
    """Score the exact set instead of the archive (otherwise only count it)."""

    def start(self, rng: np.random.Generator) -> None:
        """A new game, with no short moves yet."""
        super().start(rng)
        self.shortfalls: list[tuple[int, int]] = []  # (archive members, consistent codes)

    def next_guess(self) -> Code:
        """:meth:`ArchivePlayer.next_guess`, scoring :meth:`scored_members` instead of the archive.

        A copy of the player's few lines, so the study's seam stays out of the package.
        """
        self._seen = []
        best = self._search()
        if len(self.archive) == 0:
            return self.capped(best)
        self._scan()
        options = self.params
        members, sample = self.scored_members()
        heuristic = options.heuristic
        if sample and options.heuristic_when_full is not None:
            heuristic = options.heuristic_when_full
        guess, _ = choose_guess(
            members,
            self._pool(members) if options.play == "all" else None,
            heuristic,
            self.space.colors,
            self._rng,
            options.lookahead_width,
            self.curve,
        )
        return guess.copy()

    def scored_members(self) -> tuple[Codes, bool]:
        """A full archive as it is; a short one counted against (or replaced by) the exact set."""
        members, sample = self.archive.codes, self.archive.full
        if sample:
            return members, sample
        exact = consistent_codes(self.history)
        self.shortfalls.append((members.shape[0], exact.shape[0]))
        if not self.replace:
            return members, sample
        capacity = self.archive.capacity
        if exact.shape[0] > capacity:
            pick = np.sort(self._rng.choice(exact.shape[0], capacity, replace=False))
            return exact[pick], True
        return exact, False


class ScoresExactSet(ExactWhenShort):
    """The archive player, scoring the exact consistent set whenever its archive is short."""

    replace = True


def play_pair(key: GameKey, seed: int, params: dict[str, Any]) -> dict[str, Any]:
    """One secret played by both players with the same game generator."""
    space = CodeSpace(key.pegs, key.colors)
    validated = ArchiveParams.model_validate(params)
    outcome: dict[str, Any] = {"secret": key.secret}
    for name, kind in (("archive", ExactWhenShort), ("exact", ScoresExactSet)):
        player = kind(space, validated)
        rng = game_rng(seed, key.label, key.run, key.secret, key.colors, key.occurrence)
        result = play_game(player, Codemaker(space, key.secret), rng)
        outcome[name] = result.n_guesses
        outcome[f"{name}_shortfalls"] = player.shortfalls
    return outcome


def summarise(pairs: list[dict[str, Any]]) -> dict[str, Any]:
    """Mean guesses of both, their paired difference, and how complete the short archives were."""
    plain = np.array([pair["archive"] for pair in pairs], dtype=float)
    exact = np.array([pair["exact"] for pair in pairs], dtype=float)
    difference = exact - plain
    short = np.array([s for pair in pairs for s in pair["archive_shortfalls"]]).reshape(-1, 2)
    by_size = {}
    for low, high in pairwise(SIZE_BINS):
        rows = short[(short[:, 0] >= low) & (short[:, 0] < high)]
        if rows.size:
            by_size[f"{low}-{high - 1} members"] = {
                "moves": int(rows.shape[0]),
                "incomplete": round(float(np.mean(rows[:, 0] < rows[:, 1])), 3),
                "share_found": round(float(np.mean(rows[:, 0] / rows[:, 1])), 3),
            }
    return {
        "games": len(pairs),
        "archive_mean": round(float(plain.mean()), 4),
        "exact_when_short_mean": round(float(exact.mean()), 4),
        "paired_difference": round(float(difference.mean()), 4),
        "paired_standard_error": round(float(difference.std(ddof=1) / np.sqrt(len(pairs))), 4),
        "games_that_differ": int(np.count_nonzero(difference)),
        "short_moves": int(short.shape[0]),
        "completeness_by_archive_size": by_size,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="secrets played (default 100)")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    args = parser.parse_args()
    config = load_config(CONFIG)
    (group,) = [group for group in plan_groups(config) if group.entry.label == LABEL]
    keys = group.keys[: args.games]
    with ProcessPoolExecutor(args.workers) as pool:
        played = pool.map(
            play_pair, keys, [config.seed] * len(keys), [group.entry.params] * len(keys)
        )
        pairs = list(tqdm(played, total=len(keys), desc="paired games", unit="secret"))
    record("completeness", {"8x12 archive best (all)": summarise(pairs)})


if __name__ == "__main__":
    main()

"""Small-scale figures of the sampler player beside the archive EA, and the archive's bias.

Run with ``python -m benchmarks.studies.uniform_sampling`` (about three CPU minutes with the
configs' first entries, about seven with every entry they hold now; with ``--mu``, the
sampler alone at other μ, about three more). It
plays a spread subset of the secrets of ``scaling/uniform_5x8`` (every 5th of
the 500: 100) and ``uniform_8x12.yaml`` (every 25th: 20) with each player entry of those
configs, each game with the generator the full run gives it (the archive EA's games are
the committed study's, move for move). On (8,12) it also redoes the bias measurement of
``docs/studies/larger-games.md`` with the exact sampler: at moves 2 and 3 with a full
archive, the entropy of the guess picked over the archive and of the guess picked the same
way over as many uniform consistent codes, both counted against 10,000 more uniform
consistent codes (the study's own generator: the games are untouched).

The full study (all 500 secrets, and every game size) is the configs themselves.
Figures go to ``benchmarks/results/uniform_sampling.json``.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from benchmarks._record import record
from benchmarks.studies.paired import paired_difference
from evo_mastermind.codes import Code, Codes, CodeSpace
from evo_mastermind.evolution.choice import choose_guess
from evo_mastermind.game import Codemaker, play_game
from evo_mastermind.heuristics import entropy_score
from evo_mastermind.partitions import partition_counts
from evo_mastermind.players import make_player
from evo_mastermind.players.archive import ArchiveParams, ArchivePlayer
from evo_mastermind.runner import load_config
from evo_mastermind.runner.plan import plan_groups
from evo_mastermind.sampling import Constraints, sample_consistent
from evo_mastermind.scoring import response_matrix
from evo_mastermind.seeding import game_rng

ARCHIVE = "Archive best (all)"
REFERENCE_CODES = 10_000


def entropy_over(guess: Code, reference: Codes, colors: int) -> float:
    """The entropy (bits) of the partition of ``reference`` by ``guess``."""
    responses = response_matrix(guess[None, :], reference, colors)
    pegs = reference.shape[1]
    return float(entropy_score(partition_counts(responses, (pegs + 1) ** 2))[0])


class BiasProbe(ArchivePlayer):
    """The archive player, measuring at moves 2 and 3 the entropy its sample's pick loses."""

    def start(self, rng: np.random.Generator) -> None:
        """A new game; the probe's own generator comes from the game's first draw-free seed."""
        super().start(rng)
        self.losses: list[tuple[int, float]] = []
        self.probe_rng = np.random.default_rng(self.probe_seed)

    probe_seed: tuple[int, ...] = (0,)

    def next_guess(self) -> Code:
        """The archive player's guess, unchanged; beside it, the two picks compared."""
        guess = super().next_guess()
        move = len(self.history) + 1
        if move in (2, 3) and self.archive.full:
            members = self.archive.codes
            constraints = Constraints.of(self.space, self.history)
            rng = self.probe_rng
            uniform = sample_consistent(constraints, members.shape[0], rng).codes
            reference = sample_consistent(constraints, REFERENCE_CODES, rng, replace=True).codes
            colors = self.space.colors
            picks = [
                choose_guess(codes, None, "entropy", colors, rng)[0] for codes in (members, uniform)
            ]
            bits = [entropy_over(pick, reference, colors) for pick in picks]
            self.losses.append((move, bits[1] - bits[0]))
        return guess


def play_subset(
    name: str,
    every: int,
    probe: bool,
    only: str | None = None,
    changes: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Every entry of ``uniform_<name>.yaml`` on every ``every``-th secret.

    With ``only``, just the entry of that label, its options changed by ``changes``.
    """
    config = load_config(f"scaling/uniform_{name}")
    figures: dict[str, Any] = {}
    for group in plan_groups(config):
        entry = group.entry
        if only is not None and entry.label != only:
            continue
        keys = group.keys[::every]
        space = CodeSpace(keys[0].pegs, keys[0].colors)
        params = {**entry.params, **(changes or {})}
        is_probe = probe and entry.label == ARCHIVE
        player = (
            BiasProbe(space, ArchiveParams.model_validate(params))
            if is_probe
            else make_player(entry.player, space, params)
        )
        guesses, seconds, losses = [], [], []
        for index, key in enumerate(keys):
            if isinstance(player, BiasProbe):
                player.probe_seed = (config.seed, index)
            rng = game_rng(config.seed, key.label, key.run, key.secret, key.colors, key.occurrence)
            result = play_game(player, Codemaker(space, key.secret), rng, config.guess_limit)
            assert result.solved, (entry.label, key.secret)
            guesses.append(result.n_guesses)
            seconds.append(result.player_seconds)
            if isinstance(player, BiasProbe):
                losses.extend(player.losses)
        figures[entry.label] = {
            "games": len(keys),
            "mean_guesses": round(float(np.mean(guesses)), 4),
            "max_guesses": int(np.max(guesses)),
            "cpu_seconds_per_game": round(float(np.mean(seconds)), 3),
            "guesses": guesses,
        }
        if losses:
            figures[entry.label]["entropy_lost_by_archive_pick"] = {
                f"move {move}": {
                    "positions": len(values),
                    "mean_bits": round(float(np.mean(values)), 4),
                    "sd_bits": round(float(np.std(values, ddof=1)), 4) if len(values) > 1 else None,
                }
                for move in (2, 3)
                if (values := [loss for m, loss in losses if m == move])
            }
        print(entry.label, {k: v for k, v in figures[entry.label].items() if k != "guesses"})
    if ARCHIVE not in figures:
        return figures
    archive = np.array(figures[ARCHIVE]["guesses"], dtype=float)
    for label, row in figures.items():
        if label != ARCHIVE:
            paired = paired_difference(row["guesses"], archive)
            row["paired_difference_vs_archive"] = round(paired.mean, 4)
            row["paired_standard_error"] = round(paired.standard_error, 4)
    return figures


def main() -> None:
    """Play both subsets and record the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every-5x8", type=int, default=5)
    parser.add_argument("--every-8x12", type=int, default=25)
    parser.add_argument(
        "--mu",
        action="store_true",
        help="instead: the sampler alone on every 5th secret, (5,8) at mu 3000 and (8,12) "
        "at mu 2000 and 4000 (benchmarks/results/uniform_sampling_mu.json)",
    )
    args = parser.parse_args()
    started = time.process_time()
    if args.mu:
        sampler = "Sampler (consistent)"
        record(
            "uniform_sampling_mu",
            {
                "5x8 mu 3000 (every 5th secret)": play_subset(
                    "5x8", 5, False, sampler, {"mu": 3000}
                ),
                **{
                    f"8x12 mu {mu} (every 5th secret)": play_subset(
                        "8x12", 5, False, sampler, {"mu": mu}
                    )
                    for mu in (2000, 4000)
                },
                "cpu_seconds_total": round(time.process_time() - started, 1),
                "load": "one process, other helpers' work on the shared 2-core machine",
            },
        )
        return
    figures = {
        "5x8 (every 5th secret of the 500)": play_subset("5x8", args.every_5x8, probe=False),
        "8x12 (every 25th secret of the 500)": play_subset("8x12", args.every_8x12, probe=True),
        "cpu_seconds_total": round(time.process_time() - started, 1),
        "load": "one process, other helpers' work on the shared 2-core machine",
    }
    record("uniform_sampling", figures)


if __name__ == "__main__":
    main()

"""Where the sampler's (8,12) guesses could come from: the information each choice leaves.

Run with ``python -m benchmarks.studies.uniform_gap`` (about ten CPU minutes). It plays
the sampler's ``8x12`` preset (consistent play, entropy over μ = 2,000 uniform consistent
codes) on a spread subset of the secrets of ``scaling/uniform_8x12``, each game with the
generator the full study gives it, so the games are the study's. At every move where the
sample is not the whole consistent set, a probe with its own generator (the games are
untouched) asks what a different choice would have gained, each pick's entropy counted
against 10,000 further uniform consistent codes:

* ``sample``: the preset's pick, entropy over the 2,000 sampled codes, a sampled code;
* ``neighbours``: the same scores, sampled codes and 2,000 codes one peg away from them
  (the ``play: all`` pool);
* ``random``: as ``neighbours``, and 4,000 uniform codes of the whole space besides;
* ``larger sample``: entropy over 8,000 sampled codes, a sampled code (μ four times larger);
* ``best known``: the best of every candidate above by the reference itself: an upper bound
  on what those candidates offer (slightly optimistic: the reference picks and scores).

Figures go to ``benchmarks/results/uniform_gap.json``: per move, the mean entropy each
choice gains over the preset's pick, in bits.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from benchmarks._record import record
from benchmarks.studies.uniform_sampling import entropy_over
from evo_mastermind.codes import Code, Codes, CodeSpace
from evo_mastermind.evolution.choice import choose_guess
from evo_mastermind.game import Codemaker, play_game
from evo_mastermind.heuristics import entropy_score
from evo_mastermind.partitions import partition_counts
from evo_mastermind.players.sampler import SamplerParams, SamplerPlayer
from evo_mastermind.runner import load_config
from evo_mastermind.runner.plan import plan_groups
from evo_mastermind.sampling import Constraints, sample_consistent
from evo_mastermind.scoring import response_matrix
from evo_mastermind.seeding import game_rng

LABEL = "Sampler (consistent)"
REFERENCE_CODES = 10_000
LARGER_SAMPLE = 8_000
RANDOM_CODES = 4_000
CHOICES = ("neighbours", "random", "larger sample", "best known")


class GapProbe(SamplerPlayer):
    """The sampler, unchanged; beside each sampled move, the other choices' entropies."""

    probe_seed: tuple[int, ...] = (0,)

    def start(self, rng: np.random.Generator) -> None:
        """A new game, and the probe's own generator."""
        super().start(rng)
        self.gains: list[dict[str, float]] = []
        self.probe_rng = np.random.default_rng(self.probe_seed)

    def ask(self) -> Code:
        """The sampler's guess; beside it, what the other choices would have gained."""
        guess = super().ask()
        if len(self.history) > 0:
            self._probe(guess)
        return guess

    def _probe(self, guess: Code) -> None:
        constraints = Constraints.of(self.space, self.history)
        rng = self.probe_rng
        sample = sample_consistent(constraints, self.params.mu, rng)
        if sample.complete:
            return
        colors = self.space.colors
        reference = sample_consistent(constraints, REFERENCE_CODES, rng, replace=True).codes
        neighbours = self._neighbours(sample.codes)
        uniform = self.space.sample(rng, RANDOM_CODES)
        larger = sample_consistent(constraints, LARGER_SAMPLE, rng).codes
        picks = {
            "sample": choose_guess(sample.codes, None, "entropy", colors, rng)[0],
            "neighbours": choose_guess(sample.codes, neighbours, "entropy", colors, rng)[0],
            "random": choose_guess(
                sample.codes, np.concatenate([neighbours, uniform]), "entropy", colors, rng
            )[0],
            "larger sample": choose_guess(larger, None, "entropy", colors, rng)[0],
        }
        bits = {name: entropy_over(pick, reference, colors) for name, pick in picks.items()}
        everything = np.concatenate([sample.codes, neighbours, uniform, larger])
        bits["best known"] = best_entropy(everything, reference, colors)
        self.gains.append({name: bits[name] - bits["sample"] for name in CHOICES})
        self.gains[-1]["move"] = len(self.history) + 1
        self.gains[-1]["sample bits"] = bits["sample"]


def best_entropy(candidates: Codes, reference: Codes, colors: int) -> float:
    """The highest entropy (bits) over ``reference`` of any candidate, in row blocks."""
    pegs = reference.shape[1]
    best = 0.0
    for start in range(0, candidates.shape[0], 2000):
        responses = response_matrix(candidates[start : start + 2000], reference, colors)
        best = max(best, float(entropy_score(partition_counts(responses, (pegs + 1) ** 2)).max()))
    return best


def probe_games(every: int) -> dict[str, Any]:
    """The preset's games on every ``every``-th secret, probed at each sampled move."""
    config = load_config("scaling/uniform_8x12")
    group = next(group for group in plan_groups(config) if group.entry.label == LABEL)
    keys = group.keys[::every]
    space = CodeSpace(keys[0].pegs, keys[0].colors)
    player = GapProbe(space, SamplerParams.model_validate(group.entry.params))
    gains: list[dict[str, float]] = []
    guesses = []
    for index, key in enumerate(keys):
        player.probe_seed = (config.seed, index)
        rng = game_rng(config.seed, key.label, key.run, key.secret, key.colors, key.occurrence)
        result = play_game(player, Codemaker(space, key.secret), rng, config.guess_limit)
        guesses.append(result.n_guesses)
        gains.extend(player.gains)
    by_move: dict[str, Any] = {}
    for move in sorted({int(gain["move"]) for gain in gains}):
        rows = [gain for gain in gains if gain["move"] == move]
        by_move[f"move {move}"] = {
            "positions": len(rows),
            "preset pick, bits": round(float(np.mean([row["sample bits"] for row in rows])), 3),
            **{
                f"{name}, gain in bits": _mean_and_error([row[name] for row in rows])
                for name in CHOICES
            },
        }
    return {
        "games": len(keys),
        "mean_guesses": round(float(np.mean(guesses)), 3),
        "by_move": by_move,
        "all_moves": {
            f"{name}, gain in bits": _mean_and_error([row[name] for row in gains])
            for name in CHOICES
        },
    }


def _mean_and_error(values: list[float]) -> list[float]:
    """Mean and its standard error, rounded."""
    array = np.array(values)
    error = array.std(ddof=1) / np.sqrt(array.size) if array.size > 1 else float("nan")
    return [round(float(array.mean()), 4), round(float(error), 4)]


def main() -> None:
    """Probe the games and record the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=25, help="every n-th secret of the 500")
    args = parser.parse_args()
    started = time.process_time()
    figures = probe_games(args.every)
    figures["cpu_seconds_total"] = round(time.process_time() - started, 1)
    figures["load"] = "one process, other studies running on the shared 2-core machine"
    record("uniform_gap", figures)


if __name__ == "__main__":
    main()

"""Evolutionary players: mean guesses, evaluations and time per game, against seed 002's figures.

Run with ``python -m benchmarks.bench_evolution [--size 4x6 ...] [--workers N]``. Sizes:

* ``4x6``: every one of the 1296 secrets, 10 runs, for EDA+f, EDA+f_ℓ and the archive
  player with its defaults (μ = 30, entropy, consistent play, as seed 002's table 5) and
  in its best settings with consistent and with all-codes play (seed 002, tables 3-5).
* ``5x8``, ``6x9``, ``7x10``, ``8x12``: a fixed sample of secrets (500 by default, drawn from
  ``--seed``) for the archive player in its best settings, plus GA and EDA baselines on
  ``--baseline-secrets`` of them.

Each game's generator is ``np.random.default_rng([seed, run, secret index])``. Seconds per
game are the player's own time (``player_seconds``) in one process; with ``--workers`` above
one the processes share the machine. Figures of each size are merged into
``benchmarks/results/evolution.json``, so sizes can be run one at a time.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from benchmarks._record import RESULTS, record
from evo_mastermind.codes import CodeSpace
from evo_mastermind.game import Codemaker, play_game
from evo_mastermind.players import make_player

SIZES = {"4x6": (4, 6), "5x8": (5, 8), "6x9": (6, 9), "7x10": (7, 10), "8x12": (8, 12)}

_TUNED: dict[str, Any] = {"heuristic": "lookahead", "heuristic_when_full": "entropy", "mu": 1000}

BEST_ARCHIVE: dict[str, dict[str, Any]] = {
    "4x6": {
        "heuristic": "lookahead",
        "mu": 300,
        "max_generations_without_new": 20,
        "population_size": 100,
    },
    "5x8": {**_TUNED, "play": "all"},
    "6x9": {**_TUNED, "play": "all", "first_guess": "AABBCD"},
    "7x10": {**_TUNED, "first_guess": "AABBCCD"},
    "8x12": {
        **_TUNED,
        "mu": 2000,
        "population_size": 300,
        "max_generations_without_new": 60,
        "first_guess": "AABBCCDE",
        "max_evaluations_per_guess": 2_000_000,
    },
}
"""The archive player's best settings per game size (see the player's docstring)."""


@dataclass(frozen=True)
class Job:
    """One player configuration played on some secrets for some runs."""

    label: str
    player: str
    options: dict[str, Any]
    pegs: int
    colors: int
    secrets: list[str]
    runs: int
    seed: int


@dataclass
class Tally:
    """Per-game figures of one job."""

    guesses: list[list[int]] = field(default_factory=list)
    evaluations: list[int] = field(default_factory=list)
    distinct: list[int] = field(default_factory=list)
    capped: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    unsolved: int = 0


def play_chunk(job: Job, run: int, start: int, stop: int) -> dict[str, list[float]]:
    """Play secrets ``start:stop`` of one run with one player object."""
    space = CodeSpace(job.pegs, job.colors)
    player = make_player(job.player, space, job.options)
    out: dict[str, list[float]] = {k: [] for k in ("n", "ev", "dc", "cap", "s", "ok")}
    for index in range(start, stop):
        rng = np.random.default_rng([job.seed, run, index])
        result = play_game(player, Codemaker(space, job.secrets[index]), rng, guess_limit=100)
        out["n"].append(result.n_guesses)
        out["ev"].append(result.stats.evaluations or 0)
        out["dc"].append(result.stats.distinct_codes or 0)
        out["cap"].append(result.stats.capped_guesses or 0)
        out["s"].append(result.player_seconds)
        out["ok"].append(float(result.solved))
    return out


def run_job(job: Job, pool: ProcessPoolExecutor | None, chunk: int) -> dict[str, Any]:
    """Play a job and summarise it in seed 002's table format."""
    tally = Tally()
    started = time.perf_counter()
    load_before = os.getloadavg()[0]
    for run in range(job.runs):
        bounds = [(s, min(s + chunk, len(job.secrets))) for s in range(0, len(job.secrets), chunk)]
        if pool is None:
            parts = [play_chunk(job, run, a, b) for a, b in bounds]
        else:
            futures = [pool.submit(play_chunk, job, run, a, b) for a, b in bounds]
            parts = [future.result() for future in futures]
        guesses: list[int] = []
        for part in parts:
            guesses += [int(n) for n in part["n"]]
            tally.evaluations += [int(v) for v in part["ev"]]
            tally.distinct += [int(v) for v in part["dc"]]
            tally.capped += [int(v) for v in part["cap"]]
            tally.seconds += part["s"]
            tally.unsolved += sum(1 for ok in part["ok"] if not ok)
        tally.guesses.append(guesses)
        print(f"  {job.label} run {run}: mean {np.mean(guesses):.4f}", flush=True)
    run_means = [float(np.mean(g)) for g in tally.guesses]
    size = job.colors**job.pegs
    return {
        "player": job.player,
        "options": job.options,
        "games": sum(len(g) for g in tally.guesses),
        "runs": job.runs,
        "secrets": len(job.secrets),
        "mean": round(float(np.mean(run_means)), 4),
        "run_means_min": round(min(run_means), 4),
        "run_means_max": round(max(run_means), 4),
        "run_means_std": round(float(np.std(run_means, ddof=1)), 4) if job.runs > 1 else None,
        "max_guesses": max(max(g) for g in tally.guesses),
        "unsolved": tally.unsolved,
        "evaluations_per_game": round(float(np.mean(tally.evaluations)), 1),
        "distinct_codes_per_game": round(float(np.mean(tally.distinct)), 1),
        "fraction_of_space_examined": float(f"{np.mean(tally.distinct) / size:.3g}"),
        "capped_guesses": int(sum(tally.capped)),
        "seconds_per_game": round(float(np.mean(tally.seconds)), 5),
        "wall_seconds": round(time.perf_counter() - started, 1),
        "load_average_1min_before_after": [round(load_before, 2), round(os.getloadavg()[0], 2)],
    }


def jobs_for(size: str, args: argparse.Namespace) -> list[Job]:
    """The configurations measured on one game size."""
    pegs, colors = SIZES[size]
    space = CodeSpace(pegs, colors)
    if size == "4x6":
        secrets = [space.format(code) for code in space.all_codes]
        return [
            Job("eda f", "eda", {"fitness": "f"}, pegs, colors, secrets, args.runs, args.seed),
            Job("eda f_local_entropy", "eda", {}, pegs, colors, secrets, args.runs, args.seed),
            Job("archive defaults", "archive", {}, pegs, colors, secrets, args.runs, args.seed),
            Job("archive consistent", "archive", BEST_ARCHIVE[size], pegs, colors, secrets,
                args.runs, args.seed),
            Job("archive all-codes", "archive", {**BEST_ARCHIVE[size], "play": "all"}, pegs,
                colors, secrets, args.runs, args.seed),
        ]  # fmt: skip
    drawn = space.sample(np.random.default_rng([args.seed, pegs, colors]), args.secrets)
    secrets = [space.format(code) for code in drawn]
    baseline = secrets[: args.baseline_secrets]
    best = BEST_ARCHIVE[size]
    jobs = [Job("archive best", "archive", best, pegs, colors, secrets, 1, args.seed)]
    if size != "8x12":  # the other play mode too, where it costs minutes rather than an hour
        other = "consistent" if best.get("play") == "all" else "all"
        jobs.append(Job(f"archive {other}", "archive", {**best, "play": other}, pegs, colors,
                        secrets, 1, args.seed))  # fmt: skip
    jobs += [
        Job("ga", "ga", {}, pegs, colors, baseline, 1, args.seed),
        Job("eda f_local_entropy", "eda", {}, pegs, colors, baseline, 1, args.seed),
    ]
    return jobs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", choices=sorted(SIZES), action="append", help="repeatable")
    parser.add_argument("--runs", type=int, default=10, help="runs over the (4,6) space")
    parser.add_argument("--secrets", type=int, default=500, help="sampled secrets, larger games")
    parser.add_argument("--baseline-secrets", type=int, default=500, help="for GA and EDA")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--only", help="play only the jobs whose label contains this text")
    args = parser.parse_args()
    sizes = args.size or list(SIZES)
    path = RESULTS / "evolution.json"
    figures: dict[str, Any] = json.loads(path.read_text())["figures"] if path.exists() else {}
    pool = ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    chunk = 50 if pool else 10**9
    for size in sizes:
        for job in jobs_for(size, args):
            if args.only and args.only not in job.label:
                continue
            print(f"{size} {job.label} {job.options}", flush=True)
            figures[f"{size} {job.label}"] = run_job(job, pool, chunk)
            record("evolution", figures)  # after every job, so an interruption keeps the rest
    if pool is not None:
        pool.shutdown()


if __name__ == "__main__":
    main()

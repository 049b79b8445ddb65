"""What each exact path of the consistent-code sampler costs, by depth of history, on (8,12).

Run with ``python -m benchmarks.bench_sampling [--games N]`` (under a minute). Games are
played with a uniform consistent code as every guess (so histories look like a consistent
player's); at each move the exact set is counted by halves and listed by the constraint
search, each timed (CPU), and ``sample_consistent`` draws μ = 2000 codes as the players do,
recording the path it chose. Figures go to ``benchmarks/results/sampling.json``; the
switch points of :class:`evo_mastermind.sampling.SamplerSettings` come from them.
"""

from __future__ import annotations

import argparse
import contextlib
import time
from collections import defaultdict
from typing import Any

import numpy as np

from benchmarks._record import record
from evo_mastermind.codes import CodeSpace
from evo_mastermind.sampling import (
    ConsistentSet,
    Constraints,
    SamplingError,
    _kernels,
    consistent_codes,
    sample_consistent,
)
from evo_mastermind.scoring import score

MU = 2000


def _cpu_ms(start: float) -> float:
    return (time.process_time() - start) * 1e3


def rejection_ns_per_trial(space: CodeSpace, constraints: Constraints) -> float:
    """CPU nanoseconds to draw and test one code against a one-guess history."""
    rng = np.random.default_rng(0)
    counts = constraints.guess_counts
    start = time.process_time()
    for _ in range(20):
        drawn = space.sample(rng, 1 << 16)
        _kernels.consistent_mask(
            drawn, constraints.guesses, counts, constraints.blacks, constraints.matches
        )
    return (time.process_time() - start) / (20 << 16) * 1e9


def measure(space: CodeSpace, games: int) -> dict[str, Any]:
    """Path costs at every move of ``games`` games, grouped by the size of the set."""
    rng = np.random.default_rng(7)
    rows: list[dict[str, Any]] = []
    for _ in range(games):
        secret = space.sample(rng, 1)[0]
        guesses, responses = [], []
        guess = space.sample(rng, 1)[0]
        while True:
            guesses.append(guess)
            responses.append(score(guess, secret))
            if responses[-1].black == space.pegs:
                break
            constraints = Constraints.from_responses(space, np.stack(guesses), responses)
            start = time.process_time()
            size = ConsistentSet(constraints).size
            halves_ms = _cpu_ms(start)
            start = time.process_time()
            try:
                consistent_codes(constraints, 1 << 21)
                listing_ms: float | None = _cpu_ms(start)
            except SamplingError:
                listing_ms = None  # more than the listing limit
            start = time.process_time()
            sample = sample_consistent(constraints, MU, rng)
            rows.append(
                {
                    "guesses": len(guesses),
                    "size": size,
                    "halves_ms": halves_ms,
                    "listing_ms": listing_ms,
                    "auto_path": sample.method,
                    "auto_ms": _cpu_ms(start),
                    "trials": sample.trials,
                }
            )
            guess = sample.codes[0]
    bands: dict[str, list[dict[str, Any]]] = defaultdict(list)
    edges = [0, 100, 10_000, 100_000, 1_000_000, 10**12]
    for row in rows:
        low = max(edge for edge in edges if edge <= row["size"])
        high = edges[edges.index(low) + 1]
        bands[f"{low:,}-{high:,} consistent codes"].append(row)
    return {
        label: {
            "moves": len(band),
            "halves_ms_mean": round(float(np.mean([r["halves_ms"] for r in band])), 1),
            "listing_ms_mean": (
                round(float(np.mean(listed)), 1)
                if (listed := [r["listing_ms"] for r in band if r["listing_ms"] is not None])
                else None
            ),
            "auto_ms_mean": round(float(np.mean([r["auto_ms"] for r in band])), 1),
            "auto_paths": {
                path: sum(r["auto_path"] == path for r in band)
                for path in ("rejection", "halves", "listing")
            },
        }
        for label, band in sorted(bands.items(), key=lambda item: _low_edge(item[0]))
    }


def _low_edge(label: str) -> int:
    return int(label.split("-")[0].replace(",", ""))


def main() -> None:
    """Measure and record."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    args = parser.parse_args()
    space = CodeSpace(8, 12)
    opening = space.parse("AABBCCDE")
    warm = Constraints.from_responses(space, opening[None, :], [score(opening, "ABCDEFGH")])
    # Compile (or load) every kernel before timing.
    ConsistentSet(warm)
    with contextlib.suppress(SamplingError):  # stopped at its limit, compiled all the same
        consistent_codes(warm, 16)
    sample_consistent(warm, 10, np.random.default_rng(0))
    figures = {
        "game": str(space),
        "mu": MU,
        "rejection_ns_per_trial_one_guess": round(rejection_ns_per_trial(space, warm), 1),
        "by_set_size": measure(space, args.games),
        "load": "one process; other helpers' work on the shared 2-core machine (load 8-10)",
    }
    record("sampling", figures)


if __name__ == "__main__":
    main()

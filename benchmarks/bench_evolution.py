"""Evolutionary players: guesses, evaluations and time per game, against Runarsson & Merelo (2009).

Run with ``python -m benchmarks.bench_evolution [STUDY ...] [--workers N]``. The studies are
the shipped experiment configs, played by the runner (nothing here plays a game itself):

* ``paper/table3``: EDA+f and EDA+f_ℓ over the whole (4,6) space, 10 runs;
* ``evolution/archive_4x6``: the archive EA on (4,6) in Runarsson & Merelo's
  setting and in its best settings with consistent and with all-codes play;
* ``scaling/{5x8,6x9,7x10,8x12}``: 500 sampled secrets each, the archive EA in
  its best settings against the GA and EDA baselines;
* ``scaling/8x12_second_sample``: the (8,12) best settings on a second sample
  of 500 secrets (how much a 500-secret mean moves by chance).

Each config runs into its usual results directory with ``--resume`` semantics, so a study
already played there is only re-summarised: the games table is deterministic, and the
seconds recorded per game are the player's own CPU time (``mean_player_seconds``). The
figures of every player entry are merged into ``benchmarks/results/evolution.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any

import pandas as pd

from benchmarks._record import RESULTS, record
from evo_mastermind.analysis import write_report
from evo_mastermind.runner import load_config, make_executor, run_experiment
from evo_mastermind.studies import config_file

ROOT = Path(__file__).parents[1]

SCALING_STUDIES = ("5x8", "6x9", "7x10", "8x12", "8x12_second_sample")

STUDIES = {
    "paper/table3": "results/paper/table3",
    "evolution/archive_4x6": "results/evolution/archive_4x6",
    **{f"scaling/{study}": f"results/scaling/{study}" for study in SCALING_STUDIES},
}
"""Each shipped study and the results directory it is played into."""

EVOLUTIONARY = ("eda", "ga", "archive")


def figures_of(
    study: str, summary: pd.DataFrame, players: dict[str, str]
) -> dict[str, dict[str, Any]]:
    """The benchmark figures of each evolutionary row of a study's summary table."""
    figures: dict[str, dict[str, Any]] = {}
    for row in summary.to_dict("records"):
        if players.get(row["label"]) not in EVOLUTIONARY:
            continue
        figures[f"{study} {row['label']}"] = {
            "games": int(row["games"]),
            "runs": int(row["runs"]),
            "mean": round(float(row["mean"]), 4),
            "run_means_min": round(float(row["min"]), 4),
            "run_means_max": round(float(row["max"]), 4),
            "max_guesses": int(row["max_guesses"]),
            "win_rate": float(row["win_rate"]),
            "evaluations_per_game": round(float(row["mean_evaluations"]), 1),
            "distinct_codes_per_game": round(float(row["mean_distinct_codes"]), 1),
            "fraction_of_space_examined": float(f"{row['fraction_examined']:.3g}"),
            "capped_guesses": int(row["capped_guesses"]),
            "player_seconds_per_game": float(f"{row['mean_player_seconds']:.3g}"),
            "study": study,
        }
    return figures


def run_study(config_path: Path, out: Path, executor: str, workers: int | None) -> dict[str, Any]:
    """Play (or resume) one study and return the figures of its evolutionary players."""
    config = load_config(config_path)
    started = time.perf_counter()
    load_before = os.getloadavg()[0]
    with make_executor(executor, workers) as pool:  # type: ignore[arg-type]
        outcome = run_experiment(config, config_path, out, pool, resume=True)
    write_report(out)
    figures = figures_of(
        config.name, pd.read_csv(out / "summary.csv"), {p.label: p.player for p in config.players}
    )
    for entry in figures.values():
        entry["games_played_now"] = outcome.played
        entry["wall_seconds_now"] = round(time.perf_counter() - started, 1)
        entry["load_average_1min_before"] = round(load_before, 2)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "configs", nargs="*", help="shipped studies or config files (default: the studies above)"
    )
    parser.add_argument("--executor", default="process", choices=("serial", "process", "dask"))
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args()
    path = RESULTS / "evolution.json"
    figures: dict[str, Any] = json.loads(path.read_text())["figures"] if path.exists() else {}
    for name in args.configs or list(STUDIES):
        config_path = config_file(name)
        out = ROOT / STUDIES.get(name, f"results/{config_path.stem}")
        figures.update(run_study(config_path, out, args.executor, args.workers))
        record("evolution", figures)  # after every study, so an interruption keeps the rest


if __name__ == "__main__":
    main()

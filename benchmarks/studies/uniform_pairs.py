"""Paired figures of the uniform-sampling studies: each player against one, secret by secret.

Run with ``python -m benchmarks.studies.uniform_pairs results/scaling/uniform_5x8 ...``
after the studies (their games are kept locally, not committed). For each results
directory, and pooled over all of them with ``--pool`` (the two (8,12) samples), every
player's mean and deepest game, its CPU seconds a game, and its per-secret difference from
the ``--against`` player (default the archive EA): mean, standard error and the Wilcoxon
signed-rank test on the pairs (zero differences dropped, scipy's default). Only solved
games count, and a secret is paired only when both games solved it; failed games are
listed. Figures go to ``benchmarks/results/uniform_pairs.json``.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy.stats import wilcoxon

import evo_mastermind
from benchmarks._record import record

ARCHIVE = "Archive best (all)"


def games_of(directory: Path) -> pd.DataFrame:
    """The stored games of one results directory, with the directory as the sample."""
    games = evo_mastermind.load(directory).games
    return games.assign(sample=directory.name)


def paired_figures(games: pd.DataFrame, against: str) -> dict[str, Any]:
    """Per player: mean, max, CPU s a game, and the paired difference from ``against``."""
    solved = games[games["solved"]]
    keys = ["sample", "run", "secret", "occurrence"]
    reference = solved[solved["label"] == against].set_index(keys)["n_guesses"]
    figures: dict[str, Any] = {}
    for label, rows in solved.groupby("label", sort=False):
        row: dict[str, Any] = {
            "games": int(rows.shape[0]),
            "failed": int((games["label"] == label).sum() - rows.shape[0]),
            "mean": round(float(rows["n_guesses"].mean()), 4),
            "max": int(rows["n_guesses"].max()),
            "cpu_seconds_per_game": round(float(rows["player_seconds"].mean()), 3),
        }
        if label != against and not reference.empty:
            own = rows.set_index(keys)["n_guesses"]
            both = own.index.intersection(reference.index)
            difference = (own[both] - reference[both]).to_numpy(dtype=float)
            row["pairs"] = int(difference.size)
            row["difference"] = round(float(difference.mean()), 4)
            row["standard_error"] = round(
                float(difference.std(ddof=1) / np.sqrt(difference.size)), 4
            )
            row["wilcoxon_p"] = (
                round(float(wilcoxon(difference).pvalue), 4) if difference.any() else 1.0
            )
        figures[str(label)] = row
    return figures


def markdown(name: str, figures: dict[str, Any], against: str) -> str:
    """The figures as a table, one row a player."""
    lines = [
        f"{name}:",
        f"| player | mean (max) | s / game | against {against}, paired |",
        "|---|---|---|---|",
    ]
    for label, row in figures.items():
        paired = (
            f"{row['difference']:+.3f} (s.e. {row['standard_error']:.3f}), "
            f"p = {row['wilcoxon_p']:.3g}"
            if "difference" in row
            else ""
        )
        failed = f", {row['failed']} failed" if row["failed"] else ""
        lines.append(
            f"| {label} | {row['mean']:.3f} ({row['max']}){failed} | "
            f"{row['cpu_seconds_per_game']:.3g} | {paired} |"
        )
    return "\n".join(lines)


def main() -> None:
    """Print and record the paired figures of the directories given."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directories", nargs="+", type=Path)
    parser.add_argument("--against", default=ARCHIVE)
    parser.add_argument("--pool", action="store_true", help="also pool all directories")
    parser.add_argument("--name", default="uniform_pairs", help="the figures' file name")
    args = parser.parse_args()
    everything = {directory: games_of(directory) for directory in args.directories}
    figures: dict[str, Any] = {}
    for directory, games in everything.items():
        figures[str(directory)] = paired_figures(games, args.against)
        print(markdown(str(directory), figures[str(directory)], args.against), "\n")
    if args.pool:
        pooled = paired_figures(pd.concat(everything.values()), args.against)
        figures["pooled"] = pooled
        print(markdown("pooled", pooled, args.against), "\n")
    record(args.name, figures)


if __name__ == "__main__":
    main()

"""Entries of one results directory compared secret by secret with a reference entry.

Run with ``python -m benchmarks.studies.paired results/scaling/uniform_sweep_5x8 --against
"Sampler (consistent)" --against "Sampler (all)"`` (several directories are pooled, each
game paired within its own: the two (8,12) samples): every entry is paired with the
reference whose label begins its own (the longest such; ``Sampler (all) mu=2000`` with
``Sampler (all)``), on the games of the same (size, secrets, run, secret, occurrence);
``--pair LABEL REFERENCE`` adds any other pair. Per entry it prints the mean (max)
guesses, the CPU seconds a game (the player's thread time) and the paired difference entry
minus reference: its mean, standard error and the Wilcoxon signed-rank p (zero differences
dropped, scipy's default). The report's ``wilcoxon.csv`` holds rank-sum tests, which ignore
the pairing. Figures go to ``benchmarks/results/paired_<directory names, joined by +>.json``.
"""

from __future__ import annotations

import argparse
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd
from scipy.stats import wilcoxon

from benchmarks._record import record
from evo_mastermind.runner import ResultsDir

PAIR_COLUMNS = ["results", "pegs", "colors", "secrets", "run", "secret", "occurrence"]
"""What makes two games of different entries the same game to pair (``results``: the
directory, when several are pooled)."""


@dataclass(frozen=True)
class PairedDifference:
    """``values - reference``, game by game: mean, standard error, Wilcoxon signed-rank p."""

    mean: float
    standard_error: float
    wilcoxon_p: float | None
    """None when every difference is zero (the test has nothing to rank)."""


def paired_difference(values: npt.ArrayLike, reference: npt.ArrayLike) -> PairedDifference:
    """The paired difference of two equally long sequences of per-game guesses."""
    first, second = np.asarray(values, dtype=float), np.asarray(reference, dtype=float)
    if first.ndim != 1 or first.shape != second.shape or first.size < 2:
        raise ValueError(
            f"pairs need two equally long sequences, got {first.shape} and {second.shape}"
        )
    difference = first - second
    error = float(difference.std(ddof=1) / np.sqrt(difference.size))
    p = None if not difference.any() else float(wilcoxon(difference).pvalue)
    return PairedDifference(float(difference.mean()), error, p)


def reference_for(label: str, references: list[str]) -> str | None:
    """The longest reference label that begins ``label`` (None if none does)."""
    matching = [ref for ref in references if label.startswith(ref)]
    return max(matching, key=len) if matching else None


def compare(
    games: pd.DataFrame, references: list[str], pairs: Sequence[tuple[str, str]] = ()
) -> dict[str, dict[str, Any]]:
    """Per entry of ``games``: its figures and, unless it is one, against its reference.

    Each of ``pairs`` (label, reference) adds the row ``"<label> vs <reference>"``: that
    entry against any other, e.g. one ``play`` against the other at the same μ.

    Raises:
        ValueError: a reference missing from the games, failed games, or entries whose
            games do not pair one to one.
    """
    labels = list(dict.fromkeys(games["label"]))
    missing = [ref for ref in [*references, *itertools.chain(*pairs)] if ref not in labels]
    if missing:
        raise ValueError(f"reference {missing[0]!r} is not an entry of these games")
    failed = games[~games["solved"]]
    if len(failed):
        raise ValueError(f"{len(failed)} failed games ({failed['label'].iloc[0]}): not paired")
    by_label = {
        str(label): rows.sort_values(_pair_columns(rows)).reset_index(drop=True)
        for label, rows in games.groupby("label", sort=False)
    }
    figures: dict[str, dict[str, Any]] = {}
    for label in labels:
        rows = by_label[label]
        figures[label] = {
            "games": len(rows),
            "mean_guesses": round(float(rows["n_guesses"].mean()), 4),
            "max_guesses": int(rows["n_guesses"].max()),
            "cpu_seconds_per_game": round(float(rows["player_seconds"].mean()), 4),
        }
        reference = reference_for(label, references)
        if reference is not None and reference != label:
            figures[label].update(_paired(by_label, label, reference))
    for label, reference in pairs:
        figures[f"{label} vs {reference}"] = _paired(by_label, label, reference)
    return figures


def _paired(by_label: dict[str, pd.DataFrame], label: str, reference: str) -> dict[str, Any]:
    """The figures of ``label`` minus ``reference``, game by game."""
    rows, other = by_label[label], by_label[reference]
    columns = _pair_columns(rows)
    if not rows[columns].equals(other[columns]):
        raise ValueError(f"{label!r} and {reference!r} did not play the same games")
    paired = paired_difference(rows["n_guesses"], other["n_guesses"])
    return {
        "against": reference,
        "paired_difference": round(paired.mean, 4),
        "paired_standard_error": round(paired.standard_error, 4),
        "wilcoxon_signed_rank_p": None
        if paired.wilcoxon_p is None
        else round(paired.wilcoxon_p, 4),
    }


def _pair_columns(games: pd.DataFrame) -> list[str]:
    """The :data:`PAIR_COLUMNS` these games have (``results`` only when pooled)."""
    return [column for column in PAIR_COLUMNS if column in games.columns]


def main() -> None:
    """Pair the entries of one results directory, or of several pooled, and record them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "results", type=Path, nargs="+", help="results directories with their games/ (pooled)"
    )
    parser.add_argument(
        "--against", action="append", default=[], help="a reference label (repeatable)"
    )
    parser.add_argument(
        "--pair",
        nargs=2,
        action="append",
        default=[],
        metavar=("LABEL", "REFERENCE"),
        help="also LABEL against REFERENCE (repeatable)",
    )
    args = parser.parse_args()
    if not args.against and not args.pair:
        parser.error("give a reference (--against) or a pair (--pair)")
    tables = []
    for directory in args.results:
        games = ResultsDir(directory).load_games()
        if games.empty:
            parser.error(f"{directory}: no games stored")
        tables.append(games.assign(results=directory.name) if len(args.results) > 1 else games)
    try:
        figures = compare(pd.concat(tables), args.against, [tuple(pair) for pair in args.pair])
    except ValueError as error:
        parser.error(str(error))
    record("paired_" + "+".join(directory.name for directory in args.results), figures)


if __name__ == "__main__":
    main()

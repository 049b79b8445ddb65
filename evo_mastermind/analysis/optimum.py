"""The optimum of a game: the floor every player's mean is measured against.

The exact optimum (fewest guesses over every secret, any code a guess) of the games the
``optimal`` player has been run on (``tests/analysis/test_optimum.py`` holds each recorded
total to the solver), and the published figures: (4,6) 5625 guesses (Koyama & Lai 1993,
which the solver reproduces) and (4,7) mean 4.676 (Ville 2013; the solver finds 11228
guesses in about 20 s, ``benchmarks/results/optimal_4_7.json``, too long for the tests) and
(4,8) 20471 guesses (arfst23/Mastermind 2023; the solver finds it in a minute or two,
``benchmarks/results/optimal_4_8.json``).
The mean over every secret is the floor of an experiment that plays every code once. A
sample of secrets has a floor of its own, which may lie below the whole space's: where the
optimal tree is quick to search, :func:`optimum_table` replays it on the secrets each run
played and measures the players against that.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt
import pandas as pd

from evo_mastermind.analysis.results import BLOCK_COLUMNS, AnalysisError
from evo_mastermind.codes import CodeSpace


@dataclass(frozen=True)
class Optimum:
    """The optimum of one game size.

    Attributes:
        mean: fewest guesses per secret on average.
        total: fewest guesses over every secret, when known exactly.
        source: where the figure comes from.
    """

    mean: float
    total: int | None
    source: str


COMPUTED = "computed by the optimal player"
_TOTALS: dict[tuple[int, int], int] = {
    (2, 2): 8,
    (2, 3): 21,
    (2, 4): 45,
    (2, 5): 81,
    (2, 6): 132,
    (2, 7): 198,
    (2, 8): 284,
    (3, 2): 18,
    (3, 3): 73,
    (3, 4): 206,
    (3, 5): 451,
    (3, 6): 854,
    (3, 7): 1474,
    (3, 8): 2359,
    (3, 9): 3596,
    (3, 10): 5242,
    (4, 2): 44,
    (4, 3): 246,
    (4, 4): 905,
    (4, 5): 2463,
    (5, 2): 97,
    (5, 3): 816,
    (5, 4): 3954,
    (5, 5): 13496,
    (6, 2): 224,
    (6, 3): 2649,
}
"""Optimal totals the ``optimal`` player computed (``benchmarks/results/optimal.csv``)."""

LONG_TOTALS: dict[tuple[int, int], int] = {
    (6, 4): 17281,
}
"""Optimal totals the ``optimal`` player took minutes to prove, too long for the tests: each
tree replayed over every secret (``python -m benchmarks.bench_optimal --prove``,
``benchmarks/results/optimal_new.json``, which the tests hold these to)."""


def known_optimum(pegs: int, colors: int) -> Optimum | None:
    """The optimum of ``(pegs, colors)`` if it is known, else None."""
    if (pegs, colors) == (4, 6):
        return Optimum(5625 / 1296, 5625, "Koyama & Lai 1993; the optimal player agrees")
    if (pegs, colors) == (4, 7):
        return Optimum(11228 / 2401, 11228, "Ville 2013; the optimal player agrees")
    if (pegs, colors) == (4, 8):
        return Optimum(20471 / 4096, 20471, "arfst23/Mastermind 2023; the optimal player agrees")
    total = _TOTALS.get((pegs, colors))
    if total is None:
        total = LONG_TOTALS.get((pegs, colors))
        if total is None:
            return None
        source = f"{COMPUTED} (minutes; benchmarks/results/optimal_new.json)"
        return Optimum(total / colors**pegs, total, source)
    return Optimum(total / colors**pegs, total, COMPUTED)


SAMPLE_SOLVE_LIMIT = 1296
"""The largest game whose optimal tree the analysis searches to replay it on a sample: (4,6)
takes about 9 s (``benchmarks/results/optimal.json``), (4,7) minutes."""

SAMPLE_SOURCE = "the optimal tree replayed on the secrets played"
"""How the optimum table names a floor computed over a sample of secrets."""

OPTIMUM_COLUMNS = (
    *BLOCK_COLUMNS,
    "label",
    "mean",
    "optimum",
    "above",
    "total",
    "source",
    "whole_space",
    "optimum_low",
    "optimum_high",
    "played",
    "failed",
)
"""Columns of :func:`optimum_table`.

``optimum`` is the floor the player's ``mean`` is measured against: the whole space's
optimum when every secret was played once (``secrets: full``), else the optimal tree's mean
over the secrets the player played, where that tree is searched (games up to
:data:`SAMPLE_SOLVE_LIMIT` codes). ``optimum_low``/``optimum_high`` are the least and most
of that floor over the player's runs; ``whole_space`` the optimum over every secret;
``total`` its guesses over every secret; ``played`` the games the player played (its
``failed`` ones included). ``above`` is missing for a player without a solved game.
"""


@lru_cache(maxsize=4)
def optimal_guesses(pegs: int, colors: int) -> npt.NDArray[np.int64] | None:
    """Each secret's guesses under the solver's optimal tree (code index order), if searched.

    None for a game larger than :data:`SAMPLE_SOLVE_LIMIT` codes or without a known optimum.
    The tree is one optimal tree (fewest guesses in total, then the least depth); another
    optimal tree may need a different number of guesses on a given sample.
    """
    optimum = known_optimum(pegs, colors)
    if optimum is None or optimum.total is None or colors**pegs > SAMPLE_SOLVE_LIMIT:
        return None
    from evo_mastermind.optimal.solver import OptimalSolver

    solution = OptimalSolver(CodeSpace(pegs, colors)).solve()
    if solution.total != optimum.total:  # never measure against a tree that is not optimal
        raise AnalysisError(
            f"the optimal tree of ({pegs},{colors}) takes {solution.total} guesses, "
            f"not the recorded {optimum.total}"
        )
    return solution.guesses


def _run_floors(played: pd.DataFrame, guesses: npt.NDArray[np.int64]) -> pd.Series:
    """The optimal tree's mean guesses over each run's secrets."""
    pegs, colors = int(played["pegs"].iloc[0]), int(played["colors"].iloc[0])
    space = CodeSpace(pegs, colors)
    indices = np.array([space.index(space.parse(str(code))) for code in played["secret"]])
    return pd.Series(guesses[indices], index=played.index).groupby(played["run"]).mean()


def block_floor(block: pd.DataFrame) -> float | None:
    """The optimum a block's plot marks: over the secrets played where its tree is searched.

    The whole space's optimum for ``secrets: full`` or a game too large to search; None
    without a known optimum.
    """
    pegs, colors = int(block["pegs"].iloc[0]), int(block["colors"].iloc[0])
    optimum = known_optimum(pegs, colors)
    if optimum is None:
        return None
    guesses = None if str(block["secrets"].iloc[0]) == "full" else optimal_guesses(pegs, colors)
    if guesses is None:
        return optimum.mean
    return float(_run_floors(block, guesses).mean())


def optimum_table(summary: pd.DataFrame, games: pd.DataFrame | None = None) -> pd.DataFrame:
    """Each summary row of a game with a known optimum: its mean and how far above it lies.

    Args:
        summary: a table from :func:`~evo_mastermind.analysis.summary.summary_table`.
        games: the games behind it; rows of a block whose secrets are not every code once
            are then measured against the optimal tree replayed on the secrets played.

    Returns:
        Columns :data:`OPTIMUM_COLUMNS`, in the summary's order; rows of games without a
        known optimum are left out.
    """
    rows = []
    for row in summary.to_dict("records"):
        pegs, colors, secrets = int(row["pegs"]), int(row["colors"]), str(row["secrets"])
        optimum = known_optimum(pegs, colors)
        if optimum is None:
            continue
        label = str(row["label"])
        played = pd.DataFrame()
        if games is not None:
            chosen = (
                (games["label"] == label)
                & (games["pegs"] == pegs)
                & (games["colors"] == colors)
                & (games["secrets"] == secrets)
            )
            played = games[chosen]
        failed = int(row.get("failed") or 0)
        floor, low, high, source = optimum.mean, optimum.mean, optimum.mean, optimum.source
        guesses = None if secrets == "full" else optimal_guesses(pegs, colors)
        if guesses is not None and not played.empty:
            floors = _run_floors(played, guesses)
            # Runs of equal length: the mean of the run floors is the floor over every game.
            floor = float(floors.mean())
            low, high, source = float(floors.min()), float(floors.max()), SAMPLE_SOURCE
        mean = float(row["mean"])
        above = mean - floor if not pd.isna(row["mean"]) else float("nan")
        total = float("nan") if optimum.total is None else optimum.total
        rows.append(
            (
                pegs,
                colors,
                secrets,
                label,
                mean,
                floor,
                above,
                total,
                source,
                optimum.mean,
                low,
                high,
                len(played) if not played.empty else int(row.get("games") or 0),
                failed,
            )
        )
    return pd.DataFrame(rows, columns=list(OPTIMUM_COLUMNS))


def optimum_lines(floor: pd.DataFrame) -> list[str]:
    """Markdown: one block's optimum and each player's distance above it.

    A player with failed games has its mean over its solved games only, said beside the
    distance; a player without a solved game is named, with no figure.

    Args:
        floor: the block's rows of :func:`optimum_table` (none: no line).
    """
    if floor.empty:
        return []
    first = floor.iloc[0]
    pegs, colors, total = int(first["pegs"]), int(first["colors"]), first["total"]
    whole = f"{float(first['whole_space']):.3f}" + (
        "" if pd.isna(total) else f" ({int(total)} guesses over {colors**pegs} secrets)"
    )
    if first["source"] == SAMPLE_SOURCE:
        low, high = float(floor["optimum_low"].min()), float(floor["optimum_high"].max())
        runs = f"{low:.3f}" if round(low, 3) == round(high, 3) else f"{low:.3f}–{high:.3f}"
        figure = (
            f"{float(first['optimum']):.3f} over the secrets played ({runs} per run), "
            f"{SAMPLE_SOURCE}; over every secret it is {whole}"
        )
    elif first["secrets"] != "full":
        figure = (
            f"{whole}, {first['source']}: the optimum over every secret, not over the secrets "
            "played (their optimal tree is not searched above "
            f"{SAMPLE_SOLVE_LIMIT} codes), so a sample's mean may lie below it"
        )
    else:
        figure = f"{whole}, {first['source']}"
    lines = [f"Optimum: {figure}. Each player's mean above it:", ""]
    for row in floor.to_dict("records"):
        player, failed, played = row["label"], int(row["failed"]), int(row["played"])
        if pd.isna(row["above"]):
            lines.append(f"- {player}: no solved game ({failed} of {played} failed)")
            continue
        line = f"- {player}: {row['mean']:.3f}, {row['above']:+.3f} above the optimum"
        if failed:
            line += (
                f", over its {played - failed} solved games only ({failed} of {played} "
                "failed, left out of the mean)"
            )
        lines.append(line)
    return [*lines, ""]

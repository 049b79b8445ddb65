"""The optimum of a game: the floor every player's mean is measured against.

The exact optimum (fewest guesses over every secret, any code a guess) of the games the
``optimal`` player has been run on (``tests/analysis/test_optimum.py`` holds each recorded
total to the solver), and the published figures: (4,6) 5625 guesses (Koyama & Lai 1993,
which the solver reproduces) and (4,7) mean 4.676 (Ville 2013; the solver finds 11228
guesses in minutes, ``benchmarks/results/optimal_4_7.json``, too long for the tests).
The mean is over secrets drawn uniformly, so it is the floor of any experiment whose
secrets are drawn that way (or are every code once).
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from evo_mastermind.analysis.results import BLOCK_COLUMNS


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
    (4, 2): 44,
    (4, 3): 246,
    (4, 4): 905,
    (4, 5): 2463,
    (5, 2): 97,
    (5, 3): 816,
    (5, 4): 3954,
    (6, 2): 224,
    (6, 3): 2649,
}
"""Optimal totals the ``optimal`` player computed (``benchmarks/results/optimal.csv``)."""


def known_optimum(pegs: int, colors: int) -> Optimum | None:
    """The optimum of ``(pegs, colors)`` if it is known, else None."""
    if (pegs, colors) == (4, 6):
        return Optimum(5625 / 1296, 5625, "Koyama & Lai 1993; the optimal player agrees")
    if (pegs, colors) == (4, 7):
        return Optimum(11228 / 2401, 11228, "Ville 2013; the optimal player agrees")
    total = _TOTALS.get((pegs, colors))
    if total is None:
        return None
    return Optimum(total / colors**pegs, total, COMPUTED)


OPTIMUM_COLUMNS = (*BLOCK_COLUMNS, "player", "mean", "optimum", "above", "total", "source")
"""Columns of :func:`optimum_table` (``total``: the optimum's guesses over every secret)."""


def optimum_table(summary: pd.DataFrame) -> pd.DataFrame:
    """Each summary row of a game with a known optimum: its mean and how far above it lies.

    Args:
        summary: a table from :func:`~evo_mastermind.analysis.summary.summary_table`.

    Returns:
        Columns :data:`OPTIMUM_COLUMNS`, in the summary's order; rows of games without a
        known optimum are left out.
    """
    rows = []
    for row in summary.to_dict("records"):
        pegs, colors = int(row["pegs"]), int(row["colors"])
        optimum = known_optimum(pegs, colors)
        if optimum is None:
            continue
        mean = float(row["mean"])
        total = float("nan") if optimum.total is None else optimum.total
        figures = (mean, optimum.mean, mean - optimum.mean, total, optimum.source)
        rows.append((pegs, colors, row["secrets"], row["player"], *figures))
    return pd.DataFrame(rows, columns=list(OPTIMUM_COLUMNS))


def optimum_lines(floor: pd.DataFrame) -> list[str]:
    """Markdown: one block's optimum and each player's distance above it.

    Args:
        floor: the block's rows of :func:`optimum_table` (none: no line).
    """
    if floor.empty:
        return []
    first = floor.iloc[0]
    pegs, colors, total = int(first["pegs"]), int(first["colors"]), first["total"]
    figure = f"{float(first['optimum']):.3f}" + (
        "" if pd.isna(total) else f" ({int(total)} guesses over {colors**pegs} secrets)"
    )
    lines = [f"Optimum: {figure}, {first['source']}. Each player's mean above it:", ""]
    for player, mean, above in zip(floor["player"], floor["mean"], floor["above"], strict=True):
        lines.append(f"- {player}: {mean:.3f}, {above:+.3f} above the optimum")
    return [*lines, ""]

"""Summary tables from a games table: the paper's per-player format and a per-size form.

The paper's format (Runarsson & Merelo 2009, Tables 2-6) takes each run's mean guesses and
reports the min, mean, median, max and standard deviation of those run means, with the most guesses
any single game needed.

Which games the figures cover: the paper's protocol plays every game to the secret, so its
figures (and the rank-sum tests, :mod:`evo_mastermind.analysis.stats`) are over the **solved**
games. A game that did not end with the secret found (invalid guess, guess or time limit,
inconsistent answers) is a failed game: it is never averaged in, it is counted in ``failed``
beside ``solved``, and the report flags the row. A row with no solved game has no figures.
:func:`grouped_summary` (scaling studies) and the plots follow the same rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

import pandas as pd

from evo_mastermind.analysis.frames import results_frame
from evo_mastermind.analysis.results import (
    BLOCK_COLUMNS,
    Experiment,
    blocks,
    label_order,
    require_columns,
)

SUMMARY_COLUMNS = ("label", "runs", "min", "mean", "median", "max", "sd", "max_guesses")
"""The paper's columns, first in every summary table (``label`` holds the entry's label)."""

EXTRA_COLUMNS = (
    *BLOCK_COLUMNS,
    "section",
    "games",
    "solved",
    "failed",
    "win_rate",
    "mean_evaluations",
    "mean_distinct_codes",
    "fraction_examined",
    "capped_guesses",
    "mean_seconds",
    "mean_player_seconds",
)
"""Columns after the paper's: the block and section the row belongs to, per-game averages.

``games`` counts every game played, ``solved`` and ``failed`` split them; the paper's
columns cover the solved games only.

``mean_distinct_codes`` is the distinct codes a player evaluated per game and
``fraction_examined`` that share of the code space (Runarsson & Merelo's second objective);
``capped_guesses`` counts guesses played because an evaluation cap was reached. All three
are empty for players that do not count evaluations.
"""

GROUPED_COLUMNS = (
    "label",
    *BLOCK_COLUMNS,
    "games",
    "mean_guesses",
    "win_rate",
    "mean_seconds",
    "mean_evaluations",
    "max_guesses",
)
"""Columns of :func:`grouped_summary`."""


def solved_games(games: pd.DataFrame) -> pd.DataFrame:
    """The games that ended with the secret found: what the paper's figures and tests cover."""
    if "solved" not in games.columns:
        return games
    return games[games["solved"].astype(bool)]


def run_means(games: pd.DataFrame) -> pd.DataFrame:
    """Mean guesses of every (label, block, run).

    Returns:
        Columns label, pegs, colors, secrets, run, games (played in the run), mean_guesses.
    """
    require_columns(games, ("label", "run", "n_guesses", *BLOCK_COLUMNS))
    keys = ["label", *BLOCK_COLUMNS, "run"]
    grouped = games.groupby(keys, sort=True)["n_guesses"]
    means = grouped.agg(games="size", mean_guesses="mean").reset_index()
    means["mean_guesses"] = means["mean_guesses"].astype(float)
    return means


def _mean_or_nan(values: pd.Series | None) -> float:
    """The mean of the values present (nullable columns), NaN when none is or no column."""
    if values is None:
        return float("nan")
    present = pd.to_numeric(values, errors="coerce").dropna()
    return float(present.mean()) if len(present) else float("nan")


def _sum_or_nan(values: pd.Series | None) -> float:
    """The sum of the values present (nullable columns), NaN when none is or no column."""
    if values is None:
        return float("nan")
    present = pd.to_numeric(values, errors="coerce").dropna()
    return float(present.sum()) if len(present) else float("nan")


def summary_table(
    games: pd.DataFrame,
    experiment: Experiment | None = None,
    sections: Mapping[str, str] | None = None,
) -> pd.DataFrame:
    """The paper's table: one row per label and block, ranked by mean within each block.

    Args:
        games: a games table (see :mod:`evo_mastermind.analysis.results`).
        experiment: the experiment record; its players' order breaks ties in the ranking.
        sections: the section of each label that has one, in the sections' order (see
            :func:`~evo_mastermind.analysis.published.published_sections`): rows are then
            ranked within each section, sections in that order, rows in none last.

    Returns:
        Columns :data:`SUMMARY_COLUMNS` then :data:`EXTRA_COLUMNS`. ``sd`` is the sample
        standard deviation (n - 1) of the run means, NaN with a single run; ``section``
        is empty for a row in no section.
    """
    needed = ("label", "run", "n_guesses", "solved", "evaluations", "seconds", "player_seconds")
    require_columns(games, needed)
    order = {label: rank for rank, label in enumerate(label_order(games, experiment))}
    section_of = dict(sections or {})
    section_rank = {
        section: rank for rank, section in enumerate(dict.fromkeys(section_of.values()))
    }
    rows: list[dict[str, Any]] = []
    for (pegs, colors, secrets), block in blocks(games):
        per_run = run_means(solved_games(block))
        for label, played in block.groupby("label", sort=False):
            means = per_run.loc[per_run["label"] == label, "mean_guesses"]
            section = section_of.get(str(label), "")
            distinct = _mean_or_nan(played.get("distinct_codes"))
            solved = int(played["solved"].astype(bool).sum())
            counted = solved_games(played)["n_guesses"]
            rows.append(
                {
                    "label": str(label),
                    "runs": int(means.size),
                    "min": float(means.min()),
                    "mean": float(means.mean()),
                    "median": float(means.median()),
                    "max": float(means.max()),
                    "sd": float(means.std(ddof=1)) if means.size > 1 else float("nan"),
                    "max_guesses": int(counted.max()) if solved else float("nan"),
                    "pegs": pegs,
                    "colors": colors,
                    "secrets": secrets,
                    "section": section,
                    "games": len(played),
                    "solved": solved,
                    "failed": len(played) - solved,
                    "win_rate": solved / len(played),
                    "mean_evaluations": _mean_or_nan(played["evaluations"]),
                    "mean_distinct_codes": distinct,
                    "fraction_examined": distinct / float(colors) ** pegs,
                    "capped_guesses": _sum_or_nan(played.get("capped_guesses")),
                    "mean_seconds": float(played["seconds"].mean()),
                    "mean_player_seconds": float(played["player_seconds"].mean()),
                    "_section": section_rank.get(section, len(section_rank)),
                    "_order": order[str(label)],
                }
            )
    keys = [*BLOCK_COLUMNS, "_section", "mean", "_order"]
    table = pd.DataFrame(rows).sort_values(keys, kind="stable").reset_index(drop=True)
    return results_frame(table[[*SUMMARY_COLUMNS, *EXTRA_COLUMNS]], "summary")


def grouped_summary(games: pd.DataFrame, experiment: Experiment | None = None) -> pd.DataFrame:
    """Per label × pegs × colors × secrets figures, for scaling studies and tournaments.

    Columns :data:`GROUPED_COLUMNS`: games, failed games, mean guesses, win rate, mean
    seconds, mean evaluations (NaN where not counted) and max guesses; the guesses are over
    the solved games only (NaN without one). Rows follow the config order of labels, then
    game size.
    """
    require_columns(games, ("label", "n_guesses", "solved", "seconds", "evaluations"))
    order = {label: rank for rank, label in enumerate(label_order(games, experiment))}
    rows: list[dict[str, Any]] = []
    for key, played in games.groupby(["label", *BLOCK_COLUMNS], sort=False):
        label, pegs, colors, secrets = cast(tuple[str, int, int, str], key)
        guesses = solved_games(played)["n_guesses"]
        rows.append(
            {
                "label": str(label),
                "pegs": int(pegs),
                "colors": int(colors),
                "secrets": str(secrets),
                "games": len(played),
                "failed": len(played) - len(guesses),
                "mean_guesses": float(guesses.mean()) if len(guesses) else float("nan"),
                "win_rate": float(played["solved"].astype(bool).mean()),
                "mean_seconds": float(played["seconds"].mean()),
                "mean_evaluations": _mean_or_nan(played["evaluations"]),
                "max_guesses": int(guesses.max()) if len(guesses) else float("nan"),
                "_order": order[str(label)],
            }
        )
    table = pd.DataFrame(rows).sort_values(["_order", *BLOCK_COLUMNS], kind="stable")
    return table.drop(columns="_order").reset_index(drop=True)[list(GROUPED_COLUMNS)]

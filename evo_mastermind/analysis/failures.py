"""Failed games, counted and named: the flag in the report and the run's closing lines.

A failed game is one that did not end with the secret found (see
:data:`evo_mastermind.game.Outcome`). The paper's figures leave failed games out
(:mod:`evo_mastermind.analysis.summary`), so every player with one is flagged with
:data:`FLAG`, and these lines say how many of its games failed, why, and which was first.
"""

from __future__ import annotations

import pandas as pd

from evo_mastermind.analysis.results import BLOCK_COLUMNS

FLAG = "†"
"""Marks, in the report's tables, a player with failed games."""

OUTCOME_WORDS = {
    "invalid_guess": "invalid guess",
    "guess_limit": "guess limit",
    "time_limit": "time limit",
    "inconsistent": "inconsistent answers",
}


def failed_games(games: pd.DataFrame) -> pd.DataFrame:
    """The games that did not end with the secret found, in game order."""
    if "solved" not in games.columns:
        return games.iloc[:0]
    return games[~games["solved"].astype(bool)]


def _reasons(failed: pd.DataFrame) -> str:
    counts = failed["outcome"].astype(str).value_counts()
    return ", ".join(
        f"{OUTCOME_WORDS.get(str(outcome), str(outcome))} {count:,}"
        for outcome, count in counts.items()
    )


def _first(failed: pd.DataFrame, seed: int | None) -> str:
    first = failed.iloc[0]
    why = first.get("failure")
    if not isinstance(why, str) or not why:
        why = OUTCOME_WORDS.get(str(first["outcome"]), str(first["outcome"]))
    seeded = f", seed {seed}" if seed is not None else ""
    return (
        f"the first: run {int(first['run'])}, secret {first['secret']} "
        f"({int(first['pegs'])} pegs, {int(first['colors'])} colours{seeded}): {why}"
    )


FAILURE_COLUMNS = (*BLOCK_COLUMNS, "label", "games", "failed", "reasons", "first")
"""Columns of :func:`failure_table`: ``reasons`` and ``first`` in words, as the report says them."""


def failure_table(games: pd.DataFrame) -> pd.DataFrame:
    """Per block and player with failed games: how many of its games failed, why, the first.

    Returns:
        Columns :data:`FAILURE_COLUMNS`, in game order; players without a failed game have
        no row.
    """
    keys = [*BLOCK_COLUMNS, "label"]
    failed = failed_games(games)
    if failed.empty:
        return pd.DataFrame(columns=list(FAILURE_COLUMNS))
    played = dict(games.groupby(keys, sort=False).size().items())
    rows = []
    for key, mine in failed.groupby(keys, sort=False):
        pegs, colors, secrets, label = key
        why = (_reasons(mine), _first(mine, None))
        rows.append((pegs, colors, secrets, str(label), int(played[key]), len(mine), *why))
    return pd.DataFrame(rows, columns=list(FAILURE_COLUMNS))


def failure_notes(failures: pd.DataFrame, labels: list[str]) -> list[str]:
    """The report's notes under a table: one per flagged player of ``labels``.

    Args:
        failures: one block's rows of :func:`failure_table`.
        labels: the table's players, in its order.
    """
    notes = []
    by_label = {str(row["label"]): row for row in failures.to_dict("records")}
    for label in (label for label in labels if label in by_label):
        row = by_label[label]
        played, failed = int(row["games"]), int(row["failed"])
        notes.append(
            f"- {FLAG} **{label}**: {failed:,} of {played:,} games failed ({row['reasons']}); "
            f"its figures cover its {played - failed:,} solved games only; {row['first']}."
        )
    return notes


def failure_lines(games: pd.DataFrame, seed: int | None = None) -> list[str]:
    """The run's closing lines: per player with failed games, how many, why, the first."""
    failed = failed_games(games)
    lines = []
    for label, mine in failed.groupby("label", sort=False):
        played = int((games["label"] == label).sum())
        lines.append(
            f"player {str(label)!r}: {len(mine):,} of {played:,} games failed "
            f"({_reasons(mine)}); {_first(mine, seed)}"
        )
    return lines

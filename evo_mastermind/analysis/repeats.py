"""Repeated runs that are not independent: a deterministic player's identical games.

A deterministic player (Knuth's, the optimal tree) plays every secret of every run the
same way, so its runs are copies, not new observations. Counting its 2 × 200 games as 400
values would narrow its bootstrap interval and sharpen its rank-sum tests for nothing.
:func:`distinct_games` keeps one run of each such player, per block, before the unpaired
tests, A12 and the intervals are computed; :func:`identical_runs` says which were.

Runs are identical, within a block, when they played the same secrets (each secret and
occurrence in every run) and each secret's games agree in guess count, outcome and moves.
"""

from __future__ import annotations

from typing import cast

import pandas as pd

from evo_mastermind.analysis.results import BLOCK_COLUMNS, require_columns

SAME_GAME = ("n_guesses", "solved", "outcome")
"""Columns two runs' games of one secret must agree in (with ``moves``, where recorded)."""

IDENTICAL_COLUMNS = (*BLOCK_COLUMNS, "label", "runs")
"""Columns of :func:`identical_runs`: each block's players whose ``runs`` runs are copies."""


def _runs_identical(own: pd.DataFrame) -> bool:
    """Whether every run of one player in one block played every secret the same way."""
    runs = own["run"].nunique()
    if runs < 2:
        return False
    key = ["secret", "occurrence"]
    if (own.groupby(key, sort=False)["run"].nunique() != runs).any():
        return False  # the runs played different secrets: independent draws
    columns = [column for column in SAME_GAME if column in own.columns]
    if "moves" in own.columns:
        own = own.assign(moves=own["moves"].map(lambda moves: "\x1f".join(map(str, moves))))
        columns.append("moves")
    distinct = own.groupby(key, sort=False)[columns].nunique(dropna=False)
    return bool((distinct <= 1).all(axis=None))


def identical_runs(games: pd.DataFrame) -> pd.DataFrame:
    """Each block's labels whose runs all repeat the same games.

    Returns:
        Columns :data:`IDENTICAL_COLUMNS`, one row per repeating label and block.
    """
    require_columns(games, ("label", "run", "secret", "occurrence", "n_guesses", *BLOCK_COLUMNS))
    rows = []
    for key, own in games.groupby([*BLOCK_COLUMNS, "label"], sort=True, observed=True):
        if _runs_identical(own):
            pegs, colors, secrets, label = cast(tuple[int, int, str, str], key)
            rows.append(
                (int(pegs), int(colors), str(secrets), str(label), int(own["run"].nunique()))
            )
    return pd.DataFrame(rows, columns=list(IDENTICAL_COLUMNS))


def distinct_games(games: pd.DataFrame, repeated: pd.DataFrame | None = None) -> pd.DataFrame:
    """The games with each repeating player's copies dropped: its first run only, per block.

    Args:
        games: a games table.
        repeated: its :func:`identical_runs` (computed when not given).
    """
    repeated = identical_runs(games) if repeated is None else repeated
    if repeated.empty:
        return games
    first = games.groupby([*BLOCK_COLUMNS, "label"], sort=False, observed=True)["run"].transform(
        "min"
    )
    marks = repeated[[*BLOCK_COLUMNS, "label"]].assign(copied=True)
    keys = games[[*BLOCK_COLUMNS, "label"]].astype(
        {"pegs": "int64", "colors": "int64", "secrets": str, "label": str}
    )
    copied = keys.merge(marks, how="left", on=[*BLOCK_COLUMNS, "label"])["copied"]
    copies = copied.fillna(False).astype(bool).to_numpy()
    return games[~copies | (games["run"] == first).to_numpy()]


def repeats_line(repeated: pd.DataFrame) -> str | None:
    """Markdown: which players' runs were copies and count once (None: no such player)."""
    if repeated.empty:
        return None
    named = ", ".join(
        f"{label} ({runs} identical runs)"
        for label, runs in dict.fromkeys(zip(repeated["label"], repeated["runs"], strict=True))
    )
    return (
        f"Runs counted once: {named} played the same games in every run (a deterministic "
        "player), so the rank-sum tests, A12 and the bootstrap intervals take one run of each, "
        "not its copies."
    )

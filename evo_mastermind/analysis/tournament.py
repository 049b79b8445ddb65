"""Tournament scoring (seeds 000 and 001): wins, losses, failures and scores per round.

A round is one game: a win when solved, a loss when the guess or time limit ends it, a
failure when the player offers an invalid guess. Scores per round:

* ``sqrt`` (seed 000's scale): a win adds ``5 / sqrt(guesses)``, a failure ``-2``;
* ``scaled`` (seed 001's scale): both multiplied by ``pegs * colors``.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
from scipy import stats

GROUP_COLUMNS = ["label", "pegs", "colors", "secrets"]
WIN_POINTS = 5.0
FAILURE_POINTS = -2.0


def round_scores(games: pd.DataFrame) -> pd.DataFrame:
    """The games with ``result`` (win/loss/failure), ``score_sqrt`` and ``score_scaled``."""
    scored = games.copy()
    win = scored["outcome"] == "solved"
    failure = scored["outcome"] == "invalid_guess"
    scored["result"] = np.select([win, failure], ["win", "failure"], default="loss")
    guesses = scored["n_guesses"].clip(lower=1).astype(float)
    sqrt_score = np.where(
        win, WIN_POINTS / np.sqrt(guesses), np.where(failure, FAILURE_POINTS, 0.0)
    )
    scored["score_sqrt"] = sqrt_score
    scored["score_scaled"] = (
        sqrt_score * scored["pegs"].astype(float) * scored["colors"].astype(float)
    )
    return scored


def tournament_table(games: pd.DataFrame) -> pd.DataFrame:
    """Per player, size and secret source: the tournament's record.

    Columns: rounds, wins, losses, failures, win rate, mean guesses (every round, losses
    counted at the guesses they used), mean and max seconds, total ``sqrt`` and ``scaled``
    scores.
    """
    scored = round_scores(games)
    grouped = scored.groupby(GROUP_COLUMNS, sort=False)
    table = pd.DataFrame(
        {
            "rounds": grouped.size(),
            "wins": grouped["result"].apply(lambda r: int((r == "win").sum())),
            "losses": grouped["result"].apply(lambda r: int((r == "loss").sum())),
            "failures": grouped["result"].apply(lambda r: int((r == "failure").sum())),
            "mean_guesses": grouped["n_guesses"].mean(),
            "mean_seconds": grouped["seconds"].mean(),
            "max_seconds": grouped["seconds"].max(),
            "score_sqrt": grouped["score_sqrt"].sum(),
            "score_scaled": grouped["score_scaled"].sum(),
        }
    )
    table.insert(4, "win_rate", table["wins"] / table["rounds"])
    return table.reset_index()


def pairwise_score_tests(games: pd.DataFrame, score: str = "score_sqrt") -> pd.DataFrame:
    """Welch two-sample t-tests of per-round scores between every pair of players.

    One test per secret source (seed 000, Table 4), pooling the game sizes.
    """
    scored = round_scores(games)
    rows = []
    for source, part in scored.groupby("secrets", sort=False):
        by_label = {
            label: group[score].to_numpy() for label, group in part.groupby("label", sort=False)
        }
        for a, b in itertools.combinations(by_label, 2):
            x, y = by_label[a], by_label[b]
            if np.array_equal(np.sort(x), np.sort(y)):
                p_value = 1.0  # the same scores: no evidence of any difference
            else:
                p_value = float(stats.ttest_ind(x, y, equal_var=False).pvalue)
                if np.isnan(p_value):  # both constant and different: certainly different
                    p_value = 0.0
            rows.append(
                {
                    "secrets": source,
                    "a": a,
                    "b": b,
                    "mean_a": float(x.mean()),
                    "mean_b": float(y.mean()),
                    "p": p_value,
                }
            )
    return pd.DataFrame(rows, columns=["secrets", "a", "b", "mean_a", "mean_b", "p"])

"""Tournament scoring (the brENIAC and FBI reports): wins, losses, failures and scores per round.

A round is one game: a win when solved, a loss when the guess or time limit ends it, a
failure when the player offers an invalid guess. Scores per round:

* ``sqrt`` (brENIAC's scale): a win adds ``5 / sqrt(guesses)``, a failure ``-2``;
* ``scaled`` (team FBI's scale): both multiplied by ``pegs * colors``.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pandas as pd
from scipy import stats

from evo_mastermind.analysis.results import Experiment, size_text
from evo_mastermind.runner.record import as_record

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


def tournament_table(games: pd.DataFrame, by: list[str] | None = None) -> pd.DataFrame:
    """Per player, size and secret source: the tournament's record.

    Columns: rounds, wins, losses, failures, win rate, mean guesses (every round, losses
    counted at the guesses they used), mean and max seconds, total ``sqrt`` and ``scaled``
    scores. ``by`` changes the grouping (e.g. pooling the sizes: ``["label", "secrets"]``).
    """
    by = GROUP_COLUMNS if by is None else by
    scored = round_scores(games)
    grouped = scored.groupby(by, sort=False)
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
    table.insert(4, "win_rate", table["wins"] / table["rounds"])  # after the counts
    return table.reset_index()


def pairwise_score_tests(games: pd.DataFrame, score: str = "score_sqrt") -> pd.DataFrame:
    """Welch two-sample t-tests of per-round scores between every pair of players.

    One test per secret source (brENIAC, Dekel et al., Table 4), pooling the game sizes.
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
                with warnings.catch_warnings():
                    # A constant sample (every round won in the same number of guesses) is
                    # common here; scipy's precision warning about it changes nothing.
                    warnings.simplefilter("ignore", RuntimeWarning)
                    p_value = float(stats.ttest_ind(x, y, equal_var=False).pvalue)
                if np.isnan(p_value):  # both constant and different: certainly different
                    p_value = 0.0
            rows.append(
                {
                    "secrets": source,
                    "label_a": a,
                    "label_b": b,
                    "mean_a": float(x.mean()),
                    "mean_b": float(y.mean()),
                    "p": p_value,
                }
            )
    return pd.DataFrame(rows, columns=["secrets", "label_a", "label_b", "mean_a", "mean_b", "p"])


def _markdown_table(frame: pd.DataFrame) -> list[str]:
    header = "| " + " | ".join(str(column) for column in frame.columns) + " |"
    rule = "| " + " | ".join("---" for _ in frame.columns) + " |"
    rows = [
        "| " + " | ".join(_cell(value) for value in row) + " |"
        for row in frame.itertuples(index=False)
    ]
    return [header, rule, *rows]


def _cell(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.3f}" if abs(value) < 1000 else f"{value:.0f}"
    return str(value)


def pooled_table(games: pd.DataFrame) -> pd.DataFrame:
    """The tournament's record per player and secret source, pooling the game sizes."""
    return tournament_table(games, by=["label", "secrets"])


def tournament_markdown(
    games: pd.DataFrame,
    experiment: Experiment,
    by_size: pd.DataFrame,
    tests: pd.DataFrame,
    pooled: pd.DataFrame,
) -> str:
    """The Markdown of a tournament, from its tables.

    Per SCSA, every player's record pooled over the game sizes; then the Welch tests of
    per-round scores; then, when several sizes were played, where each player lost rounds.

    Args:
        games: the games (for the title and the sizes played).
        experiment: the experiment record (name, limits, secret sources' order).
        by_size: :func:`tournament_table` of the games.
        tests: :func:`pairwise_score_tests` of the games.
        pooled: :func:`pooled_table` of the games.
    """
    experiment = as_record(experiment)
    lines = [
        f"# Tournament {experiment.name}: {size_text(games)}",
        "",
        f"Guess limit {experiment.guess_limit}, time limit {experiment.time_limit} s "
        "of the player's own time per round. A round is a win (solved), a loss (a limit "
        "reached) or a failure (an invalid guess). Scores: `sqrt` adds 5/√guesses per win and "
        "−2 per failure (brENIAC, Dekel et al.); `scaled` multiplies both by pegs × colours "
        "(team FBI).",
        "",
    ]
    pooled = pooled.assign(mean_ms=pooled["mean_seconds"] * 1e3, max_ms=pooled["max_seconds"] * 1e3)
    columns = ["label", *pooled.columns[2:8], "mean_ms", "max_ms", "score_sqrt", "score_scaled"]
    order = experiment.secrets
    present = list(dict.fromkeys(pooled["secrets"]))
    for source in [s for s in order if s in present] + [s for s in present if s not in order]:
        part = pooled[pooled["secrets"] == source]
        lines += [f"## {source}", "", *_markdown_table(part[columns]), ""]
        pairs = tests[tests["secrets"] == source]
        if len(pairs):
            shown = pairs.assign(
                verdict=["different" if p < 0.05 else "not different" for p in pairs["p"]]
            )[["label_a", "label_b", "mean_a", "mean_b", "p", "verdict"]]
            lines += [
                "Welch t-tests of per-round `sqrt` scores (α = 0.05):",
                "",
                *_markdown_table(shown),
                "",
            ]
    lost = by_size[by_size["wins"] < by_size["rounds"]]
    if len(games[["pegs", "colors"]].drop_duplicates()) > 1:
        lines += ["## Rounds not won", ""]
        if len(lost):
            lines += _markdown_table(
                lost[
                    [
                        "label",
                        "pegs",
                        "colors",
                        "secrets",
                        "rounds",
                        "wins",
                        "losses",
                        "failures",
                        "mean_guesses",
                    ]
                ]
            )
        else:
            lines.append("Every player won every round at every size.")
        lines.append("")
    return "\n".join(lines)

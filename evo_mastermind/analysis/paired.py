"""Paired comparisons by secret: the repeated-measures design of players that share secrets.

Every player of an experiment plays the same secrets, so the secrets are the blocks of a
repeated-measures design (Demšar 2006; Benavoli et al. 2017). The unit of every test here
is the **secret mean**: a player's guesses on one secret averaged over its runs. A
deterministic player, whose runs repeat the same games, so counts each secret once, as it
should; a stochastic player's runs are averaged before its secrets are compared.

A secret on which any compared player has an unsolved game (guess or time limit, invalid
guess, lie) has no guess count to compare: it is left out of the paired tests and counted
(``dropped``), never averaged in unseen.

The tests come from maintained libraries of the field, not from this package:

* the Friedman test (:func:`scipy.stats.friedmanchisquare`) over all players, with the
  Nemenyi post-hoc test (:func:`scikit_posthocs.posthoc_nemenyi_friedman`) and the critical
  difference of the mean ranks (Demšar 2006, from :data:`scipy.stats.studentized_range`),
  drawn as a critical-difference diagram (:func:`scikit_posthocs.critical_difference_diagram`);
* the Wilcoxon signed-rank test per pair (:func:`scipy.stats.wilcoxon`), Holm-corrected
  (:func:`statsmodels.stats.multitest.multipletests`);
* the Bayesian signed-rank test per pair (:class:`baycomp.SignedRankTest`, Benavoli et al.
  2014), with a region of practical equivalence in guesses per game.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from evo_mastermind.analysis.results import AnalysisError, require_columns

PAIR_KEY = ("pegs", "colors", "secrets", "secret", "occurrence")
"""What makes two players' games comparable: the same secret of the same source and size."""

SIGNED_RANK_COLUMNS = (
    "a",
    "b",
    "secrets",
    "mean_a",
    "mean_b",
    "mean_difference",
    "statistic",
    "p",
    "p_holm",
    "significant",
)
"""Columns of :func:`signed_rank_tests`: one row per pair of players, in player order."""

BAYES_COLUMNS = ("a", "b", "secrets", "rope", "p_a_better", "p_equivalent", "p_b_better")
"""Columns of :func:`bayesian_signed_rank_tests` (better: fewer guesses)."""

UNIT = "secret mean (a player's guesses on one secret, averaged over its runs)"
"""The unit of every paired test, as the report states it."""


@dataclass(frozen=True)
class PairedDesign:
    """Secrets × players: each player's mean guesses on each secret, over its runs.

    Attributes:
        table: one row per secret (indexed by :data:`PAIR_KEY`), one column per player in
            the experiment's order.
        dropped: secrets left out because some player did not solve a game on them.
        repeats: per player, its runs and whether they repeat the same games (a
            deterministic player: its runs count once).
    """

    table: pd.DataFrame
    dropped: int
    repeats: pd.DataFrame

    @property
    def players(self) -> list[str]:
        """The players, in order."""
        return [str(label) for label in self.table.columns]


@dataclass(frozen=True)
class FriedmanResult:
    """The Friedman test over every player, the mean ranks and the critical difference."""

    statistic: float
    p: float
    mean_ranks: pd.Series
    """Each player's mean rank over the secrets (1 = fewest guesses; ties share the mean)."""
    critical_difference: float
    """Mean ranks further apart than this differ at ``alpha`` (Nemenyi, Demšar 2006)."""
    nemenyi: pd.DataFrame
    """The Nemenyi post-hoc p-values, players × players."""
    secrets: int
    alpha: float


def paired_design(games: pd.DataFrame, players: Sequence[str] | None = None) -> PairedDesign:
    """The secrets × players table of one block of games (one size, one secret source).

    Args:
        games: a games table (the runner's columns) of one block.
        players: the players to compare, in order (default: every label, in order of
            appearance).

    Raises:
        AnalysisError: the games hold several blocks, fewer than two players, or players
            that did not play the same secrets (nothing to pair).
    """
    require_columns(games, (*PAIR_KEY, "label", "run", "n_guesses", "solved"))
    if games[["pegs", "colors", "secrets"]].drop_duplicates().shape[0] != 1:
        raise AnalysisError("a paired design takes the games of one size and one secret source")
    order = list(players) if players is not None else list(dict.fromkeys(games["label"]))
    chosen = games[games["label"].isin(order)]
    if len(order) < 2:
        raise AnalysisError("a paired comparison needs at least two players")
    key = list(PAIR_KEY)
    played = {
        label: frozenset(map(tuple, rows[key].drop_duplicates().to_numpy().tolist()))
        for label, rows in chosen.groupby("label", observed=True)
    }
    absent = [label for label in order if label not in played]
    if absent:
        raise AnalysisError(f"no games of {', '.join(map(repr, absent))} to pair")
    if len(set(played.values())) != 1:
        raise AnalysisError(
            "the players did not all play the same secrets, so they cannot be paired by secret "
            "(use the unpaired tests)"
        )
    all_solved = chosen.groupby(key, observed=True)["solved"].all()
    means = (
        chosen.groupby([*key, "label"], observed=True)["n_guesses"]
        .mean()
        .unstack("label")
        .reindex(columns=order)
    )
    means = means[all_solved.reindex(means.index).to_numpy()]
    means.columns.name = None
    return PairedDesign(
        table=means, dropped=int((~all_solved).sum()), repeats=run_repeats(chosen, order)
    )


def run_repeats(games: pd.DataFrame, players: Sequence[str]) -> pd.DataFrame:
    """Per player: its runs, and whether every run played every secret the same way.

    A player whose runs repeat identical games (a deterministic player) holds one
    observation per secret, however many runs it played.
    """
    rows = []
    for label in players:
        own = games[games["label"] == label]
        runs = int(own["run"].nunique())
        per_secret = own.groupby(list(PAIR_KEY), observed=True)["n_guesses"].nunique()
        columns = [column for column in ("moves",) if column in own.columns]
        identical = bool((per_secret <= 1).all())
        if identical and columns:  # the same count is not yet the same game: compare moves
            moves = own.groupby(list(PAIR_KEY), observed=True)[columns[0]].agg(
                lambda values: len({str(value) for value in values})
            )
            identical = bool((moves <= 1).all())
        rows.append({"player": label, "runs": runs, "identical_runs": identical and runs > 1})
    return pd.DataFrame(rows, columns=["player", "runs", "identical_runs"])


def friedman_test(design: PairedDesign, alpha: float = 0.05) -> FriedmanResult:
    """The Friedman test over the players of ``design``, with Nemenyi and the critical difference.

    Raises:
        AnalysisError: fewer than three players or two secrets (the test's minimum).
    """
    from scikit_posthocs import posthoc_nemenyi_friedman
    from scipy.stats import friedmanchisquare, studentized_range

    table = design.table
    players, secrets = table.shape[1], table.shape[0]
    if players < 3 or secrets < 2:
        raise AnalysisError(
            f"the Friedman test needs at least three players and two secrets, got {players} "
            f"players and {secrets} secrets"
        )
    values = table.to_numpy(dtype=float)
    result = friedmanchisquare(*values.T)
    ranks = table.rank(axis=1, method="average").mean(axis=0)
    # Demšar (2006): CD = q_alpha * sqrt(k (k + 1) / (6 N)), q_alpha the studentized range / √2.
    q_alpha = studentized_range.ppf(1 - alpha, players, np.inf) / math.sqrt(2)
    critical = float(q_alpha * math.sqrt(players * (players + 1) / (6 * secrets)))
    nemenyi = posthoc_nemenyi_friedman(values)
    nemenyi.index = nemenyi.columns = table.columns
    return FriedmanResult(
        statistic=float(result.statistic),
        p=float(result.pvalue),
        mean_ranks=ranks,
        critical_difference=critical,
        nemenyi=nemenyi,
        secrets=secrets,
        alpha=alpha,
    )


def signed_rank_tests(design: PairedDesign, alpha: float = 0.05, holm: bool = True) -> pd.DataFrame:
    """The Wilcoxon signed-rank test of every pair of players, on their secret means.

    Zero differences (secrets both players needed the same guesses on) are handled by Pratt's
    method, which keeps them in the ranking; the p-value is exact for small samples without
    ties and from the normal approximation otherwise (scipy's ``method="auto"``).
    """
    from scipy.stats import wilcoxon
    from statsmodels.stats.multitest import multipletests

    rows = []
    for first, second in itertools.combinations(design.players, 2):
        a, b = design.table[first].to_numpy(float), design.table[second].to_numpy(float)
        if np.all(a == b):  # no difference at all: nothing to rank
            statistic, p = math.nan, 1.0
        else:
            result = wilcoxon(a, b, zero_method="pratt", alternative="two-sided")
            statistic, p = float(result.statistic), float(result.pvalue)
        rows.append(
            {
                "a": first,
                "b": second,
                "secrets": len(a),
                "mean_a": float(a.mean()),
                "mean_b": float(b.mean()),
                "mean_difference": float((a - b).mean()),
                "statistic": statistic,
                "p": p,
            }
        )
    table = pd.DataFrame(rows, columns=list(SIGNED_RANK_COLUMNS[:-2]))
    if table.empty:
        return pd.DataFrame(columns=list(SIGNED_RANK_COLUMNS))
    table["p_holm"] = multipletests(table["p"].to_numpy(), method="holm")[1] if holm else table["p"]
    table["significant"] = table["p_holm"] < alpha
    return table


def bayesian_signed_rank_tests(
    design: PairedDesign, rope: float = 0.01, seed: int = 0, samples: int = 20_000
) -> pd.DataFrame:
    """The Bayesian signed-rank test of every pair (Benavoli et al. 2014, via baycomp).

    Args:
        design: the paired design.
        rope: the region of practical equivalence, in guesses per game: pairs whose mean
            differs by less count as equivalent.
        seed: seeds baycomp's own generator (the posterior is sampled), so a report is
            reproducible.
        samples: posterior samples drawn.
    """
    from baycomp import SignedRankTest

    rows = []
    for first, second in itertools.combinations(design.players, 2):
        a, b = design.table[first].to_numpy(float), design.table[second].to_numpy(float)
        # baycomp scores classifiers (higher is better): its "left" is x above y by more than
        # the rope, which for guesses means that b is better.
        left, equivalent, right = SignedRankTest.probs(
            a, b, rope=rope, nsamples=samples, random_state=seed
        )
        rows.append(
            {
                "a": first,
                "b": second,
                "secrets": len(a),
                "rope": rope,
                "p_a_better": float(right),
                "p_equivalent": float(equivalent),
                "p_b_better": float(left),
            }
        )
    return pd.DataFrame(rows, columns=list(BAYES_COLUMNS))

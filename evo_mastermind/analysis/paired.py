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
from typing import Literal

import numpy as np
import pandas as pd

from evo_mastermind.analysis.results import (
    AnalysisError,
    Experiment,
    blocks,
    label_order,
    require_columns,
)
from evo_mastermind.runner.record import as_record

PAIR_KEY = ("pegs", "colors", "secrets", "secret", "occurrence")
"""What makes two players' games comparable: the same secret of the same source and size."""

SIGNED_RANK_COLUMNS = (
    "label_a",
    "label_b",
    "n_secrets",
    "mean_a",
    "mean_b",
    "mean_difference",
    "statistic",
    "p",
    "p_adjusted",
    "significant",
)
"""Columns of :func:`signed_rank_tests`: one row per pair of players, in player order."""

BAYES_COLUMNS = (
    "label_a",
    "label_b",
    "n_secrets",
    "rope",
    "p_a_better",
    "p_equivalent",
    "p_b_better",
)
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
        rows.append({"label": label, "runs": runs, "identical_runs": identical and runs > 1})
    return pd.DataFrame(rows, columns=["label", "runs", "identical_runs"])


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
                "label_a": first,
                "label_b": second,
                "n_secrets": len(a),
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
    adjusted = multipletests(table["p"].to_numpy(), method="holm")[1] if holm else table["p"]
    table["p_adjusted"] = adjusted
    table["significant"] = table["p_adjusted"] < alpha
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
                "label_a": first,
                "label_b": second,
                "n_secrets": len(a),
                "rope": rope,
                "p_a_better": float(right),
                "p_equivalent": float(equivalent),
                "p_b_better": float(left),
            }
        )
    return pd.DataFrame(rows, columns=list(BAYES_COLUMNS))


PairedChoice = Literal["auto", "friedman", "signed_rank", "bayesian", "none"]
"""The ``statistics.paired`` setting: which paired tests a report adds."""

BLOCK = ("pegs", "colors", "secrets")
"""The columns naming a block (one size, one secret source) in the paired tables."""

PAIR = ("label_a", "label_b")
"""The columns naming a pair of players."""

PAIRED_TEST_COLUMNS = (*BLOCK, *PAIR, "n_secrets", "dropped", *SIGNED_RANK_COLUMNS[3:])
"""Columns of ``paired_tests.csv``: the signed-rank test of every pair, per block."""

MEAN_RANK_COLUMNS = (
    *BLOCK,
    "label",
    "mean_rank",
    "n_secrets",
    "dropped",
    "friedman_statistic",
    "friedman_p",
    "critical_difference",
    "alpha",
)
"""Columns of ``mean_ranks.csv``: each player's mean rank, with its block's Friedman test."""

BAYES_TABLE_COLUMNS = (*BLOCK, *PAIR, "n_secrets", "dropped", *BAYES_COLUMNS[3:])
"""Columns of ``bayesian_tests.csv``: the Bayesian signed-rank test of every pair, per block."""

BAYES_ROPE = 0.01
"""The region of practical equivalence of the report's Bayesian tests, in guesses per game."""


@dataclass(frozen=True)
class PairedBlock:
    """One block's paired design, or why its players cannot be paired.

    Attributes:
        block: ``(pegs, colors, secrets)``.
        design: the secrets × players design (None: not paired).
        reason: why the block is not paired ('' when it is).
    """

    block: tuple[int, int, str]
    design: PairedDesign | None
    reason: str = ""


def paired_blocks(games: pd.DataFrame, experiment: Experiment | None = None) -> list[PairedBlock]:
    """Every block's paired design over its players in the config's order, or why there is none.

    A block is paired when its players (two or more) all played the same secrets and at
    least two secrets were solved by every player.
    """
    order = label_order(games, experiment)
    found: list[PairedBlock] = []
    for block, played in blocks(games):
        present = set(played["label"].astype(str))
        try:
            design = paired_design(played, [label for label in order if label in present])
        except AnalysisError as error:
            found.append(PairedBlock(block, None, str(error)))
            continue
        if len(design.table) < 2:
            why = f"{len(design.table)} secrets solved by every player: too few to pair"
            found.append(PairedBlock(block, None, why))
        else:
            found.append(PairedBlock(block, design))
    return found


def paired_choices(choice: PairedChoice, players: int) -> frozenset[str]:
    """The tests (``friedman``, ``signed_rank``, ``bayesian``) a setting asks for ``players``.

    ``auto`` is the Friedman test from three players on and the signed-rank tests always.
    """
    if choice == "auto":
        return frozenset({"friedman", "signed_rank"} if players >= 3 else {"signed_rank"})
    return frozenset() if choice == "none" else frozenset({choice})


def _frame(rows: list[pd.DataFrame], columns: Sequence[str]) -> pd.DataFrame | None:
    return pd.concat(rows, ignore_index=True)[list(columns)] if rows else None


def _chosen(
    found: Sequence[PairedBlock], choice: PairedChoice, test: str
) -> list[tuple[tuple[int, int, str], PairedDesign]]:
    return [
        (each.block, each.design)
        for each in found
        if each.design is not None and test in paired_choices(choice, len(each.design.players))
    ]


def _with_block(
    table: pd.DataFrame, block: tuple[int, int, str], design: PairedDesign
) -> pd.DataFrame:
    return table.assign(pegs=block[0], colors=block[1], secrets=block[2], dropped=design.dropped)


def paired_test_table(
    found: Sequence[PairedBlock], experiment: Experiment | None
) -> pd.DataFrame | None:
    """``paired_tests.csv``: the Holm-corrected signed-rank tests of every paired block.

    None when the setting asks for no signed-rank test or no block is paired. The Holm
    correction runs over the pairs of each block, whatever ``statistics.holm`` says of the
    unpaired tests.
    """
    alpha = as_record(experiment).alpha
    rows = [
        _with_block(signed_rank_tests(design, alpha=alpha, holm=True), block, design)
        for block, design in _chosen(found, as_record(experiment).paired, "signed_rank")
    ]
    return _frame(rows, PAIRED_TEST_COLUMNS)


def friedman_by_block(
    found: Sequence[PairedBlock], experiment: Experiment | None, *, asked: bool = True
) -> list[tuple[tuple[int, int, str], FriedmanResult, PairedDesign]]:
    """The Friedman test of every paired block of three or more players.

    Args:
        found: the blocks (from :func:`paired_blocks`).
        experiment: the experiment record (``alpha`` and ``paired``).
        asked: only the blocks the ``paired`` setting asks a Friedman test of (False: every
            block it can be run on, as for a critical-difference diagram asked for by name).
    """
    record = as_record(experiment)
    chosen = _chosen(found, "auto" if not asked else record.paired, "friedman")
    return [(block, friedman_test(design, alpha=record.alpha), design) for block, design in chosen]


def mean_rank_table(
    found: Sequence[PairedBlock], experiment: Experiment | None
) -> pd.DataFrame | None:
    """``mean_ranks.csv``: each player's mean rank over the secrets, with its block's Friedman test.

    None when the setting asks for no Friedman test or no block of three or more players
    is paired.
    """
    rows = []
    for block, result, design in friedman_by_block(found, experiment):
        ranks = result.mean_ranks
        rows.append(
            _with_block(
                pd.DataFrame(
                    {
                        "label": [str(label) for label in ranks.index],
                        "mean_rank": ranks.to_numpy(float),
                        "n_secrets": result.secrets,
                        "friedman_statistic": result.statistic,
                        "friedman_p": result.p,
                        "critical_difference": result.critical_difference,
                        "alpha": result.alpha,
                    }
                ),
                block,
                design,
            )
        )
    return _frame(rows, MEAN_RANK_COLUMNS)


def bayesian_test_table(
    found: Sequence[PairedBlock], experiment: Experiment | None
) -> pd.DataFrame | None:
    """``bayesian_tests.csv``: the Bayesian signed-rank test of every pair of every paired block.

    Seeded by the experiment's seed, so the posterior probabilities are the same on every
    rerun; None unless the setting is ``bayesian``.
    """
    seed = as_record(experiment).seed
    rows = [
        _with_block(bayesian_signed_rank_tests(design, rope=BAYES_ROPE, seed=seed), block, design)
        for block, design in _chosen(found, as_record(experiment).paired, "bayesian")
    ]
    return _frame(rows, BAYES_TABLE_COLUMNS)

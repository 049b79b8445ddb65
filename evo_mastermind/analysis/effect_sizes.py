"""Effect sizes and confidence intervals, as evolutionary-computation papers now report them.

* **Vargha–Delaney A12** (Vargha & Delaney 2000) for each pair of players in a block:
  the probability that a value of the first sample exceeds one of the second, ties counted
  half. On guess counts (lower is better) an A12 below 0.5 favours the first player. Its
  magnitude follows the authors' thresholds on ``max(A, 1 − A)``: negligible below 0.56,
  small below 0.64, medium below 0.71, large from 0.71.
* **Bootstrap confidence intervals** of each player's mean guesses, drawn by
  :func:`scipy.stats.bootstrap` (percentile method) from a generator seeded by the root
  seed, the block and the label, so a report is byte-stable and a player's interval does
  not depend on which other players were played.

Both compare what the rank-sum tests compare (the experiment's ``test_on``): the per-game
guess counts (``games``, the default) or the per-run means (``runs``), over the solved games
only, as the paper's table and the tests do (a failed game is counted apart, never averaged in).
"""

from __future__ import annotations

import hashlib

import numpy as np
import numpy.typing as npt
import pandas as pd
from scipy.stats import bootstrap, rankdata

from evo_mastermind.analysis.results import (
    BLOCK_COLUMNS,
    AnalysisError,
    Experiment,
    blocks,
    label_order,
    require_columns,
)
from evo_mastermind.analysis.stats import TestOn, compared_values
from evo_mastermind.analysis.summary import solved_games

A12_COLUMNS = (*BLOCK_COLUMNS, "label_a", "label_b", "a12", "magnitude")
"""Columns of :func:`pairwise_a12`."""

INTERVAL_COLUMNS = (*BLOCK_COLUMNS, "label", "n", "mean", "low", "high")
"""Columns of :func:`mean_confidence_intervals` (``n``: how many values were resampled)."""

A12_THRESHOLDS = ((0.56, "negligible"), (0.64, "small"), (0.71, "medium"))
"""Vargha & Delaney (2000): an effect is *large* from 0.71 on ``max(A, 1 − A)``."""

BOOTSTRAP_RESAMPLES = 2000
"""Resamples of each bootstrap. Over six seeds the ends of the interval of Table 3's EDA + f_l
(12,960 games) moved by 0.0011 and 0.0016 guesses; each took 0.4 s."""


def vargha_delaney_a12(first: npt.ArrayLike, second: npt.ArrayLike) -> float:
    """A12 of ``first`` over ``second``: P(X > Y) + ½ P(X = Y), X from first, Y from second.

    Computed from mid-ranks of the pooled sample (the Mann–Whitney U of ``first`` over
    the number of pairs), so ties count half.

    Raises:
        AnalysisError: a sample is empty or holds a NaN.
    """
    x = np.asarray(first, dtype=float).ravel()
    y = np.asarray(second, dtype=float).ravel()
    if x.size == 0 or y.size == 0:
        raise AnalysisError("A12 needs at least one value in each sample")
    if np.isnan(x).any() or np.isnan(y).any():
        raise AnalysisError("A12 is undefined for samples holding NaN")
    ranks = rankdata(np.concatenate([x, y]))
    u_first = ranks[: x.size].sum() - x.size * (x.size + 1) / 2
    return float(u_first / (x.size * y.size))


def a12_magnitude(a12: float) -> str:
    """Vargha & Delaney's name for an A12: negligible, small, medium or large.

    Raises:
        AnalysisError: ``a12`` is not between 0 and 1.
    """
    if not 0.0 <= a12 <= 1.0:
        raise AnalysisError(f"an A12 lies between 0 and 1, got {a12}")
    distance = max(a12, 1.0 - a12)
    for bound, name in A12_THRESHOLDS:
        if distance < bound:
            return name
    return "large"


def pairwise_a12(
    games: pd.DataFrame, *, on: TestOn = "games", experiment: Experiment | None = None
) -> pd.DataFrame:
    """A12 and its magnitude for each pair of labels within each block.

    One row per pair, ``label_a`` before ``label_b`` in the experiment's order (the order of
    the rank-sum tests); A12 of the reverse pair is ``1 − a12``.

    Args:
        games: a games table (``label``, ``run``, ``n_guesses`` and the block columns).
        on: compare the per-game guess counts (``games``) or the per-run means (``runs``).
        experiment: the experiment record, for its players' order.

    Returns:
        Columns :data:`A12_COLUMNS`.

    Raises:
        AnalysisError: a table without the needed columns, or a bad ``on``.
    """
    require_columns(games, ("label", "run", "n_guesses", *BLOCK_COLUMNS))
    order = label_order(games, experiment)
    rows = []
    for (pegs, colors, secrets), block in blocks(solved_games(games)):
        values = compared_values(block, on)
        labels = [label for label in order if label in values]
        for i, first in enumerate(labels):
            for second in labels[i + 1 :]:
                a12 = vargha_delaney_a12(values[first], values[second])
                rows.append((pegs, colors, secrets, first, second, a12, a12_magnitude(a12)))
    return pd.DataFrame(rows, columns=list(A12_COLUMNS))


def _generator(seed: int, pegs: int, colors: int, secrets: str, label: str) -> np.random.Generator:
    """A generator of its own for one label in one block, whatever else was played."""
    identity = f"{pegs}\x1f{colors}\x1f{secrets}\x1f{label}".encode()
    digest = int.from_bytes(hashlib.blake2b(identity, digest_size=8).digest(), "little")
    return np.random.default_rng(np.random.SeedSequence([seed, digest]))


def mean_confidence_intervals(
    games: pd.DataFrame,
    *,
    seed: int,
    confidence: float = 0.95,
    on: TestOn = "games",
    experiment: Experiment | None = None,
    resamples: int = BOOTSTRAP_RESAMPLES,
) -> pd.DataFrame:
    """Each label's mean guesses with a percentile bootstrap interval, per block.

    Args:
        games: a games table.
        seed: the root of every bootstrap's generator (reports use the experiment's seed).
        confidence: the interval's confidence level.
        on: resample the games (``games``) or the run means (``runs``); the mean is the
            same either way when every run plays the same secrets.
        experiment: the experiment record, for its players' order.
        resamples: bootstrap resamples per interval.

    Returns:
        Columns :data:`INTERVAL_COLUMNS`; a label with a single value (or values all equal)
        has ``low == high == mean``.

    Raises:
        AnalysisError: a confidence outside (0, 1), fewer than 100 resamples, a negative
            seed, or a table without the needed columns.
    """
    # Text or a bool given from Python is named here, not met as a TypeError in a comparison.
    for name, value, whole in (
        ("confidence", confidence, False),
        ("resamples", resamples, True),
        ("seed", seed, True),
    ):
        kinds = (int, np.integer) if whole else (int, float, np.integer, np.floating)
        if isinstance(value, bool) or not isinstance(value, kinds):
            wanted = "a whole number" if whole else "a number"
            raise AnalysisError(f"{name} must be {wanted}, got {type(value).__name__} {value!r}")
    if not 0 < confidence < 1:
        raise AnalysisError(f"confidence must be between 0 and 1, got {confidence}")
    if resamples < 100:
        raise AnalysisError(f"a bootstrap needs at least 100 resamples, got {resamples}")
    if seed < 0:
        raise AnalysisError(f"the bootstrap seed must be non-negative, got {seed}")
    require_columns(games, ("label", "run", "n_guesses", *BLOCK_COLUMNS))
    order = label_order(games, experiment)
    rows = []
    for (pegs, colors, secrets), block in blocks(solved_games(games)):
        values = compared_values(block, on)
        for label in (label for label in order if label in values):
            sample = values[label]
            mean = float(sample.mean())
            low = high = mean
            if sample.size > 1 and np.ptp(sample) > 0:
                result = bootstrap(
                    (sample,),
                    np.mean,
                    n_resamples=resamples,
                    confidence_level=confidence,
                    method="percentile",
                    # Bounded memory: resamples × games floats at once would be gigabytes.
                    batch=max(1, min(resamples, 2_000_000 // sample.size)),
                    rng=_generator(seed, pegs, colors, secrets, label),
                )
                low = float(result.confidence_interval.low)
                high = float(result.confidence_interval.high)
            rows.append((pegs, colors, secrets, label, int(sample.size), mean, low, high))
    return pd.DataFrame(rows, columns=list(INTERVAL_COLUMNS))

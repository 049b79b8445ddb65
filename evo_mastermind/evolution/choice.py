"""Choosing a guess from an archive of consistent codes (Runarsson & Merelo 2009, sections 5-6).

The archive is a sample of the codes still consistent with the history (all of them when
the search stopped without filling it). Two families of scores rank the possible guesses:

* the one-ply partition heuristics, computed over the archive: every heuristic of the table
  :mod:`evo_mastermind.heuristics` (Runarsson & Merelo 2009's ``entropy``, ``most_parts``,
  ``expected_size``, ``worst_case``, and any registered with ``@register_heuristic``);
* ``lookahead``: the expected number of guesses still needed, looking two moves ahead. One
  ply estimates a part of ``m`` candidates to need ``T(m)/m`` more guesses (exactly 1 and
  1.5 for one and two candidates, ``a + b ln m`` beyond); a guess that is itself a candidate
  wins at once with probability ``1/n``. The ``width`` best guesses by that estimate are then
  rescored by playing, inside each part they leave, the best next guess by the same
  estimate. Part sizes count archive members, so the estimate is exact in scale when the
  archive holds every consistent code and a ranking heuristic otherwise; when the archive is
  a uniform sample of a set of known size (the ``sampler`` player), each member stands for
  ``scale`` = set size / sample size codes, and the parts are estimated at that scale.

Every score is oriented higher-is-better; ties go to archive members (consistent codes)
and then to the game's generator.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from evo_mastermind.codes import Code, Codes
from evo_mastermind.engine import fewest_totals
from evo_mastermind.heuristics import LOOKAHEAD as LOOKAHEAD  # its name here too, as before
from evo_mastermind.heuristics import HeuristicError, Scores, known_heuristic
from evo_mastermind.partitions import best_indices, partition_counts
from evo_mastermind.scoring import Packed, response_matrix

HeuristicName = str
"""A registered partition heuristic's name, or :data:`LOOKAHEAD`."""


def __getattr__(name: str) -> Any:
    # ``Heuristic``, the former name of HeuristicName, is heuristics.Heuristic's name now.
    if name == "Heuristic":
        warnings.warn(
            "evo_mastermind.evolution.choice.Heuristic is now HeuristicName "
            "(evo_mastermind.Heuristic is a heuristic object); the old name works until "
            "evo_mastermind 0.3",
            DeprecationWarning,
            stacklevel=2,
        )
        return HeuristicName
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def check_heuristic(name: HeuristicName) -> HeuristicName:
    """``name`` if :func:`choose_guess` can use it: :data:`LOOKAHEAD` or a registered heuristic.

    Raises:
        HeuristicError: neither, in one line listing the known heuristics.
    """
    if name != LOOKAHEAD:
        try:
            known_heuristic(name)
        except HeuristicError as error:
            raise HeuristicError(f"{error}; or {LOOKAHEAD!r}") from None
    return name


Totals = npt.NDArray[np.float64]
"""Estimated guesses, in all, that parts of given sizes need (``T(m)`` of each)."""


@dataclass(frozen=True)
class RemainingGuesses:
    """The one-ply estimate of guesses still needed for a set of ``m`` candidates.

    ``T(1) = 1`` and ``T(2) = 3`` exactly (total guesses over the part's members); beyond,
    ``T(m) = m (a + b ln m)``. The defaults were measured on our own (4,6) games.

    Attributes:
        a: guesses needed by a set of ``e`` ≈ 2.7 candidates, roughly.
        b: extra guesses per factor ``e`` more candidates.
    """

    a: float = 1.2
    b: float = 0.42

    def totals(self, sizes: npt.NDArray[np.integer] | npt.NDArray[np.floating]) -> Totals:
        """``T(m)`` of each part size (0 for empty parts; a scaled sample's may be fractional)."""
        m = sizes.astype(np.float64)
        beyond = m * (self.a + self.b * np.log(np.maximum(m, 1.0)))
        return np.where(m <= 1.0, m, np.where(m == 2.0, 3.0, beyond))


def _win_response(pegs: int) -> int:
    return pegs * (pegs + 1)  # black = pegs, white = 0


def expected_guesses(
    responses: Packed, pegs: int, curve: RemainingGuesses, scale: float = 1.0
) -> npt.NDArray[np.float64]:
    """One-ply expected guesses (this one included) of each guess (row) over the candidates.

    Each candidate (column) stands for ``scale`` codes of the set (1: the candidates are
    the set; above 1: a uniform sample of it).
    """
    n_responses = (pegs + 1) ** 2
    counts = partition_counts(responses, n_responses)
    # T of every possible part size once, then looked up: a logarithm per size, not per cell.
    table = curve.totals(np.arange(responses.shape[1] + 1) * scale)
    totals = table[counts]
    totals[:, _win_response(pegs)] = 0.0  # the guess was the secret: nothing more to play
    return 1.0 + totals.sum(axis=1) / (responses.shape[1] * scale)


def lookahead_scores(
    responses: Packed,
    pegs: int,
    width: int,
    consistent_play: bool,
    curve: RemainingGuesses,
    scale: float = 1.0,
) -> Scores:
    """Minus the two-ply expected guesses of the ``width`` best one-ply guesses (others -inf).

    Args:
        responses: packed responses of every possible guess (rows; the archive's members
            first) against the archive's members (columns).
        pegs: code length.
        width: how many guesses are rescored with the second ply.
        consistent_play: the second guess inside a part is one of that part's members
            (otherwise any row may be played).
        curve: the one-ply estimate used at the leaves.
        scale: codes of the set each archive member stands for (above 1 for a uniform
            sample of a larger set).
    """
    n = responses.shape[1]
    n_responses = (pegs + 1) ** 2
    one_ply = expected_guesses(responses, pegs, curve, scale)
    scores = np.full(responses.shape[0], -np.inf)
    top = np.argsort(one_ply, kind="stable")[:width]
    win = _win_response(pegs)
    table = curve.totals(np.arange(n + 1) * scale)
    every = np.arange(responses.shape[0], dtype=np.int64)
    for row in top:
        answers = responses[row].astype(np.intp)
        sizes = np.bincount(answers, minlength=n_responses)
        sizes[win] = 0
        # Parts of one or two members end at the one-ply estimate (exact for a whole set).
        small = sizes[(sizes > 0) & (sizes < 3)]
        total = float(curve.totals(small * scale).sum())
        for answer in np.flatnonzero(sizes >= 3):
            members = np.flatnonzero(answers == answer).astype(np.int64)
            # Archive members are the first rows: consistent play tries the part's own.
            rows = members if consistent_play else every
            # The part's best next guess: one guess for each member, and what it leaves.
            total += members.size * scale + fewest_totals(
                responses, rows, members, table, n_responses, win
            )
        scores[row] = -(1.0 + total / (n * scale))
    return scores


def choose_guess(
    archive: Codes,
    pool: Codes | None,
    heuristic: HeuristicName,
    colors: int,
    rng: np.random.Generator,
    width: int = 20,
    curve: RemainingGuesses | None = None,
    scale: float = 1.0,
) -> tuple[Code, bool]:
    """The guess a heuristic picks, computed over the archive's members.

    Args:
        archive: distinct consistent codes (at least one).
        pool: other codes that may be played (all-codes play), or ``None`` to play only
            archive members (consistent play). Archive members win ties.
        heuristic: a registered partition heuristic's name, or ``lookahead``.
        colors: number of colours.
        rng: breaks the remaining ties at random.
        width: with ``lookahead``, how many guesses get the second ply.
        curve: with ``lookahead``, the one-ply estimate of remaining guesses.
        scale: with ``lookahead``, how many consistent codes each archive member stands
            for (the set's size over the archive's, for a uniform sample; 1 otherwise).

    Returns:
        The guess, and whether it is an archive member (consistent).

    Raises:
        HeuristicError: an unknown heuristic, or one whose scores are not one number a guess.
    """
    check_heuristic(heuristic)
    n_archive, pegs = archive.shape
    if n_archive <= 2:
        # One or two candidates: playing a member splits them perfectly (and may win).
        return archive[rng.integers(n_archive)], True
    guesses = archive if pool is None or pool.shape[0] == 0 else np.concatenate([archive, pool])
    responses = response_matrix(guesses, archive, colors)
    if heuristic == LOOKAHEAD:
        scores = lookahead_scores(
            responses, pegs, width, pool is None, curve or RemainingGuesses(), scale
        )
    else:
        counts = partition_counts(responses, (pegs + 1) ** 2)
        scores = known_heuristic(heuristic).scores(counts)
    tied = best_indices(scores)
    consistent = tied[tied < n_archive]
    if consistent.size:
        tied = consistent
    choice = int(tied[rng.integers(tied.size)])
    return guesses[choice], choice < n_archive

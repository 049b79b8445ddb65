"""Lookahead kernel: the best next guess inside one part, by the one-ply estimate.

:func:`fewest_totals` is the compiled twin of the inner ply of
:func:`evo_mastermind.evolution.choice.lookahead_scores`: for each possible guess (a row of
packed responses) the part's members are counted by response and the estimated totals
``T(size)`` of the parts summed; the least sum wins. One pass over the responses, with no
copy of the part's columns, where the numpy definition slices and counts them.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from evo_mastermind.kernels.startup import call


@njit(cache=True, nogil=True)
def _fewest_totals(
    responses: npt.NDArray[np.unsignedinteger],
    rows: npt.NDArray[np.int64],
    members: npt.NDArray[np.int64],
    totals: npt.NDArray[np.float64],
    n_responses: int,
    win: int,
) -> float:
    """The least, over ``rows``, of the summed totals of the parts ``members`` fall into."""
    counts = np.zeros(n_responses, dtype=np.int64)
    best = np.inf
    for row in rows:
        counts[:] = 0
        line = responses[row]
        for member in members:
            counts[line[member]] += 1
        total = 0.0
        for answer in range(n_responses):
            if answer != win:
                total += totals[counts[answer]]
        best = min(best, total)
    return best


def fewest_totals(
    responses: npt.NDArray[np.unsignedinteger],
    rows: npt.NDArray[np.int64],
    members: npt.NDArray[np.int64],
    totals: npt.NDArray[np.float64],
    n_responses: int,
    win: int,
) -> float:
    """The least summed ``totals[part size]`` over the guesses ``rows`` (the win's part free).

    Args:
        responses: packed responses, guesses (rows) against candidates (columns).
        rows: the guesses to try.
        members: the candidates (columns) of the part.
        totals: ``totals[k]``: the estimated guesses a part of ``k`` members needs in all
            (``totals[0] == 0``), at least ``members.size + 1`` entries.
        n_responses: the packed response range, ``(pegs + 1) ** 2``.
        win: the packed response of a guess that is the secret.
    """
    return float(call(_fewest_totals, responses, rows, members, totals, n_responses, win))

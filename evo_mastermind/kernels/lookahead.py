"""Lookahead kernel: the best next guess inside one part, by the one-ply estimate.

:func:`fewest_totals` is the compiled twin of the inner ply of
:func:`evo_mastermind.evolution.choice.lookahead_scores`: for each possible guess (a row of
packed responses) the part's members are counted by response and the estimated totals
``T(size)`` of the parts summed; the least sum wins. One pass over the responses, with no
copy of the part's columns, where the numpy definition slices and counts them. It reads the
stop flag (:func:`evo_mastermind.kernels.flags.stop_flag`) every few rows.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from evo_mastermind.kernels import flags
from evo_mastermind.kernels.startup import call
from evo_mastermind.kernels.stopping import stopped


@njit(cache=True, nogil=True)
def _fewest_totals(
    responses: npt.NDArray[np.unsignedinteger],
    rows: npt.NDArray[np.int64],
    members: npt.NDArray[np.int64],
    totals: npt.NDArray[np.float64],
    n_responses: int,
    win: int,
    halt: npt.NDArray[np.uint8],
) -> float:
    """The least, over ``rows``, of the summed totals of the parts ``members`` fall into.

    Stopped by ``halt``, the least so far (the caller raises instead of using it).
    """
    counts = np.zeros(n_responses, dtype=np.int64)
    best = np.inf
    for at, row in enumerate(rows):
        if at % 16 == 0 and stopped(halt):
            break
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
    """:func:`evo_mastermind.partitions.fewest_totals` (the same arguments), compiled."""
    return float(
        flags.stoppable(
            lambda halt: call(
                _fewest_totals, responses, rows, members, totals, n_responses, win, halt
            )
        )
    )

"""Compiling every kernel ahead of the first game (``make`` calls :func:`warm`)."""

from __future__ import annotations

import numpy as np

from evo_mastermind.codes import CodeSpace, color_counts
from evo_mastermind.kernels.choosing import choose
from evo_mastermind.kernels.lookahead import fewest_totals
from evo_mastermind.kernels.responses import columns, responses, weight
from evo_mastermind.kernels.scoring import (
    _clog_table,
    _count_parallel,
    _count_serial,
    _score_parallel,
    _score_serial,
    new_floor,
)
from evo_mastermind.kernels.startup import call
from evo_mastermind.kernels.symmetry import canonical_codes
from evo_mastermind.kernels.trees import grow_tree


def warm() -> None:
    """Compile (or load from the cache) every kernel, as ``make`` does after installing.

    A small space's own arrays are used, so that the types are the ones games pass.
    """
    space = CodeSpace(3, 4)
    codes = space.all_codes
    counts = color_counts(codes, space.colors)
    every = np.arange(space.size, dtype=np.int64)
    every_pegs, every_counts = columns(codes, counts, every)
    weights = weight(space.pegs)
    for kernel in (_score_serial, _score_parallel):
        scores = np.empty(space.size)
        parts = np.empty(space.size, dtype=np.int64)
        clog = _clog_table(space.size)
        pool = (every_pegs, every_counts, 0, space.size)
        args = (every_pegs, every_counts, space.n_responses, 3, clog, 2, weights)
        call(kernel, *pool, *args, scores, parts, new_floor(), False)
    for counter in (_count_serial, _count_parallel):
        out = np.zeros((space.size, space.n_responses), dtype=np.int64)
        call(counter, every_pegs, every_counts, every_pegs, every_counts, weights, 2, out)
    for pool_all in (True, False):
        choose(codes, counts, every[::5], (every, every), pool_all, "entropy", True)
    grow_tree(codes, counts, space.place_values, every, 0, 1, -1, True, "entropy", 2000, 100)
    canonical_codes(codes, np.ones(space.colors, dtype=np.int64), space.place_values)
    packed = responses(codes, counts, 0, every)
    win = space.pegs * (space.pegs + 1)
    totals = np.zeros(space.size + 1)
    fewest_totals(packed[None, :], every[:1], every, totals, space.n_responses, win)

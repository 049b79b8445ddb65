"""The exact set of codes consistent with a history, found without listing the code space.

For measuring how complete an archive is (``benchmarks/studies/completeness.py``); the
players never call it. Codes are built one peg at a time, and a prefix is dropped as soon as
some played guess rules it out: its black pegs so far already exceed the response's, or
cannot reach it with the pegs left, and likewise for the colour matches (black + white),
which only grow as pegs are added. On (8,12) it took 0.7–3.8 s after five random guesses
and under half a second after six (8–16 s after three, for about 400,000 codes).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from evo_mastermind.codes import Codes
from evo_mastermind.evolution.fitness import History

MAX_PREFIXES = 50_000_000
"""Refuse histories that leave more prefixes than this after some peg (memory)."""


def _within(
    counts: npt.NDArray[np.int64], target: npt.NDArray[np.int64], pegs_left: int
) -> npt.NDArray[np.bool_]:
    """Rows whose counts, which can grow by at most ``pegs_left``, may still reach ``target``."""
    return np.all((counts <= target) & (counts + pegs_left >= target), axis=1)


def consistent_codes(history: History, max_prefixes: int = MAX_PREFIXES) -> Codes:
    """Every code consistent with ``history`` (at least one guess), in lexicographic order.

    Raises:
        ValueError: the history is empty, or it leaves more than ``max_prefixes`` prefixes.
    """
    if len(history) == 0:
        raise ValueError("the consistent set of an empty history is the whole space")
    pegs, colors = history.pegs, history.colors
    guesses = history.guesses.astype(np.int64)
    blacks_needed = history.blacks
    matches_needed = history.blacks + history.whites
    guess_counts = np.stack([np.bincount(guess, minlength=colors) for guess in guesses])
    prefixes = np.zeros((1, 0), dtype=np.uint8)
    blacks = np.zeros((1, len(history)), dtype=np.int64)
    code_counts = np.zeros((1, colors), dtype=np.int64)
    for peg in range(pegs):
        parent = np.repeat(np.arange(prefixes.shape[0]), colors)
        colour = np.tile(np.arange(colors), prefixes.shape[0])
        if parent.size > max_prefixes:
            raise ValueError(f"more than {max_prefixes} prefixes at peg {peg + 1}")
        prefixes = np.column_stack([prefixes[parent], colour.astype(np.uint8)])
        blacks = blacks[parent] + (guesses[:, peg][None, :] == colour[:, None])
        code_counts = code_counts[parent]
        code_counts[np.arange(colour.size), colour] += 1
        pegs_left = pegs - peg - 1
        matches = np.minimum(code_counts[:, None, :], guess_counts[None, :, :]).sum(axis=2)
        keep = _within(blacks, blacks_needed, pegs_left) & _within(
            matches, matches_needed, pegs_left
        )
        prefixes, blacks, code_counts = prefixes[keep], blacks[keep], code_counts[keep]
    return prefixes

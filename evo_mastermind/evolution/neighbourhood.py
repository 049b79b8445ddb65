"""A local scan around known consistent codes: every code within a small Hamming radius.

Consistent codes cluster: late in a game, codes still consistent are mostly within two or
three changed pegs of one another, while a genetic search that found one of them tends to
stay near that one. Scanning the neighbourhoods of archive members, breadth first, collects
the rest of a small consistent set at the cost of a few vectorised batch evaluations (a
memetic local-search step; it lists neighbourhoods, never the code space).
"""

from __future__ import annotations

from functools import cache
from itertools import combinations, product

import numpy as np
import numpy.typing as npt

from evo_mastermind.codes import Codes
from evo_mastermind.evolution.archive import Archive
from evo_mastermind.evolution.fitness import CountingEvaluator

Offsets = npt.NDArray[np.uint8]


@cache
def hamming_offsets(pegs: int, colors: int, radius: int) -> Offsets:
    """Every non-zero colour shift with at most ``radius`` changed pegs, shape ``(k, pegs)``.

    ``(code + offset) % colors`` runs over every code at Hamming distance 1..radius from
    ``code`` exactly once.
    """
    rows: list[list[int]] = []
    for changed in range(1, radius + 1):
        for positions in combinations(range(pegs), changed):
            for shifts in product(range(1, colors), repeat=changed):
                row = [0] * pegs
                for position, shift in zip(positions, shifts, strict=True):
                    row[position] = shift
                rows.append(row)
    offsets = np.array(rows, dtype=np.uint8).reshape(-1, pegs)
    offsets.flags.writeable = False
    return offsets


def neighbourhood_size(pegs: int, colors: int, radius: int) -> int:
    """How many codes lie at Hamming distance 1..radius from a code."""
    from math import comb

    return sum(comb(pegs, k) * (colors - 1) ** k for k in range(1, radius + 1))


def neighbours(centres: Codes, colors: int, offsets: Offsets) -> Codes:
    """Every code at the offsets' distances from each centre, shape ``(len(centres) * k, pegs)``."""
    shifted = centres[:, None, :].astype(np.int16) + offsets[None, :, :]
    return (shifted % colors).astype(np.uint8).reshape(-1, centres.shape[1])


def distinct_rows(codes: Codes) -> Codes:
    """The distinct codes of a batch, in first-seen order."""
    if codes.shape[0] == 0:
        return codes
    keys = np.ascontiguousarray(codes).view(np.dtype((np.void, codes.shape[1]))).ravel()
    _, first = np.unique(keys, return_index=True)
    return codes[np.sort(first)]


def scan_around(
    archive: Archive,
    evaluator: CountingEvaluator,
    offsets: Offsets,
    budget: int,
    rng: np.random.Generator,
) -> list[Codes]:
    """Breadth-first scan of the neighbourhoods of archive members; consistent codes join it.

    Each member's neighbourhood is scanned once per call, newly found members are scanned in
    turn, until nothing new turns up, the archive is full, or ``budget`` evaluations are
    spent (a random share of a neighbourhood is scanned when the budget cannot cover it all).

    Returns:
        The batches of codes evaluated (for the caller's pool of seen codes).
    """
    colors = evaluator.colors
    frontier = archive.codes
    evaluated: list[Codes] = []
    spent = 0
    while frontier.shape[0] and not archive.full and spent < budget:
        room = budget - spent
        if frontier.shape[0] * offsets.shape[0] > room:
            per_centre = max(1, room // frontier.shape[0])
            if per_centre < offsets.shape[0]:
                chosen = np.sort(rng.choice(offsets.shape[0], per_centre, replace=False))
                batch = neighbours(frontier, colors, offsets[chosen])
            else:
                batch = neighbours(frontier[: room // offsets.shape[0] or 1], colors, offsets)
        else:
            batch = neighbours(frontier, colors, offsets)
        batch = distinct_rows(batch)
        spent += batch.shape[0]
        consistent = batch[evaluator.evaluate(batch).consistent]
        evaluated.append(batch)
        before = len(archive)
        archive.offer(consistent)
        frontier = archive.codes[before:]
    return evaluated

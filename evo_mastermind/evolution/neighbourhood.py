"""Local scans around known consistent codes: Hamming balls and rearrangements of the pegs.

Late in a game a genetic search that found one consistent code tends to stay near it, while
the other consistent codes are often far in Hamming distance yet made of the same colours
in another order (on (8,12), about half of the codes our search missed were rearrangements
of a code it had found). Scanning, breadth first, the Hamming ball and the rearrangements of
each archive member collects them in a few vectorised batch evaluations: a memetic
local-search step that lists neighbourhoods, never the code space.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations, permutations, product
from math import comb

import numpy as np
import numpy.typing as npt

from evo_mastermind.codes import Codes
from evo_mastermind.evolution.archive import Archive
from evo_mastermind.evolution.fitness import CountingEvaluator, first_occurrences

Offsets = npt.NDArray[np.uint8]

PERMUTATION_LIMIT = 8
"""Codes of up to this many pegs have every rearrangement scanned (8! = 40320)."""

PERMUTATION_SAMPLE = 20_000
"""Random rearrangements scanned for longer codes."""


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
    return sum(comb(pegs, k) * (colors - 1) ** k for k in range(1, radius + 1))


def neighbours(centres: Codes, colors: int, offsets: Offsets) -> Codes:
    """Every code at the offsets' distances from each centre, shape ``(len(centres) * k, pegs)``."""
    shifted = centres[:, None, :].astype(np.int16) + offsets[None, :, :]
    return (shifted % colors).astype(np.uint8).reshape(-1, centres.shape[1])


def distinct_rows(codes: Codes) -> Codes:
    """The distinct codes of a batch, in first-seen order."""
    if codes.shape[0] == 0:
        return codes
    return codes[np.sort(first_occurrences(codes))]


@cache
def permutation_indices(pegs: int) -> npt.NDArray[np.intp]:
    """Every ordering of ``pegs`` positions, shape ``(pegs!, pegs)``."""
    indices = np.array(list(permutations(range(pegs))), dtype=np.intp).reshape(-1, pegs)
    indices.flags.writeable = False
    return indices


def arrangements(code: npt.NDArray[np.uint8], rng: np.random.Generator) -> Codes:
    """Distinct rearrangements of a code's pegs.

    All of them for codes of up to :data:`PERMUTATION_LIMIT` pegs, otherwise
    :data:`PERMUTATION_SAMPLE` random ones.
    """
    pegs = code.shape[0]
    if pegs <= PERMUTATION_LIMIT:
        return distinct_rows(code[permutation_indices(pegs)])
    orders = np.argsort(rng.random((PERMUTATION_SAMPLE, pegs)), axis=1)
    return distinct_rows(code[orders])


def scan_around(
    archive: Archive,
    evaluator: CountingEvaluator,
    rng: np.random.Generator,
    budget: int,
    radius: int = 1,
    rearrange: bool = False,
) -> list[Codes]:
    """Breadth-first scan around archive members; the consistent codes found join the archive.

    Around each member: the codes within a Hamming ``radius`` and, with ``rearrange``, every
    rearrangement of its colours (once per colour multiset). Each round uses the largest
    radius up to ``radius`` whose balls around every new member fit the remaining budget
    (at least 1). Newly found members are scanned in turn, until nothing new turns up, the
    archive is full, or ``budget`` evaluations are spent (a random share of a round is
    scanned when the budget cannot cover it all).

    Returns:
        The batches of codes evaluated (for the caller's pool of seen codes).
    """
    pegs, colors = archive.pegs, evaluator.colors
    frontier = archive.codes
    evaluated: list[Codes] = []
    multisets: set[bytes] = set()
    spent = 0
    while frontier.shape[0] and not archive.full and spent < budget:
        room = budget - spent
        parts = [np.zeros((0, pegs), np.uint8)]
        if radius:
            scanned = _radius_within(frontier.shape[0], pegs, colors, radius, room)
            parts.append(neighbours(frontier, colors, hamming_offsets(pegs, colors, scanned)))
        if rearrange:
            for code in frontier:
                multiset = np.sort(code).tobytes()
                if multiset not in multisets:
                    multisets.add(multiset)
                    parts.append(arrangements(code, rng))
        batch = distinct_rows(np.concatenate(parts))
        if batch.shape[0] == 0:
            break
        if batch.shape[0] > room:
            batch = batch[np.sort(rng.choice(batch.shape[0], room, replace=False))]
        spent += batch.shape[0]
        consistent = batch[evaluator.evaluate(batch).consistent]
        evaluated.append(batch)
        before = len(archive)
        archive.offer(consistent)
        frontier = archive.codes[before:]
    return evaluated


def _radius_within(centres: int, pegs: int, colors: int, radius: int, room: int) -> int:
    """The largest radius up to ``radius`` whose balls around ``centres`` codes fit ``room``."""
    for candidate in range(radius, 1, -1):
        if centres * neighbourhood_size(pegs, colors, candidate) <= room:
            return candidate
    return 1

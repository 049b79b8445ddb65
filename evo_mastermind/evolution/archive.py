"""The archive of consistent codes and the partition heuristics that choose a guess from it.

Seed 002, sections 5-6: an evolutionary search keeps at most μ distinct consistent codes;
a one-ply partition heuristic computed over that archive (a sample of the consistent set)
chooses the guess. Nothing here lists the code space.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
import numpy.typing as npt

from evo_mastermind.codes import Code, Codes
from evo_mastermind.evolution.fitness import code_keys
from evo_mastermind.partitions import (
    PARTITION_SCORES,
    Counts,
    Scores,
    best_indices,
    partition_counts,
)
from evo_mastermind.scoring import response_matrix, score_codes

Heuristic = Literal["entropy", "most_parts", "expected_size", "worst_case"]


class Archive:
    """At most ``capacity`` distinct consistent codes, in the order they were found.

    Args:
        pegs: code length.
        capacity: μ, the largest number of members.
    """

    def __init__(self, pegs: int, capacity: int) -> None:
        self.pegs = pegs
        self.capacity = capacity
        self._members: dict[bytes, Code] = {}

    def __len__(self) -> int:
        return len(self._members)

    @property
    def full(self) -> bool:
        """Whether the archive holds ``capacity`` members."""
        return len(self._members) >= self.capacity

    @property
    def codes(self) -> Codes:
        """The members, shape ``(len(self), pegs)``."""
        if not self._members:
            return np.zeros((0, self.pegs), dtype=np.uint8)
        return np.stack(list(self._members.values()))

    def clear(self) -> None:
        """Remove every member."""
        self._members = {}

    def offer(self, codes: Codes) -> int:
        """Add the codes not yet members, in order, until full; return how many were added."""
        added = 0
        for key, code in zip(code_keys(codes), np.atleast_2d(codes), strict=True):
            if self.full:
                break
            if key not in self._members:
                self._members[key] = code.copy()
                added += 1
        return added

    def keep_consistent(self, guess: Code, packed_response: int, colors: int) -> None:
        """Keep only the members that would have drawn ``packed_response`` to ``guess``."""
        if not self._members:
            return
        codes = self.codes
        keep = score_codes(guess, codes, colors) == packed_response
        self._members = dict(
            zip(
                (key for key, kept in zip(self._members, keep.tolist(), strict=True) if kept),
                codes[keep],
                strict=True,
            )
        )


def partition_scores(
    guesses: Codes, candidates: Codes, heuristic: Heuristic, colors: int
) -> Scores:
    """Score each guess by how it partitions the candidates (higher is better)."""
    pegs = candidates.shape[1]
    counts: Counts = partition_counts(response_matrix(guesses, candidates, colors), (pegs + 1) ** 2)
    return PARTITION_SCORES[heuristic](counts)


def choose_guess(
    archive: Codes,
    pool: Codes | None,
    heuristic: Heuristic,
    colors: int,
    rng: np.random.Generator,
) -> tuple[Code, bool]:
    """The guess a partition heuristic picks, computed over the archive's members.

    Args:
        archive: distinct consistent codes (at least one).
        pool: other codes that may be played (all-codes play), or ``None`` to play only
            archive members (consistent play). Archive members win ties.
        heuristic: the partition score.
        colors: number of colours.
        rng: breaks the remaining ties at random.

    Returns:
        The guess, and whether it is an archive member (consistent).
    """
    if archive.shape[0] <= 2:
        # One or two candidates: playing a member splits them perfectly (and may win).
        return archive[rng.integers(archive.shape[0])], True
    guesses = archive if pool is None or pool.shape[0] == 0 else np.concatenate([archive, pool])
    tied = best_indices(partition_scores(guesses, archive, heuristic, colors))
    consistent = tied[tied < archive.shape[0]]
    if consistent.size:
        tied = consistent
    choice = int(tied[rng.integers(tied.size)])
    return guesses[choice], choice < archive.shape[0]


def outside(codes: Codes, excluded: Codes) -> npt.NDArray[np.bool_]:
    """Which ``codes`` are not among ``excluded``."""
    if excluded.shape[0] == 0:
        return np.ones(codes.shape[0], dtype=bool)
    banned = set(code_keys(excluded))
    return np.array([key not in banned for key in code_keys(codes)], dtype=bool)

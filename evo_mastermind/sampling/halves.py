"""The consistent set counted and numbered exactly by splitting codes into two halves.

A code is its first ``h = ceil(pegs / 2)`` pegs (the left half) followed by the rest (the
right half). Against a guess, its blacks are the two halves' blacks added, and its colour
matches depend only on its colour counts, the halves' counts added. So the halves that some
completion keeps are listed once per side (``colors ** h`` codes at most) and grouped by
their blacks against every guess and their colour counts capped at the most any guess
holds; a left and a right group make consistent codes exactly when their blacks add up to
every response's and their merged counts give every response's colour matches, and then
every member of one with every member of the other does. The matching pairs of groups,
weighted by the product of their sizes, count the set; numbering the codes pair by pair
makes a uniform index in ``[0, size)`` a uniform consistent code (:meth:`ConsistentSet.codes_at`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

import evo_mastermind.sampling._kernels as _kernels
from evo_mastermind.codes import Codes, CodeSpace
from evo_mastermind.kernels import flags
from evo_mastermind.sampling.constraints import Constraints

Indices = npt.NDArray[np.int64]

HALF_LIMIT = 1 << 22
"""The most codes a half may have (``colors ** ceil(pegs / 2)``) for the set to be split."""


def halves_memory(space: CodeSpace) -> int:
    """Bytes of the tables of a split (a half's colours, blacks and capped counts, and groups).

    A half of at most :data:`HALF_LIMIT` codes, ``3 * pegs + colors`` bytes each (what the
    players' estimates count for a sample drawn or a count made by halves).
    """
    half = min(space.colors ** ((space.pegs + 1) // 2), HALF_LIMIT)
    return half * (3 * space.pegs + space.colors)


def can_split(constraints: Constraints) -> bool:
    """Whether the halves of this game are small enough to list (:data:`HALF_LIMIT`)."""
    return space_splits(constraints.space)


def space_splits(space: CodeSpace) -> bool:
    """Whether the halves of a game of this size are small enough to list (:data:`HALF_LIMIT`)."""
    return space.pegs >= 2 and space.colors ** ((space.pegs + 1) // 2) <= HALF_LIMIT


@dataclass(frozen=True)
class _Side:
    """The kept halves of one side, grouped.

    Members of group ``g`` are ``members[starts[g]:starts[g + 1]]`` (rows of ``digits``).
    """

    digits: Codes
    group_blacks: npt.NDArray[np.uint8]
    group_counts: npt.NDArray[np.uint8]
    members: Indices
    starts: Indices

    @property
    def sizes(self) -> Indices:
        return np.diff(self.starts)


def _side(constraints: Constraints, first_peg: int, length: int) -> _Side:
    guess_counts = constraints.guess_counts
    caps = guess_counts.max(axis=0) if len(constraints) else np.zeros(constraints.space.colors)
    digits, blacks, counts = flags.stoppable(
        lambda halt: _kernels.half_codes(
            first_peg,
            length,
            constraints.space.pegs,
            constraints.guesses,
            guess_counts,
            constraints.blacks,
            constraints.matches,
            caps.astype(np.int64),
            halt,
        )
    )
    keys = np.concatenate([blacks, counts], axis=1)
    unique, group_of, sizes = np.unique(keys, axis=0, return_inverse=True, return_counts=True)
    k = blacks.shape[1]
    return _Side(
        digits=digits,
        group_blacks=np.ascontiguousarray(unique[:, :k]),
        group_counts=np.ascontiguousarray(unique[:, k:]),
        members=np.argsort(group_of.reshape(-1), kind="stable"),
        starts=np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64),
    )


class ConsistentSet:
    """The codes consistent with a history, counted and numbered without listing them.

    Args:
        constraints: the history (at least one guess); :func:`can_split` must hold.
    """

    def __init__(self, constraints: Constraints) -> None:
        if not can_split(constraints):
            raise ValueError(f"the halves of {constraints.space} are too large to list")
        self.constraints = constraints
        pegs = constraints.space.pegs
        half = (pegs + 1) // 2
        self._left = _side(constraints, 0, half)
        self._right = _side(constraints, half, pegs - half)
        hashes = _kernels.row_hashes(self._right.group_blacks)
        by_hash = np.argsort(hashes, kind="stable").astype(np.int64)
        pairs = flags.stoppable(
            lambda halt: _kernels.join_halves(
                self._left.group_blacks,
                self._left.group_counts,
                self._right.group_blacks,
                self._right.group_counts,
                by_hash,
                np.ascontiguousarray(hashes[by_hash]),
                constraints.guess_counts,
                constraints.blacks,
                constraints.matches,
                halt,
            )
        )
        self._pairs = pairs
        self._right_sizes = self._right.sizes[pairs[:, 1]]
        self.pair_sizes: Indices = self._left.sizes[pairs[:, 0]] * self._right_sizes
        """How many codes each pair of groups holds (codes are numbered pair by pair)."""
        self._ends = np.cumsum(self.pair_sizes)
        self.size = int(self._ends[-1]) if self._ends.size else 0
        """How many codes are consistent (exact)."""
        self.group_pairs = int(pairs.shape[0])
        """How many pairs of half groups make up the set (the numbering's table)."""

    def __len__(self) -> int:
        return self.size

    def codes_at(self, indices: Indices) -> Codes:
        """The consistent codes numbered ``indices`` (each in ``[0, size)``).

        Code ``x`` lies in the pair ``j`` whose running total first exceeds ``x``; its offset
        inside the pair picks a left member (``offset // right size``) and a right member
        (``offset % right size``).
        """
        indices = np.asarray(indices, dtype=np.int64)
        if indices.size and (indices.min() < 0 or indices.max() >= self.size):
            raise IndexError(f"code numbers must lie in [0, {self.size})")
        pair = np.searchsorted(self._ends, indices, side="right")
        offset = indices - (self._ends[pair] - self.pair_sizes[pair])
        in_left, in_right = np.divmod(offset, self._right_sizes[pair])
        left = self._left.members[self._left.starts[self._pairs[pair, 0]] + in_left]
        right = self._right.members[self._right.starts[self._pairs[pair, 1]] + in_right]
        return np.concatenate([self._left.digits[left], self._right.digits[right]], axis=1)

    def all_codes(self) -> Codes:
        """Every consistent code, in lexicographic order."""
        codes = self.codes_at(np.arange(self.size, dtype=np.int64))
        if codes.shape[0] == 0:
            return codes
        return codes[np.lexsort(codes.T[::-1])]

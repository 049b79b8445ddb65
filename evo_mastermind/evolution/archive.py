"""The archive of consistent codes kept by the ``archive`` player (Runarsson & Merelo 2009, §5-6).

An evolutionary search keeps at most μ distinct consistent codes; after each response only
the members still consistent stay. Nothing here lists the code space.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from evo_mastermind.codes import Code, Codes
from evo_mastermind.evolution.fitness import code_keys
from evo_mastermind.scoring import score_codes


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

    def contains(self, codes: Codes) -> npt.NDArray[np.bool_]:
        """Which ``codes`` are members."""
        return np.array([key in self._members for key in code_keys(codes)], dtype=bool)

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


def outside(codes: Codes, excluded: Codes) -> npt.NDArray[np.bool_]:
    """Which ``codes`` are not among ``excluded``."""
    if excluded.shape[0] == 0:
        return np.ones(codes.shape[0], dtype=bool)
    banned = set(code_keys(excluded))
    return np.array([key not in banned for key in code_keys(codes)], dtype=bool)

"""Codes that a position cannot tell apart, so one of each kind is enough to score.

Responses are unchanged when the same colour relabelling is applied to a guess and a
secret. A relabelling that maps every played guess to itself therefore maps the set of
consistent codes to itself, and a guess and its image split that set into parts of exactly
the same sizes under the same responses: every partition score of the two is equal. Two
such symmetries are used by the exhaustive players:

* on the empty board every colour and position permutation qualifies, so a code's score
  depends only on its sorted colour multiplicities (:func:`multiplicity_classes`);
* later, colours that no played guess uses may be relabelled freely among themselves,
  and colours that no consistent code uses (zero colours) are all alike, so any one may
  stand for any other at any peg (:func:`colour_classes`; Ville 2013, section 5.4). This
  shrinks the pool most in the early moves where it is largest (151 classes instead of
  1296 codes after AABB on (4,6)).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from evo_mastermind.codes import CodeSpace, color_counts, digit_keys

Indices = npt.NDArray[np.int64]


@dataclass(frozen=True)
class CodeClasses:
    """Every code of a space grouped into classes whose members score alike.

    Attributes:
        of_code: the class number of each code (indexed like :attr:`CodeSpace.all_codes`).
        representatives: ``representatives[k]`` is the lexicographically first code of
            class ``k``.
    """

    of_code: Indices
    representatives: Indices

    @classmethod
    def of_keys(cls, keys: npt.NDArray[np.int64]) -> CodeClasses:
        """Classes of codes with equal keys (``keys[i]`` is the key of code ``i``)."""
        _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        return cls(inverse.ravel().astype(np.int64), first.astype(np.int64))


@lru_cache(maxsize=8)
def multiplicity_classes(space: CodeSpace) -> CodeClasses:
    """Codes grouped by their sorted colour multiplicities (AABB and DCDC share a class)."""
    counts = -np.sort(-color_counts(space.all_codes, space.colors).astype(np.int64), axis=1)
    return CodeClasses.of_keys(digit_keys(counts, space.pegs + 1))


@lru_cache(maxsize=16)  # a game tree meets few sets of played and zero colours
def colour_classes(
    space: CodeSpace, played: frozenset[int], zero: frozenset[int]
) -> CodeClasses | None:
    """Codes equal up to relabelling unplayed colours and exchanging zero colours.

    ``zero`` holds the colours no consistent code uses (they may also be played). Returns
    ``None`` when no two codes are alike (fewer than two free and two zero colours).
    """
    # Compiled: only the players need it.
    from evo_mastermind.kernels.symmetry import canonical_codes, colour_kinds

    kind = np.zeros(space.colors, dtype=np.int64)
    present = sum(1 << c for c in range(space.colors) if c not in zero)
    if colour_kinds(present, sum(1 << c for c in played), kind) < 0:
        return None
    return CodeClasses(*canonical_codes(space.all_codes, kind, space.place_values))

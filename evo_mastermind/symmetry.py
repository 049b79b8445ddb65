"""Codes that a position cannot tell apart, so one of each kind is enough to score.

Responses are unchanged when the same colour relabelling is applied to a guess and a
secret. A relabelling that maps every played guess to itself therefore maps the set of
consistent codes to itself, and a guess and its image split that set into parts of exactly
the same sizes under the same responses: every partition score of the two is equal. Two
such symmetries are used by the exhaustive players:

* on the empty board every colour and position permutation qualifies, so a code's score
  depends only on its sorted colour multiplicities (:func:`multiplicity_classes`);
* later, colours that no played guess uses may be relabelled freely among themselves
  (:func:`unplayed_colour_classes`), which shrinks the all-codes pool most in the early
  moves where it is largest (151 classes instead of 1296 codes after AABB on (4,6)).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from evo_mastermind.codes import Codes, CodeSpace, color_counts, digit_keys

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


@lru_cache(maxsize=32)  # a game tree meets few sets of played colours
def unplayed_colour_classes(space: CodeSpace, played: frozenset[int]) -> CodeClasses | None:
    """Codes equal up to a relabelling of the colours outside ``played``.

    Returns ``None`` when fewer than two colours are unplayed (every class is one code).
    """
    unplayed = np.ones(space.colors, dtype=bool)
    unplayed[list(played)] = False
    if np.count_nonzero(unplayed) < 2:
        return None
    labels = _first_seen_labels(space.all_codes, unplayed)
    return CodeClasses.of_keys(digit_keys(labels, 2 * space.colors))


def _first_seen_labels(codes: Codes, unplayed: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """Each code with its unplayed colours renamed ``colors, colors + 1, ...`` by first use.

    Played colours keep their numbers, so two codes get the same labels exactly when a
    relabelling of unplayed colours maps one to the other.
    """
    n, pegs = codes.shape
    colors = unplayed.size
    rows = np.arange(n)
    label_of = np.full((n, colors), -1, dtype=np.int64)  # per code: unplayed colour -> label
    next_label = np.full(n, colors, dtype=np.int64)
    labelled = codes.astype(np.int64)
    for peg in range(pegs):
        colour = codes[:, peg]
        is_unplayed = unplayed[colour]
        first_use = is_unplayed & (label_of[rows, colour] < 0)
        label_of[rows[first_use], colour[first_use]] = next_label[first_use]
        next_label[first_use] += 1
        labelled[is_unplayed, peg] = label_of[rows[is_unplayed], colour[is_unplayed]]
    return labelled

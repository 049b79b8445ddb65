"""Catching a lying codemaker on spaces too large to list, from the colours alone.

Black plus white is the number of pegs a guess and the secret share as multisets of
colours, whatever their positions. So every answer constrains only the secret's colour
counts, and those are few: C(pegs + colours - 1, colours - 1) count vectors (92,378 at
(10,10)) against 10^10 codes. :class:`ColourCountCheck` keeps the count vectors that agree
with every answer; when none is left, no code can agree either, and the answers contradict
each other. It proves contradictions in the colours (``0 0`` to every guess runs out of
colours in a few guesses); a lie only about positions passes it.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import numpy.typing as npt

from evo_mastermind.codes import Code, CodeSpace

COUNT_VECTOR_LIMIT = 2_000_000
"""The most colour-count vectors kept (12 pegs and 12 colours have 1,352,078); above it the
colours are not checked either."""


def count_vector_total(space: CodeSpace) -> int:
    """How many colour-count vectors ``space`` has (multisets of ``pegs`` colours)."""
    return math.comb(space.pegs + space.colors - 1, space.colors - 1)


def count_vectors(space: CodeSpace) -> npt.NDArray[np.uint8]:
    """Every colour-count vector of ``space``, one row each (stars and bars)."""
    slots, bars = space.pegs + space.colors - 1, space.colors - 1
    total = count_vector_total(space)
    chosen = np.fromiter(
        itertools.chain.from_iterable(itertools.combinations(range(slots), bars)),
        dtype=np.int16,
        count=total * bars,
    ).reshape(total, bars)
    edges = np.hstack(
        [np.full((total, 1), -1, np.int16), chosen, np.full((total, 1), slots, np.int16)]
    )
    return (np.diff(edges, axis=1) - 1).astype(np.uint8)


class ColourCountCheck:
    """The colour-count vectors that agree with every answer so far.

    Args:
        space: the game size; :attr:`checkable` is false above :data:`COUNT_VECTOR_LIMIT`.
    """

    def __init__(self, space: CodeSpace) -> None:
        self.space = space
        self.checkable = count_vector_total(space) <= COUNT_VECTOR_LIMIT
        self._vectors: npt.NDArray[np.uint8] | None = None

    def agrees(self, guess: Code, black: int, white: int) -> bool:
        """Keep the count vectors agreeing with this answer too; whether any is left.

        A refused answer (none left) is not recorded, so the answer may be given again.
        """
        if not self.checkable:
            return True
        vectors = count_vectors(self.space) if self._vectors is None else self._vectors
        guess_counts = np.bincount(np.asarray(guess, dtype=np.intp), minlength=self.space.colors)
        shared = np.minimum(vectors, guess_counts.astype(np.uint8)).sum(axis=1)
        kept = vectors[shared == black + white]
        if not len(kept):
            return False
        self._vectors = kept
        return True

"""What a consistent code must satisfy: each played guess's blacks and colour matches.

:class:`Constraints` holds a history as the kernels read it; :func:`consistent_mask_reference`
is the readable numpy definition of consistency the compiled paths are tested against.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from evo_mastermind.codes import Codes, CodeSpace, InvalidGameError
from evo_mastermind.scoring import Response, score_codes


class HistoryLike(Protocol):
    """Anything holding a game's played guesses and responses (e.g. the players' ``History``)."""

    @property
    def guesses(self) -> Codes:
        """The played codes, shape ``(k, pegs)``."""

    @property
    def blacks(self) -> npt.NDArray[np.int64]:
        """Black pegs of each response."""

    @property
    def whites(self) -> npt.NDArray[np.int64]:
        """White pegs of each response."""


@dataclass(frozen=True)
class Constraints:
    """The guesses played and the responses they drew, as arrays the kernels read.

    Attributes:
        space: the game size.
        guesses: the played codes, shape ``(k, pegs)``.
        blacks: black pegs of each response, shape ``(k,)``.
        matches: colour matches (black + white) of each response, shape ``(k,)``.
    """

    space: CodeSpace
    guesses: Codes
    blacks: npt.NDArray[np.int64]
    matches: npt.NDArray[np.int64]

    def __post_init__(self) -> None:
        pegs, colors = self.space.pegs, self.space.colors
        guesses = np.ascontiguousarray(np.asarray(self.guesses, dtype=np.uint8).reshape(-1, pegs))
        blacks = np.asarray(self.blacks, dtype=np.int64).reshape(-1)
        matches = np.asarray(self.matches, dtype=np.int64).reshape(-1)
        if not guesses.shape[0] == blacks.size == matches.size:
            raise InvalidGameError("a history needs one response per guess")
        if guesses.size and int(guesses.max()) >= colors:
            raise InvalidGameError(f"a guess uses a colour outside the {colors} of {self.space}")
        if np.any(blacks < 0) or np.any(matches < blacks) or np.any(matches > pegs):
            raise InvalidGameError(f"a response no code of {self.space} can draw")
        object.__setattr__(self, "guesses", guesses)
        object.__setattr__(self, "blacks", blacks)
        object.__setattr__(self, "matches", matches)

    @classmethod
    def of(cls, space: CodeSpace, history: HistoryLike) -> Constraints:
        """The constraints of a history (anything with guesses, blacks and whites)."""
        blacks = np.asarray(history.blacks, dtype=np.int64)
        return cls(space, history.guesses, blacks, blacks + np.asarray(history.whites))

    @classmethod
    def from_responses(
        cls, space: CodeSpace, guesses: Codes, responses: list[Response]
    ) -> Constraints:
        """The constraints of guesses and the responses they drew."""
        blacks = np.array([r.black for r in responses], dtype=np.int64)
        whites = np.array([r.white for r in responses], dtype=np.int64)
        return cls(space, guesses, blacks, blacks + whites)

    def __len__(self) -> int:
        return int(self.guesses.shape[0])

    @property
    def guess_counts(self) -> npt.NDArray[np.int64]:
        """How many pegs of each colour every guess holds, shape ``(k, colors)``."""
        counts = np.zeros((len(self), self.space.colors), dtype=np.int64)
        for row, guess in enumerate(self.guesses):
            counts[row] = np.bincount(guess, minlength=self.space.colors)
        return counts


def consistent_mask_reference(codes: Codes, constraints: Constraints) -> npt.NDArray[np.bool_]:
    """Which ``codes`` draw every response of the history: the numpy definition."""
    pegs, colors = constraints.space.pegs, constraints.space.colors
    keep = np.ones(codes.shape[0], dtype=bool)
    for guess, black, match in zip(
        constraints.guesses, constraints.blacks, constraints.matches, strict=True
    ):
        wanted = black * (pegs + 1) + (match - black)
        keep &= score_codes(guess, codes, colors) == wanted
    return keep

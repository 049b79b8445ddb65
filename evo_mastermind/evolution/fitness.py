"""Fitness of codes given a game's history, and an evaluator that counts every evaluation.

Runarsson & Merelo 2009, section 4: the distance to consistency ``f`` (0 exactly for consistent
codes), the local entropy ``s`` (equation 3) and their combination ``f_ℓ = s / (1 + f)``. Everything
is vectorised over a population held as a ``(n, pegs)`` array, and works on any game size (nothing
here lists the code space).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from evo_mastermind.codes import Code, Codes
from evo_mastermind.partitions import local_entropy
from evo_mastermind.scoring import Response, response_matrix

Distances = npt.NDArray[np.int64]
Scores = npt.NDArray[np.float64]


@dataclass
class History:
    """The guesses played so far in a game and the responses they drew.

    Attributes:
        pegs: code length.
        colors: number of colours.
    """

    pegs: int
    colors: int
    _guesses: list[Code] = field(default_factory=list)
    _blacks: list[int] = field(default_factory=list)
    _whites: list[int] = field(default_factory=list)

    def add(self, guess: Code, response: Response) -> None:
        """Record one played guess and its response."""
        self._guesses.append(np.asarray(guess, dtype=np.uint8).copy())
        self._blacks.append(int(response.black))
        self._whites.append(int(response.white))

    def __len__(self) -> int:
        return len(self._guesses)

    @property
    def guesses(self) -> Codes:
        """The played codes, shape ``(n, pegs)`` (``(0, pegs)`` before the first guess)."""
        if not self._guesses:
            return np.zeros((0, self.pegs), dtype=np.uint8)
        return np.stack(self._guesses)

    @property
    def blacks(self) -> npt.NDArray[np.int64]:
        """Black pegs of each response."""
        return np.array(self._blacks, dtype=np.int64)

    @property
    def whites(self) -> npt.NDArray[np.int64]:
        """White pegs of each response."""
        return np.array(self._whites, dtype=np.int64)


def distance_to_consistency(codes: Codes, history: History) -> Distances:
    """``f`` of each code: Σ over played guesses of |Δblack| + |Δwhite| (0 means consistent).

    For each played guess ``c_i`` with response ``(b_i, w_i)``, a code ``c`` contributes
    ``|black(c_i, c) - b_i| + |white(c_i, c) - w_i|``.
    """
    codes = np.atleast_2d(codes)
    if len(history) == 0:
        return np.zeros(codes.shape[0], dtype=np.int64)
    packed = response_matrix(history.guesses, codes, history.colors).astype(np.int64)
    blacks, whites = np.divmod(packed, history.pegs + 1)
    return (
        np.abs(blacks - history.blacks[:, None]).sum(axis=0)
        + np.abs(whites - history.whites[:, None]).sum(axis=0)
    ).astype(np.int64)


def local_entropy_of(codes: Codes, history: History) -> Scores:
    """``s`` of each code: Shannon entropy of its symbols with those of the played codes (eq. 3)."""
    return local_entropy(np.atleast_2d(codes), history.guesses, history.colors)


def f_local_entropy(distance: Distances, entropy: Scores) -> Scores:
    """``f_ℓ = s / (1 + f)``: local entropy damped by the distance to consistency."""
    return entropy / (1.0 + distance)


def _rows_as_bytes(codes: Codes) -> npt.NDArray[np.void]:
    """Each code as one opaque value of its bytes (hashable, sortable, comparable)."""
    codes = np.ascontiguousarray(np.atleast_2d(codes), dtype=np.uint8)
    return codes.view(np.dtype((np.void, codes.shape[1]))).ravel()


def code_keys(codes: Codes) -> list[bytes]:
    """One hashable key per code (its bytes), for sets of distinct codes of any game size."""
    return [bytes(row) for row in _rows_as_bytes(codes).tolist()]


def first_occurrences(codes: Codes) -> npt.NDArray[np.intp]:
    """The index of the first occurrence of each distinct code (ordered by the codes' bytes)."""
    _, first = np.unique(_rows_as_bytes(codes), return_index=True)
    return first


@dataclass(frozen=True)
class Evaluation:
    """Fitness of a batch of codes.

    Attributes:
        distance: ``f``, the distance to consistency of each code.
        entropy: ``s``, the local entropy of each code (``None`` when not asked for).
    """

    distance: Distances
    entropy: Scores | None = None

    @property
    def consistent(self) -> npt.NDArray[np.bool_]:
        """Which codes are consistent with every response (``f == 0``)."""
        return self.distance == 0

    @property
    def local_entropy_fitness(self) -> Scores:
        """``f_ℓ`` of each code (needs ``entropy``)."""
        if self.entropy is None:
            raise ValueError("this evaluation did not compute local entropy")
        return f_local_entropy(self.distance, self.entropy)


class CountingEvaluator:
    """Evaluates codes against a history and counts the work done in the current game.

    Every code passed to :meth:`evaluate` is one evaluation, whether or not it was seen
    before; :attr:`distinct_codes` counts the different codes evaluated in the game, so
    ``distinct_codes / space size`` is the fraction of the space examined.

    Args:
        pegs: code length.
        colors: number of colours.
        with_entropy: also compute the local entropy ``s`` of each code.
    """

    def __init__(self, pegs: int, colors: int, with_entropy: bool = False) -> None:
        self.pegs = pegs
        self.colors = colors
        self.with_entropy = with_entropy
        self.history = History(pegs, colors)
        self.evaluations = 0
        self._seen: set[bytes] = set()

    def reset(self) -> None:
        """Forget the history and the counts (a new game)."""
        self.history = History(self.pegs, self.colors)
        self.evaluations = 0
        self._seen = set()

    @property
    def distinct_codes(self) -> int:
        """Distinct codes evaluated since the last :meth:`reset`."""
        return len(self._seen)

    def evaluate(self, codes: Codes) -> Evaluation:
        """Fitness of each code given the history so far; counts ``len(codes)`` evaluations."""
        codes = np.atleast_2d(codes)
        self.evaluations += codes.shape[0]
        self._seen.update(code_keys(codes))
        distance = distance_to_consistency(codes, self.history)
        entropy = local_entropy_of(codes, self.history) if self.with_entropy else None
        return Evaluation(distance, entropy)

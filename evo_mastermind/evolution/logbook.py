"""A per-move logbook of an evolutionary player's search, in the spirit of DEAP's ``Logbook``.

One record per move of a game: how many generations the search ran, how many fitness
evaluations it spent, how often it restarted, the best distance to consistency it reached and
the size of the consistent set it held when it chose (the archive's members for ``archive``,
the consistent codes of the deciding generation for ``eda`` and ``ga``: a lower bound). The
first move, played without a search, is recorded with zeros so records and guesses align.

A logbook is off unless a run asks for it (``log: moves`` in the experiment's YAML). Off, the
player's loops are not wrapped at all; on, it only reads what the search yields and never
draws a random number, so the games are the same either way.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

import numpy as np
import numpy.typing as npt


class _Evaluated(Protocol):
    """What the logbook reads from a batch: the distances of the codes evaluated."""

    @property
    def distance(self) -> npt.NDArray[np.int64]: ...  # pragma: no cover - a protocol


BatchT = TypeVar("BatchT", bound=_Evaluated)


@dataclass(frozen=True)
class MoveRecord:
    """What the search of one move cost and reached.

    Attributes:
        move: the guess's number in the game, from 1.
        generations: batches the search evaluated for this move (0 for the first guess).
        evaluations: fitness evaluations spent on this move.
        restarts: times the population started afresh during this move.
        best_distance: the smallest distance to consistency evaluated in this move (0 once a
            consistent code was found; ``None`` when nothing was evaluated).
        consistent: consistent codes the player held when it chose (``None`` when it held
            none to count, as at the first guess).
        capped: whether the move ended at the evaluation cap without a consistent code.
    """

    move: int
    generations: int
    evaluations: int
    restarts: int
    best_distance: int | None
    consistent: int | None
    capped: bool


@dataclass
class Logbook:
    """The move records of the game being played (:class:`MoveRecord`), when enabled.

    Attributes:
        enabled: whether moves are recorded; set by the runner before each game.
        records: this game's records, in move order.
    """

    enabled: bool = False
    records: list[MoveRecord] = field(default_factory=list)
    _generations: int = 0
    _best: int | None = None
    _last_consistent: int = 0

    def start_game(self) -> None:
        """Forget the previous game's records."""
        self.records = []

    def start_move(self) -> None:
        """Begin counting a move's generations."""
        self._generations, self._best, self._last_consistent = 0, None, 0

    def watch(self, batches: Iterator[BatchT]) -> Iterator[BatchT]:
        """Yield ``batches`` unchanged, counting generations and the best distance."""
        for batch in batches:
            self._generations += 1
            if batch.distance.size:
                smallest = int(batch.distance.min())
                self._best = smallest if self._best is None else min(self._best, smallest)
                self._last_consistent = int(np.count_nonzero(batch.distance == 0))
            yield batch

    @property
    def last_consistent(self) -> int:
        """Consistent codes in the last batch watched (what ``eda`` and ``ga`` choose from)."""
        return self._last_consistent

    def end_move(
        self, evaluations: int, restarts: int, consistent: int | None, capped: bool
    ) -> None:
        """Record the move just decided."""
        self.records.append(
            MoveRecord(
                move=len(self.records) + 1,
                generations=self._generations,
                evaluations=evaluations,
                restarts=restarts,
                best_distance=self._best,
                consistent=consistent,
                capped=capped,
            )
        )

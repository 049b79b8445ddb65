"""What an optimal search reports as it runs and the tree it ends with.

Apart from the solver so that the search on the executors (:mod:`.distributed`) and the
solver that dispatches to it share them without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt


@dataclass
class Progress:
    """What the search knows so far, reported after every part it finishes.

    Attributes:
        best: the least total of a complete tree found, or None.
        lower: the proven lower bound on the optimum.
        openings_done: openings fully decided (solved, or shown not better).
        openings: openings to decide.
    """

    best: int | None
    lower: int
    openings_done: int
    openings: int


@dataclass
class Solution:
    """An optimal decision tree, as guesses by node.

    Attributes:
        total: guesses summed over every secret.
        depth: the most guesses any secret needs.
        guesses: each secret's number of guesses, in code index order.
        nodes: ``history -> guess``: the guess after each sequence of packed responses.
        complete: False when interrupted before the optimum was proven (then the best tree
            found so far).
        lower: the proven lower bound on the optimum (equal to ``total`` when complete).
    """

    total: int
    depth: int
    guesses: npt.NDArray[np.int64]
    nodes: dict[tuple[int, ...], int]
    complete: bool
    lower: int


class SearchInterrupted(KeyboardInterrupt):
    """A Ctrl-C before the search solved any opening, with the lower bound it had proven.

    Attributes:
        lower: the proven lower bound on the optimum when it stopped.
    """

    def __init__(self, lower: int) -> None:
        super().__init__()
        self.lower = lower

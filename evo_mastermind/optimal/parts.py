"""One part of the secrets under an opening, as a task any executor runs.

The opening search (:meth:`~evo_mastermind.optimal.solver.OptimalSolver.solve`) sends every
part an opening leaves as a :class:`PartTask`: its optimum within a budget and, when asked,
its tree. A task names its solver's class, so that this module needs nothing above it: a
worker solves it with its process's solver of the game (:meth:`OptimalSolver.of`, whose
transposition table serves every task it meets).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from evo_mastermind.codes import CodeSpace

Subtree = tuple[dict[tuple[int, ...], int], npt.NDArray[np.int64]]
"""A part's tree: the guess at every node by its path of packed responses, and the guesses
each member needs from the part on (see :meth:`OptimalSolver.subtree`)."""


class PartSolver(Protocol):
    """What solves a task: :class:`~evo_mastermind.optimal.solver.OptimalSolver`."""

    @classmethod
    def of(cls, space: CodeSpace) -> PartSolver:
        """This process's solver of ``space``."""
        ...

    def answer(self, task: PartTask) -> tuple[int, Subtree | None]:
        """The task's optimum within its budget (else a bound above it), maybe its tree."""
        ...


@dataclass(frozen=True)
class PartTask:
    """One part under one opening: its set, guesses left, budget, and whether to send its tree."""

    pegs: int
    colors: int
    members: npt.NDArray[np.int32]
    guesses_left: int
    budget: int
    opening: int
    with_tree: bool
    """A worker elsewhere sends the part's tree back; the search's own process reads it later."""
    solver: type[PartSolver]
    """The solver's class, sent by reference: a worker builds its own from it."""


def solve_part(task: PartTask) -> tuple[int, Subtree | None]:
    """A task's optimum (exact within its budget, else a bound above it) and maybe its tree."""
    return task.solver.of(CodeSpace(task.pegs, task.colors)).answer(task)

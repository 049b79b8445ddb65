"""The optimal player: plays the exact optimal decision tree of its game.

The tree is searched once per game size and options (:mod:`evo_mastermind.optimal`) and
kept for the life of the process; every game is then a walk down it. On (4,6) it needs
5625 guesses over the 1296 secrets (mean 4.340, at most 6), as Koyama & Lai (1993) found.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, ClassVar, Literal

import numpy as np
from pydantic import PositiveInt

from evo_mastermind.codes import Code, CodeSpace, InvalidGameError
from evo_mastermind.game import InconsistentResponsesError
from evo_mastermind.players.base import Player, PlayerParams, register_player
from evo_mastermind.players.cost import Cost
from evo_mastermind.players.decision_tree import GrownTree, SearchBound, tree_of_paths
from evo_mastermind.players.first_guess import AUTO, opening_code
from evo_mastermind.scoring import Response

if TYPE_CHECKING:
    from evo_mastermind.execution import Executor
    from evo_mastermind.optimal.solver import Progress, Solution


class OptimalParams(PlayerParams):
    """Options of the optimal player."""

    max_guesses: PositiveInt | None = None
    """No secret may take more guesses: the optimum among trees no deeper (unset: no limit)."""
    objective: Literal["expected", "worst"] = "expected"
    """expected: fewest guesses over every secret; worst: fewest in the worst case, then total."""
    first_guess: str | None = None
    """A code such as AABC: the optimum after that opening (unset: the best opening)."""
    checkpoint: str | None = None
    """A file the search writes what it has proven to as it goes; a search interrupted
    before resumes from it (unset: none). For searches of minutes, such as (4,8)."""
    threads: PositiveInt = 1
    """Threads that search together in this process, sharing what they prove (two on two
    free cores: 1.91x as fast on (4,7), 1.95x on (4,8)); the tree is the same for any number."""


_SOLVED: dict[tuple[CodeSpace, int | None, str, str | None], Solution] = {}
"""Trees searched in this process, by game and options."""
_LOCK = threading.Lock()


def _solution(
    space: CodeSpace,
    max_guesses: int | None,
    objective: Literal["expected", "worst"],
    first_guess: str | None,
    progress: bool,
    executor: Executor | None,
    checkpoint: str | None = None,
    threads: int = 1,
) -> Solution:
    """The tree of these options, searched on first use (one game's solver kept)."""
    from evo_mastermind.optimal.solver import OptimalSolver

    with _LOCK:  # threads of one Dask worker share the solver and its table
        key = (space, max_guesses, objective, first_guess)
        if key in _SOLVED:
            return _SOLVED[key]
        solver = OptimalSolver.of(space)  # one per game: what it learns serves every option
        with _progress_bar(space, progress) as report:
            found = solver.solve(
                max_guesses, objective, first_guess, report, executor, checkpoint, threads
            )
        if found.complete:  # an interrupted search's tree is not kept as the optimum
            _SOLVED[key] = found
        return found


@contextmanager
def _progress_bar(space: CodeSpace, shown: bool) -> Iterator[Callable[[Progress], None] | None]:
    """A progress bar on stderr with the best total found and the proven lower bound."""
    if not shown:
        yield None
        return
    from tqdm import tqdm

    with tqdm(desc=f"optimal {space}", unit="opening", leave=False, file=sys.stderr) as bar:

        def report(state: Progress) -> None:
            bar.total = state.openings
            bar.n = state.openings_done
            best = "-" if state.best is None else str(state.best)
            bar.set_postfix_str(f"best {best}, proven >= {state.lower}", refresh=True)

        yield report


@register_player("optimal")
class OptimalPlayer(Player[OptimalParams]):
    """The exact optimum: the decision tree with the fewest guesses over every secret.

    Any code may be a guess; ties go to the lowest code. Found by branch and bound over
    every guess up to colour and position symmetry (:mod:`evo_mastermind.optimal`).
    """

    Params = OptimalParams

    # The search, measured on this machine (one core): 0.09 s on (4,5), 0.69 s on (4,6)
    # (1,296 codes), 436 s on (4,7) (2,401 codes; benchmarks/results/optimal_4_7.json); it
    # grows as the size to the power 2.8 up to (4,6) and 10.5 beyond. Its tables took 54-56
    # MB (the transposition table's slots and pool, and the square response table).
    SEARCH_SECONDS_AT_4X6: ClassVar[float] = 0.7
    SEARCH_EXPONENTS: ClassVar[tuple[float, float]] = (2.8, 10.5)
    TABLES_MEMORY: ClassVar[int] = 56 * 2**20
    GAME_SECONDS: ClassVar[float] = 3e-4
    """A game once the tree is searched: a walk down it (measured 0.1-0.3 ms)."""

    @classmethod
    def estimate(cls, params: PlayerParams, space: CodeSpace) -> Cost:
        """The search once a process (setup), then a walk a game; memory: the search's tables."""
        ratio = space.size / 1296
        exponent = cls.SEARCH_EXPONENTS[0] if ratio <= 1 else cls.SEARCH_EXPONENTS[1]
        search = 0.05 + cls.SEARCH_SECONDS_AT_4X6 * ratio**exponent
        memory = cls.TABLES_MEMORY + 2 * space.size**2
        return Cost(seconds=cls.GAME_SECONDS, memory=memory, setup_seconds=search)

    tree_on_executor: ClassVar[bool] = True

    def __init__(self, space: CodeSpace, params: OptimalParams | None = None) -> None:
        super().__init__(space, params)
        self.check_game(space, self.params)
        self._path: tuple[int, ...] = ()

    @classmethod
    def check_game(cls, space: CodeSpace, params: PlayerParams) -> None:
        """Refuse spaces too large to search and first guesses that are not codes."""
        from evo_mastermind.optimal.solver import LARGEST_SPACE

        assert isinstance(params, OptimalParams)
        if space.size > LARGEST_SPACE:
            raise InvalidGameError(
                f"player 'optimal' searches spaces of at most {LARGEST_SPACE:,} codes; "
                f"{space} has {space.size:,}"
            )
        opening_code(space, params.first_guess, AUTO, cls.name)
        if params.checkpoint is not None:
            from pathlib import Path

            from evo_mastermind.optimal.checkpoint import Checkpoint

            Checkpoint(Path(params.checkpoint), space.pegs, space.colors).check()

    @property
    def deterministic(self) -> bool:
        """The tree is a function of the game and the options."""
        return True

    def solution(self, progress: bool = False, executor: Executor | None = None) -> Solution:
        """The optimal tree of this game (searched on first use, then kept).

        Interrupted with Ctrl-C, the best tree found so far (``complete`` False, not kept).
        """
        first = opening_code(self.space, self.params.first_guess, AUTO, self.name)
        return _solution(
            self.space,
            self.params.max_guesses,
            self.params.objective,
            None if first is None else self.space.format(first),
            progress,
            executor,
            self.params.checkpoint,
            self.params.threads,
        )

    def _optimum(self) -> Solution:
        """The optimal tree to play; a search interrupted with Ctrl-C stops the game."""
        solution = self.solution()
        if not solution.complete:
            raise KeyboardInterrupt  # a game is never played on a tree that is not the optimum
        return solution

    def start(self, rng: np.random.Generator) -> None:
        """Begin at the root (the generator is not used)."""
        self._path = ()

    def ask(self) -> Code:
        """The tree's guess at this node."""
        return self.space.all_codes[self._optimum().nodes[self._path]].copy()

    def tell(self, guess: Code, response: Response) -> None:
        """Follow the branch of this response."""
        path = (*self._path, response.pack(self.space.pegs))
        if path not in self._optimum().nodes:
            raise InconsistentResponsesError.because(
                f"response {response.black},{response.white} to {self.space.format(guess)} "
                "is impossible for every secret"
            )
        self._path = path

    def snapshot(self) -> object:
        """The path from the root (the tree itself is shared)."""
        return self._path

    def restore(self, state: object) -> None:
        """Return to a path taken by :meth:`snapshot`."""
        assert isinstance(state, tuple)
        self._path = state

    def grow_tree(self, progress: bool, executor: Executor | None = None) -> GrownTree:
        """The searched tree, and what the search proved of it (for ``tree``).

        ``executor``: where the search solves the parts under the openings (None: here).
        Interrupted with Ctrl-C, the best tree found so far, marked as not the optimum.
        """
        solution = self.solution(progress, executor)
        bound = SearchBound(solution.complete, solution.lower)
        return GrownTree(tree_of_paths(self.space, solution.nodes), solution.guesses, bound)

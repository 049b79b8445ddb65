"""The one-ply engine behind every exhaustive player (Runarsson & Merelo 2009, sections 2-5).

Each move scores a pool of guesses against the set of codes still consistent with the
history and plays one of the best. Everything a move computes from the history alone (the
consistent set and the tied best guesses) is kept in a tree shared by every game this
player object plays, so a random tie-break is the only per-game work once a position has
been seen. The tree holds values that do not depend on the game's generator, so games
are identical whether their positions were cached or not.
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, ClassVar, Literal

import numpy as np
import numpy.typing as npt
from pydantic import PositiveInt, field_validator

from evo_mastermind import engine
from evo_mastermind.codes import Code, CodeSpace, InvalidGameError
from evo_mastermind.engine import CLASSES_FROM
from evo_mastermind.game import InconsistentResponsesError
from evo_mastermind.heuristics import Heuristic, HeuristicError, Scores, known_heuristic
from evo_mastermind.partitions import best_indices, local_entropy, prefer_consistent
from evo_mastermind.players.base import (
    Player,
    PlayerParams,
    Preset,
    option_error,
    register_player,
)
from evo_mastermind.players.cost import TREE_GAMES, Cost, listed_space_memory, scoring_seconds
from evo_mastermind.players.first_guess import opening_code
from evo_mastermind.scoring import TABLE_LIMIT, Response, indexed_scorer
from evo_mastermind.symmetry import CodeClasses, multiplicity_classes

if TYPE_CHECKING:
    from evo_mastermind.execution import Executor
    from evo_mastermind.players.decision_tree import GrownTree

Indices = npt.NDArray[np.int64]
Ties = Literal["random", "lexicographic"]
Pool = Literal["consistent", "all"]

PAPER_PRESETS = MappingProxyType(
    {
        "paper": Preset(
            {"first_guess": "AABC"},
            "Runarsson & Merelo-Guervós (2009), Tables 2-6: random ties, first guess AABC",
        )
    }
)
"""The settings of the paper's exhaustive players (each one-ply player names them)."""

NODE_LIMIT = 2_000_000
"""Cached positions kept before the cache is cleared, bounding memory on long runs."""


class OnePlyOptions(PlayerParams):
    """Base of the one-ply players' options: each model says what settings it plays with.

    Each model has a ``first_guess`` option too, resolved by
    :func:`~evo_mastermind.players.first_guess.opening_code` from the player's default.
    """

    def settings(self) -> Settings:
        """The settings these options play with."""
        raise NotImplementedError


class OnePlyParams(OnePlyOptions):
    """Options of every exhaustive one-ply player."""

    ties: Ties = "random"
    """How ties are broken: random (seeded by the game; the paper) or lexicographic."""
    pool: Pool = "consistent"
    """Guesses scored: consistent codes (the paper) or all codes (consistent ones win ties)."""
    mu: PositiveInt | None = None
    """Score only a random subset of at most mu consistent codes (Runarsson & Merelo 2009, §5)."""
    first_guess: str | None = None
    """A code such as AABC; 'auto' lets the strategy choose; unset: AABC-shaped pattern."""

    def settings(self) -> Settings:
        """These options' ties, pool and sample size."""
        return Settings(self.ties, self.pool, self.mu)


UNCOMPILED_SLOWDOWN = {False: 2.0, True: 8.0}
"""How many times slower a heuristic without a compiled form scores a space larger than
:data:`~evo_mastermind.scoring.TABLE_LIMIT`, by ``pool: all``: its numpy definition on the
compiled counts, measured on (5,8) (docs/extending.md, "How fast": 1.7 times with the
consistent pool, 5 times with every code, 8 times for a tree, which asks at every node)."""


COMPILED_TREE_GAMES = (56.0, 0.39)
"""A tree grown by the compiled tree kernel costs 56 of the player's games on (5,8), falling as
(32,768 / codes) ** 0.39 in larger spaces, where its pruning skips more of every node's pool:
knuth's whole trees took 1.2 s of CPU on (5,8) and 107 s on (6,9) (2026-11-26, the process's
start left out), against games estimated at 0.021 s and 5.6 s. The other heuristics' trees
took less (most parts 1.0 s and 64 s): the estimate is of the slowest."""


def _compiled_form(params: PlayerParams) -> bool:
    """Whether the player's heuristic has a compiled form (every built-in's has)."""
    name = getattr(params, "heuristic", None)
    if not isinstance(name, str):
        return True
    try:
        return known_heuristic(name).compiled is not None
    except HeuristicError:  # an unknown name is the option's own error, said elsewhere
        return True


def _uncompiled_slowdown(params: PlayerParams, space: CodeSpace, pool_all: bool) -> float:
    """:data:`UNCOMPILED_SLOWDOWN` for a heuristic of one's own on a large space, else 1."""
    if space.size <= TABLE_LIMIT or _compiled_form(params):
        return 1.0
    return UNCOMPILED_SLOWDOWN[pool_all]


def _tree_games(params: PlayerParams, space: CodeSpace) -> float:
    """How many games a whole tree costs: :data:`COMPILED_TREE_GAMES`, or asked node by node."""
    if not _compiled_form(params):
        return TREE_GAMES
    at_5x8, fall = COMPILED_TREE_GAMES
    return min(TREE_GAMES, at_5x8 * (32_768 / space.size) ** fall)


@dataclass(frozen=True)
class Settings:
    """The resolved options a one-ply player plays with."""

    ties: Ties
    pool: Pool
    mu: int | None


@dataclass(eq=False)
class Position:
    """What the history up to here implies, shared by every game that reaches it."""

    consistent: Indices
    played: tuple[int, ...]
    best: Indices | None = None
    children: dict[tuple[int, int], Position] = field(default_factory=dict)


class OnePlyPlayer(Player[OnePlyOptions]):
    """Scores guesses against the consistent set; subclasses say how a guess is scored."""

    Params: ClassVar[type[PlayerParams]] = OnePlyParams
    default_first_guess = "aabc"
    """First-guess pattern when none is given (:meth:`CodeSpace.patterned_code`), or AUTO."""
    always_consistent_below = 1
    """Up to this many consistent codes, every one of them is a best guess."""
    consistent_pool_only: ClassVar[str] = ""
    """Why ``pool: all`` is refused, for players whose scores only rank consistent codes."""

    def __init__(self, space: CodeSpace, params: OnePlyOptions | None = None) -> None:
        super().__init__(space, params)
        self.check_game(space, self.params)
        self.scorer = indexed_scorer(space)
        self.settings = self.params.settings()
        first = self._opening(space, self.params)
        self.first_guess: int | None = None if first is None else space.index(first)
        self._root = Position(np.arange(space.size, dtype=np.int64), played=())
        self._positions = 1
        self._rng = np.random.default_rng(0)
        self._position = self._root
        self._last_guess = -1
        self._last_code: Code | None = None
        # The responses of the last (position, guess) told: a tree build tells every response.
        self._answers: tuple[Position, int, npt.NDArray[np.unsignedinteger]] | None = None

    @classmethod
    def check_game(cls, space: CodeSpace, params: PlayerParams) -> None:
        """The space must be listable, a first guess fit it, and some players refuse all codes."""
        space.require_enumerable(f"player {cls.name!r}")
        if cls.consistent_pool_only and getattr(params, "pool", "consistent") != "consistent":
            raise InvalidGameError(
                f"player {cls.name!r}: pool must be 'consistent' ({cls.consistent_pool_only})"
            )
        cls._opening(space, params)

    @classmethod
    def _opening(cls, space: CodeSpace, params: PlayerParams) -> Code | None:
        """The first guess of these options (``None``: the strategy chooses on the empty board)."""
        written = getattr(params, "first_guess", None)
        return opening_code(space, written, cls.default_first_guess, cls.name, chooses=True)

    @classmethod
    def estimate(cls, params: PlayerParams, space: CodeSpace) -> Cost:
        """Seconds of one game: its second guess dominates it; memory: the listed space.

        That guess scores the consistent set left by the first (about a fifth of the
        space, or μ codes) against the pool (the same set, or every code): the cost grows
        with the square of the space. Every code is held with its colour counts and its
        symmetry classes (:func:`~evo_mastermind.players.cost.listed_space_memory`).
        """
        consistent = space.size / 5
        mu = getattr(params, "mu", None)
        if isinstance(mu, int):
            consistent = min(consistent, mu)
        pool_all = getattr(params, "pool", "consistent") == "all"
        pool = space.size if pool_all else space.size / 5
        seconds = scoring_seconds(consistent, pool) * _uncompiled_slowdown(params, space, pool_all)
        return Cost(
            seconds=seconds,
            memory=listed_space_memory(space),
            tree_games=_tree_games(params, space),
        )

    @property
    def deterministic(self) -> bool:
        """Whether every game ignores the generator (lexicographic ties, no sampling)."""
        return self.settings.ties == "lexicographic" and self.settings.mu is None

    # -- the protocol --------------------------------------------------------------------
    def start(self, rng: np.random.Generator) -> None:
        """Begin a game at the root of the shared position tree."""
        self._rng = rng
        self._position = self._root

    def ask(self) -> Code:
        """Play the first guess, or one of the best-scoring guesses of this position."""
        position = self._position
        if position is self._root and self.first_guess is not None:
            guess = self.first_guess
        elif self.settings.mu is not None and position.consistent.size > self.settings.mu:
            guess = self._pick(self._best_on_sample(position))
        else:
            if position.best is None:
                position.best = self._best(position)
            guess = self._pick(position.best)
        self._last_guess = guess
        self._last_code = self.scorer.codes[guess]
        return self._last_code

    def tell(self, guess: Code, response: Response) -> None:
        """Move to the position this response leads to, computing it the first time."""
        index = self._last_guess
        # The game hands back the very array ask() returned; anything else is looked up.
        if guess is not self._last_code:
            index = self.space.index(guess)
        packed = response.pack(self.space.pegs)
        position = self._position
        child = position.children.get((index, packed))
        if child is None:
            if self._answers is None or self._answers[:2] != (position, index):
                self._answers = (position, index, self.scorer.responses(index, position.consistent))
            answers = self._answers[2]
            child = Position(position.consistent[answers == packed], (*position.played, index))
            self._remember(position, (index, packed), child)
        if child.consistent.size == 0:
            raise InconsistentResponsesError.because("no code agrees with every response")
        self._position = child

    def snapshot(self) -> object:
        """The game's place in the shared position tree."""
        return (self._position, self._last_guess, self._last_code)

    def restore(self, state: object) -> None:
        """Return to a place taken by :meth:`snapshot`."""
        assert isinstance(state, tuple)
        self._position, self._last_guess, self._last_code = state

    # -- choosing ------------------------------------------------------------------------
    def _pick(self, tied: Indices) -> int:
        if tied.size == 1 or self.settings.ties == "lexicographic":
            return int(tied[0])
        return int(tied[self._rng.integers(tied.size)])

    def _best(self, position: Position) -> Indices:
        """Every best guess among the consistent codes, sorted (partition players override)."""
        consistent = position.consistent
        if consistent.size <= self.always_consistent_below:
            return consistent
        if position is self._root:
            return self._best_on_empty_board()
        small = consistent.size < CLASSES_FROM
        classes = None if small else self._classes(position)
        return self._tied(consistent, self._score_consistent(position, classes))

    def _classes(self, position: Position) -> CodeClasses | None:
        """Classes of codes this position cannot tell apart (unplayed and zero colours)."""
        return engine.position_classes(self.scorer, position.played, position.consistent)

    def _score_consistent(self, position: Position, classes: CodeClasses | None) -> Scores:
        """Scores of the consistent codes, once per class (a class is consistent as a whole)."""
        return engine.once_per_class(
            position.consistent,
            classes,
            lambda guesses: self.score(guesses, position.consistent, position),
        )

    def _best_on_sample(self, position: Position) -> Indices:
        """Best guesses when only a random subset of μ consistent codes is scored."""
        assert self.settings.mu is not None
        sample = np.sort(self._rng.choice(position.consistent, self.settings.mu, replace=False))
        guesses = sample if self.settings.pool == "consistent" else None
        tied = self._tied(guesses, self.score(guesses, sample, position))
        if self.settings.pool == "consistent":
            return tied
        return prefer_consistent(tied, position.consistent)

    def _best_on_empty_board(self) -> Indices:
        """On the empty board a code's score depends only on its colour multiplicities.

        One representative per multiplicity pattern is scored (the lexicographically first
        code of the pattern); every code of the best patterns is tied.
        """
        classes = multiplicity_classes(self.space)
        scores = self.score(classes.representatives, self._root.consistent, self._root)
        return np.flatnonzero(np.isin(classes.of_code, best_indices(scores)))

    def _tied(self, guesses: Indices | None, scores: Scores) -> Indices:
        tied = best_indices(scores)
        return tied if guesses is None else guesses[tied]

    def _remember(self, parent: Position, key: tuple[int, int], child: Position) -> None:
        if self._positions >= NODE_LIMIT:
            self._root.children.clear()  # bound memory; the values are recomputed on demand
            self._positions = 1
        parent.children[key] = child
        self._positions += 1

    @abstractmethod
    def score(self, guesses: Indices | None, candidates: Indices, position: Position) -> Scores:
        """Score each guess (``None``: every code) against the candidates; higher is better."""


class PartitionPlayer(OnePlyPlayer):
    """Scores a guess by the partition of the candidates it induces.

    The heuristic is looked up once, when the player is made: the engine is handed the
    :class:`~evo_mastermind.heuristics.Heuristic` object at every move.
    """

    heuristic_name: ClassVar[str] = ""
    """The registered heuristic this player scores with (``one_ply``: its option)."""
    # With two candidates a consistent guess splits them perfectly, and is preferred.
    always_consistent_below = 2

    def __init__(self, space: CodeSpace, params: OnePlyOptions | None = None) -> None:
        super().__init__(space, params)
        self.heuristic: Heuristic = known_heuristic(self.chosen_heuristic())

    def chosen_heuristic(self) -> str:
        """The name of the heuristic these options play."""
        return self.heuristic_name

    def _best(self, position: Position) -> Indices:
        """Every best guess (the first only with lexicographic ties).

        Asked of the engine (:func:`evo_mastermind.engine.best_guesses_at`), which decides
        how: small spaces by the numpy definition, larger ones by the compiled kernel with
        the shortcuts of Magruder's solver (consistent perfect splitters are the whole
        answer when there are any, and with lexicographic ties the scan of the pool stops at
        its first perfect splitter; Ville 2013).
        """
        if position is self._root:
            return super()._best(position)
        pool_all = self.settings.pool == "all"
        first_only = self.settings.ties == "lexicographic"
        return engine.best_guesses_at(
            self.scorer, position.consistent, position.played, pool_all, self.heuristic, first_only
        )

    def score(self, guesses: Indices | None, candidates: Indices, position: Position) -> Scores:
        """The heuristic's partition score of each guess."""
        pool = self._root.consistent if guesses is None else guesses
        return engine.pool_scores(self.scorer, pool, candidates, self.heuristic)

    def grow_tree(self, progress: bool, executor: Executor | None = None) -> GrownTree | None:
        """With lexicographic ties and a compiled heuristic: grown by the compiled kernel."""
        if self.settings.ties != "lexicographic" or not engine.can_grow_trees(self.heuristic):
            return None
        from evo_mastermind.players.tree_building import grow_partition_tree

        first = self.space.index(self.ask())
        pool_all = self.settings.pool == "all"
        return grow_partition_tree(self.space, self.name, first, pool_all, self.heuristic, progress)


class HeuristicParams(OnePlyParams):
    """Options of the ``one_ply`` player: any registered heuristic, and the one-ply options."""

    heuristic: str = "entropy"
    """A registered partition heuristic: the built-ins ``entropy``, ``most_parts``,
    ``expected_size``, ``worst_case``, or one of your own (``@register_heuristic``);
    ``evo-mastermind players`` lists them."""

    @field_validator("heuristic")
    @classmethod
    def _registered(cls, name: str) -> str:
        try:
            known_heuristic(name)
        except HeuristicError as error:
            raise option_error(error) from None
        return name


@register_player("one_ply")
class HeuristicPlayer(PartitionPlayer):
    """Plays the best guess of any registered partition heuristic (option ``heuristic``)."""

    Params = HeuristicParams
    presets = PAPER_PRESETS

    def chosen_heuristic(self) -> str:
        """The ``heuristic`` option."""
        assert isinstance(self.params, HeuristicParams)
        return self.params.heuristic


@register_player("entropy")
class EntropyPlayer(PartitionPlayer):
    """Plays the guess whose partition of the consistent set has the highest entropy."""

    heuristic_name = "entropy"
    presets = PAPER_PRESETS


@register_player("most_parts")
class MostPartsPlayer(PartitionPlayer):
    """Plays the guess that splits the consistent set into the most non-empty parts (Kooi)."""

    heuristic_name = "most_parts"
    presets = PAPER_PRESETS


@register_player("expected_size")
class ExpectedSizePlayer(PartitionPlayer):
    """Plays the guess with the smallest expected remaining set (Irving)."""

    heuristic_name = "expected_size"
    presets = PAPER_PRESETS


@register_player("worst_case")
class WorstCasePlayer(PartitionPlayer):
    """Plays the guess with the smallest largest part (one-ply Knuth)."""

    heuristic_name = "worst_case"
    presets = PAPER_PRESETS


@register_player("random")
class RandomPlayer(OnePlyPlayer):
    """Plays a consistent code chosen uniformly at random (every consistent code ties)."""

    always_consistent_below = 2**62
    presets = PAPER_PRESETS
    consistent_pool_only = (
        "every guess scores alike and consistent codes win ties, so all codes would play the "
        "same games"
    )

    def score(self, guesses: Indices | None, candidates: Indices, position: Position) -> Scores:
        """Every guess scores the same."""
        n = self.space.size if guesses is None else guesses.size
        return np.zeros(n)


@register_player("local_entropy")
class LocalEntropyPlayer(OnePlyPlayer):
    """Plays the consistent code of highest local entropy (Runarsson & Merelo 2009, equation 3)."""

    presets = PAPER_PRESETS

    consistent_pool_only = "local entropy ranks candidate codes, not partitions"

    def score(self, guesses: Indices | None, candidates: Indices, position: Position) -> Scores:
        """Local entropy of each guess together with the codes played so far."""
        codes = self.scorer.codes
        pool = codes if guesses is None else codes[guesses]
        return local_entropy(pool, codes[list(position.played)], self.space.colors)

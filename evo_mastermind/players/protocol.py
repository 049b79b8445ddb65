"""The player protocol: what a codebreaker does, and how it declares its options and presets.

A player is made once for a game size and reused for many games: :meth:`Player.start`
begins a game with the game's own random generator, then the game loop alternates
:meth:`Player.ask` (the next guess) and :meth:`Player.tell` (the response it drew).
Anything a player learns that depends only on the history may be kept across games.
Players are made known by name in :mod:`evo_mastermind.players.registry`.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Generic, cast

import numpy as np
from pydantic import BaseModel, ConfigDict, model_validator
from pydantic_core import PydanticCustomError
from typing_extensions import TypeVar

from evo_mastermind.codes import Code, CodeSpace
from evo_mastermind.game import PlayerStats
from evo_mastermind.heuristics import HeuristicError
from evo_mastermind.players.cost import Cost
from evo_mastermind.scoring import Response

if TYPE_CHECKING:
    from evo_mastermind.execution import Executor
    from evo_mastermind.players.decision_tree import GrownTree


class PlayerParams(BaseModel):
    """Base of every player's parameter model: unknown keys are errors.

    Document each option with a docstring under it: it becomes the option's description
    (shown by ``evo-mastermind players``).
    """

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    removed_options: ClassVar[Mapping[str, str]] = MappingProxyType({})
    """Options this player once had, each with where its finding is documented: a config
    naming one gets that line instead of a bare "unknown option"."""

    @model_validator(mode="before")
    @classmethod
    def _refuse_removed(cls, data: Any) -> Any:
        if isinstance(data, Mapping):
            for key in data:
                if key in cls.removed_options:
                    why = f"option {key!r} was removed: {cls.removed_options[key]}"
                    raise PydanticCustomError("removed_option", why)
        return data


def option_error(error: Exception) -> PydanticCustomError:
    """An option validator's error saying ``error``'s one line as it is (no "Value error")."""
    return PydanticCustomError("invalid_option", "{reason}", {"reason": str(error)})


def heuristic_option(name: str | None) -> str | None:
    """A player option naming the heuristic its guesses are chosen by, checked.

    Unset, ``lookahead`` or a registered heuristic (a user's too); anything else is the
    option's one-line error.
    """
    from evo_mastermind.evolution.choice import check_heuristic

    try:
        return None if name is None else check_heuristic(name)
    except HeuristicError as error:
        raise option_error(error) from None


@dataclass(frozen=True)
class Preset:
    """Named settings of one player: options a config can ask for by name.

    Attributes:
        options: the option values, exactly as a config would write them.
        about: one line saying where the settings come from.
    """

    options: Mapping[str, Any]
    about: str = ""

    def __post_init__(self) -> None:
        # A read-only copy: a preset is shared by every config that names it.
        object.__setattr__(self, "options", MappingProxyType(dict(self.options)))


ParamsT = TypeVar("ParamsT", bound=PlayerParams, covariant=True, default=PlayerParams)
"""The options model of a player class (``Player[ArchiveParams]``); plain ``Player``: the base."""


class Player(ABC, Generic[ParamsT]):
    """A codebreaker.

    Subclasses are registered with :func:`~evo_mastermind.players.register_player`, which
    sets :attr:`name`, and set :attr:`Params` to a pydantic model of their options;
    ``class MyPlayer(Player[MyParams])`` types :attr:`params` as that model (a plain
    ``Player`` subclass works too). :attr:`presets` names settings a config may ask for
    (``preset: best``); presets belong to the class that defines them and are not inherited.
    """

    name: ClassVar[str]
    Params: ClassVar[type[PlayerParams]] = PlayerParams
    presets: ClassVar[Mapping[str, Preset]] = MappingProxyType({})
    tree_on_executor: ClassVar[bool] = False
    """Whether :meth:`grow_tree` can spread its work over an executor (``tree --executor``)."""

    def __init__(self, space: CodeSpace, params: ParamsT | None = None) -> None:
        self.space = space
        # Params is the class's ParamsT (a ClassVar cannot name a type variable).
        self.params: ParamsT = params if params is not None else cast(ParamsT, self.Params())

    @classmethod
    def check_game(cls, space: CodeSpace, params: PlayerParams) -> None:
        """Raise :class:`InvalidGameError` if these options cannot play ``space``.

        Cheap (no tables are built): configs call it before any game is played.
        """

    @classmethod
    def estimate(cls, params: PlayerParams, space: CodeSpace) -> Cost:
        """What one game with these options costs, roughly (for the plan limits and ``play``).

        Cheap (nothing is built), asked before any work: ``run``'s plan, ``play`` and ``tree``
        refuse what would not fit in memory and announce work of more than a minute. The
        default estimates nothing; every built-in player says its games' seconds, memory and
        once-a-process setup from its own options (docs/extending.md, "What a game costs").
        """
        return Cost()

    @abstractmethod
    def start(self, rng: np.random.Generator) -> None:
        """Begin a new game; ``rng`` is the game's own generator."""

    @abstractmethod
    def ask(self) -> Code:
        """The next guess."""

    @abstractmethod
    def tell(self, guess: Code, response: Response) -> None:
        """Learn the response to the last guess."""

    def stats(self) -> PlayerStats:
        """What this player counted during the current game."""
        return PlayerStats()

    @property
    def deterministic(self) -> bool:
        """Whether the player ignores the game's generator (so it has one game tree)."""
        return False

    def snapshot(self) -> object:
        """The state of the current game, for :meth:`restore` (used to branch a game tree)."""
        return copy.deepcopy(self.__dict__)

    def restore(self, state: object) -> None:
        """Return to a state taken by :meth:`snapshot`."""
        assert isinstance(state, dict)
        self.__dict__.update(copy.deepcopy(state))

    def grow_tree(self, progress: bool, executor: Executor | None = None) -> GrownTree | None:
        """The whole decision tree, if the player builds it itself (None: ask at every node).

        A deterministic player with a faster way than being asked at every node overrides
        this (:func:`~evo_mastermind.players.tree_building.build_tree` calls it); ``executor``
        is given only to a player that declares :attr:`tree_on_executor`.
        """
        return None


__all__ = [
    "ParamsT",
    "Player",
    "PlayerParams",
    "PlayerStats",  # where the protocol's stats() type is defined: importable with the protocol
    "Preset",
    "heuristic_option",
    "option_error",
]

"""The player protocol, player parameters, and the registry that maps names to players.

A player is made once for a game size and reused for many games: :meth:`Player.start`
begins a game with the game's own random generator, then the game loop alternates
:meth:`Player.ask` (the next guess) and :meth:`Player.tell` (the response it drew).
Anything a player learns that depends only on the history may be kept across games.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, TypeVar

import numpy as np
from pydantic import BaseModel, ConfigDict, ValidationError

from evo_mastermind.codes import Code, CodeSpace, InvalidGameError
from evo_mastermind.game import PlayerStats
from evo_mastermind.scoring import Response


class PlayerParams(BaseModel):
    """Base of every player's parameter model: unknown keys are errors.

    Document each option with a docstring under it: it becomes the option's description
    (shown by ``evo-mastermind players``).
    """

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


class Player(ABC):
    """A codebreaker.

    Subclasses are registered with :func:`register_player`, which sets :attr:`name`, and set
    :attr:`Params` to a pydantic model of their options.
    """

    name: ClassVar[str]
    Params: ClassVar[type[PlayerParams]] = PlayerParams

    def __init__(self, space: CodeSpace, params: PlayerParams | None = None) -> None:
        self.space = space
        self.params = params if params is not None else self.Params()

    @classmethod  # noqa: B027 (an optional hook: most players can play any size)
    def check_game(cls, space: CodeSpace, params: PlayerParams) -> None:
        """Raise :class:`InvalidGameError` if these options cannot play ``space``.

        Cheap (no tables are built): configs call it before any game is played.
        """

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


class UnknownPlayerError(InvalidGameError):
    """A player name that is not registered."""


class InvalidPlayerParamsError(InvalidGameError):
    """Player options that the player does not accept."""


PLAYERS: dict[str, type[Player]] = {}
"""Every registered player class by name."""

P = TypeVar("P", bound=type[Player])


def register_player(name: str) -> Callable[[P], P]:
    """Class decorator: register a player under ``name`` (usable from YAML and the CLI)."""

    def register(cls: P) -> P:
        if name in PLAYERS:
            raise ValueError(f"player name {name!r} is registered twice")
        cls.name = name
        PLAYERS[name] = cls
        return cls

    return register


def validate_params(name: str, params: Mapping[str, Any]) -> PlayerParams:
    """Check ``params`` against the named player's options.

    Raises:
        UnknownPlayerError: no player of that name.
        InvalidPlayerParamsError: a key the player does not know, or a bad value; the message
            names the key.
    """
    if name not in PLAYERS:
        raise UnknownPlayerError(
            f"unknown player {name!r}; known players: {', '.join(sorted(PLAYERS))}"
        )
    model = PLAYERS[name].Params
    try:
        return model.model_validate(dict(params))
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(str(part) for part in issue['loc']) or 'options'}: "
            f"{_describe(issue['type'], issue['msg'])}"
            for issue in error.errors()
        )
        raise InvalidPlayerParamsError(f"player {name!r}: {problems}") from None


def _describe(kind: str, message: str) -> str:
    if kind == "extra_forbidden":
        return "unknown option"
    return message[0].lower() + message[1:]


def make_player(name: str, space: CodeSpace, params: Mapping[str, Any] | None = None) -> Player:
    """Build the named player for a game size.

    Raises:
        UnknownPlayerError, InvalidPlayerParamsError, InvalidGameError: bad name, options or
            a game size the player cannot play.
    """
    validated = validate_params(name, params or {})
    return PLAYERS[name](space, validated)

"""The player protocol, player parameters, presets, and the registry of players by name.

A player is made once for a game size and reused for many games: :meth:`Player.start`
begins a game with the game's own random generator, then the game loop alternates
:meth:`Player.ask` (the next guess) and :meth:`Player.tell` (the response it drew).
Anything a player learns that depends only on the history may be kept across games.

The registry holds our players, those of plugin modules (:func:`import_plugins`, named by
a config's ``plugins:`` or ``--plugin``) and those of installed packages that declare an
entry point in the group :data:`ENTRY_POINT_GROUP` (:func:`load_entry_points`). A built-in
player's module (:data:`BUILTIN_PLAYERS`) is imported when the player is first asked for by
name, or when :data:`PLAYERS` is read.
"""

from __future__ import annotations

import copy
import difflib
import importlib
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType, ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, Generic, cast

import numpy as np
from pydantic import BaseModel, ConfigDict, ValidationError, model_validator
from pydantic_core import PydanticCustomError
from typing_extensions import TypeVar

from evo_mastermind.codes import Code, CodeSpace, InvalidGameError
from evo_mastermind.entry_points import load, unloaded
from evo_mastermind.game import PlayerStats
from evo_mastermind.heuristics import HeuristicError
from evo_mastermind.players.cost import Cost
from evo_mastermind.scoring import Response
from evo_mastermind.tracebacks import describe_exception, full_traceback, raised_at

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

    Subclasses are registered with :func:`register_player`, which sets :attr:`name`, and set
    :attr:`Params` to a pydantic model of their options; ``class MyPlayer(Player[MyParams])``
    types :attr:`params` as that model (a plain ``Player`` subclass works too). :attr:`presets`
    names settings a config may ask for (``preset: best``); presets belong to the class that
    defines them and are not inherited.
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

        Cheap (nothing is built). The default estimates nothing; players whose games may be
        long or large say so from their own options.
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


class UnknownPlayerError(InvalidGameError):
    """A player name that is not registered."""


class InvalidPlayerParamsError(InvalidGameError):
    """Player options that the player does not accept."""


class UnknownPresetError(InvalidPlayerParamsError):
    """A preset name that the player does not define."""


class PluginError(InvalidGameError):
    """A plugin module or entry point that cannot provide players, explained in one line.

    Attributes:
        traceback_text: the full traceback of the plugin's own exception, if it raised one
            (the command line writes it to a log file and names it).
    """

    traceback_text: str | None = None

    @classmethod
    def of(cls, error: BaseException, what: str) -> PluginError:
        """``what``, then the exception and where in the plugin's code it was raised."""
        at = raised_at(error)
        plugin_error = cls(f"{what}: {describe_exception(error)}" + (f" at {at}" if at else ""))
        plugin_error.traceback_text = full_traceback(error)
        return plugin_error


ENTRY_POINT_GROUP = "evo_mastermind.players"
"""The entry-point group through which installed packages make their players known."""

BUILTIN_PLAYERS: Mapping[str, str] = MappingProxyType(
    {
        "archive": "evo_mastermind.players.archive",
        "knuth": "evo_mastermind.players.classic",
        "first_consistent": "evo_mastermind.players.classic",
        "eda": "evo_mastermind.players.evolutionary",
        "ga": "evo_mastermind.players.evolutionary",
        "fcol": "evo_mastermind.players.fcol",
        "joint": "evo_mastermind.players.joint",
        "entropy": "evo_mastermind.players.one_ply",
        "most_parts": "evo_mastermind.players.one_ply",
        "expected_size": "evo_mastermind.players.one_ply",
        "worst_case": "evo_mastermind.players.one_ply",
        "random": "evo_mastermind.players.one_ply",
        "local_entropy": "evo_mastermind.players.one_ply",
        "optimal": "evo_mastermind.players.optimal",
        "one_ply": "evo_mastermind.players.one_ply",
        "rao": "evo_mastermind.players.rao",
        "sampler": "evo_mastermind.players.sampler",
        "tree": "evo_mastermind.players.tree",
    }
)
"""Each built-in player's name and the module that registers it (imported on first use)."""

_registered: dict[str, type[Player]] = {}  # the registry as filled so far (PLAYERS once complete)

if TYPE_CHECKING:
    PLAYERS: dict[str, type[Player]]
    """Every registered player class by name (reading it imports every built-in player)."""

P = TypeVar("P", bound=type[Player])

_lock = threading.RLock()  # Dask workers import plugins from several threads at once
_imported_plugins: set[str] = set()
_loaded_entry_points: set[tuple[str, str]] = set()


def __getattr__(name: str) -> Any:
    if name == "PLAYERS":
        return registered_players()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def registered_players() -> dict[str, type[Player]]:
    """Every registered player class by name, after importing every built-in player's module.

    The same dict as :data:`PLAYERS`: plugins registered later appear in it too.
    """
    for module in dict.fromkeys(BUILTIN_PLAYERS.values()):
        importlib.import_module(module)
    globals()["PLAYERS"] = _registered  # complete now: later reads skip __getattr__
    return _registered


def _import_builtin(name: str) -> None:
    """Import the module of the built-in player ``name``, if it is one (and not yet loaded)."""
    module = BUILTIN_PLAYERS.get(name)
    if module is not None and name not in _registered:
        importlib.import_module(module)


def _origin(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def _is_builtin(cls: type) -> bool:
    return cls.__module__.startswith("evo_mastermind.")


def register_player(name: str) -> Callable[[P], P]:
    """Class decorator: register a player under ``name`` (usable from YAML and the CLI).

    Raises:
        PluginError: the class is not a :class:`Player`, one of its presets does not
            validate, or ``name`` is taken by another class.
    """

    def register(cls: P) -> P:
        if not (isinstance(cls, type) and issubclass(cls, Player)):
            raise PluginError(
                f"cannot register {cls!r} as player {name!r}: "
                "it is not a subclass of evo_mastermind.players.Player"
            )
        if cls.__module__ != BUILTIN_PLAYERS.get(name, cls.__module__):
            _import_builtin(name)  # a clash with a built-in is found whichever loads first
        with _lock:
            existing = _registered.get(name)
            # The same class defined again (a module reloaded) replaces itself quietly.
            if existing is not None and _origin(existing) != _origin(cls):
                kind = "a built-in player" if _is_builtin(existing) else _origin(existing)
                raise PluginError(
                    f"player name {name!r} of {_origin(cls)} clashes with {kind}; "
                    "register it under another name"
                )
            for preset, settings in cls.__dict__.get("presets", {}).items():
                try:
                    cls.Params.model_validate(dict(settings.options))
                except ValidationError as error:
                    raise PluginError(
                        f"player {name!r}: preset {preset!r} is invalid: {_problems(error)}"
                    ) from None
            cls.name = name
            _registered[name] = cls
        return cls

    return register


def presets_of(name: str) -> Mapping[str, Preset]:
    """The presets the named player defines (its own, not those of classes it extends)."""
    presets: Mapping[str, Preset] = known_player(name).__dict__.get("presets", {})
    return presets


def preset_options(name: str, preset: str) -> dict[str, Any]:
    """The options of one preset of the named player.

    Raises:
        UnknownPlayerError: no player of that name.
        UnknownPresetError: the player has no preset of that name; the message suggests the
            closest one.
    """
    presets = presets_of(name)
    if preset not in presets:
        if not presets:
            raise UnknownPresetError(f"player {name!r} has no presets (asked for {preset!r})")
        raise UnknownPresetError(
            f"player {name!r} has no preset {preset!r}{_suggest(preset, presets)}; "
            f"its presets: {', '.join(sorted(presets))}"
        )
    return dict(presets[preset].options)


def _suggest(word: str, choices: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def import_plugins(modules: Iterable[str]) -> None:
    """Import plugin modules, once each: their registrations fill the registries.

    A plugin registers players (:func:`register_player`) and heuristics
    (:func:`~evo_mastermind.heuristics.register_heuristic`).

    Raises:
        PluginError: a module that does not import, or that registers a bad player or
            heuristic.
    """
    for module in modules:
        if module in _imported_plugins:
            continue
        with _lock:
            try:
                importlib.import_module(module)
            except (PluginError, HeuristicError) as error:
                raise PluginError(f"plugin {module!r}: {error}") from None
            except ModuleNotFoundError as error:
                raise PluginError(
                    f"plugin {module!r} does not import: {type(error).__name__}: {error} "
                    "(is it installed, or on PYTHONPATH?)"
                ) from None
            # A plugin's own failure (sys.exit too) is one line; its traceback goes to a log.
            except (Exception, SystemExit) as error:
                raise PluginError.of(error, f"plugin {module!r} does not import") from None
            _imported_plugins.add(module)


def load_entry_points() -> None:
    """Register the players of installed packages (group :data:`ENTRY_POINT_GROUP`), once each.

    An entry point names a :class:`Player` subclass (registered under the entry point's name
    unless the class registered itself) or a module that registers its players on import.

    Raises:
        PluginError: an entry point that does not load, or names neither.
    """
    for point, where in unloaded(ENTRY_POINT_GROUP, _loaded_entry_points):
        with _lock:
            loaded = load(point, where, PluginError)
            if isinstance(loaded, type) and issubclass(loaded, Player):
                if not any(cls is loaded for cls in _registered.values()):
                    try:
                        register_player(point.name)(loaded)
                    except PluginError as error:
                        raise PluginError(f"{where}: {error}") from None
            elif not isinstance(loaded, ModuleType):
                raise PluginError(
                    f"{where} is not a subclass of evo_mastermind.players.Player nor a module"
                )
            _loaded_entry_points.add((point.name, point.value))


def known_player(name: str) -> type[Player]:
    """The class registered as ``name``, looking through installed entry points if needed.

    Raises:
        UnknownPlayerError: no player of that name; the message suggests the closest one.
    """
    _import_builtin(name)
    if name not in _registered:
        load_entry_points()
    if name not in _registered:
        known = registered_players()  # the message lists every player
        raise UnknownPlayerError(
            f"unknown player {name!r}{_suggest(name, known)}; known players: "
            f"{', '.join(sorted(known))} (a player of your own: name its module under "
            "'plugins:' or with --plugin, or install it with an entry point)"
        )
    return _registered[name]


def validate_params(name: str, params: Mapping[str, Any]) -> PlayerParams:
    """Check ``params`` against the named player's options.

    Raises:
        UnknownPlayerError: no player of that name.
        InvalidPlayerParamsError: a key the player does not know, or a bad value; the message
            names the key.
    """
    model = known_player(name).Params
    try:
        return model.model_validate(dict(params))
    except ValidationError as error:
        problems = _problems(error, model.model_fields)
        raise InvalidPlayerParamsError(f"player {name!r}: {problems}") from None


def _problems(error: ValidationError, options: Iterable[str] = ()) -> str:
    known = list(options)
    return "; ".join(
        issue["msg"]
        if issue["type"] == "removed_option"
        else f"{'.'.join(str(part) for part in issue['loc']) or 'options'}: "
        f"{_describe(issue['type'], issue['msg'])}"
        + (_suggest(str(issue["loc"][-1]), known) if issue["type"] == "extra_forbidden" else "")
        for issue in error.errors()
    )


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
    return known_player(name)(space, validated)

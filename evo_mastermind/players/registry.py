"""The registry of players by name, their presets, and making a player from a config's options.

The registry (a :class:`~evo_mastermind.registry.Registry`, the one heuristics use too)
holds our players, those of plugin modules (:func:`import_plugins`, named by a config's
``plugins:`` or ``--plugin``) and those of installed packages that declare an entry point in
the group :data:`ENTRY_POINT_GROUP` (:func:`load_entry_points`). Our players register with
:func:`register_player` as a user's do; a built-in player's module (:data:`BUILTIN_PLAYERS`)
is imported when the player is first asked for by name, or when :data:`PLAYERS` is read.
Built-in names are reserved.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import ValidationError

from evo_mastermind.codes import CodeSpace, InvalidGameError
from evo_mastermind.messages import did_you_mean
from evo_mastermind.players.protocol import Player, PlayerParams, Preset
from evo_mastermind.registry import PluginError, Registry, import_plugins


class UnknownPlayerError(InvalidGameError):
    """A player name that is not registered."""


class InvalidPlayerParamsError(InvalidGameError):
    """Player options that the player does not accept."""


class UnknownPresetError(InvalidPlayerParamsError):
    """A preset name that the player does not define."""


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
"""Each built-in player's name (reserved) and the module that registers it (imported on
first use)."""


def _player_entry(name: str, cls: object) -> type[Player]:
    """``cls`` as the player ``name``: a :class:`Player` whose presets validate."""
    if not (isinstance(cls, type) and issubclass(cls, Player)):
        raise PluginError(
            f"cannot register {cls!r} as player {name!r}: "
            "it is not a subclass of evo_mastermind.players.Player"
        )
    for preset, settings in cls.__dict__.get("presets", {}).items():
        try:
            cls.Params.model_validate(dict(settings.options))
        except ValidationError as error:
            raise PluginError(
                f"player {name!r}: preset {preset!r} is invalid: {_problems(error)}"
            ) from None
    cls.name = name
    return cls


PLAYER_REGISTRY: Registry[type[Player]] = Registry(
    "player",
    ENTRY_POINT_GROUP,
    entry=_player_entry,
    builtins=BUILTIN_PLAYERS,
    error=PluginError,
    unknown=UnknownPlayerError,
    hint="a player of your own: name its module under 'plugins:' or with --plugin, "
    "or install it with an entry point",
)
"""Every player registered so far by name (:data:`PLAYERS` once every built-in is in)."""

if TYPE_CHECKING:
    PLAYERS: dict[str, type[Player]]
    """Every registered player class by name (reading it imports every built-in player)."""

P = TypeVar("P", bound=type[Player])


def __getattr__(name: str) -> Any:
    if name == "PLAYERS":
        return registered_players()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def registered_players() -> dict[str, type[Player]]:
    """Every registered player class by name, after importing every built-in player's module.

    The same dict as :data:`PLAYERS`: plugins registered later appear in it too.
    """
    players = globals()["PLAYERS"] = PLAYER_REGISTRY.everything()  # later reads are plain
    return players


def register_player(name: str) -> Callable[[P], P]:
    """Class decorator: register a player under ``name`` (usable from YAML and the CLI).

    Raises:
        PluginError: the class is not a :class:`Player`, one of its presets does not
            validate, or ``name`` is a built-in player's or taken by another class.
    """
    return PLAYER_REGISTRY.register(name)


def load_entry_points() -> None:
    """Register the players of installed packages (group :data:`ENTRY_POINT_GROUP`), once each.

    An entry point names a :class:`Player` subclass (registered under the entry point's name
    unless the class registered itself) or a module that registers its players on import.

    Raises:
        PluginError: an entry point that does not load, or names neither.
    """
    PLAYER_REGISTRY.load_entry_points()


def known_player(name: str) -> type[Player]:
    """The class registered as ``name``, looking through installed entry points if needed.

    Raises:
        UnknownPlayerError: no player of that name; the message suggests the closest one.
    """
    return PLAYER_REGISTRY.known(name)


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
            f"player {name!r} has no preset {preset!r}{did_you_mean(preset, presets)}; "
            f"its presets: {', '.join(sorted(presets))}"
        )
    return dict(presets[preset].options)


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
        + (did_you_mean(str(issue["loc"][-1]), known) if issue["type"] == "extra_forbidden" else "")
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


__all__ = [  # PLAYERS aside: read, it imports every built-in player
    "BUILTIN_PLAYERS",
    "ENTRY_POINT_GROUP",
    "PLAYER_REGISTRY",
    "InvalidPlayerParamsError",
    "PluginError",
    "UnknownPlayerError",
    "UnknownPresetError",
    "import_plugins",
    "known_player",
    "load_entry_points",
    "make_player",
    "preset_options",
    "presets_of",
    "register_player",
    "registered_players",
    "validate_params",
]

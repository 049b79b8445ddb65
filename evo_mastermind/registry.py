"""One registry of named things (players, heuristics): ours and a user's, registered alike.

A :class:`Registry` maps names to entries, as a dict. It is filled by three routes, all
through :meth:`Registry.add`: a decorator in the defining module (``@register_player``,
``@register_heuristic``; our built-ins are registered this way too), a plugin module named
by a config's ``plugins:`` or ``--plugin`` (:func:`import_plugins`), and an installed
package's entry points (:meth:`Registry.load_entry_points`). The names of the built-ins,
and any other name with a built-in meaning (``lookahead`` for a ``heuristic:`` option), are
reserved: a registration of one from elsewhere is refused in one line, whichever is imported
first. A built-in's module is imported when its name is first asked for.

Modelled on nevergrad's ``Registry`` (Rapin & Teytaud 2018): a dict with a decorator.
"""

from __future__ import annotations

import importlib
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from types import MappingProxyType, ModuleType
from typing import TYPE_CHECKING, TypeVar

from evo_mastermind.codes import InvalidGameError
from evo_mastermind.messages import did_you_mean
from evo_mastermind.tracebacks import describe_exception, full_traceback, raised_at

if TYPE_CHECKING:  # importing importlib.metadata costs 25 ms: only a lookup pays for it
    from importlib.metadata import EntryPoint

T = TypeVar("T")
D = TypeVar("D")

_lock = threading.RLock()  # Dask workers import plugins from several threads at once
_imported_plugins: set[str] = set()


class PluginError(InvalidGameError):
    """A registration, plugin module or entry point that cannot be done, in one line.

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


def origin(definition: object) -> str:
    """``module.qualname`` of a class or function: what a registration is known by."""
    module = getattr(definition, "__module__", "?")
    return f"{module}.{getattr(definition, '__qualname__', repr(definition))}"


NAME_PATTERN = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")
"""What a registered name looks like: a word that a config (``player: NAME``) and the command
line (``-o heuristic=NAME``) read back as the same string."""

_YAML_WORDS = frozenset({"true", "false", "yes", "no", "on", "off", "null"})
"""Words YAML reads as a boolean or null, not a name (PyYAML follows YAML 1.1)."""


def name_problem(name: object, kind: str) -> str | None:
    """Why ``name`` cannot name a ``kind`` (one line), or ``None`` if it can."""
    if not isinstance(name, str):
        return (
            f"a {kind} name must be a string, got {type(name).__name__} {name!r} "
            f"(register_{kind}('my_{kind}'))"
        )
    if NAME_PATTERN.fullmatch(name) is None:
        return (
            f"{kind} name {name!r} is not a single word: use letters, digits, '_', '-' or "
            "'.', starting with a letter or '_' (a config and the command line must read it "
            "back as that name)"
        )
    if name.lower() in _YAML_WORDS:
        meaning = "null" if name.lower() == "null" else "boolean"
        return f"{kind} name {name!r} is read by YAML as a {meaning}, not a name; choose another"
    return None


class Registry(dict[str, T]):
    """Entries of one kind by name: registered, imported on first use, or installed.

    Args:
        kind: what an entry is, for messages (``player``).
        group: the entry-point group through which installed packages add entries.
        entry: makes a user's definition (what the decorator decorates, or an entry point
            names) into an entry under a name, checked; raises ``error`` if it cannot.
        defined_by: the class or function that defines an entry or a definition: two
            registrations of one name with the same definer are one (a module reloaded).
        builtins: each built-in's name and the module that registers it.
        reserved: other names with a built-in meaning, and that meaning.
        error: what a refused registration raises (:class:`PluginError` or a subclass).
        unknown: what an unknown name raises.
        hint: how to add one of one's own, for the line that says a name is unknown.
    """

    def __init__(
        self,
        kind: str,
        group: str,
        *,
        entry: Callable[[str, object], T],
        defined_by: Callable[[object], object] = lambda definition: definition,
        builtins: Mapping[str, str] | None = None,
        reserved: Mapping[str, str] | None = None,
        error: type[PluginError] = PluginError,
        unknown: type[InvalidGameError] = InvalidGameError,
        hint: str = "",
    ) -> None:
        super().__init__()
        self.kind = kind
        self.group = group
        self.builtins: Mapping[str, str] = MappingProxyType(dict(builtins or {}))
        self.reserved: Mapping[str, str] = MappingProxyType(dict(reserved or {}))
        self.error = error
        self.unknown = unknown
        self.hint = hint
        self._entry = entry
        self._defined_by = defined_by
        self._loaded_entry_points: set[tuple[str, str]] = set()

    def register(self, name: str) -> Callable[[D], D]:
        """Decorator: register what it decorates under ``name``, and return it unchanged.

        Raises:
            PluginError: (``error``) a reserved name, a name taken by another definition,
                or a definition that cannot be an entry; a name that is not a string or
                not one word, at once (before anything is decorated).
        """
        self._check_name(name)

        def register(definition: D) -> D:
            self.add(name, definition)
            return definition

        return register

    def add(self, name: str, definition: object) -> T:
        """Register ``definition`` under ``name``; the entry made of it.

        Raises:
            PluginError: (``error``) as :meth:`register`.
        """
        self._check_name(name)
        defined_by = self._defined_by(definition)
        with _lock:
            module = _module(defined_by)
            if name in self.reserved or self.builtins.get(name, module) != module:
                meaning = self.reserved.get(name)
                taken = f"a built-in name ({meaning})" if meaning else f"a built-in {self.kind}"
                raise self.error(
                    f"{self.kind} name {name!r} of {origin(defined_by)} clashes with {taken}; "
                    "register it under another name"
                )
            existing = self.get(name)
            # The same definition registered again (a module reloaded) replaces itself quietly.
            if existing is not None and origin(self._defined_by(existing)) != origin(defined_by):
                raise self.error(
                    f"{self.kind} name {name!r} of {origin(defined_by)} clashes with "
                    f"{origin(self._defined_by(existing))}; register it under another name"
                )
            entry = self._entry(name, definition)
            self[name] = entry
        return entry

    def _check_name(self, name: object) -> None:
        """Refuse a name a config or the command line could not name the entry by."""
        problem = name_problem(name, self.kind)
        if problem is not None:
            raise self.error(problem)

    def known(self, name: str) -> T:
        """The entry of ``name``: a built-in's module imported, installed packages looked at.

        Raises:
            InvalidGameError: (``unknown``) no entry of that name, in one line suggesting
                the closest and listing every known name.
        """
        module = self.builtins.get(name)
        if module is not None and name not in self:
            importlib.import_module(module)
        if name not in self:
            self.load_entry_points()
        if name not in self:
            known = self.everything()  # the message lists them all
            meaning = f": the name is {self.reserved[name]}" if name in self.reserved else ""
            raise self.unknown(
                f"unknown {self.kind} {name!r}{meaning}{did_you_mean(name, known)}; "
                f"known {self.kind}s: {', '.join(sorted(known))}"
                + (f" ({self.hint})" if self.hint else "")
            )
        return self[name]

    def everything(self) -> Registry[T]:
        """Itself, after importing every built-in's module (installed packages aside)."""
        for module in dict.fromkeys(self.builtins.values()):
            importlib.import_module(module)
        return self

    def load_entry_points(self) -> None:
        """Register the entries of installed packages (entry-point group ``group``), once each.

        An entry point names a definition (registered under the entry point's name unless
        it registered itself) or a module that registers its entries on import.

        Raises:
            PluginError: (``error``) an entry point that does not load, or names a
                definition that cannot be registered, in one line naming it.
        """
        for point, where in self._unloaded():
            with _lock:
                loaded = _load(point, where, self.error)
                if not isinstance(loaded, ModuleType) and not self._holds(loaded):
                    try:
                        self.add(point.name, loaded)
                    except self.error as error:
                        raise self.error(f"{where}: {error}") from None
                self._loaded_entry_points.add((point.name, point.value))

    def _holds(self, definition: object) -> bool:
        defined_by = self._defined_by(definition)
        return any(self._defined_by(entry) is defined_by for entry in self.values())

    def _unloaded(self) -> Iterator[tuple[EntryPoint, str]]:
        """Each entry point of the group not loaded yet, with how errors name it."""
        import importlib.metadata

        for point in importlib.metadata.entry_points(group=self.group):
            if (point.name, point.value) not in self._loaded_entry_points:
                yield point, f"entry point {point.name!r} = {point.value!r} (group {self.group})"


def _module(definition: object) -> str | None:
    return getattr(definition, "__module__", None)


def _load(point: EntryPoint, where: str, error: type[PluginError]) -> object:
    """What the entry point names, its failure to load said in one line as ``error``."""
    try:
        return point.load()
    except error as raised:
        raise error(f"{where}: {raised}") from None
    # An installed package's own failure (sys.exit too) in one line; its traceback kept for the log.
    except (Exception, SystemExit) as raised:
        raise error.of(raised, f"{where} does not load") from None


def import_plugins(modules: Iterable[str]) -> None:
    """Import plugin modules, once each: their registrations fill the registries.

    A plugin registers players (:func:`~evo_mastermind.players.register_player`) and
    heuristics (:func:`~evo_mastermind.heuristics.register_heuristic`).

    Raises:
        PluginError: a module that does not import, or that registers something refused.
    """
    for module in modules:
        if module in _imported_plugins:
            continue
        with _lock:
            try:
                importlib.import_module(module)
            except PluginError as error:
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

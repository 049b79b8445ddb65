"""Loading installed packages' entry points, for the registries of players and heuristics."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from evo_mastermind.codes import InvalidGameError
from evo_mastermind.tracebacks import describe_exception, full_traceback, raised_at

if TYPE_CHECKING:  # importing importlib.metadata costs 25 ms: only a lookup pays for it
    from importlib.metadata import EntryPoint


def unloaded(group: str, loaded: set[tuple[str, str]]) -> Iterator[tuple[EntryPoint, str]]:
    """Each entry point of ``group`` not in ``loaded`` (name, value), with how errors name it."""
    import importlib.metadata

    for point in importlib.metadata.entry_points(group=group):
        if (point.name, point.value) not in loaded:
            yield point, f"entry point {point.name!r} = {point.value!r} (group {group})"


def load(point: EntryPoint, where: str, error: type[InvalidGameError]) -> object:
    """What the entry point names, its failure to load said in one line as ``error``."""
    try:
        return point.load()
    except error as raised:
        raise error(f"{where}: {raised}") from None
    # An installed package's own failure (sys.exit too) in one line; its traceback kept for the log.
    except (Exception, SystemExit) as raised:
        at = raised_at(raised)
        failure = error(
            f"{where} does not load: {describe_exception(raised)}" + (f" at {at}" if at else "")
        )
        failure.traceback_text = full_traceback(raised)  # type: ignore[attr-defined]
        raise failure from None

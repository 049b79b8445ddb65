"""What the package says to its user outside an error: a "did you mean", a notice on stderr.

Written once here, and used by every registry, the config checks, the study catalogue, the
runner and the Python API, so that a hint reads and a notice starts the same everywhere.
"""

from __future__ import annotations

import contextlib
import difflib
import os
import sys
from collections.abc import Iterable, Iterator

PROGRAM = "evo-mastermind"
"""The name a notice starts with (the command's name)."""

QUIET_VARIABLE = "EVO_MASTERMIND_QUIET"
"""Set (to anything but ``0``) to silence every notice; errors still say their one line.

``run --quiet`` sets it, so worker processes started by the run inherit it."""

CLOSE_ENOUGH = 0.6
"""How alike (``difflib``'s ratio) a known name must be to a misspelt one to be suggested."""


def closest(word: str, choices: Iterable[str], cutoff: float = CLOSE_ENOUGH) -> str | None:
    """The choice most like ``word`` if one is alike enough, and not ``word`` itself."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=cutoff)
    return close[0] if close and close[0] != word else None


def did_you_mean(word: str, choices: Iterable[str], cutoff: float = CLOSE_ENOUGH) -> str:
    """`` (did you mean 'NAME'?)`` naming the choice closest to ``word``, or nothing.

    Appended to the one line that says ``word`` is unknown.
    """
    close = closest(word, choices, cutoff)
    return f" (did you mean {close!r}?)" if close is not None else ""


def is_quiet() -> bool:
    """Whether notices are silenced (:data:`QUIET_VARIABLE`)."""
    return os.environ.get(QUIET_VARIABLE, "") not in ("", "0")


@contextlib.contextmanager
def silenced(wanted: bool = True) -> Iterator[None]:
    """Silence notices within the block (and in processes started there) when ``wanted``."""
    if not wanted:
        yield
        return
    before = os.environ.get(QUIET_VARIABLE)
    os.environ[QUIET_VARIABLE] = "1"
    try:
        yield
    finally:
        if before is None:
            del os.environ[QUIET_VARIABLE]
        else:
            os.environ[QUIET_VARIABLE] = before


def notify(line: str) -> None:
    """Say ``line`` on stderr, as the command's own (a run's progress, a waiting scheduler)."""
    if not is_quiet():
        print(f"{PROGRAM}: {line}", file=sys.stderr, flush=True)

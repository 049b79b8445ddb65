"""A user's code raised: the exception on one line, where it was raised, the traceback kept.

Shared by everything that runs code of the user's own (plugin imports, players): the one
line names the exception and its innermost frame; the full traceback goes to a log file.
"""

from __future__ import annotations

import traceback
from pathlib import Path

MESSAGE_LIMIT = 200
"""Characters of an exception's message shown in the one line (the log holds it whole)."""


def describe_exception(error: BaseException) -> str:
    """``Type: message`` on one line, cut to :data:`MESSAGE_LIMIT` characters."""
    message = " ".join(str(error).split())
    if len(message) > MESSAGE_LIMIT:
        message = message[:MESSAGE_LIMIT] + "..."
    return f"{type(error).__name__}: {message}" if message else type(error).__name__


def raised_at(error: BaseException) -> str:
    """``file:line in function`` of the innermost frame, where the exception was raised."""
    frames = traceback.extract_tb(error.__traceback__)
    if not frames:
        return ""
    last = frames[-1]
    return f"{Path(last.filename).name}:{last.lineno} in {last.name}"


def full_traceback(error: BaseException) -> str:
    """The whole traceback of ``error``, as Python prints it."""
    return "".join(traceback.format_exception(error))

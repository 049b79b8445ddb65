"""A player's own code raised: where it happened, in one line, and the traceback for the log.

A worker never lets a player's exception escape: it returns the games finished before it
with a :class:`PlayerCrash` (plain strings, so it crosses every executor the same way). The
run then stores those games, writes the traceback to a log file in the
results directory (``player-error.log``) and stops with :meth:`PlayerCrash.line`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from evo_mastermind.codes import InvalidGameError
from evo_mastermind.tracebacks import describe_exception, full_traceback, raised_at


class PlayerCrashError(InvalidGameError):
    """A player (or a plugin it needs) raised: the run stops, its finished games kept."""


@dataclass(frozen=True)
class PlayerCrash:
    """What a worker reports when a player raised.

    Attributes:
        label: the player entry's label.
        player: the registered player name.
        where: the game (``game run 0, secret ABCD (pegs 4, colours 6), seed 5``) or the
            step (``building the player for (4,6)``) it raised in.
        error: :func:`describe_exception` of the exception.
        location: :func:`raised_at` of the exception.
        traceback: the full traceback, for the log.
    """

    label: str
    player: str
    where: str
    error: str
    location: str
    traceback: str

    @classmethod
    def of(cls, error: BaseException, label: str, player: str, where: str) -> PlayerCrash:
        """The record of ``error``, raised by ``player`` (entry ``label``) at ``where``."""
        return cls(
            label, player, where, describe_exception(error), raised_at(error), full_traceback(error)
        )

    def line(self, log: Path | None, kept: int) -> str:
        """One line: who raised, in which game, what, and where the traceback and games are."""
        at = f" at {self.location}" if self.location else ""
        logged = f"; full traceback in {log}" if log is not None else ""
        return (
            f"player {self.label!r} ({self.player}) raised {self.error}{at}, {self.where}; "
            f"{kept:,} finished games are kept (fix the player, then rerun with --resume, adding "
            "--accept-changed-code to keep them beside games of the fixed code, or with --force)"
            f"{logged}"
        )

    def log_text(self) -> str:
        """What the log file receives."""
        return f"player {self.label!r} ({self.player}), {self.where}\n\n{self.traceback}"

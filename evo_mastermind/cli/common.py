"""What the commands share.

The program's name and exit statuses, usage errors, player options from the command line, and
a player's own failure said in one line with its traceback logged.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

# Only what parsing the command line needs is imported here; each command imports the
# rest (players, runner, pandas, matplotlib, the compiled kernels, YAML), so --help starts at
# once and `play` loads only its player.
from evo_mastermind.codes import CodeSpace, InvalidGameError
from evo_mastermind.game import (
    InconsistentResponsesError,
)

if TYPE_CHECKING:
    from evo_mastermind.players import Player
    from evo_mastermind.players.cost import Cost


PROG = "evo-mastermind"
EXIT_BAD_INPUT = 2
EXIT_GAMES_FAILED = 3
"""The exit status of a run, or a game of ``play``, that ended with games not solved."""


class UsageError(Exception):
    """A problem with the command line or its inputs, reported as one line."""


def given_path(text: str) -> str:
    """An argument that names a file or folder: empty text is refused, not read as ``.``.

    Raises:
        argparse.ArgumentTypeError: the text is empty or blank.
    """
    if not text.strip():
        raise argparse.ArgumentTypeError("is empty; give a file or folder")
    return text


def _player_options(pairs: Sequence[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    if not pairs:
        return options
    import yaml  # only for -o values: plain `play` does not load it

    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"option {pair!r} is not KEY=VALUE")
        try:
            options[key.strip()] = yaml.safe_load(value) if value.strip() else None
        except (yaml.YAMLError, RecursionError):
            raise UsageError(
                f"option {_shorten(pair)}: the value is not a plain YAML value "
                "(a number, word, list or null)"
            ) from None
    return options


def _shorten(text: str, limit: int = 40) -> str:
    """``text`` quoted, cut to ``limit`` characters (input is echoed, never whole)."""
    text = text.strip()
    return repr(text) if len(text) <= limit else f"{text[:limit]!r}... ({len(text):,} characters)"


def _options(args: argparse.Namespace) -> dict[str, Any]:
    from evo_mastermind.players import preset_options

    chosen = preset_options(args.player, args.preset) if args.preset is not None else {}
    return {**chosen, **_player_options(args.option)}


def _make(
    args: argparse.Namespace, check_cost: Callable[[str, CodeSpace, Cost], None] | None = None
) -> tuple[CodeSpace, Player]:
    """The game and its player; ``check_cost`` sees the player's estimate before it is built."""
    from evo_mastermind.players import known_player, make_player, validate_params

    space = CodeSpace(args.pegs, args.colors)
    options = _options(args)
    if check_cost is not None:  # options and game checked first: their errors come first
        player, params = known_player(args.player), validate_params(args.player, options)
        player.check_game(space, params)
        check_cost(args.player, space, player.estimate(params, space))
    return space, make_player(args.player, space, options)


T = TypeVar("T")


class PlayerCodeError(UsageError):
    """A player's own code raised in ``play``: one line, the traceback in a log file."""


def _player_code(call: Callable[[], T], player: str, where: str) -> T:
    """Run ``call``; an exception of the player's own code becomes one line and a log.

    Raises:
        PlayerCodeError: the player raised (Ctrl-C and our own one-line errors pass through).
    """
    try:
        return call()
    except (UsageError, InvalidGameError, InconsistentResponsesError):
        raise
    except (Exception, SystemExit) as error:
        from evo_mastermind.tracebacks import describe_exception, full_traceback, raised_at

        at = raised_at(error)
        log = _write_log(f"player {player!r}, {where}\n\n{full_traceback(error)}")
        raise PlayerCodeError(
            f"player {player!r} raised {describe_exception(error)}"
            + (f" at {at}" if at else "")
            + f", {where}"
            + (f"; full traceback in {log}" if log else "")
        ) from None


def _write_log(text: str) -> Path | None:
    """Write a traceback to a new log file in the temporary directory; its path."""
    import tempfile

    try:
        descriptor, name = tempfile.mkstemp(prefix="evo-mastermind-error-", suffix=".log")
        with os.fdopen(descriptor, "w", encoding="utf-8") as log:
            log.write(text)
    except OSError:
        return None
    return Path(name)


def _flag(name: str) -> str:
    return f"--{name.replace('_', '-')}"


def _warn_if_incomplete(results: Path) -> None:
    from evo_mastermind.analysis.results import missing_games

    missing = missing_games(results)
    if missing and missing > 0:
        print(
            f"{PROG}: warning: {missing:,} planned games are missing from {results} (an "
            "unfinished run: rerun it with --resume); the analysis covers the games present",
            file=sys.stderr,
        )
    elif missing:
        print(
            f"{PROG}: warning: {results} stores {-missing:,} more games than planned (shards "
            "written by two runs at once?); rerun the config with --resume to set repeating "
            "shards aside",
            file=sys.stderr,
        )

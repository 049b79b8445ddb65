"""The options of a run checked before any work, and errors worded for their caller.

:func:`evo_mastermind.api.run` and the command line check their options here; a Python caller
is told its arguments (``force=True``) where the command line is told its flags (``--force``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from evo_mastermind.codes import InvalidGameError
from evo_mastermind.execution import EXECUTOR_NAMES

EXECUTORS = EXECUTOR_NAMES
"""The executors a run may use (their names are written in :mod:`evo_mastermind.execution`)."""

MAX_WORKERS_PER_CORE = 4
"""More worker processes than this per core would only slow a run."""


class RunOptionsError(InvalidGameError):
    """Options of a run that contradict each other or cannot work, in one line."""


def _keyword(name: str) -> str:
    return name


def check_run_options(
    *,
    executor: str,
    workers: int | None,
    scheduler: str | None,
    runs: int | None,
    resume: bool,
    force: bool,
    out: str | Path | None = None,
    spelling: Callable[[str], str] = _keyword,
) -> None:
    """Refuse run options that cannot work, before anything is read or started.

    Args:
        executor: ``serial``, ``process`` or ``dask``.
        workers: worker processes (None: every core).
        scheduler: a Dask scheduler's address.
        runs: the number of runs asked for instead of the config's.
        resume: play only the games still missing.
        force: replace results already there.
        out: the results directory asked for (an empty one is refused, not read as the default).
        spelling: how an option is named in the message (``--workers`` on the command line).

    Raises:
        RunOptionsError: naming the option and the problem.
    """
    runs = whole_number(runs, spelling("runs"))
    workers = whole_number(workers, spelling("workers"))
    for name, flag in (("resume", resume), ("force", force)):
        if not isinstance(flag, bool | np.bool_):
            raise RunOptionsError(
                f"{spelling(name)} must be True or False, got {type(flag).__name__} {flag!r}"
            )
    if scheduler is not None and not isinstance(scheduler, str):
        raise RunOptionsError(
            f"{spelling('scheduler')} must be an address (text), got {type(scheduler).__name__}"
        )
    if not isinstance(executor, str) or executor not in EXECUTORS:
        raise RunOptionsError(
            f"{spelling('executor')} must be one of {', '.join(EXECUTORS)}, got {executor!r}"
        )
    if resume and force:
        raise RunOptionsError(
            f"{spelling('resume')} and {spelling('force')} contradict each other; choose one"
        )
    if scheduler is not None and executor != "dask":
        raise RunOptionsError(
            f"{spelling('scheduler')} needs {spelling('executor')} dask (the {executor} "
            "executor has no scheduler)"
        )
    cores = os.cpu_count() or 1
    if workers is not None and workers < 1:
        raise RunOptionsError(f"{spelling('workers')} must be at least 1, got {workers}")
    if workers is not None and workers > MAX_WORKERS_PER_CORE * cores:
        raise RunOptionsError(
            f"{spelling('workers')} {workers} is more than {MAX_WORKERS_PER_CORE} per core "
            f"({MAX_WORKERS_PER_CORE * cores} on this machine): more would only slow the run"
        )
    if runs is not None and runs < 1:
        raise RunOptionsError(f"{spelling('runs')} must be at least 1, got {runs}")
    if out is not None and not isinstance(out, str | os.PathLike):
        raise RunOptionsError(
            f"{spelling('out')} must be a folder's path, got {type(out).__name__} {out!r}"
        )
    if out is not None and not str(out).strip():
        raise RunOptionsError(
            f"{spelling('out')} is empty; give the results directory (or leave it out)"
        )


_PYTHON_WORDS = (
    (re.compile(r"--resume --out (\S+)"), r"resume=True, out='\1'"),
    (re.compile(r"--scheduler "), "scheduler="),
    (re.compile(r"--allow-large\b"), "allow_large=True"),
    (re.compile(r"--accept-changed-code\b"), "accept_changed_code=True"),
    (re.compile(r"--resume\b"), "resume=True"),
    (re.compile(r"--force\b"), "force=True"),
    (re.compile(r"--out\b( directory)?"), "out directory"),
)
"""The runner's advice names command-line options; a Python caller is told its arguments."""


def in_python_words(message: str) -> str:
    """``message`` with the command-line options it names as :func:`run`'s arguments.

    E.g. ``use --resume to finish that run or --force to replace it`` becomes ``use
    resume=True to finish that run or force=True to replace it``.
    """
    for option, argument in _PYTHON_WORDS:
        message = option.sub(argument, message)
    return message


def whole_number(value: object, option: str) -> int | None:
    """``value`` as a Python int (numpy integers accepted), or ``None`` for ``None``.

    Raises:
        RunOptionsError: a value of another type (text, a float, a bool), naming ``option``.
    """
    if value is None:
        return None
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        raise RunOptionsError(
            f"{option} must be a whole number, got {type(value).__name__} {value!r}"
        )
    return int(value)


def plain_data(value: Any) -> Any:
    """A config written in Python as plain data: numpy scalars and arrays as Python values.

    Paths become text; mappings, lists and tuples are converted inside; anything else is
    returned as it is (for the config's own checks to refuse).
    """
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return plain_data(value.tolist())
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    if isinstance(value, Mapping):
        return {plain_data(key): plain_data(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [plain_data(item) for item in value]
    return value


def _as_yaml(config: Mapping[str, Any]) -> str:
    import yaml

    try:
        return yaml.safe_dump(dict(config), sort_keys=False, allow_unicode=True)
    except yaml.YAMLError as error:
        raise RunOptionsError(
            f"config: a value is not plain data (numbers, text, lists, mappings): {error}"
        ) from None

"""The runner's executors: :mod:`evo_mastermind.execution`, with the runner's worker preloaded.

The executors live in :mod:`evo_mastermind.execution`, low in the package, so that the
runner, the optimal search and the players import them downwards; this module keeps their
old address and makes them for running games (the forkserver preloads the runner's worker).
"""

from __future__ import annotations

from evo_mastermind.execution import (
    EXECUTOR_NAMES,
    DaskExecutor,
    Executor,
    ExecutorName,
    ProcessExecutor,
    SchedulerError,
    SerialExecutor,
    die_with_main,
)
from evo_mastermind.execution import make_executor as make_any_executor

__all__ = [
    "EXECUTOR_NAMES",
    "WORKER_MODULE",
    "DaskExecutor",
    "Executor",
    "ExecutorName",
    "ProcessExecutor",
    "SchedulerError",
    "SerialExecutor",
    "die_with_main",
    "make_executor",
]

WORKER_MODULE = "evo_mastermind.runner.worker"
"""What every worker of a run imports: loaded once in the forkserver, not by each worker."""


def make_executor(
    name: ExecutorName, workers: int | None = None, scheduler: str | None = None
) -> Executor:
    """The executor of that name, for playing batches of games."""
    return make_any_executor(name, workers, scheduler, preload=[WORKER_MODULE])

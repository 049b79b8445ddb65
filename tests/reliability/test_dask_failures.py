"""A Dask cluster that fails: one line with the next step, never a wall of distributed logs."""

import logging
import time

import pytest

from evo_mastermind import execution as executors
from evo_mastermind.execution import DaskExecutor, SchedulerError


def test_a_lost_scheduler_is_one_error_naming_resume() -> None:
    from distributed import LocalCluster

    cluster = LocalCluster(  # type: ignore[no-untyped-call]
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0"
    )
    executor = DaskExecutor(address=cluster.scheduler_address)
    try:
        executor.submit(time.sleep, 60, "slow")
        cluster.close()
        with pytest.raises(
            SchedulerError,
            match=r"lost the Dask scheduler at \S+ \(\w+\); finished games are kept.*--resume",
        ):
            executor.next_done()
    finally:
        executor.close()
    # distributed's own loggers, which print the tracebacks of a lost connection, are quiet.
    assert logging.getLogger("distributed.client").level == logging.CRITICAL


def test_a_scheduler_without_workers_is_said_once_with_the_command_to_start_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from distributed import LocalCluster

    lines: list[str] = []
    monkeypatch.setattr(executors, "NO_WORKERS_SECONDS", 0.0)
    with LocalCluster(  # type: ignore[no-untyped-call]
        n_workers=0, processes=False, dashboard_address=":0"
    ) as cluster:
        executor = DaskExecutor(address=cluster.scheduler_address, notify=lines.append)
        try:
            for _ in range(3):
                executor._check_workers()
        finally:
            executor.close()
    assert len(lines) == 1
    assert f"start one with 'dask worker {cluster.scheduler_address}'" in lines[0]
    assert "finished games are kept for --resume" in lines[0]

"""Where tasks run: in this process, in a local process pool, or on a Dask cluster.

Each executor takes a function and its argument and hands back finished results one at a
time, in whatever order they finish; results never depend on which executor ran them. The
runner's batches of games and the optimal search's parts both run on them; this module
imports nothing of the package above the codes, so both import it downwards.
"""

from __future__ import annotations

import contextlib
import logging
import math
import multiprocessing
import os
import signal
import threading
import time
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import (
    FIRST_COMPLETED,
    CancelledError,
    Future,
    ProcessPoolExecutor,
    wait,
)
from typing import Any, Literal, get_args

from evo_mastermind import messages
from evo_mastermind.codes import InvalidGameError

ExecutorName = Literal["serial", "process", "dask"]
"""The executors by name, as options spell them."""
EXECUTOR_NAMES: tuple[ExecutorName, ...] = get_args(ExecutorName)
"""Every executor name, in the order the help lists them (the one place they are written)."""

_ONE_THREAD = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def _one_blas_thread_per_worker() -> None:
    # Workers already fill every core; BLAS threads inside them would only fight for it.
    for variable in _ONE_THREAD:
        os.environ.setdefault(variable, "1")


def die_with_main(main_pid: int) -> None:
    """Worker start-up: a daemon thread ends this worker once the main process is gone.

    Pool workers are children of the forkserver, which outlives a main process killed with
    ``kill -9`` (and workers blocked on their task queue never see it close). The thread
    polls the main process; when it has died, it stops the forkserver and this worker, so
    no process is left computing or holding memory.
    """

    def watch() -> None:
        while _alive(main_pid):
            time.sleep(0.5)
        parent = os.getppid()
        if parent not in (1, main_pid):
            with contextlib.suppress(OSError):
                os.kill(parent, signal.SIGKILL)  # the orphaned forkserver
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="die-with-main").start()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


DASK_CONNECT_SECONDS = 10
DASK_POLL_SECONDS = 2.0
"""How often a run waiting on Dask looks at the cluster (its connection, its workers)."""
NO_WORKERS_SECONDS = 30.0
"""How long a scheduler may have no worker before the run says so."""


class SchedulerError(InvalidGameError):
    """A Dask scheduler that cannot be reached, or an address that is not one."""


class Executor(ABC):
    """Submit tasks; collect whichever finishes next."""

    workers: int
    in_process: bool = False
    """Tasks run in this process, so what they leave in its memory (a cache) is here."""

    @abstractmethod
    def submit(self, fn: Callable[[Any], Any], argument: Any, tag: Any) -> None:
        """Start ``fn(argument)``; ``tag`` comes back with its result."""

    @abstractmethod
    def next_done(self) -> tuple[Any, Any]:
        """Block until a task finishes; return its (tag, result). Task errors are raised."""

    @abstractmethod
    def pending(self) -> int:
        """Tasks submitted and not yet collected."""

    def close(self) -> None:  # noqa: B027 (a hook: the serial executor holds nothing)
        """Stop workers and drop unfinished tasks."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class SerialExecutor(Executor):
    """Runs each task in this process when its result is asked for."""

    in_process = True

    def __init__(self) -> None:
        self.workers = 1
        self._queue: deque[tuple[Callable[[Any], Any], Any, Any]] = deque()

    def submit(self, fn: Callable[[Any], Any], argument: Any, tag: Any) -> None:
        """Queue a task."""
        self._queue.append((fn, argument, tag))

    def next_done(self) -> tuple[Any, Any]:
        """Run the oldest queued task."""
        fn, argument, tag = self._queue.popleft()
        return tag, fn(argument)

    def pending(self) -> int:
        """Queued tasks."""
        return len(self._queue)


class ProcessExecutor(Executor):
    """A local pool of worker processes (forkserver start, the tasks' modules preloaded).

    Args:
        workers: worker processes (None: every core).
        preload: modules the forkserver imports once, so that every worker starts with them
            (the module of the task function, by its name).
    """

    def __init__(self, workers: int | None = None, preload: Sequence[str] = ()) -> None:
        self.workers = workers or os.cpu_count() or 1
        _one_blas_thread_per_worker()
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(list(preload))
        self._pool = ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=context,
            initializer=die_with_main,
            initargs=(os.getpid(),),
        )
        self._futures: dict[Future[Any], Any] = {}

    def submit(self, fn: Callable[[Any], Any], argument: Any, tag: Any) -> None:
        """Send a task to the pool."""
        self._futures[self._pool.submit(fn, argument)] = tag

    def next_done(self) -> tuple[Any, Any]:
        """Wait for the first finished task."""
        done, _ = wait(self._futures, return_when=FIRST_COMPLETED)
        future = next(iter(done))
        return self._futures.pop(future), future.result()

    def pending(self) -> int:
        """Tasks in the pool."""
        return len(self._futures)

    def close(self) -> None:
        """Shut the pool down, dropping tasks not yet started and stopping the workers."""
        workers = list((getattr(self._pool, "_processes", None) or {}).values())
        self._pool.shutdown(wait=False, cancel_futures=True)
        for process in workers:
            process.terminate()  # a batch in progress is lost anyway: its shard is never written
        for process in workers:
            process.join(timeout=5)
            if process.is_alive():
                process.kill()


class DaskExecutor(Executor):
    """A Dask distributed cluster: the scheduler at ``address``, or a LocalCluster.

    Failures of the cluster are one line each (:class:`SchedulerError`), with the next
    step: a lost scheduler or a dead worker stops the run (finished games are kept, for
    ``--resume``); a scheduler without workers is said once after
    :data:`NO_WORKERS_SECONDS`, and the run waits for workers to join.
    """

    def __init__(
        self,
        workers: int | None = None,
        address: str | None = None,
        notify: Callable[[str], None] | None = None,
    ) -> None:
        # distributed logs a lost connection or a stopped worker as a wall of tracebacks;
        # each failure is one line here instead. Set before distributed is imported, here
        # and in the worker processes (they inherit it); a user's own setting wins.
        quiet = "DASK_LOGGING__DISTRIBUTED" not in os.environ
        os.environ.setdefault("DASK_LOGGING__DISTRIBUTED", "critical")
        from distributed import Client, LocalCluster

        if quiet:
            _quiet_distributed()

        self._cluster = None
        self._notify = notify or messages.notify
        if address is None:
            _one_blas_thread_per_worker()
            self._cluster = LocalCluster(
                n_workers=workers or os.cpu_count() or 1,
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",  # any free port: no clash, no warning about 8787
            )
            self._client = Client(self._cluster)
        else:
            self._client = _connect(Client, address)
        self.address = address or str(self._cluster.scheduler_address if self._cluster else "")
        self.workers = max(1, len(self._client.scheduler_info().get("workers", {})))
        self._futures: dict[Any, Any] = {}
        self._without_workers_since: float | None = None

    def submit(self, fn: Callable[[Any], Any], argument: Any, tag: Any) -> None:
        """Send a task to the cluster (never deduplicated: pure=False)."""
        future = self._client.submit(fn, argument, pure=False)
        self._futures[future] = tag

    def next_done(self) -> tuple[Any, Any]:
        """Wait for the first finished task, watching the cluster while waiting.

        Raises:
            SchedulerError: the scheduler was lost, or a worker died playing a task.
        """
        from distributed import KilledWorker, wait

        try:
            while True:
                try:
                    done, _ = wait(
                        list(self._futures),
                        timeout=DASK_POLL_SECONDS,
                        return_when="FIRST_COMPLETED",
                    )
                except TimeoutError:  # nothing finished meanwhile: is the cluster still there?
                    self._check_workers()
                    continue
                future = next(iter(done))
                tag = self._futures.pop(future)
                return tag, future.result()
        except KilledWorker as error:
            raise SchedulerError(
                f"a Dask worker died while playing games ({' '.join(str(error).split())[:120]}); "
                "finished games are kept: check the workers' memory and logs, then rerun "
                "with --resume"
            ) from None
        except (CancelledError, OSError, TimeoutError) as error:
            raise SchedulerError(
                f"lost the Dask scheduler at {self.address} ({type(error).__name__}); finished "
                "games are kept: start the scheduler and its workers again, then rerun with "
                "--resume"
            ) from None

    def _check_workers(self) -> None:
        """Say once, after a while, that no worker is there to play the games."""
        if self._client.status != "running":
            raise OSError("the client is no longer connected")
        workers = self._client.scheduler_info().get("workers", {})
        if workers:
            self._without_workers_since = None
            return
        now = time.monotonic()
        if self._without_workers_since is None:
            self._without_workers_since = now
        elif now - self._without_workers_since >= NO_WORKERS_SECONDS:
            self._without_workers_since = math.inf  # said once
            self._notify(
                f"no Dask worker is connected to the scheduler at {self.address}: start one "
                f"with 'dask worker {self.address}'; the run waits for it (Ctrl-C stops, "
                "finished games are kept for --resume)"
            )

    def pending(self) -> int:
        """Tasks on the cluster."""
        return len(self._futures)

    def close(self) -> None:
        """Disconnect, and stop the local cluster if this executor made one."""
        # Stopping workers mid-task makes distributed log warnings that say nothing useful.
        logging.getLogger("distributed").setLevel(logging.CRITICAL)
        with contextlib.suppress(Exception):  # a lost scheduler: nothing left to close
            self._client.close(timeout=DASK_CONNECT_SECONDS)
        if self._cluster is not None:
            self._cluster.close()


def _quiet_distributed() -> None:
    """Only critical messages from distributed's loggers (its config sets some children apart)."""
    for name in ["distributed", *logging.root.manager.loggerDict]:
        if name == "distributed" or name.startswith("distributed."):
            logging.getLogger(name).setLevel(logging.CRITICAL)


def _connect(client: Any, address: str) -> Any:
    """A client of the scheduler at ``address``, or one line saying why not."""
    try:
        return client(address, timeout=f"{DASK_CONNECT_SECONDS}s")
    except (OSError, TimeoutError) as error:
        raise SchedulerError(
            f"no Dask scheduler answered at {address[:80]!r} within {DASK_CONNECT_SECONDS} s "
            f"({type(error).__name__}); start one with 'dask scheduler' or check the address"
        ) from None
    except (ValueError, TypeError) as error:
        raise SchedulerError(
            f"--scheduler {address[:80]!r} is not a scheduler address such as "
            f"tcp://host:8786 ({' '.join(str(error).split())[:80]})"
        ) from None


def make_executor(
    name: ExecutorName,
    workers: int | None = None,
    scheduler: str | None = None,
    preload: Sequence[str] = (),
) -> Executor:
    """The executor of that name (``preload``: see :class:`ProcessExecutor`)."""
    if name == "serial":
        return SerialExecutor()
    if name == "process":
        return ProcessExecutor(workers, preload)
    return DaskExecutor(workers, scheduler)

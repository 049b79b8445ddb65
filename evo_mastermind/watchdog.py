"""Stopping a game whose player's call never returns: a time limit enforced from outside.

The play loop can check a time limit only between a player's calls; a ``while True`` in
``ask()`` would never give it the chance. :class:`TimeLimit` registers the playing thread
with one watchdog thread per process, which reads that thread's CPU clock every
:data:`POLL_SECONDS` and, once the limit is passed, raises :class:`GameTimeout` in it
(``PyThreadState_SetAsyncExc``). Unlike a signal (``SIGALRM`` reaches only a process's main
thread), this works in any thread, so the same on the serial and process executors and in
the threads of a Dask worker.

The exception is delivered when the thread next runs Python bytecode, so the long compiled
kernels (which run without the GIL) poll the thread's stop flag instead
(:mod:`evo_mastermind.kernels.flags`, which Ctrl-C sets too): the watchdog sets it with the
exception, the kernel returns early, and its wrapper raises :class:`GameTimeout`.

Where it cannot reach: a player blocked inside another long C call (``time.sleep``, a read
that never returns) is stopped only when that call returns. A blocked call uses no CPU
time, so it is not what a CPU time limit counts anyway.
"""

from __future__ import annotations

import contextlib
import ctypes
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

from evo_mastermind.kernels import flags
from evo_mastermind.kernels.flags import GameTimeout as GameTimeout  # its public home

POLL_SECONDS = 0.05
"""How often the watchdog reads the clocks of the games it guards."""


@dataclass
class _Guarded:
    thread_id: int
    clock: int
    cpu_start: float
    limit: float
    flag: flags.Flag
    fired: bool = False


_lock = flags.lock
_guarded: dict[int, _Guarded] = {}
_watcher: threading.Thread | None = None


def _watch() -> None:
    while True:
        time.sleep(POLL_SECONDS)
        with _lock:
            for guarded in _guarded.values():
                if guarded.fired:
                    continue
                try:
                    used = time.clock_gettime(guarded.clock) - guarded.cpu_start
                except OSError:  # the thread is gone
                    continue
                if used > guarded.limit:
                    guarded.fired = True
                    ctypes.pythonapi.PyThreadState_SetAsyncExc(
                        ctypes.c_ulong(guarded.thread_id), ctypes.py_object(GameTimeout)
                    )
                    if guarded.flag[0] == flags.RUNNING:  # a kernel running now returns early
                        guarded.flag[0] = flags.TIMED_OUT


def _ensure_watcher() -> None:
    global _watcher
    if _watcher is None or not _watcher.is_alive():
        _watcher = threading.Thread(target=_watch, daemon=True, name="evo-mastermind-time-limit")
        _watcher.start()


@contextlib.contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Raise :class:`GameTimeout` in this thread once it has used ``seconds`` of CPU time.

    ``None``: no limit, nothing is watched. The exception may arrive anywhere inside the
    block (the block must catch it outside the ``with``).
    """
    if seconds is None or not hasattr(time, "pthread_getcpuclockid"):
        yield
        return
    ident = threading.get_ident()
    clock = time.pthread_getcpuclockid(ident)
    flag = flags.stop_flag()
    guarded = _Guarded(ident, clock, time.clock_gettime(clock), seconds, flag)
    with _lock:
        _guarded[ident] = guarded
        _ensure_watcher()
    try:
        yield
    finally:
        with _lock:
            _guarded.pop(ident, None)
            if flag[0] == flags.TIMED_OUT:
                flag[0] = flags.RUNNING

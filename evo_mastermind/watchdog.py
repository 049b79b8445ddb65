"""Stopping a game whose player's call never returns: a time limit enforced from outside.

The play loop can check a time limit only between a player's calls; a ``while True`` in
``ask()`` would never give it the chance. :class:`TimeLimit` registers the playing thread
with one watchdog thread per process, which reads that thread's CPU clock every
:data:`POLL_SECONDS` and, once the limit is passed, raises :class:`GameTimeout` in it
(``PyThreadState_SetAsyncExc``). Unlike a signal (``SIGALRM`` reaches only a process's main
thread), this works in any thread, so the same on the serial and process executors and in
the threads of a Dask worker.

Where it cannot reach: the exception is delivered when the thread next runs Python
bytecode, so a player blocked inside one long C call (``time.sleep``, a read that never
returns, one compiled kernel call) is stopped only when that call returns. A blocked call
uses no CPU time, so it is not what a CPU time limit counts anyway.
"""

from __future__ import annotations

import contextlib
import ctypes
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

POLL_SECONDS = 0.05
"""How often the watchdog reads the clocks of the games it guards."""


class GameTimeout(BaseException):
    """Raised inside a player's call by the watchdog: the game's time limit has passed.

    A :class:`BaseException`, so a player's own ``except Exception`` does not swallow it.
    """


@dataclass
class _Guarded:
    thread_id: int
    clock: int
    cpu_start: float
    limit: float
    fired: bool = False


_lock = threading.Lock()
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
    guarded = _Guarded(ident, clock, time.clock_gettime(clock), seconds)
    with _lock:
        _guarded[ident] = guarded
        _ensure_watcher()
    try:
        yield
    finally:
        with _lock:
            _guarded.pop(ident, None)

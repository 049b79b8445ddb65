"""Stopping a game whose player's call never returns: a time limit enforced from outside.

The play loop can check a time limit only between a player's calls; a ``while True`` in
``ask()`` would never give it the chance. :class:`TimeLimit` registers the playing thread
with one watchdog thread per process, which reads that thread's CPU clock every
:data:`POLL_SECONDS` and, once the limit is passed, raises :class:`GameTimeout` in it
(``PyThreadState_SetAsyncExc``). Unlike a signal (``SIGALRM`` reaches only a process's main
thread), this works in any thread, so the same on the serial and process executors and in
the threads of a Dask worker.

The exception is delivered when the thread next runs Python bytecode, so the long compiled
kernels (which run without the GIL) poll a flag of their thread instead, :func:`stop_flag`:
the watchdog sets it with the exception, the kernel returns early, and its wrapper raises
(:func:`check_stopped`). Ctrl-C reaches them the same way: a thread started on the first
kernel call of the main thread hears every SIGINT and SIGTERM (``signal.set_wakeup_fd``) and
sets every thread's flag; the main thread then runs the Python handler as usual
(``KeyboardInterrupt``), other threads raise ``KeyboardInterrupt`` themselves.

Where it cannot reach: a player blocked inside another long C call (``time.sleep``, a read
that never returns) is stopped only when that call returns. A blocked call uses no CPU
time, so it is not what a CPU time limit counts anyway.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import socket
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
import numpy.typing as npt

POLL_SECONDS = 0.05
"""How often the watchdog reads the clocks of the games it guards."""

RUNNING, INTERRUPTED, TIMED_OUT = 0, 1, 2
"""The values of a thread's :func:`stop_flag`: go on, stop for a signal, stop for the limit."""

Flag = npt.NDArray[np.uint8]
T = TypeVar("T")


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
    flag: Flag
    fired: bool = False


_lock = threading.Lock()
_guarded: dict[int, _Guarded] = {}
_watcher: threading.Thread | None = None
_local = threading.local()
_flags: weakref.WeakValueDictionary[int, Flag] = weakref.WeakValueDictionary()
_signal_sockets: tuple[socket.socket, socket.socket] | None = None
_STOPPING_SIGNALS = frozenset({int(signal.SIGINT), int(signal.SIGTERM)})


def stop_flag() -> Flag:
    """This thread's stop flag, for a compiled kernel to poll (one byte, :data:`RUNNING`).

    Called from the main thread, it also starts listening for Ctrl-C (once per process).
    """
    flag: Flag | None = getattr(_local, "flag", None)
    if flag is None:
        flag = np.zeros(1, dtype=np.uint8)
        _local.flag = flag
        with _lock:
            _flags[threading.get_ident()] = flag
    if threading.current_thread() is threading.main_thread():
        if _signal_sockets is None:
            _listen_for_signals()
        if flag[0] == INTERRUPTED:
            # A signal from before this call: Python's own handler has raised or will raise it.
            flag[0] = RUNNING
    return flag


def stoppable(run: Callable[[Flag], T]) -> T:
    """``run(flag)``, a kernel call given this thread's stop flag; raise what stopped it.

    Raises:
        GameTimeout: the game's time limit passed.
        KeyboardInterrupt: Ctrl-C.
    """
    flag = stop_flag()
    try:
        result = run(flag)
    except SystemError as error:
        # Numba runs a little Python to hand back a result: a pending signal's handler, or
        # the watchdog's exception, may go off there; what went off is what stopped us.
        if isinstance(error.__cause__, (KeyboardInterrupt, GameTimeout)):
            raise error.__cause__.with_traceback(None) from None
        raise
    check_stopped(flag)
    return result


def check_stopped(flag: Flag) -> None:
    """Raise what stopped a kernel early (after a kernel call that polls ``flag``).

    Raises:
        GameTimeout: the game's time limit passed (the watchdog's own copy is withdrawn).
        KeyboardInterrupt: Ctrl-C (in the main thread, from Python's handler of the signal).
    """
    reason = int(flag[0])
    if reason == RUNNING:
        return
    if reason == TIMED_OUT:
        with _lock:  # the watchdog set the flag after its exception, under this lock
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(threading.get_ident()), None)
            flag[0] = RUNNING
        raise GameTimeout
    if threading.current_thread() is threading.main_thread():
        flag[0] = RUNNING
        ctypes.pythonapi.PyErr_CheckSignals()  # the signal's own handler: KeyboardInterrupt
    # Elsewhere the flag stays set: the thread's next kernels stop at once too.
    raise KeyboardInterrupt


def _listen_for_signals() -> None:
    """Set every thread's flag on SIGINT or SIGTERM, from a thread of its own (main thread only).

    Python writes each signal's number to the wakeup descriptor from its C handler, even while
    the main thread is inside a kernel. A descriptor someone else set (an event loop) is left
    to them: kernels then stop at Ctrl-C only when they return.
    """
    global _signal_sockets
    reader, writer = socket.socketpair()
    _signal_sockets = (reader, writer)
    writer.setblocking(False)
    try:
        previous = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
    except (ValueError, OSError):
        return
    if previous != -1:
        signal.set_wakeup_fd(previous)
        return
    threading.Thread(
        target=_relay_signals, args=(reader,), daemon=True, name="evo-mastermind-signals"
    ).start()


def _relay_signals(reader: socket.socket) -> None:
    while True:
        try:
            received = reader.recv(64)
        except OSError:
            return
        if not received:
            return
        if _STOPPING_SIGNALS.intersection(received):
            with _lock:
                for flag in list(_flags.values()):
                    if flag[0] == RUNNING:
                        flag[0] = INTERRUPTED


def _forget_signals_in_child() -> None:
    """A forked child has no relaying thread: it listens afresh on its own first kernel call."""
    global _signal_sockets
    if _signal_sockets is not None:
        with contextlib.suppress(ValueError, OSError):
            signal.set_wakeup_fd(-1)
        _signal_sockets = None


os.register_at_fork(after_in_child=_forget_signals_in_child)


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
                    if guarded.flag[0] == RUNNING:  # a kernel running now returns early
                        guarded.flag[0] = TIMED_OUT


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
    flag = stop_flag()
    guarded = _Guarded(ident, clock, time.clock_gettime(clock), seconds, flag)
    with _lock:
        _guarded[ident] = guarded
        _ensure_watcher()
    try:
        yield
    finally:
        with _lock:
            _guarded.pop(ident, None)
            if flag[0] == TIMED_OUT:
                flag[0] = RUNNING

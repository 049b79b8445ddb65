"""Each thread's stop flag: how a compiled kernel running without the GIL is told to stop.

A kernel that may run for long takes this thread's flag (:func:`stop_flag`, one byte), reads
it every few milliseconds of work (:func:`evo_mastermind.kernels.stopping.stopped`) and returns
early once it is set; :func:`stoppable` then raises what set it, so an early return is never
taken for a result. Two things set flags:

* the game's time limit (:mod:`evo_mastermind.watchdog`), for the thread playing the game:
  :class:`GameTimeout`;
* Ctrl-C (SIGINT, or SIGTERM): a thread started on the first kernel call of the main thread
  hears every such signal through ``signal.set_wakeup_fd`` (Python writes the signal's number
  there from its C handler, even while the main thread is inside a kernel) and sets every
  thread's flag. The main thread then runs the signal's Python handler as usual
  (``KeyboardInterrupt``); other threads raise ``KeyboardInterrupt`` themselves and keep their
  flag set, so the rest of their queued work stops at once too. A kernel polling a stop cell
  of its own has it set as well, while it runs inside :func:`signal_stops`.

Pure Python and numpy: the watchdog and the players import it without loading Numba.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import socket
import threading
import weakref
from collections.abc import Callable, Iterator
from typing import TypeVar

import numpy as np
import numpy.typing as npt

RUNNING, INTERRUPTED, TIMED_OUT = 0, 1, 2
"""The values of a thread's :func:`stop_flag`: go on, stop for a signal, stop for the limit."""

Flag = npt.NDArray[np.uint8]
T = TypeVar("T")


class GameTimeout(BaseException):
    """Raised inside a player's call by the watchdog: the game's time limit has passed.

    A :class:`BaseException`, so a player's own ``except Exception`` does not swallow it.
    """


lock = threading.Lock()
"""Guards the flags, and the watchdog's exception sent with a flag (it holds it too)."""
_local = threading.local()
_flags: weakref.WeakValueDictionary[int, Flag] = weakref.WeakValueDictionary()
_cells: dict[int, npt.NDArray[np.int64]] = {}
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
        with lock:
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
        # the watchdog's exception, may go off there (wrapped once per array handed back);
        # what went off is what stopped us.
        cause = error.__cause__
        while isinstance(cause, SystemError):
            cause = cause.__cause__
        if isinstance(cause, (KeyboardInterrupt, GameTimeout)):
            raise cause.with_traceback(None) from None
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
        with lock:  # the watchdog set the flag after its exception, under this lock
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(threading.get_ident()), None)
            flag[0] = RUNNING
        raise GameTimeout
    if threading.current_thread() is threading.main_thread():
        flag[0] = RUNNING
        ctypes.pythonapi.PyErr_CheckSignals()  # the signal's own handler: KeyboardInterrupt
    # Elsewhere the flag stays set: the thread's next kernels stop at once too.
    raise KeyboardInterrupt


@contextlib.contextmanager
def signal_stops(cell: npt.NDArray[np.int64]) -> Iterator[None]:
    """While inside, Ctrl-C also sets ``cell[0]`` to 1, in the main thread.

    For a kernel that polls a stop cell of its own rather than the thread's flag (the optimal
    search's stretch ``control``): it stops at once, not at the end of its stretch. Other
    threads hear no signal; their callers stop them.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    if _signal_sockets is None:
        _listen_for_signals()
    with lock:
        _cells[id(cell)] = cell
    try:
        yield
    finally:
        with lock:
            _cells.pop(id(cell), None)


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
            with lock:
                for flag in list(_flags.values()):
                    if flag[0] == RUNNING:
                        flag[0] = INTERRUPTED
                for cell in _cells.values():
                    cell[0] = 1


def _forget_signals_in_child() -> None:
    """A forked child has no relaying thread: it listens afresh on its own first kernel call."""
    global _signal_sockets
    if _signal_sockets is not None:
        with contextlib.suppress(ValueError, OSError):
            signal.set_wakeup_fd(-1)
        _signal_sockets = None


os.register_at_fork(after_in_child=_forget_signals_in_child)

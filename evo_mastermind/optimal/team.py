"""Threads that search one set together, sharing one transposition table.

A :class:`Team` of ``threads`` solves each set it is given with the calling thread and
``threads - 1`` helpers, all in the compiled search (which releases the GIL) over the same
table (:mod:`~evo_mastermind.optimal.memo`, safe to share). They split the work as they
go: a set, or a guess at a set, that one thread is searching is marked in a small busy
table, and another thread that meets it leaves it for later and takes the next part or
guess (the ABDADA scheme of Weill, 1996); when it comes back, the table most often holds
the answer. The first thread to finish gives the answer and the others stop within their
stretch of the search. The answer is exact whenever it fits the budget, whichever thread
found it, and every value in the table is proven, so the optimum and the tree read off the
table (ties to the lowest code) are the same whatever the number of threads; only a bound
above the budget may differ (it is a proven bound either way), and the time.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from evo_mastermind.optimal import search
from evo_mastermind.optimal.memo import Memo

BUSY_SLOTS = 1 << 12
"""Slots of the busy table: far more than the sets a few threads search at once."""


@dataclass
class _Job:
    """One set the team is solving: every thread searches it until one of them has solved it."""

    members: npt.NDArray[np.int32]
    d: int
    budget: int
    history: npt.NDArray[np.int32]
    played: int
    game: search.Game
    memo: Memo
    answer: tuple[int, int] | None = None
    """The first answer found (by any thread)."""
    controls: dict[int, npt.NDArray[np.int64]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def enlist(self, thread: int, control: npt.NDArray[np.int64]) -> bool:
        """Note a thread's next stretch; whether it should run it (no answer yet)."""
        with self.lock:
            self.controls[thread] = control
            return self.answer is None

    def run(self, thread: int, busy: npt.NDArray[np.uint64]) -> None:
        """Search the set as thread number ``thread``; the first to finish gives the answer."""
        value, guess = search.solve(
            self.members,
            self.d,
            self.budget,
            self.history.copy(),  # each thread writes the guesses it tries there
            self.played,
            self.game,
            self.memo,
            busy,
            lambda control: self.enlist(thread, control),
        )
        if guess == search.STOPPED:
            return  # another thread answered first
        with self.lock:
            if self.answer is None:
                self.answer = value, guess
                for control in self.controls.values():
                    control[0] = 1  # the others stop within their stretch

    def stop(self) -> None:
        """Tell every thread to stop, in the middle of its stretch if it is in one."""
        with self.lock:
            if self.answer is None:
                self.answer = search.INF, search.STOPPED
            for control in self.controls.values():
                control[0] = 1


class _Helper:
    """A daemon thread that searches each job it is given until the job is answered."""

    def __init__(self, number: int, busy: npt.NDArray[np.uint64]) -> None:
        self.number = number
        self.busy = busy
        self.job: _Job | None = None
        self.error: BaseException | None = None
        self.closing = False
        self.ready = threading.Condition()
        self.thread = threading.Thread(target=self._run, daemon=True, name=f"optimal-{number}")
        self.thread.start()

    def give(self, job: _Job) -> None:
        """Start searching ``job``."""
        with self.ready:
            self.job = job
            self.ready.notify_all()

    def wait(self) -> None:
        """Block until the current job is left (the job must have been stopped)."""
        with self.ready:
            while self.job is not None:
                self.ready.wait()
        if self.error is not None:
            error, self.error = self.error, None
            raise error

    def close(self) -> None:
        """End the thread once it is idle."""
        with self.ready:
            self.closing = True
            self.ready.notify_all()
        self.thread.join()

    def _run(self) -> None:
        while True:
            with self.ready:
                while self.job is None and not self.closing:
                    self.ready.wait()
                if self.job is None:
                    return
                job = self.job
            try:
                job.run(self.number, self.busy)
            except BaseException as error:  # handed to the caller, never lost in a thread
                self.error = error
            with self.ready:
                self.job = None
                self.ready.notify_all()


class Team:
    """The calling thread and ``threads - 1`` helpers solving sets together.

    Args:
        threads: threads in all (1: the caller alone, exactly the sequential search).
    """

    def __init__(self, threads: int = 1) -> None:
        if threads < 1:
            raise ValueError(f"a team needs at least one thread, got {threads}")
        self.threads = threads
        self.busy = np.zeros(BUSY_SLOTS if threads > 1 else 1, dtype=np.uint64)
        self._helpers: list[_Helper] = []

    def solve(
        self,
        members: npt.NDArray[np.int32],
        d: int,
        budget: int,
        history: npt.NDArray[np.int32],
        played: int,
        game: search.Game,
        memo: Memo,
    ) -> tuple[int, int]:
        """:func:`~evo_mastermind.optimal.search.solve`, by the whole team."""
        if self.threads == 1:
            return search.solve(members, d, budget, history, played, game, memo)
        if not self._helpers:
            self._helpers = [_Helper(k, self.busy) for k in range(1, self.threads)]
        job = _Job(members, d, budget, history, played, game, memo)
        for helper in self._helpers:
            helper.give(job)
        try:
            job.run(0, self.busy)
        finally:
            job.stop()  # a Ctrl-C here: the helpers stop too
            for helper in self._helpers:
                helper.wait()
        assert job.answer is not None
        return job.answer

    def close(self) -> None:
        """End the helper threads."""
        for helper in self._helpers:
            helper.close()
        self._helpers = []

    def __enter__(self) -> Team:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

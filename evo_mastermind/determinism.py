"""The determinism contract of a partition heuristic, checked where its scores are first used.

A heuristic must be a function of its partition counts alone: the same counts, the same
scores, in any process, thread or order. That is what lets a config promise the same games
on every executor and a tree be the same tree on every rebuild. A heuristic that draws from
``np.random`` (or ``random``, the clock, a counter kept between calls) breaks the promise
silently: two serial runs then differ in almost every game. Ties need no random numbers of
the heuristic's own: the players break them (``ties: random`` with the game's generator).

:func:`repeat_problem` holds the check. Each heuristic is asked again, on a copy of the same
counts, until :data:`CHECKED_SCORINGS` of its scorings in this process (a worker's included)
have agreed bit for bit with themselves; a heuristic that writes into the counts it is given
is caught on the way, and one that failed is checked again on its next use (so it fails every
time). Later scorings are not repeated: a deterministic heuristic pays for
:data:`CHECKED_SCORINGS` extra calls a process and a set lookup a call (``docs/extending.md``
gives the figures).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

CHECKED_SCORINGS = 3
"""Scorings of each heuristic, in each process, that are asked twice and compared."""

_checks: dict[int, tuple[Callable[..., Any], int]] = {}  # id → (definition, checks made)
_checked: set[int] = set()  # ids of the definitions checked enough: no lock, no repeat
_lock = threading.Lock()  # a Dask worker scores in several threads at once


def _passed(score: Callable[..., Any]) -> None:
    """Count one scoring of ``score`` that agreed with itself (a failed one is never counted)."""
    with _lock:
        # The definition is kept with its id, so the id of a discarded one is never reused.
        _, passed = _checks.get(id(score), (score, 0))
        _checks[id(score)] = (score, passed + 1)
        if passed + 1 >= CHECKED_SCORINGS:
            _checked.add(id(score))


def forget_checks() -> None:
    """Check every heuristic's next scorings again, as in a new process (tests, reloads)."""
    with _lock:
        _checks.clear()
        _checked.clear()


def repeat_problem(
    score: Callable[[npt.NDArray[np.int64]], Any],
    counts: npt.NDArray[np.int64],
    scores: npt.NDArray[np.float64],
) -> str | None:
    """What breaks the contract in ``score``'s answer ``scores`` to ``counts``, or ``None``.

    Until :data:`CHECKED_SCORINGS` calls for ``score`` in this process have passed, each
    asks ``score`` again on a copy of ``counts``; later calls return ``None`` at once.

    Args:
        score: the heuristic's definition.
        counts: the partition counts it was just given.
        scores: what it answered (already checked for shape and NaN).

    Returns:
        The end of a sentence starting with the heuristic's name (``"scored the same counts
        ..."``), or ``None`` when both answers agree.
    """
    if id(score) in _checked:
        return None
    probe = counts.copy()
    try:
        again = np.asarray(score(probe), dtype=np.float64)
    except Exception as error:  # a user's definition failing is reported in one line
        return (
            f"failed when asked again for the same counts ({type(error).__name__}: {error}): "
            "it must be a function of its counts alone, with no state kept between calls"
        )
    if not np.array_equal(probe, counts):
        return (
            "writes into the counts it is given: compute on a copy "
            "(e.g. counts.astype(float)) and leave them as they are"
        )
    if again.shape != scores.shape or not np.array_equal(again, scores, equal_nan=True):
        differ = (
            int(np.count_nonzero(again != scores)) if again.shape == scores.shape else scores.size
        )
        return (
            f"scored the same counts differently when asked twice ({differ:,} of "
            f"{scores.size:,} guesses): it must draw no random numbers and keep no state"
        )
    _passed(score)
    return None


__all__ = ["CHECKED_SCORINGS", "forget_checks", "repeat_problem"]

"""The transposition table of the optimal search (compiled): candidate sets and what is proven.

Open addressing over a power-of-two number of slots, keyed by a 64-bit hash of the set and
the guesses left; a slot is only trusted after its set is compared member by member with
the one looked up, so a hash collision costs time, never a wrong answer. A full table
forgets new sets (the search is then slower, never wrong).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

import evo_mastermind.kernels.startup  # noqa: F401  (Numba loads without SciPy: 0.2 s)

Memo = tuple[
    npt.NDArray[np.uint64],  # keys
    npt.NDArray[np.int64],  # per slot: value, depth (0: a bound), pool start, size, left, guess
    npt.NDArray[np.int32],  # the sets' members
    npt.NDArray[np.int64],  # pool used, entries, nodes searched
]
"""The transposition table, kept by the solver across calls."""

_FNV_PRIME = np.uint64(0x100000001B3)
_FNV_BASIS = np.uint64(0xCBF29CE484222325)


@njit(cache=True, nogil=True)
def set_hash(members: npt.NDArray[np.int32], d: int) -> np.uint64:
    """A 64-bit hash (FNV-1a, never 0) of a sorted set and the guesses left."""
    value = _FNV_BASIS ^ np.uint64(d)
    for m in members:
        value = (value ^ np.uint64(m)) * _FNV_PRIME
    value ^= value >> np.uint64(29)
    if value == 0:
        value = np.uint64(1)
    return value


@njit(cache=True, nogil=True)
def find(
    members: npt.NDArray[np.int32],
    d: int,
    key: np.uint64,
    tt_key: npt.NDArray[np.uint64],
    tt_meta: npt.NDArray[np.int64],
    pool: npt.NDArray[np.int32],
) -> int:
    """The slot holding this set, or -1 - (a free slot) when it is absent (-1 - capacity: full)."""
    capacity = tt_key.shape[0]
    slot = np.int64(key & np.uint64(capacity - 1))
    n = members.shape[0]
    for _ in range(16):
        if tt_key[slot] == 0:
            return -1 - int(slot)
        if tt_key[slot] == key and tt_meta[slot, 3] == n and tt_meta[slot, 4] == d:
            start = tt_meta[slot, 2]
            same = True
            for i in range(n):
                if pool[start + i] != members[i]:
                    same = False
                    break
            if same:
                return int(slot)
        slot = (slot + 1) & (capacity - 1)
    return -1 - capacity


@njit(cache=True, nogil=True)
def store(
    members: npt.NDArray[np.int32],
    d: int,
    value: int,
    depth: int,
    guess: int,
    tt_key: npt.NDArray[np.uint64],
    tt_meta: npt.NDArray[np.int64],
    pool: npt.NDArray[np.int32],
    used: npt.NDArray[np.int64],
) -> None:
    """Record an exact value (with its guess and tree depth) or a lower bound (depth 0)."""
    key = set_hash(members, d)
    slot = find(members, d, key, tt_key, tt_meta, pool)
    capacity = tt_key.shape[0]
    n = members.shape[0]
    if slot < 0:
        slot = -1 - slot
        if slot == capacity or used[0] + n > pool.shape[0]:
            return  # full: forgetting only costs time
        tt_key[slot] = key
        tt_meta[slot, 2] = used[0]
        tt_meta[slot, 3] = n
        tt_meta[slot, 4] = d
        pool[used[0] : used[0] + n] = members
        used[0] += n
        used[1] += 1
    elif tt_meta[slot, 1] > 0 or (depth == 0 and tt_meta[slot, 0] >= value):
        return  # already exact, or already as strong a bound
    tt_meta[slot, 0] = value
    tt_meta[slot, 1] = depth
    tt_meta[slot, 5] = guess

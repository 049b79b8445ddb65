"""The transposition table of the optimal search (compiled): candidate sets and what is proven.

Open addressing over a power-of-two number of slots, keyed by a 64-bit hash of the set and
the guesses left; a slot is only trusted after its set is compared member by member with
the one looked up, so a hash collision costs time, never a wrong answer. A full table
forgets new sets (the search is then slower, never wrong).

Several threads may search with one table at once (:mod:`~evo_mastermind.optimal.team`).
A writer claims a free slot with an atomic compare-and-swap of its key to :data:`BUSY`,
fills it, and only then publishes the key; the value and the tree depth are one word
(:func:`pack`), raised by compare-and-swap, and the best guess is written before the word
that makes an entry exact (an exact entry never changes again). A reader thus sees a
whole entry or none, and every value it reads is proven. One thread alone does exactly
what it did before the table was shared.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

import evo_mastermind.kernels.startup  # noqa: F401  (Numba loads without SciPy: 0.2 s)

Memo = tuple[
    npt.NDArray[np.uint64],  # keys
    npt.NDArray[np.int64],  # per slot: value and depth (pack), -, pool start, size, left, guess
    npt.NDArray[np.int32],  # the sets' members
    npt.NDArray[np.int64],  # pool used, entries, nodes searched
]
"""The transposition table, kept by the solver across calls."""

_FNV_PRIME = np.uint64(0x100000001B3)
_FNV_BASIS = np.uint64(0xCBF29CE484222325)

BUSY = np.uint64(0xFFFFFFFFFFFFFFFF)
"""The key of a slot a writer has claimed and not yet filled (no set hashes to it)."""

DEPTH_BITS = 8
"""Bits of the packed word holding the tree depth (0: the value is a lower bound)."""


def _pointer(context: Any, builder: Any, signature: Any, args: Any, indices: list[Any]) -> Any:
    """The address of ``array[indices...]`` in generated code."""
    array_type = signature.args[0]
    array = context.make_array(array_type)(context, builder, args[0])
    return cgutils.get_item_pointer(  # type: ignore[no-untyped-call]
        context, builder, array_type, array, indices
    )


def _compare_swap_typing(
    typingctx: Any, array: Any, index: Any, expected: Any, new: Any
) -> tuple[Any, Any]:
    """``array[index]``: set to ``new`` if it holds ``expected`` (atomically); the old value."""
    signature = array.dtype(array, types.intp, array.dtype, array.dtype)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        pointer = _pointer(context, builder, signature, args, [args[1]])
        pair = builder.cmpxchg(pointer, args[2], args[3], "seq_cst", "seq_cst")
        return builder.extract_value(pair, 0)

    return signature, codegen


_compare_swap: Callable[..., Any] = intrinsic(_compare_swap_typing)


def _compare_swap_2d_typing(
    typingctx: Any, array: Any, row: Any, column: Any, expected: Any, new: Any
) -> tuple[Any, Any]:
    """:func:`_compare_swap` of ``array[row, column]``."""
    signature = array.dtype(array, types.intp, types.intp, array.dtype, array.dtype)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        pointer = _pointer(context, builder, signature, args, [args[1], args[2]])
        pair = builder.cmpxchg(pointer, args[3], args[4], "seq_cst", "seq_cst")
        return builder.extract_value(pair, 0)

    return signature, codegen


_compare_swap_2d: Callable[..., Any] = intrinsic(_compare_swap_2d_typing)


def _fetch_add_typing(typingctx: Any, array: Any, index: Any, amount: Any) -> tuple[Any, Any]:
    """``array[index] += amount`` atomically; the old value."""
    signature = array.dtype(array, types.intp, array.dtype)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        pointer = _pointer(context, builder, signature, args, [args[1]])
        return builder.atomic_rmw("add", pointer, args[2], "seq_cst")

    return signature, codegen


_fetch_add: Callable[..., Any] = intrinsic(_fetch_add_typing)


def _load_typing(typingctx: Any, array: Any, index: Any) -> tuple[Any, Any]:
    """``array[index]`` read whole, after everything written before its writer's :func:`publish`."""
    signature = array.dtype(array, types.intp)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        pointer = _pointer(context, builder, signature, args, [args[1]])
        return builder.load_atomic(pointer, "acquire", signature.return_type.bitwidth // 8)

    return signature, codegen


load: Callable[..., Any] = intrinsic(_load_typing)


def _load_2d_typing(typingctx: Any, array: Any, row: Any, column: Any) -> tuple[Any, Any]:
    """:func:`load` of ``array[row, column]``."""
    signature = array.dtype(array, types.intp, types.intp)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        pointer = _pointer(context, builder, signature, args, [args[1], args[2]])
        return builder.load_atomic(pointer, "acquire", signature.return_type.bitwidth // 8)

    return signature, codegen


_load_2d: Callable[..., Any] = intrinsic(_load_2d_typing)


def _publish_typing(typingctx: Any, array: Any, index: Any, value: Any) -> tuple[Any, Any]:
    """``array[index] = value``, seen by other threads after everything written before it."""
    signature = types.void(array, types.intp, array.dtype)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        pointer = _pointer(context, builder, signature, args, [args[1]])
        width = signature.args[0].dtype.bitwidth // 8
        builder.store_atomic(args[2], pointer, "release", width)
        return context.get_dummy_value()

    return signature, codegen


publish: Callable[..., Any] = intrinsic(_publish_typing)


@njit(cache=True, nogil=True)
def claim(array: npt.NDArray[np.uint64], index: int, key: np.uint64) -> bool:
    """Set ``array[index]`` from 0 to ``key`` atomically; whether it was free."""
    return bool(_compare_swap(array, index, np.uint64(0), key) == np.uint64(0))


@njit(cache=True, nogil=True)
def pack(value: int, depth: int) -> int:
    """One word of a value (at most ``INF``) and its tree's depth (0: a lower bound)."""
    return (value << DEPTH_BITS) | depth


@njit(cache=True, nogil=True)
def entry(slot: int, tt_meta: npt.NDArray[np.int64]) -> tuple[int, int, int]:
    """A slot's value, depth (0: the value is a lower bound) and best guess, read together."""
    word = _load_2d(tt_meta, slot, 0)
    depth = word & ((1 << DEPTH_BITS) - 1)
    guess = tt_meta[slot, 5] if depth > 0 else -1  # written before the word made it exact
    return word >> DEPTH_BITS, depth, guess


@njit(cache=True, nogil=True)
def set_hash(members: npt.NDArray[np.int32], d: int) -> np.uint64:
    """A 64-bit hash (FNV-1a, never 0 nor :data:`BUSY`) of a sorted set and the guesses left."""
    value = _FNV_BASIS ^ np.uint64(d)
    for m in members:
        value = (value ^ np.uint64(m)) * _FNV_PRIME
    value ^= value >> np.uint64(29)
    if value == 0 or value == BUSY:
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
        seen = load(tt_key, slot)
        if seen == 0:
            return -1 - int(slot)
        if seen == key and tt_meta[slot, 3] == n and tt_meta[slot, 4] == d:
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
    if depth >= 1 << DEPTH_BITS:
        return  # no tree is that deep; forgetting only costs time
    key = set_hash(members, d)
    capacity = tt_key.shape[0]
    n = members.shape[0]
    word = pack(value, depth)
    for _ in range(4):  # a slot another thread took meanwhile: look again
        slot = find(members, d, key, tt_key, tt_meta, pool)
        if slot >= 0:
            break
        slot = -1 - slot
        if slot == capacity or load(used, 0) + n > pool.shape[0]:
            return  # full: forgetting only costs time
        if not claim(tt_key, slot, BUSY):
            continue
        start = _fetch_add(used, 0, n)
        if start + n > pool.shape[0]:
            publish(tt_key, slot, np.uint64(0))  # another thread took the last of the pool
            return
        tt_meta[slot, 2] = start
        tt_meta[slot, 3] = n
        tt_meta[slot, 4] = d
        pool[start : start + n] = members
        tt_meta[slot, 5] = guess
        tt_meta[slot, 0] = word
        publish(tt_key, slot, key)
        _fetch_add(used, 1, 1)
        return
    else:
        return
    while True:  # raise what the slot holds, unless it already knows as much
        old = _load_2d(tt_meta, slot, 0)
        old_depth = old & ((1 << DEPTH_BITS) - 1)
        if old_depth > 0 or (depth == 0 and old >> DEPTH_BITS >= value):
            return  # already exact, or already as strong a bound
        if depth > 0:
            tt_meta[slot, 5] = guess  # before the word that makes it exact
        if _compare_swap_2d(tt_meta, slot, 0, old, word) == old:
            return

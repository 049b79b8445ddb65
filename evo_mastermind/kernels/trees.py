"""Tree kernel: a partition player's whole subtree, grown depth first in one call.

:func:`grow_tree` chooses each node's guess as :func:`~evo_mastermind.kernels.choosing.choose`
does (the first of the best, lexicographic ties), with the classes of codes the node's
history cannot tell apart (:mod:`evo_mastermind.kernels.symmetry`). It reads the stop flag
(:func:`evo_mastermind.kernels.flags.stop_flag`) at every node and inside each node's choice.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit, types
from numba.typed import Dict

from evo_mastermind.codes import Codes
from evo_mastermind.kernels import flags
from evo_mastermind.kernels.choosing import _choose, space_multisets
from evo_mastermind.kernels.responses import _columns, _responses_serial, weight
from evo_mastermind.kernels.rules import REDUCTIONS
from evo_mastermind.kernels.scanning import by_multiset
from evo_mastermind.kernels.startup import call
from evo_mastermind.kernels.stopping import stopped
from evo_mastermind.kernels.symmetry import (
    _canonical_index,
    _colour_kinds_serial,
    _relabelling,
    _representatives,
)

CACHED_CLASSES = 1 << 24
"""Representatives one thread keeps listed at most (with their columns and their grouping
by multiset, about 530 MB)."""


class ClassTables(NamedTuple):
    """One thread's lists of class representatives, by choice of colour kinds (reused).

    Kept from one subtree to the next (see :func:`class_tables`).
    """

    firsts: Dict[int, npt.NDArray[np.int64]]
    pegs: Dict[int, npt.NDArray[np.uint8]]
    counts: Dict[int, npt.NDArray[np.uint8]]
    group_starts: Dict[int, npt.NDArray[np.int64]]
    grouped: Dict[int, npt.NDArray[np.int64]]
    size: npt.NDArray[np.int64]


def class_tables() -> ClassTables:
    """Empty class tables, for one thread to pass to every subtree it grows."""
    return ClassTables(
        Dict.empty(key_type=types.int64, value_type=types.int64[::1]),
        Dict.empty(key_type=types.int64, value_type=types.uint8[:, ::1]),
        Dict.empty(key_type=types.int64, value_type=types.uint8[:, ::1]),
        Dict.empty(key_type=types.int64, value_type=types.int64[::1]),
        Dict.empty(key_type=types.int64, value_type=types.int64[::1]),
        np.zeros(1, dtype=np.int64),
    )


@njit(cache=True, nogil=True)
def _longer(array: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The array copied into one twice as long (the rest unset)."""
    longer = np.empty(2 * array.size, dtype=array.dtype)
    longer[: array.size] = array
    return longer


@njit(cache=True, nogil=True)
def _grow_tree(
    codes: npt.NDArray[np.uint8],
    counts: npt.NDArray[np.uint8],
    place_values: npt.NDArray[np.int64],
    candidates: npt.NDArray[np.int64],
    played: int,
    depth: int,
    first: int,
    pool_all: bool,
    heuristic: int,
    classes_from: int,
    max_depth: int,
    weight: npt.NDArray[np.unsignedinteger],
    halt: npt.NDArray[np.uint8],
    cached_firsts: Dict[int, npt.NDArray[np.int64]],
    cached_pegs: Dict[int, npt.NDArray[np.uint8]],
    cached_counts: Dict[int, npt.NDArray[np.uint8]],
    cached_group_starts: Dict[int, npt.NDArray[np.int64]],
    cached_grouped: Dict[int, npt.NDArray[np.int64]],
    cache_size: npt.NDArray[np.int64],
    multiset_of: npt.NDArray[np.int64],
    multiset_counts: npt.NDArray[np.uint8],
) -> tuple[
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
]:
    """The subtree of a partition player with lexicographic ties, grown depth first.

    The subtree's root is reached after guesses using the colours of bitmask ``played``
    with the sorted ``candidates`` consistent, its guess being the game's ``depth``-th and
    ``first`` if that is not negative (a player's own first guess). Each
    node's codes are a sorted slice of one array, split in place by their responses (a
    stable counting sort keeps every part sorted). A node's guess is :func:`_choose`'s
    first, with the classes of codes its history cannot tell apart (unplayed and zero
    colours): their representatives are listed once per choice of those colours and kept
    in the ``cached_*`` tables with their grouping by multiset of colours (at most
    :data:`CACHED_CLASSES` representatives, counted in ``cache_size``), which the caller may
    pass from one subtree to the next.
    ``multiset_of`` and ``multiset_counts`` are the space's
    :func:`~evo_mastermind.kernels.choosing.space_multisets` (the choice's response tables).

    Returns:
        Each node's guess, parent (-1 for the root) and response from its parent (siblings
        are numbered in increasing order of response), then each secret and the number of
        guesses its game needed; an empty guess array when a game would need more than
        ``max_depth``.
    """
    n, pegs = codes.shape
    colors = counts.shape[1]
    n_responses = (pegs + 1) * (pegs + 1)
    win = pegs * (pegs + 1)
    colour_mask = np.zeros(n, dtype=np.int64)
    for i in range(n):
        for p in range(pegs):
            colour_mask[i] |= 1 << codes[i, p]
    everything = np.arange(n, dtype=np.int64)
    every_pegs, every_counts = _columns(codes, counts, everything)
    n_multisets = multiset_counts.shape[0]
    whole_space = multiset_of.size == n
    every_start = np.empty(0, dtype=np.int64)  # not grouped: the pool read in order
    every_grouped = np.empty(0, dtype=np.int64)
    if whole_space:
        every_start, every_grouped = by_multiset(everything, multiset_of, n_multisets)
    kind = np.empty(colors, dtype=np.int64)
    label = np.empty(colors, dtype=np.int64)
    class_of = np.empty(n, dtype=np.int64)  # the class of each code of the node only

    size = candidates.size
    secrets = candidates.copy()
    sorted_part = np.empty(size, dtype=np.int64)
    answers = np.empty(size, dtype=np.int64)
    won = np.empty(size, dtype=np.int64)
    won_at = np.empty(size, dtype=np.int64)
    n_won = 0
    node_guess = np.empty(1024, dtype=np.int64)
    node_parent = np.empty(1024, dtype=np.int64)
    node_response = np.empty(1024, dtype=np.int64)
    node_parent[0] = -1
    node_response[0] = -1
    n_nodes = 1
    # The nodes still to expand: their number, slice of ``secrets``, played colours, depth.
    stack_size = (max_depth + 1) * n_responses
    stack_node = np.empty(stack_size, dtype=np.int64)
    stack_start = np.empty(stack_size, dtype=np.int64)
    stack_stop = np.empty(stack_size, dtype=np.int64)
    stack_played = np.empty(stack_size, dtype=np.int64)
    stack_depth = np.empty(stack_size, dtype=np.int64)
    stack_node[0], stack_start[0], stack_stop[0] = 0, 0, size
    stack_played[0], stack_depth[0] = played, depth
    top = 1
    part_size = np.zeros(n_responses, dtype=np.int64)
    part_start = np.zeros(n_responses, dtype=np.int64)
    while top:
        top -= 1
        node = stack_node[top]
        start = stack_start[top]
        stop = stack_stop[top]
        played = stack_played[top]
        depth = stack_depth[top]
        if depth > max_depth or stopped(halt):
            empty = np.empty(0, dtype=np.int64)
            return empty, empty, empty, empty, empty
        here = secrets[start:stop]
        m = stop - start
        if node == 0 and first >= 0:
            guess = first
        else:
            firsts = everything
            of_class = everything
            first_pegs = every_pegs
            first_counts = every_counts
            group_start, grouped = every_start, every_grouped
            if m > 2 and (pool_all or m >= classes_from):
                present = 0
                for j in range(m):
                    present |= colour_mask[here[j]]
                key = _colour_kinds_serial(present, played, kind)
                if key >= 0:
                    if key not in cached_firsts:
                        listed = _representatives(kind, pegs, place_values)
                        if cache_size[0] + listed.size > CACHED_CLASSES:
                            cached_firsts.clear()
                            cached_pegs.clear()
                            cached_counts.clear()
                            cached_group_starts.clear()
                            cached_grouped.clear()
                            cache_size[0] = 0
                        cached_firsts[key] = listed
                        cached_pegs[key], cached_counts[key] = _columns(codes, counts, listed)
                        if whole_space:
                            cached_group_starts[key], cached_grouped[key] = by_multiset(
                                listed, multiset_of, n_multisets
                            )
                        else:
                            cached_group_starts[key] = every_start
                            cached_grouped[key] = every_grouped
                        cache_size[0] += listed.size
                    firsts = cached_firsts[key]
                    first_pegs = cached_pegs[key]
                    first_counts = cached_counts[key]
                    group_start = cached_group_starts[key]
                    grouped = cached_grouped[key]
                    # Only the node's codes are looked up: their classes, by binary search.
                    free, smallest_zero = _relabelling(kind)
                    for j in range(m):
                        canonical = _canonical_index(
                            codes[here[j]], kind, free, smallest_zero, place_values, label
                        )
                        class_of[here[j]] = np.searchsorted(firsts, canonical)
                    of_class = class_of
            guess = _choose(
                codes,
                counts,
                here,
                firsts,
                of_class,
                first_pegs,
                first_counts,
                pool_all,
                heuristic,
                True,
                n_responses,
                weight,
                halt,
                multiset_of,
                multiset_counts,
                group_start,
                grouped,
            )[0]
            if stopped(halt):
                empty = np.empty(0, dtype=np.int64)
                return empty, empty, empty, empty, empty
        node_guess[node] = guess
        # Split the node's codes by their response to the guess, each part kept sorted.
        _responses_serial(codes, counts, guess, here, answers[:m])
        part_size[:] = 0
        for j in range(m):
            part_size[answers[j]] += 1
        at = 0
        for r in range(n_responses):
            part_start[r] = at
            at += part_size[r]
        for j in range(m):
            r = answers[j]
            sorted_part[part_start[r]] = here[j]
            part_start[r] += 1
        secrets[start:stop] = sorted_part[:m]
        played_now = played | colour_mask[guess]
        at = start
        for r in range(n_responses):
            if part_size[r] == 0:
                continue
            if r == win:
                won[n_won] = secrets[at]
                won_at[n_won] = depth
                n_won += 1
            else:
                if n_nodes == node_guess.size:
                    node_guess = _longer(node_guess)
                    node_parent = _longer(node_parent)
                    node_response = _longer(node_response)
                node_parent[n_nodes] = node
                node_response[n_nodes] = r
                stack_node[top] = n_nodes
                stack_start[top] = at
                stack_stop[top] = at + part_size[r]
                stack_played[top] = played_now
                stack_depth[top] = depth + 1
                top += 1
                n_nodes += 1
            at += part_size[r]
    return node_guess[:n_nodes], node_parent[:n_nodes], node_response[:n_nodes], won, won_at


def grow_tree(
    codes: Codes,
    counts: npt.NDArray[np.uint8],
    place_values: npt.NDArray[np.int64],
    candidates: npt.NDArray[np.int64],
    played: int,
    depth: int,
    first: int,
    pool_all: bool,
    reduction: str,
    classes_from: int,
    max_depth: int,
    tables: ClassTables | None = None,
) -> tuple[
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
]:
    """A subtree of a partition player with lexicographic ties (see :func:`_grow_tree`).

    Scores on one thread: callers grow several subtrees at once instead, each thread
    passing its own ``tables`` (:func:`class_tables`) to every subtree it grows (None: new
    tables for this subtree).
    """
    kept = class_tables() if tables is None else tables
    return flags.stoppable(
        lambda halt: call(
            _grow_tree,
            codes,
            counts,
            place_values,
            np.ascontiguousarray(candidates, dtype=np.int64),
            played,
            depth,
            first,
            pool_all,
            REDUCTIONS[reduction],
            classes_from,
            max_depth,
            weight(codes.shape[1]),
            halt,
            kept.firsts,
            kept.pegs,
            kept.counts,
            kept.group_starts,
            kept.grouped,
            kept.size,
            *space_multisets(counts),
        )
    )

"""Symmetry kernel: codes a position cannot tell apart, numbered class by class.

Which colours may be relabelled is decided once, by :func:`colour_kinds` (compiled for the
tree kernel, called as Python by :mod:`evo_mastermind.symmetry`); :func:`canonical_codes`
numbers each code's class under those relabellings.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from evo_mastermind.codes import Codes
from evo_mastermind.kernels.startup import call


def colour_kinds(present: int, played: int, kind: npt.NDArray[np.int64]) -> int:
    """Which colours a position lets relabel: fills ``kind``, returns a key of the choice.

    A colour no consistent code uses (absent from bitmask ``present``) is a zero colour
    (kind 2: every zero colour is alike, even a played one); a colour no guess has used
    (absent from ``played``) is free (kind 1: free colours may be renamed among
    themselves); the others stay (kind 0). The key numbers the kinds in base 3, so equal
    keys mean equal classes; it is -1 when no two codes are alike (fewer than two free
    colours and fewer than two zero colours).
    """
    n_free = 0
    n_zero = 0
    key = 0
    for k in range(kind.size):
        if not present >> k & 1:
            kind[k] = 2
            n_zero += 1
        elif not played >> k & 1:
            kind[k] = 1
            n_free += 1
        else:
            kind[k] = 0
        key = key * 3 + kind[k]
    return key if n_free >= 2 or n_zero >= 2 else -1


_colour_kinds_serial = njit(cache=True, nogil=True)(colour_kinds)


@njit(cache=True, nogil=True)
def _relabelling(kind: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.int64], int]:
    """The free colours in increasing order and the smallest zero colour (-1: none).

    As ``kind`` says (see :func:`_canonical_codes`); the rest of the first array is unset.
    """
    free = np.empty(kind.size, dtype=np.int64)
    n_free = 0
    smallest_zero = -1
    for colour in range(kind.size):
        if kind[colour] == 1:
            free[n_free] = colour
            n_free += 1
        elif kind[colour] == 2 and smallest_zero < 0:
            smallest_zero = colour
    return free, smallest_zero


@njit(cache=True, nogil=True, inline="always")
def _canonical_index(
    code: npt.NDArray[np.uint8],
    kind: npt.NDArray[np.int64],
    free: npt.NDArray[np.int64],
    smallest_zero: int,
    place_values: npt.NDArray[np.int64],
    label: npt.NDArray[np.int64],
) -> int:
    """The index of the first code of ``code``'s class (``label``: a scratch array per colour).

    Free colours are renamed, by first use, to the free colours in increasing order; every
    zero colour becomes the smallest zero colour.
    """
    label[:] = -1
    used = 0
    index = 0
    for p in range(code.size):
        colour = code[p]
        mapped = int(colour)
        if kind[colour] == 1:
            if label[colour] < 0:
                label[colour] = free[used]
                used += 1
            mapped = int(label[colour])
        elif kind[colour] == 2:
            mapped = smallest_zero
        index += mapped * place_values[p]
    return index


def _canonical_codes(
    codes: npt.NDArray[np.uint8],
    kind: npt.NDArray[np.int64],
    place_values: npt.NDArray[np.int64],
    out: npt.NDArray[np.int64],
    first: npt.NDArray[np.int64],
) -> int:
    """Each code's class number under the colour relabellings ``kind`` allows.

    ``kind[colour]`` is 0 for a colour that must stay as it is, 1 for a free colour (free
    colours are renamed, by first use, to the free colours in increasing order) and 2 for a
    zero colour (every zero colour becomes the smallest zero colour). The representative is
    the lexicographically first code of the class; classes are numbered in the order of
    their representatives.
    """
    free, smallest_zero = _relabelling(kind)
    label = np.empty(kind.size, dtype=np.int64)
    n_classes = 0
    for i in range(codes.shape[0]):
        index = _canonical_index(codes[i], kind, free, smallest_zero, place_values, label)
        # A representative is the first of its class, so its number is known by then.
        if index == i:
            out[i] = n_classes
            first[n_classes] = i
            n_classes += 1
        else:
            out[i] = out[index]
    return n_classes


@njit(cache=True, nogil=True)
def _representatives(
    kind: npt.NDArray[np.int64], pegs: int, place_values: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """The first code of every class (what :func:`_canonical_codes` numbers), in order.

    Listed directly, peg by peg, rather than found among every code: a colour that stays
    may go anywhere, a zero colour only as the smallest zero colour, a free colour only if
    it is one already used or the next free colour (free colours are used in increasing
    order).
    """
    colors = kind.size
    rank = np.full(colors, -1, dtype=np.int64)
    n_free = 0
    smallest_zero = -1
    for colour in range(colors):
        if kind[colour] == 1:
            rank[colour] = n_free
            n_free += 1
        elif kind[colour] == 2 and smallest_zero < 0:
            smallest_zero = colour
    size = 1
    for _ in range(pegs):
        size *= colors
    out = np.empty(size, dtype=np.int64)
    n = 0
    digit = np.full(pegs, -1, dtype=np.int64)
    used = np.zeros(pegs + 1, dtype=np.int64)  # free colours used before each peg
    index = np.zeros(pegs + 1, dtype=np.int64)  # the index of the code's first pegs
    p = 0
    while p >= 0:
        colour = digit[p] + 1
        while colour < colors and not (
            kind[colour] == 0
            or (kind[colour] == 2 and colour == smallest_zero)
            or (kind[colour] == 1 and rank[colour] <= used[p])
        ):
            colour += 1
        if colour == colors:
            digit[p] = -1
            p -= 1
            continue
        digit[p] = colour
        index[p + 1] = index[p] + colour * place_values[p]
        used[p + 1] = used[p] + (1 if kind[colour] == 1 and rank[colour] == used[p] else 0)
        if p == pegs - 1:
            out[n] = index[p + 1]
            n += 1
        else:
            p += 1
    return out[:n].copy()


_canonical_serial = njit(cache=True, nogil=True)(_canonical_codes)


def canonical_codes(
    codes: Codes, kind: npt.NDArray[np.int64], place_values: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The class number of each code and the first code of each class.

    See :func:`_canonical_codes` for the meaning of ``kind``.
    """
    out = np.empty(codes.shape[0], dtype=np.int64)
    first = np.empty(codes.shape[0], dtype=np.int64)
    n_classes = call(
        _canonical_serial, codes, np.ascontiguousarray(kind, np.int64), place_values, out, first
    )
    return out, first[:n_classes].copy()

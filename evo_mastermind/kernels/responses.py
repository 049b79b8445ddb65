"""Responses kernels: codes laid out as columns, and the packed responses of guesses to codes.

Guesses and candidates are read as columns (:func:`columns`: pegs and colour counts, one
column a code), so that a guess's responses to every candidate are computed peg by peg and
colour by colour in byte-wide SIMD passes (:func:`_pack`). A response is packed as
``black * (pegs + 1) + white``, in the type :func:`evo_mastermind.codes.packed_dtype` says.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from evo_mastermind.codes import Codes, packed_dtype
from evo_mastermind.kernels.startup import call


@njit(cache=True, nogil=True, inline="always")
def _pack(
    pool_pegs: npt.NDArray[np.uint8],
    pool_counts: npt.NDArray[np.uint8],
    at: int,
    cand_pegs: npt.NDArray[np.uint8],
    cand_counts: npt.NDArray[np.uint8],
    step: np.unsignedinteger[Any],
    packed: npt.NDArray[np.unsignedinteger],
) -> None:
    """The packed responses of guess ``at`` of the pool to every candidate, into ``packed``.

    ``black * pegs + common = black * (pegs + 1) + white``, in byte-wide SIMD passes along
    the candidates (``step`` is a black peg's weight, :func:`weight`).
    """
    m = packed.size
    packed[:] = 0
    for p in range(cand_pegs.shape[0]):
        gp = pool_pegs[p, at]
        for j in range(m):
            packed[j] += step * np.uint8(cand_pegs[p, j] == gp)
    for k in range(cand_counts.shape[0]):
        gk = pool_counts[k, at]
        if gk == 0:
            continue  # a colour the guess lacks adds no common peg
        for j in range(m):
            packed[j] += min(cand_counts[k, j], gk)


@njit(cache=True, nogil=True)
def _columns(
    codes: npt.NDArray[np.uint8], counts: npt.NDArray[np.uint8], candidates: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """The candidates' pegs and colour counts as columns (the layout the scoring loops read)."""
    m = candidates.size
    cand_pegs = np.empty((codes.shape[1], m), dtype=np.uint8)
    cand_counts = np.empty((counts.shape[1], m), dtype=np.uint8)
    for j in range(m):
        c = candidates[j]
        for p in range(codes.shape[1]):
            cand_pegs[p, j] = codes[c, p]
        for k in range(counts.shape[1]):
            cand_counts[k, j] = counts[c, k]
    return cand_pegs, cand_counts


def columns(
    codes: Codes, counts: npt.NDArray[np.uint8], indices: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """Some codes' pegs and colour counts as columns, ``(pegs, k)`` and ``(colors, k)``.

    The layout in which the kernels read guesses and candidates (see :func:`_columns`).
    """
    return call(_columns, codes, counts, np.ascontiguousarray(indices, dtype=np.int64))


def _responses(
    codes: npt.NDArray[np.uint8],
    counts: npt.NDArray[np.uint8],
    guess: int,
    candidates: npt.NDArray[np.int64],
    out: npt.NDArray[np.integer[Any]],
) -> None:
    """Packed responses of one guess against the candidates (indices into ``codes``)."""
    pegs = codes.shape[1]
    colors = counts.shape[1]
    for j in range(candidates.size):
        c = candidates[j]
        blacks = 0
        for p in range(pegs):
            blacks += codes[guess, p] == codes[c, p]
        common = 0
        for k in range(colors):
            common += min(counts[guess, k], counts[c, k])
        out[j] = blacks * pegs + common


_responses_serial = njit(cache=True, nogil=True)(_responses)


def responses(
    codes: Codes, counts: npt.NDArray[np.uint8], guess: int, candidates: npt.NDArray[np.int64]
) -> npt.NDArray[np.unsignedinteger]:
    """Packed responses of one guess (an index) against the candidates (indices)."""
    out: npt.NDArray[np.unsignedinteger] = np.empty(
        candidates.size, dtype=packed_dtype(codes.shape[1])
    )
    call(_responses_serial, codes, counts, guess, candidates, out)
    return out


def weight(pegs: int) -> npt.NDArray[np.unsignedinteger]:
    """The weight of a black peg in a packed response, typed as wide as responses need."""
    return np.array([pegs], dtype=packed_dtype(pegs))

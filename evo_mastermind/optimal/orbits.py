"""The symmetries the optimal search prunes by: one guess per orbit of the guesses played.

Colour and position permutations that fix every guess played map the candidate set onto
itself, so only the least code of each orbit is tried (colours never played are
interchangeable, which the canonical relabelling of unplayed colours covers); these codes
depend on the guesses played only, so the sets those guesses reach share them
(:func:`canonical`), and each search thread keeps the ones it lately worked out
(:func:`canonical_kept`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
from numba import njit

if TYPE_CHECKING:  # guesses imports this module: the type alone, for the checker
    from evo_mastermind.optimal.guesses import Game


@njit(cache=True, nogil=True)
def _stabiliser(
    codes: npt.NDArray[np.uint8],
    colors: int,
    perms: npt.NDArray[np.int64],
    history: npt.NDArray[np.int32],
    played: int,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Position and colour permutations fixing every guess played (played colours only).

    Acting as ``image[sigma[i]] = pi[code[i]]``; unplayed colours are left to the canonical
    relabelling. Returns the position permutations (in the order of ``perms``: every
    permutation, in increasing order) and their colour maps, identity first.

    Built position by position, so that a choice the guesses refute is dropped with every
    permutation it begins (six pegs have 720 permutations; a guess or two leave a handful).
    """
    n_perms, pegs = perms.shape
    sigmas = np.empty((n_perms, pegs), dtype=np.int64)
    maps = np.empty((n_perms, colors), dtype=np.int64)
    mapping = np.full(colors, -1, dtype=np.int64)
    inverse = np.full(colors, -1, dtype=np.int64)
    set_at = np.full(colors, -1, dtype=np.int64)  # the position whose choice set mapping[c]
    choice = np.full(pegs, -1, dtype=np.int64)  # sigma[i] as far as it is chosen
    taken = np.zeros(pegs, dtype=np.bool_)
    found = 0
    i = 0 if n_perms > 0 else -1  # none: a pool of guesses, where no symmetry holds
    while i >= 0:
        if choice[i] >= 0:  # undo position i's choice before trying the next one
            taken[choice[i]] = False
            for c in range(colors):
                if set_at[c] == i:
                    inverse[mapping[c]] = -1
                    mapping[c] = -1
                    set_at[c] = -1
        j = choice[i] + 1
        choice[i] = -1
        while j < pegs:
            if not taken[j]:
                good = True
                for h in range(played):
                    code = codes[history[h]]
                    a, b = code[i], code[j]
                    if mapping[a] >= 0:
                        if mapping[a] != b:
                            good = False
                            break
                    elif inverse[b] >= 0:
                        good = False
                        break
                    else:
                        mapping[a] = b
                        inverse[b] = a
                        set_at[a] = i
                if good:
                    break
                for c in range(colors):  # this choice refuted: undo what it set
                    if set_at[c] == i:
                        inverse[mapping[c]] = -1
                        mapping[c] = -1
                        set_at[c] = -1
            j += 1
        if j == pegs:  # no choice left here: back to the position before
            i -= 1
            continue
        choice[i] = j
        taken[j] = True
        if i < pegs - 1:
            i += 1
            continue
        sigmas[found] = choice
        for c in range(colors):
            maps[found, c] = mapping[c] if mapping[c] >= 0 else c
        found += 1
    return sigmas[:found], maps[:found]


@njit(cache=True, nogil=True, inline="always")  # per orbit: a call cost 10 % of (6,3)
def _mark_orbit(
    code: npt.NDArray[np.uint8],
    colors: int,
    used: npt.NDArray[np.bool_],
    sigmas: npt.NDArray[np.int64],
    maps: npt.NDArray[np.int64],
    image: npt.NDArray[np.int64],
    relabel: npt.NDArray[np.int64],
    seen: npt.NDArray[np.bool_],
) -> None:
    """Marks in ``seen`` every code of the orbit of ``code`` under the symmetries of the history.

    Each image is taken with its unplayed colours relabelled to the least of them in order
    of appearance, as :func:`canonical` lists codes; the identity (``sigmas[0]``) is skipped,
    as ``code`` itself is never looked at again.
    """
    pegs = code.shape[0]
    for k in range(1, sigmas.shape[0]):
        for i in range(pegs):
            image[sigmas[k, i]] = maps[k, code[i]]
        relabel[:] = -1
        fresh = 0
        value = 0
        for i in range(pegs):
            colour = image[i]
            if not used[colour]:
                if relabel[colour] < 0:
                    while used[fresh]:
                        fresh += 1
                    relabel[colour] = fresh
                    fresh += 1
                colour = relabel[colour]
            value = value * colors + colour
        seen[value] = True


@njit(cache=True, nogil=True)
def canonical(
    history: npt.NDArray[np.int32], played: int, game: Game, out: npt.NDArray[np.int32]
) -> int:
    """The least code of every orbit under the symmetries of the guesses played, in order.

    Written to ``out``; returns how many. Every set the same guesses reach shares them.
    """
    codes, colors, _, perms, _, _ = game
    pegs = codes.shape[1]
    colour_used = np.zeros(colors, dtype=np.bool_)
    for h in range(played):
        for colour in codes[history[h]]:
            colour_used[colour] = True
    sigmas, maps = _stabiliser(codes, colors, perms, history, played)
    # With no symmetry but the relabelling of unplayed colours, a code is its orbit's least
    # when its unplayed colours first appear in increasing order, from the least of them.
    symmetric = sigmas.shape[0] > 1
    rank = np.full(colors, -1, dtype=np.int64)
    unplayed = 0
    for colour in range(colors):
        if not colour_used[colour]:
            rank[colour] = unplayed
            unplayed += 1
    if perms.shape[0] == 0:  # a pool of guesses: no code stands for another
        rank[:] = -1
    if not symmetric and (unplayed <= 1 or perms.shape[0] == 0):
        for g in range(codes.shape[0]):  # no symmetry left: every code is its orbit
            out[g] = g
        return codes.shape[0]
    image = np.empty(pegs, dtype=np.int64)
    relabel = np.empty(colors, dtype=np.int64)
    # Codes in increasing order: the first of an orbit not yet seen is its least; its orbit
    # is then marked, so each orbit's images are worked out once, not once per member.
    seen = np.zeros(codes.shape[0] if symmetric else 0, dtype=np.bool_)
    found = 0
    for g in range(codes.shape[0]):
        skip = False
        fresh = 0
        for i in range(pegs):
            colour = codes[g, i]
            if rank[colour] > fresh:
                skip = True
                break
            if rank[colour] == fresh:
                fresh += 1
        if skip:
            continue
        if symmetric:
            if seen[g]:
                continue
            _mark_orbit(codes[g], colors, colour_used, sigmas, maps, image, relabel, seen)
        out[found] = g
        found += 1
    return found


KEPT_PLAYED = 6
"""Guesses played up to which :func:`canonical_kept` keeps the least codes it worked out."""

KEPT_BYTES = 8 << 20
"""Memory a thread's :data:`Kept` may take (a power of two of slots, 64 to 4096)."""

Kept = tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]
"""The least codes of the orbits (:func:`canonical`) lately worked out, one slot per
guesses played: each slot's guesses (how many, then the guesses) and its codes (how many,
then the codes). One thread's: no other writes it."""


def kept_orbits(n_codes: int) -> Kept:
    """An empty :data:`Kept` for a game of ``n_codes`` codes."""
    wanted = KEPT_BYTES // (4 * (n_codes + 1))
    slots = 1 << max(6, min(12, wanted.bit_length() - 1))
    return np.zeros((slots, 1 + KEPT_PLAYED), dtype=np.int32), np.empty(
        (slots, n_codes + 1), dtype=np.int32
    )


@njit(cache=True, nogil=True)
def canonical_kept(
    history: npt.NDArray[np.int32],
    played: int,
    game: Game,
    out: npt.NDArray[np.int32],
    kept: Kept,
) -> int:
    """:func:`canonical`, looked up first among the answers ``kept`` (and kept there).

    The same guesses are played before many sets (the same second guess is tried in every
    part of the opening): their least codes are worked out once, not once a set.
    """
    keys, rows = kept
    if played > KEPT_PLAYED:
        return canonical(history, played, game, out)
    mixed = np.uint64(played)
    for h in range(played):
        mixed = (mixed ^ np.uint64(history[h])) * np.uint64(0x100000001B3)
    slot = int(np.int64((mixed ^ (mixed >> np.uint64(32))) & np.uint64(keys.shape[0] - 1)))
    key = keys[slot]
    same = key[0] == played + 1  # 0: an empty slot
    h = 0
    while same and h < played:
        same = key[1 + h] == history[h]
        h += 1
    row = rows[slot]
    if same:
        found = row[0]
        out[:found] = row[1 : 1 + found]
        return found
    found = canonical(history, played, game, out)
    row[0] = found
    row[1 : 1 + found] = out[:found]
    key[0] = played + 1
    key[1 : 1 + played] = history[:played]
    return found

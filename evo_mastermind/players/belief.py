"""An exact, partly enumerated belief about a large game's secret, for the ``joint`` player.

The belief is a list of weighted *rows*. A row fixes, for some positions, which colour the
secret has there (``-1``: not said), and for every colour how many of its pegs it leaves
*deferred* (somewhere it does not say). For each colour, its *zone* is the set of positions
where every row is explicit about it: a row shows the colour at a zone position exactly when
that row's hypothesis puts it there, and a colour's deferred pegs lie outside its zone.
Every code that agrees with the responses so far is described by exactly one row, so
nothing is ever guessed at: rows are only split (*expanded*: a colour made explicit on more
positions) and filtered by responses.

Weights are the rows' prior probabilities under uniform, independent placement of the
deferred pegs (normalised to sum to one); they steer the choice of guesses, never the truth
of a row.

A guess can be read exactly when every colour in it is explicit where it is played, except
one *filler* colour that is explicit everywhere else (its deferred pegs then all lie where
it is played). A colour tested for the first time is such a filler: the response's total
(blacks + whites) gives its count, the filler is made explicit on the few other pegs, and
the blacks filter the rows.
"""

from __future__ import annotations

import itertools
from functools import cache
from math import comb

import numpy as np
import numpy.typing as npt

from evo_mastermind.codes import Code
from evo_mastermind.game import InconsistentResponsesError

UNSAID = -1
"""A row's entry where it says nothing."""


SHARED_PAIRS = 1 << 22
"""Expansions test one shared list of subsets against every row when that makes at most this
many (row, subset) pairs; otherwise rows are grouped by their open places."""


@cache
def small_subsets(length: int, least: int, most: int) -> npt.NDArray[np.bool_]:
    """Every subset of ``range(length)`` with ``least`` to ``most`` members, as boolean rows."""
    blocks = []
    for size in range(max(least, 0), min(length, most) + 1):
        members = np.array(list(itertools.combinations(range(length), size)), dtype=np.int64)
        block = np.zeros((len(members), length), dtype=bool)
        block[np.arange(len(members))[:, None], members.reshape(len(members), size)] = True
        blocks.append(block)
    return np.concatenate(blocks) if blocks else np.zeros((0, length), dtype=bool)


def _placements(
    open_places: npt.NDArray[np.bool_],
    least: npt.NDArray[np.int64],
    most: npt.NDArray[np.int64],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """Every (row, subset of its open places) with a size in the row's [least, most].

    One list of subsets of the open columns serves every row when it is short; otherwise
    rows that share their open places and bounds share an enumeration of their own.
    """
    columns = np.flatnonzero(open_places.any(axis=0))
    if least.size == 0:
        return np.zeros(0, dtype=np.int64), np.zeros((0, open_places.shape[1]), dtype=bool)
    low, high = int(least.min()), int(most.max())
    shared = sum(comb(columns.size, size) for size in range(max(low, 0), high + 1))
    if shared * open_places.shape[0] <= SHARED_PAIRS:
        local = small_subsets(columns.size, low, high)
        subsets = np.zeros((local.shape[0], open_places.shape[1]), dtype=bool)
        subsets[:, columns] = local
        sizes = subsets.sum(axis=1)
        blocked = (~open_places).astype(np.int64) @ subsets.T.astype(np.int64)
        fits = (sizes[None, :] >= least[:, None]) & (sizes[None, :] <= most[:, None])
        row, choice = np.nonzero((blocked == 0) & fits)
        return row, subsets[choice]
    rows: list[npt.NDArray[np.int64]] = []
    masks: list[npt.NDArray[np.bool_]] = []
    keys = np.concatenate([open_places, least[:, None], most[:, None]], axis=1).astype(np.int64)
    patterns, group = np.unique(keys, axis=0, return_inverse=True)
    for index, pattern in enumerate(patterns):
        members = np.flatnonzero(group.ravel() == index)
        spots = np.flatnonzero(pattern[:-2])
        local = small_subsets(spots.size, int(pattern[-2]), int(pattern[-1]))
        subsets = np.zeros((local.shape[0], open_places.shape[1]), dtype=bool)
        subsets[:, spots] = local
        rows.append(np.repeat(members, local.shape[0]))
        masks.append(np.tile(subsets, (members.size, 1)))
    return np.concatenate(rows), np.concatenate(masks)


def as_bits(masks: npt.NDArray[np.bool_]) -> npt.NDArray[np.uint64]:
    """Each boolean row (at most 64 long) as one 64-bit word, position i as bit i."""
    packed = np.packbits(masks, axis=-1, bitorder="little")
    padded = np.zeros((masks.shape[0], 8), dtype=np.uint8)
    padded[:, : packed.shape[1]] = packed
    return padded.view("<u8")[:, 0]


_BYTE_BITS = np.array([bin(value).count("1") for value in range(256)], dtype=np.int64)


def popcount(words: npt.NDArray[np.uint64]) -> npt.NDArray[np.int64]:
    """The number of set bits of each word."""
    if hasattr(np, "bitwise_count"):  # numpy >= 2
        return np.bitwise_count(words).astype(np.int64)
    as_bytes = np.ascontiguousarray(words).view(np.uint8).reshape(*words.shape, 8)
    return _BYTE_BITS[as_bytes].sum(axis=-1)


@cache
def binomials(top: int) -> npt.NDArray[np.float64]:
    """``table[n, k]`` = C(n, k) for 0 <= k <= n <= top (0 elsewhere)."""
    table = np.zeros((top + 1, top + 1))
    for n in range(top + 1):
        for k in range(n + 1):
            table[n, k] = comb(n, k)
    return table


class JointBelief:
    """Rows of explicit placements and deferred counts (see the module docstring)."""

    def __init__(self, pegs: int, colors: int) -> None:
        self.pegs, self.colors = pegs, colors
        self.rows = np.full((1, pegs), UNSAID, dtype=np.int8)
        self.deferred = np.zeros((1, colors), dtype=np.int16)
        self.weight = np.ones(1)
        self.zone = np.zeros((colors, pegs), dtype=bool)
        self.counts = np.full(colors, -1, dtype=np.int64)
        """Each colour's number of pegs in the secret, -1 while untested."""

    @property
    def unknown_pegs(self) -> int:
        """Pegs of colours not tested yet."""
        return self.pegs - int(self.counts[self.counts >= 0].sum())

    def available(self, colours: npt.NDArray[np.int64] | None = None) -> npt.NDArray[np.int64]:
        """(rows, colours): unsaid positions outside each colour's zone (where it may defer)."""
        outside = ~self.zone if colours is None else ~self.zone[colours]
        # Positions as bits of one word per row: an AND and a popcount per (row, colour).
        common = as_bits(self.rows == UNSAID)[:, None] & as_bits(outside)[None, :]
        return popcount(common)

    def certain(self) -> npt.NDArray[np.bool_]:
        """Positions whose colour every row states, the same in all."""
        first = self.rows[0]
        return (first != UNSAID) & (self.rows == first).all(axis=0)

    def explicit(self, colour: int) -> bool:
        """Whether the colour is explicit at every position."""
        return bool(self.zone[colour].all())

    def expansion_size(self, colour: int, positions: npt.NDArray[np.int64]) -> int:
        """How many rows :meth:`expand` would make (an upper bound)."""
        new = positions[~self.zone[colour, positions]]
        if new.size == 0:
            return len(self.rows)
        open_places = (self.rows[:, new] == UNSAID).sum(axis=1)
        pending = self.deferred[:, colour].astype(np.int64)
        elsewhere = self.available(np.array([colour]))[:, 0] - open_places
        most = np.minimum(open_places, pending)
        least = np.maximum(pending - elsewhere, 0)
        table = binomials(self.pegs)
        sizes = np.zeros(len(self.rows))
        for size in range(int(most.max(initial=0)) + 1):
            sizes += np.where((least <= size) & (size <= most), table[open_places, size], 0.0)
        return int(sizes.sum())

    def learn_count(self, colour: int, count: int) -> None:
        """Record a colour's count; its pegs start deferred."""
        if not 0 <= count <= self.unknown_pegs + max(self.counts[colour], 0):
            raise InconsistentResponsesError.because(
                f"a colour count of {count} leaves no room in the code"
            )
        self.counts[colour] = count
        self.deferred[:, colour] = count
        if count == 0:
            self.zone[colour] = True
        if (self.counts >= 0).all() and self.unknown_pegs:
            raise InconsistentResponsesError.because(
                "every colour is counted but the counts fall short of the pegs"
            )

    def expand(self, colour: int, positions: npt.NDArray[np.int64]) -> None:
        """Make ``colour`` explicit on ``positions``: split every row by where its pegs are."""
        new = positions[~self.zone[colour, positions]]
        if new.size == 0:
            return
        pending = self.deferred[:, colour].astype(np.int64)
        open_places = self.rows[:, new] == UNSAID
        spread = self.available(np.array([colour]))[:, 0]
        opened = open_places.sum(axis=1)
        # Pegs not placed here must still fit in the colour's open places elsewhere.
        least = np.maximum(pending - (spread - opened), 0)
        row, chosen = _placements(open_places, least, np.minimum(pending, opened))
        taken = chosen.sum(axis=1)
        # Prior: the chance that exactly these of the open places hold the deferred pegs.
        spread, opened = spread[row], opened[row]
        table = binomials(self.pegs)
        chance = table[spread - opened, pending[row] - taken] / table[spread, pending[row]]
        rows = self.rows[row]
        block = rows[:, new]
        block[chosen] = colour
        rows[:, new] = block
        deferred = self.deferred[row]
        deferred[:, colour] -= taken.astype(np.int16)
        self.zone[colour, new] = True
        self._keep_rows(rows, deferred, self.weight[row] * chance)

    def observe(self, guess: Code, black: int, white: int, filler: int | None) -> None:
        """Filter the rows by a response (expanding first so that the guess can be read).

        Args:
            guess: the code played.
            black: its blacks.
            white: its whites.
            filler: the colour read through its complement (a colour tested for the first
                time must be the filler); every other colour in the guess has a count.
        """
        code = guess.astype(np.int64)
        played = np.bincount(code, minlength=self.colors)
        common = 0
        for colour in np.flatnonzero(played):
            if colour == filler:
                continue
            if self.counts[colour] < 0:
                raise ValueError(f"colour {colour} is played before it is counted")
            common += min(int(played[colour]), int(self.counts[colour]))
            self.expand(int(colour), np.flatnonzero(code == colour))
        if filler is not None:
            if self.counts[filler] < 0:
                self.learn_count(filler, black + white - common)
            common += min(int(played[filler]), int(self.counts[filler]))
            self.expand(filler, np.flatnonzero(code != filler))
        if black + white != common:
            raise InconsistentResponsesError.because(
                f"({black}, {white}) has {black + white} right colours, not {common}"
            )
        hits = (self.rows == code[None, :]).sum(axis=1)
        if filler is not None:
            hits = hits + self.deferred[:, filler]
        keep = hits == black
        self._keep_rows(self.rows[keep], self.deferred[keep], self.weight[keep])

    def settle(self, cap: int) -> None:
        """Make colours explicit everywhere while that keeps at most ``cap`` rows."""
        everywhere = np.arange(self.pegs)
        changed = True
        while changed:
            changed = False
            for colour in np.flatnonzero(self.counts > 0).tolist():
                if not self.explicit(colour) and self.expansion_size(colour, everywhere) <= cap:
                    self.expand(colour, everywhere)
                    changed = True

    def _fill_forced(self) -> None:
        """Where a row has exactly as many open places for a colour as deferred pegs, fill them."""
        for colour in np.flatnonzero(self.deferred.any(axis=0)):
            open_places = (self.rows == UNSAID) & ~self.zone[colour][None, :]
            pending = self.deferred[:, colour]
            forced = (pending > 0) & (open_places.sum(axis=1) == pending)
            if forced.any():
                self.rows[forced] = np.where(open_places[forced], colour, self.rows[forced])
                self.deferred[forced, colour] = 0
        for colour in np.flatnonzero(self.counts >= 0):
            if not self.deferred[:, colour].any():
                self.zone[colour] = True

    def _keep_rows(
        self,
        rows: npt.NDArray[np.int8],
        deferred: npt.NDArray[np.int16],
        weight: npt.NDArray[np.float64],
    ) -> None:
        """Install rows, drop those whose deferred pegs cannot fit, renormalise."""
        self.rows, self.deferred = rows, deferred
        unsaid = (rows == UNSAID).sum(axis=1)
        fits = deferred.sum(axis=1) + self.unknown_pegs <= unsaid
        hidden = np.flatnonzero(deferred.any(axis=0))
        fits &= (deferred[:, hidden] <= self.available(hidden)).all(axis=1)
        fits &= weight > 0
        self.rows, self.deferred, weight = rows[fits], deferred[fits], weight[fits]
        if len(self.rows) == 0:
            raise InconsistentResponsesError.because("no code agrees with every response")
        self.weight = weight / weight.sum()
        self._fill_forced()

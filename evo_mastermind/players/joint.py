"""``joint``: this project's constructive player for large games (not a published algorithm).

It keeps Rao's shape (brENIAC, Dekel et al.; team FBI): each colour is tested once, as a *filler* on
most free pegs, while the other pegs *probe* colours already counted (the last colour is not tested:
it takes the pegs the others leave). Where Rao probes one peg per guess and reads the response by
six rules, ``joint`` probes up to ``max_probes`` pegs and reads every response exactly with a
:class:`~evo_mastermind.players.belief.JointBelief` (weighted rows of explicit placements with
deferred pegs). The probes are chosen greedily to maximise the entropy of the guess's blacks over
the rows (a weighted sample of at most ``probe_sample`` rows), keeping the rows within ``row_cap``.

When several untested colours are likely all absent (judged from the share of absent colours
so far, or from how few pegs are left uncounted), they are *group tested*: each on an equal
share of the open pegs. A total of 0 (blacks + whites, less the counted colours) rules them
all out at once; otherwise they are tested one by one, and a total too small to have filled
any share gives the last one's count. A positive group test's blacks are not read, so the
belief then keeps every consistent code but may keep a few more.

Once every colour is counted, guesses are probes on a *background* colour: an absent colour
when there is one, else a colour explicit everywhere, else the colour explicit on most
positions (read through its complement, like a filler). Colours are made explicit
everywhere as soon as that fits in ``row_cap`` rows; once all are, the player plays the row
(a code consistent with every response) whose blacks split the rows best, unless a probe
splits them clearly better.

Randomness: the colour order when ``random``, and the row sample, both from the game's
generator. Responses no code could give raise
:class:`~evo_mastermind.game.InconsistentResponsesError`.
"""

from __future__ import annotations

from typing import ClassVar, Literal

import numpy as np
import numpy.typing as npt
from pydantic import Field

from evo_mastermind.codes import Code, CodeSpace
from evo_mastermind.game import InconsistentResponsesError
from evo_mastermind.players.base import Player, PlayerParams, register_player
from evo_mastermind.players.belief import UNSAID, JointBelief
from evo_mastermind.players.cost import Cost
from evo_mastermind.scoring import Response

ENDGAME_ROWS = 300
"""At most this many rows (the likeliest) are weighed as guesses in the endgame."""

MIN_GAIN = 0.02
"""Bits a further probe must add to the blacks' entropy to be worth its rows."""

GROUP_ODDS = 0.5
"""A group test is played when all its colours are absent with at least this chance."""

MAX_GROUP = 8
"""The most new colours in one group test."""

Probe = tuple[int, int]
"""A probe: (position, colour)."""


class JointParams(PlayerParams):
    """Options of the ``joint`` player."""

    color_order: Literal["alphabetical", "random"] = "alphabetical"
    """The order colours are tested in, ``alphabetical`` or ``random``."""
    row_cap: int = Field(20_000, ge=64, le=1_000_000)
    """The most rows the belief may grow to when choosing probes."""
    probe_sample: int = Field(1_000, ge=16, le=100_000)
    """Rows sampled (by weight) to score probes when there are more."""
    max_probes: int = Field(16, ge=1, le=64)
    """The most probes in one guess."""
    group_tests: bool = True
    """Test several new colours in one guess when they are likely all absent."""


def entropy(shares: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Entropy in bits of each row of a matrix of shares (rows sum to one)."""
    safe = np.where(shares > 1e-12, shares, 1.0)
    return -(shares * np.log2(safe)).sum(axis=-1)


@register_player("joint")
class JointPlayer(Player[JointParams]):
    """Rao-style colour tests with many probes per guess, read by exact joint inference."""

    Params = JointParams

    # Measured on this machine (10 games each): 9 ms a game on (8,12), 80 ms on (16,16),
    # 0.58 s and 18.6 MB on (26,26): the square of pegs x colours, 1 µs a unit.
    SECONDS_PER_CELL_SQUARED: ClassVar[float] = 1e-6
    BYTES_PER_ROW_CELL: ClassVar[int] = 10
    """Bytes a belief row takes per column (the rows, their copies while probes are scored,
    the weights): 9.3 MB measured on (16,16), 18.6 MB on (26,26)."""

    @classmethod
    def estimate(cls, params: PlayerParams, space: CodeSpace) -> Cost:
        """Time: the square of pegs x colours; memory: the belief at ``row_cap`` rows."""
        assert isinstance(params, JointParams)
        cells = space.pegs * space.colors
        row = space.pegs + 2 * space.colors + 8  # a row's pegs, deferred counts, weight
        memory = params.row_cap * row * cls.BYTES_PER_ROW_CELL
        return Cost(seconds=cells**2 * cls.SECONDS_PER_CELL_SQUARED, memory=memory)

    def __init__(self, space: CodeSpace, params: JointParams | None = None) -> None:
        super().__init__(space, params)
        self.start(np.random.default_rng(0))

    def start(self, rng: np.random.Generator) -> None:
        """Begin a game: nothing known; shuffle the colours when the order is random."""
        self.rng = rng
        self.belief = JointBelief(self.space.pegs, self.space.colors)
        colours = np.arange(self.space.colors)
        if self.params.color_order == "random":
            colours = rng.permutation(self.space.colors)
        self.order = [int(c) for c in colours]
        self.filler: int | None = None
        self.group: list[int] = []  # the colours of a pending group test
        self.group_room = 0  # the fewest pegs any of them covered
        # Positive group tests: their colours, and their total when no share was filled.
        self.sums: list[tuple[list[int], int | None]] = []

    # -- guessing ------------------------------------------------------------------------

    def ask(self) -> Code:
        """Test the next colour with probes, or probe on a background, or play a row."""
        belief = self.belief
        self._infer_from_sums()
        untested = [c for c in self.order if belief.counts[c] < 0]
        if len(untested) == 1 and belief.unknown_pegs > 0:
            belief.learn_count(untested[0], belief.unknown_pegs)  # the last colour takes the rest
        if belief.unknown_pegs == 0:
            for absent in np.flatnonzero(belief.counts < 0).tolist():
                belief.learn_count(absent, 0)  # every peg is counted: the rest are absent
            belief.settle(self.params.row_cap)
        certain = belief.certain()
        open_positions = np.flatnonzero(~certain)
        if belief.unknown_pegs > 0:
            size = self._group_size(untested, open_positions.size)
            if size > 1:
                return self._group_test(untested[:size], certain, open_positions)
            colour = untested[0]
            room = open_positions.size - belief.unknown_pegs  # the filler must cover the rest
            growth = np.full(self.space.pegs, 2.0)  # the filler may sit under any probe
            probes, _ = self._choose_probes(
                open_positions, min(room, self.params.max_probes), growth
            )
            self.filler = colour
            return self._compose(colour, certain, probes)
        background = self._background()
        growth = np.where(belief.zone[background], 1.0, 2.0)
        probes, gain = self._choose_probes(
            open_positions, self.params.max_probes, growth, background
        )
        if all(belief.explicit(c) for c in np.flatnonzero(belief.counts > 0).tolist()):
            row, row_gain = self._best_row()
            if row_gain >= gain - MIN_GAIN or not probes:
                self.filler = None
                return row
        if not probes:
            self._force_progress()
            return self.ask()
        self.filler = background
        return self._compose(background, certain, probes)

    def _group_size(self, untested: list[int], open_count: int) -> int:
        """How many new colours to test at once (1: a single test with probes).

        The chance that k new colours are all absent is taken as the larger of two
        estimates: the share of absent colours so far (with one absent and one present
        colour added) to the power k, and the chance that the uncounted pegs all avoid k
        of the untested colours when spread uniformly over them.
        """
        counts = self.belief.counts
        pending = any(any(counts[c] < 0 for c in colours) for colours, _ in self.sums)
        if not self.params.group_tests or pending or len(untested) < 3:
            return 1
        tested = int((counts >= 0).sum())
        absent_share = (int((counts == 0).sum()) + 1) / (tested + 2)
        left, untried = self.belief.unknown_pegs, len(untested)
        size = 1
        for k in range(2, min(untried - 1, MAX_GROUP, open_count) + 1):
            spread_odds = ((untried - k) / untried) ** left
            if max(absent_share**k, spread_odds) >= GROUP_ODDS:
                size = k
        return size

    def _group_test(
        self,
        colours: list[int],
        certain: npt.NDArray[np.bool_],
        open_positions: npt.NDArray[np.int64],
    ) -> Code:
        """New colours on equal shares of the open pegs: a total of 0 rules them all out."""
        guess = np.zeros(self.space.pegs, dtype=np.uint8)
        guess[certain] = self.belief.rows[0, certain]
        shares = np.array_split(open_positions, len(colours))
        for colour, share in zip(colours, shares, strict=True):
            guess[share] = colour
        self.group, self.group_room = colours, min(share.size for share in shares)
        self.filler = None
        return guess

    def _infer_from_sums(self) -> None:
        """A group's last uncounted colour has what its total leaves."""
        counts = self.belief.counts
        for colours, total in self.sums:
            uncounted = [c for c in colours if counts[c] < 0]
            if len(uncounted) == 1 and total is not None:
                others = sum(int(counts[c]) for c in colours if c != uncounted[0])
                self.belief.learn_count(uncounted[0], total - others)

    def _compose(self, fill: int, certain: npt.NDArray[np.bool_], probes: list[Probe]) -> Code:
        guess = np.full(self.space.pegs, fill, dtype=np.uint8)
        guess[certain] = self.belief.rows[0, certain]
        for position, colour in probes:
            guess[position] = colour
        return guess

    def _background(self) -> int:
        counts, belief = self.belief.counts, self.belief
        absent = np.flatnonzero(counts == 0)
        if absent.size:
            return int(absent[0])
        present = np.flatnonzero(counts > 0)
        coverage = belief.zone[present].sum(axis=1) * (self.space.pegs + 1) + counts[present]
        return int(present[np.argmax(coverage)])

    def _force_progress(self) -> None:
        """No probe is informative yet: make the cheapest colour explicit somewhere more."""
        belief = self.belief
        everywhere = np.arange(self.space.pegs)
        present = np.flatnonzero(belief.counts > 0).tolist()
        hidden = [c for c in present if not belief.explicit(c)]
        sizes = [belief.expansion_size(c, everywhere) for c in hidden]
        colour = hidden[int(np.argmin(sizes))]
        if min(sizes) <= 20 * self.params.row_cap:
            belief.expand(colour, everywhere)
        else:
            spot = np.flatnonzero(~belief.zone[colour] & (belief.rows == UNSAID).any(axis=0))
            belief.expand(colour, spot[:1])

    def _sample(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
        """Rows to score probes on, and their weights."""
        count = len(self.belief.rows)
        if count <= self.params.probe_sample:
            return np.arange(count), self.belief.weight
        size = self.params.probe_sample
        picked = self.rng.choice(count, size=size, p=self.belief.weight)
        return picked, np.full(size, 1.0 / size)

    def _choose_probes(
        self,
        positions: npt.NDArray[np.int64],
        limit: int,
        growth: npt.NDArray[np.float64],
        background: int | None = None,
    ) -> tuple[list[Probe], float]:
        """Greedy probes maximising the entropy of the blacks; their entropy in bits.

        ``growth[p]`` is the factor by which a probe at ``p`` multiplies the rows before any
        probe colour is made explicit there (2 when the filler may sit under it). A counted
        ``background`` on the other open pegs adds its own blacks, which a probe removes
        where it covers one. A colour's chance to be at a position is exact on the sampled
        rows where it is explicit, else its mean chance of a deferred peg per open place.
        """
        belief = self.belief
        colors, pegs = self.space.colors, self.space.pegs
        candidate = belief.counts > 0
        if background is not None:
            candidate[background] = False
        if limit <= 0 or positions.size == 0 or not candidate.any():
            return [], 0.0
        picked, weight = self._sample()
        # Row entries shifted by one: 0 for unsaid, 1 + colour otherwise.
        entries = belief.rows[picked][:, positions].astype(np.int64) + 1
        unsaid = (entries == 0).astype(np.float64)
        spread = belief.available()[picked]
        chance = np.divide(
            belief.deferred[picked], spread, out=np.zeros(spread.shape), where=spread > 0
        )
        mean_chance = weight @ chance
        explicit = belief.zone[:, positions].T  # (positions, colours)
        from scipy import sparse  # heavy; only this player needs it

        # One-hot of (position, entry) per sampled row: grouping rows is one sparse product.
        slots = (np.arange(positions.size) * (colors + 1))[None, :] + entries
        width = positions.size * (colors + 1)
        onehot = sparse.csr_matrix(
            (np.ones(slots.size), slots.ravel(), np.arange(0, slots.size + 1, positions.size)),
            shape=(picked.size, width),
        ).T.tocsr()

        def grouped(values: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
            """Per (position, entry, level): sums of ``values`` (rows, levels) by entry."""
            sums = np.asarray(onehot @ values)
            return sums.reshape(positions.size, colors + 1, values.shape[1])

        def presence_sums(values: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
            """Per (position, colour, level): ``values`` weighted by each row's chance."""
            sums = grouped(values)
            guessed = mean_chance[None, :, None] * sums[:, :1, :]
            return np.where(explicit[:, :, None], sums[:, 1:], guessed)

        def background_sums(
            values: npt.NDArray[np.float64], colour: int
        ) -> npt.NDArray[np.float64]:
            """Per (position, level): ``values`` summed over rows with ``colour`` there."""
            exact = grouped(values)[:, colour + 1]
            guessed = grouped(chance[:, colour][:, None] * values)[:, 0]
            return np.where(explicit[:, colour][:, None], exact, guessed)

        marginal = presence_sums(weight[:, None])[:, :, 0]
        useful = candidate[None, :] & (marginal > 1e-9) & (marginal < 1 - 1e-9)
        cost = growth[positions][:, None] * np.where(explicit, 1.0, 2.0)
        blacks = np.zeros((picked.size, pegs + 1))
        if background is None or belief.counts[background] == 0:
            blacks[:, 0] = 1.0
        else:
            on_open = (entries == background + 1).sum(axis=1)
            if not belief.explicit(background):
                on_open = on_open + belief.deferred[picked, background]
            blacks[np.arange(picked.size), on_open] = 1.0
        total_rows, spent, best = len(belief.rows), 1.0, 0.0
        probes: list[Probe] = []
        for _ in range(limit):
            allowed = useful & (total_rows * spent * cost <= self.params.row_cap)
            if not allowed.any():
                break
            up = np.zeros_like(blacks)
            up[:, 1:] = blacks[:, :-1]
            up = weight[:, None] * (up - blacks)
            shares = (weight @ blacks) + presence_sums(up)
            if background is not None and belief.counts[background] > 0:
                down = np.zeros_like(blacks)
                down[:, :-1] = blacks[:, 1:]
                down = weight[:, None] * (down - blacks)
                shares = shares + background_sums(down, background)[:, None, :]
            scores = np.where(allowed, entropy(shares), -1.0)
            i, j = np.unravel_index(int(np.argmax(scores)), scores.shape)
            if scores[i, j] <= best + MIN_GAIN:
                break
            best = float(scores[i, j])
            hit = self._presence(entries[:, i], unsaid[:, i], chance, explicit[i], int(j))
            gone = np.zeros(picked.size)
            if background is not None and belief.counts[background] > 0:
                gone = self._presence(entries[:, i], unsaid[:, i], chance, explicit[i], background)
            moved = blacks * (1 - hit - gone)[:, None]
            moved[:, 1:] += blacks[:, :-1] * hit[:, None]
            moved[:, :-1] += blacks[:, 1:] * gone[:, None]
            blacks = moved
            spent *= cost[i, j]
            useful[i, :] = False
            probes.append((int(positions[i]), int(j)))
        return probes, best

    @staticmethod
    def _presence(
        entries: npt.NDArray[np.int64],
        unsaid: npt.NDArray[np.float64],
        chance: npt.NDArray[np.float64],
        explicit: npt.NDArray[np.bool_],
        colour: int,
    ) -> npt.NDArray[np.float64]:
        """Each sampled row's chance of having ``colour`` at one position."""
        if explicit[colour]:
            return (entries == colour + 1).astype(np.float64)
        return unsaid * chance[:, colour]

    def _best_row(self) -> tuple[Code, float]:
        """The row (a consistent code) whose blacks split the rows best, and that entropy."""
        belief = self.belief
        order = np.argsort(-belief.weight, kind="stable")[:ENDGAME_ROWS]
        rows = belief.rows.astype(np.int64)
        picked, weight = self._sample()
        scored = rows[picked]
        scores = np.empty(order.size)
        for index, candidate in enumerate(rows[order]):
            blacks = (scored == candidate).sum(axis=1)
            shares = np.bincount(blacks, weight, self.space.pegs + 1).astype(np.float64)
            # A row may be the secret: its own chance breaks near-ties in its favour.
            scores[index] = entropy(shares) + belief.weight[order[index]]
        best = int(np.argmax(scores))
        return rows[order[best]].astype(np.uint8), float(scores[best])

    # -- reading responses ---------------------------------------------------------------

    def tell(self, guess: Code, response: Response) -> None:
        """Filter the belief by the response; make colours explicit when cheap."""
        if self.group:
            self._read_group(guess, response)
        else:
            self.belief.observe(guess, response.black, response.white, self.filler)
        growing = self.belief.unknown_pegs > 0
        self.belief.settle(len(self.belief.rows) if growing else self.params.row_cap)

    def _read_group(self, guess: Code, response: Response) -> None:
        """A group test's total: 0 rules every colour out; a small total is kept."""
        belief, group = self.belief, self.group
        self.group = []
        played = np.bincount(guess, minlength=self.space.colors)
        known = sum(
            min(int(played[c]), int(belief.counts[c]))
            for c in np.flatnonzero(played).tolist()
            if c not in group
        )
        total = response.black + response.white - known
        if not 0 <= total <= belief.unknown_pegs:
            raise InconsistentResponsesError.because(
                f"{response} leaves {total} pegs to colours never played before"
            )
        if total == 0:
            for colour in group:
                belief.learn_count(colour, 0)
            belief.observe(guess, response.black, response.white, None)
        else:  # when no colour can have filled its share, the total is their exact sum
            self.sums.append((group, total if total < self.group_room else None))

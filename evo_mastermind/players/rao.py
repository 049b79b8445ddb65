"""Rao's constructive player (1982) as brENIAC (Dekel et al.) and team FBI (Lama et al.) play it.

The player keeps a *filler* queue (colours not yet tested, alphabetical or shuffled), a list
of *targets* (one row per known peg of a colour, in the order found), each with its
possible locations, and the pegs already located. While no target is unplaced it guesses
one untested colour on every free peg. Otherwise it puts the first unplaced target at its
first possible location ``p`` and the next filler on every other free peg; once every peg's
colour is known (or no filler is left) the filler is a substitute: the colour of the first
later unplaced target of another colour. Located pegs are always played at their place, and
their blacks are subtracted before a response is read (brENIAC, Dekel et al., Table 1):

====================  ==========================================================
response (less the    reading
located pegs)
====================  ==========================================================
no target: (b, 0)     the filler occurs b times (rules 1, 2)
(b, 0)                the target is at ``p``; the filler occurs b - 1 times (rule 4)
(b, 1)                the target is not at ``p`` and neither is the filler; the filler
                      occurs b times (rules 3, 5)
(b, 2)                the filler is at ``p``; it occurs b + 1 times (rule 6)
====================  ==========================================================

New targets may be anywhere free (less ``p``, see below). A located peg leaves every other
target's list, a list of one locates its target, and so on until nothing changes (brENIAC's
"arc consistency", Dekel et al.). A response that no code could give raises
:class:`~evo_mastermind.game.InconsistentResponsesError`.

The two seeds differ in two conventions, chosen by the ``variant`` option:

- ``breniac`` (brENIAC, Dekel et al., the default): on a (b, 1) response the probed position
  leaves the lists of every target of the target's colour and of the filler's colour, and new
  filler targets start without it (Table 1, rule 5: "remove that location from fillers'
  TPLs"). This is what Table 2's guesses need: only with it does the eleventh response
  locate the last G, then C, by arc consistency.
- ``fbi`` (team FBI): only the probed target's own row loses the position and new filler
  targets may still be at it (the trace lists D at [0, 1, 2, 3, 4] after CDDDD (1,1), and
  G at [0, 2, 3, 4] after GCDGG). Its "Advance Fix" (sharing exclusions between rows of one
  colour) was never built, so it is not done here either.

The default is ``breniac``: its lists keep strictly more of what each response says, and it
needs fewer guesses (``benchmarks/results/constructive.json``: 13.9 against 15.5 on
InsertColors (8,10), 65.6 against 80.8 on (22,24)). The ``fbi`` variant reproduces seed
001's own tournament figures (15.56 at (8,10); 79.78 at (22,24), 94% of rounds won): 15.48,
and 80.79 with 93% won.

Where brENIAC's (Dekel et al.) Table 2 disagrees with itself this module follows the algorithm
and the responses: row 10 is printed ``GCCHFHAH``, which would draw (3,4) from ``HCHGFCAG``, not
the printed (5,1); the algorithm's guess ``GCCGFGAG`` draws (5,1). Row 12 is printed
``HCHGFCAH`` with a win, but the winning guess is the secret ``HCHGFCAG``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Literal

import numpy as np

from evo_mastermind.codes import LETTERS, Code, CodeSpace
from evo_mastermind.game import InconsistentResponsesError
from evo_mastermind.players.base import Player, PlayerParams, register_player
from evo_mastermind.players.cost import Cost
from evo_mastermind.scoring import Response

UNKNOWN = -1
"""A peg whose colour is not located yet."""


class RaoParams(PlayerParams):
    """Options of Rao's player."""

    color_order: Literal["alphabetical", "random"] = "alphabetical"
    """The order fillers are tried in: ``alphabetical`` (brENIAC's Alpha, and FBI) or
    ``random`` (brENIAC's Random: a shuffle from the game's generator)."""
    variant: Literal["breniac", "fbi"] = "breniac"
    """``breniac`` (brENIAC's rules, default) or ``fbi`` (team FBI's trace)."""


@dataclass
class Target:
    """One peg of a known colour: where it may be, and where it is once located."""

    colour: int
    places: set[int]
    position: int | None = None


@dataclass(frozen=True)
class Probe:
    """What the last guess tested, to read its response.

    Attributes:
        target: index of the target placed at ``position`` (``None``: a one-colour guess).
        position: where the target was placed.
        filler: the colour on every other free peg.
        fresh: whether the filler was untested (else a substitute from the targets).
        complete: the guess was the only code left (any response but a win is a lie).
    """

    target: int | None
    position: int
    filler: int
    fresh: bool
    complete: bool = False


@dataclass
class RaoState:
    """Everything one game has learnt."""

    solution: list[int]
    fillers: list[int]
    targets: list[Target] = field(default_factory=list)
    probe: Probe | None = None


@register_player("rao")
class RaoPlayer(Player[RaoParams]):
    """Rao (1982) with brENIAC's response table and arc consistency; plays any size."""

    Params = RaoParams

    # Measured on this machine, 20 games each: 0.26 ms a game on (8,12), 0.67 ms on
    # (16,16), 2.4 ms on (26,26) (about 3.5 µs a peg-colour cell), under 0.3 MB added.
    SECONDS_PER_PEG_COLOUR: ClassVar[float] = 3.5e-6

    @classmethod
    def estimate(cls, params: PlayerParams, space: CodeSpace) -> Cost:
        """A game grows with pegs x colours (the response table and its arc consistency)."""
        cells = space.pegs * space.colors
        return Cost(seconds=cells * cls.SECONDS_PER_PEG_COLOUR, memory=2**20 + 1024 * cells)

    def __init__(self, space: CodeSpace, params: RaoParams | None = None) -> None:
        super().__init__(space, params)
        self.state = self._new_state(np.random.default_rng(0))

    @property
    def deterministic(self) -> bool:
        """Alphabetical colour order uses no randomness."""
        return self.params.color_order == "alphabetical"

    def _new_state(self, rng: np.random.Generator) -> RaoState:
        colours = list(range(self.space.colors))
        if self.params.color_order == "random":
            colours = [int(c) for c in rng.permutation(self.space.colors)]
        return RaoState(solution=[UNKNOWN] * self.space.pegs, fillers=colours)

    def start(self, rng: np.random.Generator) -> None:
        """Forget the last game; shuffle the fillers when the colour order is random."""
        self.state = self._new_state(rng)

    # -- guessing ------------------------------------------------------------------------

    def ask(self) -> Code:
        """The next guess: one colour, or a target at its next place among fillers."""
        state = self.state
        pegs = self.space.pegs
        current = next((i for i, t in enumerate(state.targets) if t.position is None), None)
        if current is None:
            if len(state.targets) == pegs:
                state.probe = Probe(None, 0, 0, fresh=False, complete=True)
                return self._code(state.solution)
            if not state.fillers:
                raise InconsistentResponsesError.because(
                    "every colour is tested but fewer pegs than the code has"
                )
            state.probe = Probe(None, 0, state.fillers[0], fresh=True)
            return self._fill(state.fillers[0])
        target = state.targets[current]
        position = min(target.places)
        if len(state.targets) < pegs and state.fillers:
            state.probe = Probe(current, position, state.fillers[0], fresh=True)
        else:
            substitute = next(
                (
                    t.colour
                    for t in state.targets[current + 1 :]
                    if t.position is None and t.colour != target.colour
                ),
                None,
            )
            if substitute is None:
                # Every free peg holds the target's colour: that is the code.
                state.probe = Probe(current, position, target.colour, fresh=False, complete=True)
                return self._fill(target.colour)
            state.probe = Probe(current, position, substitute, fresh=False)
        guess = self._fill(state.probe.filler)
        guess[position] = target.colour
        return guess

    def _fill(self, colour: int) -> Code:
        """The located pegs at their places, ``colour`` on every free peg."""
        return self._code([colour if c == UNKNOWN else c for c in self.state.solution])

    @staticmethod
    def _code(colours: list[int]) -> Code:
        return np.array(colours, dtype=np.uint8)

    # -- reading responses ---------------------------------------------------------------

    def tell(self, guess: Code, response: Response) -> None:
        """Read the response to the last guess by the six rules, then settle the lists."""
        state = self.state
        probe = state.probe
        if probe is None:
            raise RuntimeError("tell() needs the guess that ask() returned")
        state.probe = None
        located = sum(c != UNKNOWN for c in state.solution)
        black, white = response.black - located, response.white
        if probe.complete:
            raise InconsistentResponsesError.because(
                f"{self.space.format(guess)} is the only code left but drew {response}"
            )
        if black < 0:
            raise InconsistentResponsesError.because(
                f"{response} has fewer blacks than the {located} located pegs"
            )
        free = {p for p, c in enumerate(state.solution) if c == UNKNOWN}
        if probe.target is None:
            if white:
                raise InconsistentResponsesError.because(
                    f"a one-colour guess drew whites: {response}"
                )
            state.fillers.remove(probe.filler)
            self._add_targets(probe.filler, black, free)
        elif white > 2:
            raise InconsistentResponsesError.because(f"a guess with one target drew {white} whites")
        else:
            self._read_probe(probe, black, white, free)
        self._settle()
        if len(state.targets) < self.space.pegs and not state.fillers:
            raise InconsistentResponsesError.because(
                "every colour is tested but the counts fall short of the pegs"
            )

    def _read_probe(self, probe: Probe, black: int, white: int, free: set[int]) -> None:
        state = self.state
        assert probe.target is not None
        target = state.targets[probe.target]
        position = probe.position
        # The filler's pegs elsewhere are all blacks; white tells who owns the probed peg.
        owner_is_filler, owner_is_target = white == 2, white == 0
        others = free - {position}
        if probe.fresh:
            state.fillers.remove(probe.filler)
            count = black - owner_is_target
            if count < 0:
                raise InconsistentResponsesError.because(
                    f"the target was placed but blacks were {black}"
                )
            if owner_is_filler:
                self._add_targets(probe.filler, 1, {position})
                self._lock(len(state.targets) - 1, position)
            elif white == 1 and self.params.variant == "fbi":
                others = free
            self._add_targets(probe.filler, count, others)
        else:
            expected = self._unplaced(probe.filler) - owner_is_filler + owner_is_target
            if black != expected:
                raise InconsistentResponsesError.because(
                    f"blacks {black} where the known counts give {expected}"
                )
            if owner_is_filler:
                self._lock(self._row_for(probe.filler, position), position)
        if owner_is_target:
            self._lock(probe.target, position)
        elif white == 1:
            if self.params.variant == "fbi":
                target.places.discard(position)
            else:
                for row in state.targets:
                    if row.position is None and row.colour in (target.colour, probe.filler):
                        row.places.discard(position)

    def _add_targets(self, colour: int, count: int, places: set[int]) -> None:
        targets = self.state.targets
        targets.extend(Target(colour, set(places)) for _ in range(count))
        if len(targets) > self.space.pegs:
            raise InconsistentResponsesError.because(
                f"the colour counts add up to {len(targets)} pegs"
            )

    def _unplaced(self, colour: int) -> int:
        return sum(t.colour == colour and t.position is None for t in self.state.targets)

    def _row_for(self, colour: int, position: int) -> int:
        """The first unplaced target of ``colour`` that may be at ``position``."""
        for index, row in enumerate(self.state.targets):
            if row.position is None and row.colour == colour and position in row.places:
                return index
        raise InconsistentResponsesError.because(f"no {LETTERS[colour]} can be at peg {position}")

    def _lock(self, index: int, position: int) -> None:
        state = self.state
        row = state.targets[index]
        if position not in row.places or state.solution[position] != UNKNOWN:
            raise InconsistentResponsesError.because(
                f"peg {position} cannot take the target placed there"
            )
        row.position, row.places = position, {position}
        state.solution[position] = row.colour

    def _settle(self) -> None:
        """Arc consistency: located pegs leave every list; a list of one locates its target."""
        state = self.state
        changed = True
        while changed:
            changed = False
            free = {p for p, c in enumerate(state.solution) if c == UNKNOWN}
            for index, row in enumerate(state.targets):
                if row.position is not None:
                    continue
                row.places &= free
                if not row.places:
                    raise InconsistentResponsesError.because(
                        "a known peg of a colour has nowhere left to be"
                    )
                if len(row.places) == 1:
                    position = next(iter(row.places))
                    self._lock(index, position)
                    free.discard(position)
                    changed = True

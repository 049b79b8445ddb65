"""Stijn Helsen's ``fcol`` (``fcol_a_05``, MATLAB Central contest winner): colours, then positions.

Small spaces (fewer than ``enumerate_below`` codes, 50,000 in the contest) are listed and
sieved: play a random consistent code, drop every code the response rules out, until one
is left. Larger games go in two steps:

1. **Find the colours** (``findcols``). Colours are tried in alphabetical order. Until a
   colour is known to occur, a guess is one colour on every free peg. Then one peg, the
   first free position not yet ruled out for the *located colour* ``l``, takes ``l`` and
   the other free pegs take the colour under test. The whites say who owns the probed peg
   (0: ``l``; 2: the tested colour; 1: neither), so each guess both counts a colour and
   often places a peg. When ``l`` has as many free places left as it has pegs, they are
   filled; when ``l`` is used up, the colour with the most pegs still to place becomes ``l``.
   The last colour is not tested: it takes the remaining pegs. A *neutral* colour (absent,
   or with every peg placed) fills free pegs later; when there is none, the linear search
   goes on with ``l`` against the colour with the most pegs until one of the two is used up.
   As in the seed, only a tested or used-up colour counts as neutral: colours left untested
   because the counts already add up to the pegs are not (so an A/B code is placed by
   that linear search).
2. **Place each colour** (``ffc``), most pegs first, the last colour taking what is left:
   binary search over the free pegs (the colour on the first half, the neutral colour
   elsewhere: the blacks count its pegs there), recursing on both halves. A region shorter
   than ``region_prune_below`` (14) with more than one peg to place is solved by pruning
   (``ffclp``): every placement of the pegs in the region is a candidate; the first guess
   puts the colour on the region's second half, the second on its first and last quarters,
   and later ones on the subset whose black counts split the candidates most evenly (least
   sum of squared part sizes, the first such subset in the contest's order).

The only randomness is the sieve's choice among consistent codes, drawn from the game's
generator; large games are deterministic. The contest's own guess limit handling is left to
the game loop: every guess is a valid code, and responses no code could give raise
:class:`~evo_mastermind.game.InconsistentResponsesError`.
"""

from __future__ import annotations

from collections.abc import Generator
from functools import cache
from typing import ClassVar

import numpy as np
import numpy.typing as npt
from pydantic import Field

from evo_mastermind.codes import Code, CodeSpace
from evo_mastermind.game import InconsistentResponsesError
from evo_mastermind.players.base import Player, PlayerParams, register_player
from evo_mastermind.players.cost import Cost
from evo_mastermind.players.rao import UNKNOWN
from evo_mastermind.scoring import Response, score_codes

Plan = Generator[Code, Response, None]
"""A game's plan: yields guesses, is sent their responses."""

Search = Generator[Code, Response, list[int]]
"""A sub-search: yields guesses, returns the positions it found."""


class FcolParams(PlayerParams):
    """Options of ``fcol``."""

    enumerate_below: int = Field(50_000, ge=0, le=2**22)
    """Sieve the whole space when it has fewer codes than this."""
    region_prune_below: int = Field(14, ge=2, le=16)
    """Prune over placements in free regions shorter than this."""


class Board:
    """The pegs placed so far, the free positions, and each colour's pegs still to place."""

    def __init__(self, pegs: int, colors: int) -> None:
        self.answer = [UNKNOWN] * pegs
        self.free = list(range(pegs))
        self.unplaced = [0] * colors

    @property
    def placed(self) -> int:
        """How many pegs are placed (their blacks are subtracted from every response)."""
        return len(self.answer) - len(self.free)

    def place(self, position: int, colour: int) -> None:
        """Put ``colour`` at a free ``position``."""
        if self.answer[position] != UNKNOWN or self.unplaced[colour] <= 0:
            raise InconsistentResponsesError.because(
                f"peg {position} cannot take a colour with no pegs left"
            )
        self.answer[position] = colour
        self.free.remove(position)
        self.unplaced[colour] -= 1

    def guess(self, background: int, extra: dict[int, int] | None = None) -> Code:
        """Placed pegs, then ``extra`` (position -> colour), ``background`` elsewhere."""
        code = [background if c == UNKNOWN else c for c in self.answer]
        for position, colour in (extra or {}).items():
            code[position] = colour
        return np.array(code, dtype=np.uint8)


@cache
def subset_masks(length: int) -> npt.NDArray[np.int64]:
    """Every subset of ``length`` positions as a 0/1 row; row r holds bit j of r in column j."""
    rows = np.arange(2**length, dtype=np.int64)
    return (rows[:, None] >> np.arange(length)) & 1


@register_player("fcol")
class FcolPlayer(Player[FcolParams]):
    """The contest winner: sieve small games; find colours, then binary-search positions."""

    Params = FcolParams

    # Measured on this machine, 20 games each: the sieve spent 5.1 ms a game and 4.4 MB on
    # (6,6) (46,656 codes, about 2e-8 s a code a move, 95 bytes a code); the colour and
    # position searches 0.2 ms on (8,12), 6 ms on (16,16), 11 ms and 9.6 MB on (26,26).
    SIEVE_SECONDS_PER_CODE: ClassVar[float] = 2e-8
    SIEVE_BYTES_PER_CODE: ClassVar[int] = 100
    SEARCH_SECONDS_PER_PEG_COLOUR: ClassVar[float] = 2.5e-5
    SEARCH_BYTES_PER_PEG_COLOUR: ClassVar[int] = 12 * 1024

    @classmethod
    def estimate(cls, params: PlayerParams, space: CodeSpace) -> Cost:
        """A listed and sieved space (about ``pegs`` moves over it), or the searches' tables.

        Below ``enumerate_below`` codes every code is listed and sieved at each move; above,
        a game grows with pegs x colours (colours tested, positions searched).
        """
        assert isinstance(params, FcolParams)
        if space.size < params.enumerate_below:
            seconds = space.size * space.pegs * cls.SIEVE_SECONDS_PER_CODE
            return Cost(seconds=seconds, memory=space.size * cls.SIEVE_BYTES_PER_CODE)
        cells = space.pegs * space.colors
        seconds = cells * cls.SEARCH_SECONDS_PER_PEG_COLOUR
        return Cost(seconds=seconds, memory=4 * 2**20 + cells * cls.SEARCH_BYTES_PER_PEG_COLOUR)

    def __init__(self, space: CodeSpace, params: FcolParams | None = None) -> None:
        super().__init__(space, params)
        # ffclp's choice of subset depends only on the region's history: shared by all games.
        self._split_cache: dict[tuple[int, int, tuple[tuple[int, int], ...]], int] = {}
        self._rng = np.random.default_rng(0)
        self._plan: Plan = self._play()
        self._next: Code | None = None

    def start(self, rng: np.random.Generator) -> None:
        """Begin a new game with the game's generator."""
        self._rng = rng
        self._plan = self._play()
        self._next = None

    def ask(self) -> Code:
        """The plan's next guess."""
        if self._next is None:
            self._next = next(self._plan)
        return self._next

    def tell(self, guess: Code, response: Response) -> None:
        """Hand the response to the plan and take its next guess."""
        try:
            self._next = self._plan.send(response)
        except StopIteration:
            raise InconsistentResponsesError.because(
                f"the last possible code {self.space.format(guess)} drew {response}"
            ) from None

    # -- the plan ------------------------------------------------------------------------

    def _play(self) -> Plan:
        if self.space.colors**self.space.pegs < self.params.enumerate_below:
            yield from self._sieve()
            return
        board = Board(self.space.pegs, self.space.colors)
        neutral = yield from self._find_colours(board)
        order = sorted(
            (c for c in range(self.space.colors) if board.unplaced[c]),
            key=lambda c: -board.unplaced[c],
        )
        for colour in order[:-1]:
            found = yield from self._positions(board, neutral, list(board.free), colour)
            for position in found:
                board.place(position, colour)
        for position in list(board.free):
            board.place(position, order[-1])
        yield board.guess(0)

    def _sieve(self) -> Plan:
        codes = self.space.all_codes
        candidates = codes
        while len(candidates) > 1:
            guess = candidates[self._rng.integers(len(candidates))]
            response = yield guess
            packed = score_codes(guess, candidates, self.space.colors)
            candidates = candidates[packed == response.pack(self.space.pegs)]
        if len(candidates) == 0:
            raise InconsistentResponsesError.because("no code agrees with every response")
        yield candidates[0]

    def _respond(self, board: Board, guess: Code) -> Generator[Code, Response, tuple[int, int]]:
        """Play ``guess``; its blacks less the placed pegs, and its whites."""
        response = yield guess
        black = response.black - board.placed
        if black < 0:
            raise InconsistentResponsesError.because(
                f"{response} has fewer blacks than the {board.placed} placed pegs"
            )
        return black, response.white

    # -- step 1: find the colours --------------------------------------------------------

    def _find_colours(self, board: Board) -> Generator[Code, Response, int]:
        """Count every colour, placing pegs on the way; return a neutral colour."""
        colors, pegs = self.space.colors, self.space.pegs
        located: int | None = None  # the colour being located ("l")
        probe = 0  # index in board.free of its next possible place ("k")
        neutral: int | None = None
        found = 0
        for colour in range(colors):
            if found == pegs:
                break
            if colour == colors - 1:
                board.unplaced[colour] = pegs - found
                found = pegs
                break
            if located is None:
                black, white = yield from self._respond(board, board.guess(colour))
                if white:
                    raise InconsistentResponsesError.because("a one-colour guess drew whites")
                count = black
                board.unplaced[colour] = count
                if count:
                    located, probe = colour, 0
            else:
                position = board.free[probe]
                guess = board.guess(colour, {position: located})
                black, white = yield from self._respond(board, guess)
                count = black + (white == 2) - (white == 0)
                if white > 2 or count < 0:
                    raise InconsistentResponsesError.because(
                        f"a guess with one probed peg drew ({black}, {white})"
                    )
                board.unplaced[colour] = count
                if white == 0:
                    board.place(position, located)
                elif white == 2:
                    board.place(position, colour)
                else:
                    probe += 1
            found += count
            if found > pegs:
                raise InconsistentResponsesError.because(
                    f"the colour counts add up to {found} pegs"
                )
            if board.unplaced[colour] == 0:
                neutral = colour
            located, probe, used_up = self._settle(board, located, probe)
            neutral = used_up if used_up is not None else neutral
        if found != pegs:
            raise InconsistentResponsesError.because("the colour counts fall short of the pegs")
        remaining = [c for c in range(colors) if board.unplaced[c]]
        if len(remaining) > 1 and neutral is None:
            neutral = yield from self._find_neutral(board, located, probe)
        return neutral if neutral is not None else 0

    def _settle(
        self, board: Board, located: int | None, probe: int
    ) -> tuple[int | None, int, int | None]:
        """Fill ``l``'s last places when they are forced; pick a new ``l`` when it is used up.

        Returns the located colour, its probe index, and the last colour used up (if any).
        """
        used_up = None
        while located is not None:
            left = len(board.free) - probe
            if board.unplaced[located] > left:
                raise InconsistentResponsesError.because(
                    "a colour has more pegs than places left for it"
                )
            if board.unplaced[located] == left:
                for position in board.free[probe:]:
                    board.place(position, located)
            if board.unplaced[located]:
                break
            used_up = located
            most = max(board.unplaced)
            located = board.unplaced.index(most) if most else None
            probe = 0
        return located, probe, used_up

    def _find_neutral(
        self, board: Board, start: int | None, probe: int
    ) -> Generator[Code, Response, int]:
        """Go on locating ``l`` against the commonest other colour until one is used up."""
        assert start is not None
        located: int | None = start
        others = [(board.unplaced[c], -c) for c in range(self.space.colors) if c != located]
        rival = -max(others)[1]
        while located is not None:
            position = board.free[probe]
            guess = board.guess(rival, {position: located})
            black, white = yield from self._respond(board, guess)
            expected = board.unplaced[rival] - (white == 2) + (white == 0)
            if white > 2 or black != expected:
                raise InconsistentResponsesError.because(
                    f"({black}, {white}) where the known counts allow no such reply"
                )
            if white == 0:
                board.place(position, located)
            elif white == 2:
                board.place(position, rival)
            else:
                probe += 1
            if board.unplaced[rival] == 0:
                return rival
            located, probe, used_up = self._settle(board, located, probe)
            if used_up is not None:
                return used_up
        raise AssertionError("the located colour ran out without being used up")

    # -- step 2: place each colour -------------------------------------------------------

    def _positions(self, board: Board, neutral: int, region: list[int], colour: int) -> Search:
        """``ffc``: where the colour's pegs are in ``region`` (binary search, or pruning)."""
        return self._ffc(board, neutral, region, board.unplaced[colour], colour)

    def _ffc(
        self, board: Board, neutral: int, region: list[int], count: int, colour: int
    ) -> Search:
        if count == len(region):
            return list(region)
        if count == 0:
            return []
        if len(region) < self.params.region_prune_below and count != 1:
            return (yield from self._ffclp(board, neutral, region, count, colour))
        half = len(region) // 2
        guess = board.guess(neutral, dict.fromkeys(region[:half], colour))
        first, _ = yield from self._respond(board, guess)
        if not max(0, count - (len(region) - half)) <= first <= min(count, half):
            raise InconsistentResponsesError.because(
                f"{first} pegs of a colour in a half that can hold no such number"
            )
        left = yield from self._ffc(board, neutral, region[:half], first, colour)
        right = yield from self._ffc(board, neutral, region[half:], count - first, colour)
        return left + right

    def _ffclp(
        self, board: Board, neutral: int, region: list[int], count: int, colour: int
    ) -> Search:
        """Prune over every placement of ``count`` pegs in a short region."""
        length = len(region)
        masks = subset_masks(length)
        answers = masks[masks.sum(axis=1) == count]
        history: tuple[tuple[int, int], ...] = ()
        while len(answers) > 1:
            chosen = self._split(length, count, history, answers)
            subset = masks[chosen]
            guess = board.guess(neutral, {region[j]: colour for j in np.flatnonzero(subset)})
            black, _ = yield from self._respond(board, guess)
            answers = answers[answers @ subset == black]
            history = (*history, (chosen, black))
        if len(answers) == 0:
            raise InconsistentResponsesError.because(
                "no placement of a colour agrees with the responses"
            )
        return [region[j] for j in np.flatnonzero(answers[0])]

    def _split(
        self,
        length: int,
        count: int,
        history: tuple[tuple[int, int], ...],
        answers: npt.NDArray[np.int64],
    ) -> int:
        """The subset (a row of :func:`subset_masks`) to put the colour on next."""
        key = (length, count, history)
        if key not in self._split_cache:
            columns = np.arange(1, length + 1)
            if not history:
                pattern = columns > length / 2
            elif len(history) == 1:
                pattern = (columns <= length / 4) | (columns > 0.75 * length)
            else:
                pattern = None
            if pattern is not None:
                chosen = int(pattern @ (1 << np.arange(length)))
            else:
                masks = subset_masks(length)
                blacks = (masks.astype(np.float32) @ answers.T.astype(np.float32)).astype(np.int64)
                width = count + 1
                rows = np.arange(masks.shape[0])[:, None] * width
                parts = np.bincount((rows + blacks).ravel(), minlength=masks.shape[0] * width)
                chosen = int(np.argmin((parts.reshape(-1, width) ** 2).sum(axis=1)))
            self._split_cache[key] = chosen
        return self._split_cache[key]

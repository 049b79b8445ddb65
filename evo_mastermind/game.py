"""One game: a codemaker answers, a player asks, until the code is broken or a limit is hit.

:func:`play_game` is the one game loop: every game of a run, of ``evo-mastermind play``, and
the interactive game in which the person at the terminal is the codemaker (a
:class:`BaseCodemaker` of its own) are played by it.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Literal, NamedTuple, Protocol

import numpy as np

from evo_mastermind import watchdog
from evo_mastermind.codes import Code, Codes, CodeSpace
from evo_mastermind.colour_counts import ColourCountCheck
from evo_mastermind.scoring import Response, score_codes

Outcome = Literal["solved", "guess_limit", "time_limit", "invalid_guess", "inconsistent"]
"""How a game ended; every outcome but ``solved`` is a failed game, counted and shown as one."""

DEFAULT_GUESS_LIMIT = 1000
"""Guesses after which a run stops a game, unsolved, when its config sets no ``guess_limit``.

Far above what any working player needs (about 10 guesses at (8,12)), so it changes no
result; it keeps a player that never finds the secret from running forever."""


class InconsistentResponsesError(RuntimeError):
    """No code agrees with every response: the codemaker lied or was given a wrong secret."""

    @classmethod
    def because(cls, detail: str) -> InconsistentResponsesError:
        """The error, with what gave the contradiction away."""
        return cls(f"the codemaker's responses contradict each other: {detail}")


class InvalidGuessError(ValueError):
    """A player offered something that is not a code of this game."""


class BaseCodemaker(ABC):
    """The codemaker's side of :func:`play_game`: each guess checked, then answered.

    :class:`Codemaker` answers truthfully from the secret it holds; the person at the
    terminal of ``evo-mastermind play --interactive`` is another codemaker, who answers as
    they see fit.

    Args:
        space: the game size.
    """

    def __init__(self, space: CodeSpace) -> None:
        self.space = space

    @property
    @abstractmethod
    def secret_letters(self) -> str:
        """The secret as the game's record shows it (empty when the codemaker keeps it)."""

    @abstractmethod
    def respond(self, guess: Code) -> Response:
        """The (black, white) response to a guess (a code of this game, checked)."""

    def check(self, guess: object) -> Code:
        """Return ``guess`` as a code of this game, or raise :class:`InvalidGuessError`.

        The error says what was offered and what a code of this game is.
        """
        try:
            code = np.asarray(guess)
        except (ValueError, TypeError):  # ragged sequences and the like
            code = np.asarray(None)
        if code.shape != (self.space.pegs,) or code.dtype.kind not in "iu":
            raise InvalidGuessError(self._not_a_code(guess, code))
        if code.dtype != np.uint8:
            if code.min() < 0 or code.max() >= self.space.colors:
                raise InvalidGuessError(self._not_a_code(guess, code))
            return code.astype(np.uint8)
        if max(code.tobytes()) >= self.space.colors:
            raise InvalidGuessError(self._not_a_code(guess, code))
        return code

    def _not_a_code(self, guess: object, code: np.ndarray) -> str:
        shown = " ".join(repr(guess).split())
        shown = shown if len(shown) <= 60 else f"{shown[:60]}..."
        pegs, top = self.space.pegs, self.space.colors - 1
        if isinstance(guess, str):
            why = "letters; self.space.parse() turns letters into a code"
        elif code.ndim == 0:
            why = "a single value"
        elif code.shape != (pegs,):
            why = f"shape {code.shape}, not ({pegs},)"
        elif code.dtype.kind not in "iu":
            why = f"values of type {code.dtype}, not integers"
        else:
            why = f"a colour outside 0 to {top}"
        return (
            f"ask() returned {shown} ({type(guess).__name__}: {why}); a code of {self.space} "
            f"is a 1-D array of {pegs} integers from 0 to {top}, e.g. "
            f"np.zeros({pegs}, dtype=np.uint8)"
        )


class Codemaker(BaseCodemaker):
    """Holds the secret and answers guesses truthfully.

    Args:
        space: the game size.
        secret: the secret code, as letters or as a code array.
    """

    def __init__(self, space: CodeSpace, secret: str | Code) -> None:
        super().__init__(space)
        self.secret: Code = space.parse(secret) if isinstance(secret, str) else np.asarray(secret)
        # Plain bytes and counts: for one short code, Python on bytes beats numpy's call overhead.
        self._secret_bytes = self.secret.astype(np.uint8).tobytes()
        self._secret_number = int.from_bytes(self._secret_bytes)
        self._secret_counts = [
            (colour, self._secret_bytes.count(colour)) for colour in set(self._secret_bytes)
        ]

    @property
    def secret_letters(self) -> str:
        """The secret, in letters."""
        return self.space.format(self.secret)

    def respond(self, guess: Code) -> Response:
        """The (black, white) response to a guess."""
        played = guess.tobytes()
        # Blacks are the zero bytes of the XOR of the two codes read as one integer.
        differences = int.from_bytes(played) ^ self._secret_number
        black = differences.to_bytes(len(played)).count(0)
        common = 0
        for colour, count in self._secret_counts:
            common += min(played.count(colour), count)
        return Response(black, common - black)


class AnswerCheck:
    """Keeps the codes that agree with every answer so far, to catch a lying codemaker.

    Any player, however it searches, is then stopped at the first answer that no code
    agrees with (together with the answers before it). On spaces too large to list only
    the colours are checked (:class:`~evo_mastermind.colour_counts.ColourCountCheck`): a
    lie about positions alone is then bounded by the game's guess limit.
    """

    CHUNK = 1 << 20

    def __init__(self, space: CodeSpace) -> None:
        self.space = space
        self.answers = 0
        self._candidates: Codes | None = None
        self.checkable = space.enumerable
        self._colours = None if self.checkable else ColourCountCheck(space)

    def add(self, guess: Code, response: Response) -> None:
        """Record one answer.

        Raises:
            InconsistentResponsesError: no code agrees with this answer and the earlier ones
                (the answer is then not recorded).
        """
        if self._colours is not None:
            if not self._colours.agrees(guess, response.black, response.white):
                raise InconsistentResponsesError.because(
                    f"answer {self.answers + 1} ({self.space.format(guess)}: {response.black} "
                    f"black, {response.white} white) leaves no mix of colours that agrees with "
                    f"{'it and the answers before it' if self.answers else 'it'}"
                )
            self.answers += 1
            return
        candidates = self.space.all_codes if self._candidates is None else self._candidates
        packed = response.pack(self.space.pegs)
        kept = [
            part[score_codes(guess, part, self.space.colors) == packed]
            for part in (
                candidates[start : start + self.CHUNK]
                for start in range(0, len(candidates), self.CHUNK)
            )
        ]
        remaining = np.concatenate(kept) if kept else candidates[:0]
        number = self.answers + 1
        if not len(remaining):  # not recorded: an interactive codemaker may answer again
            earlier = f"answers 1 to {number - 1}" if number > 2 else "answer 1"
            detail = (
                f"answer {number} ({self.space.format(guess)}: {response.black} black, "
                f"{response.white} white) contradicts {earlier}: no code of {self.space} "
                "agrees with all of them"
                if number > 1
                else f"answer 1 ({response.black} black, {response.white} white) fits no code"
            )
            raise InconsistentResponsesError.because(detail)
        self.answers = number
        self._candidates = remaining

    @property
    def colours_checked(self) -> bool:
        """Whether, on a space too large to list, the answers' colours are still checked."""
        return self._colours is not None and self._colours.checkable

    @property
    def remaining(self) -> int | None:
        """How many codes still agree with every answer (``None`` if not checked)."""
        if not self.checkable:
            return None
        return self.space.size if self._candidates is None else len(self._candidates)


class Move(NamedTuple):
    """One guess and the response it drew."""

    guess: str
    black: int
    white: int


@dataclass(frozen=True)
class PlayerStats:
    """What a player counts about its own effort in one game (``None`` where not counted).

    Attributes:
        evaluations: fitness evaluations (evolutionary players).
        distinct_codes: distinct codes whose fitness was evaluated.
        capped_guesses: guesses played because the evaluation cap was reached before a
            consistent code was found.
    """

    evaluations: int | None = None
    distinct_codes: int | None = None
    capped_guesses: int | None = None


@dataclass(frozen=True)
class GameResult:
    """The record of one finished game.

    ``seconds`` is the game's wall time; ``player_seconds`` the CPU time of the thread that
    played it (what a time limit counts): the player's own calls, and the codemaker's
    answers, a few microseconds a move.
    """

    secret: str
    moves: tuple[Move, ...]
    outcome: Outcome
    seconds: float
    player_seconds: float
    stats: PlayerStats = field(default_factory=PlayerStats)
    failure: str | None = None
    """Why a failed game failed, in words (``None`` when solved)."""

    @property
    def solved(self) -> bool:
        """Whether the last guess was the secret."""
        return self.outcome == "solved"

    @property
    def n_guesses(self) -> int:
        """Guesses played, the last one included."""
        return len(self.moves)


class Codebreaker(Protocol):
    """What the play loop needs of a player (:class:`evo_mastermind.players.Player` is one).

    A protocol, so this module does not import the players (which import it).
    """

    def start(self, rng: np.random.Generator) -> None:
        """Begin a new game."""

    def ask(self) -> Code:
        """The next guess."""

    def tell(self, guess: Code, response: Response) -> None:
        """Learn the response to the last guess."""

    def stats(self) -> PlayerStats:
        """What the player counted in this game."""


def play_game(
    player: Codebreaker,
    codemaker: BaseCodemaker,
    rng: np.random.Generator,
    guess_limit: int | None = None,
    time_limit: float | None = None,
    check_answers: bool = False,
) -> GameResult:
    """Play one game to its end.

    Args:
        player: the codebreaker; :meth:`Player.start` is called here with ``rng``.
        codemaker: answers each guess (:class:`Codemaker` holds the secret; an interactive
            game's codemaker is the person at the terminal).
        rng: the game's own random generator (the only randomness the player may use).
        guess_limit: stop, unsolved, after this many guesses.
        time_limit: stop, unsolved, once the game's CPU time (the player's calls and the
            codemaker's answers, measured per thread so a busy machine does not count
            against it) exceeds this many seconds: checked after each guess, and enforced
            inside a player's call that does not return (:mod:`evo_mastermind.watchdog`).
        check_answers: check every answer against the earlier ones (:class:`AnswerCheck`),
            for a codemaker that may lie.

    Raises:
        InconsistentResponsesError: the responses contradict each other (a lying codemaker).
        Exception: whatever the codemaker raises (a person who stops answering) ends the game.
    """
    space = codemaker.space
    moves: list[Move] = []
    outcome: Outcome
    wall_start = time.perf_counter()
    cpu_start = time.thread_time()
    checker = AnswerCheck(space) if check_answers else None
    failure: str | None = None
    try:
        with watchdog.time_limit(time_limit):
            player.start(rng)
            outcome, failure = _play_moves(
                player, codemaker, moves, guess_limit, time_limit, wall_start, cpu_start, checker
            )
    except watchdog.GameTimeout:
        outcome = "time_limit"
        failure = (
            f"time limit: the player's call did not return within {time_limit:g} s of CPU "
            f"time (at guess {len(moves) + 1})"
        )
    player_seconds = time.thread_time() - cpu_start
    return GameResult(
        secret=codemaker.secret_letters,
        moves=tuple(moves),
        outcome=outcome,
        seconds=time.perf_counter() - wall_start,
        player_seconds=player_seconds,
        stats=player.stats(),
        failure=failure,
    )


def _play_moves(
    player: Codebreaker,
    codemaker: BaseCodemaker,
    moves: list[Move],
    guess_limit: int | None,
    time_limit: float | None,
    wall_start: float,
    cpu_start: float,
    checker: AnswerCheck | None,
) -> tuple[Outcome, str | None]:
    """Ask and answer until the game ends; its outcome and, if failed, why."""
    space = codemaker.space
    while True:
        if guess_limit is not None and len(moves) >= guess_limit:
            return "guess_limit", f"guess limit: not solved within {guess_limit} guesses"
        offered = player.ask()
        # A thread's CPU time never exceeds the wall time, and the thread clock is a system
        # call: read it only once the wall clock says the limit may have been passed.
        if (
            time_limit is not None
            and time.perf_counter() - wall_start > time_limit
            and time.thread_time() - cpu_start > time_limit
        ):
            return "time_limit", (
                f"time limit: {time_limit:g} s of CPU time used by guess {len(moves) + 1}"
            )
        try:
            guess = codemaker.check(offered)
        except InvalidGuessError as error:
            return "invalid_guess", f"invalid guess {len(moves) + 1}: {error}"
        response = codemaker.respond(guess)
        moves.append(Move(space.format(guess), response.black, response.white))
        if response.black == space.pegs:
            return "solved", None
        if checker is not None:
            checker.add(guess, response)
        player.tell(guess, response)

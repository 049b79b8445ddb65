"""One game: a codemaker answers, a player asks, until the code is broken or a limit is hit."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, NamedTuple

import numpy as np

from evo_mastermind.codes import Code, CodeSpace
from evo_mastermind.scoring import Response

if TYPE_CHECKING:
    from evo_mastermind.players.base import Player

Outcome = Literal["solved", "guess_limit", "time_limit", "invalid_guess"]


class InconsistentResponsesError(RuntimeError):
    """No code agrees with every response: the codemaker lied or was given a wrong secret."""


class InvalidGuessError(ValueError):
    """A player offered something that is not a code of this game."""


class Codemaker:
    """Holds the secret and answers guesses truthfully.

    Args:
        space: the game size.
        secret: the secret code, as letters or as a code array.
    """

    def __init__(self, space: CodeSpace, secret: str | Code) -> None:
        self.space = space
        self.secret: Code = space.parse(secret) if isinstance(secret, str) else np.asarray(secret)
        # Plain bytes and counts: for one guess, Python on bytes beats numpy's call overhead.
        self._secret_bytes = self.secret.astype(np.uint8).tobytes()
        self._secret_counts = [
            (colour, count)
            for colour, count in enumerate(
                np.bincount(self.secret, minlength=space.colors).tolist()
            )
            if count
        ]

    def check(self, guess: object) -> Code:
        """Return ``guess`` as a code of this game, or raise :class:`InvalidGuessError`."""
        code = np.asarray(guess)
        if code.shape != (self.space.pegs,) or code.dtype.kind not in "iu":
            raise InvalidGuessError(f"guess {guess!r} is not a code of {self.space.pegs} pegs")
        if code.dtype != np.uint8:
            if code.min() < 0 or code.max() >= self.space.colors:
                raise InvalidGuessError(f"guess {guess!r} uses a colour outside this game")
            return code.astype(np.uint8)
        if code.max() >= self.space.colors:
            raise InvalidGuessError(f"guess {guess!r} uses a colour outside this game")
        return code

    def respond(self, guess: Code) -> Response:
        """The (black, white) response to a guess."""
        played = guess.tobytes()
        black = sum(a == b for a, b in zip(played, self._secret_bytes, strict=True))
        common = sum(min(played.count(colour), count) for colour, count in self._secret_counts)
        return Response(black, common - black)


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
    """The record of one finished game."""

    secret: str
    moves: tuple[Move, ...]
    outcome: Outcome
    seconds: float
    player_seconds: float
    stats: PlayerStats = field(default_factory=PlayerStats)

    @property
    def solved(self) -> bool:
        """Whether the last guess was the secret."""
        return self.outcome == "solved"

    @property
    def n_guesses(self) -> int:
        """Guesses played, the last one included."""
        return len(self.moves)


def play_game(
    player: Player,
    codemaker: Codemaker,
    rng: np.random.Generator,
    guess_limit: int | None = None,
    time_limit: float | None = None,
) -> GameResult:
    """Play one game to its end.

    Args:
        player: the codebreaker; :meth:`Player.start` is called here with ``rng``.
        codemaker: holds the secret.
        rng: the game's own random generator (the only randomness the player may use).
        guess_limit: stop, unsolved, after this many guesses.
        time_limit: stop, unsolved, once the time spent inside the player's own calls
            (start, ask, tell) exceeds this many seconds.

    Raises:
        InconsistentResponsesError: the responses contradict each other (a lying codemaker).
    """
    space = codemaker.space
    wall_start = time.perf_counter()
    player_time = 0.0
    moves: list[Move] = []
    outcome: Outcome
    call_start = time.perf_counter()
    player.start(rng)
    player_time += time.perf_counter() - call_start
    while True:
        if guess_limit is not None and len(moves) >= guess_limit:
            outcome = "guess_limit"
            break
        call_start = time.perf_counter()
        offered = player.ask()
        player_time += time.perf_counter() - call_start
        if time_limit is not None and player_time > time_limit:
            outcome = "time_limit"
            break
        try:
            guess = codemaker.check(offered)
        except InvalidGuessError:
            outcome = "invalid_guess"
            break
        response = codemaker.respond(guess)
        moves.append(Move(space.format(guess), response.black, response.white))
        if response.black == space.pegs:
            outcome = "solved"
            break
        call_start = time.perf_counter()
        player.tell(guess, response)
        player_time += time.perf_counter() - call_start
    return GameResult(
        secret=space.format(codemaker.secret),
        moves=tuple(moves),
        outcome=outcome,
        seconds=time.perf_counter() - wall_start,
        player_seconds=player_time,
        stats=player.stats(),
    )

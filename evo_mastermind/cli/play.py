"""``evo-mastermind play``.

One game printed move by move, or an interactive game in which the person at the terminal is
the codemaker: both played by :func:`evo_mastermind.game.play_game`, the interactive one with
the person as its codemaker (:class:`PersonAtTheTerminal`).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from typing import TYPE_CHECKING

from evo_mastermind.cli.common import (
    EXIT_GAMES_FAILED,
    PROG,
    UsageError,
    _make,
    _player_code,
    _shorten,
)

# Only what parsing the command line needs is imported here; each command imports the
# rest (players, runner, pandas, matplotlib, the compiled kernels, YAML), so --help starts at
# once and `play` loads only its player.
from evo_mastermind.codes import LETTERS, Code, CodeSpace
from evo_mastermind.game import (
    DEFAULT_GUESS_LIMIT,
    AnswerCheck,
    BaseCodemaker,
    Codemaker,
    GameResult,
    InconsistentResponsesError,
    play_game,
)
from evo_mastermind.scoring import Response
from evo_mastermind.seeding import game_rng, stream_rng

if TYPE_CHECKING:
    from evo_mastermind.players import Player
    from evo_mastermind.players.cost import Cost


def _play(args: argparse.Namespace) -> int:
    if args.guess_limit is not None and args.guess_limit < 1:
        raise UsageError(f"--guess-limit must be at least 1, got {args.guess_limit}")
    if args.seed < 0:
        raise UsageError(f"--seed must be 0 or more, got {args.seed}")
    if args.interactive and args.secret is not None:
        raise UsageError(
            "--secret and --interactive contradict each other: in an interactive game you are "
            "the codemaker and keep the secret to yourself (drop one of them)"
        )
    space, player = _player_code(
        lambda: _make(args, _check_cost),
        args.player,
        f"building the player for {args.pegs} pegs, {args.colors} colours",
    )
    if args.interactive:
        return _play_interactive(space, player, args)
    if args.secret is not None:
        secret = space.format(space.parse(args.secret))
    else:
        secret = space.format(space.sample(stream_rng(args.seed, "play secret"), 1)[0])
    rng = game_rng(args.seed, args.player, 0, secret, space.colors)
    # Without --guess-limit a player that never finds the secret still stops.
    limit = args.guess_limit or DEFAULT_GUESS_LIMIT
    result = _player_code(
        lambda: play_game(player, Codemaker(space, secret), rng, guess_limit=limit),
        args.player,
        f"game of secret {secret}, seed {args.seed}",
    )
    _print_game(result, args.json)
    # Stopping at the --guess-limit asked for is what was asked; any other end is a failure.
    asked = result.outcome == "guess_limit" and args.guess_limit is not None
    if result.failure is not None and not asked:
        print(f"{PROG}: {result.failure}", file=sys.stderr)
        return EXIT_GAMES_FAILED
    return 0


GAME_ANNOUNCE_SECONDS = 10.0
"""A game estimated to take longer than this says so before it starts."""


def _check_cost(name: str, space: CodeSpace, cost: Cost) -> None:
    """Refuse a game that needs more memory than the machine has; announce a long one.

    Raises:
        UsageError: the player's estimate is larger than this machine's memory.
    """
    from evo_mastermind.players.cost import duration, memory_refusal

    refused = memory_refusal(cost.memory, f"a game of {name} on {space}")
    if refused is not None:
        raise UsageError(refused)
    seconds = cost.first_game_seconds()
    if seconds is not None and seconds > GAME_ANNOUNCE_SECONDS:
        print(
            f"{PROG}: estimate: {duration(seconds)} a game of {name} on {space} (rough "
            "model); Ctrl-C stops it",
            file=sys.stderr,
            flush=True,
        )


def _print_game(result: GameResult, as_json: bool) -> None:
    if as_json:
        print(
            json.dumps(
                {
                    "secret": result.secret,
                    "guesses": [
                        {"guess": m.guess, "black": m.black, "white": m.white} for m in result.moves
                    ],
                    "solved": result.solved,
                    "outcome": result.outcome,
                    "failure": result.failure,
                }
            )
        )
        return
    width = len(str(len(result.moves)))
    for number, move in enumerate(result.moves, start=1):
        print(f"{number:>{width}}. {move.guess}  {move.black} black, {move.white} white")
    verdict = "solved" if result.solved else f"not solved ({result.outcome.replace('_', ' ')})"
    print(f"secret {result.secret}: {verdict} in {_guesses(result.n_guesses)}")


def _guesses(count: int) -> str:
    return f"{count} guess" if count == 1 else f"{count} guesses"


ANSWER_LIMIT = 200
"""Characters of an answer line read at most; the rest of a longer line is skipped."""

_ANSWER = re.compile(r"\s*([0-9]{1,3})\s*[\s,/]\s*([0-9]{1,3})\s*", re.ASCII)


class _StopGame(Exception):
    """The person ended the game (Ctrl-D or Ctrl-C)."""


INTERACTIVE_GUESS_LIMIT = 100
"""Guesses an interactive game allows on a space too large to check answers against."""


class PersonAtTheTerminal(BaseCodemaker):
    """The codemaker of an interactive game: the person at the terminal answers each guess.

    Each answer is read until it is well formed, possible and consistent with the earlier
    ones (:func:`_ask_answer`); Ctrl-D or Ctrl-C ends the game (:class:`_StopGame`).
    """

    def __init__(self, space: CodeSpace) -> None:
        super().__init__(space)
        self.checker = AnswerCheck(space)
        self.answered = 0
        self.last = ""
        """The last answer that did not solve the game, in words."""

    @property
    def secret_letters(self) -> str:
        """The person keeps the secret to themselves."""
        return ""

    def respond(self, guess: Code) -> Response:
        """The person's answer to ``guess``, checked against the earlier ones."""
        shown = f"{self.answered + 1}. {self.space.format(guess)}"
        response = _ask_answer(self.space, shown, guess, self.checker)
        self.answered += 1
        if response.black != self.space.pegs:
            self.last = f"{response.black} {response.white} to {self.space.format(guess)}"
        return response


def _play_interactive(space: CodeSpace, player: Player, args: argparse.Namespace) -> int:
    example = "".join(LETTERS[peg % space.colors] for peg in range(space.pegs))
    print(
        f"Mastermind: {space.pegs} pegs, {space.colors} colours, letters A to "
        f"{LETTERS[space.colors - 1]} (a code looks like {example}). Think of a secret code and "
        "answer each guess with 'black white', e.g. '1 2'; Ctrl-D or Ctrl-C stops.",
        flush=True,
    )
    rng = game_rng(args.seed, args.player, 0, "interactive", space.colors)
    person = PersonAtTheTerminal(space)
    limit = args.guess_limit
    if limit is None and not person.checker.checkable:
        limit = INTERACTIVE_GUESS_LIMIT
    try:
        result = play_game(player, person, rng, guess_limit=limit)
    except InconsistentResponsesError as error:
        # Games too large to check each answer here: the player found the contradiction.
        print(flush=True)
        raise InconsistentResponsesError(
            f"answer {person.answered} ({person.last}) contradicts the answers before it: {error}"
        ) from None
    except _StopGame:
        print(flush=True)  # the prompt is left open: end its line
        print(f"{PROG}: game stopped after {_guesses(person.answered)}", file=sys.stderr)
        return 1
    moves = result.n_guesses
    if result.solved:
        print(f"solved in {_guesses(moves)}")
        return 0
    if result.outcome != "guess_limit":  # the player offered something that is not a code
        print(f"{PROG}: {result.failure}", file=sys.stderr)
        return EXIT_GAMES_FAILED
    if args.guess_limit is None:
        checked = (
            "only the colours of the answers can be checked against each other, so one may "
            "be wrong about positions"
            if person.checker.colours_checked
            else "the answers cannot be checked against each other, so one of them may be wrong"
        )
        raise UsageError(
            f"not solved within {_guesses(moves)}; on {space} {checked} (--guess-limit sets "
            "the bound)"
        )
    print(f"not solved within {_guesses(moves)}")
    return 0


BAD_ANSWERS_IN_A_ROW = 10
"""Refused answers to one guess before the game ends (a script repeating a lie never stops)."""


def _ask_answer(space: CodeSpace, shown: str, guess: Code, checker: AnswerCheck) -> Response:
    """Read answers to one guess until one is well formed, possible and consistent.

    Raises:
        _StopGame: the person stopped (Ctrl-D, Ctrl-C) with no refused answer pending.
        UsageError: the input ended right after a refused answer, or too many were refused.
    """
    prompt = f"{shown}  black white? "
    problem = ""
    for _ in range(BAD_ANSWERS_IN_A_ROW):
        print(prompt, end="", flush=True)
        try:
            line = sys.stdin.readline(ANSWER_LIMIT)
            too_long = len(line) >= ANSWER_LIMIT and not line.endswith("\n")
            while too_long and (rest := sys.stdin.readline(ANSWER_LIMIT)):
                too_long = not rest.endswith("\n")  # skip the rest of an overlong line
            if not line:
                raise _StopGame
        except (KeyboardInterrupt, EOFError):
            raise _StopGame from None
        except _StopGame:
            if problem:  # the answers ended on a refused one: that is the error to report
                print(flush=True)
                raise UsageError(f"{problem}; standard input ended") from None
            raise
        except UnicodeDecodeError:
            line = "\ufffd"  # bytes that are not text: answered like any garbage
        answer = _parse_answer(line, space)
        if isinstance(answer, str):
            problem = answer
        elif answer.black == space.pegs:
            return answer
        else:
            try:
                checker.add(guess, answer)  # a lie is caught here, whichever player plays
                return answer
            except InconsistentResponsesError as error:
                problem = str(error)
        print(f"  {problem}; answer again", flush=True)
    raise UsageError(f"{BAD_ANSWERS_IN_A_ROW} answers in a row refused; the last: {problem}")


def _parse_answer(line: str, space: CodeSpace) -> Response | str:
    """The (black, white) of an answer line, or why it is not a possible answer."""
    if len(line) >= ANSWER_LIMIT and not line.endswith("\n"):
        return (
            f"answer {_shorten(line, 20)} is too long: two small numbers 'black white' are expected"
        )
    match = _ANSWER.fullmatch(line.rstrip("\r\n"))
    if match is None:
        return f"answer {_shorten(line, 20)} is not two numbers 'black white' such as '1 2'"
    black, white = (int(part) for part in match.groups())
    if black + white > space.pegs or (black == space.pegs - 1 and white == 1):
        return (
            f"answer {black} black, {white} white is impossible with {space.pegs} pegs "
            f"(black + white is at most {space.pegs}, and {space.pegs - 1} black 1 white "
            "cannot happen)"
        )
    return Response(black, white)

"""What a worker does with a batch: build (or reuse) the player, play each game, return rows.

A game that fails (invalid guess, limit, contradiction claimed) is a row like any other. An
exception of the player's own code never escapes: the batch returns the rows played before
it with a :class:`~evo_mastermind.runner.crash.PlayerCrash`, the same on every executor.

Player objects are kept per worker thread and reused across batches, so whatever a player
caches from histories (the one-ply position tree) is built once per worker thread, not once
per batch. A player holds its game's state, so two threads (a Dask worker runs several) must
never share one.
"""

from __future__ import annotations

import threading
from dataclasses import asdict, dataclass
from typing import Any

import pyarrow as pa

from evo_mastermind.codes import CodeSpace
from evo_mastermind.evolution.logbook import Logbook
from evo_mastermind.game import (
    DEFAULT_GUESS_LIMIT,
    Codemaker,
    GameResult,
    InconsistentResponsesError,
    play_game,
)
from evo_mastermind.players import Player, import_plugins, known_player
from evo_mastermind.runner.crash import PlayerCrash
from evo_mastermind.runner.plan import Batch, GameKey
from evo_mastermind.runner.storage import GAMES_SCHEMA, MOVES_SCHEMA
from evo_mastermind.seeding import game_rng

_local = threading.local()
_PLAYER_CACHE_LIMIT = 64


def _thread_players() -> dict[tuple[str, str, int, int], Player]:
    """This thread's players (each thread of a worker plays its own games)."""
    players: dict[tuple[str, str, int, int], Player] | None = getattr(_local, "players", None)
    if players is None:
        players = _local.players = {}
    return players


def _player_for(batch: Batch, pegs: int, colors: int) -> Player:
    players = _thread_players()
    key = (batch.player, batch.params_json, pegs, colors)
    player = players.get(key)
    if player is None:
        if len(players) >= _PLAYER_CACHE_LIMIT:
            players.clear()  # bound memory in long-lived Dask workers
        # Built from the validated options the batch carries: nothing is read back from text.
        player = known_player(batch.player)(CodeSpace(pegs, colors), batch.params)
        players[key] = player
    return player


@dataclass(frozen=True)
class BatchResult:
    """The games a batch finished and, if a player raised, what and where (the batch stops).

    Attributes:
        games: one row per finished game, a table of the games schema.
        crash: set when the player's code raised; the games before it are in ``games``.
        moves: the move log of those games (``log: moves``, players keeping a logbook only).
    """

    games: pa.Table
    crash: PlayerCrash | None = None
    moves: pa.Table | None = None


# A player's SystemExit is its own failure too; Ctrl-C (KeyboardInterrupt) still stops the run.
_PLAYER_FAILURES = (Exception, SystemExit)


def play_batch(batch: Batch) -> BatchResult:
    """Play every game of the batch; one row per game, as a table of the games schema.

    A game that ends unsolved is a row like any other (its ``outcome`` and ``failure`` say
    why). An exception raised by the player's code ends the batch: the rows before it are
    returned with the :class:`PlayerCrash`.
    """
    columns: dict[str, list[Any]] = {name: [] for name in GAMES_SCHEMA.names}
    moves: dict[str, list[Any]] = {name: [] for name in MOVES_SCHEMA.names}
    # A config without a guess limit still never plays a game forever.
    guess_limit = batch.guess_limit or DEFAULT_GUESS_LIMIT
    where = f"importing the plugins {', '.join(batch.plugins)}"
    try:
        import_plugins(batch.plugins)  # a fresh worker knows only the built-in players
        for key in batch.keys:
            where = f"building the player for ({key.pegs},{key.colors})"
            player = _player_for(batch, key.pegs, key.colors)
            where = (
                f"game run {key.run}, secret {key.secret} ({key.pegs} pegs, {key.colors} "
                f"colours), seed {batch.root_seed}"
            )
            rng = game_rng(
                batch.root_seed, key.label, key.run, key.secret, key.colors, key.occurrence
            )
            codemaker = Codemaker(player.space, key.secret)
            logbook = _logbook(player, batch.log_moves)
            try:
                result = play_game(
                    player, codemaker, rng, guess_limit=guess_limit, time_limit=batch.time_limit
                )
            except InconsistentResponsesError as error:
                # The codemaker of a run is truthful: the player is wrong, and the game failed.
                result = _inconsistent(key, str(error))
            for name, value in _row(batch, key, result).items():
                columns[name].append(value)
            if logbook is not None:
                _log_rows(moves, key, logbook)
    except _PLAYER_FAILURES as error:
        crash = PlayerCrash.of(error, batch.label, batch.player, where)
        return _result(columns, moves, crash)
    # Columns travel back to the main process as Arrow buffers: cheaper than row dicts.
    return _result(columns, moves)


def _result(
    columns: dict[str, list[Any]], moves: dict[str, list[Any]], crash: PlayerCrash | None = None
) -> BatchResult:
    log = pa.Table.from_pydict(moves, schema=MOVES_SCHEMA) if moves["move"] else None
    return BatchResult(pa.Table.from_pydict(columns, schema=GAMES_SCHEMA), crash, log)


def _logbook(player: Player, wanted: bool) -> Logbook | None:
    """The player's logbook, switched on or off for the next game (None: it keeps none)."""
    logbook = getattr(player, "logbook", None)
    if not isinstance(logbook, Logbook):
        return None
    logbook.enabled = wanted  # a cached player may come from a batch that wanted otherwise
    return logbook if wanted else None


def _log_rows(moves: dict[str, list[Any]], key: GameKey, logbook: Logbook) -> None:
    for record in logbook.records:
        for name, value in key._asdict().items():
            moves[name].append(value)
        for name, value in asdict(record).items():
            moves[name].append(value)


def _inconsistent(key: GameKey, detail: str) -> GameResult:
    return GameResult(
        secret=key.secret,
        moves=(),
        outcome="inconsistent",
        seconds=0.0,
        player_seconds=0.0,
        failure=f"the player said the truthful answers contradict each other ({detail})",
    )


def _row(batch: Batch, key: GameKey, result: GameResult) -> dict[str, Any]:
    stats = result.stats
    return {
        **key._asdict(),
        "player": batch.player,
        "params": batch.params_json,
        "n_guesses": result.n_guesses,
        "solved": result.solved,
        "outcome": result.outcome,
        "moves": [move.guess for move in result.moves],
        "evaluations": stats.evaluations,
        "distinct_codes": stats.distinct_codes,
        "capped_guesses": stats.capped_guesses,
        "seconds": result.seconds,
        "player_seconds": result.player_seconds,
        "failure": result.failure,
    }

"""What a worker does with a batch: build (or reuse) the player, play each game, return rows.

Player objects are kept per worker thread and reused across batches, so whatever a player
caches from histories (the one-ply position tree) is built once per worker thread, not once
per batch. A player holds its game's state, so two threads (a Dask worker runs several) must
never share one.
"""

from __future__ import annotations

import json
import threading
from typing import Any

import pyarrow as pa

from evo_mastermind.codes import CodeSpace
from evo_mastermind.game import Codemaker, play_game
from evo_mastermind.players import Player, import_plugins, make_player
from evo_mastermind.runner.plan import Batch
from evo_mastermind.runner.storage import GAMES_SCHEMA
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
        space = CodeSpace(pegs, colors)
        player = make_player(batch.player, space, json.loads(batch.params_json))
        players[key] = player
    return player


def play_batch(batch: Batch) -> pa.Table:
    """Play every game of the batch; one row per game, as a table of the games schema."""
    import_plugins(batch.plugins)  # a fresh worker knows only the built-in players
    columns: dict[str, list[Any]] = {name: [] for name in GAMES_SCHEMA.names}
    for key in batch.keys:
        player = _player_for(batch, key.pegs, key.colors)
        space = player.space
        rng = game_rng(batch.root_seed, key.label, key.run, key.secret, key.colors, key.occurrence)
        result = play_game(
            player,
            Codemaker(space, key.secret),
            rng,
            guess_limit=batch.guess_limit,
            time_limit=batch.time_limit,
        )
        stats = result.stats
        row = {
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
        }
        for name, values in columns.items():
            values.append(row[name])
    # Columns travel back to the main process as Arrow buffers: cheaper than row dicts.
    return pa.Table.from_pydict(columns, schema=GAMES_SCHEMA)

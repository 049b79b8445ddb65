"""From a config to the games to play: secrets drawn once, games keyed by identity, batches.

A game's key is (label, pegs, colors, secrets source, run, secret, occurrence); the games
still to play are every key not already stored, so a resumed run plays exactly the rest.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import NamedTuple

from evo_mastermind.players import PlayerParams, known_player
from evo_mastermind.players.cost import (
    ANNOUNCE_SECONDS,
    duration,
    gibibytes,
    machine_memory,
)
from evo_mastermind.runner.config import ConfigError, ExperimentConfig, PlanLimits
from evo_mastermind.runner.entries import ExpandedEntry
from evo_mastermind.runner.sources import GameSize, SecretSource
from evo_mastermind.seeding import stream_rng


class GameKey(NamedTuple):
    """The identity of one game; also the columns that make a games-table row unique."""

    label: str
    pegs: int
    colors: int
    secrets: str
    run: int
    secret: str
    occurrence: int


KEY_COLUMNS = list(GameKey._fields)


@dataclass(frozen=True)
class Group:
    """Every game of one player entry, size by size (consecutive games share a player)."""

    entry: ExpandedEntry
    keys: tuple[GameKey, ...]


@dataclass(frozen=True)
class Batch:
    """One task shipped to a worker: a player entry, the limits, and the games to play.

    ``params`` is the entry's validated options object, shipped as it is (the worker builds
    the player from it); ``params_json`` the same options as the games table records them.
    ``plugins`` names the modules that register players of the user's own: a worker imports
    them (once) before building the player, whatever process or machine it runs on.
    """

    label: str
    player: str
    params: PlayerParams
    params_json: str
    root_seed: int
    guess_limit: int | None
    time_limit: float | None
    keys: tuple[GameKey, ...]
    plugins: tuple[str, ...] = ()
    log_moves: bool = False
    """Whether players keeping a logbook return their move records (``log: moves``)."""


def draw_secrets(config: ExperimentConfig, size: GameSize, source: SecretSource) -> list[str]:
    """The secrets of one (size, source): the same for every player and run of the config."""
    space = size.space()
    rng = stream_rng(config.seed, f"secrets {space} {source.describe()}")
    return [space.format(code) for code in source.draw(space, rng)]


def plan_groups(config: ExperimentConfig) -> list[Group]:
    """Every game of the experiment, grouped by player entry."""
    drawn = [
        (size, source.describe(), draw_secrets(config, size, source))
        for size, source in config.blocks()
    ]
    groups = []
    for entry in config.entries():
        keys = tuple(
            GameKey(entry.label, size.pegs, size.colors, source, run, secret, seen)
            for size, source, secrets in drawn
            for run in range(config.runs)
            for secret, seen in zip(secrets, _occurrences(secrets), strict=True)
        )
        groups.append(Group(entry, keys))
    return groups


def _occurrences(secrets: list[str]) -> list[int]:
    """How many times each secret has appeared before, position by position."""
    seen: Counter[str] = Counter()
    numbers = []
    for secret in secrets:
        numbers.append(seen[secret])
        seen[secret] += 1
    return numbers


def make_batch(config: ExperimentConfig, group: Group, keys: tuple[GameKey, ...]) -> Batch:
    """A task playing ``keys`` of ``group``."""
    return Batch(
        label=group.entry.label,
        player=group.entry.player,
        params=group.entry.validated,
        params_json=group.entry.params_json,
        root_seed=config.seed,
        guess_limit=config.guess_limit,
        time_limit=config.time_limit,
        keys=keys,
        plugins=_plugins_for(config, group.entry.player),
        log_moves=config.log == "moves",
    )


def _plugins_for(config: ExperimentConfig, player: str) -> tuple[str, ...]:
    """The config's plugins, and the module defining the player if it is one of the user's."""
    module = known_player(player).__module__
    # A player registered by a wrapper script's import is then known to workers too.
    own = [] if module.startswith("evo_mastermind.") or module == "__main__" else [module]
    return tuple(dict.fromkeys([*config.plugins, *own]))


KEY_BYTES = 400
"""Memory a planned game takes (its key and secret strings) before it is played."""


@dataclass(frozen=True)
class PlanEstimate:
    """What a config will cost: entries, games, memory and time.

    Attributes:
        entries: player entries after sweeps.
        games: every game of the plan.
        memory: bytes the plan and one worker's players need at their largest.
        seconds: rough CPU seconds of the games (every built-in player estimates its own; a
            user's player that does not adds nothing).
        slowest: the costliest estimated (player, size) as words, with its seconds a game.
        setup_seconds: rough CPU seconds paid once before a player's first game of a size
            (the optimum's search, a tree read), by each worker at the same time.
    """

    entries: int
    games: int
    memory: int
    seconds: float
    slowest: str
    setup_seconds: float = 0.0

    def wall_seconds(self, workers: int) -> float:
        """Rough seconds of the whole plan on ``workers`` workers."""
        return self.seconds / max(workers, 1) + self.setup_seconds


def estimate_plan(config: ExperimentConfig) -> PlanEstimate:
    """Count and cost the plan without expanding its games."""
    entries = config.entries()
    blocks = config.blocks()
    secrets = sum(source.count(size.space()) for size, source in blocks)
    games = len(entries) * config.runs * secrets
    player_memory = 0
    seconds, setup, slowest, slowest_seconds = 0.0, 0.0, "", 0.0
    for entry in entries:
        player = known_player(entry.player)
        for size, source in blocks:
            space = size.space()
            cost = player.estimate(entry.validated, space)  # each player knows its own options
            player_memory = max(player_memory, cost.memory)
            if cost.seconds is None:
                continue
            per_game = cost.seconds
            played = config.runs * source.count(space)
            seconds += per_game * played
            setup += cost.setup_seconds
            if per_game + cost.setup_seconds / max(played, 1) > slowest_seconds:
                slowest_seconds = per_game + cost.setup_seconds / max(played, 1)
                slowest = f"{entry.label} on ({space.pegs},{space.colors}): "
                if cost.setup_seconds:
                    slowest += f"{duration(cost.setup_seconds)} before the first game, then "
                slowest += f"~{per_game:,.1f} s a game"
    memory = games * KEY_BYTES + player_memory
    return PlanEstimate(len(entries), games, memory, seconds, slowest, setup)


def check_plan(estimate: PlanEstimate, limits: PlanLimits, workers: int = 1) -> str | None:
    """Refuse an absurd plan; for a long one, the line announcing its estimate.

    Raises:
        ConfigError: more entries or games than the limits, or more memory than allowed.
    """
    if estimate.entries > limits.max_entries:
        raise ConfigError(
            f"the plan has {estimate.entries:,} player entries, more than the limit of "
            f"{limits.max_entries:,}; sweep fewer values, or pass --allow-large"
        )
    if estimate.games > limits.max_games:
        raise ConfigError(
            f"the plan has {estimate.games:,} games, more than the limit of "
            f"{limits.max_games:,}; ask for fewer runs, secrets or players, or pass --allow-large"
        )
    memory_limit = limits.max_memory if limits.max_memory is not None else machine_memory()
    memory = estimate.memory * (1 if estimate.games * KEY_BYTES >= estimate.memory else workers)
    if memory > memory_limit:
        raise ConfigError(
            f"the plan needs about {gibibytes(memory)} (populations, archives, samples, tables "
            f"and game keys), more than the {gibibytes(memory_limit)} allowed; shrink "
            "the players' populations, archives or samples (mu), or the number of games, or pass "
            "--allow-large"
        )
    wall = estimate.wall_seconds(workers)
    if wall > ANNOUNCE_SECONDS or estimate.seconds / max(estimate.games, 1) > 10:
        return (
            f"estimate: {duration(wall)} on {workers} worker(s) for {estimate.games:,} "
            f"games (rough model; {estimate.slowest}); Ctrl-C stops it, keeping every "
            "game played"
        )
    return None

"""From a config to the games to play: secrets drawn once, games keyed by identity, batches.

A game's key is (label, pegs, colors, secrets source, run, secret, occurrence); the games
still to play are every key not already stored, so a resumed run plays exactly the rest.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import NamedTuple

from evo_mastermind import scsa
from evo_mastermind.players import known_player
from evo_mastermind.runner.config import ExpandedEntry, ExperimentConfig
from evo_mastermind.runner.sources import (
    FullSecrets,
    GameSize,
    SampleSecrets,
    ScsaSecrets,
    SecretSource,
)
from evo_mastermind.secrets import explicit, full_space, uniform_sample
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

    ``plugins`` names the modules that register players of the user's own: a worker imports
    them (once) before building the player, whatever process or machine it runs on.
    """

    label: str
    player: str
    params_json: str
    root_seed: int
    guess_limit: int | None
    time_limit: float | None
    keys: tuple[GameKey, ...]
    plugins: tuple[str, ...] = ()


def draw_secrets(config: ExperimentConfig, size: GameSize, source: SecretSource) -> list[str]:
    """The secrets of one (size, source): the same for every player and run of the config."""
    space = size.space()
    rng = stream_rng(config.seed, f"secrets {space} {source.describe()}")
    if isinstance(source, FullSecrets):
        codes = full_space(space)
    elif isinstance(source, SampleSecrets):
        codes = uniform_sample(space, rng, source.sample)
    elif isinstance(source, ScsaSecrets):
        codes = scsa.draw_secrets(source.scsa, space, rng, source.n)
    else:
        codes = explicit(space, source.codes)
    return [space.format(code) for code in codes]


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
        params_json=group.entry.params_json,
        root_seed=config.seed,
        guess_limit=config.guess_limit,
        time_limit=config.time_limit,
        keys=keys,
        plugins=_plugins_for(config, group.entry.player),
    )


def _plugins_for(config: ExperimentConfig, player: str) -> tuple[str, ...]:
    """The config's plugins, and the module defining the player if it is one of the user's."""
    module = known_player(player).__module__
    # A player registered by a wrapper script's import is then known to workers too.
    own = [] if module.startswith("evo_mastermind.") or module == "__main__" else [module]
    return tuple(dict.fromkeys([*config.plugins, *own]))

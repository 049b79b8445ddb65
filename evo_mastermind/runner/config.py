"""Experiment configuration: YAML read with ``safe_load``, validated by pydantic models.

Every problem becomes one :class:`ConfigError` line naming the file, the key and the
problem. A player entry may start from a named preset of its player (``preset: paper``; the
options written beside it override the preset's) and may sweep options: a list value
(``mu: [10, 20]``) expands into one entry per value, labelled from the ``label`` template
(``"Entropy mu={mu}"``). ``plugins:`` names modules imported before the players are checked
(players of the user's own).
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import (
    BeforeValidator,
    Field,
    NonNegativeInt,
    PositiveFloat,
    PositiveInt,
    PrivateAttr,
    ValidationError,
    field_validator,
    model_validator,
)

from evo_mastermind.codes import InvalidGameError
from evo_mastermind.messages import closest, did_you_mean
from evo_mastermind.paths import current_name, find_project_root, within_project
from evo_mastermind.players import (
    PluginError,
    import_plugins,
    known_player,
)
from evo_mastermind.runner.entries import (
    ExpandedEntry,
    PlayerEntry,
    count_entries,
)
from evo_mastermind.runner.sources import (
    FullSecrets,
    GameSize,
    ScsaSecrets,
    SecretSource,
    SecretsSpec,
    Strict,
    secrets_form,
    secrets_from,
    sizes_from,
    source_problem,
)
from evo_mastermind.studies import config_file, published_file

MODULE_NAME = r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$"
"""A dotted Python module name, as ``plugins:`` takes."""


class ConfigError(InvalidGameError):
    """A configuration file that cannot be run, explained in one line.

    Attributes:
        traceback_text: the traceback of a plugin that raised on import, for the log.
    """

    traceback_text: str | None = None


class Statistics(Strict):
    """How players are compared."""

    test_on: Literal["games", "runs"] = "games"
    """``games``: Mann–Whitney on the per-game guess counts; ``runs``: on the run means."""
    alpha: float = Field(0.05, gt=0, lt=1)
    """Significance level of every pairwise test."""
    holm: bool = False
    """Apply Holm's correction over all pairs."""
    paired: Literal["auto", "friedman", "signed_rank", "bayesian", "none"] = "auto"
    """Tests paired by secret, beside the unpaired ones, for players that played the same
    secrets (a repeated-measures design, Demšar 2006; Benavoli et al. 2017). The unit is the
    *secret mean*: a player's guesses on one secret averaged over its runs; a secret that any
    player failed on is dropped and counted. ``auto``: the Friedman test with the Nemenyi
    critical difference when three or more players share their secrets, and the Wilcoxon
    signed-rank test of every pair (Holm-corrected) whenever two or more do; nothing when
    they played different secrets. ``friedman``: the Friedman test only; ``signed_rank``:
    the signed-rank tests only; ``bayesian``: the Bayesian signed-rank test of every pair
    (baycomp, rope 0.01 guesses per game); ``none``: no paired test (the paper's tables,
    which keep their unpaired protocol). Reporting only: it never changes the fingerprint."""


def _every_secret() -> list[SecretSource]:
    return [FullSecrets()]


class ExperimentConfig(Strict):
    """A whole experiment: game sizes, secrets, players, runs, seed and limits.

    ``game`` is one size, a list of sizes, or a grid; ``secrets`` one source or a list.
    """

    name: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
    """The experiment's name (letters, digits, ``_.-``); results go to ``results/<name>/``."""
    description: str = ""
    """Free text, kept in ``experiment.json`` and the report."""
    game: Annotated[list[GameSize], BeforeValidator(sizes_from), Field(min_length=1)]
    """One size ``{pegs, colors}``, a list of them, or a grid ``{pegs: [...], colors: [...]}``."""
    secrets: Annotated[list[SecretsSpec], BeforeValidator(secrets_from)] = Field(
        default_factory=_every_secret, min_length=1
    )
    """Where the secrets come from: one source or a list of them (see ``secrets`` below)."""
    skip_impossible: bool = False
    """Skip the (size, SCSA) pairs an SCSA cannot draw (e.g. ``only_once`` with fewer colours
    than pegs) instead of refusing the config."""
    runs: PositiveInt = 1
    """Independent runs of every (player, secret)."""
    seed: NonNegativeInt = 0
    """The root seed: every game's seed derives from it and the game's identity."""
    guess_limit: PositiveInt | None = None
    """Stop a game unsolved after this many guesses (tournaments use 100). Unset: 1000, so a
    player that never finds the secret still stops (its games are counted as failed)."""
    time_limit: PositiveFloat | None = None
    """Stop a game once it has used this many seconds of CPU time on its own thread (the
    player's calls and the codemaker's answers), even inside a call of the player's that
    never returns (the game is then counted as failed)."""
    batch_games: PositiveInt | None = None
    """Games per task sent to a worker (default: adaptive, aiming at about 2 s per task); never
    changes a result."""
    compare_with: str | None = None
    """A published table to set beside the results in the report: a CSV file relative to the
    project root, or a table shipped with the package (``published/…csv``; ``evo-mastermind
    studies`` lists them)."""
    compare_as: dict[str, str] = Field(default_factory=dict)
    """Played label → published label, for rows compared with a published row of another name
    (e.g. ``{"EDA + f_l, ABCA opening": "EDA + f_l"}``: the same player from another opening,
    held against the row the paper printed). Rows of the same name need no entry."""
    report: Literal["paper", "tournament"] = "paper"
    """``paper``: the paper's table with groups and verdicts; ``tournament``: wins, losses,
    failures and scores per secret source."""
    statistics: Statistics = Statistics()
    """How players are compared (see ``statistics`` below)."""
    # Before ``players``: fields validate in order, so plugin players are known in time.
    plugins: list[Annotated[str, Field(pattern=MODULE_NAME)]] = Field(default_factory=list)
    """Modules to import before the players are checked (your own players, registered with
    ``register_player``); workers import them too."""
    players: list[PlayerEntry] = Field(min_length=1)
    """The players, each ``{label, player, ...options}`` (see ``players`` below)."""

    _entries: tuple[ExpandedEntry, ...] = PrivateAttr(default=())

    @field_validator("plugins")
    @classmethod
    def _import_plugins(cls, plugins: list[str]) -> list[str]:
        import_plugins(plugins)
        return plugins

    @field_validator("players")
    @classmethod
    def _known_players(cls, players: list[PlayerEntry]) -> list[PlayerEntry]:
        for position, entry in enumerate(players):
            try:
                entry.expand()
            except InvalidGameError as error:
                raise ValueError(f"entry {position} ({entry.label!r}): {error}") from None
        return players

    @model_validator(mode="after")
    def _consistent(self) -> ExperimentConfig:
        # The plan's entries, expanded once: every later reader takes them from here.
        self._entries = tuple(expanded for entry in self.players for expanded in entry.expand())
        labels = [entry.label for entry in self._entries]
        duplicates = sorted({label for label in labels if labels.count(label) > 1})
        if duplicates:
            raise ValueError(f"player labels must be unique; repeated: {', '.join(duplicates)}")
        strangers = sorted(set(self.compare_as) - set(labels))
        if strangers:
            raise ValueError(f"compare_as: {strangers[0]!r} is not the label of a player")
        kinds = [source.describe() for source in self.secrets]
        if len(set(kinds)) < len(kinds):
            raise ValueError("secrets: each kind of source may appear once")
        for size in self.game:
            for position, source in enumerate(self.secrets):
                where = f"secrets.{position}" if len(self.secrets) > 1 else "secrets"
                problem = source_problem(size.space(), source)
                if problem and not (self.skip_impossible and isinstance(source, ScsaSecrets)):
                    raise ValueError(f"{where}.{secrets_form(source)}: {problem}")
        return self

    def blocks(self) -> list[tuple[GameSize, SecretSource]]:
        """Every (size, secret source) to play, without those skipped as impossible."""
        return [
            (size, source)
            for size in self.game
            for source in self.secrets
            if source_problem(size.space(), source) is None
        ]

    def skipped(self) -> list[str]:
        """The (size, source) pairs left out by ``skip_impossible``, with the reason."""
        return [
            f"({size.pegs},{size.colors}) {source.describe()}: {problem}"
            for size in self.game
            for source in self.secrets
            if (problem := source_problem(size.space(), source)) is not None
        ]

    def entries(self) -> tuple[ExpandedEntry, ...]:
        """Every player entry, sweeps expanded and options validated, in config order.

        Expanded once, when the config is validated (the config is frozen, so is this plan).
        """
        return self._entries

    def published_table(self, config_path: Path) -> Path | None:
        """``compare_with`` resolved: a file of the project holding the config, else shipped.

        None when neither has it (see :func:`evo_mastermind.studies.published_file`).
        """
        assert self.compare_with is not None
        return published_file(self.compare_with, find_project_root(config_path.parent))

    def fingerprint(self) -> str:
        """A hash of everything that decides which games are played and how."""
        relevant = self._game_settings(exclude={"players"})
        # Presets written out, so naming a preset instead of its options keeps the fingerprint.
        relevant["players"] = [entry.resolved() for entry in self.players]
        return _digest(relevant)

    def identity(self) -> str:
        """The fingerprint without runs and players: what every game of the experiment shares.

        Shards are stamped with it, so a resumed run may add runs or players.
        """
        return _digest(self._game_settings(exclude={"runs", "players"}))

    def _game_settings(self, exclude: set[str]) -> dict[str, Any]:
        """The settings that decide games, less ``exclude`` (names and reporting never do)."""
        reporting = {"name", "description", "compare_with", "compare_as", "statistics", "report"}
        return self.model_dump(
            mode="json", exclude=reporting | {"batch_games", "plugins"} | exclude
        )


def _digest(settings: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(settings, sort_keys=True).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class PlanLimits:
    """What a config may ask for before it is refused as absurd (``--allow-large`` lifts it).

    Attributes:
        max_entries: player entries after sweeps are expanded.
        max_games: games in the whole plan.
        max_memory: bytes the plan may need (default: the machine's memory).
    """

    max_entries: int = 1_000
    max_games: int = 10_000_000
    max_memory: int | None = None


NO_LIMITS = PlanLimits(sys.maxsize, sys.maxsize, sys.maxsize)
"""Limits that never refuse (``--allow-large``)."""


MERGE_TAG = "tag:yaml.org,2002:merge"
"""The tag of a YAML merge key (``<<: *base``)."""


class _UniqueKeyLoader(yaml.SafeLoader):
    """``safe_load`` that refuses a key given twice in one mapping (YAML lets the last win)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen = set()
        for key_node, _ in node.value:
            if key_node.tag == MERGE_TAG:
                continue  # ``<<: *base`` merges; keys written beside it override the merged ones
            key = self.construct_object(key_node, deep=deep)
            if isinstance(key, str | int | float | bool) and key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"the key {key!r} is given twice", key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def load_config(
    path: str | Path,
    runs: int | None = None,
    plugins: Sequence[str] = (),
    limits: PlanLimits | None = None,
) -> ExperimentConfig:
    """Read and validate a config file.

    Args:
        path: the YAML file, or a shipped study's name (``paper/table2``; see
            :func:`evo_mastermind.studies.config_file`).
        runs: overrides the file's number of runs.
        plugins: plugin modules added to the file's ``plugins:`` (``--plugin``).
        limits: what the plan may ask for (default :class:`PlanLimits`).

    Raises:
        ConfigError: one line naming the file, the key and the problem.
        StudyError: a study's name that no shipped study has.
    """
    path = config_file(path)
    limits = limits or PlanLimits()
    try:
        text = path.read_bytes().decode("utf-8")
        data = yaml.load(text, Loader=_UniqueKeyLoader)
    except OSError as error:
        raise ConfigError(f"{path}: cannot read: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise ConfigError(
            f"{path}: not a text file (byte {error.start} is not UTF-8); a config is YAML text"
        ) from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(error, "problem", None) or "malformed YAML"
        raise ConfigError(f"{path}: not valid YAML{where}: {problem}") from None
    except RecursionError:
        raise ConfigError(f"{path}: not valid YAML: nested too deeply") from None
    return config_from_data(data, path, runs=runs, plugins=plugins, limits=limits)


def config_from_data(
    data: object,
    source: Path = Path("config"),
    *,
    runs: int | None = None,
    plugins: Sequence[str] = (),
    limits: PlanLimits | None = None,
) -> ExperimentConfig:
    """Validate a config already read (a YAML file's content, or a dict written in Python).

    Args:
        data: the mapping of keys (``name``, ``game``, ``players``, ...); it is not changed.
        source: what errors name first; its folder is where ``compare_with`` is looked up.
        runs: overrides the number of runs.
        plugins: plugin modules added to ``plugins:``.
        limits: what the plan may ask for (default :class:`PlanLimits`).

    Raises:
        ConfigError: one line naming the source, the key and the problem.
    """
    path = source
    limits = limits or PlanLimits()
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of keys (name, game, players, ...)")
    # ``x-`` keys hold YAML anchors for merge keys (``x-base: &base {...}``); nothing reads them.
    # A new mapping: the caller's stays as it was.
    data = {k: v for k, v in data.items() if not (isinstance(k, str) and k.startswith("x-"))}
    if runs is not None:
        data["runs"] = runs
    if plugins:
        written = data.get("plugins") or []
        if isinstance(written, list):
            data["plugins"] = list(dict.fromkeys([*written, *plugins]))
    entries = count_entries(data.get("players"))
    if entries > limits.max_entries:
        raise ConfigError(
            f"{path}: players: the sweeps expand into {entries:,} entries, more than the limit "
            f"of {limits.max_entries:,}; sweep fewer values, or pass --allow-large"
        )
    _import_plugins_first(data, path)
    try:
        config = ExperimentConfig.model_validate(data)
    except ValidationError as error:
        raise ConfigError(f"{path}: {_explain(error, data)}") from None
    except InvalidGameError as error:
        raise ConfigError(f"{path}: {error}") from None
    except RecursionError:
        raise ConfigError(f"{path}: nested too deeply to be a config") from None
    _check_players_fit(config, path)
    if config.compare_with is not None:
        config = config.model_copy(update={"compare_with": current_name(config.compare_with)})
        _check_compare_with(config, path)
    return config


def _import_plugins_first(data: dict[str, Any], path: Path) -> None:
    """Import the plugins before validation, so a plugin's own traceback is kept for the log.

    Raises:
        ConfigError: a plugin that does not import (``traceback_text`` set when it raised).
    """
    plugins = data.get("plugins")
    if not isinstance(plugins, list) or not all(
        isinstance(p, str) and re.match(MODULE_NAME, p) for p in plugins
    ):
        return  # validation names what is wrong with the list
    try:
        import_plugins(plugins)
    except PluginError as error:
        config_error = ConfigError(f"{path}: plugins: {error}")
        config_error.traceback_text = error.traceback_text
        raise config_error from None


def _check_compare_with(config: ExperimentConfig, path: Path) -> None:
    """``compare_with`` is a CSV file inside the project (give others on the command line)."""
    assert config.compare_with is not None
    if not within_project(config.compare_with) or not config.compare_with.lower().endswith(".csv"):
        raise ConfigError(
            f"{path}: compare_with: {config.compare_with!r} must be a .csv path inside the "
            "project (no absolute path, no '..'); compare with another file by "
            "'evo-mastermind report DIR --compare-with FILE'"
        )
    if config.published_table(path) is None:
        root = find_project_root(path.parent)
        raise ConfigError(
            f"{path}: compare_with: no published table at {root / config.compare_with}, nor "
            "shipped under that name ('evo-mastermind studies' lists the shipped ones)"
        )


def _check_players_fit(config: ExperimentConfig, path: Path) -> None:
    for entry in config.entries():
        for size in config.game:
            try:
                known_player(entry.player).check_game(size.space(), entry.validated)
            except InvalidGameError as error:
                raise ConfigError(f"{path}: players: {entry.label!r}: {error}") from None


def _explain(error: ValidationError, data: dict[str, Any]) -> str:
    problems = []
    for issue in error.errors():
        where = ".".join(_readable_location(issue["loc"], data))
        message = issue["msg"]
        if issue["type"] == "extra_forbidden":
            message = "unknown key" + _did_you_mean(str(issue["loc"][-1]), _KNOWN_KEYS)
        elif issue["type"] == "missing":
            message = "required key is missing"
            siblings = _value_at(data, issue["loc"][:-1])
            if isinstance(siblings, dict):
                message += _did_you_mean(str(issue["loc"][-1]), map(str, siblings), missing=True)
        elif message.startswith("Value error, "):
            message = message[len("Value error, ") :]
        problems.append(f"{where}: {message}" if where else message)
    return "; ".join(problems)


def _did_you_mean(key: str, candidates: Any, missing: bool = False) -> str:
    """A hint naming a close match; for a missing key, the typo that was given instead."""
    if not missing:
        return did_you_mean(key, candidates, cutoff=0.7)
    given = closest(key, candidates, cutoff=0.7)
    return f"; {given!r} is given: did you mean {key!r}?" if given is not None else ""


def _value_at(data: Any, loc: tuple[int | str, ...]) -> Any:
    for part in loc:
        in_dict = isinstance(data, dict) and part in data
        if in_dict or (isinstance(data, list) and isinstance(part, int) and part < len(data)):
            data = data[part]
        else:
            return None
    return data


def _readable_location(loc: tuple[int | str, ...], data: dict[str, Any]) -> list[str]:
    """The key path as the user wrote it: no union tag, no index into a one-item shorthand."""
    parts = [str(part) for part in loc]
    if parts[:1] == ["secrets"] and len(parts) >= 3 and parts[2] in _SECRETS_TAGS:
        del parts[2]
    shorthand = len(parts) >= 2 and parts[0] in ("game", "secrets") and parts[1] == "0"
    if shorthand and not isinstance(data.get(parts[0]), list):
        del parts[1]
    return parts


_SECRETS_TAGS = {"full", "sample", "list", "scsa"}
_KNOWN_KEYS = {
    *ExperimentConfig.model_fields,
    *Statistics.model_fields,
    "label",
    "player",
    "pegs",
    "colors",
    "sample",
    "replace",
    "list",
    "scsa",
    "n",
}

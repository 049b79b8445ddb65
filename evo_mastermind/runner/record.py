"""``experiment.json``: what a run was, as one typed record the run writes and the analysis reads.

:class:`ExperimentRecord` holds every field a run writes; a field missing from an older
record takes the config's own default (read from :class:`ExperimentConfig`, never
retyped), so every committed record keeps loading. Keys this version does not know (a
newer record's) are kept as they are.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from evo_mastermind.runner.config import ExperimentConfig, Statistics
from evo_mastermind.runner.provenance import Provenance

RECORD_VERSION = 1
"""The version of ``experiment.json`` written now; records without one are version 0."""


def _default(model: type[BaseModel], name: str) -> Any:
    """The default of a config field: the record's default for the same field."""
    return model.model_fields[name].default


class EntryRecord(BaseModel):
    """One player entry as recorded: its label, player and options (sweeps expanded)."""

    model_config = ConfigDict(frozen=True)

    label: str
    """The entry's label (unique in the experiment)."""
    player: str = ""
    """The registered player's name."""
    params: dict[str, Any] = Field(default_factory=dict)
    """The options the entry's games were played with."""


class ExperimentRecord(BaseModel):
    """``experiment.json``: every field a run writes, typed; version 0 records had no version.

    The fields follow :class:`~evo_mastermind.runner.config.ExperimentConfig` (whose
    defaults they share), flattened as the file has always been written: one game size
    also as ``pegs``/``colors``, secrets as their descriptions, the statistics as ``alpha``,
    ``test_on``, ``holm`` and ``paired``.
    """

    model_config = ConfigDict(extra="allow", frozen=True)

    version: int = 0
    """The record's format version (:data:`RECORD_VERSION` when written now)."""
    name: str
    """The experiment's name."""
    description: str = _default(ExperimentConfig, "description")
    """The config's description."""
    fingerprint: str | None = None
    """A hash of everything that decides which games are played and how."""
    identity: str | None = None
    """The fingerprint without runs and players: what every game of the run shares."""
    games: int | None = None
    """The games planned (unknown in records of version 0)."""
    pegs: int | None = None
    """The code length, when the experiment has one game size."""
    colors: int | None = None
    """The number of colours, when the experiment has one game size."""
    sizes: list[tuple[int, int]] = Field(default_factory=list)
    """Every game size as ``(pegs, colors)``."""
    secrets: list[str] = Field(default_factory=list)
    """Each secret source, described (``full``, ``sample 200``, ...)."""
    skipped: list[str] = Field(default_factory=list)
    """The (size, source) pairs ``skip_impossible`` left out, with the reason."""
    runs: int = _default(ExperimentConfig, "runs")
    """Independent runs over the secrets."""
    seed: int = _default(ExperimentConfig, "seed")
    """The root seed every game's seed derives from."""
    guess_limit: int | None = _default(ExperimentConfig, "guess_limit")
    """Guesses after which a game stops unsolved."""
    time_limit: float | None = _default(ExperimentConfig, "time_limit")
    """Seconds after which a game stops unsolved."""
    players: list[EntryRecord] = Field(default_factory=list)
    """Every player entry with its sweeps expanded, in config order."""
    compare_with: str | None = _default(ExperimentConfig, "compare_with")
    """The published table the report compares with (relative to the project)."""
    compare_as: dict[str, str] = Field(default_factory=dict)
    """Played label → published label, for rows held against a published row of another name."""
    report: Literal["paper", "tournament"] = _default(ExperimentConfig, "report")
    """The kind of report."""
    alpha: float = _default(Statistics, "alpha")
    """The significance level of the report's tests."""
    test_on: Literal["games", "runs"] = _default(Statistics, "test_on")
    """What the tests compare: per-game guess counts or per-run means."""
    holm: bool = _default(Statistics, "holm")
    """Whether the tests are Holm-corrected."""
    paired: Literal["auto", "friedman", "signed_rank", "bayesian", "none"] = _default(
        Statistics, "paired"
    )
    """Which tests paired by secret the report adds (see ``statistics.paired``)."""
    provenance: list[Provenance] = Field(default_factory=list)
    """The code the games were played with, oldest first: one entry, unless a resumed run
    accepted changed code (``--accept-changed-code``); none in records written before it."""

    @classmethod
    def of(
        cls, config: ExperimentConfig, games: int, provenance: list[Provenance] | None = None
    ) -> ExperimentRecord:
        """The record of a run of ``config`` planning ``games`` games, played by ``provenance``."""
        single = config.game[0] if len(config.game) == 1 else None
        return cls(
            version=RECORD_VERSION,
            name=config.name,
            description=config.description,
            fingerprint=config.fingerprint(),
            identity=config.identity(),
            games=games,
            pegs=single.pegs if single else None,
            colors=single.colors if single else None,
            sizes=[(size.pegs, size.colors) for size in config.game],
            secrets=[source.describe() for source in config.secrets],
            skipped=config.skipped(),
            runs=config.runs,
            seed=config.seed,
            guess_limit=config.guess_limit,
            time_limit=config.time_limit,
            players=[EntryRecord(**entry.model_dump()) for entry in config.entries()],
            compare_with=config.compare_with,
            compare_as=dict(config.compare_as),
            report=config.report,
            alpha=config.statistics.alpha,
            test_on=config.statistics.test_on,
            holm=config.statistics.holm,
            paired=config.statistics.paired,
            provenance=list(provenance or []),
        )

    def labels(self) -> list[str]:
        """The player entries' labels, in config order."""
        return [entry.label for entry in self.players]


def as_record(experiment: ExperimentRecord | Mapping[str, Any] | None) -> ExperimentRecord:
    """A record as it is, or one read from its fields as a mapping (unnamed: ``experiment``).

    Raises:
        pydantic.ValidationError: a mapping that is not an experiment record.
    """
    if isinstance(experiment, ExperimentRecord):
        return experiment
    return ExperimentRecord.model_validate({"name": "experiment", **(experiment or {})})

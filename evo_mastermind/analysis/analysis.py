"""The analysis of one experiment, computed once: every table its report and the API show.

An :class:`Analysis` is built from the games, the experiment record and the published table
it compares with (pymoo's single ``Result`` is the model). Each of its tables is computed by
the one function its :class:`AnalysisTable` entry names, at most once, when first asked
for; ``report.md``, the report's CSV files, the command line and every method of
:class:`evo_mastermind.Results` read these tables, so a figure never has two sources.

:data:`TABLES` lists them, each with the results-directory file it is written to (names from
:mod:`evo_mastermind.runner.storage`). A new family of statistics (say, tests paired by
secret) is one more entry: it is then computed, written, returned by
:meth:`Analysis.table` and checked against its file by the tests without another change.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from evo_mastermind.analysis.effect_sizes import mean_confidence_intervals, pairwise_a12
from evo_mastermind.analysis.failures import failure_table
from evo_mastermind.analysis.frames import results_frame
from evo_mastermind.analysis.optimum import optimum_table
from evo_mastermind.analysis.paired import (
    PairedBlock,
    bayesian_test_table,
    mean_rank_table,
    paired_blocks,
    paired_test_table,
)
from evo_mastermind.analysis.published import (
    compare_with_published,
    find_published,
    published_sections,
)
from evo_mastermind.analysis.repeats import distinct_games, identical_runs
from evo_mastermind.analysis.results import (
    AnalysisError,
    Experiment,
    blocks,
    load_experiment,
    load_games,
)
from evo_mastermind.analysis.stats import GroupRule, TestOn, group_table, pairwise_tests
from evo_mastermind.analysis.summary import grouped_summary, summary_table
from evo_mastermind.analysis.tournament import pairwise_score_tests, pooled_table, tournament_table
from evo_mastermind.runner.record import ExperimentRecord, as_record
from evo_mastermind.runner.storage import (
    A12_FILE,
    BAYESIAN_TESTS_FILE,
    BY_SIZE_FILE,
    INTERVALS_FILE,
    MEAN_RANKS_FILE,
    PAIRED_TESTS_FILE,
    SCORE_TESTS_FILE,
    SUMMARY_FILE,
    TESTS_FILE,
    TOURNAMENT_FILE,
)

REPORT_CONFIDENCE = 0.95
"""The confidence level of the report's bootstrap intervals."""


@dataclass(frozen=True)
class AnalysisTable:
    """One table of an analysis: how it is computed, and the file the report writes it to.

    Attributes:
        name: how :meth:`Analysis.table` names it.
        compute: builds it from the analysis (its inputs and other tables); None when it
            does not apply (a by-size table of a single block, a comparison without a
            published table).
        file: the results-directory file it is written to (None: computed, not written).
        report: the kind of report that writes it.
    """

    name: str
    compute: Callable[[Analysis], pd.DataFrame | None]
    file: str | None = None
    report: str = "paper"


def _tests(analysis: Analysis) -> pd.DataFrame:
    record = analysis.experiment
    return pairwise_tests(
        analysis.distinct_games,
        on=analysis.test_on,
        holm=record.holm,
        alpha=record.alpha,
        experiment=record,
        sections=analysis.sections,
    )


def _a12(analysis: Analysis) -> pd.DataFrame:
    return pairwise_a12(
        analysis.distinct_games, on=analysis.test_on, experiment=analysis.experiment
    )


def _intervals(analysis: Analysis) -> pd.DataFrame:
    return _bootstrap(analysis, analysis.experiment.seed, REPORT_CONFIDENCE)


def _bootstrap(analysis: Analysis, seed: int, confidence: float) -> pd.DataFrame:
    return mean_confidence_intervals(
        analysis.distinct_games,
        seed=seed,
        confidence=confidence,
        on=analysis.test_on,
        experiment=analysis.experiment,
    )


def _by_size(analysis: Analysis) -> pd.DataFrame | None:
    if len(blocks(analysis.games)) < 2:
        return None
    return grouped_summary(analysis.games, analysis.experiment)


def _comparison(analysis: Analysis) -> pd.DataFrame | None:
    if analysis.published is None:
        return None
    summary = analysis.frame("summary")
    return compare_with_published(summary, analysis.published, analysis.experiment.compare_as)


TABLES: tuple[AnalysisTable, ...] = (
    AnalysisTable(
        "summary",
        lambda a: summary_table(a.games, a.experiment, a.sections),
        SUMMARY_FILE,
    ),
    AnalysisTable("tests", _tests, TESTS_FILE),
    AnalysisTable("a12", _a12, A12_FILE),
    AnalysisTable("intervals", _intervals, INTERVALS_FILE),
    AnalysisTable("by_size", _by_size, BY_SIZE_FILE),
    AnalysisTable(
        "paired_tests",
        lambda a: paired_test_table(a.paired_blocks(), a.experiment),
        PAIRED_TESTS_FILE,
    ),
    AnalysisTable(
        "mean_ranks", lambda a: mean_rank_table(a.paired_blocks(), a.experiment), MEAN_RANKS_FILE
    ),
    AnalysisTable(
        "bayesian_tests",
        lambda a: bayesian_test_table(a.paired_blocks(), a.experiment),
        BAYESIAN_TESTS_FILE,
    ),
    AnalysisTable("comparison", _comparison),
    AnalysisTable("optimum", lambda a: optimum_table(a.frame("summary"), a.games)),
    AnalysisTable("failures", lambda a: failure_table(a.games)),
    AnalysisTable("tournament", lambda a: tournament_table(a.games), TOURNAMENT_FILE, "tournament"),
    AnalysisTable(
        "score_tests", lambda a: pairwise_score_tests(a.games), SCORE_TESTS_FILE, "tournament"
    ),
    AnalysisTable("pooled", lambda a: pooled_table(a.games), report="tournament"),
)
"""Every table of an analysis, in the order the report writes them."""


class Analysis:
    """One experiment's games and every table computed from them, each computed once.

    Attributes:
        games: one row per game.
        experiment: the experiment record.
        published: the published table compared with, if any.
        published_source: how the report names that table.
        test_on: what the tests, A12 and intervals compare (the record's ``test_on``); a
            player whose runs repeat identical games counts one run (:attr:`distinct_games`).
        sections: each played label's section of the published table, if it has one.
    """

    def __init__(
        self,
        games: pd.DataFrame,
        experiment: Experiment,
        published: pd.DataFrame | None = None,
        published_source: str = "published table",
    ) -> None:
        self.games: pd.DataFrame = games
        self.experiment: ExperimentRecord = as_record(experiment)
        self.published = published
        self.published_source = published_source
        self.test_on: TestOn = self.experiment.test_on
        played = set(games["label"].astype(str)) if "label" in games.columns else set()
        found = published_sections(published) if published is not None else {}
        self.sections: dict[str, str] = {
            label: section for label, section in found.items() if label in played
        }
        self._tables: dict[str, pd.DataFrame | None] = {}
        self._groups: dict[str, pd.DataFrame] = {}
        self._repeated: pd.DataFrame | None = None
        self._distinct: pd.DataFrame | None = None
        self._paired: list[PairedBlock] | None = None

    @classmethod
    def of_results(
        cls,
        games: pd.DataFrame,
        experiment: ExperimentRecord,
        results_dir: Path | str,
        compare_with: Path | None = None,
    ) -> Analysis:
        """The analysis of a results directory's games, with the published table it names.

        Args:
            games: the directory's games.
            experiment: its experiment record.
            results_dir: the results directory (its project holds the published table).
            compare_with: a published table to compare with instead of the record's.

        Raises:
            AnalysisError: a missing published table, or one outside the project.
        """
        if experiment.report == "tournament":
            return cls(games, experiment)
        published, source = find_published(experiment, Path(results_dir), compare_with)
        return cls(games, experiment, published, source)

    @classmethod
    def of_directory(cls, results_dir: Path | str, compare_with: Path | None = None) -> Analysis:
        """The analysis of a results directory (its games, record and published table).

        Args:
            results_dir: a results directory written by a run.
            compare_with: a published table to compare with instead of the record's.

        Raises:
            AnalysisError: no games, no experiment record, or a missing published table.
        """
        games = load_games(results_dir)
        return cls.of_results(games, load_experiment(results_dir), results_dir, compare_with)

    @property
    def repeated(self) -> pd.DataFrame:
        """Each block's players whose runs repeat identical games (:func:`identical_runs`)."""
        if self._repeated is None:
            self._repeated = identical_runs(self.games)
        return self._repeated

    @property
    def distinct_games(self) -> pd.DataFrame:
        """The games the unpaired tests, A12 and intervals count: one run of each repeating player.

        A deterministic player's runs are copies of one another, not independent
        observations (:mod:`evo_mastermind.analysis.repeats`).
        """
        if self._distinct is None:
            self._distinct = distinct_games(self.games, self.repeated)
        return self._distinct

    @property
    def report(self) -> str:
        """The kind of report: ``paper`` or ``tournament``."""
        return self.experiment.report

    def table(self, name: str) -> pd.DataFrame | None:
        """The table ``name`` of :data:`TABLES`, computed on first use.

        Its columns follow :mod:`~evo_mastermind.analysis.frames`' scheme; a former
        column name still indexes it, with a :class:`DeprecationWarning`.

        Raises:
            AnalysisError: no table of that name.
        """
        if name not in self._tables:
            entry = next((table for table in TABLES if table.name == name), None)
            if entry is None:
                names = ", ".join(table.name for table in TABLES)
                raise AnalysisError(f"no analysis table {name!r}; the tables are {names}")
            table = entry.compute(self)
            self._tables[name] = None if table is None else results_frame(table, name)
        return self._tables[name]

    def paired_blocks(self) -> list[PairedBlock]:
        """Each block's design paired by secret, or why it has none: every paired table's input.

        Empty when the record's ``paired`` is ``none`` and for a tournament.
        """
        if self._paired is None:
            none = self.experiment.paired == "none" or self.report != "paper"
            self._paired = [] if none else paired_blocks(self.games, self.experiment)
        return self._paired

    def frame(self, name: str) -> pd.DataFrame:
        """The table ``name``, which must apply to this experiment.

        Raises:
            AnalysisError: no such table, or it does not apply (e.g. ``by_size`` of one block).
        """
        table = self.table(name)
        if table is None:
            raise AnalysisError(f"the {name} table does not apply to {self.experiment.name}")
        return table

    def written(self) -> list[tuple[str, pd.DataFrame | None]]:
        """The files this experiment's report writes, each with its table (None: not written)."""
        return [
            (table.file, self.table(table.name))
            for table in TABLES
            if table.file is not None and table.report == self.report
        ]

    @property
    def summary(self) -> pd.DataFrame:
        """The paper's table (:func:`~evo_mastermind.analysis.summary.summary_table`)."""
        return self.frame("summary")

    @property
    def tests(self) -> pd.DataFrame:
        """Every tested pair (:func:`~evo_mastermind.analysis.stats.pairwise_tests`)."""
        return self.frame("tests")

    @property
    def effect_sizes(self) -> pd.DataFrame:
        """A12 of every tested pair (:func:`~evo_mastermind.analysis.pairwise_a12`)."""
        return self.frame("a12")

    @property
    def intervals(self) -> pd.DataFrame:
        """Bootstrap intervals of the mean guesses, as the report gives them."""
        return self.frame("intervals")

    @property
    def comparison(self) -> pd.DataFrame | None:
        """Each row beside the published figures (None without a published table)."""
        return self.table("comparison")

    def groups(self, rule: GroupRule = "clique") -> pd.DataFrame:
        """Each player's rank, group and letters, per block and section.

        See :func:`~evo_mastermind.analysis.stats.group_table`.
        """
        if rule not in self._groups:
            groups = group_table(self.summary, self.tests, rule)
            self._groups[rule] = results_frame(groups, "groups")
        return self._groups[rule]

    def intervals_at(self, seed: int, confidence: float) -> pd.DataFrame:
        """Bootstrap intervals of the mean guesses with another seed or confidence level.

        The same computation as :attr:`intervals` (the experiment's ``test_on`` and player
        order); with the experiment's seed and 95% they are the report's intervals.
        """
        if seed == self.experiment.seed and confidence == REPORT_CONFIDENCE:
            return self.intervals
        return _bootstrap(self, seed, confidence)

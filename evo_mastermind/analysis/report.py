"""The report of an experiment: its Markdown and the tables behind it, from one analysis.

:func:`write_report` is the entry point for a results directory: it builds the directory's
:class:`~evo_mastermind.analysis.analysis.Analysis` once, renders its report
(:mod:`~evo_mastermind.analysis.markdown` for the paper's format,
:mod:`~evo_mastermind.analysis.tournament` for tournaments) and writes both
(:mod:`~evo_mastermind.analysis.files`). :func:`build_report` does the same work on
DataFrames without touching the disk.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from evo_mastermind.analysis.analysis import Analysis
from evo_mastermind.analysis.files import write_analysis
from evo_mastermind.analysis.markdown import paper_markdown, provenance_markdown
from evo_mastermind.analysis.results import Experiment
from evo_mastermind.analysis.stats import GroupRule
from evo_mastermind.analysis.tournament import tournament_markdown


@dataclass(frozen=True)
class Report:
    """A finished report and the tables behind it (all read from :attr:`analysis`)."""

    markdown: str
    summary: pd.DataFrame
    tests: pd.DataFrame
    by_size: pd.DataFrame | None
    """Per label and block figures, when more than one block was played."""
    effect_sizes: pd.DataFrame | None = None
    """Vargha–Delaney A12 of every pair (:func:`~evo_mastermind.analysis.pairwise_a12`)."""
    intervals: pd.DataFrame | None = None
    """Bootstrap intervals of the mean guesses
    (:func:`~evo_mastermind.analysis.mean_confidence_intervals`)."""
    analysis: Analysis | None = None
    """The analysis every figure above comes from."""


def report_markdown(analysis: Analysis, rule: GroupRule = "clique") -> str:
    """The report of an analysis as Markdown, in the experiment's kind of report.

    Args:
        analysis: the experiment's analysis.
        rule: where group separators go in the paper's format (see
            :func:`~evo_mastermind.analysis.stats.paper_groups`).
    """
    if analysis.report == "tournament":
        markdown = tournament_markdown(
            analysis.games,
            analysis.experiment,
            analysis.frame("tournament"),
            analysis.frame("score_tests"),
            analysis.frame("pooled"),
        )
    else:
        markdown = paper_markdown(analysis, rule)
    return markdown + provenance_markdown(analysis.experiment)


def build_report(
    games: pd.DataFrame,
    experiment: Experiment,
    published: pd.DataFrame | None = None,
    published_source: str = "published table",
    rule: GroupRule = "clique",
) -> Report:
    """The paper-format report of a games table, with the tests set by ``experiment``.

    Args:
        games: a games table.
        experiment: the experiment record (or its fields): its name, tests (``test_on``,
            ``alpha``, ``holm``), players (config order), ``seed`` (of the bootstrap) and
            ``compare_as`` (played label → published label).
        published: a published table to compare with (from
            :func:`~evo_mastermind.analysis.published.load_published`).
        published_source: how the report names the published table.
        rule: where group separators go (see :func:`~evo_mastermind.analysis.stats.paper_groups`).
    """
    analysis = Analysis(games, experiment, published, published_source)
    return Report(
        paper_markdown(analysis, rule) + provenance_markdown(analysis.experiment),
        analysis.summary,
        analysis.tests,
        analysis.table("by_size"),
        analysis.effect_sizes,
        analysis.intervals,
        analysis,
    )


def write_analysis_report(
    analysis: Analysis, results_dir: Path | str, rule: GroupRule = "clique"
) -> str:
    """Write an analysis's tables and report into ``results_dir``; return the Markdown."""
    markdown = report_markdown(analysis, rule)
    write_analysis(analysis, markdown, Path(results_dir))
    return markdown


def write_report(
    results_dir: Path | str, rule: GroupRule = "clique", compare_with: Path | None = None
) -> str:
    """Analyse a results directory: write its summary, tests and report; return the Markdown.

    ``compare_with`` in ``experiment.json`` is found by
    :func:`~evo_mastermind.analysis.published.published_path`; a ``compare_with`` given
    here is used instead.

    Raises:
        AnalysisError: no games, no experiment record, or a missing published table.
    """
    analysis = Analysis.of_directory(results_dir, compare_with)
    return write_analysis_report(analysis, results_dir, rule)

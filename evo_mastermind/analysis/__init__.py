"""Analysis of a games table: the paper's summary, rank-sum groups, published comparison, plots.

Entry points for a results directory: :func:`write_report` (``summary.csv``,
``wilcoxon.csv``, ``report.md``) and :func:`plot_results`. Everything else works on
pandas DataFrames, for notebooks.
"""

from evo_mastermind.analysis.plots import (
    OKABE_ITO,
    PLOT_KINDS,
    PlotKind,
    make_figure,
    plot_cumulative,
    plot_distribution,
    plot_evaluations,
    plot_heatmap,
    plot_results,
    save_figure,
)
from evo_mastermind.analysis.published import (
    compare_with_published,
    load_published,
    published_sections,
    verdict,
)
from evo_mastermind.analysis.report import Report, build_report, write_report
from evo_mastermind.analysis.results import (
    GAME_COLUMNS,
    AnalysisError,
    load_experiment,
    load_games,
)
from evo_mastermind.analysis.stats import (
    compact_letters,
    group_exceptions,
    holm_adjust,
    pairwise_tests,
    paper_groups,
    significant_pairs,
)
from evo_mastermind.analysis.summary import (
    SUMMARY_COLUMNS,
    grouped_summary,
    run_means,
    summary_table,
)
from evo_mastermind.paths import find_project_root

__all__ = [
    "GAME_COLUMNS",
    "OKABE_ITO",
    "PLOT_KINDS",
    "SUMMARY_COLUMNS",
    "AnalysisError",
    "PlotKind",
    "Report",
    "build_report",
    "compact_letters",
    "compare_with_published",
    "find_project_root",
    "group_exceptions",
    "grouped_summary",
    "holm_adjust",
    "load_experiment",
    "load_games",
    "load_published",
    "make_figure",
    "pairwise_tests",
    "paper_groups",
    "plot_cumulative",
    "plot_distribution",
    "plot_evaluations",
    "plot_heatmap",
    "plot_results",
    "published_sections",
    "run_means",
    "save_figure",
    "significant_pairs",
    "summary_table",
    "verdict",
    "write_report",
]

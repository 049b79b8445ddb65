"""Analysis of a games table: the paper's summary, rank-sum groups, published comparison, plots.

Entry points for a results directory: :func:`write_report` (``summary.csv``,
``wilcoxon.csv``, ``a12.csv``, ``intervals.csv``, ``report.md``) and :func:`plot_results`.
:class:`Analysis` holds every table of one experiment, each computed once; the report and
:class:`evo_mastermind.Results` read it. Everything else works on pandas DataFrames.
"""

from typing import TYPE_CHECKING

from evo_mastermind.lazy import lazy_exports

if TYPE_CHECKING:
    from evo_mastermind.analysis.analysis import Analysis
    from evo_mastermind.analysis.effect_sizes import (
        a12_magnitude,
        mean_confidence_intervals,
        pairwise_a12,
        vargha_delaney_a12,
    )
    from evo_mastermind.analysis.frames import RENAMED_COLUMNS, ResultsFrame, read_table
    from evo_mastermind.analysis.ioh_export import export_ioh
    from evo_mastermind.analysis.kinds import PLOT_KINDS, PlotKind
    from evo_mastermind.analysis.plots import (
        OKABE_ITO,
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

# Names resolve on first use (PEP 562): pandas, scipy and matplotlib load when used.
_EXPORTS = {
    "Analysis": "evo_mastermind.analysis.analysis",
    "a12_magnitude": "evo_mastermind.analysis.effect_sizes",
    "mean_confidence_intervals": "evo_mastermind.analysis.effect_sizes",
    "pairwise_a12": "evo_mastermind.analysis.effect_sizes",
    "vargha_delaney_a12": "evo_mastermind.analysis.effect_sizes",
    "RENAMED_COLUMNS": "evo_mastermind.analysis.frames",
    "ResultsFrame": "evo_mastermind.analysis.frames",
    "read_table": "evo_mastermind.analysis.frames",
    "export_ioh": "evo_mastermind.analysis.ioh_export",
    "OKABE_ITO": "evo_mastermind.analysis.plots",
    "PLOT_KINDS": "evo_mastermind.analysis.kinds",
    "PlotKind": "evo_mastermind.analysis.kinds",
    "make_figure": "evo_mastermind.analysis.plots",
    "plot_cumulative": "evo_mastermind.analysis.plots",
    "plot_distribution": "evo_mastermind.analysis.plots",
    "plot_evaluations": "evo_mastermind.analysis.plots",
    "plot_heatmap": "evo_mastermind.analysis.plots",
    "plot_results": "evo_mastermind.analysis.plots",
    "save_figure": "evo_mastermind.analysis.plots",
    "compare_with_published": "evo_mastermind.analysis.published",
    "load_published": "evo_mastermind.analysis.published",
    "published_sections": "evo_mastermind.analysis.published",
    "verdict": "evo_mastermind.analysis.published",
    "Report": "evo_mastermind.analysis.report",
    "build_report": "evo_mastermind.analysis.report",
    "write_report": "evo_mastermind.analysis.report",
    "GAME_COLUMNS": "evo_mastermind.analysis.results",
    "AnalysisError": "evo_mastermind.analysis.results",
    "load_experiment": "evo_mastermind.analysis.results",
    "load_games": "evo_mastermind.analysis.results",
    "compact_letters": "evo_mastermind.analysis.stats",
    "group_exceptions": "evo_mastermind.analysis.stats",
    "holm_adjust": "evo_mastermind.analysis.stats",
    "pairwise_tests": "evo_mastermind.analysis.stats",
    "paper_groups": "evo_mastermind.analysis.stats",
    "significant_pairs": "evo_mastermind.analysis.stats",
    "SUMMARY_COLUMNS": "evo_mastermind.analysis.summary",
    "grouped_summary": "evo_mastermind.analysis.summary",
    "run_means": "evo_mastermind.analysis.summary",
    "summary_table": "evo_mastermind.analysis.summary",
    "find_project_root": "evo_mastermind.paths",
}


__getattr__ = lazy_exports(__name__, _EXPORTS)


__all__ = [
    "GAME_COLUMNS",
    "OKABE_ITO",
    "PLOT_KINDS",
    "RENAMED_COLUMNS",
    "SUMMARY_COLUMNS",
    "Analysis",
    "AnalysisError",
    "PlotKind",
    "Report",
    "ResultsFrame",
    "a12_magnitude",
    "build_report",
    "compact_letters",
    "compare_with_published",
    "export_ioh",
    "find_project_root",
    "group_exceptions",
    "grouped_summary",
    "holm_adjust",
    "load_experiment",
    "load_games",
    "load_published",
    "make_figure",
    "mean_confidence_intervals",
    "pairwise_a12",
    "pairwise_tests",
    "paper_groups",
    "plot_cumulative",
    "plot_distribution",
    "plot_evaluations",
    "plot_heatmap",
    "plot_results",
    "published_sections",
    "read_table",
    "run_means",
    "save_figure",
    "significant_pairs",
    "summary_table",
    "vargha_delaney_a12",
    "verdict",
    "write_report",
]

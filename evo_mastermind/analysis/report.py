"""The Markdown report of an experiment: the paper's table, groups, and the published figures.

:func:`write_report` is the entry point for a results directory: it writes
``summary.csv``, ``wilcoxon.csv`` (every tested pair), ``a12.csv`` (their Vargha–Delaney
A12), ``intervals.csv`` (bootstrap intervals of the mean guesses), ``by_size.csv`` (only
when several game sizes or secret sources were played) and ``report.md``, and returns the
Markdown.
:func:`build_report` does the same work on DataFrames without touching the disk. A file
whose content would change only in its timing columns is left as it is, so rerunning a
committed experiment leaves the repository clean.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from evo_mastermind.analysis.effect_sizes import mean_confidence_intervals, pairwise_a12
from evo_mastermind.analysis.failures import FLAG, failed_games, failure_notes
from evo_mastermind.analysis.optimum import optimum_lines
from evo_mastermind.analysis.published import (
    INSIDE,
    UNPUBLISHED,
    compare_with_published,
    load_published,
    published_sections,
    unreproduced,
)
from evo_mastermind.analysis.results import (
    AnalysisError,
    Experiment,
    blocks,
    load_experiment,
    load_games,
    size_text,
)
from evo_mastermind.analysis.stats import (
    GroupRule,
    TestOn,
    check_group_rule,
    compact_letters,
    group_exceptions,
    pairwise_tests,
    paper_groups,
    significant_pairs,
)
from evo_mastermind.analysis.summary import grouped_summary, summary_table
from evo_mastermind.analysis.tournament import tournament_report
from evo_mastermind.files import check_writable_files
from evo_mastermind.paths import current_name, find_project_root, within_project
from evo_mastermind.runner.record import as_record
from evo_mastermind.studies import published_file

SEPARATOR = "───"

FAILED_GAMES_TEXT = (
    f"Some games failed (did not end with the secret found). Figures and tests cover the "
    f"solved games only; {FLAG} marks a player with failed games, and the notes under its "
    "table say how many, why, and which was first."
)


@dataclass(frozen=True)
class Report:
    """A finished report and the tables behind it."""

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


def _number(value: float, decimals: int = 3) -> str:
    return "" if math.isnan(value) else f"{value:.{decimals}f}"


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _frame_lines(frame: pd.DataFrame) -> list[str]:
    """Any table as Markdown, floats to three decimals."""
    lines = [_row([str(c) for c in frame.columns]), _row(["---"] * len(frame.columns))]
    for values in frame.itertuples(index=False):
        lines.append(_row([_number(v) if isinstance(v, float) else str(v) for v in values]))
    return lines


def _table_lines(
    summary: pd.DataFrame,
    groups: list[list[str]],
    letters: dict[str, str],
    comparison: pd.DataFrame | None,
) -> list[str]:
    """The paper's table with group separators, letters and, if given, the published figures."""
    header = ["Strategy", "runs", "min", "mean", "median", "max", "st.dev.", "max guesses"]
    header += ["letters"]
    if comparison is not None:
        header += ["published mean", "published range", "verdict"]
    lines = [_row(header), _row(["---"] * len(header))]
    rows = {str(row["player"]): row for row in summary.to_dict("records")}
    published = (
        {str(row["player"]): row for row in comparison.to_dict("records")}
        if comparison is not None
        else None
    )
    for index, group in enumerate(groups):
        if index:
            lines.append(_row([SEPARATOR] * len(header)))
        for label in group:
            row = rows[label]
            cells = [_flagged(label, row), str(int(row["runs"]))]
            cells += [_number(float(row[c])) for c in ("min", "mean", "median", "max", "sd")]
            cells += [_count(row["max_guesses"]), letters.get(label, "")]
            if published is not None:
                match = published[label]
                cells += [
                    _number(float(match["published_mean"])),
                    ""
                    if match["verdict"] == UNPUBLISHED
                    else f"{match['published_min']:.3f}–{match['published_max']:.3f}",
                    str(match["verdict"]),
                ]
            lines.append(_row(cells))
    return lines


def _flagged(label: str, row: Mapping[Hashable, Any]) -> str:
    """The label, marked when some of the player's games failed."""
    return f"{label} {FLAG}" if int(row.get("failed") or 0) else label


def _count(value: float) -> str:
    return "" if math.isnan(float(value)) else str(int(value))


def _comparison_lines(comparison: pd.DataFrame, missing: list[str], source: str) -> list[str]:
    """Plain sentences on the rows outside the published range, and on unmatched rows."""
    lines = [f"Compared with the published table `{source}`:", ""]
    outside = comparison[~comparison["verdict"].isin([INSIDE, UNPUBLISHED])]
    for row in outside.itertuples():
        side = "below" if "below" in str(row.verdict) else "above"
        target = str(row.published_label)
        against = "" if target == str(row.player) else f" of {target}"
        lines.append(
            f"- **{row.player}** is outside the published range{against}: mean {row.mean:.3f} is "
            f"{side} {row.published_min:.3f}–{row.published_max:.3f} "
            f"(published mean {row.published_mean:.3f})."
        )
    if outside.empty and (comparison["verdict"] == INSIDE).any():
        lines.append("- Every reproduced row is inside the published range of run means.")
    published = comparison["verdict"] != UNPUBLISHED
    renamed = comparison[published & (comparison["published_label"] != comparison["player"])]
    for row in renamed.itertuples():
        lines.append(f"- **{row.player}** is held against the published row {row.published_label}.")
    unmatched = comparison.loc[comparison["verdict"] == UNPUBLISHED, "player"].tolist()
    if unmatched:
        lines.append(f"- Not in the published table: {', '.join(unmatched)}.")
    if missing:
        lines.append(f"- Published but not played here: {', '.join(missing)}.")
    return lines


def _method_text(on: TestOn, alpha: float, holm: bool, rule: GroupRule, sectioned: bool) -> str:
    values = "per-game guess counts" if on == "games" else "per-run mean guesses"
    family = "section" if sectioned else "table"
    correction = (
        f"Holm's correction over the pairs of each {family}"
        if holm
        else "no multiple-test correction"
    )
    lines = {
        "clique": "a line opens a new group at the first row that differs from any row above "
        "it in its group",
        "chain": "a line separates neighbouring rows that differ",
    }[rule]
    where = (
        "As in the published table, rows are split into its sections (matched by label; rows "
        "in no section come last) and ranked by mean within each, and groups, letters and the "
        "tests behind them compare rows of one section only (`wilcoxon.csv` also holds the "
        "pairs across sections); "
        if sectioned
        else "Rows are ranked by mean; "
    )
    return (
        f"Tests: two-sided Mann–Whitney U (Wilcoxon rank-sum), tie- and continuity-corrected, "
        f"on the {values}, α = {alpha:g}, {correction}. {where}{lines} "
        f"(`{SEPARATOR}`); rows sharing a letter are not significantly different."
    )


def _ranked_lines(
    summary: pd.DataFrame,
    tests: pd.DataFrame,
    comparison: pd.DataFrame | None,
    rule: GroupRule,
) -> list[str]:
    """One ranking's table (a whole block, or one section) and the pairs its lines misstate."""
    # A row without a solved game has no figures: it joins no group and comes last.
    ranked = summary.loc[summary["runs"] > 0, "player"].tolist()
    unmeasured = summary.loc[summary["runs"] == 0, "player"].tolist()
    inside = tests["a"].isin(ranked) & tests["b"].isin(ranked)
    different = significant_pairs(tests[inside])
    groups = paper_groups(ranked, different, rule)
    letters = compact_letters(ranked, different)
    shown = groups + ([unmeasured] if unmeasured else [])
    lines = [*_table_lines(summary, shown, letters, comparison), ""]
    notes = group_exceptions(groups, different)
    return lines + (
        [f"- {note}." for note in notes] or ["- The lines agree with every pairwise test."]
    )


def _block_lines(
    block: pd.DataFrame,
    summary: pd.DataFrame,
    tests: pd.DataFrame,
    published: pd.DataFrame | None,
    published_source: str,
    rule: GroupRule,
    heading: str,
    compare_as: dict[str, str],
) -> list[str]:
    """One block's paper table (one per section, if any), group notes and comparison."""
    comparison = (
        compare_with_published(summary, published, compare_as) if published is not None else None
    )
    runs = "/".join(str(runs) for runs in sorted(set(summary["runs"])))
    lines = [
        f"{block['label'].nunique()} players, {len(block)} games, {runs} runs each, "
        f"secrets: {block['secrets'].iloc[0]}.",
        "",
    ]
    sections = list(dict.fromkeys(summary["section"]))
    if sections == [""]:
        lines += _ranked_lines(summary, tests, comparison, rule)
        lines += failure_notes(block, summary["player"].tolist())
    else:
        for section in sections:
            title = f"Section {section}" if section else "In no published section"
            chosen = summary[summary["section"] == section]
            lines += [f"{heading} {title}", "", *_ranked_lines(chosen, tests, comparison, rule)]
            lines += [*failure_notes(block, chosen["player"].tolist()), ""]
        lines.append(f"{heading} Against the published table")
    lines += ["", *optimum_lines(summary, int(block["pegs"].iloc[0]), int(block["colors"].iloc[0]))]
    if comparison is not None and published is not None:
        missing = unreproduced(summary, published, compare_as)
        lines += ["", *_comparison_lines(comparison, missing, published_source)]
    return [*lines, ""]


def _effect_lines(
    effect_sizes: pd.DataFrame, intervals: pd.DataFrame, on: TestOn, heading: str
) -> list[str]:
    """A block's bootstrap intervals of the mean guesses and its pairs' A12 effect sizes."""
    unit = "games" if on == "games" else "run means"
    lines = [
        f"{heading} Mean guesses with bootstrap 95% confidence intervals",
        "",
        f"Percentile bootstrap over each player's {unit} (scipy.stats.bootstrap, "
        "seeded by the experiment's seed: the intervals are the same on every rerun).",
        "",
        _row(["Strategy", unit, "mean", "95% CI"]),
        _row(["---"] * 4),
    ]
    for row in intervals.to_dict("records"):
        interval = f"{_number(float(row['low']))}–{_number(float(row['high']))}"
        lines.append(
            _row([str(row["label"]), str(row["n"]), _number(float(row["mean"])), interval])
        )
    lines += [
        "",
        f"{heading} Effect sizes (Vargha–Delaney A12)",
        "",
        f"A12 is the probability that one of A's {unit} is above one of B's, ties counted "
        "half: below 0.5 A needs fewer guesses. Magnitude on max(A12, 1 − A12) "
        "(Vargha & Delaney 2000): negligible < 0.56 ≤ small < 0.64 ≤ medium < 0.71 ≤ large.",
        "",
        _row(["A", "B", "A12", "magnitude"]),
        _row(["---"] * 4),
    ]
    for pair in effect_sizes.to_dict("records"):
        cells = [str(pair["label_a"]), str(pair["label_b"]), _number(float(pair["a12"]))]
        lines.append(_row([*cells, str(pair["magnitude"])]))
    return [*lines, ""]


def build_report(
    games: pd.DataFrame,
    experiment: Experiment,
    published: pd.DataFrame | None = None,
    published_source: str = "published table",
    rule: GroupRule = "clique",
) -> Report:
    """The report of a games table, with the tests set by ``experiment``.

    When the published table has sections (a non-empty ``section`` column), the report
    follows them: one table per section in the published order, ranked, grouped and
    tested within the section, then the rows in no section.

    Args:
        games: a games table.
        experiment: the experiment record (or its fields): its name, tests (``test_on``,
            ``alpha``, ``holm``), players (config order), ``seed`` (of the bootstrap) and
            ``compare_as`` (played label → published label).
        published: a published table to compare with (from :func:`load_published`).
        published_source: how the report names the published table.
        rule: where group separators go (see :func:`~evo_mastermind.analysis.stats.paper_groups`).
    """
    check_group_rule(rule)  # before any test is computed
    experiment = as_record(experiment)
    on: TestOn = experiment.test_on
    alpha, holm = experiment.alpha, experiment.holm
    played = set(games["label"].astype(str)) if "label" in games.columns else set()
    sections = {
        label: section
        for label, section in (
            published_sections(published) if published is not None else {}
        ).items()
        if label in played
    }
    summary = summary_table(games, experiment, sections)
    tests = pairwise_tests(
        games, on=on, holm=holm, alpha=alpha, experiment=experiment, sections=sections
    )
    game_blocks = blocks(games)
    effect_sizes = pairwise_a12(games, on=on, experiment=experiment)
    intervals = mean_confidence_intervals(games, seed=experiment.seed, on=on, experiment=experiment)
    lines = [
        f"# {experiment.name}: {size_text(games)}",
        "",
        _method_text(on, alpha, holm, rule, bool(sections)),
        "",
    ]
    if not failed_games(games).empty:
        lines += [FAILED_GAMES_TEXT, ""]
    for (pegs, colors, secrets), block in game_blocks:
        if len(game_blocks) > 1:
            lines += [f"## ({pegs},{colors}), secrets: {secrets}", ""]
        lines += _block_lines(
            block,
            _in_block(summary, pegs, colors, secrets),
            _in_block(tests, pegs, colors, secrets),
            published,
            published_source,
            rule,
            heading="###" if len(game_blocks) > 1 else "##",
            compare_as=experiment.compare_as,
        )
        lines += _effect_lines(
            _in_block(effect_sizes, pegs, colors, secrets),
            _in_block(intervals, pegs, colors, secrets),
            on,
            heading="###" if len(game_blocks) > 1 else "##",
        )
    by_size = grouped_summary(games, experiment) if len(game_blocks) > 1 else None
    if by_size is not None:
        lines += ["## By game size", "", *_frame_lines(by_size), ""]
    return Report("\n".join(lines), summary, tests, by_size, effect_sizes, intervals)


def _in_block(table: pd.DataFrame, pegs: int, colors: int, secrets: str) -> pd.DataFrame:
    chosen = (table["pegs"] == pegs) & (table["colors"] == colors) & (table["secrets"] == secrets)
    return table[chosen]


TIMING_SUMMARY_COLUMNS = ("mean_seconds", "mean_player_seconds", "max_seconds", "mean_ms", "max_ms")
"""Columns of the written tables that measure time: they differ on every rerun."""


def _without_timings(text: str, markdown: bool) -> list[list[str]]:
    """The rows of a CSV, or the lines of Markdown (table cells split), timing columns out."""
    if not markdown:
        rows = list(csv.reader(io.StringIO(text)))
        return _drop_timings(rows) if rows else rows
    lines: list[list[str]] = []
    table: list[list[str]] = []
    for line in [*text.splitlines(), ""]:
        if line.startswith("|"):
            table.append([cell.strip() for cell in line.strip().strip("|").split("|")])
            continue
        lines += _drop_timings(table) if table else []
        table = []
        lines.append([line])
    return lines


def _drop_timings(rows: list[list[str]]) -> list[list[str]]:
    keep = [i for i, name in enumerate(rows[0]) if name not in TIMING_SUMMARY_COLUMNS]
    return [[row[i] for i in keep if i < len(row)] for row in rows]


def write_unless_same(path: Path, text: str) -> None:
    """Write ``text`` unless ``path`` says the same already, timing columns aside.

    A rerun that plays the same games then leaves committed summaries byte-identical (their
    timings stay those of the run that wrote them).
    """
    if path.is_file():
        old = path.read_text()
        if old == text:
            return
        markdown = path.suffix == ".md"
        if _without_timings(old, markdown) == _without_timings(text, markdown):
            return
    path.write_text(text)


def _write_csv(frame: pd.DataFrame, path: Path) -> None:
    write_unless_same(path, frame.to_csv(index=False))


def published_path(source: str, results_dir: Path) -> Path:
    """Where the published table ``source`` (a record's ``compare_with``) is.

    A path relative to the project root (the nearest folder above ``results_dir`` holding
    ``pyproject.toml``), else to the cwd (results kept outside the project), else a table
    shipped with the package (see :func:`evo_mastermind.studies.published_file`). A table
    found nowhere is reported where the project would hold it.
    """
    project = find_project_root(results_dir)
    found = published_file(source, project) or published_file(source, Path.cwd())
    return found or project / current_name(source)


WRITTEN = (
    "report.md",
    "summary.csv",
    "wilcoxon.csv",
    "a12.csv",
    "intervals.csv",
    "by_size.csv",
    "tournament.csv",
    "score_tests.csv",
)
"""The files :func:`write_report` may write into a results directory."""


def write_report(
    results_dir: Path | str, rule: GroupRule = "clique", compare_with: Path | None = None
) -> str:
    """Analyse a results directory: write its summary, tests and report; return the Markdown.

    ``compare_with`` in ``experiment.json`` is found by :func:`published_path`.

    Raises:
        AnalysisError: no games, no experiment record, or a missing published table.
    """
    check_group_rule(rule)
    results_dir = Path(results_dir)
    check_writable_files((results_dir / name for name in WRITTEN), "report output")
    games = load_games(results_dir)
    experiment = load_experiment(results_dir)
    if experiment.report == "tournament":
        markdown, by_size, tests = tournament_report(games, experiment)
        _write_csv(by_size, results_dir / "tournament.csv")
        _write_csv(tests, results_dir / "score_tests.csv")
        write_unless_same(results_dir / "report.md", markdown)
        return markdown
    published = None
    source = experiment.compare_with
    if compare_with is not None:  # given on the command line: any file the user names
        source = str(compare_with)
        published = load_published(compare_with)
    elif source:
        if not within_project(source):
            raise AnalysisError(
                f"compare_with {str(source)[:60]!r} in the experiment record must be a path "
                "inside the project; give another table with --compare-with"
            )
        published = load_published(published_path(str(source), results_dir))
    report = build_report(games, experiment, published, str(source), rule)
    _write_csv(report.summary, results_dir / "summary.csv")
    _write_csv(report.tests, results_dir / "wilcoxon.csv")
    if report.effect_sizes is not None and report.intervals is not None:
        _write_csv(report.effect_sizes, results_dir / "a12.csv")
        _write_csv(report.intervals, results_dir / "intervals.csv")
    if report.by_size is not None:
        _write_csv(report.by_size, results_dir / "by_size.csv")
    else:  # a by-size table left by an earlier, multi-size analysis would mislead
        (results_dir / "by_size.csv").unlink(missing_ok=True)
    write_unless_same(results_dir / "report.md", report.markdown)
    return report.markdown

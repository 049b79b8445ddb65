"""The Markdown of a paper-format report (``report.md``), rendered from an analysis.

:func:`paper_markdown` writes the paper's table (one per published section, if any) with
its groups, letters and verdicts, the notes on failed games, the optimum, the published
comparison, the bootstrap intervals and the A12 effect sizes of every block, and the
by-size table. Every figure comes from :class:`~evo_mastermind.analysis.analysis.Analysis`:
nothing here computes one.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping
from typing import Any

import pandas as pd

from evo_mastermind.analysis.analysis import Analysis
from evo_mastermind.analysis.failures import FLAG, failure_notes
from evo_mastermind.analysis.optimum import optimum_lines
from evo_mastermind.analysis.paired import UNIT
from evo_mastermind.analysis.published import INSIDE, UNPUBLISHED, unreproduced
from evo_mastermind.analysis.repeats import repeats_line
from evo_mastermind.analysis.results import Experiment, blocks, secrets_text, size_text
from evo_mastermind.analysis.stats import (
    GroupRule,
    TestOn,
    group_exceptions,
    pairs_among,
    significant_pairs,
)
from evo_mastermind.runner.record import as_record

SEPARATOR = "───"

FAILED_GAMES_TEXT = (
    f"Some games failed (did not end with the secret found). Figures and tests cover the "
    f"solved games only; {FLAG} marks a player with failed games, and the notes under its "
    "table say how many, why, and which was first."
)


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
    rows = {str(row["label"]): row for row in summary.to_dict("records")}
    published = (
        {str(row["label"]): row for row in comparison.to_dict("records")}
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
        against = "" if target == str(row.label) else f" of {target}"
        lines.append(
            f"- **{row.label}** is outside the published range{against}: mean {row.mean:.3f} is "
            f"{side} {row.published_min:.3f}–{row.published_max:.3f} "
            f"(published mean {row.published_mean:.3f})."
        )
    if outside.empty and (comparison["verdict"] == INSIDE).any():
        lines.append("- Every reproduced row is inside the published range of run means.")
    published = comparison["verdict"] != UNPUBLISHED
    renamed = comparison[published & (comparison["published_label"] != comparison["label"])]
    for row in renamed.itertuples():
        lines.append(f"- **{row.label}** is held against the published row {row.published_label}.")
    unmatched = comparison.loc[comparison["verdict"] == UNPUBLISHED, "label"].tolist()
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
    groups: pd.DataFrame,
    comparison: pd.DataFrame | None,
    block: tuple[int, int, str],
) -> list[str]:
    """One ranking's table (a whole block, or one section) and the pairs its lines misstate."""
    # A row without a solved game has no figures: it joins no group and comes last.
    ranked = summary.loc[summary["runs"] > 0, "label"].tolist()
    different = significant_pairs(pairs_among(tests, block, ranked))
    chosen = groups[groups["label"].isin(summary["label"])]
    shown = [list(group["label"]) for _, group in chosen.groupby("group", sort=True)]
    untested = chosen.loc[chosen["group"].isna(), "label"].tolist()
    shown += [untested] if untested else []
    letters = dict(zip(chosen["label"], chosen["letters"], strict=True))
    lines = [*_table_lines(summary, shown, letters, comparison), ""]
    measured = [[label for label in group if label in ranked] for group in shown]
    notes = group_exceptions([group for group in measured if group], different)
    return lines + (
        [f"- {note}." for note in notes] or ["- The lines agree with every pairwise test."]
    )


def _block_lines(
    analysis: Analysis,
    block: tuple[int, int, str],
    played: pd.DataFrame,
    rule: GroupRule,
    heading: str,
) -> list[str]:
    """One block's paper table (one per section, if any), group notes and comparison."""
    summary = _in_block(analysis.summary, block)
    tests = _in_block(analysis.tests, block)
    groups = _in_block(analysis.groups(rule), block)
    failures = _in_block(analysis.frame("failures"), block)
    every = analysis.comparison
    comparison = None if every is None else every[_block_mask(analysis.summary, block)]
    runs = "/".join(str(runs) for runs in sorted(set(summary["runs"])))
    lines = [
        f"{played['label'].nunique()} players, {len(played)} games, {runs} runs each, "
        f"secrets: {secrets_text(str(played['secrets'].iloc[0]), played)}.",
        "",
    ]
    sections = list(dict.fromkeys(summary["section"]))
    if sections == [""]:
        lines += _ranked_lines(summary, tests, groups, comparison, block)
        lines += failure_notes(failures, summary["label"].tolist())
    else:
        for section in sections:
            title = f"Section {section}" if section else "In no published section"
            chosen = summary[summary["section"] == section]
            lines += [
                f"{heading} {title}",
                "",
                *_ranked_lines(chosen, tests, groups, comparison, block),
            ]
            lines += [*failure_notes(failures, chosen["label"].tolist()), ""]
        lines.append(f"{heading} Against the published table")
    lines += ["", *optimum_lines(_in_block(analysis.frame("optimum"), block))]
    if comparison is not None and analysis.published is not None:
        compare_as = analysis.experiment.compare_as
        missing = unreproduced(summary, analysis.published, compare_as)
        lines += ["", *_comparison_lines(comparison, missing, analysis.published_source)]
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


PAIRED_TEXT = (
    "Every player here played the same secrets, so they are also compared secret by secret "
    "(a repeated-measures design, Demšar 2006; Benavoli et al. 2017). Unit of these tests: "
    f"the {UNIT}; a player whose runs repeat the same games counts each secret once. A "
    "secret on which any player has a failed game is dropped (counted below)."
)


def _paired_lines(analysis: Analysis, heading: str) -> list[str]:
    """The paired comparisons by secret: Friedman, mean ranks, critical difference, pairs."""
    found = analysis.paired_blocks()
    choice = analysis.experiment.paired
    if not any(each.design is not None for each in found):
        if choice in ("auto", "none") or not found:
            return []
        why = "; ".join(f"{_block_text(each.block)}: {each.reason}" for each in found)
        return [f"{heading} Paired comparisons by secret", "", f"Not paired ({why}).", ""]
    ranks, tests = analysis.table("mean_ranks"), analysis.table("paired_tests")
    bayes = analysis.table("bayesian_tests")
    lines = [f"{heading} Paired comparisons by secret", "", PAIRED_TEXT, ""]
    for each in found:
        lines += [f"**{_block_text(each.block)}**", ""]
        if each.design is None:
            lines += [f"Not paired: {each.reason}.", ""]
            continue
        design = each.design
        lines.append(
            f"{len(design.table)} secrets used, {design.dropped} dropped for failed games; "
            f"unit: secret mean."
        )
        repeated = design.repeats.loc[design.repeats["identical_runs"], "label"].tolist()
        if repeated:
            lines.append(
                f"Runs that repeat the same games (deterministic), counted once: "
                f"{', '.join(repeated)}."
            )
        lines.append("")
        if ranks is not None and not (chosen := _in_block(ranks, each.block)).empty:
            first = chosen.iloc[0]
            lines += [
                f"Friedman test (scipy.stats.friedmanchisquare): χ² = "
                f"{float(first['friedman_statistic']):.3f}, p = {float(first['friedman_p']):.3g}. "
                f"Mean ranks (1 = fewest guesses) with the Nemenyi critical difference "
                f"CD = {float(first['critical_difference']):.3f} at α = {float(first['alpha']):g} "
                "(scikit-posthocs; Demšar 2006): mean ranks further apart than CD differ.",
                "",
                _row(["Strategy", "mean rank"]),
                _row(["---"] * 2),
            ]
            ordered = chosen.sort_values("mean_rank", kind="stable")
            for row in ordered.to_dict("records"):
                lines.append(_row([str(row["label"]), _number(float(row["mean_rank"]))]))
            lines.append("")
        if tests is not None and not (pairs := _in_block(tests, each.block)).empty:
            lines += [
                "Wilcoxon signed-rank test of every pair (scipy.stats.wilcoxon, Pratt's zeros), "
                "Holm-corrected over the block's pairs (statsmodels):",
                "",
                _row(["A", "B", "mean A", "mean B", "A − B", "p", "p (Holm)", "differ"]),
                _row(["---"] * 8),
            ]
            for row in pairs.to_dict("records"):
                cells = [str(row["label_a"]), str(row["label_b"])]
                cells += [_number(float(row[c])) for c in ("mean_a", "mean_b", "mean_difference")]
                cells += [f"{float(row['p']):.3g}", f"{float(row['p_adjusted']):.3g}"]
                lines.append(_row([*cells, "yes" if row["significant"] else "no"]))
            lines.append("")
        if bayes is not None and not (pairs := _in_block(bayes, each.block)).empty:
            rope = float(pairs["rope"].iloc[0])
            lines += [
                f"Bayesian signed-rank test of every pair (baycomp; Benavoli et al. 2017), "
                f"region of practical equivalence ±{rope:g} guesses per game:",
                "",
                _row(["A", "B", "P(A better)", "P(equivalent)", "P(B better)"]),
                _row(["---"] * 5),
            ]
            for row in pairs.to_dict("records"):
                cells = [str(row["label_a"]), str(row["label_b"])]
                cells += [
                    _number(float(row[c])) for c in ("p_a_better", "p_equivalent", "p_b_better")
                ]
                lines.append(_row(cells))
            lines.append("")
    return lines


def _block_text(block: tuple[int, int, str]) -> str:
    pegs, colors, secrets = block
    return f"({pegs},{colors}), secrets: {secrets}"


def paper_markdown(analysis: Analysis, rule: GroupRule = "clique") -> str:
    """The paper-format report of an analysis, as Markdown.

    When the published table has sections (a non-empty ``section`` column), the report
    follows them: one table per section in the published order, ranked, grouped and
    tested within the section, then the rows in no section.

    Args:
        analysis: the experiment's analysis.
        rule: where group separators go (see :func:`~evo_mastermind.analysis.stats.paper_groups`).
    """
    games, experiment = analysis.games, analysis.experiment
    on = analysis.test_on
    lines = [
        f"# {experiment.name}: {size_text(games)}",
        "",
        _method_text(on, experiment.alpha, experiment.holm, rule, bool(analysis.sections)),
        "",
    ]
    if not analysis.frame("failures").empty:
        lines += [FAILED_GAMES_TEXT, ""]
    repeats = repeats_line(analysis.repeated)
    if repeats is not None:
        lines += [repeats, ""]
    game_blocks = blocks(games)
    heading = "###" if len(game_blocks) > 1 else "##"
    for block, played in game_blocks:
        pegs, colors, secrets = block
        if len(game_blocks) > 1:
            lines += [f"## ({pegs},{colors}), secrets: {secrets_text(secrets, played)}", ""]
        lines += _block_lines(analysis, block, played, rule, heading)
        lines += _effect_lines(
            _in_block(analysis.effect_sizes, block),
            _in_block(analysis.intervals, block),
            on,
            heading,
        )
    lines += _paired_lines(analysis, "##")
    by_size = analysis.table("by_size")
    if by_size is not None:
        lines += ["## By game size", "", *_frame_lines(by_size), ""]
    return "\n".join(lines)


def _block_mask(table: pd.DataFrame, block: tuple[int, int, str]) -> pd.Series:
    pegs, colors, secrets = block
    return (table["pegs"] == pegs) & (table["colors"] == colors) & (table["secrets"] == secrets)


def _in_block(table: pd.DataFrame, block: tuple[int, int, str]) -> pd.DataFrame:
    return table[_block_mask(table, block)]


def provenance_markdown(experiment: Experiment) -> str:
    """The report's last section: the code the games were played with (none before it was kept).

    Several entries mean that a resumed run added games played by changed code
    (``--accept-changed-code``): the section says so first.
    """
    history = as_record(experiment).provenance
    if not history:
        return ""
    lines = ["## Provenance", ""]
    if len(history) > 1:
        lines += [
            f"**The games were played by {len(history)} versions of the code** (a resumed run "
            "accepted changed code); they are listed oldest first.",
            "",
        ]
    lines += [f"- {entry.describe()}" for entry in history]
    return "\n".join(["", *lines, ""])

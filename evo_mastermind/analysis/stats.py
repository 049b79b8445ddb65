"""Pairwise rank-sum tests between players, the paper's groups and a compact letter display.

Every pair of players in a block (same pegs, colors and secrets) is compared with the
two-sided Mann–Whitney U test (the Wilcoxon rank-sum test) with tie correction and
continuity correction, on the per-game guess counts or on the per-run means. With 10 runs
the normal approximation is also what Matlab's ``ranksum`` (the paper's tool) uses.

Players ranked by mean are then shown two ways:

* **Separators**, as Runarsson & Merelo (2009) draw them. "Indistinguishable" is not
  transitive, so the rule matters. The default ``clique`` rule walks down the ranking and opens a
  new group (draws a line) at the first row that differs significantly from *any* row of the current
  group: every group is then a set of mutually indistinguishable players. The ``chain`` rule draws a
  line only between neighbours that differ. Either way, the pairs the lines misrepresent are listed
  by :func:`group_exceptions`, as the paper does in its captions (Table 4's and Table 5's notes fit
  the clique rule, Table 6's the chain rule).
* **Letters** (a compact letter display): players sharing a letter are not significantly
  different, built with the insert-and-absorb algorithm (Piepho 2004).
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal, cast

import numpy as np
import numpy.typing as npt
import pandas as pd
from scipy.stats import mannwhitneyu

from evo_mastermind.analysis.frames import results_frame
from evo_mastermind.analysis.results import (
    BLOCK_COLUMNS,
    AnalysisError,
    Experiment,
    blocks,
    label_order,
    require_columns,
)
from evo_mastermind.analysis.summary import run_means, solved_games

TestOn = Literal["games", "runs"]
GroupRule = Literal["clique", "chain"]
Pair = frozenset[str]

TEST_COLUMNS = (
    *BLOCK_COLUMNS,
    "section",
    "label_a",
    "label_b",
    "n_a",
    "n_b",
    "mean_a",
    "mean_b",
    "statistic",
    "p",
    "p_adjusted",
    "significant",
)
"""Columns of :func:`pairwise_tests`: one row per pair of labels within a block.

``section`` names the section both labels belong to: empty when neither has one (as in
every table without sections), :data:`ACROSS_SECTIONS` when they are in different ones.
"""

ACROSS_SECTIONS = "(across sections)"
"""The ``section`` of a tested pair whose labels are in different sections."""

LETTERS = string.ascii_lowercase + string.ascii_uppercase


def rank_sum_test(first: npt.ArrayLike, second: npt.ArrayLike) -> tuple[float, float]:
    """Two-sided Mann–Whitney U with tie and continuity correction: (U of ``first``, p).

    Raises:
        AnalysisError: a sample is empty.
    """
    if np.size(first) == 0 or np.size(second) == 0:
        raise AnalysisError("a rank-sum test needs at least one value in each sample")
    result = mannwhitneyu(
        first, second, alternative="two-sided", use_continuity=True, method="asymptotic"
    )
    return float(result.statistic), float(result.pvalue)


def holm_adjust(p_values: Sequence[float]) -> npt.NDArray[np.float64]:
    """Holm's step-down adjusted p-values, in the order given (reject where <= alpha)."""
    p = np.asarray(p_values, dtype=float)
    order = np.argsort(p, kind="stable")
    factors = p.size - np.arange(p.size)
    stepped = np.minimum(1.0, np.maximum.accumulate(p[order] * factors))
    adjusted = np.empty_like(p)
    adjusted[order] = stepped
    return adjusted


def compared_values(block: pd.DataFrame, on: TestOn) -> dict[str, npt.NDArray[np.float64]]:
    """The values each label contributes to the tests: its games' guesses or its run means.

    Raises:
        AnalysisError: ``on`` is neither ``games`` nor ``runs``.
    """
    if on == "games":
        return {
            str(label): played["n_guesses"].to_numpy(dtype=float)
            for label, played in block.groupby("label", sort=False)
        }
    if on == "runs":
        means = run_means(block)
        return {
            str(label): runs["mean_guesses"].to_numpy(dtype=float)
            for label, runs in means.groupby("label", sort=False)
        }
    raise AnalysisError(f"test_on must be 'games' or 'runs', got {on!r}")


def pairwise_tests(
    games: pd.DataFrame,
    on: TestOn = "games",
    holm: bool = False,
    alpha: float = 0.05,
    experiment: Experiment | None = None,
    sections: Mapping[str, str] | None = None,
) -> pd.DataFrame:
    """Every pair of labels within each block, tested; columns :data:`TEST_COLUMNS`.

    Args:
        games: a games table; only its solved games are compared (a label without one is
            in no pair).
        on: test the per-game guess counts (``games``) or the per-run means (``runs``).
        holm: adjust p-values with Holm's method over the pairs of each block, or with
            ``sections``, over the pairs of each section (the pairs of labels in no
            section, and the pairs across sections, form one family each).
        alpha: the significance level ``p_adjusted`` is compared with.
        experiment: the experiment record; pairs follow its players' order.
        sections: the section of each label that has one (see
            :func:`~evo_mastermind.analysis.published.published_sections`).

    Raises:
        AnalysisError: a bad ``on`` or ``alpha``, or a table without the needed columns.
    """
    if not 0 < alpha < 1:
        raise AnalysisError(f"alpha must be between 0 and 1, got {alpha}")
    require_columns(games, ("label", "run", "n_guesses"))
    order = label_order(games, experiment)
    section_of = dict(sections or {})
    rows: list[dict[str, Any]] = []
    # Failed games are not guess counts of the protocol: only solved games are compared.
    counted = solved_games(games)
    for (pegs, colors, secrets), block in blocks(counted) if len(counted) else []:
        values = compared_values(block, on)
        labels = [label for label in order if label in values]
        block_rows: list[dict[str, Any]] = []
        for i, first in enumerate(labels):
            for second in labels[i + 1 :]:
                statistic, p = rank_sum_test(values[first], values[second])
                section = section_of.get(first, "")
                if section != section_of.get(second, ""):
                    section = ACROSS_SECTIONS
                block_rows.append(
                    {
                        "pegs": pegs,
                        "colors": colors,
                        "secrets": secrets,
                        "section": section,
                        "label_a": first,
                        "label_b": second,
                        "n_a": values[first].size,
                        "n_b": values[second].size,
                        "mean_a": float(values[first].mean()),
                        "mean_b": float(values[second].mean()),
                        "statistic": statistic,
                        "p": p,
                    }
                )
        for section in dict.fromkeys(row["section"] for row in block_rows):
            family = [row for row in block_rows if row["section"] == section]
            p_values = [row["p"] for row in family]
            adjusted = holm_adjust(p_values) if holm else np.asarray(p_values, dtype=float)
            for row, p_adjusted in zip(family, adjusted, strict=True):
                row["p_adjusted"] = float(p_adjusted)
                row["significant"] = bool(p_adjusted <= alpha)
        rows.extend(block_rows)
    return results_frame(pd.DataFrame(rows, columns=list(TEST_COLUMNS)), "tests")


def significant_pairs(tests: pd.DataFrame) -> set[Pair]:
    """The pairs of labels a test table marks as significantly different."""
    require_columns(tests, ("label_a", "label_b", "significant"), what="tests", allow_empty=True)
    chosen = tests[tests["significant"].astype(bool)]
    pairs = zip(chosen["label_a"], chosen["label_b"], strict=True)
    return {frozenset((str(a), str(b))) for a, b in pairs}


def check_group_rule(rule: object) -> GroupRule:
    """``rule`` if it is a group rule (``clique`` or ``chain``).

    Raises:
        AnalysisError: any other value, in one line.
    """
    if rule == "clique":
        return "clique"
    if rule == "chain":
        return "chain"
    raise AnalysisError(f"group rule must be 'clique' or 'chain', got {rule!r}")


def paper_groups(
    ranked: Sequence[str], different: Iterable[Pair], rule: GroupRule = "clique"
) -> list[list[str]]:
    """Split labels ranked best first into groups separated by the paper's lines.

    Args:
        ranked: labels, best (lowest mean) first.
        different: pairs of labels that differ significantly.
        rule: ``clique`` (a new group at the first row differing from any row of the
            current group) or ``chain`` (a line between neighbours that differ).

    Raises:
        AnalysisError: an unknown rule.
    """
    check_group_rule(rule)
    differ = set(different)
    groups: list[list[str]] = []
    for label in ranked:
        current = groups[-1] if groups else []
        compared = current if rule == "clique" else current[-1:]
        if current and not any(frozenset((label, other)) in differ for other in compared):
            current.append(label)
        else:
            groups.append([label])
    return groups


def group_exceptions(groups: Sequence[Sequence[str]], different: Iterable[Pair]) -> list[str]:
    """The pairs the separators misrepresent, as sentences (the paper's caption notes).

    A pair in one group that differs significantly, or a pair split by a line that does not.
    """
    differ = set(different)
    group_of = {label: index for index, group in enumerate(groups) for label in group}
    ranked = [label for group in groups for label in group]
    notes = []
    for i, first in enumerate(ranked):
        for second in ranked[i + 1 :]:
            together = group_of[first] == group_of[second]
            differs = frozenset((first, second)) in differ
            if together and differs:
                notes.append(f"{first} and {second} differ significantly, though in one group")
            elif not together and not differs:
                notes.append(
                    f"{first} and {second} are not significantly different, though a line "
                    "separates them"
                )
    return notes


def _letter(index: int) -> str:
    """The ``index``-th letter: a..z, A..Z, then the same with primes."""
    return LETTERS[index % len(LETTERS)] + "'" * (index // len(LETTERS))


def compact_letters(ranked: Sequence[str], different: Iterable[Pair]) -> dict[str, str]:
    """A compact letter display by insert-and-absorb: labels sharing a letter do not differ.

    Args:
        ranked: labels, best first; letters are given in this order (the best gets ``a``).
        different: pairs of labels that differ significantly.
    """
    rank = {label: index for index, label in enumerate(ranked)}
    columns: list[frozenset[str]] = [frozenset(ranked)]
    pairs = sorted(
        (tuple(sorted(pair, key=rank.__getitem__)) for pair in different if pair <= set(rank)),
        key=lambda pair: (rank[pair[0]], rank[pair[1]]),
    )
    for first, second in pairs:
        split: list[frozenset[str]] = []
        for column in columns:
            if first in column and second in column:
                # Insert: the column splits into one without each member of the pair.
                split.extend((column - {second}, column - {first}))
            else:
                split.append(column)
        # Absorb: a column inside another adds no information.
        unique = list(dict.fromkeys(split))
        columns = [c for c in unique if not any(c < other for other in unique)]
    columns.sort(key=lambda column: sorted(rank[label] for label in column))
    letters = {label: "" for label in ranked}
    for index, column in enumerate(columns):
        for label in sorted(column, key=rank.__getitem__):
            letters[label] += _letter(index)
    return letters


GROUP_COLUMNS = (*BLOCK_COLUMNS, "section", "label", "rank", "group", "letters")
"""Columns of :func:`group_table`."""


def group_table(
    summary: pd.DataFrame, tests: pd.DataFrame, rule: GroupRule = "clique"
) -> pd.DataFrame:
    """Each player's rank, group (the paper's lines) and letters, per block and section.

    Rows follow the summary's ranking within each block and section; a player without a
    solved game is in no group (``group`` missing) and has no letters: it comes last.

    Args:
        summary: a table from :func:`~evo_mastermind.analysis.summary.summary_table`.
        tests: its pairs, from :func:`pairwise_tests`.
        rule: where the lines go (see :func:`paper_groups`).

    Returns:
        Columns :data:`GROUP_COLUMNS`; ``group`` counts from 1 in each block and section
        (missing for a player without a solved game).
    """
    rows: list[dict[str, Any]] = []
    for key, chosen in summary.groupby([*BLOCK_COLUMNS, "section"], sort=False):
        pegs, colors, secrets, section = cast(tuple[int, int, str, str], key)
        ranked = chosen.loc[chosen["runs"] > 0, "label"].tolist()
        unmeasured = chosen.loc[chosen["runs"] == 0, "label"].tolist()
        different = significant_pairs(pairs_among(tests, (pegs, colors, secrets), ranked))
        letters = compact_letters(ranked, different)
        shown = paper_groups(ranked, different, rule) + ([unmeasured] if unmeasured else [])
        ranks = iter(range(1, len(chosen) + 1))
        rows += [
            {
                "pegs": pegs,
                "colors": colors,
                "secrets": secrets,
                "section": section,
                "label": label,
                "rank": next(ranks),
                # A player without a solved game was never tested: it is in no group.
                "group": pd.NA if label in unmeasured else number,
                "letters": letters.get(label, ""),
            }
            for number, group in enumerate(shown, start=1)
            for label in group
        ]
    table = pd.DataFrame(rows, columns=list(GROUP_COLUMNS))
    table["group"] = table["group"].astype("Int64")
    return table


def pairs_among(
    tests: pd.DataFrame, block: tuple[int, int, str], labels: Sequence[str]
) -> pd.DataFrame:
    """The tested pairs of one block (pegs, colors, secrets) whose labels are both in ``labels``."""
    pegs, colors, secrets = block
    chosen = (tests["pegs"] == pegs) & (tests["colors"] == colors) & (tests["secrets"] == secrets)
    return tests[chosen & tests["label_a"].isin(labels) & tests["label_b"].isin(labels)]

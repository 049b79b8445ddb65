"""Published tables (CSV, shipped under ``published/``) and how a reproduction compares with them.

A published table has one row per strategy: ``label, section, min, mean, median, max, sd,
max_guesses`` (the paper's statistics over 10 run means; ``max_guesses`` may be empty).
``section`` is empty unless the paper splits its table (Runarsson & Merelo's Table 4, by μ): rows
are then ranked and tested within their section (see :func:`published_sections`).
A reproduced row is *inside* when its mean of run means, rounded to the published
precision, lies within the published [min, max] of run means.

:func:`find_published` is the one place that finds the table an experiment compares with
(its record's ``compare_with``, or a file the user names instead).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from evo_mastermind.analysis.frames import current_names, results_frame
from evo_mastermind.analysis.results import AnalysisError, require_columns
from evo_mastermind.files import check_readable_file
from evo_mastermind.paths import current_name, find_project_root, within_project
from evo_mastermind.runner.record import ExperimentRecord
from evo_mastermind.studies import published_file

PUBLISHED_COLUMNS = ("label", "section", "min", "mean", "median", "max", "sd", "max_guesses")
"""Columns of a published-table CSV."""

COMPARISON_COLUMNS = (
    "label",
    "mean",
    "published_mean",
    "published_min",
    "published_max",
    "published_max_guesses",
    "verdict",
    "published_label",
)
"""Columns of :func:`compare_with_published`."""

PUBLISHED_DECIMALS = 3
"""Runarsson & Merelo 2009 prints its statistics to three decimals."""

INSIDE = "inside the published range"
BELOW = "outside: below the published range"
ABOVE = "outside: above the published range"
UNPUBLISHED = "no published row"


def load_published(path: Path | str) -> pd.DataFrame:
    """Read a published table, checking its columns and that its figures are consistent.

    Raises:
        AnalysisError: a missing file or column, a repeated label, or a row whose mean or
            median is outside its own min..max.
    """
    path = Path(path)
    check_readable_file(path, "published table")
    if not path.is_file():
        raise AnalysisError(f"no published table at {path}")
    try:
        table = pd.read_csv(path, dtype={"label": str, "section": str}, keep_default_na=False)
    except (UnicodeDecodeError, pd.errors.ParserError, pd.errors.EmptyDataError) as error:
        problem = " ".join(str(error).split())[:120]
        raise AnalysisError(f"{path} is not a CSV table of published figures ({problem})") from None
    require_columns(table, PUBLISHED_COLUMNS, what=f"published ({path.name})")
    for column in ("min", "mean", "median", "max", "sd", "max_guesses"):
        written = table[column].replace("", np.nan)
        table[column] = pd.to_numeric(written, errors="coerce")
        wrong = table[column].isna() & written.notna()
        if wrong.any():
            first = int(np.flatnonzero(wrong.to_numpy())[0])
            raise AnalysisError(
                f"{path.name}: row {table['label'].iloc[first]!r}, column {column!r}: "
                f"{str(written.iloc[first])[:40]!r} is not a number"
            )
    repeated = sorted(set(table["label"][table["label"].duplicated()]))
    if repeated:
        raise AnalysisError(f"{path.name}: label {repeated[0]!r} appears more than once")
    bad = table[
        (table["min"] > table["mean"])
        | (table["mean"] > table["max"])
        | (table["min"] > table["median"])
        | (table["median"] > table["max"])
    ]
    if not bad.empty:
        raise AnalysisError(
            f"{path.name}: row {bad['label'].iloc[0]!r} has a mean or median outside min..max"
        )
    return table


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


def find_published(
    experiment: ExperimentRecord, results_dir: Path, compare_with: Path | None = None
) -> tuple[pd.DataFrame | None, str]:
    """The published table an experiment's results are compared with, and how to name it.

    Args:
        experiment: the experiment record (its ``compare_with``, relative to the project).
        results_dir: the results directory (the project is found above it).
        compare_with: a table the user names instead (any file).

    Returns:
        The table (None when the record names none and none is given) and its source.

    Raises:
        AnalysisError: the record's table is outside the project, or a table is missing or
            is not a published table.
    """
    if compare_with is not None:  # given by the user: any file they name
        return load_published(compare_with), str(compare_with)
    source = experiment.compare_with
    if not source:
        return None, str(source)
    if not within_project(source):
        raise AnalysisError(
            f"compare_with {str(source)[:60]!r} in the experiment record must be a path "
            "inside the project; give another table with --compare-with"
        )
    return load_published(published_path(str(source), results_dir)), str(source)


def verdict(mean: float, low: float, high: float, decimals: int = PUBLISHED_DECIMALS) -> str:
    """Whether a reproduced mean (rounded as published) lies in the published [low, high]."""
    shown = round(mean, decimals)
    if shown < low:
        return BELOW
    if shown > high:
        return ABOVE
    return INSIDE


def compare_with_published(
    summary: pd.DataFrame, published: pd.DataFrame, compare_as: Mapping[str, str] | None = None
) -> pd.DataFrame:
    """Each summary row beside the published row of the same label, with a verdict.

    Args:
        summary: a table from :func:`~evo_mastermind.analysis.summary.summary_table`
            (``label`` and ``mean`` are used).
        published: a table from :func:`load_published`.
        compare_as: played label → published label, for rows held against a published row
            of another name (the config's ``compare_as``).

    Returns:
        Columns :data:`COMPARISON_COLUMNS`, in the summary's order; rows with no published
        counterpart have NaN figures and the verdict :data:`UNPUBLISHED`.
        ``published_label`` names the published row each was compared with.
    """
    summary = current_names(summary, "summary", "the summary compared")
    require_columns(summary, ("label", "mean"), what="summary")
    reference = published.set_index("label")
    aliases = dict(compare_as or {})
    rows = []
    for player, mean in zip(summary["label"], summary["mean"], strict=True):
        target = aliases.get(player, player)
        if target in reference.index:
            row = reference.loc[target]
            low, high = float(row["min"]), float(row["max"])
            figures = (float(row["mean"]), low, high, float(row["max_guesses"]))
            rows.append((player, float(mean), *figures, verdict(float(mean), low, high), target))
        else:
            nan = float("nan")
            rows.append((player, float(mean), nan, nan, nan, nan, UNPUBLISHED, ""))
    return results_frame(pd.DataFrame(rows, columns=list(COMPARISON_COLUMNS)), "comparison")


def published_sections(published: pd.DataFrame) -> dict[str, str]:
    """Each label's section, for the rows whose section is not empty, in published order.

    The order of first appearance of the values is the paper's order of its sections.
    """
    require_columns(published, ("label",), what="published", allow_empty=True)
    if "section" not in published.columns:
        return {}
    return {
        str(label): str(section).strip()
        for label, section in zip(published["label"], published["section"], strict=True)
        if isinstance(section, str) and section.strip()
    }


def unreproduced(
    summary: pd.DataFrame, published: pd.DataFrame, compare_as: Mapping[str, str] | None = None
) -> list[str]:
    """Published labels no summary row is compared with (strategies not run)."""
    aliases = dict(compare_as or {})
    summary = current_names(summary, "summary", "the summary compared")
    played = {aliases.get(label, label) for label in summary["label"]}
    return [label for label in published["label"] if label not in played]

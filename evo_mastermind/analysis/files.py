"""Writing an analysis into its results directory: its tables as CSV and its report.

:func:`write_analysis` writes every table of an analysis that its kind of report writes, to
the file :data:`~evo_mastermind.analysis.analysis.TABLES` names for it (floats rounded by
:func:`~evo_mastermind.analysis.frames.table_csv`), and the report;
a file of :data:`~evo_mastermind.runner.storage.REPORT_OUTPUTS` that this report does not
write (a by-size table of a single-size run) is removed, since it would describe other
games. A file whose content would change only in its timing columns is left as it is, so
rerunning a committed experiment leaves the repository clean.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from evo_mastermind.analysis.analysis import Analysis
from evo_mastermind.analysis.frames import table_csv
from evo_mastermind.runner.storage import REPORT_FILE, REPORT_OUTPUTS

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


def write_analysis(analysis: Analysis, markdown: str, results_dir: Path) -> None:
    """Write the analysis's tables and its report (``markdown``) into ``results_dir``."""
    written = set()
    for name, table in analysis.written():
        if table is not None:
            write_unless_same(results_dir / name, table_csv(table))
            written.add(name)
    write_unless_same(results_dir / REPORT_FILE, markdown)
    written.add(REPORT_FILE)
    for name in REPORT_OUTPUTS:
        if name not in written:  # left by an earlier analysis, it would mislead
            (results_dir / name).unlink(missing_ok=True)

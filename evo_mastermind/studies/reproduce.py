"""The paper reproduction: play the shipped studies of Tables 2–6, report, plot, give verdicts.

What ``evo-mastermind reproduce`` and ``make reproduce`` run. Each table's games go to
``<out>/<table>`` (default ``results/paper/table2`` …), resumed if some are already there,
then its report and plots are written beside them and its rows are set against the published
figures of Runarsson & Merelo (2009).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import pandas as pd

from evo_mastermind.api import Results, run
from evo_mastermind.execution import ExecutorName
from evo_mastermind.studies import PAPER_TABLES, StudyError

DEFAULT_OUT = Path("results") / "paper"
"""Where each table's results go, one folder per table."""

PLOT_KINDS = ("distribution", "evaluations")
"""The figures drawn for each table (``evaluations`` only where a player counts them)."""


@dataclass(frozen=True)
class Reproduced:
    """One table played and compared."""

    table: str
    results: Results
    comparison: pd.DataFrame
    plots: tuple[Path, ...]


def paper_tables(chosen: Sequence[str]) -> list[str]:
    """The tables asked for (``table2``, ``paper/table2`` or ``2``), in the paper's order.

    Raises:
        StudyError: a name that is not one of the paper's tables.
    """
    if isinstance(chosen, str):  # one table named alone, not its letters
        chosen = [chosen]
    if not chosen:
        return list(PAPER_TABLES)
    tables = []
    for name in chosen:
        table = name.removeprefix("paper/").removesuffix(".yaml")
        table = f"table{table}" if table.isdigit() else table
        if table not in PAPER_TABLES:
            raise StudyError(
                f"{name!r} is not one of the paper's tables: {', '.join(PAPER_TABLES)}"
            )
        tables.append(table)
    return [table for table in PAPER_TABLES if table in tables]


def reproduce_table(
    table: str,
    out: Path = DEFAULT_OUT,
    *,
    executor: ExecutorName = "process",
    workers: int | None = None,
    runs: int | None = None,
    progress: bool = True,
    force: bool = False,
    spelling: Callable[[str], str] | None = None,
) -> Reproduced:
    """Play (or finish) one table, write its report and plots, and compare it.

    Games already in ``out / table`` are kept and only the missing ones played, unless
    ``force`` replaces them (as ``run --force`` does). ``spelling`` names the options in
    errors as :func:`~evo_mastermind.api.run` does (the command line passes ``--name``).

    Raises:
        InvalidGameError: a problem with the options or the results directory, in one line.
    """
    from evo_mastermind.analysis.results import AnalysisError

    # The command line names the options as flags; Python callers keep run()'s own words.
    play = run if spelling is None else partial(run, spelling=spelling)
    results = play(
        f"paper/{table}",
        out=out / table,
        runs=runs,
        executor=executor,
        workers=workers,
        resume=not force,
        force=force,
        progress=progress,
    )
    results.write_report()
    plots = []
    for kind in PLOT_KINDS:
        try:
            figure_path = results.path / "plots" / f"{kind}.png"
            results.plot(kind, out=figure_path)
        except AnalysisError:
            continue  # no player of this table counts evaluations
        plots.append(figure_path)
    comparison = results.comparison()
    assert comparison is not None, "every paper table names its published table"
    return Reproduced(table, results, comparison, tuple(plots))


def verdict_lines(done: Reproduced) -> list[str]:
    """A table's rows against the published ones, as aligned lines of text."""
    from evo_mastermind.analysis.published import UNPUBLISHED

    outcome = done.results.outcome
    played = f"{outcome.played:,} games played" if outcome else "games"
    if outcome and outcome.already_done:
        played += f" ({outcome.already_done:,} already done)"
    seconds = f" in {outcome.seconds:.1f} s" if outcome else ""
    lines = [f"{done.table}: {played}{seconds}; report and plots in {done.results.path}"]
    width = max(len(str(player)) for player in done.comparison["label"])
    for row in done.comparison.itertuples():
        if row.verdict == UNPUBLISHED:
            published = "not in the paper"
        else:
            published = (
                f"published {row.published_mean:.3f} "
                f"({row.published_min:.3f}–{row.published_max:.3f})"
            )
        verdict = "" if row.verdict == UNPUBLISHED else f"  {row.verdict}"
        if row.verdict != UNPUBLISHED and str(row.published_label) != str(row.label):
            published += f" as {row.published_label!r}"
        lines.append(f"  {row.label!s:<{width}}  {row.mean:.3f}  {published}{verdict}")
    return lines


def tally_line(reproduced: Sequence[Reproduced]) -> str:
    """One sentence over every table: rows inside the published range, and those outside."""
    from evo_mastermind.analysis.published import INSIDE, UNPUBLISHED

    compared = inside = 0
    outside = []
    for done in reproduced:
        published = done.comparison[done.comparison["verdict"] != UNPUBLISHED]
        compared += len(published)
        inside += int((published["verdict"] == INSIDE).sum())
        for row in published[published["verdict"] != INSIDE].itertuples():
            where = "below" if "below" in str(row.verdict) else "above"
            outside.append(f"{done.table} {row.label} ({where})")
    line = f"{inside} of {compared} published rows reproduced inside the published range"
    return line + (f"; outside: {', '.join(outside)}" if outside else "")


def reproduce(
    tables: Sequence[str] = (),
    out: Path = DEFAULT_OUT,
    *,
    executor: ExecutorName = "process",
    workers: int | None = None,
    runs: int | None = None,
    progress: bool = True,
    force: bool = False,
    echo: Callable[[str], None] = print,
    spelling: Callable[[str], str] | None = None,
) -> list[Reproduced]:
    """Reproduce the paper's tables (all of them by default), echoing each table's verdicts.

    Every table's folder is checked before the first game is played, so a folder that
    cannot be written is not found after the tables before it.

    Raises:
        InvalidGameError: an unknown table, or a problem with the options or a results
            directory, in one line.
    """
    from evo_mastermind.runner import ResultsDir
    from evo_mastermind.runner.run import check_out

    chosen = paper_tables(tables)
    for table in chosen:
        check_out(ResultsDir(out / table))
    reproduced = []
    for table in chosen:
        done = reproduce_table(
            table,
            out,
            executor=executor,
            workers=workers,
            runs=runs,
            progress=progress,
            force=force,
            spelling=spelling,
        )
        for line in verdict_lines(done):
            echo(line)
        reproduced.append(done)
    echo(tally_line(reproduced))
    return reproduced

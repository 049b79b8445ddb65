"""The Python API for notebooks: run an experiment or open its results, as one object.

``evo_mastermind.run(config, ...)`` plays an experiment from a config file, a shipped
study's name (``"paper/table2"``) or a plain dict, exactly as ``evo-mastermind run`` does
(same checks, same one-line errors, same results directory), and ``evo_mastermind.load(path)``
opens a results directory. Both return a :class:`Results`: the games as a pandas DataFrame,
the paper's summary, the rank-sum tests and groups, the published comparison, the report,
every plot kind, effect sizes and confidence intervals. Every table is read from the one
:class:`~evo_mastermind.analysis.analysis.Analysis` the report is written from, so a
notebook and the files in the results directory never disagree.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable, Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evo_mastermind.codes import InvalidGameError
from evo_mastermind.execution import EXECUTOR_NAMES, ExecutorName
from evo_mastermind.messages import notify

if TYPE_CHECKING:
    import pandas as pd

    from evo_mastermind.analysis.analysis import Analysis
    from evo_mastermind.analysis.figures import PaperFigure
    from evo_mastermind.analysis.stats import GroupRule
    from evo_mastermind.runner import RunOutcome
    from evo_mastermind.runner.record import ExperimentRecord

EXECUTORS = EXECUTOR_NAMES
"""The executors a run may use (their names are written in :mod:`evo_mastermind.execution`)."""

MAX_WORKERS_PER_CORE = 4
"""More worker processes than this per core would only slow a run."""


class RunOptionsError(InvalidGameError):
    """Options of a run that contradict each other or cannot work, in one line."""


def _keyword(name: str) -> str:
    return name


def check_run_options(
    *,
    executor: str,
    workers: int | None,
    scheduler: str | None,
    runs: int | None,
    resume: bool,
    force: bool,
    out: str | Path | None = None,
    spelling: Callable[[str], str] = _keyword,
) -> None:
    """Refuse run options that cannot work, before anything is read or started.

    Args:
        executor: ``serial``, ``process`` or ``dask``.
        workers: worker processes (None: every core).
        scheduler: a Dask scheduler's address.
        runs: the number of runs asked for instead of the config's.
        resume: play only the games still missing.
        force: replace results already there.
        out: the results directory asked for (an empty one is refused, not read as the default).
        spelling: how an option is named in the message (``--workers`` on the command line).

    Raises:
        RunOptionsError: naming the option and the problem.
    """
    if executor not in EXECUTORS:
        raise RunOptionsError(
            f"{spelling('executor')} must be one of {', '.join(EXECUTORS)}, got {executor!r}"
        )
    if resume and force:
        raise RunOptionsError(
            f"{spelling('resume')} and {spelling('force')} contradict each other; choose one"
        )
    if scheduler is not None and executor != "dask":
        raise RunOptionsError(
            f"{spelling('scheduler')} needs {spelling('executor')} dask (the {executor} "
            "executor has no scheduler)"
        )
    cores = os.cpu_count() or 1
    if workers is not None and workers < 1:
        raise RunOptionsError(f"{spelling('workers')} must be at least 1, got {workers}")
    if workers is not None and workers > MAX_WORKERS_PER_CORE * cores:
        raise RunOptionsError(
            f"{spelling('workers')} {workers} is more than {MAX_WORKERS_PER_CORE} per core "
            f"({MAX_WORKERS_PER_CORE * cores} on this machine): more would only slow the run"
        )
    if runs is not None and runs < 1:
        raise RunOptionsError(f"{spelling('runs')} must be at least 1, got {runs}")
    if out is not None and not str(out).strip():
        raise RunOptionsError(
            f"{spelling('out')} is empty; give the results directory (or leave it out)"
        )


_PYTHON_WORDS = (
    (re.compile(r"--resume --out (\S+)"), r"resume=True, out='\1'"),
    (re.compile(r"--scheduler "), "scheduler="),
    (re.compile(r"--allow-large\b"), "allow_large=True"),
    (re.compile(r"--accept-changed-code\b"), "accept_changed_code=True"),
    (re.compile(r"--resume\b"), "resume=True"),
    (re.compile(r"--force\b"), "force=True"),
    (re.compile(r"--out\b( directory)?"), "out directory"),
)
"""The runner's advice names command-line options; a Python caller is told its arguments."""


def in_python_words(message: str) -> str:
    """``message`` with the command-line options it names as :func:`run`'s arguments.

    E.g. ``use --resume to finish that run or --force to replace it`` becomes ``use
    resume=True to finish that run or force=True to replace it``.
    """
    for option, argument in _PYTHON_WORDS:
        message = option.sub(argument, message)
    return message


def run(
    config: str | Path | Mapping[str, Any],
    *,
    out: str | Path | None = None,
    runs: int | None = None,
    executor: ExecutorName = "process",
    workers: int | None = None,
    scheduler: str | None = None,
    resume: bool = False,
    force: bool = False,
    progress: bool = True,
    plugins: Sequence[str] = (),
    allow_large: bool = False,
    accept_changed_code: bool = False,
    spelling: Callable[[str], str] = _keyword,
) -> Results:
    """Play an experiment's games into a results directory and open it.

    Args:
        config: a config file, a shipped study's name (``"paper/table2"``; see
            ``evo-mastermind studies``) or a dict with the keys of a config file.
        out: the results directory (default ``results/<name>``).
        runs: overrides the config's number of runs.
        executor: ``process`` (a local pool, default), ``serial`` (this process) or ``dask``.
        workers: worker processes (default: every core; 1 for ``serial``).
        scheduler: a Dask scheduler's address (default: an in-process LocalCluster).
        resume: play only the games still missing from ``out``.
        force: replace results already in ``out`` (only files evo-mastermind wrote).
        progress: show a progress bar on stderr.
        plugins: modules to import first (players of your own).
        allow_large: run plans above the limits (entries, games, memory).
        accept_changed_code: with ``resume``, add games even though the stored ones were
            played by another version of evo_mastermind or of a plugin module (the record
            and the report then list every version); refused otherwise.
        spelling: how options are named in errors (the command line passes ``--name``).

    Raises:
        InvalidGameError: any problem with the options, the config (naming the file or,
            for a dict, the key), the plan or the results directory, in one line; what to do
            is said in this function's words (``force=True``, not ``--force``) unless
            ``spelling`` says otherwise.
    """
    check_run_options(
        executor=executor,
        workers=workers,
        scheduler=scheduler,
        runs=runs,
        resume=resume,
        force=force,
        out=out,
        spelling=spelling,
    )
    if accept_changed_code and not resume:
        raise RunOptionsError(
            f"{spelling('accept_changed_code')} goes with {spelling('resume')} (it lets a resumed "
            "run add games to results played by other code)"
        )
    try:
        return _run(
            config, out, runs, executor, workers, scheduler, resume, force, progress, plugins,
            allow_large, accept_changed_code,
        )  # fmt: skip
    except InvalidGameError as error:
        if spelling is _keyword and error.args and isinstance(error.args[0], str):
            error.args = (in_python_words(error.args[0]), *error.args[1:])
        raise


def _run(
    config: str | Path | Mapping[str, Any],
    out: str | Path | None,
    runs: int | None,
    executor: ExecutorName,
    workers: int | None,
    scheduler: str | None,
    resume: bool,
    force: bool,
    progress: bool,
    plugins: Sequence[str],
    allow_large: bool,
    accept_changed_code: bool,
) -> Results:
    from evo_mastermind.runner import ResultsDir, load_config, make_executor, run_experiment
    from evo_mastermind.runner.config import NO_LIMITS, PlanLimits, config_from_data
    from evo_mastermind.runner.plan import check_plan, estimate_plan
    from evo_mastermind.runner.run import check_out

    limits = NO_LIMITS if allow_large else PlanLimits()
    written: str | None = None
    if not isinstance(config, str | os.PathLike | Mapping):
        raise RunOptionsError(
            "config must be a file, a shipped study's name or a dict of its keys, not "
            f"{type(config).__name__}"
        )
    if isinstance(config, Mapping):
        loaded = config_from_data(dict(config), runs=runs, plugins=plugins, limits=limits)
        written = _as_yaml(config)
        config_path = Path("config")
    else:
        from evo_mastermind.studies import config_file

        config_path = config_file(config)
        loaded = load_config(config_path, runs=runs, plugins=plugins, limits=limits)
    chosen = workers or (1 if executor == "serial" else os.cpu_count() or 1)
    announcement = check_plan(estimate_plan(loaded), limits, chosen)
    if announcement:
        notify(announcement)
    target = Path(out) if out is not None else Path("results") / loaded.name
    check_out(ResultsDir(target))  # an unusable directory is refused before any worker starts
    with tempfile.TemporaryDirectory() as folder:
        if written is not None:  # the runner keeps the config's text beside the games
            config_path = Path(folder) / f"{loaded.name}.yaml"
            config_path.write_text(written, encoding="utf-8")
        with make_executor(executor, workers, scheduler) as pool:
            outcome = run_experiment(
                loaded,
                config_path,
                target,
                pool,
                resume=resume,
                force=force,
                progress=progress,
                accept_changed_code=accept_changed_code,
            )
    results = load(target)
    results.outcome = outcome
    return results


def _as_yaml(config: Mapping[str, Any]) -> str:
    import yaml

    try:
        return yaml.safe_dump(dict(config), sort_keys=False, allow_unicode=True)
    except yaml.YAMLError as error:
        raise RunOptionsError(
            f"config: a value is not plain data (numbers, text, lists, mappings): {error}"
        ) from None


def load(path: str | Path) -> Results:
    """Open a results directory written by a run.

    Raises:
        AnalysisError: no experiment record, no games, or a damaged or foreign shard.
    """
    from evo_mastermind.analysis.results import load_experiment, load_games

    path = Path(path)
    experiment = load_experiment(path)
    return Results(path, load_games(path), experiment)


class Results:
    """One experiment's games and everything computed from them.

    Attributes:
        path: the results directory.
        games: one row per game (see :data:`evo_mastermind.analysis.GAME_COLUMNS`).
        experiment: the experiment record (``experiment.json``).
        outcome: what the run did (games played, already done, seconds), when this object
            came from :func:`run`.
    """

    def __init__(
        self,
        path: Path,
        games: pd.DataFrame,
        experiment: ExperimentRecord,
        outcome: RunOutcome | None = None,
    ) -> None:
        self.path = path
        self.games = games
        self.experiment = experiment
        self.outcome = outcome

    @property
    def name(self) -> str:
        """The experiment's name."""
        return self.experiment.name

    def __repr__(self) -> str:
        labels = self.games["label"].nunique()
        return (
            f"<Results {self.name!r}: {len(self.games):,} games of {labels} players in {self.path}>"
        )

    def _repr_markdown_(self) -> str:
        return self.report()

    @cached_property
    def analysis(self) -> Analysis:
        """Every table of these results, each computed once: what the report writes.

        Raises:
            AnalysisError: the published table the record names is missing.
        """
        from evo_mastermind.analysis.analysis import Analysis

        return Analysis.of_results(self.games, self.experiment, self.path)

    @property
    def published(self) -> pd.DataFrame | None:
        """The published table the experiment compares with (``compare_with``), if any."""
        return self.analysis.published

    def table(self, name: str) -> pd.DataFrame | None:
        """Any table of the analysis by name (a copy), as the report writes it.

        The names are those of :data:`evo_mastermind.analysis.analysis.TABLES`: ``summary``,
        ``tests``, ``a12``, ``intervals``, ``by_size``, ``paired_tests``, ``mean_ranks``,
        ``bayesian_tests``, ``comparison``, ``optimum``, ``tournament``, ``score_tests``,
        ``pooled``. None when the table does not apply
        (``by_size`` of a single block, ``comparison`` without a published table).

        Raises:
            AnalysisError: no table of that name.
        """
        table = self.analysis.table(name)
        return None if table is None else table.copy()

    def summary(self) -> pd.DataFrame:
        """The paper's table: per player and block, statistics over the run means."""
        return self.analysis.summary.copy()

    def tests(self) -> pd.DataFrame:
        """Every pair of players within a block: Mann–Whitney U, p-values, significance."""
        return self.analysis.tests.copy()

    def groups(self, rule: GroupRule = "clique") -> pd.DataFrame:
        """Each player's rank, group (the paper's lines) and compact letters, per block.

        Rows follow the summary's ranking (within each published section, if any); a player
        without a solved game comes last, in a group of its own, without letters.
        """
        return self.analysis.groups(rule).copy()

    def comparison(self) -> pd.DataFrame:
        """Each player's mean beside the published figures, with a verdict.

        A row the config holds against a published row of another name (``compare_as``)
        gets that row's figures, as in the report. :attr:`published` is None when there is
        nothing to compare with.

        Raises:
            AnalysisError: the experiment compares with no published table (its config has
                no ``compare_with``, or it is a tournament), said in one line.
        """
        from evo_mastermind.analysis.results import AnalysisError

        comparison = self.analysis.comparison
        if comparison is None:
            why = (
                "a tournament is compared with no published table"
                if self.analysis.report == "tournament"
                else "its config names none (compare_with: a published table's CSV; "
                "`evo-mastermind studies` lists the shipped ones)"
            )
            raise AnalysisError(f"{self.name} has no published table to compare with: {why}")
        return comparison.copy()

    def paired_tests(self) -> pd.DataFrame:
        """The Wilcoxon signed-rank test of every pair, paired by secret (``paired_tests.csv``).

        Per block whose players played the same secrets, on the secret means, Holm-corrected
        over the block's pairs (see ``statistics.paired``).

        Raises:
            AnalysisError: no signed-rank test applies, said in one line with why.
        """
        return self._paired("paired_tests", "signed-rank tests")

    def mean_ranks(self) -> pd.DataFrame:
        """Each player's mean rank over the secrets, with the Friedman test (``mean_ranks.csv``).

        Beside each rank: its block's Friedman χ², p-value and the Nemenyi critical difference.

        Raises:
            AnalysisError: no Friedman test applies, said in one line with why.
        """
        return self._paired("mean_ranks", "Friedman test")

    def bayesian_tests(self) -> pd.DataFrame:
        """The Bayesian signed-rank test of every pair, paired by secret (``bayesian_tests.csv``).

        Raises:
            AnalysisError: the experiment's ``statistics.paired`` is not ``bayesian``, or its
                players cannot be paired, said in one line.
        """
        return self._paired("bayesian_tests", "Bayesian signed-rank tests")

    def _paired(self, name: str, what: str) -> pd.DataFrame:
        from evo_mastermind.analysis.results import AnalysisError

        table = self.analysis.table(name)
        if table is not None:
            return table.copy()
        choice = self.analysis.experiment.paired
        reasons = [each.reason for each in self.analysis.paired_blocks() if each.reason]
        if choice == "none" or self.analysis.report != "paper":
            why = "its statistics.paired is none" if choice == "none" else "it is a tournament"
        elif reasons and len(reasons) == len(self.analysis.paired_blocks()):
            why = reasons[0]
        else:
            why = f"its statistics.paired is {choice}, which asks for none (or too few players)"
        raise AnalysisError(f"{self.name} has no paired {what}: {why}")

    def optimum(self) -> pd.DataFrame:
        """Each player's mean beside the optimum of its game, where the optimum is known."""
        return self.analysis.frame("optimum").copy()

    def report(self, rule: GroupRule = "clique") -> str:
        """The report as Markdown, as ``evo-mastermind report`` writes it (nothing written)."""
        from evo_mastermind.analysis.report import report_markdown

        return report_markdown(self.analysis, rule)

    def write_report(self, rule: GroupRule = "clique") -> str:
        """Write ``report.md`` and its tables into the results directory; return the Markdown."""
        from evo_mastermind.analysis.report import write_analysis_report

        return write_analysis_report(self.analysis, self.path, rule)

    def plot(
        self,
        kind: str = "distribution",
        out: str | Path | None = None,
        pool_secrets: bool = False,
        *,
        title: str | None = None,
        size: tuple[float, float] | None = None,
        players: Sequence[str] | None = None,
    ) -> PaperFigure:
        """A figure: ``distribution``, ``cumulative``, ``evaluations``, ``heatmap`` or ``cd``.

        ``cd`` is the critical-difference diagram of the players' mean ranks by secret.

        It shows itself in a notebook; ``figure.notes`` says what it leaves out.

        Args:
            kind: the plot kind.
            out: also write it there (``.png`` at 300 dpi or ``.pdf`` with TrueType fonts).
            pool_secrets: treat every secret source as one.
            title: the title (default: the experiment's name and game; ``""``: none).
            size: (width, height) in inches (default: a paper's column, or its text width
                for many players).
            players: the players to show, in this order (default: all, in config order).

        Raises:
            AnalysisError: an unknown kind or player, or a kind these games cannot show.
        """
        from evo_mastermind.analysis.plots import make_figure, save_figure

        games = self.games.assign(secrets="all sources") if pool_secrets else self.games
        figure = make_figure(games, self.experiment, kind, title=title, size=size, players=players)
        if out is not None:
            save_figure(figure, out)
        return figure

    def effect_sizes(self) -> pd.DataFrame:
        """Vargha–Delaney A12 of every tested pair in a block, with its magnitude (``a12.csv``).

        Pairs in the order of the tests (the config's order of players), on what the tests
        compare (the experiment's ``test_on``).
        """
        return self.analysis.effect_sizes.copy()

    def confidence_intervals(
        self, *, seed: int | None = None, confidence: float = 0.95
    ) -> pd.DataFrame:
        """A bootstrap confidence interval of each player's mean guesses (``intervals.csv``).

        Over what the tests compare (the experiment's ``test_on``); with the defaults, the
        report's intervals.

        Args:
            seed: the bootstrap's seed (default: the experiment's root seed, so it is stable).
            confidence: the interval's level.
        """
        chosen = self.experiment.seed if seed is None else seed
        return self.analysis.intervals_at(chosen, confidence).copy()


__all__ = ["Results", "RunOptionsError", "check_run_options", "load", "run"]

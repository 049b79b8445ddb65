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
import tempfile
import warnings
from collections.abc import Callable, Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from evo_mastermind.codes import InvalidGameError
from evo_mastermind.execution import ExecutorName
from evo_mastermind.messages import notify, silenced
from evo_mastermind.run_options import (
    RunOptionsError,
    _as_yaml,
    _keyword,
    check_run_options,
    in_python_words,
    plain_data,
    whole_number,
)

if TYPE_CHECKING:
    import pandas as pd

    from evo_mastermind.analysis.analysis import Analysis
    from evo_mastermind.analysis.figures import PaperFigure
    from evo_mastermind.analysis.stats import GroupRule
    from evo_mastermind.runner import RunOutcome
    from evo_mastermind.runner.record import ExperimentRecord


def run(
    config: str | Path | Mapping[str, Any],
    *,
    out: str | Path | None = None,
    runs: int | np.integer[Any] | None = None,
    executor: ExecutorName = "process",
    workers: int | np.integer[Any] | None = None,
    scheduler: str | None = None,
    resume: bool = False,
    force: bool = False,
    progress: bool = True,
    plugins: Sequence[str] = (),
    allow_large: bool = False,
    accept_changed_code: bool = False,
    spelling: Callable[[str], str] = _keyword,
    sample: int | None = None,
    quiet: bool = False,
) -> Results:
    """Play an experiment's games into a results directory and open it.

    Args:
        config: a config file, a shipped study's name (``"paper/table2"``; see
            ``evo-mastermind studies``) or a dict with the keys of a config file.
        out: the results directory (default ``results/<name>``).
        runs: overrides the config's number of runs (a numpy integer is taken as its value).
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
        sample: replaces the config's secrets with a uniform sample of this many per game
            size (e.g. ``run("paper/table2", sample=100)`` for a quick look at a study).
        quiet: no progress bar and no notices (the plan's estimate, a compilation); errors
            are raised as ever.

    Raises:
        InvalidGameError: any problem with the options, the config (naming the file or,
            for a dict, the key), the plan or the results directory, in one line; what to do
            is said in this function's words (``force=True``, not ``--force``) unless
            ``spelling`` says otherwise.
    """
    # Numpy integers are taken as their values; text or floats are refused, naming the option.
    runs_asked = whole_number(runs, spelling("runs"))
    workers_asked = whole_number(workers, spelling("workers"))
    check_run_options(
        executor=executor,
        workers=workers_asked,
        scheduler=scheduler,
        runs=runs_asked,
        resume=resume,
        force=force,
        out=out,
        spelling=spelling,
    )
    flags = (("progress", progress), ("allow_large", allow_large))
    for name, flag in (*flags, ("accept_changed_code", accept_changed_code)):
        if not isinstance(flag, bool | np.bool_):
            raise RunOptionsError(
                f"{spelling(name)} must be True or False, got {type(flag).__name__} {flag!r}"
            )
    if isinstance(plugins, str) or not all(isinstance(plugin, str) for plugin in plugins):
        raise RunOptionsError(
            f"{spelling('plugins')} must be a list of module names, got {plugins!r}"
        )
    if accept_changed_code and not resume:
        raise RunOptionsError(
            f"{spelling('accept_changed_code')} goes with {spelling('resume')} (it lets a resumed "
            "run add games to results played by other code)"
        )
    if sample is not None and (
        isinstance(sample, bool) or not isinstance(sample, int) or sample < 1
    ):
        raise RunOptionsError(
            f"{spelling('sample')} must be a whole number of secrets, at least 1, got {sample!r}"
        )
    try:
        return _run(
            config, out, runs_asked, executor, workers_asked, scheduler, resume, force, progress,
            plugins, allow_large, accept_changed_code, sample, quiet,
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
    sample: int | None,
    quiet: bool,
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
        data: dict[str, Any] = plain_data(config)  # numpy numbers are numbers; a Path is text
        loaded = config_from_data(data, runs=runs, plugins=plugins, limits=limits, sample=sample)
        written = _as_yaml(data)
        config_path = Path("config")
    else:
        from evo_mastermind.studies import config_file

        config_path = config_file(config)
        loaded = load_config(config_path, runs=runs, plugins=plugins, limits=limits, sample=sample)
    chosen = workers or (1 if executor == "serial" else os.cpu_count() or 1)
    announcement = check_plan(estimate_plan(loaded), limits, chosen)
    if announcement and not quiet:
        notify(announcement)
    target = Path(out) if out is not None else Path("results") / loaded.name
    check_out(ResultsDir(target))  # an unusable directory is refused before any worker starts
    with tempfile.TemporaryDirectory() as folder:
        if written is not None:  # the runner keeps the config's text beside the games
            config_path = Path(folder) / f"{loaded.name}.yaml"
            config_path.write_text(written, encoding="utf-8")
        with silenced(quiet), make_executor(executor, workers, scheduler) as pool:
            outcome = run_experiment(
                loaded,
                config_path,
                target,
                pool,
                resume=resume,
                force=force,
                progress=progress and not quiet,
                accept_changed_code=accept_changed_code,
            )
    results = load(target)
    results.outcome = outcome
    return results


def load(path: str | Path | Sequence[str | Path]) -> Results:
    """Open a results directory written by a run, or several as one analysis.

    Several directories are joined by :func:`~evo_mastermind.analysis.joined.join_results`:
    the same game sizes and secrets (drawn from the same seed), each label in one directory.
    Their analysis is read in Python; :meth:`Results.write_report` refuses it, having no
    directory of its own to write into. It compares with the published table the first
    directory names; a :class:`UserWarning` says so when another names a different one.

    Raises:
        AnalysisError: no experiment record, no games, a damaged or foreign shard, or
            directories whose games cannot be paired by secret.
        RunOptionsError: ``path`` is neither a path nor a list of paths.
    """
    from evo_mastermind.analysis.results import load_experiment, load_games

    if isinstance(path, list | tuple):
        from evo_mastermind.analysis.joined import join_results, published_note

        if not path or not all(isinstance(each, str | os.PathLike) for each in path):
            raise RunOptionsError(
                "load() takes a results directory's path, or a list of them (text or Paths)"
            )
        directories = [Path(each) for each in path]
        games, record = join_results(directories)
        note = published_note(directories, "list that directory first to compare with its table")
        if note is not None:
            warnings.warn(note, UserWarning, stacklevel=2)
        return Results(directories[0], games, record, joined=tuple(directories))
    if not isinstance(path, str | os.PathLike):
        raise RunOptionsError(
            f"a results directory's path is text or a Path, not {type(path).__name__}"
        )
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
        joined: the results directories joined into this one analysis (empty: one
            directory, ``path``).
    """

    def __init__(
        self,
        path: Path,
        games: pd.DataFrame,
        experiment: ExperimentRecord,
        outcome: RunOutcome | None = None,
        joined: tuple[Path, ...] = (),
    ) -> None:
        self.path = path
        self.games = games
        self.experiment = experiment
        self.outcome = outcome
        self.joined = joined

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
        without a solved game comes last, in no group (``group`` missing), without letters,
        as in ``report.md``.
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
        """The report as Markdown, as ``evo-mastermind report`` writes it (nothing written).

        Raises:
            AnalysisError: ``rule`` is not ``clique`` nor ``chain``.
        """
        from evo_mastermind.analysis.report import report_markdown
        from evo_mastermind.analysis.stats import check_group_rule

        check_group_rule(rule)
        return report_markdown(self.analysis, rule)

    def write_report(self, rule: GroupRule = "clique") -> str:
        """Write ``report.md`` and its tables into the results directory; return the Markdown."""
        from evo_mastermind.analysis.report import write_analysis_report

        if self.joined:
            from evo_mastermind.analysis.results import AnalysisError

            raise AnalysisError(
                f"{self.name} joins {len(self.joined)} results directories and has none of "
                "its own to write into; read report() instead"
            )
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
        """A figure of one kind (see ``PLOT_KINDS``).

        ``cd`` is the critical-difference diagram of the players' mean ranks by secret;
        ``convergence`` draws the move log (``log: moves``) instead of the games.

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
        from evo_mastermind.analysis.plots import check_plot_file, make_figure, save_figure

        if out is not None:
            check_plot_file(out)  # before the figure is drawn
        games = self.games.assign(secrets="all sources") if pool_secrets else self.games
        moves = self.moves() if kind == "convergence" else None
        figure = make_figure(
            games, self.experiment, kind, title=title, size=size, players=players, moves=moves
        )
        if out is not None:
            save_figure(figure, out)
        return figure

    def moves(self) -> pd.DataFrame:
        """The move log (``log: moves``): one row per move of each evolutionary player's game.

        Columns: the game's identity (``label``, ``pegs``, ``colors``, ``secrets``, ``run``,
        ``secret``, ``occurrence``), then ``move`` (from 1), ``generations``, ``evaluations``,
        ``restarts``, ``best_distance``, ``consistent`` and ``capped``. Empty when the
        experiment kept no log. A log that misses some games of a player (a resumed run
        turned ``log: moves`` on or off) is said in one line on stderr.
        """
        from evo_mastermind.analysis.convergence import load_moves, log_gaps

        moves = load_moves(self.path)
        partial = log_gaps(moves, self.games)
        if partial is not None:
            notify(f"warning: {partial[0].lower()}{partial[1:]}")
        return moves

    def convergence(self) -> pd.DataFrame:
        """The move log summed up per player, game size and move number (means, medians).

        Over the logged games only: a partial log is said as :meth:`moves` says it.
        """
        from evo_mastermind.analysis.convergence import convergence_table

        return convergence_table(self.moves())

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

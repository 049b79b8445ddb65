"""The Python API for notebooks: run an experiment or open its results, as one object.

``evo_mastermind.run(config, ...)`` plays an experiment from a config file, a shipped
study's name (``"paper/table2"``) or a plain dict, exactly as ``evo-mastermind run`` does
(same checks, same one-line errors, same results directory), and ``evo_mastermind.load(path)``
opens a results directory. Both return a :class:`Results`: the games as a pandas DataFrame,
the paper's summary, the rank-sum tests and groups, the published comparison, the report,
every plot kind, effect sizes and confidence intervals.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from evo_mastermind.codes import InvalidGameError
from evo_mastermind.messages import notify, silenced

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

    from evo_mastermind.analysis.report import Report
    from evo_mastermind.analysis.stats import GroupRule
    from evo_mastermind.runner import RunOutcome
    from evo_mastermind.runner.record import ExperimentRecord

ExecutorName = Literal["serial", "process", "dask"]
EXECUTORS: tuple[ExecutorName, ...] = ("serial", "process", "dask")

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
    sample: int | None = None,
    quiet: bool = False,
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
        sample: replaces the config's secrets with a uniform sample of this many per game
            size (e.g. ``run("paper/table2", sample=100)`` for a quick look at a study).
        quiet: no progress bar and no notices (the plan's estimate, a compilation); errors
            are raised as ever.

    Raises:
        InvalidGameError: any problem with the options, the config (naming the file or,
            for a dict, the key), the plan or the results directory, in one line.
    """
    from evo_mastermind.runner import ResultsDir, load_config, make_executor, run_experiment
    from evo_mastermind.runner.config import NO_LIMITS, PlanLimits, config_from_data
    from evo_mastermind.runner.plan import check_plan, estimate_plan
    from evo_mastermind.runner.run import check_out

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
    if sample is not None and (
        isinstance(sample, bool) or not isinstance(sample, int) or sample < 1
    ):
        raise RunOptionsError(
            f"{spelling('sample')} must be a whole number of secrets, at least 1, got {sample!r}"
        )
    limits = NO_LIMITS if allow_large else PlanLimits()
    written: str | None = None
    if not isinstance(config, str | os.PathLike | Mapping):
        raise RunOptionsError(
            "config must be a file, a shipped study's name or a dict of its keys, not "
            f"{type(config).__name__}"
        )
    if isinstance(config, Mapping):
        loaded = config_from_data(
            dict(config), runs=runs, plugins=plugins, limits=limits, sample=sample
        )
        written = _as_yaml(config)
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
    def published(self) -> pd.DataFrame | None:
        """The published table the experiment compares with (``compare_with``), if any."""
        from evo_mastermind.analysis.published import load_published
        from evo_mastermind.analysis.report import published_path

        source = self.experiment.compare_with
        if not source:
            return None
        return load_published(published_path(str(source), self.path))

    def _built(self, rule: GroupRule = "clique") -> Report:
        from evo_mastermind.analysis.report import build_report

        source = self.experiment.compare_with or "published table"
        return build_report(self.games, self.experiment, self.published, source, rule)

    @cached_property
    def _paper(self) -> Report:
        return self._built()

    def summary(self) -> pd.DataFrame:
        """The paper's table: per player and block, statistics over the run means."""
        return self._paper.summary

    def tests(self) -> pd.DataFrame:
        """Every pair of players within a block: Mann–Whitney U, p-values, significance."""
        return self._paper.tests

    def groups(self, rule: GroupRule = "clique") -> pd.DataFrame:
        """Each player's rank, group (the paper's lines) and compact letters, per block.

        Rows follow the summary's ranking (within each published section, if any).
        """
        import pandas as pd

        from evo_mastermind.analysis.stats import compact_letters, paper_groups, significant_pairs

        summary, tests = self.summary(), self.tests()
        keys = ["pegs", "colors", "secrets", "section"]
        rows = []
        for key, ranked_rows in summary.groupby(keys, sort=False):
            ranked = ranked_rows["player"].tolist()
            pegs, colors, secrets, section = key
            in_block = (
                (tests["pegs"] == pegs)
                & (tests["colors"] == colors)
                & (tests["secrets"] == secrets)
            )
            among = in_block & tests["a"].isin(ranked) & tests["b"].isin(ranked)
            different = significant_pairs(tests[among])
            letters = compact_letters(ranked, different)
            rank = {label: position for position, label in enumerate(ranked, start=1)}
            for number, group in enumerate(paper_groups(ranked, different, rule), start=1):
                rows += [
                    {
                        "pegs": pegs,
                        "colors": colors,
                        "secrets": secrets,
                        "section": section,
                        "player": label,
                        "rank": rank[label],
                        "group": number,
                        "letters": letters[label],
                    }
                    for label in group
                ]
        return pd.DataFrame(rows)

    def comparison(self) -> pd.DataFrame | None:
        """Each player's mean beside the published figures with a verdict (None: no table).

        A row the config holds against a published row of another name (``compare_as``)
        gets that row's figures, as in the report.
        """
        from evo_mastermind.analysis.published import compare_with_published

        if self.published is None:
            return None
        return compare_with_published(self.summary(), self.published, self.experiment.compare_as)

    def report(self, rule: GroupRule = "clique") -> str:
        """The report as Markdown, as ``evo-mastermind report`` writes it (nothing written)."""
        if self.experiment.report == "tournament":
            from evo_mastermind.analysis.tournament import tournament_report

            return tournament_report(self.games, self.experiment)[0]
        return self._built(rule).markdown

    def write_report(self, rule: GroupRule = "clique") -> str:
        """Write ``report.md`` and its tables into the results directory; return the Markdown."""
        from evo_mastermind.analysis.report import write_report

        return write_report(self.path, rule=rule)

    def plot(
        self, kind: str = "distribution", out: str | Path | None = None, pool_secrets: bool = False
    ) -> Figure:
        """A figure of one kind: ``distribution``, ``cumulative``, ``evaluations``, ``heatmap``.

        ``convergence`` draws the move log (``log: moves``) instead of the games.

        Args:
            kind: the plot kind.
            out: also write it there (``.png`` or ``.pdf``).
            pool_secrets: treat every secret source as one.

        Raises:
            AnalysisError: an unknown kind, or one these games cannot show.
        """
        from evo_mastermind.analysis.plots import make_figure, save_figure

        games = self.games.assign(secrets="all sources") if pool_secrets else self.games
        moves = self.moves() if kind == "convergence" else None
        figure = make_figure(games, self.experiment, kind, moves)
        if out is not None:
            save_figure(figure, out)
        return figure

    def moves(self) -> pd.DataFrame:
        """The move log (``log: moves``): one row per move of each evolutionary player's game.

        Columns: the game's identity (``label``, ``pegs``, ``colors``, ``secrets``, ``run``,
        ``secret``, ``occurrence``), then ``move`` (from 1), ``generations``, ``evaluations``,
        ``restarts``, ``best_distance``, ``consistent`` and ``capped``. Empty when the
        experiment kept no log.
        """
        from evo_mastermind.analysis.convergence import load_moves

        return load_moves(self.path)

    def convergence(self) -> pd.DataFrame:
        """The move log summed up per player, game size and move number (means, medians)."""
        from evo_mastermind.analysis.convergence import convergence_table

        return convergence_table(self.moves())

    def effect_sizes(self) -> pd.DataFrame:
        """Vargha–Delaney A12 of every ordered pair of players in a block, with its magnitude."""
        frame: pd.DataFrame = _effect_sizes().pairwise_a12(self.games)
        return frame

    def confidence_intervals(
        self, *, seed: int | None = None, confidence: float = 0.95
    ) -> pd.DataFrame:
        """A bootstrap confidence interval of each player's mean guesses.

        Args:
            seed: the bootstrap's seed (default: the experiment's root seed, so it is stable).
            confidence: the interval's level.
        """
        chosen = self.experiment.seed if seed is None else seed
        frame: pd.DataFrame = _effect_sizes().mean_confidence_intervals(
            self.games, seed=chosen, confidence=confidence
        )
        return frame


def _effect_sizes() -> Any:
    """The module of effect sizes and bootstrap intervals, imported when first asked for."""
    import importlib

    return importlib.import_module("evo_mastermind.analysis.effect_sizes")


__all__ = ["Results", "RunOptionsError", "check_run_options", "load", "run"]

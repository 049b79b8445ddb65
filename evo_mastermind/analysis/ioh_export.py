"""Games as IOHprofiler data, for IOHanalyzer and iohinspector, written by the ``ioh`` logger.

Mastermind is exported as the black-box function of the theory literature: the value of a
guess is its number of black pegs against the secret (maximised; the optimum is ``pegs``,
reached by the winning guess). The files are those the ``ioh`` package's own
:class:`ioh.logger.Analyzer` writes while each game's guesses are evaluated again on an
``ioh`` problem, so they follow the format wherever ``ioh`` takes it:

* one **problem** per game size: ``Mastermind_<pegs>x<colors>``, an integer problem of
  dimension ``pegs`` with variables in ``0..colors-1`` (colour ``A`` is 0);
* one **instance** per secret: its position among the secrets the export holds for that
  size, in lexicographic order (with every secret played it is the code's index + 1);
* one **algorithm** per player label (one folder each), its ``info`` the player and options
  (``ioh`` writes both into JSON unescaped, so double quotes become single ones);
* one **run** per game: every guess is one evaluation (``evaluations`` is the guess
  number), logged with the guess itself (``x0..``) and its black pegs (``raw_y``).

Each run also carries attributes: ``run`` (our run number), ``secret_index`` (the secret's
lexicographic index in the whole code space), ``solved`` (1 or 0: a game stopped by a limit
ends below the optimum) and, for the players that count them, ``fitness_evaluations`` (the
fitness evaluations of the whole game, -1 for a game of such a player that did not count
them: a second budget, per game, since the games table does not keep them per guess).
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd
from tqdm import tqdm

from evo_mastermind.analysis.results import (
    AnalysisError,
    Experiment,
    blocks,
    label_order,
    load_experiment,
    load_games,
    require_columns,
)
from evo_mastermind.codes import CodeSpace
from evo_mastermind.files import check_writable_folder

INSTALL_HINT = "pip install ioh"


@dataclass(frozen=True)
class IohExport:
    """What an export wrote, and the games it could not write.

    Attributes:
        out: the directory written.
        algorithms: players (labels) written.
        problems: game sizes written.
        runs: games written.
        evaluations: guesses written.
        unplayed: games that ended before their first guess (a player that failed at
            once): IOHprofiler has no run of zero evaluations, so they are left out.
        unplayed_labels: the labels of those games, in the players' order.
    """

    out: Path
    algorithms: int
    problems: int
    runs: int
    evaluations: int
    unplayed: int = 0
    unplayed_labels: tuple[str, ...] = ()

    def unplayed_line(self) -> str | None:
        """One line on the games left out, or ``None`` when every game was written."""
        if not self.unplayed:
            return None
        return (
            f"{self.unplayed:,} games of {', '.join(map(repr, self.unplayed_labels))} ended "
            "before their first guess (failed at once) and are not exported: IOHprofiler "
            "has no run of zero evaluations; the report lists why they failed"
        )


def problem_name(pegs: int, colors: int) -> str:
    """The IOH problem of one game size, e.g. ``Mastermind_4x6``."""
    return f"Mastermind_{pegs}x{colors}"


def _folder_name(label: str, taken: set[str]) -> str:
    """A folder name for a label: letters, digits and ``_.-`` only, unique in the export."""
    base = re.sub(r"[^A-Za-z0-9_.-]+", "_", label).strip("_.") or "player"
    name, number = base, 1
    while name.lower() in taken:
        number += 1
        name = f"{base}_{number}"
    taken.add(name.lower())
    return name


def _plain(text: str) -> str:
    """Text ``ioh`` can write into its JSON unescaped: no double quotes or backslashes."""
    return text.replace('"', "'").replace("\\", "/")


def _algorithm_info(player: str, params: str) -> str:
    """The player and its options, e.g. ``eda fitness=f first_guess=AABB``."""
    try:
        options = json.loads(params) if params else {}
    except json.JSONDecodeError:
        options = {}
    written = " ".join(f"{key}={value}" for key, value in sorted(dict(options).items()))
    return _plain(f"{player} {written}".strip())


def _import_ioh() -> Any:
    try:
        import ioh
    except ImportError:
        raise AnalysisError(
            f"the IOHprofiler export needs the ioh package: {INSTALL_HINT}"
        ) from None
    return ioh


def _mastermind_problem(ioh: Any, space: CodeSpace, secrets: list[str]) -> Callable[[int], Any]:
    """Register the size's problem with ``ioh``; return a maker of its instance ``i``.

    Instance ``i`` (from 1) is ``secrets[i - 1]``.
    """
    name = problem_name(space.pegs, space.colors)
    by_instance = {
        instance: np.asarray(space.parse(secret), dtype=np.int64)
        for instance, secret in enumerate(secrets, start=1)
    }

    def matches(x: npt.NDArray[np.int32], instance: int) -> npt.NDArray[np.int32]:
        # The instance's secret turns a guess into its black-peg indicator (as IOH's OneMax
        # instances transform bit strings); the objective then counts them.
        return (np.asarray(x) == by_instance[instance]).astype(np.int32)

    def blacks(indicator: npt.NDArray[np.int32]) -> float:
        return float(np.sum(indicator))

    def optimum(instance: int, dimension: int) -> tuple[list[int], float]:
        return by_instance[instance].tolist(), float(dimension)

    ioh.wrap_problem(
        blacks,
        name=name,
        problem_class=ioh.ProblemClass.INTEGER,
        dimension=space.pegs,
        instance=1,
        optimization_type=ioh.OptimizationType.MAX,
        lb=0,
        ub=space.colors - 1,
        transform_variables=matches,
        calculate_objective=optimum,
    )

    def instance_problem(instance: int) -> Any:
        return ioh.get_problem(
            name, instance=instance, dimension=space.pegs, problem_class=ioh.ProblemClass.INTEGER
        )

    return instance_problem


EXPORT_COLUMNS = ("label", "player", "params", "run", "secret", "moves", "solved", "evaluations")


def _logger(ioh: Any, out: Path, label: str, folder: str, info: str, counts: bool) -> Any:
    """An ``ioh`` Analyzer writing one algorithm's folder, logging every evaluation."""
    logger = ioh.logger.Analyzer(
        triggers=[ioh.logger.trigger.ALWAYS],
        root=str(out),
        folder_name=folder,
        algorithm_name=label,
        algorithm_info=info,
        store_positions=True,
    )
    names = ["run", "secret_index", "solved"] + (["fitness_evaluations"] if counts else [])
    for name in names:
        logger.add_run_attribute(name, 0.0)
    return logger


def export_ioh(
    games: pd.DataFrame,
    out: Path | str,
    experiment: Experiment | None = None,
    progress: bool = False,
) -> IohExport:
    """Write ``games`` as IOHprofiler data under ``out`` (a new or empty directory).

    About 4 ms of CPU a game, most of it in the ``ioh`` logger, which writes each run's
    record as the run ends: Table 3's 155,520 games took 595 s of CPU (22 min on a loaded
    two-core machine) and 60 MB; iohinspector reads them back in 2 s.

    Args:
        games: a games table.
        out: the directory to write; it must not hold anything yet.
        experiment: the experiment record, for its players' order.
        progress: show a progress bar (games written) on stderr.

    Returns:
        What was written: algorithms (labels), problems (sizes), runs (games), evaluations
        (guesses).

    Raises:
        AnalysisError: ``out`` is a file or not empty, the table lacks a column, or the
            ``ioh`` package is missing.
    """
    require_columns(games, (*EXPORT_COLUMNS, "pegs", "colors", "secrets"))
    out = Path(out)
    check_export_folder(out)
    ioh = _import_ioh()
    guessed = games["moves"].map(lambda moves: moves is not None and len(moves) > 0).astype(bool)
    unplayed = games[~guessed]
    games = games[guessed]
    if games.empty:
        raise AnalysisError(
            f"nothing to export: none of the {len(unplayed):,} games made a guess (every one "
            "failed at once; the report lists why)"
        )
    # Written aside and renamed into place: an interrupted export leaves no partial data.
    partial = out.parent / f".{out.name}.partial-{os.getpid()}"
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    try:
        counts = _write_runs(ioh, games, partial, label_order(games, experiment), progress)
        if out.exists():
            out.rmdir()
        partial.rename(out)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    labels = label_order(unplayed, experiment) if len(unplayed) else []
    return IohExport(out, *counts, unplayed=len(unplayed), unplayed_labels=tuple(labels))


def check_export_folder(out: Path | str) -> None:
    """Refuse, before any game is read, an export folder that is not new or empty or writable.

    Raises:
        AnalysisError: a file or a non-empty folder in its place.
        PathError: a place that cannot be written.
    """
    out = Path(out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise AnalysisError(f"{out} already exists and is not an empty directory; give a new --out")
    # The data are written beside it first (``.<name>.partial-<pid>``), then renamed.
    check_writable_folder(out.parent if out.exists() else out, "export")


def _write_runs(
    ioh: Any, games: pd.DataFrame, out: Path, order: list[str], progress: bool
) -> tuple[int, int, int, int]:
    """Log every game under ``out``: (algorithms, problems, runs, evaluations) written."""
    loggers: dict[str, tuple[Any, bool]] = {}  # label → (logger, counts evaluations)
    taken: set[str] = set()
    sizes = {(pegs, colors) for (pegs, colors, _), _ in blocks(games)}
    runs = evaluations = 0
    bar = tqdm(total=len(games), unit="game", desc="export", disable=not progress, leave=False)
    for pegs, colors in sorted(sizes):
        space = CodeSpace(pegs, colors)
        of_size = games[(games["pegs"] == pegs) & (games["colors"] == colors)]
        secrets = sorted(set(of_size["secret"].astype(str)))
        instance_of = {secret: instance for instance, secret in enumerate(secrets, start=1)}
        make_problem = _mastermind_problem(ioh, space, secrets)
        for label in order:
            played = of_size[of_size["label"] == label]
            if played.empty:
                continue
            if label not in loggers:
                counted = bool(games.loc[games["label"] == label, "evaluations"].notna().any())
                info = _algorithm_info(str(played["player"].iloc[0]), str(played["params"].iloc[0]))
                folder = _folder_name(label, taken)
                logger = _logger(ioh, out, _plain(label), folder, info, counted)
                loggers[label] = (logger, counted)
            logger, counts_evaluations = loggers[label]
            ordered = played.sort_values(["secret", "secrets", "run", "occurrence"], kind="stable")
            for secret, by_secret in ordered.groupby("secret", sort=False):
                problem = make_problem(instance_of[str(secret)])
                problem.attach_logger(logger)
                index = float(space.index(space.parse(str(secret))))
                for game in by_secret.to_dict("records"):
                    attributes = {
                        "run": float(game["run"]),
                        "secret_index": index,
                        "solved": 1.0 if game["solved"] else 0.0,
                    }
                    if counts_evaluations:
                        spent = game["evaluations"]
                        # JSON has no NaN: -1 marks a game that did not count them.
                        attributes["fitness_evaluations"] = -1.0 if pd.isna(spent) else float(spent)
                    logger.set_run_attributes(attributes)
                    for move in game["moves"]:
                        problem(space.parse(str(move)).astype(np.int32).tolist())
                    evaluations += len(game["moves"])
                    runs += 1
                    problem.reset()
                    bar.update()
                problem.detach_logger()
    bar.close()
    for logger, _ in loggers.values():
        logger.close()
    return len(loggers), len(sizes), runs, evaluations


def export_results(results_dir: Path | str, out: Path | str, progress: bool = False) -> IohExport:
    """Export a results directory's games (see :func:`export_ioh`).

    Raises:
        AnalysisError: as :func:`export_ioh`, or no games or experiment record.
    """
    check_export_folder(out)  # before the games are read (minutes for a large run)
    return export_ioh(load_games(results_dir), out, load_experiment(results_dir), progress)

"""Convergence of the evolutionary players' searches, from the move log (``log: moves``).

The log holds one row per move (:data:`evo_mastermind.runner.storage.MOVES_SCHEMA`): the
generations and evaluations a move's search spent, its restarts, the best distance to
consistency it reached and the consistent codes held when it chose. :func:`load_moves` reads
it, :func:`convergence_table` sums it up per player and move, and :func:`plot_convergence`
draws the two views IOHanalyzer (Wang et al. 2022) draws of a run: the fixed-target ECDF (the
share of moves whose search found a consistent code within x evaluations; capped moves never
do) and an anytime curve (evaluations spent so far against the guesses played).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from evo_mastermind.analysis.figures import (
    TEXT_WIDTH,
    PaperFigure,
    add_note,
    chosen_players,
    legend_above,
    paper_style,
    player_colours,
    set_title,
)
from evo_mastermind.analysis.results import AnalysisError, Experiment
from evo_mastermind.runner.record import as_record
from evo_mastermind.runner.storage import ResultsDir

GAME_KEYS = ["label", "pegs", "colors", "secrets", "run", "secret", "occurrence"]
"""The columns naming a game in the move log (as in the games table)."""

CONVERGENCE_SIZE = (TEXT_WIDTH, 3.0)
"""Inches of the convergence figure: a paper's text width, two panels."""


def load_moves(results_dir: Path | str) -> pd.DataFrame:
    """The move log of ``results_dir``: one row per move of every logged game.

    Empty (with its columns) when the experiment was run without ``log: moves``.
    """
    return ResultsDir(results_dir).load_moves()


def log_gaps(moves: pd.DataFrame, games: pd.DataFrame) -> str | None:
    """One sentence naming the players whose move log misses some of their games, or ``None``.

    A player with a log for some games and not others had ``log: moves`` turned on (or
    off) by a resumed run: its log covers only the games played while it was on, and what
    is read from it describes those games alone.
    """
    if moves.empty or games.empty:
        return None
    logged = moves.drop_duplicates(GAME_KEYS)["label"].astype(str).value_counts().to_dict()
    played = games["label"].astype(str).value_counts().to_dict()
    gaps = [
        f"{label} {count:,} of {played[label]:,}"
        for label, count in sorted(logged.items())
        if count < played.get(label, 0)
    ]
    if not gaps:
        return None
    return (
        f"The move log is partial (games logged: {', '.join(gaps)}): a resumed run turned "
        "log: moves on or off; what it shows covers the logged games only."
    )


def convergence_table(moves: pd.DataFrame) -> pd.DataFrame:
    """Per player, game size and move number: how the searches went, over the logged games.

    Columns: ``label``, ``pegs``, ``colors``, ``move``, ``games`` (games that reached this
    move), ``generations``, ``evaluations`` (means), ``median_evaluations``, ``restarts``,
    ``consistent`` (means), ``capped_share``.
    """
    if moves.empty:
        return pd.DataFrame(
            columns=[
                "label",
                "pegs",
                "colors",
                "move",
                "games",
                "generations",
                "evaluations",
                "median_evaluations",
                "restarts",
                "consistent",
                "capped_share",
            ]
        )
    grouped = moves.groupby(["label", "pegs", "colors", "move"], sort=True)
    table = grouped.agg(
        games=("move", "size"),
        generations=("generations", "mean"),
        evaluations=("evaluations", "mean"),
        median_evaluations=("evaluations", "median"),
        restarts=("restarts", "mean"),
        consistent=("consistent", "mean"),
        capped_share=("capped", "mean"),
    )
    return table.reset_index()


def plot_convergence(
    moves: pd.DataFrame,
    experiment: Experiment,
    *,
    games: pd.DataFrame | None = None,
    title: str | None = None,
    size: tuple[float, float] | None = None,
    players: Sequence[str] | None = None,
) -> PaperFigure:
    """Fixed-target ECDF of evaluations per move, and evaluations spent against guesses.

    A move is solved when its search finds a consistent code; the first guess, never
    searched, is left out of the ECDF, and capped moves never reach it (the note counts
    them, and names the chosen players that kept no log).

    Args:
        moves: the move log (:func:`load_moves`).
        experiment: its experiment record (name, players' order).
        games: the games table, for the players' order and colours (default: the log's).
        title: the title (default: the experiment's name; ``""``: none).
        size: (width, height) in inches (default: a paper's text width).
        players: the players to show, in this order (default: all, in the config's order).

    Raises:
        AnalysisError: the experiment kept no move log, or an unknown player.
    """
    if moves.empty:
        raise AnalysisError(
            "these results hold no move log: run the experiment with 'log: moves' in its "
            "config (evolutionary players only) to plot convergence"
        )
    reference = games if games is not None else moves
    _, order, everyone = chosen_players(reference, experiment, players)
    colours = player_colours(everyone)
    logged = set(moves["label"].astype(str))
    shown = [label for label in order if label in logged]
    unlogged = [label for label in order if label not in logged]
    moves = moves[moves["label"].astype(str).isin(shown)]
    searched = moves[moves["move"] > 1]
    capped = int(searched["capped"].sum())
    notes = []
    if capped:
        notes.append(f"{capped:,} capped moves never find a consistent code.")
    if unlogged:
        notes.append(f"Not shown, keeping no move log: {', '.join(unlogged)}.")
    partial = log_gaps(moves, games) if games is not None else None
    if partial is not None:
        notes.append(partial)
    several = moves.groupby(["pegs", "colors"]).ngroups > 1
    with paper_style():
        figure = PaperFigure(figsize=size or CONVERGENCE_SIZE, layout="constrained")
        ecdf, anytime = figure.subplots(1, 2)
        lines: dict[tuple[str, int, int], pd.DataFrame] = {}
        for key, rows in searched.groupby(["label", "pegs", "colors"]):
            group: tuple[Any, ...] = tuple(key)
            lines[(str(group[0]), int(group[1]), int(group[2]))] = rows
        # The players in the config's (or the chosen) order, each size in turn.
        for label, pegs, colors in sorted(lines, key=lambda key: (shown.index(key[0]), key[1:])):
            rows = lines[(label, pegs, colors)]
            name = f"{label} ({pegs},{colors})" if several else str(label)
            colour = colours.get(str(label), "#000000")
            found = np.sort(rows.loc[~rows["capped"], "evaluations"].to_numpy(dtype=float))
            share = np.arange(1, found.size + 1) / len(rows)  # capped moves never arrive
            ecdf.step(found, share, where="post", color=colour, label=name, linewidth=1.2)
            game = moves[(moves["label"] == label) & (moves["pegs"] == pegs)]
            game = game[game["colors"] == colors].sort_values([*GAME_KEYS, "move"])
            spent = game.groupby(GAME_KEYS, sort=False)["evaluations"].cumsum()
            curve = spent.groupby(game["move"]).median()
            anytime.plot(curve.index, curve.to_numpy(), marker="o", markersize=3, color=colour)
        ecdf.set_xscale("log")
        ecdf.set_ylim(0, 1.02)
        ecdf.set_xlabel("evaluations in the move")
        ecdf.set_ylabel("share of moves solved")
        anytime.set_yscale("symlog", linthresh=10)
        anytime.set_xlabel("guesses played")
        anytime.set_ylabel("evaluations so far (median)")
        for axis in (ecdf, anytime):
            axis.grid(True, which="major", alpha=0.3, linewidth=0.5)
        legend_above(ecdf, (size or CONVERGENCE_SIZE)[0] / 2)
        set_title(figure, title, f"{as_record(experiment).name}: {len(searched):,} searched moves")
        add_note(figure, notes)
    return figure

"""Heat maps of a games table over game sizes: mean guesses, mean time and win rate.

One row per player (per player and secret source when several were played), one column per
metric, one colour scale per metric across the rows so that rows compare, as brENIAC (Dekel
et al.) draws a tournament. Drawn in the paper style of :mod:`evo_mastermind.analysis.figures`.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd
from matplotlib.colors import LogNorm, Normalize
from matplotlib.ticker import MaxNLocator

from evo_mastermind.analysis.figures import (
    NOTE_SIZE,
    TEXT_WIDTH,
    TITLE_HEIGHT,
    PaperFigure,
    add_note,
    chosen_players,
    paper_style,
    set_title,
    text_inches,
)
from evo_mastermind.analysis.results import AnalysisError, Experiment, require_columns, size_text
from evo_mastermind.analysis.summary import solved_games
from evo_mastermind.runner.record import as_record

HEATMAP_ROW_HEIGHT = 1.35
"""Inches of one heat-map row; the grid is players (rows) × metrics (columns)."""

HEATMAP_ANNOTATED_UP_TO = 6
"""Heat maps with at most this many rows and columns print each cell's value."""


def _two_places(value: float) -> str:
    return f"{value:.2f}"


def _milliseconds(value: float) -> str:
    # Two significant digits, whole numbers from 100: 0.084, 2.6, 28, 279, 2013.
    return f"{value:.0f}" if value >= 100 else f"{value:.2g}"


HEATMAP_METRICS: tuple[tuple[str, str, Callable[[float], str], bool], ...] = (
    ("mean_guesses", "mean guesses (solved)", _two_places, False),
    ("mean_ms", "mean ms per game", _milliseconds, True),
    ("win_rate", "win rate", _two_places, False),
)
"""(column, title, cell text, log scale over a decade) of each heat-map metric."""

DECADE = 10.0
"""A metric with a log scale uses it when its largest value is this many times its least."""

ROW_NAME_CHARACTERS = 16
"""A heat-map row's player name wraps beyond this many characters a line."""


def plot_heatmap(
    games: pd.DataFrame,
    experiment: Experiment,
    *,
    title: str | None = None,
    size: tuple[float, float] | None = None,
    players: Sequence[str] | None = None,
) -> PaperFigure:
    """Mean guesses, mean milliseconds and win rate over (pegs, colors), one row per player.

    When several secret sources were played, each (player, secrets) pair gets its row.

    Args:
        games: the games table.
        experiment: its experiment record (name, players' order).
        title: the title (default: the experiment's name and the games' sizes; ``""``: none).
        size: (width, height) in inches (default: the text's width).
        players: the players to show, in this order (default: all, in the config's order).

    Raises:
        AnalysisError: the games cover a single game size.
    """
    require_columns(games, ("label", "n_guesses", "solved", "seconds", "pegs", "colors"))
    sizes = games[["pegs", "colors"]].drop_duplicates()
    if len(sizes) < 2:
        raise AnalysisError(
            f"a heat map needs games of several sizes; these are all {size_text(games)}"
        )
    games, order, _ = chosen_players(games, experiment, players)
    several_sources = games["secrets"].nunique() > 1
    pegs = sorted(int(p) for p in sizes["pegs"].unique())
    colors = sorted(int(c) for c in sizes["colors"].unique())
    cells = games.assign(solved=games["solved"].astype(bool)).groupby(
        ["label", "secrets", "pegs", "colors"], sort=False
    )
    guesses = solved_games(games).groupby(["label", "secrets", "pegs", "colors"], sort=False)
    figures = cells.agg(
        mean_ms=("seconds", lambda seconds: 1000 * seconds.mean()),
        win_rate=("solved", "mean"),
    )
    # Failed games are not guess counts: the mean is over the solved ones (as in the tables).
    figures.insert(0, "mean_guesses", guesses["n_guesses"].mean())
    figures = figures.reset_index()
    lows, highs = figures.min(numeric_only=True), figures.max(numeric_only=True)
    rows = [
        (label, secrets)
        for label in order
        for secrets in sorted(set(figures.loc[figures["label"] == label, "secrets"]))
    ]
    notes: list[str] = []
    with paper_style():
        if size is None:
            size = (TEXT_WIDTH, HEATMAP_ROW_HEIGHT * len(rows) + 0.8 + TITLE_HEIGHT)
        figure = PaperFigure(figsize=size, layout="constrained")
        grid = figure.subplots(len(rows), len(HEATMAP_METRICS), squeeze=False)
        # Values printed in the cells only while they fit; larger grids show colour alone.
        cell_width = size[0] / len(HEATMAP_METRICS) * 0.7 / len(colors)
        fits = {
            metric: max(len(pegs), len(colors)) <= HEATMAP_ANNOTATED_UP_TO
            and all(
                text_inches(shown(value), NOTE_SIZE) + 0.05 < cell_width
                for value in figures[metric].dropna()
            )
            for metric, _, shown, _ in HEATMAP_METRICS
        }
        scales = {
            metric: (
                Normalize(0.0, 1.0)
                if metric == "win_rate"
                # One scale per metric across players, so that panels compare.
                # A log scale when the values span a decade or more (times often span several).
                else LogNorm(lows[metric], highs[metric])
                if log and lows[metric] > 0 and highs[metric] >= DECADE * lows[metric]
                else Normalize(lows[metric], highs[metric])
            )
            for metric, _, _, log in HEATMAP_METRICS
        }
        blank = False
        for row_index, (label, secrets) in enumerate(rows):
            mine = figures[(figures["label"] == label) & (figures["secrets"] == secrets)]
            # Whole words a line: a source's name (scsa:insert_colors) is not cut.
            name = "\n".join(
                textwrap.wrap(label, ROW_NAME_CHARACTERS, break_long_words=False)
                + ([f"secrets: {secrets}"] if several_sources else [])
            )
            for column, (metric, metric_title, shown, _) in enumerate(HEATMAP_METRICS):
                axis = grid[row_index, column]
                matrix = (
                    mine.pivot(index="pegs", columns="colors", values=metric)
                    .reindex(index=pegs, columns=colors)
                    .to_numpy(dtype=float)
                )
                blank = blank or bool(np.isnan(matrix).any())
                axis.imshow(
                    matrix, cmap="viridis", origin="lower", aspect="auto", norm=scales[metric]
                )
                for (y, x), value in np.ndenumerate(matrix):
                    if fits[metric] and not np.isnan(value):
                        axis.text(
                            x,
                            y,
                            shown(value),
                            ha="center",
                            va="center",
                            fontsize=NOTE_SIZE,
                            bbox={"facecolor": "white", "alpha": 0.7, "linewidth": 0, "pad": 1},
                        )
                axis.set_xticks(range(len(colors)), [str(c) for c in colors])
                axis.set_yticks(range(len(pegs)), [str(p) for p in pegs])
                if row_index == len(rows) - 1:
                    axis.set_xlabel("colors")
                if column == 0:
                    axis.set_ylabel("pegs")
                    # The row's player, level and left of the axis label: a rotated name
                    # longer than the row would run into the next one.
                    axis.annotate(
                        name,
                        xy=(0, 0.5),
                        xycoords=axis.yaxis.label,
                        xytext=(-4, 0),
                        textcoords="offset points",
                        ha="right",
                        va="center",
                    )
                if row_index == 0:
                    axis.set_title(metric_title)
            # One colour bar a metric, under its column: the scale is the column's.
            if row_index == len(rows) - 1:
                for column, (metric, metric_title, _, _) in enumerate(HEATMAP_METRICS):
                    # Narrower than the column, few ticks: end labels clear the next bar's.
                    bar = figure.colorbar(
                        grid[0, column].images[0],
                        ax=list(grid[:, column]),
                        location="bottom",
                        label=metric_title
                        + (" (log scale)" if isinstance(scales[metric], LogNorm) else ""),
                        aspect=15,
                        shrink=0.8,
                    )
                    if not isinstance(scales[metric], LogNorm):
                        bar.ax.xaxis.set_major_locator(MaxNLocator(3))
        if blank:
            notes.append("Blank cells: sizes the player did not play.")
        set_title(figure, title, f"{as_record(experiment).name}: {size_text(games)}")
        add_note(figure, notes)
    return figure

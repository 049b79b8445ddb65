"""Plots of a games table: guess-count distributions, evaluations against guesses, heat maps.

Figures are built as :class:`matplotlib.figure.Figure` objects without pyplot, so nothing
depends on a display: PNG is rendered by Agg and PDF by matplotlib's PDF backend, chosen by
the output file's suffix. Colours follow the Okabe–Ito palette (colour-blind safe), maps use
viridis, and every figure carries the experiment's name and game size in its title.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from evo_mastermind.analysis.convergence import load_moves, plot_convergence
from evo_mastermind.analysis.kinds import PLOT_KINDS as PLOT_KINDS  # re-exported for callers
from evo_mastermind.analysis.optimum import known_optimum
from evo_mastermind.analysis.results import (
    AnalysisError,
    Experiment,
    blocks,
    label_order,
    load_experiment,
    load_games,
    require_columns,
    size_text,
)
from evo_mastermind.analysis.summary import solved_games
from evo_mastermind.runner.record import as_record

OKABE_ITO = (
    "#E69F00",  # orange
    "#56B4E9",  # sky blue
    "#009E73",  # bluish green
    "#0072B2",  # blue
    "#D55E00",  # vermillion
    "#CC79A7",  # reddish purple
    "#F0E442",  # yellow (last: faint on white)
    "#000000",
)
"""Okabe & Ito's colour-blind-safe palette; players beyond eight reuse it in order."""

DPI = 100
"""Dots per inch of PNG output: a figure of w × h inches is w·DPI × h·DPI pixels."""

PANEL_SIZE = (9.0, 4.5)
"""Inches of one distribution panel (one per pegs, colors and secrets)."""
EVALUATIONS_SIZE = (8.0, 5.5)
HEATMAP_CELL = (4.2, 3.4)
"""Inches of one heat-map panel; the grid is players (rows) × metrics (columns)."""

HEATMAP_ANNOTATED_UP_TO = 6
"""Heat maps with at most this many rows and columns print each cell's value."""

HEATMAP_METRICS = (
    ("mean_guesses", "mean guesses", ".2f"),
    ("mean_seconds", "mean seconds per game", ".3g"),
    ("win_rate", "win rate", ".2f"),
)
"""(column, title, cell format) of each heat-map metric."""


def player_colours(labels: Sequence[str]) -> dict[str, str]:
    """One palette colour per label, in the order given."""
    return {label: OKABE_ITO[index % len(OKABE_ITO)] for index, label in enumerate(labels)}


HATCHES = ("", "////", "....", "xxxx")
LINE_STYLES = ("-", "--", ":", "-.")
LEGEND_INSIDE_LIMIT = 6
"""With more players than this the legend moves beside the axes."""


def _cycle(labels: Sequence[str], styles: Sequence[str]) -> dict[str, str]:
    # Once the eight palette colours are used up, the next round differs in pattern.
    return {label: styles[(i // len(OKABE_ITO)) % len(styles)] for i, label in enumerate(labels)}


def _legend(axis: Any, title: str, count: int, inside: str = "best") -> None:
    if count > LEGEND_INSIDE_LIMIT:
        axis.legend(title=title, fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    else:
        axis.legend(title=title, fontsize=8, loc=inside)


def _title(experiment: Experiment, games: pd.DataFrame) -> str:
    return f"{as_record(experiment).name}: {size_text(games)}"


def _block_name(key: tuple[int, int, str]) -> str:
    pegs, colors, secrets = key
    return f"({pegs},{colors}), secrets: {secrets}"


def _solved_shares(block: pd.DataFrame, labels: Sequence[str]) -> tuple[np.ndarray, pd.DataFrame]:
    """Guess counts 1..max and, per label, the share of its games solved in exactly n."""
    counts = np.arange(1, int(block["n_guesses"].max()) + 1)
    shares = {}
    for label in labels:
        played = block[block["label"] == label]
        solved = played.loc[played["solved"].astype(bool), "n_guesses"]
        tally = solved.value_counts().reindex(counts, fill_value=0)
        shares[label] = tally.to_numpy() / max(len(played), 1)
    return counts, pd.DataFrame(shares, index=counts)


def _panels(games: pd.DataFrame, experiment: Experiment) -> tuple[Figure, list[Any], list[str]]:
    require_columns(games, ("label", "n_guesses", "solved", "pegs", "colors", "secrets"))
    labels = label_order(games, experiment)
    rows = len(blocks(games))
    figure = Figure(figsize=(PANEL_SIZE[0], PANEL_SIZE[1] * rows), dpi=DPI, layout="constrained")
    axes = list(np.atleast_1d(figure.subplots(rows, 1, squeeze=False)[:, 0]))
    figure.suptitle(_title(experiment, games))
    return figure, axes, labels


def plot_distribution(games: pd.DataFrame, experiment: Experiment) -> Figure:
    """Share of games solved in exactly n guesses, players side by side, means marked."""
    figure, axes, labels = _panels(games, experiment)
    colours, hatches = player_colours(labels), _cycle(labels, HATCHES)
    for axis, (key, block) in zip(axes, blocks(games), strict=True):
        present = [label for label in labels if label in set(block["label"])]
        counts, shares = _solved_shares(block, present)
        width = 0.8 / len(present)
        for index, label in enumerate(present):
            mean = float(solved_games(block[block["label"] == label])["n_guesses"].mean())
            offset = (index - (len(present) - 1) / 2) * width
            # The mean's value goes in the legend: the dashed lines of close means overlap.
            name = f"{label} (mean {mean:.3f})"
            axis.bar(
                counts + offset,
                shares[label],
                width,
                color=colours[label],
                hatch=hatches[label],
                edgecolor="white",
                linewidth=0,
                label=name,
            )
            axis.axvline(mean, color=colours[label], linestyle="--", linewidth=1.2)
        optimum = known_optimum(key[0], key[1])
        if optimum is not None:  # the floor every player's mean is measured against
            axis.axvline(optimum.mean, color="black", linestyle=":", linewidth=1.5)
            axis.annotate(
                f"optimum {optimum.mean:.3f}",
                (optimum.mean, 1.0),
                xycoords=("data", "axes fraction"),
                rotation=90,
                ha="right",
                va="top",
                fontsize=7,
            )
        axis.set_xticks(counts)
        axis.set_xlabel("guesses to solve")
        axis.set_ylabel("share of games")
        axis.set_title(_block_name(key), fontsize=10)
        _legend(axis, "player (dashed line: mean guesses)", len(present))
    return figure


def plot_cumulative(games: pd.DataFrame, experiment: Experiment) -> Figure:
    """Share of games solved within n guesses, one step line per player."""
    figure, axes, labels = _panels(games, experiment)
    colours, styles = player_colours(labels), _cycle(labels, LINE_STYLES)
    for axis, (key, block) in zip(axes, blocks(games), strict=True):
        present = [label for label in labels if label in set(block["label"])]
        counts, shares = _solved_shares(block, present)
        for label in present:
            axis.step(
                counts,
                shares[label].cumsum(),
                where="post",
                color=colours[label],
                linestyle=styles[label],
                label=label,
                linewidth=1.8,
            )
        axis.set_xticks(counts)
        axis.set_ylim(0, 1.02)
        axis.set_xlabel("guesses")
        axis.set_ylabel("share of games solved within n guesses")
        axis.set_title(_block_name(key), fontsize=10)
        _legend(axis, "player", len(present), inside="lower right")
    return figure


def plot_evaluations(games: pd.DataFrame, experiment: Experiment) -> Figure:
    """Mean evaluations per game against mean guesses: one point per player and block.

    Raises:
        AnalysisError: no player counted evaluations.
    """
    require_columns(games, ("label", "n_guesses", "evaluations", "pegs", "colors", "secrets"))
    counted = games[pd.to_numeric(games["evaluations"], errors="coerce").notna()]
    if counted.empty:
        raise AnalysisError(
            "no player in these games counts evaluations (only evolutionary players do); "
            "an evaluations plot needs at least one"
        )
    # Colours follow every player, so a player keeps its colour from plot to plot.
    colours = player_colours(label_order(games, experiment))
    several = len(blocks(counted)) > 1
    figure = Figure(figsize=EVALUATIONS_SIZE, dpi=DPI, layout="constrained")
    axis = figure.subplots()
    for key, block in blocks(counted):
        for label, played in block.groupby("label", sort=False):
            x = float(solved_games(played)["n_guesses"].mean())
            y = float(pd.to_numeric(played["evaluations"]).mean())
            name = f"{label} {_block_name(key)}" if several else str(label)
            axis.scatter(x, y, s=60, color=colours[str(label)], zorder=3, label=name)
    axis.set_yscale("log")
    axis.margins(0.15)
    # A legend, not labels beside the points: nearby points would print over each other.
    axis.legend(fontsize=8, loc="best")
    axis.set_xlabel("mean guesses per game")
    axis.set_ylabel("mean evaluations per game (log scale)")
    axis.grid(True, which="both", alpha=0.3)
    figure.suptitle(f"{_title(experiment, counted)}: speed against quality")
    return figure


def plot_heatmap(games: pd.DataFrame, experiment: Experiment) -> Figure:
    """Mean guesses, mean seconds and win rate over (pegs, colors), one row per player.

    When several secret sources were played, each (player, secrets) pair gets its row.

    Raises:
        AnalysisError: the games cover a single game size.
    """
    require_columns(games, ("label", "n_guesses", "solved", "seconds", "pegs", "colors"))
    sizes = games[["pegs", "colors"]].drop_duplicates()
    if len(sizes) < 2:
        raise AnalysisError(
            f"a heat map needs games of several sizes; these are all {size_text(games)}"
        )
    several_sources = games["secrets"].nunique() > 1
    pegs = sorted(int(p) for p in sizes["pegs"].unique())
    colors = sorted(int(c) for c in sizes["colors"].unique())
    cells = games.assign(solved=games["solved"].astype(bool)).groupby(
        ["label", "secrets", "pegs", "colors"], sort=False
    )
    guesses = solved_games(games).groupby(["label", "secrets", "pegs", "colors"], sort=False)
    figures = cells.agg(
        mean_seconds=("seconds", "mean"),
        win_rate=("solved", "mean"),
    )
    # Failed games are not guess counts: the mean is over the solved ones (as in the tables).
    figures.insert(0, "mean_guesses", guesses["n_guesses"].mean())
    figures = figures.reset_index()
    lows, highs = figures.min(numeric_only=True), figures.max(numeric_only=True)
    rows = [
        (label, secrets)
        for label in label_order(games, experiment)
        for secrets in sorted(set(figures.loc[figures["label"] == label, "secrets"]))
    ]
    width, height = HEATMAP_CELL
    figure = Figure(
        figsize=(width * len(HEATMAP_METRICS), height * len(rows)), dpi=DPI, layout="constrained"
    )
    grid = figure.subplots(len(rows), len(HEATMAP_METRICS), squeeze=False)
    for row_index, (label, secrets) in enumerate(rows):
        mine = figures[(figures["label"] == label) & (figures["secrets"] == secrets)]
        name = f"{label}, secrets: {secrets}" if several_sources else label
        for column, (metric, title, shown) in enumerate(HEATMAP_METRICS):
            axis = grid[row_index, column]
            matrix = (
                mine.pivot(index="pegs", columns="colors", values=metric)
                .reindex(index=pegs, columns=colors)
                .to_numpy(dtype=float)
            )
            # One scale per metric across players, so that panels compare; win rate is 0..1.
            low, high = (0.0, 1.0) if metric == "win_rate" else (lows[metric], highs[metric])
            image = axis.imshow(
                matrix, cmap="viridis", origin="lower", aspect="auto", vmin=low, vmax=high
            )
            # Values printed in the cells only while they fit; larger grids show colour alone.
            fits = max(matrix.shape) <= HEATMAP_ANNOTATED_UP_TO
            for (y, x), value in np.ndenumerate(matrix):
                if fits and not np.isnan(value):
                    axis.text(
                        x,
                        y,
                        f"{value:{shown}}",
                        ha="center",
                        va="center",
                        fontsize=8,
                        bbox={"facecolor": "white", "alpha": 0.7, "linewidth": 0},
                    )
            axis.set_xticks(range(len(colors)), [str(c) for c in colors])
            axis.set_yticks(range(len(pegs)), [str(p) for p in pegs])
            axis.set_xlabel("colors")
            axis.set_ylabel("pegs")
            axis.set_title(f"{name}: {title}", fontsize=9)
            figure.colorbar(image, ax=axis, label=title)
    figure.suptitle(_title(experiment, games))
    return figure


PLOTTERS: dict[str, Callable[[pd.DataFrame, Experiment], Figure]] = {
    "distribution": plot_distribution,
    "cumulative": plot_cumulative,
    "evaluations": plot_evaluations,
    "heatmap": plot_heatmap,
}


def make_figure(
    games: pd.DataFrame, experiment: Experiment, kind: str, moves: pd.DataFrame | None = None
) -> Figure:
    """The figure of one kind for a games table (``convergence``: of its move log ``moves``).

    Raises:
        AnalysisError: an unknown kind, or a kind these games cannot show.
    """
    if kind == "convergence":
        colours = player_colours(label_order(games, experiment))
        log = moves if moves is not None else pd.DataFrame(columns=["move"])
        return plot_convergence(log, experiment, colours)
    if kind not in PLOTTERS:
        raise AnalysisError(f"unknown plot kind {kind!r}; choose one of {', '.join(PLOT_KINDS)}")
    return PLOTTERS[kind](games, experiment)


def save_figure(figure: Figure, out: Path | str) -> Path:
    """Write a figure as PNG or PDF, by the suffix of ``out``; return the path.

    Raises:
        AnalysisError: a suffix other than ``.png`` or ``.pdf``.
    """
    out = Path(out)
    if out.suffix.lower() not in (".png", ".pdf"):
        raise AnalysisError(f"plot file {out} must end in .png or .pdf")
    out.parent.mkdir(parents=True, exist_ok=True)
    kind = out.suffix.lower()[1:]
    # No creation date in a PDF: the same games make the same bytes (a PNG has none).
    metadata = {"CreationDate": None} if kind == "pdf" else None
    figure.savefig(out, dpi=DPI, format=kind, metadata=metadata)
    return out


def plot_results(
    results_dir: Path | str,
    kind: str,
    out: Path | str | None = None,
    pool_secrets: bool = False,
) -> Path:
    """Plot a results directory; the default file is ``results_dir/plots/<kind>.png``.

    ``pool_secrets`` treats every secret source as one (e.g. one heat-map row per player
    over all the SCSAs of a tournament, as brENIAC (Dekel et al.) draws them).

    Raises:
        AnalysisError: no games, an unknown kind, a kind these games cannot show, or a bad
            file suffix.
    """
    results_dir = Path(results_dir)
    games = load_games(results_dir)
    if pool_secrets:
        games = games.assign(secrets="all sources")
    moves = load_moves(results_dir) if kind == "convergence" else None
    figure = make_figure(games, load_experiment(results_dir), kind, moves)
    return save_figure(figure, out if out is not None else results_dir / "plots" / f"{kind}.png")

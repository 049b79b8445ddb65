"""Plots of a games table: guess-count distributions, evaluations against guesses, heat maps.

Figures are :class:`~evo_mastermind.analysis.figures.PaperFigure` objects built without
pyplot, so nothing depends on a display: they show themselves in Jupyter with no magic, and
save as 300-dpi PNG or as vector PDF with TrueType fonts, by the output file's suffix, at a
paper's size (:mod:`evo_mastermind.analysis.figures`). Each takes a title, a size and the
players to show, in order. Colours follow the Okabe–Ito palette (colour-blind safe) and
each player keeps its colour from plot to plot, and every figure says under it what it
leaves out (players that did not play a block or count evaluations, unsolved games).
Heat maps are in :mod:`evo_mastermind.analysis.heatmap`, critical-difference diagrams in
:mod:`evo_mastermind.analysis.cd_diagram`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.lines import Line2D

from evo_mastermind.analysis.cd_diagram import plot_cd
from evo_mastermind.analysis.convergence import load_moves, plot_convergence
from evo_mastermind.analysis.figures import (
    COLUMN_PLAYERS,
    COLUMN_WIDTH,
    DISPLAY_DPI,
    HATCHES,
    LEGEND_ROW_HEIGHT,
    LINE_STYLES,
    NOTE_LINE_HEIGHT,
    OKABE_ITO,
    PAPER_STYLE,
    SAVE_DPI,
    TEXT_WIDTH,
    TITLE_HEIGHT,
    PaperFigure,
    add_note,
    check_plot_file,
    chosen_players,
    cycle_styles,
    legend_above,
    legend_rows,
    paper_style,
    player_colours,
    save_figure,
    set_title,
    width_for,
    wrapped_notes,
)
from evo_mastermind.analysis.heatmap import plot_heatmap
from evo_mastermind.analysis.kinds import PLOT_KINDS as PLOT_KINDS  # re-exported for callers
from evo_mastermind.analysis.optimum import block_floor
from evo_mastermind.analysis.results import (
    AnalysisError,
    Experiment,
    blocks,
    load_experiment,
    load_games,
    require_columns,
    secrets_text,
    size_text,
)
from evo_mastermind.analysis.summary import solved_games
from evo_mastermind.runner.record import as_record

PANEL_HEIGHT = 1.9
"""Inches of the axes of one distribution panel (one per pegs, colors and secrets)."""
GRID_FROM_BLOCKS = 3
"""From this many blocks (of at most four players), panels go two abreast."""
EVALUATIONS_HEIGHT = 2.3
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "<", ">", "h", "p")
"""The evaluations plot's marker of each block (pegs, colors, secrets), in order."""


def _block_name(key: tuple[int, int, str], block: pd.DataFrame | None = None) -> str:
    pegs, colors, secrets = key
    named = secrets if block is None else secrets_text(secrets, block)
    return f"({pegs},{colors}), secrets: {named}"


def _names(labels: Sequence[str]) -> str:
    return ", ".join(labels)


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


def _where(key: tuple[int, int, str], sources: int) -> str:
    # The secret source is named only when the games have several.
    return _block_name(key) if sources > 1 else f"({key[0]},{key[1]})"


def _listed(by_player: dict[str, list[str]]) -> str:
    """``a at (4,6), (5,8); b at (6,9)``, or the players alone when nothing says where."""
    return "; ".join(
        f"{label} {', '.join(places)}".strip() for label, places in by_player.items() if places
    )


def _panels(
    games: pd.DataFrame,
    experiment: Experiment,
    title: str | None,
    size: tuple[float, float] | None,
    players: Sequence[str] | None,
    legend_names: Callable[[pd.DataFrame, list[str]], list[str]],
    titled: bool,
    notes: Callable[[list[tuple[tuple[int, int, str], pd.DataFrame, list[str]]]], list[str]],
) -> tuple[PaperFigure, list[tuple[Any, tuple[int, int, str], pd.DataFrame, list[str]]], list[str]]:
    """A figure of one panel per block, each with its block and the chosen players in it.

    Also returns every label (for colours); the figure's notes name the players absent from
    a block, then what ``notes`` says of the blocks.
    """
    require_columns(games, ("label", "n_guesses", "solved", "pegs", "colors", "secrets"))
    games, order, everyone = chosen_players(games, experiment, players)
    split = blocks(games)
    several = len(split) > 1
    sources = games["secrets"].nunique()
    # Several blocks of a few players go two abreast across the text width.
    columns = 2 if len(split) >= GRID_FROM_BLOCKS and len(order) <= COLUMN_PLAYERS else 1
    width = size[0] if size else (TEXT_WIDTH if columns == 2 else width_for(len(order)))
    rows = math.ceil(len(split) / columns)
    shown = [
        [label for label in order if label in set(block["label"].astype(str))] for _, block in split
    ]
    absent: dict[str, list[str]] = {label: [] for label in order}
    for (key, _), present in zip(split, shown, strict=True):
        for label in order:
            if label not in present:
                absent[label].append(("at " if not absent[label] else "") + _where(key, sources))
    said = ([f"Not played: {_listed(absent)}."] if any(absent.values()) else []) + notes(
        [(key, block, present) for (key, block), present in zip(split, shown, strict=True)]
    )
    if size is None:
        heights = [
            legend_rows(legend_names(block, present), width / columns)
            + int(titled)
            + int(several)  # the legend's title lines
            for (_, block), present in zip(split, shown, strict=True)
        ]
        # A row of panels is as tall as its tallest legend.
        legends = sum(max(heights[row * columns : (row + 1) * columns]) for row in range(rows))
        size = (
            width,
            PANEL_HEIGHT * rows
            + LEGEND_ROW_HEIGHT * legends
            + TITLE_HEIGHT
            + NOTE_LINE_HEIGHT * len(wrapped_notes(said, width))
            + 0.4,
        )
    figure = PaperFigure(figsize=size, layout="constrained")
    axes = list(figure.subplots(rows, columns, squeeze=False).flat)
    for spare in axes[len(split) :]:  # an odd number of blocks leaves the last cell empty
        spare.remove()
    axes = axes[: len(split)]
    only = "" if several else f": {_block_name(*split[0])}"
    set_title(figure, title, as_record(experiment).name + only)
    add_note(figure, said)
    panels = [
        (axis, key, block, present)
        for axis, (key, block), present in zip(axes, split, shown, strict=True)
    ]
    return figure, panels, everyone


def _panel_width(axis: Any, width: float) -> float:
    """Inches of one panel's share of a figure ``width`` inches wide."""
    return width / int(axis.get_subplotspec().get_gridspec().ncols)


def _unsolved(panels: list[tuple[tuple[int, int, str], pd.DataFrame, list[str]]]) -> list[str]:
    """The note of games left out of a distribution: the unsolved ones, per player and block."""
    several = len(panels) > 1
    sources = len({key[2] for key, _, _ in panels})
    failing: dict[str, list[str]] = {}
    for key, block, present in panels:
        for label in present:
            solved = block.loc[block["label"] == label, "solved"].astype(bool)
            share = 1 - float(solved.mean())
            if share > 0:
                where = f" at {_where(key, sources)}" if several else ""
                failing.setdefault(label, []).append(f"{share:.1%}{where}")
    if not failing:
        return []
    return [f"Unsolved games, left out of the bars and means: {_listed(failing)}."]


def _mean_names(block: pd.DataFrame, present: list[str]) -> list[str]:
    names = []
    for label in present:
        mean = float(solved_games(block[block["label"] == label])["n_guesses"].mean())
        names.append(f"{label} ({mean:.3f})")
    return names


MEAN_ENTRY = "mean (dashed)"
MEANS_TITLE = "player (mean guesses)"


def _distribution_names(block: pd.DataFrame, present: list[str]) -> list[str]:
    """The legend's entries of a distribution panel (for its size)."""
    optimum = block_floor(block)
    names = [*_mean_names(block, present), MEAN_ENTRY]
    return [*names, f"optimum {optimum:.3f}"] if optimum is not None else names


def plot_distribution(
    games: pd.DataFrame,
    experiment: Experiment,
    *,
    title: str | None = None,
    size: tuple[float, float] | None = None,
    players: Sequence[str] | None = None,
) -> PaperFigure:
    """Share of games solved in exactly n guesses, players side by side, means marked.

    Args:
        games: the games table.
        experiment: its experiment record (name, players' order).
        title: the title (default: the experiment's name and the game; ``""``: none).
        size: (width, height) in inches (default: a column's width, the text's beyond
            four players).
        players: the players to show, in this order (default: all, in the config's order).
    """
    with paper_style():
        figure, panels, everyone = _panels(
            games, experiment, title, size, players, _distribution_names, True, _unsolved
        )
        colours, hatches = player_colours(everyone), cycle_styles(everyone, HATCHES)
        width = float(figure.get_size_inches()[0])
        for axis, key, block, present in panels:
            counts, shares = _solved_shares(block, present)
            bar_width = 0.8 / max(len(present), 1)
            names = _mean_names(block, present)
            for index, (label, name) in enumerate(zip(present, names, strict=True)):
                played = block[block["label"] == label]
                mean = float(solved_games(played)["n_guesses"].mean())
                offset = (index - (len(present) - 1) / 2) * bar_width
                axis.bar(
                    counts + offset,
                    shares[label],
                    bar_width,
                    color=colours[label],
                    hatch=hatches[label],
                    edgecolor="white",
                    linewidth=0,
                    label=name,
                )
                # The mean's value is in the legend: close means draw close lines, no labels.
                axis.axvline(mean, color=colours[label], linestyle="--", linewidth=1.0)
            extra = [(Line2D([], [], color="grey", linestyle="--", linewidth=1.0), MEAN_ENTRY)]
            optimum = block_floor(block)
            if optimum is not None:  # the floor every player's mean is measured against
                floor = axis.axvline(optimum, color="black", linestyle=":", linewidth=1.2)
                extra.append((floor, f"optimum {optimum:.3f}"))
            axis.set_xticks(counts)
            axis.set_xlabel("guesses to solve")
            axis.set_ylabel("share of games")
            block_title = f"{_block_name(key, block)}\n" if len(panels) > 1 else ""
            legend_above(axis, _panel_width(axis, width), block_title + MEANS_TITLE, extra)
    return figure


def plot_cumulative(
    games: pd.DataFrame,
    experiment: Experiment,
    *,
    title: str | None = None,
    size: tuple[float, float] | None = None,
    players: Sequence[str] | None = None,
) -> PaperFigure:
    """Share of games solved within n guesses, one step line per player.

    Args:
        games: the games table.
        experiment: its experiment record (name, players' order).
        title: the title (default: the experiment's name and the game; ``""``: none).
        size: (width, height) in inches (default: a column's width, the text's beyond
            four players).
        players: the players to show, in this order (default: all, in the config's order).
    """
    with paper_style():
        figure, panels, everyone = _panels(
            games,
            experiment,
            title,
            size,
            players,
            lambda _, present: present,
            False,
            lambda _: [],
        )
        colours, styles = player_colours(everyone), cycle_styles(everyone, LINE_STYLES)
        width = float(figure.get_size_inches()[0])
        for axis, key, block, present in panels:
            counts, shares = _solved_shares(block, present)
            # Each share holds until the next count; the last one for half a step more.
            ends = np.append(counts, counts[-1] + 0.5)
            for label in present:
                solved = shares[label].cumsum().to_numpy()
                axis.step(
                    ends,
                    np.append(solved, solved[-1]),
                    where="post",
                    color=colours[label],
                    linestyle=styles[label],
                    label=label,
                    linewidth=1.4,
                )
            axis.set_xticks(counts)
            axis.set_xlim(counts[0] - 0.5, ends[-1])
            axis.set_ylim(0, 1.02)
            axis.set_xlabel("guesses")
            axis.set_ylabel("share solved within n")
            legend_above(
                axis,
                _panel_width(axis, width),
                _block_name(key, block) if len(panels) > 1 else None,
            )
    return figure


def plot_evaluations(
    games: pd.DataFrame,
    experiment: Experiment,
    *,
    title: str | None = None,
    size: tuple[float, float] | None = None,
    players: Sequence[str] | None = None,
) -> PaperFigure:
    """Mean evaluations per game against mean guesses: one point per player and block.

    Players that count no evaluations (exhaustive ones) are named in the figure's note.

    Args:
        games: the games table.
        experiment: its experiment record (name, players' order).
        title: the title (default: the experiment's name and the games' sizes; ``""``: none).
        size: (width, height) in inches (default: a column's width).
        players: the players to show, in this order (default: all, in the config's order).

    Raises:
        AnalysisError: no chosen player counted evaluations.
    """
    require_columns(games, ("label", "n_guesses", "evaluations", "pegs", "colors", "secrets"))
    chosen, order, everyone = chosen_players(games, experiment, players)
    counted = chosen[pd.to_numeric(chosen["evaluations"], errors="coerce").notna()]
    if counted.empty:
        raise AnalysisError(
            "no player in these games counts evaluations (only evolutionary players do); "
            "an evaluations plot needs at least one"
        )
    # Colours follow every player, so a player keeps its colour from plot to plot.
    colours = player_colours(everyone)
    counting = set(counted["label"].astype(str))
    uncounted = [label for label in order if label not in counting]
    notes = [f"Not shown, counting no evaluations: {_names(uncounted)}."] if uncounted else []
    split = blocks(counted)
    sources = counted["secrets"].nunique()
    # A player keeps its colour; each block (size, secrets) has its marker.
    markers = {key: MARKERS[index % len(MARKERS)] for index, (key, _) in enumerate(split)}
    points = [
        (label, key, played)
        for key, block in split
        for label in order
        if not (played := block[block["label"].astype(str) == label]).empty
    ]
    names = [
        f"{label} {_where(key, sources)}" if len(split) > 1 else label for label, key, _ in points
    ]
    with paper_style():
        width = size[0] if size else width_for(len(names))
        if size is None:
            size = (
                width,
                EVALUATIONS_HEIGHT
                + LEGEND_ROW_HEIGHT * legend_rows(names, width)
                + TITLE_HEIGHT
                + NOTE_LINE_HEIGHT * len(wrapped_notes(notes, width)),
            )
        figure = PaperFigure(figsize=size, layout="constrained")
        axis = figure.subplots()
        for (label, key, played), name in zip(points, names, strict=True):
            x = float(solved_games(played)["n_guesses"].mean())
            y = float(pd.to_numeric(played["evaluations"]).mean())
            axis.scatter(
                x, y, s=28, color=colours[label], marker=markers[key], zorder=3, label=name
            )
        axis.set_yscale("log")
        axis.margins(0.15)
        axis.set_xlabel("mean guesses per solved game")
        axis.set_ylabel("mean evaluations per game")
        axis.grid(True, which="both", alpha=0.3, linewidth=0.5)
        # A legend, not labels beside the points: nearby points would print over each other.
        legend_above(axis, width)
        set_title(figure, title, f"{as_record(experiment).name}: {size_text(counted)}")
        add_note(figure, notes)
    return figure


Plotter = Callable[..., PaperFigure]

PLOTTERS: dict[str, Plotter] = {
    "distribution": plot_distribution,
    "cumulative": plot_cumulative,
    "evaluations": plot_evaluations,
    "heatmap": plot_heatmap,
    "cd": plot_cd,
}


def make_figure(
    games: pd.DataFrame,
    experiment: Experiment,
    kind: str,
    *,
    title: str | None = None,
    size: tuple[float, float] | None = None,
    players: Sequence[str] | None = None,
    moves: pd.DataFrame | None = None,
) -> PaperFigure:
    """The figure of one kind for a games table (``convergence``: of its move log ``moves``).

    Args:
        games: the games table.
        experiment: its experiment record (name, players' order).
        kind: one of :data:`PLOT_KINDS`.
        title: the title (default: the experiment's name and the game; ``""``: none).
        size: (width, height) in inches (default: a paper's column or text width).
        players: the players to show, in this order (default: all, in the config's order).
        moves: the move log (``log: moves``), which the ``convergence`` kind draws.

    Raises:
        AnalysisError: an unknown kind or player, or a kind these games cannot show.
    """
    if kind == "convergence":
        log = moves if moves is not None else pd.DataFrame(columns=["move"])
        return plot_convergence(
            log, experiment, games=games, title=title, size=size, players=players
        )
    if kind not in PLOTTERS:
        raise AnalysisError(f"unknown plot kind {kind!r}; choose one of {', '.join(PLOT_KINDS)}")
    return PLOTTERS[kind](games, experiment, title=title, size=size, players=players)


def results_figure(
    results_dir: Path | str,
    kind: str,
    *,
    pool_secrets: bool = False,
    title: str | None = None,
    size: tuple[float, float] | None = None,
    players: Sequence[str] | None = None,
) -> PaperFigure:
    """The figure of one kind for a results directory (options as :func:`make_figure`).

    ``pool_secrets`` treats every secret source as one (e.g. one heat-map row per player
    over all the SCSAs of a tournament, as brENIAC (Dekel et al.) draws them).

    Raises:
        AnalysisError: no games, an unknown kind or player, or a kind these games cannot show.
    """
    results_dir = Path(results_dir)
    games = load_games(results_dir)
    if pool_secrets:
        games = games.assign(secrets="all sources")
    experiment = load_experiment(results_dir)
    moves = load_moves(results_dir) if kind == "convergence" else None
    return make_figure(
        games, experiment, kind, title=title, size=size, players=players, moves=moves
    )


def default_plot_path(results_dir: Path | str, kind: str) -> Path:
    """Where a plot of a results directory goes unless told: ``results_dir/plots/<kind>.png``."""
    return Path(results_dir) / "plots" / f"{kind}.png"


def plot_results(
    results_dir: Path | str,
    kind: str,
    out: Path | str | None = None,
    pool_secrets: bool = False,
    *,
    title: str | None = None,
    size: tuple[float, float] | None = None,
    players: Sequence[str] | None = None,
) -> Path:
    """Plot a results directory; the default file is ``results_dir/plots/<kind>.png``.

    Options as :func:`results_figure`.

    Raises:
        AnalysisError: no games, an unknown kind or player, a kind these games cannot show,
            or a bad file suffix.
    """
    target = check_plot_file(out if out is not None else default_plot_path(results_dir, kind))
    figure = results_figure(
        results_dir, kind, pool_secrets=pool_secrets, title=title, size=size, players=players
    )
    return save_figure(figure, target)


__all__ = [
    "COLUMN_WIDTH",
    "DISPLAY_DPI",
    "OKABE_ITO",
    "PAPER_STYLE",
    "PLOTTERS",
    "PLOT_KINDS",
    "SAVE_DPI",
    "TEXT_WIDTH",
    "PaperFigure",
    "check_plot_file",
    "default_plot_path",
    "make_figure",
    "player_colours",
    "plot_cd",
    "plot_cumulative",
    "plot_distribution",
    "plot_evaluations",
    "plot_heatmap",
    "plot_results",
    "results_figure",
    "save_figure",
]

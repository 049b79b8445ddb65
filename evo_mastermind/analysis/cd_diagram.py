"""The critical-difference diagram of the players' mean ranks by secret (Demšar 2006).

Drawn by :func:`scikit_posthocs.critical_difference_diagram` from the Friedman test that
writes ``mean_ranks.csv`` (:func:`~evo_mastermind.analysis.paired.friedman_by_block`), in
the figure style of :mod:`evo_mastermind.analysis.figures`: one panel per block whose three
or more players played the same secrets, each player in its colour of every other plot.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from evo_mastermind.analysis.figures import (
    NOTE_LINE_HEIGHT,
    TEXT_WIDTH,
    TITLE_HEIGHT,
    PaperFigure,
    add_note,
    chosen_players,
    paper_style,
    player_colours,
    set_title,
    wrapped_notes,
)
from evo_mastermind.analysis.paired import friedman_by_block, paired_blocks
from evo_mastermind.analysis.results import AnalysisError, Experiment, size_text
from evo_mastermind.runner.record import as_record

CD_PANEL_HEIGHT = 1.0
"""Inches of one diagram's axis and bars; each player adds :data:`CD_PLAYER_HEIGHT`."""
CD_PLAYER_HEIGHT = 0.2
"""Inches of one player's label line under the axis."""


def plot_cd(
    games: pd.DataFrame,
    experiment: Experiment,
    *,
    title: str | None = None,
    size: tuple[float, float] | None = None,
    players: Sequence[str] | None = None,
) -> PaperFigure:
    """Each paired block's mean ranks (1 = fewest guesses) on an axis, with the critical difference.

    Players joined by a bar are not told apart by the Nemenyi test; the critical difference
    is drawn above the axis. The unit is the secret mean; the note under the figure says how
    many secrets each block used and dropped.

    Args:
        games: the games table.
        experiment: its experiment record (name, players' order, ``alpha``).
        title: the title (default: the experiment's name and the game; ``""``: none).
        size: (width, height) in inches (default: the text's width).
        players: the players to rank, in this order (default: all, in the config's order).

    Raises:
        AnalysisError: no block whose three or more players played the same secrets.
    """
    from scikit_posthocs import critical_difference_diagram

    games, order, everyone = chosen_players(games, experiment, players)
    found = paired_blocks(games, experiment)
    tested = friedman_by_block(found, experiment, asked=False)
    if not tested:
        why = "; ".join(each.reason for each in found if each.reason) or "fewer than 3 players"
        raise AnalysisError(
            "a critical-difference diagram needs three or more players that played the same "
            f"secrets ({why})"
        )
    colours = player_colours(everyone)
    notes = [
        "Mean rank over the secret means (1 = fewest guesses); a bar joins players the Nemenyi "
        "test does not tell apart. "
        + "; ".join(
            f"({block[0]},{block[1]}), secrets: {block[2]}: {result.secrets} secrets used, "
            f"{design.dropped} dropped for failed games"
            for block, result, design in tested
        )
        + "."
    ]
    with paper_style():
        width = size[0] if size else TEXT_WIDTH
        panel = CD_PANEL_HEIGHT + CD_PLAYER_HEIGHT * (len(order) + 1) / 2 + TITLE_HEIGHT
        if size is None:
            size = (
                width,
                panel * len(tested)
                + TITLE_HEIGHT
                + NOTE_LINE_HEIGHT * len(wrapped_notes(notes, width)),
            )
        figure = PaperFigure(figsize=size, layout="constrained")
        axes = np.atleast_1d(figure.subplots(len(tested), 1, squeeze=False)[:, 0])
        for axis, (block, result, _design) in zip(axes, tested, strict=True):
            critical_difference_diagram(
                result.mean_ranks,
                result.nemenyi,
                cd=result.critical_difference,
                alpha=result.alpha,
                ax=axis,
                color_palette={label: colours[str(label)] for label in result.mean_ranks.index},
                label_fmt_left="{label} ({rank:.2f})",
                label_fmt_right="({rank:.2f}) {label}",
            )
            axis.set_title(
                f"({block[0]},{block[1]}), secrets: {block[2]}: "
                f"CD = {result.critical_difference:.3f} (α = {result.alpha:g})",
                pad=14,  # above the CD bar scikit-posthocs draws over the axis
            )
        set_title(figure, title, f"{as_record(experiment).name}: {size_text(games)}")
        add_note(figure, notes)
    return figure

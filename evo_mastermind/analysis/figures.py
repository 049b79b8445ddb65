"""The paper style every plot is drawn in, and the figure object the plots return.

:class:`PaperFigure` is a matplotlib figure that shows itself in Jupyter with no magic and
saves in :data:`PAPER_STYLE`: PNG at 300 dpi, vector PDF with embedded TrueType (Type 42)
fonts, which publishers accept where Type 3 is refused. The style is applied in an
``rc_context``, so the caller's other figures keep their settings. Sizes are a paper's: a
single column (3.3 in) for a few players, the text width beyond, with every text at least
as large as the ticks and legends above the axes, where they cannot hide data.
"""

from __future__ import annotations

import base64
import io
import math
import textwrap
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pandas as pd
from matplotlib import rc_context
from matplotlib.figure import Figure
from matplotlib.typing import RcKeyType

from evo_mastermind.analysis.results import AnalysisError, Experiment, label_order

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

SAVE_DPI = 300
"""Dots per inch of PNG output: a figure of w × h inches is w·SAVE_DPI × h·SAVE_DPI pixels."""
DISPLAY_DPI = 150
"""Pixels per inch of a figure shown in a notebook (rendered at twice this, for sharpness)."""

COLUMN_WIDTH = 3.3
"""Inches of one column of a two-column paper: the width of a figure of a few players."""
TEXT_WIDTH = 6.9
"""Inches of a two-column paper's full text width: figures of many players, heat maps."""
COLUMN_PLAYERS = 4
"""Figures of at most this many players fit one column."""

FONT_SIZE = 8.0
"""Points of every text (ticks, labels, legends), readable at a column's width."""
NOTE_SIZE = 7.0
"""Points of the note under a figure saying what it leaves out."""

LEGEND_ROW_HEIGHT = 0.16
"""Inches of one row of legend entries."""
TITLE_HEIGHT = 0.3
NOTE_LINE_HEIGHT = 0.14

PAPER_STYLE: dict[RcKeyType, Any] = {
    # TrueType (Type 42) fonts embedded in PDF and PostScript: publishers reject Type 3.
    "pdf.fonttype": 42,
    "ps.fonttype": 42,
    "savefig.dpi": SAVE_DPI,
    "font.size": FONT_SIZE,
    "axes.titlesize": FONT_SIZE,
    "axes.labelsize": FONT_SIZE,
    "xtick.labelsize": FONT_SIZE,
    "ytick.labelsize": FONT_SIZE,
    "legend.fontsize": FONT_SIZE,
    "legend.title_fontsize": FONT_SIZE,
    "figure.titlesize": FONT_SIZE + 1,
    "legend.frameon": False,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.linewidth": 0.6,
    "xtick.major.width": 0.6,
    "ytick.major.width": 0.6,
    "lines.linewidth": 1.2,
    "hatch.linewidth": 0.6,
    "image.cmap": "viridis",
}
"""The matplotlib settings every figure is built, drawn and saved in."""

HATCHES = ("", "////", "....", "xxxx")
LINE_STYLES = ("-", "--", ":", "-.")


class PaperFigure(Figure):
    """A figure drawn and saved in :data:`PAPER_STYLE` that shows itself in Jupyter.

    ``figure.savefig(...)`` writes 300-dpi PNG or PDF with TrueType fonts, and a notebook
    displays the figure as PNG without ``%matplotlib inline``.

    Attributes:
        notes: what the plot leaves out, one sentence each (also drawn under the figure),
            for a caption.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """A figure as :class:`matplotlib.figure.Figure` takes it, with no notes yet."""
        super().__init__(*args, **kwargs)
        self.notes: tuple[str, ...] = ()

    def savefig(self, fname: Any, *args: Any, **kwargs: Any) -> None:
        """Save as :meth:`matplotlib.figure.Figure.savefig` does, in :data:`PAPER_STYLE`."""
        with rc_context(PAPER_STYLE):
            super().savefig(fname, *args, **kwargs)

    def _repr_mimebundle_(
        self, include: Any = None, exclude: Any = None
    ) -> tuple[dict[str, str], dict[str, dict[str, int]]]:
        # IPython asks for this before its own Figure printers, so no backend magic is needed.
        buffer = io.BytesIO()
        self.savefig(buffer, format="png", dpi=2 * DISPLAY_DPI)
        width, height = (round(float(side) * DISPLAY_DPI) for side in self.get_size_inches())
        data = {"image/png": base64.b64encode(buffer.getvalue()).decode("ascii")}
        return data, {"image/png": {"width": width, "height": height}}


def player_colours(labels: Sequence[str]) -> dict[str, str]:
    """One palette colour per label, in the order given."""
    return {label: OKABE_ITO[index % len(OKABE_ITO)] for index, label in enumerate(labels)}


def cycle_styles(labels: Sequence[str], styles: Sequence[str]) -> dict[str, str]:
    """One style (hatch, line style) per label: the next style once the palette is used up."""
    return {label: styles[(i // len(OKABE_ITO)) % len(styles)] for i, label in enumerate(labels)}


@contextmanager
def paper_style() -> Iterator[None]:
    """Build a figure in :data:`PAPER_STYLE`, leaving the caller's settings as they were."""
    with rc_context(PAPER_STYLE):
        yield


def chosen_players(
    games: pd.DataFrame, experiment: Experiment, players: Sequence[str] | None
) -> tuple[pd.DataFrame, list[str], list[str]]:
    """The games of the chosen players, the chosen order, and every label (for colours).

    Raises:
        AnalysisError: a chosen player with no games here, or none chosen.
    """
    everyone = label_order(games, experiment)
    if players is None:
        return games, everyone, everyone
    chosen = list(dict.fromkeys(str(player) for player in players))
    if not chosen:
        raise AnalysisError("players names no player; leave it out to plot them all")
    unknown = [player for player in chosen if player not in everyone]
    if unknown:
        raise AnalysisError(
            f"no games of {', '.join(map(repr, unknown))} here; the players are: "
            + ", ".join(everyone)
        )
    return games[games["label"].astype(str).isin(chosen)], chosen, everyone


def set_title(figure: Figure, title: str | None, default: str) -> None:
    """The figure's title: ``default`` for None, none for ``""`` (a caption will say it)."""
    text = default if title is None else title
    if text:
        figure.suptitle(text)


def text_inches(text: str, points: float = FONT_SIZE) -> float:
    """About how wide a line of text is: DejaVu Sans averages 0.55 em a character."""
    return len(text) * 0.55 * points / 72


def legend_columns(names: Sequence[str], width: float) -> int:
    """Columns of legend entries that fit ``width`` inches (a handle and gaps each)."""
    entry = max((text_inches(name) for name in names), default=0.0) + 0.45
    return max(1, min(len(names), int(width // entry)))


def legend_rows(names: Sequence[str], width: float) -> int:
    """Rows of a legend of these entries in a figure ``width`` inches wide."""
    return math.ceil(len(names) / legend_columns(names, width)) if names else 0


def legend_above(
    axis: Any, width: float, title: str | None = None, extra: Sequence[tuple[Any, str]] = ()
) -> None:
    """The axis' legend above it, where it cannot hide data, in as many columns as fit.

    ``extra`` entries (handle, text) follow the players' (e.g. what a line style means).
    """
    handles, names = axis.get_legend_handles_labels()
    handles += [handle for handle, _ in extra]
    names += [name for _, name in extra]
    axis.legend(
        handles,
        names,
        title=title,
        loc="lower center",
        bbox_to_anchor=(0.5, 1.01),
        ncol=legend_columns(names, width),
        borderaxespad=0.2,
        columnspacing=1.0,
        handlelength=1.6,
    )


def wrapped_notes(notes: Sequence[str], width: float) -> list[str]:
    """The lines of the notes under a figure ``width`` inches wide."""
    characters = max(30, int(width * 72 / (0.55 * NOTE_SIZE)))
    return [line for note in notes for line in textwrap.wrap(note, characters)]


def add_note(figure: PaperFigure, notes: Sequence[str]) -> None:
    """Say under the figure what it leaves out, wrapped to its width; keep it for a caption."""
    figure.notes = tuple(notes)
    if notes:
        lines = wrapped_notes(notes, float(figure.get_size_inches()[0]))
        # The figure's x label slot: constrained layout keeps it under every axes and legend.
        figure.supxlabel("\n".join(lines), x=0.01, ha="left", fontsize=NOTE_SIZE, style="italic")


def width_for(players: int) -> float:
    """A column's width for a few players, the text's width for more."""
    return COLUMN_WIDTH if players <= COLUMN_PLAYERS else TEXT_WIDTH


def save_figure(figure: Figure, out: Path | str) -> Path:
    """Write a figure as PNG (300 dpi) or PDF (TrueType fonts), by the suffix of ``out``.

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
    with rc_context(PAPER_STYLE):
        figure.savefig(out, dpi=SAVE_DPI, format=kind, metadata=metadata)
    return out

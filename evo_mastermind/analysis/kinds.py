"""The kinds of plot and their command-line options, apart from the plotting code.

The command line lists the kinds and parses ``--size`` and ``--players`` without importing
matplotlib or pandas.
"""

from __future__ import annotations

import argparse
from typing import Literal, get_args

PlotKind = Literal["distribution", "cumulative", "evaluations", "heatmap", "cd"]
PLOT_KINDS: tuple[str, ...] = get_args(PlotKind)

LARGEST_INCHES = 50.0
"""A figure side beyond this is a typo (e.g. points or pixels given for inches)."""


def parse_size(text: str) -> tuple[float, float]:
    """``"W,H"`` in inches (e.g. ``3.3,2.5``) as a pair of floats.

    Raises:
        argparse.ArgumentTypeError: not two positive numbers up to :data:`LARGEST_INCHES`.
    """
    parts = text.lower().replace("x", ",").split(",")
    try:
        width, height = (float(part) for part in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"size {text!r} must be WIDTH,HEIGHT in inches, e.g. 3.3,2.5"
        ) from None
    if not (0 < width <= LARGEST_INCHES and 0 < height <= LARGEST_INCHES):
        raise argparse.ArgumentTypeError(
            f"size {text!r}: width and height must be inches above 0 and at most {LARGEST_INCHES:g}"
        )
    return width, height


def parse_players(text: str) -> tuple[str, ...]:
    """``"a,b,c"``: the players to plot, in this order.

    Raises:
        argparse.ArgumentTypeError: no player named, or one named twice.
    """
    names = tuple(name.strip() for name in text.split(","))
    if not all(names):
        raise argparse.ArgumentTypeError(
            f"players {text!r} must be labels separated by commas, none empty"
        )
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise argparse.ArgumentTypeError(f"players {text!r} names {', '.join(twice)} twice")
    return names

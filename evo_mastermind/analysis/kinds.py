"""The kinds of plot, apart from the plotting code so the command line lists them cheaply."""

from __future__ import annotations

from typing import Literal, get_args

PlotKind = Literal["distribution", "cumulative", "evaluations", "heatmap", "convergence"]
PLOT_KINDS: tuple[str, ...] = get_args(PlotKind)

"""``evo-mastermind plot``: one figure of a results directory."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from evo_mastermind.cli.common import _warn_if_incomplete


def _plot(args: argparse.Namespace) -> int:
    from evo_mastermind.analysis.plots import (
        check_plot_file,
        default_plot_path,
        results_figure,
        save_figure,
    )

    results = Path(args.results)
    out = check_plot_file(args.out or default_plot_path(results, args.kind))  # before drawing
    figure = results_figure(
        results,
        args.kind,
        pool_secrets=args.pool_secrets,
        title=args.title,
        size=args.size,
        players=args.players,
    )
    print(save_figure(figure, out))
    for note in figure.notes:  # what the figure leaves out, for its caption
        print(f"note: {note}", file=sys.stderr)
    _warn_if_incomplete(results)
    return 0

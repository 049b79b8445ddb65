"""``evo-mastermind plot``: one figure of a results directory."""

from __future__ import annotations

import argparse
from pathlib import Path

from evo_mastermind.cli.common import _warn_if_incomplete


def _plot(args: argparse.Namespace) -> int:
    from evo_mastermind.analysis import plot_results

    print(plot_results(Path(args.results), args.kind, args.out, pool_secrets=args.pool_secrets))
    _warn_if_incomplete(Path(args.results))
    return 0

"""``evo-mastermind report``: the summary, tests and published comparison of a results directory."""

from __future__ import annotations

import argparse
from pathlib import Path

from evo_mastermind.cli.common import _warn_if_incomplete


def _report(args: argparse.Namespace) -> int:
    from evo_mastermind.analysis import write_report

    compare = Path(args.compare_with) if args.compare_with else None
    print(write_report(Path(args.results), rule=args.rule, compare_with=compare))
    _warn_if_incomplete(Path(args.results))
    return 0

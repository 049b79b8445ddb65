"""``evo-mastermind export``: a results directory's games written for other tools."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from evo_mastermind.cli.common import PROG, _warn_if_incomplete


def _export(args: argparse.Namespace) -> int:
    from evo_mastermind.analysis.ioh_export import export_results

    exported = export_results(Path(args.results), Path(args.out), progress=not args.no_progress)
    print(
        f"{exported.runs:,} games ({exported.evaluations:,} guesses) of {exported.algorithms} "
        f"players on {exported.problems} game size{'s' if exported.problems != 1 else ''} "
        f"written as IOHprofiler data to {exported.out}"
    )
    left_out = exported.unplayed_line()
    if left_out:
        print(f"{PROG}: warning: {left_out}", file=sys.stderr)
    _warn_if_incomplete(Path(args.results))
    return 0

"""``evo-mastermind export``: a results directory's games written for other tools."""

from __future__ import annotations

import argparse
from pathlib import Path

from evo_mastermind.cli.common import _warn_if_incomplete


def _export(args: argparse.Namespace) -> int:
    from evo_mastermind.analysis.ioh_export import export_results

    exported = export_results(Path(args.results), Path(args.out), progress=not args.no_progress)
    print(
        f"{exported.runs:,} games ({exported.evaluations:,} guesses) of {exported.algorithms} "
        f"players on {exported.problems} game size{'s' if exported.problems != 1 else ''} "
        f"written as IOHprofiler data to {exported.out}"
    )
    _warn_if_incomplete(Path(args.results))
    return 0

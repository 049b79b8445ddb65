"""``evo-mastermind report``: the summary, tests and published comparison of a results directory."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from evo_mastermind.cli.common import UsageError, _warn_if_incomplete


def _report(args: argparse.Namespace) -> int:
    from evo_mastermind.analysis import write_report

    compare = Path(args.compare_with) if args.compare_with else None
    directories = [Path(each) for each in args.results]
    if len(directories) > 1:
        return _joint_report(args, directories, compare)
    if args.out is not None:
        raise UsageError("--out is where a joint report of several results directories goes")
    print(write_report(directories[0], rule=args.rule, compare_with=compare))
    _warn_if_incomplete(directories[0])
    return 0


def _joint_report(args: argparse.Namespace, directories: list[Path], compare: Path | None) -> int:
    """One report of several directories' games, written into a new ``--out`` directory."""
    from evo_mastermind.analysis.analysis import Analysis
    from evo_mastermind.analysis.joined import join_results, published_note
    from evo_mastermind.analysis.report import write_analysis_report

    if args.out is None:
        raise UsageError(
            "a report of several results directories needs --out DIR, a new directory to "
            "write it into (none of theirs is written)"
        )
    out = Path(args.out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise UsageError(f"--out {out} exists and is not an empty directory; give a new one")
    games, record = join_results(directories)
    note = None if compare else published_note(directories, "--compare-with FILE names another")
    analysis = Analysis.of_results(games, record, directories[0], compare)
    out.mkdir(parents=True, exist_ok=True)
    print(write_analysis_report(analysis, out, args.rule))
    if note is not None:
        print(f"note: {note}", file=sys.stderr)
    for directory in directories:
        _warn_if_incomplete(directory)
    return 0

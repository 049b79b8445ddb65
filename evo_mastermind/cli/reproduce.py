"""``evo-mastermind reproduce``: the paper's Tables 2-6 played, reported and plotted."""

from __future__ import annotations

import argparse
import signal
from pathlib import Path

from evo_mastermind.cli.common import _flag


def _reproduce(args: argparse.Namespace) -> int:
    from evo_mastermind.api import check_run_options
    from evo_mastermind.studies.reproduce import paper_tables, reproduce

    check_run_options(
        executor=args.executor,
        workers=args.workers,
        scheduler=None,
        runs=args.runs,
        resume=not args.force,
        force=args.force,
        spelling=_flag,
    )
    paper_tables(args.tables)  # an unknown table is refused before any game is played
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    reproduce(
        args.tables,
        Path(args.out),
        executor=args.executor,
        workers=args.workers,
        runs=args.runs,
        progress=not args.no_progress,
        force=args.force,
        spelling=_flag,
    )
    return 0

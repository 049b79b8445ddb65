"""``evo-mastermind run``: an experiment from its YAML config, then its report."""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path

from evo_mastermind.cli.common import EXIT_GAMES_FAILED, PROG, _flag


def _run(args: argparse.Namespace) -> int:
    from evo_mastermind.api import run

    # A polite kill (SIGTERM) unwinds like Ctrl-C, so the workers are stopped, not orphaned.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    results = run(
        args.config,
        out=args.out,
        runs=args.runs,
        executor=args.executor,
        workers=args.workers,
        scheduler=args.scheduler,
        resume=args.resume,
        force=args.force,
        progress=not args.no_progress,
        plugins=args.plugin,
        allow_large=args.allow_large,
        accept_changed_code=args.accept_changed_code,
        spelling=_flag,
        sample=args.sample,
        quiet=args.quiet,
    )
    report = results.write_report()  # written to the results directory, quiet or not
    if args.quiet:
        return _report_failed_games(results.path, results.experiment.seed)
    print(report)
    outcome = results.outcome
    assert outcome is not None
    print(
        f"{results.name}: {outcome.played} games played"
        + (f" ({outcome.already_done} already done)" if outcome.already_done else "")
        + f" in {outcome.seconds:.1f} s; results and report in {results.path}"
    )
    return _report_failed_games(results.path, results.experiment.seed)


def _report_failed_games(out: Path, seed: int) -> int:
    """The run's closing lines on failed games; the exit status that says whether any failed."""
    from evo_mastermind.analysis import load_games
    from evo_mastermind.analysis.failures import failure_lines

    lines = failure_lines(load_games(out), seed)
    for line in lines:
        print(f"{PROG}: warning: {line}", file=sys.stderr)
    return EXIT_GAMES_FAILED if lines else 0

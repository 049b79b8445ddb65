"""The ``evo-mastermind`` command.

Every expected failure (bad sizes, codes, options, files, a lying codemaker, a player whose
own code raised) ends with one line on stderr naming the problem and exit status 2. A run, or
a ``play`` game, that finished with games not solved ends with a warning line per player and
exit status 3 (:data:`EXIT_GAMES_FAILED`).
"""

from __future__ import annotations

import argparse
import gc
import signal
import sys
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

# Only what parsing the command line needs is imported here; each command imports the
# rest (players, runner, pandas, matplotlib, the compiled kernels, YAML), so --help starts at
# once and `play` loads only its player.
from evo_mastermind.analysis.kinds import PLOT_KINDS
from evo_mastermind.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_GAMES_FAILED,
    PROG,
    UsageError,
    _write_log,
)
from evo_mastermind.cli.examples import add_examples_command
from evo_mastermind.cli.play import BAD_ANSWERS_IN_A_ROW, _play
from evo_mastermind.cli.trees import _tree
from evo_mastermind.codes import InvalidGameError
from evo_mastermind.game import InconsistentResponsesError

__all__ = [
    "BAD_ANSWERS_IN_A_ROW",
    "EXIT_BAD_INPUT",
    "EXIT_GAMES_FAILED",
    "PROG",
    "UsageError",
    "console",
    "main",
]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")


class _Version(argparse.Action):
    """``--version``: the installed package's version, looked up only when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> NoReturn:
        from importlib.metadata import version

        print(f"{PROG} {version('evo_mastermind')}")
        parser.exit()


def _add_plugin_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--plugin",
        action="append",
        default=[],
        metavar="MODULE",
        help="import MODULE first: it registers players or heuristics of your own (repeatable)",
    )


def _add_game_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pegs", type=int, default=4, help="code length (default 4)")
    parser.add_argument("--colors", type=int, default=6, help="number of colours (default 6)")
    parser.add_argument(
        "--player", default="entropy", help="registered player name (default entropy)"
    )
    parser.add_argument(
        "--preset", help="start from one of the player's named settings (see 'players')"
    )
    parser.add_argument(
        "-o",
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a player option, e.g. -o ties=lexicographic -o mu=20 (repeatable)",
    )
    _add_plugin_argument(parser)


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Mastermind code-breaking experiments.")
    parser.add_argument("--version", action=_Version, help="print the version and exit")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    play = commands.add_parser("play", help="play one game and show every guess")
    _add_game_arguments(play)
    play.add_argument("--secret", help="the secret code, e.g. ABBC (default: drawn from the seed)")
    play.add_argument(
        "--interactive",
        action="store_true",
        help="you are the codemaker: answer each guess with 'black white' on stdin",
    )
    play.add_argument("--seed", type=int, default=0, help="root seed (default 0)")
    play.add_argument("--guess-limit", type=int, default=None, help="stop after this many guesses")
    play.add_argument("--json", action="store_true", help="print the game as one JSON object")
    play.set_defaults(handler=_play)

    tree = commands.add_parser("tree", help="build a deterministic player's decision tree")
    _add_game_arguments(tree)
    tree.set_defaults(player="knuth")
    tree.add_argument(
        "--out",
        required=True,
        help="file to write (JSON, or DOT with --format dot; --first-guess all: a directory)",
    )
    tree.add_argument(
        "--format",
        choices=["json", "dot"],
        default="json",
        help="json (default: the tree the 'tree' player replays) or dot (GraphViz text, to draw "
        "with e.g. 'dot -Tsvg')",
    )
    tree.add_argument(
        "--depth",
        type=int,
        metavar="N",
        help="with --format dot: draw the first N guesses only, each deeper subtree as one node",
    )
    tree.add_argument(
        "--executor",
        choices=["serial", "process", "dask"],
        help="the optimal player only: where the subtrees under the opening are searched "
        "(default: this process; the tree is the same wherever they run)",
    )
    tree.add_argument("--workers", type=int, help="worker processes (default: every core)")
    tree.add_argument(
        "--scheduler", help="Dask scheduler address (default: an in-process LocalCluster)"
    )
    tree.add_argument(
        "--first-guess",
        metavar="CODE|all",
        help="the opening; 'all': one tree per distinct opening (up to colour and position "
        "symmetry), written to the --out directory, and a table of their totals",
    )
    tree.add_argument("--no-progress", action="store_true", help="no progress bar")
    tree.set_defaults(handler=_tree)

    run = commands.add_parser("run", help="run an experiment from a YAML config")
    run.add_argument(
        "config", help="the experiment's YAML file, or a shipped study's name (e.g. paper/table2)"
    )
    run.add_argument("--out", help="results directory (default results/<name>/)")
    run.add_argument("--runs", type=int, help="override the config's number of runs")
    run.add_argument(
        "--sample",
        type=int,
        metavar="N",
        help="replace the config's secrets with a uniform sample of N per game size "
        "(a quick look at a long study: run paper/table2 --sample 100)",
    )
    _add_executor_arguments(run)
    run.add_argument(
        "--scheduler", help="Dask scheduler address (default: an in-process LocalCluster)"
    )
    run.add_argument("--resume", action="store_true", help="play only the games still missing")
    run.add_argument(
        "--accept-changed-code",
        action="store_true",
        help="with --resume: add games although the stored ones were played by another version "
        "of evo-mastermind or of a plugin (the record and report list both)",
    )
    run.add_argument(
        "--force",
        action="store_true",
        help="replace results already in --out (only files evo-mastermind wrote there)",
    )
    run.add_argument(
        "--allow-large",
        action="store_true",
        help="run plans above the limits (1,000 entries, 10 million games, the machine's memory)",
    )
    run.add_argument("--no-progress", action="store_true", help="no progress bar")
    run.add_argument(
        "--quiet",
        action="store_true",
        help="print nothing but errors and warnings: no progress bar, notices, report or summary",
    )
    _add_plugin_argument(run)
    run.set_defaults(handler=_run)

    report = commands.add_parser(
        "report", help="summary, rank-sum tests and the published comparison of a results dir"
    )
    report.add_argument("results", help="a results directory written by 'run'")
    report.add_argument(
        "--rule",
        choices=["clique", "chain"],
        default="clique",
        help="where group separators go: a new group at the first row that differs from any "
        "row of the current group (clique, default) or from the row above (chain)",
    )
    report.add_argument(
        "--compare-with",
        metavar="CSV",
        help="a published table to compare with, instead of the config's compare_with",
    )
    report.set_defaults(handler=_report)

    plot = commands.add_parser("plot", help="plot a results directory (PNG or PDF)")
    plot.add_argument("results", help="a results directory written by 'run'")
    plot.add_argument(
        "--kind",
        choices=list(PLOT_KINDS),
        default="distribution",
        help="distribution (default), cumulative, evaluations or heatmap",
    )
    plot.add_argument("--out", help="image file, .png or .pdf (default DIR/plots/KIND.png)")
    plot.add_argument(
        "--pool-secrets",
        action="store_true",
        help="treat every secret source as one (one heat-map row per player)",
    )
    plot.set_defaults(handler=_plot)

    export = commands.add_parser(
        "export", help="write a results directory's games for other tools (IOHprofiler)"
    )
    export.add_argument("results", help="a results directory written by 'run'")
    export.add_argument(
        "--format",
        choices=["ioh"],
        required=True,
        help="ioh: IOHprofiler data (IOHanalyzer, iohinspector), written by the ioh package",
    )
    export.add_argument("--out", required=True, help="a new (or empty) directory to write")
    export.add_argument("--no-progress", action="store_true", help="no progress bar")
    export.set_defaults(handler=_export)

    _add_study_commands(commands)
    add_examples_command(commands, _Parser)

    players = commands.add_parser(
        "players", help="list the registered players, their options and presets"
    )
    _add_plugin_argument(players)
    players.set_defaults(handler=_players)
    return parser


def _add_executor_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--executor",
        choices=["serial", "process", "dask"],
        default="process",
        help="where games run: this process, a local process pool (default), or Dask",
    )
    parser.add_argument("--workers", type=int, help="worker processes (default: every core)")


def _add_study_commands(commands: Any) -> None:
    studies = commands.add_parser(
        "studies",
        help="list the shipped studies and published tables, show one, or copy one to start from",
        description="Without an action: list every shipped study (run one by its name, e.g. "
        "'run paper/table2') and published table (a config's compare_with). 'studies show NAME' "
        "prints one; 'studies copy NAME [DEST] [--force]' copies it to edit as your own.",
    )
    actions = studies.add_subparsers(dest="action", parser_class=_Parser)
    show = actions.add_parser("show", help="print a study's config (or a published table)")
    show.add_argument("name", help="e.g. paper/table2, or published/<table>.csv")
    copy = actions.add_parser("copy", help="copy a study's config to edit as your own")
    copy.add_argument("name", help="e.g. paper/table2, or published/<table>.csv")
    copy.add_argument("destination", nargs="?", help="file or folder (default: the current folder)")
    copy.add_argument("--force", action="store_true", help="replace a file already there")
    studies.set_defaults(handler=_studies, action=None)

    reproduce = commands.add_parser(
        "reproduce",
        help="play, report and plot the paper's Tables 2-6 with verdicts against the published",
    )
    reproduce.add_argument(
        "tables", nargs="*", metavar="TABLE", help="table2 ... table6 (default: every table)"
    )
    reproduce.add_argument(
        "--out",
        default=str(Path("results") / "paper"),
        help="folder of the tables' results, one folder per table (default results/paper); "
        "games already there are kept and only the missing ones played",
    )
    _add_executor_arguments(reproduce)
    reproduce.add_argument(
        "--runs", type=int, help="fewer runs than the paper's 10, for a quick look"
    )
    reproduce.add_argument("--no-progress", action="store_true", help="no progress bar")
    reproduce.set_defaults(handler=_reproduce)


def _flag(name: str) -> str:
    return f"--{name.replace('_', '-')}"


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
    report = results.write_report()
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


def _reproduce(args: argparse.Namespace) -> int:
    from evo_mastermind.api import check_run_options
    from evo_mastermind.studies.reproduce import paper_tables, reproduce

    check_run_options(
        executor=args.executor,
        workers=args.workers,
        scheduler=None,
        runs=args.runs,
        resume=True,
        force=False,
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
    )
    return 0


def _studies(args: argparse.Namespace) -> int:
    from evo_mastermind import studies

    if args.action == "copy":
        copied = studies.copy_study(args.name, args.destination, force=args.force)
        hint = f"; run it with: {PROG} run {copied}" if copied.suffix == ".yaml" else ""
        print(f"copied {args.name} to {copied}{hint}")
        return 0
    if args.action == "show":
        print(studies.shipped_file(args.name).read_text(encoding="utf-8"), end="")
        return 0
    for study in studies.studies():
        compared = f" [compared with {study.compare_with}]" if study.compare_with else ""
        print(f"{study.name:<28} {study.description}{compared}")
    print()
    print("published tables (compare_with):")
    for name in studies.published_names():
        print(f"  {name}")
    print()
    print(f"'{PROG} run NAME' runs a study; '{PROG} studies copy NAME' copies it to edit.")
    return 0


def _report_failed_games(out: Path, seed: int) -> int:
    """The run's closing lines on failed games; the exit status that says whether any failed."""
    from evo_mastermind.analysis import load_games
    from evo_mastermind.analysis.failures import failure_lines

    lines = failure_lines(load_games(out), seed)
    for line in lines:
        print(f"{PROG}: warning: {line}", file=sys.stderr)
    return EXIT_GAMES_FAILED if lines else 0


def _warn_if_incomplete(results: Path) -> None:
    from evo_mastermind.analysis.results import missing_games

    missing = missing_games(results)
    if missing and missing > 0:
        print(
            f"{PROG}: warning: {missing:,} planned games are missing from {results} (an "
            "unfinished run: rerun it with --resume); the analysis covers the games present",
            file=sys.stderr,
        )
    elif missing:
        print(
            f"{PROG}: warning: {results} stores {-missing:,} more games than planned (shards "
            "written by two runs at once?); rerun the config with --resume to set repeating "
            "shards aside",
            file=sys.stderr,
        )


def _report(args: argparse.Namespace) -> int:
    from evo_mastermind.analysis import write_report

    compare = Path(args.compare_with) if args.compare_with else None
    print(write_report(Path(args.results), rule=args.rule, compare_with=compare))
    _warn_if_incomplete(Path(args.results))
    return 0


def _plot(args: argparse.Namespace) -> int:
    from evo_mastermind.analysis import plot_results

    print(plot_results(Path(args.results), args.kind, args.out, pool_secrets=args.pool_secrets))
    _warn_if_incomplete(Path(args.results))
    return 0


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


def _players(args: argparse.Namespace) -> int:
    from evo_mastermind.players import PLAYERS, load_entry_points, presets_of

    load_entry_points()  # installed packages' players are listed too
    for name in sorted(PLAYERS):
        cls = PLAYERS[name]
        summary = ((cls.__doc__ or "").strip().splitlines() or ["(no description)"])[0]
        origin = "" if cls.__module__.startswith("evo_mastermind.") else f" [{cls.__module__}]"
        print(f"{name:<18} {summary}{origin}")
        for option, spec in cls.Params.model_fields.items():
            default = "required" if spec.is_required() else f"default {spec.default!r}"
            about = f": {' '.join(spec.description.split())}" if spec.description else ""
            print(f"{'':<4}{option} ({default}){about}")
        for preset, settings in presets_of(name).items():
            written = ", ".join(f"{key}={value}" for key, value in settings.options.items())
            print(f"{'':<4}preset {preset} ({written}): {settings.about or 'named settings'}")
    _print_heuristics()
    return 0


def _print_heuristics() -> None:
    """The registered heuristics, after the players that take them (``heuristic: NAME``)."""
    from evo_mastermind.heuristics import registered_heuristics

    print("\nheuristics (one_ply and archive: heuristic NAME):")
    for name, entry in sorted(registered_heuristics().items()):
        module = entry.score.__module__
        origin = "" if module.startswith("evo_mastermind.") else f" [{module}]"
        speed = "compiled" if entry.compiled else "numpy on compiled counts"
        print(f"{name:<18} {entry.about or '(no description)'} ({speed}){origin}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _build_parser()
    command: str | None = None
    try:
        args = parser.parse_args(argv)
        command = args.command
        if getattr(args, "plugin", None):
            from evo_mastermind.players import import_plugins

            import_plugins(args.plugin)
        handler: Callable[[argparse.Namespace], int] = args.handler
        return handler(args)
    except (UsageError, InvalidGameError, InconsistentResponsesError) as error:
        logged = getattr(error, "traceback_text", None)
        log = _write_log(logged) if logged else None
        where = f"; full traceback in {log}" if log else ""
        print(f"{PROG}: error: {error}{where}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # output piped into a pager or `head` that stopped reading
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        _quiet_shutdown()
        kept = "; finished games are kept (rerun with --resume)" if command == "run" else ""
        print(f"{PROG}: interrupted{kept}", file=sys.stderr)
        return 130
    except RuntimeError as error:
        if not _broken_pool(error):
            raise
        print(
            f"{PROG}: error: a worker process died (killed, or out of memory); finished games "
            "are kept: rerun with --resume",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    except MemoryError:
        print(f"{PROG}: error: out of memory; finished games are kept", file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as error:
        where = f"{error.filename}: " if error.filename else ""
        print(
            f"{PROG}: error: {where}{error.strerror or error}; nothing already written is lost "
            "(a run resumes with --resume once the cause is fixed)",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT


def _broken_pool(error: BaseException) -> bool:
    """Whether ``error`` says a worker process of a pool died."""
    # Only a run imports the process pool; `play` does not pay for importing it.
    pool = sys.modules.get("concurrent.futures.process")
    return pool is not None and isinstance(error, pool.BrokenProcessPool)


def _quiet_shutdown() -> None:
    """After an interrupt, no warnings from workers being stopped reach the screen."""
    import logging

    logging.disable(logging.CRITICAL)
    warnings.simplefilter("ignore")


def console() -> int:
    """The ``evo-mastermind`` command: :func:`main`, then an exit without a last sweep.

    What is still alive is frozen out of the collector before the interpreter shuts down,
    whose final collections would otherwise walk the compiler's objects (a quarter of a
    second once the kernels are loaded). Not in :func:`main`, which tests call in process.
    """
    status = main()
    gc.freeze()
    return status


if __name__ == "__main__":
    sys.exit(console())

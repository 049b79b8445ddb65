"""The ``evo-mastermind`` command: its parser and :func:`main`; each command in a module of its own.

Every expected failure (bad sizes, codes, options, files, a lying codemaker, a player whose
own code raised) ends with one line on stderr naming the problem and exit status 2. A run, or
a ``play`` game, that finished with games not solved ends with a warning line per player and
exit status 3 (:data:`EXIT_GAMES_FAILED`).
"""

from __future__ import annotations

import argparse
import gc
import sys
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

# Only what parsing the command line needs is imported here; each command imports the
# rest (players, runner, pandas, matplotlib, the compiled kernels, YAML), so --help starts at
# once and `play` loads only its player.
from evo_mastermind.analysis.kinds import PLOT_KINDS, parse_players, parse_size
from evo_mastermind.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_GAMES_FAILED,
    PROG,
    UsageError,
    _write_log,
    given_path,
)
from evo_mastermind.cli.examples import add_examples_command
from evo_mastermind.cli.export import _export
from evo_mastermind.cli.play import BAD_ANSWERS_IN_A_ROW, _play
from evo_mastermind.cli.players import _players
from evo_mastermind.cli.plot import _plot
from evo_mastermind.cli.report import _report
from evo_mastermind.cli.reproduce import _reproduce
from evo_mastermind.cli.run import _run
from evo_mastermind.cli.studies import _studies
from evo_mastermind.cli.trees import _tree
from evo_mastermind.codes import InvalidGameError
from evo_mastermind.execution import EXECUTOR_NAMES
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
        help="file to write (JSON, or DOT with --format dot; --first-guess all: a directory, "
        "empty or new unless --force)",
    )
    tree.add_argument(
        "--summary",
        metavar="FILE",
        help="instead of building: say what a saved tree is (player, game, totals, and whether "
        "it is an interrupted search's best tree rather than the optimum)",
    )
    tree.add_argument(
        "--force",
        action="store_true",
        help="--first-guess all: write into a directory that already holds files",
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
        choices=EXECUTOR_NAMES,
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
    report.add_argument(
        "results",
        nargs="+",
        help="a results directory written by 'run'; several are joined into one analysis "
        "(same game sizes and secrets), written into --out",
    )
    report.add_argument(
        "--out",
        metavar="DIR",
        help="a new directory for the joint report of several results directories",
    )
    report.add_argument(
        "--rule",
        choices=["clique", "chain"],
        default="clique",
        help="where group separators go: a new group at the first row that differs from any "
        "row of the current group (clique, default) or from the row above (chain)",
    )
    report.add_argument(
        "--compare-with",
        type=given_path,
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
    plot.add_argument(
        "--out", type=given_path, help="image file, .png or .pdf (default DIR/plots/KIND.png)"
    )
    plot.add_argument(
        "--pool-secrets",
        action="store_true",
        help="treat every secret source as one (one heat-map row per player)",
    )
    plot.add_argument(
        "--title", help="the figure's title (default: the experiment and game; '' for none)"
    )
    plot.add_argument(
        "--size",
        type=parse_size,
        metavar="W,H",
        help="width and height in inches, e.g. 3.3,2.5 (default: a paper's column, or its "
        "text width for more than four players)",
    )
    plot.add_argument(
        "--players",
        type=parse_players,
        metavar="A,B,...",
        help="the players to show, in this order, by label (default: all, in config order)",
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
    export.add_argument(
        "--out", type=given_path, required=True, help="a new (or empty) directory to write"
    )
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
        choices=EXECUTOR_NAMES,
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
        type=given_path,
        default=str(Path("results") / "paper"),
        help="folder of the tables' results, one folder per table (default results/paper); "
        "games already there are kept and only the missing ones played",
    )
    _add_executor_arguments(reproduce)
    reproduce.add_argument(
        "--runs", type=int, help="fewer runs than the paper's 10, for a quick look"
    )
    reproduce.add_argument(
        "--force",
        action="store_true",
        help="replace the tables' results already in --out instead of finishing them",
    )
    reproduce.add_argument("--no-progress", action="store_true", help="no progress bar")
    reproduce.set_defaults(handler=_reproduce)


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
        # Only a run's games outlive the error: other commands have nothing to resume.
        kept = (
            "; nothing already written is lost (a run resumes with --resume once the cause "
            "is fixed)"
            if command in ("run", "reproduce")
            else ""
        )
        print(f"{PROG}: error: {where}{error.strerror or error}{kept}", file=sys.stderr)
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


YOUNG_COLLECTION_THRESHOLD = 20_000
"""Allocations between two collections of the youngest objects (Python's default: 700).

A command starts by making a few hundred thousand objects that live as long as it does
(modules, the compiler's types); at the default the collector walks them over and over
(0.07 s of the 0.9 s of a (4,6) optimum, 0.035 s at this threshold).
"""


def console() -> int:
    """The ``evo-mastermind`` command: :func:`main`, then an exit without a last sweep.

    The collector runs less often while the command loads (:data:`YOUNG_COLLECTION_THRESHOLD`).
    What is still alive is frozen out of the collector before the interpreter shuts down,
    whose final collections would otherwise walk the compiler's objects (a quarter of a
    second once the kernels are loaded). Not in :func:`main`, which tests call in process.
    """
    gc.set_threshold(YOUNG_COLLECTION_THRESHOLD, *gc.get_threshold()[1:])
    status = main()
    gc.freeze()
    return status


if __name__ == "__main__":
    sys.exit(console())

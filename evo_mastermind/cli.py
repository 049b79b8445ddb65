"""The ``evo-mastermind`` command.

Every expected failure (bad sizes, codes, options, files, a lying codemaker) ends with one
line on stderr naming the problem and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import yaml

# Only what parsing the command line needs is imported here; each command imports the
# rest (players, runner, pandas, matplotlib, the compiled kernels), so --help starts at once.
from evo_mastermind.analysis.kinds import PLOT_KINDS
from evo_mastermind.codes import CodeSpace, InvalidGameError
from evo_mastermind.game import Codemaker, GameResult, InconsistentResponsesError, play_game
from evo_mastermind.scoring import Response
from evo_mastermind.seeding import game_rng, stream_rng

if TYPE_CHECKING:
    from evo_mastermind.players import Player

PROG = "evo-mastermind"
EXIT_BAD_INPUT = 2


class UsageError(Exception):
    """A problem with the command line or its inputs, reported as one line."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")


def _player_options(pairs: Sequence[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"option {pair!r} is not KEY=VALUE")
        options[key.strip()] = yaml.safe_load(value) if value.strip() else None
    return options


def _add_game_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pegs", type=int, default=4, help="code length (default 4)")
    parser.add_argument("--colors", type=int, default=6, help="number of colours (default 6)")
    parser.add_argument(
        "--player", default="entropy", help="registered player name (default entropy)"
    )
    parser.add_argument(
        "-o",
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a player option, e.g. -o ties=lexicographic -o mu=20 (repeatable)",
    )


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Mastermind code-breaking experiments.")
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
    tree.add_argument("--out", required=True, help="JSON file to write")
    tree.set_defaults(handler=_tree)

    run = commands.add_parser("run", help="run an experiment from a YAML config")
    run.add_argument("config", help="the experiment's YAML file")
    run.add_argument("--out", help="results directory (default results/<name>/)")
    run.add_argument("--runs", type=int, help="override the config's number of runs")
    run.add_argument(
        "--executor",
        choices=["serial", "process", "dask"],
        default="process",
        help="where games run: this process, a local process pool (default), or Dask",
    )
    run.add_argument("--workers", type=int, help="worker processes (default: every core)")
    run.add_argument(
        "--scheduler", help="Dask scheduler address (default: an in-process LocalCluster)"
    )
    run.add_argument("--resume", action="store_true", help="play only the games still missing")
    run.add_argument("--force", action="store_true", help="replace results already in --out")
    run.add_argument("--no-progress", action="store_true", help="no progress bar")
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

    players = commands.add_parser("players", help="list the registered players and their options")
    players.set_defaults(handler=_players)
    return parser


def _make(args: argparse.Namespace) -> tuple[CodeSpace, Player]:
    from evo_mastermind.players import make_player

    space = CodeSpace(args.pegs, args.colors)
    return space, make_player(args.player, space, _player_options(args.option))


def _play(args: argparse.Namespace) -> int:
    space, player = _make(args)
    if args.interactive:
        return _play_interactive(space, player, args)
    if args.secret is not None:
        secret = space.format(space.parse(args.secret))
    else:
        secret = space.format(space.sample(stream_rng(args.seed, "play secret"), 1)[0])
    rng = game_rng(args.seed, args.player, 0, secret, space.colors)
    result = play_game(player, Codemaker(space, secret), rng, guess_limit=args.guess_limit)
    _print_game(result, args.json)
    return 0


def _print_game(result: GameResult, as_json: bool) -> None:
    if as_json:
        print(
            json.dumps(
                {
                    "secret": result.secret,
                    "guesses": [
                        {"guess": m.guess, "black": m.black, "white": m.white} for m in result.moves
                    ],
                    "solved": result.solved,
                }
            )
        )
        return
    width = len(str(len(result.moves)))
    for number, move in enumerate(result.moves, start=1):
        print(f"{number:>{width}}. {move.guess}  {move.black} black, {move.white} white")
    verdict = "solved" if result.solved else f"not solved ({result.outcome.replace('_', ' ')})"
    print(f"secret {result.secret}: {verdict} in {result.n_guesses} guesses")


def _play_interactive(space: CodeSpace, player: Player, args: argparse.Namespace) -> int:
    rng = game_rng(args.seed, args.player, 0, "interactive", space.colors)
    player.start(rng)
    for number in range(1, (args.guess_limit or 10**9) + 1):
        guess = player.ask()
        print(f"{number}. {space.format(guess)}  black white? ", end="", flush=True)
        line = sys.stdin.readline()
        if not line:
            raise UsageError("no answer: standard input ended")
        response = _read_response(line, space)
        if response.black == space.pegs:
            print(f"solved in {number} guesses")
            return 0
        player.tell(guess, response)
    print(f"not solved within {args.guess_limit} guesses")
    return 0


def _read_response(line: str, space: CodeSpace) -> Response:
    parts = line.replace(",", " ").split()
    if len(parts) != 2 or not all(part.isdigit() for part in parts):
        raise UsageError(f"answer {line.strip()!r} is not two numbers 'black white'")
    black, white = int(parts[0]), int(parts[1])
    if black + white > space.pegs or (black == space.pegs - 1 and white == 1):
        raise UsageError(
            f"answer {black} black, {white} white is impossible with {space.pegs} pegs"
        )
    return Response(black, white)


def _tree(args: argparse.Namespace) -> int:
    from evo_mastermind.players.tree import build_tree

    _, player = _make(args)
    tree = build_tree(player, _player_options(args.option))
    tree.save(args.out)
    counts = tree.guess_counts()
    print(
        f"{args.player} on {player.space}: {int(counts.sum())} guesses over {counts.size} secrets "
        f"(mean {counts.mean():.4f}, max {int(counts.max())}); written to {args.out}"
    )
    return 0


def _run(args: argparse.Namespace) -> int:
    from evo_mastermind.analysis import write_report
    from evo_mastermind.runner import load_config, make_executor, run_experiment

    if args.resume and args.force:
        raise UsageError("--resume and --force contradict each other; choose one")
    if args.workers is not None and args.workers < 1:
        raise UsageError(f"--workers must be at least 1, got {args.workers}")
    if args.runs is not None and args.runs < 1:
        raise UsageError(f"--runs must be at least 1, got {args.runs}")
    config_path = Path(args.config)
    config = load_config(config_path, runs=args.runs)
    out = Path(args.out) if args.out else Path("results") / config.name
    # A polite kill (SIGTERM) unwinds like Ctrl-C, so the workers are stopped, not orphaned.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    with make_executor(args.executor, args.workers, args.scheduler) as executor:
        outcome = run_experiment(
            config,
            config_path,
            out,
            executor,
            resume=args.resume,
            force=args.force,
            progress=not args.no_progress,
        )
    print(write_report(out))
    print(
        f"{config.name}: {outcome.played} games played"
        + (f" ({outcome.already_done} already done)" if outcome.already_done else "")
        + f" in {outcome.seconds:.1f} s; results and report in {out}"
    )
    return 0


def _report(args: argparse.Namespace) -> int:
    from evo_mastermind.analysis import write_report

    print(write_report(Path(args.results), rule=args.rule))
    return 0


def _plot(args: argparse.Namespace) -> int:
    from evo_mastermind.analysis import plot_results

    print(plot_results(Path(args.results), args.kind, args.out, pool_secrets=args.pool_secrets))
    return 0


def _players(args: argparse.Namespace) -> int:
    from evo_mastermind.players import PLAYERS

    for name in sorted(PLAYERS):
        cls = PLAYERS[name]
        summary = (cls.__doc__ or "").strip().splitlines()[0]
        print(f"{name:<18} {summary}")
        for option, spec in cls.Params.model_fields.items():
            default = "required" if spec.is_required() else f"default {spec.default!r}"
            about = f": {' '.join(spec.description.split())}" if spec.description else ""
            print(f"{'':<4}{option} ({default}){about}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _build_parser()
    try:
        args = parser.parse_args(argv)
        handler: Callable[[argparse.Namespace], int] = args.handler
        return handler(args)
    except (UsageError, InvalidGameError, InconsistentResponsesError) as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # output piped into a pager or `head` that stopped reading
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        print(
            f"{PROG}: interrupted; finished games are kept (rerun with --resume)", file=sys.stderr
        )
        return 130


if __name__ == "__main__":
    sys.exit(main())

"""``evo-mastermind tree``.

A deterministic player's whole decision tree (JSON or GraphViz), on the executors for the
optimal player, or one tree per distinct opening.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evo_mastermind.cli.common import PROG, UsageError, _options

# Only what parsing the command line needs is imported here; each command imports the
# rest (players, runner, pandas, matplotlib, the compiled kernels, YAML), so --help starts at
# once and `play` loads only its player.
from evo_mastermind.codes import CodeSpace

if TYPE_CHECKING:
    pass


def _tree(args: argparse.Namespace) -> int:
    if Path(args.out).is_dir():
        raise UsageError(f"--out {args.out} is a directory; give the file to write")
    if args.depth is not None and args.format != "dot":
        raise UsageError("--depth limits a drawing: it needs --format dot")
    if args.depth is not None and args.depth < 1:
        raise UsageError(f"--depth must be at least 1, got {args.depth}")
    from evo_mastermind.players import make_player
    from evo_mastermind.players.tree import build_tree

    if args.first_guess is not None and args.first_guess.strip().lower() == "all":
        if args.format != "json":
            raise UsageError("--first-guess all writes JSON trees; leave out --format")
        return _tree_every_opening(args)
    space = CodeSpace(args.pegs, args.colors)
    options = _options(args)
    if args.first_guess is not None:
        options["first_guess"] = args.first_guess
    player = make_player(args.player, space, options)
    if args.executor is None:
        _announce_cost(args.player, space, options, 1)
        tree = build_tree(player, options, progress=not args.no_progress)
    else:
        from evo_mastermind.runner import make_executor

        if not hasattr(player, "executor"):
            raise UsageError(f"--executor: player {args.player!r} builds its tree here only")
        if args.scheduler is not None and args.executor != "dask":
            raise UsageError(f"--scheduler needs --executor dask, not {args.executor}")
        if args.workers is not None and args.workers < 1:
            raise UsageError(f"--workers must be at least 1, got {args.workers}")
        with make_executor(args.executor, args.workers, args.scheduler) as executor:
            player.executor = executor
            tree = build_tree(player, options, progress=not args.no_progress)
    if args.format == "dot":
        from evo_mastermind.players.tree_dot import tree_to_dot

        Path(args.out).write_text(tree_to_dot(tree, args.depth))
    else:
        tree.save(args.out)
    counts = tree.guess_counts()
    print(
        f"{args.player} on {player.space}: {int(counts.sum())} guesses over {counts.size} secrets "
        f"(mean {counts.mean():.4f}, max {int(counts.max())}); written to {args.out}"
    )
    return 0


def _tree_every_opening(args: argparse.Namespace) -> int:
    from evo_mastermind.players.openings import every_opening

    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"--first-guess all writes one tree per opening: --out {out} is a file")
    space = CodeSpace(args.pegs, args.colors)
    from evo_mastermind.players.openings import distinct_openings

    _announce_cost(args.player, space, _options(args), len(distinct_openings(space)))
    rows = []
    print(f"{args.player} on {space}, every distinct opening:")
    print(f"{'opening':<{max(7, space.pegs)}}  {'total':>7}  {'mean':>7}  {'max':>3}")
    for found in every_opening(args.player, space, _options(args), not args.no_progress):
        out.mkdir(parents=True, exist_ok=True)
        found.tree.save(out / f"{found.opening}.json")
        rows.append(found)
        print(
            f"{found.opening:<{max(7, space.pegs)}}  {found.total:>7}  {found.mean:>7.4f}  "
            f"{found.depth:>3}",
            flush=True,
        )
    best = min(rows, key=lambda row: (row.total, row.depth, row.opening))
    print(f"best opening {best.opening} ({best.total} guesses); trees written to {out}/")
    return 0


def _announce_cost(player: str, space: CodeSpace, options: dict[str, Any], trees: int) -> None:
    """One line on stderr before building trees estimated to take more than a minute."""
    import numba

    from evo_mastermind.players import known_player, validate_params
    from evo_mastermind.players.cost import tree_announcement

    game = known_player(player).estimate(validate_params(player, options), space)
    line = tree_announcement(game, f"{player} on {space}", trees, numba.get_num_threads())
    if line is not None:
        print(f"{PROG}: {line}", file=sys.stderr, flush=True)

"""``evo-mastermind tree``.

A deterministic player's whole decision tree (JSON or GraphViz), on the executors for a
player that can use them (the optimal one), or one tree per distinct opening; or, with
``--summary``, what a saved tree is. Every output place is checked writable before the
work starts. A search interrupted with Ctrl-C writes the best tree found so far, marked as
such in the file, says so in its last line and exits 130.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evo_mastermind.cli.common import PROG, UsageError, _options

# Only what parsing the command line needs is imported here; each command imports the
# rest (players, runner, pandas, matplotlib, the compiled kernels, YAML), so --help starts at
# once and `play` loads only its player.
from evo_mastermind.codes import CodeSpace

if TYPE_CHECKING:
    from evo_mastermind.players.decision_tree import DecisionTree

EXIT_INTERRUPTED = 130
"""Ctrl-C: the shell's status for SIGINT, whatever was kept."""


def _tree(args: argparse.Namespace) -> int:
    if args.summary is not None:
        return _summary(args)
    if args.out is None:
        raise UsageError("tree needs --out FILE to write (or --summary FILE to read one)")
    if args.depth is not None and args.format != "dot":
        raise UsageError("--depth limits a drawing: it needs --format dot")
    if args.depth is not None and args.depth < 1:
        raise UsageError(f"--depth must be at least 1, got {args.depth}")
    options = _options(args)
    every = args.first_guess is not None and args.first_guess.strip().lower() == "all"
    _check_first_guess(args.first_guess, options)
    if every:
        if args.format != "json":
            raise UsageError("--first-guess all writes JSON trees; leave out --format")
        return _tree_every_opening(args, options)
    if Path(args.out).is_dir():
        raise UsageError(f"--out {args.out} is a directory; give the file to write")
    _check_writable_file(Path(args.out))
    from evo_mastermind.players import make_player
    from evo_mastermind.players.tree_building import build_tree

    space = CodeSpace(args.pegs, args.colors)
    if args.first_guess is not None:
        options["first_guess"] = args.first_guess
    player = make_player(args.player, space, options)
    _announce_cost(args.player, space, options, 1)
    if args.executor is None:
        tree = build_tree(player, options, progress=not args.no_progress)
    else:
        if not player.tree_on_executor:
            raise UsageError(f"--executor: player {args.player!r} builds its tree here only")
        if args.scheduler is not None and args.executor != "dask":
            raise UsageError(f"--scheduler needs --executor dask, not {args.executor}")
        if args.workers is not None and args.workers < 1:
            raise UsageError(f"--workers must be at least 1, got {args.workers}")
        from evo_mastermind.execution import make_executor
        from evo_mastermind.optimal.opening_search import WORKER_MODULES

        with make_executor(args.executor, args.workers, args.scheduler, WORKER_MODULES) as pool:
            tree = build_tree(player, options, progress=not args.no_progress, executor=pool)
    if args.format == "dot":
        from evo_mastermind.players.tree_dot import tree_to_dot

        Path(args.out).write_text(tree_to_dot(tree, args.depth))
    else:
        tree.save(args.out)
    print(f"{tree.describe()}; written to {args.out}")
    return _said_if_partial(tree, args.out)


def _said_if_partial(tree: DecisionTree, where: str) -> int:
    """0; or, for a tree an interrupted search kept, a last line saying so and 130."""
    if not tree.partial:
        return 0
    assert tree.bound is not None
    total = int(tree.guess_counts().sum())
    if total <= tree.bound.lower_bound:
        what = "a tree of the optimal total, but perhaps not the shallowest such tree"
    else:
        what = (
            f"the best tree found so far ({total} guesses), NOT the optimum, which is at least "
            f"{tree.bound.lower_bound} (gap at most {total - tree.bound.lower_bound})"
        )
    print(f"{PROG}: interrupted: {where} holds {what}", file=sys.stderr)
    return EXIT_INTERRUPTED


def _summary(args: argparse.Namespace) -> int:
    from evo_mastermind.players.decision_tree import DecisionTree

    if args.out is not None:
        raise UsageError("--summary reads a saved tree: leave out --out")
    tree = DecisionTree.load(args.summary)
    print(tree.describe())
    return 0


def _check_first_guess(given: str | None, options: dict[str, Any]) -> None:
    """Refuse two different openings (``--first-guess`` and ``-o first_guess=``)."""
    option = options.get("first_guess")
    if given is None or option is None:
        return
    if str(option).strip().upper() != given.strip().upper():
        raise UsageError(
            f"--first-guess {given} and -o first_guess={option} name two openings; give one"
        )


def _check_writable_file(path: Path) -> None:
    """Refuse, before any work, a file that cannot be written."""
    folder = path.parent
    if not folder.is_dir():
        raise UsageError(f"--out {path}: there is no directory {folder}; nothing was built")
    if path.exists() and not os.access(path, os.W_OK):
        raise UsageError(f"--out {path}: the file is not writable; nothing was built")
    _check_writable_folder(folder, f"--out {path}")


def _check_writable_folder(folder: Path, what: str) -> None:
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        raise UsageError(
            f"{what}: cannot write in {folder} ({error.strerror or error}); nothing was built"
        ) from None


def _tree_every_opening(args: argparse.Namespace, options: dict[str, Any]) -> int:
    """One tree per distinct opening, written into the ``--out`` directory.

    The directory may be new or empty; one that already holds files is refused unless
    ``--force`` (then the openings' files are replaced, other files left alone).
    """
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"--first-guess all writes one tree per opening: --out {out} is a file")
    if out.is_dir() and any(out.iterdir()) and not args.force:
        raise UsageError(
            f"--out {out} already holds files; give an empty or new directory, or --force to "
            "replace the openings' trees in it"
        )
    made = not out.exists()
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(
            f"--out {out}: cannot make the directory ({error.strerror or error}); nothing was built"
        ) from None
    try:
        return _every_opening_into(args, options, out)
    finally:
        if made and out.is_dir() and not any(out.iterdir()):
            out.rmdir()  # refused or stopped before the first tree: nothing left behind


def _every_opening_into(args: argparse.Namespace, options: dict[str, Any], out: Path) -> int:
    from evo_mastermind.players.openings import every_opening

    _check_writable_folder(out, f"--out {out}")
    space = CodeSpace(args.pegs, args.colors)
    from evo_mastermind.players.openings import distinct_openings

    _announce_cost(args.player, space, options, len(distinct_openings(space)))
    rows = []
    print(f"{args.player} on {space}, every distinct opening:")
    print(f"{'opening':<{max(7, space.pegs)}}  {'total':>7}  {'mean':>7}  {'max':>3}")
    for found in every_opening(args.player, space, options, not args.no_progress):
        where = out / f"{found.opening}.json"
        found.tree.save(where)
        rows.append(found)
        mark = "  (interrupted: not the optimum)" if found.tree.partial else ""
        print(
            f"{found.opening:<{max(7, space.pegs)}}  {found.total:>7}  {found.mean:>7.4f}  "
            f"{found.depth:>3}{mark}",
            flush=True,
        )
        if found.tree.partial:  # Ctrl-C: the openings not yet built are not compared
            return _said_if_partial(found.tree, str(where))
    best = min(rows, key=lambda row: (row.total, row.depth, row.opening))
    print(f"best opening {best.opening} ({best.total} guesses); trees written to {out}/")
    return 0


def _announce_cost(player: str, space: CodeSpace, options: dict[str, Any], trees: int) -> None:
    """One line on stderr before building trees estimated to take more than a minute.

    Raises:
        UsageError: the player's estimate needs more memory than this machine has.
    """
    from evo_mastermind.kernels import startup  # Numba loads here, without its unused extras
    from evo_mastermind.players import known_player, validate_params
    from evo_mastermind.players.cost import memory_refusal, tree_announcement

    game = known_player(player).estimate(validate_params(player, options), space)
    refused = memory_refusal(game.memory, f"a tree of {player} on {space}")
    if refused is not None:
        raise UsageError(refused)
    line = tree_announcement(game, f"{player} on {space}", trees, startup.numba_threads())
    if line is not None:
        print(f"{PROG}: {line}", file=sys.stderr, flush=True)

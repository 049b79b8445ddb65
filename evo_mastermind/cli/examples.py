"""``evo-mastermind examples``: the worked examples and notebooks, listed or copied out."""

from __future__ import annotations

import argparse
from typing import Any

from evo_mastermind.cli.common import PROG


def add_examples_command(commands: Any, parser_class: type[argparse.ArgumentParser]) -> None:
    """The ``examples`` command and its ``copy`` action (``parser_class``: the CLI's)."""
    examples = commands.add_parser(
        "examples",
        help="list the worked examples and notebooks shipped with the package, or copy them",
        description="Without an action: list the example packages (a player and a heuristic "
        "of one's own, with their configs) and the notebooks. 'examples copy [DEST] [--force]' "
        "copies examples/ and notebooks/ into DEST (default ./evo_mastermind_examples).",
    )
    actions = examples.add_subparsers(dest="action", parser_class=parser_class)
    copy = actions.add_parser("copy", help="copy examples/ and notebooks/ to run and edit")
    copy.add_argument("destination", nargs="?", help="folder (default ./evo_mastermind_examples)")
    copy.add_argument("--force", action="store_true", help="replace the folders already there")
    examples.set_defaults(handler=_examples, action=None)


def _examples(args: argparse.Namespace) -> int:
    from evo_mastermind import examples

    if args.action == "copy":
        target = examples.copy_examples(args.destination, force=args.force)
        print(
            f"copied examples/ and notebooks/ to {target}; try: PYTHONPATH={target}/examples/"
            f"custom_player/src {PROG} run {target}/examples/custom_player/compare.yaml"
        )
        return 0
    for line in examples.listing():
        print(line)
    print()
    print(f"'{PROG} examples copy [DEST]' copies them to run and edit (docs: extending.md).")
    return 0

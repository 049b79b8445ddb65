"""``evo-mastermind studies``: list, show or copy the shipped studies and published tables."""

from __future__ import annotations

import argparse

from evo_mastermind.cli.common import PROG


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

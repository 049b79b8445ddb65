"""Several results directories joined into one analysis: games played on the same secrets.

Comparing a player run today with baselines run last week needs their games in one table.
:func:`join_results` joins directories whose games can be paired by secret: the same game
sizes and the same secret sources drawn from the same root seed (a ``full`` source is every
code once, whatever the seed). Anything else is refused in one line, as is a label played
in two directories (rename one in its config, or report them apart). The joint analysis
compares with the published table its first directory names; :func:`published_note` says
so in one line when another directory names a different one.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from evo_mastermind.analysis.results import AnalysisError, load_experiment, load_games
from evo_mastermind.runner.record import ExperimentRecord

Pairing = tuple[tuple[tuple[int, int], ...], tuple[str, ...], int | None]
"""A directory's game sizes, secret sources and (for drawn secrets) root seed."""


def _pairing(record: ExperimentRecord, games: pd.DataFrame) -> Pairing:
    """What two directories must share for their games to be paired by secret."""
    pairs = zip(games["pegs"], games["colors"], strict=True)
    sizes = tuple(sorted({(int(pegs), int(colors)) for pegs, colors in pairs}))
    sources = tuple(sorted(set(record.secrets) or set(games["secrets"].astype(str))))
    drawn = any(source != "full" for source in sources)
    return sizes, sources, record.seed if drawn else None


def join_results(
    directories: Sequence[Path | str],
) -> tuple[pd.DataFrame, ExperimentRecord]:
    """The games of several results directories, and one record naming all their players.

    Args:
        directories: results directories written by runs, in the order their players are
            listed.

    Returns:
        The games, concatenated, and the first directory's record with every directory's
        players (its name joins theirs with ``+``).

    Raises:
        AnalysisError: fewer than two directories, different game sizes, secret sources or
            seeds of drawn secrets, or a label played in two directories; in one line.
    """
    if len(directories) < 2:
        raise AnalysisError("joining results needs at least two results directories")
    records = [load_experiment(directory) for directory in directories]
    tables = [load_games(directory) for directory in directories]
    first = _pairing(records[0], tables[0])
    seen: dict[str, Path] = {}
    for directory, record, games in zip(directories, records, tables, strict=True):
        sizes, sources, seed = _pairing(record, games)
        if sizes != first[0]:
            raise AnalysisError(
                f"cannot pair {directory} with {directories[0]}: games of "
                f"{', '.join(map(str, sizes))}, not {', '.join(map(str, first[0]))}"
            )
        if sources != first[1] or seed != first[2]:
            raise AnalysisError(
                f"cannot pair {directory} with {directories[0]}: secrets {', '.join(sources)}"
                f"{'' if seed is None else f' drawn from seed {seed}'}, not "
                f"{', '.join(first[1])}{'' if first[2] is None else f' from seed {first[2]}'}"
            )
        for label in dict.fromkeys(games["label"].astype(str)):
            if label in seen:
                raise AnalysisError(
                    f"label {label!r} is played in both {seen[label]} and {directory}; "
                    "rename it in one config (label:) to compare them"
                )
            seen[label] = Path(directory)
    players = [player for record in records for player in record.players]
    name = "+".join(record.name for record in records)
    joined = records[0].model_copy(update={"name": name, "players": players})
    return pd.concat(tables, ignore_index=True), joined


def published_note(directories: Sequence[Path | str], advice: str) -> str | None:
    """One line when the directories name different published tables (the first's is used).

    Args:
        directories: the joined results directories, in order.
        advice: how the caller compares with another table (``--compare-with FILE``).

    Returns:
        None when every directory names the same published table (or none does).
    """
    named = [load_experiment(directory).compare_with for directory in directories]
    others = [
        f"{directory} names {table or 'none'}"
        for directory, table in zip(directories, named, strict=True)
        if table != named[0]
    ]
    if not others:
        return None
    return (
        f"the joint report compares with the published table of {directories[0]} "
        f"({named[0] or 'none'}); {', '.join(others)}; {advice}"
    )

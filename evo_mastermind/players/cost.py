"""What a game costs, roughly: the shape of a player's estimate, for the plan and ``play``.

Each player class says what its games cost (:meth:`evo_mastermind.players.Player.estimate`),
from its own options; this module holds the shape of the answer, the machine's speeds and
memory the estimates are counted in, and the lines that refuse or announce work by them. It
is light to import, so ``play`` and ``tree`` check a game's cost without loading the runner.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from evo_mastermind.codes import CodeSpace

PAIRS_PER_SECOND = 1e10
"""Guess-code scorings a second, as the exhaustive players' model counts them: fitted to
knuth on (6,9), about 6 s a game with the compiled kernel (105 s before it)."""

BYTES_PER_PEG = 8 * 4
"""Memory a population member or archive entry takes per peg, and ..."""

BYTES_PER_ITEM = 64 * 4
"""... per member besides its pegs (arrays, fitness, bookkeeping)."""

CHOICE_PAIRS_PER_SECOND = 8e7
"""Guess-member pairs a second of the archive EA's and the sampler's choice of a guess (a
response matrix and its partition counts in numpy): fitted to the sampler on (8,12), μ = 2,000
with ``play: all`` (8 choices of 4,000 guesses over 2,000 codes), about 0.8 s a game."""

LOOKAHEAD_PAIRS_PER_SECOND = 1e9
"""Guess-member pairs a second of the lookahead's second ply (a compiled count per part)."""

CHOICE_BYTES_PER_PAIR = 2
"""Memory of the choice per guess-member pair: one packed response (two bytes from 16 pegs)
and the numpy temporaries beside it."""


TREE_GAMES = 80
"""A deterministic player's whole decision tree costs about this many of its games, when the
tree asks the player at every node (a player's own default; the one-ply players' compiled
trees say their own, :data:`~evo_mastermind.players.one_ply.COMPILED_TREE_GAMES`)."""

ANNOUNCE_SECONDS = 60.0
"""Work estimated to take longer than this is announced before it starts."""


@dataclass(frozen=True)
class Cost:
    """A rough estimate of one game of a player.

    Attributes:
        seconds: CPU seconds of one game, or ``None`` when the player does not estimate it.
        memory: bytes the player's populations, archives, tables and trees take at their
            largest.
        setup_seconds: CPU seconds paid once by a process before its first game of a size
            (a tree searched or read, kept for the games after it), not by every game.
        tree_games: how many of its games the player's whole decision tree (``tree``) costs.
    """

    seconds: float | None = None
    memory: int = 0
    setup_seconds: float = 0.0
    tree_games: float = TREE_GAMES

    def first_game_seconds(self) -> float | None:
        """Seconds of a process's first game: the setup and one game (``None``: not estimated)."""
        return None if self.seconds is None else self.setup_seconds + self.seconds


def scoring_seconds(consistent: float, pool: float) -> float:
    """Seconds to score a pool of guesses against a consistent set, at :data:`PAIRS_PER_SECOND`."""
    return consistent * pool / PAIRS_PER_SECOND


def choice_cost(guesses: int, members: int, moves: float, lookahead_width: int = 0) -> Cost:
    """A game of choices scoring ``guesses`` possible guesses over ``members`` codes each move.

    Its time (``moves`` choices, each with ``lookahead_width`` guesses played a ply further
    when the lookahead is used) and the memory of one choice's response matrix.
    """
    pairs = guesses * members
    seconds = pairs / CHOICE_PAIRS_PER_SECOND + lookahead_width * pairs / LOOKAHEAD_PAIRS_PER_SECOND
    return Cost(seconds=moves * seconds, memory=pairs * CHOICE_BYTES_PER_PAIR)


def listed_space_memory(space: CodeSpace) -> int:
    """Bytes of a whole code space listed, as the exhaustive players hold it.

    Each code's pegs and colour counts (a byte each), its index and symmetry class (eight
    bytes each), and as much again for the columns and responses kept beside them.
    """
    return 2 * space.size * (space.pegs + space.colors + 16)


def items_memory(items: int, pegs: int) -> int:
    """Bytes of ``items`` codes held in a population or archive of a game of ``pegs`` pegs."""
    return items * (pegs * BYTES_PER_PEG + BYTES_PER_ITEM)


def tree_seconds(game: Cost, trees: int = 1, threads: int = 1) -> float | None:
    """Seconds to build ``trees`` whole trees of a player whose game costs ``game``.

    ``None`` when the player does not estimate its games. A tree costs
    :attr:`Cost.tree_games` of the player's games. Its subtrees grow on
    ``threads`` threads at once; a player's setup (the optimum's search: its tree) is paid
    once a tree.
    """
    if game.seconds is None:
        return None
    return (game.tree_games * game.seconds + game.setup_seconds) * trees / max(1, threads)


def tree_announcement(game: Cost, what: str, trees: int = 1, threads: int = 1) -> str | None:
    """The line saying how long building ``trees`` trees (``what``) will take, if over a minute."""
    seconds = tree_seconds(game, trees, threads)
    if seconds is None or seconds <= ANNOUNCE_SECONDS:
        return None
    many = f"{trees} trees" if trees > 1 else "the tree"
    return (
        f"estimate: {duration(seconds)} to build {many} of {what} ({threads} thread(s), "
        "rough model); Ctrl-C stops it"
    )


def duration(seconds: float) -> str:
    """``seconds`` in words a person reads at a glance (``about 16 min``)."""
    if seconds < 120:
        return f"about {seconds:,.0f} s"
    if seconds < 7200:
        return f"about {seconds / 60:,.0f} min"
    return f"about {seconds / 3600:,.1f} h"


def machine_memory() -> int:
    """Bytes of physical memory of this machine."""
    try:
        return int(os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
    except (ValueError, OSError, AttributeError):
        return 2**40


def memory_refusal(memory: int, what: str, limit: int | None = None) -> str | None:
    """The line refusing ``what`` when it needs more than ``limit`` bytes (default: the machine's).

    ``None`` when it fits.
    """
    allowed = machine_memory() if limit is None else limit
    if memory <= allowed:
        return None
    return (
        f"{what} needs about {gibibytes(memory)} (populations, archives, samples, tables), "
        f"more than the {gibibytes(allowed)} of this machine; shrink the player's "
        "populations, archives or samples (mu), or the game"
    )


def gibibytes(memory: float) -> str:
    """Bytes in words: ``12.5 GiB``, in TiB or PiB past one of them (``4.45 PiB``)."""
    for unit, power in (("PiB", 50), ("TiB", 40)):
        if memory >= 2**power:
            return f"{memory / 2**power:,.2f} {unit}"
    return f"{memory / 2**30:,.1f} GiB"

"""What a game costs, roughly: the shape of a player's estimate, for the plan and ``play``.

Each player class says what its games cost (:meth:`evo_mastermind.players.Player.estimate`),
from its own options; this module holds only the shape of the answer and the machine's
speeds the estimates are counted in. It is light to import, so ``play`` can warn without
loading the runner.
"""

from __future__ import annotations

from dataclasses import dataclass

PAIRS_PER_SECOND = 1e10
"""Guess-code scorings a second, as the exhaustive players' model counts them: fitted to
knuth on (6,9), about 6 s a game with the compiled kernel (105 s before it)."""

BYTES_PER_PEG = 8 * 4
"""Memory a population member or archive entry takes per peg, and ..."""

BYTES_PER_ITEM = 64 * 4
"""... per member besides its pegs (arrays, fitness, bookkeeping)."""


@dataclass(frozen=True)
class Cost:
    """A rough estimate of one game of a player.

    Attributes:
        seconds: CPU seconds of one game, or ``None`` when the player does not estimate it.
        memory: bytes the player's populations and archives take at their largest.
    """

    seconds: float | None = None
    memory: int = 0


def scoring_seconds(consistent: float, pool: float) -> float:
    """Seconds to score a pool of guesses against a consistent set, at :data:`PAIRS_PER_SECOND`."""
    return consistent * pool / PAIRS_PER_SECOND


def items_memory(items: int, pegs: int) -> int:
    """Bytes of ``items`` codes held in a population or archive of a game of ``pegs`` pegs."""
    return items * (pegs * BYTES_PER_PEG + BYTES_PER_ITEM)

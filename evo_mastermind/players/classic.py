"""The classic deterministic players: Knuth's minimax and the naive first-consistent player.

Both are presets of the one-ply engine (the CS52 assignment after Knuth 1977): Knuth minimises the
largest part over every code, preferring consistent codes, then the lexicographically first; the
naive player plays the lexicographically first consistent code.
"""

from __future__ import annotations

from typing import ClassVar

from evo_mastermind.players.base import register_player
from evo_mastermind.players.first_guess import AUTO
from evo_mastermind.players.one_ply import (
    OnePlyOptions,
    Pool,
    RandomPlayer,
    Settings,
    WorstCasePlayer,
)


class ClassicParams(OnePlyOptions):
    """Options of the classic players."""

    pool: ClassVar[Pool] = "all"
    """The fixed pool of guesses (the rest is fixed too: lexicographic ties, no sampling)."""
    first_guess: str | None = None
    """A code; unset: the strategy chooses (Knuth: AABB on (4,6); first consistent: AAAA)."""

    def settings(self) -> Settings:
        """Fixed settings (only the first guess may be given)."""
        return Settings("lexicographic", self.pool, None)


class FirstConsistentParams(ClassicParams):
    """Options of the first-consistent player."""

    pool: ClassVar[Pool] = "consistent"


@register_player("knuth")
class KnuthPlayer(WorstCasePlayer):
    """Knuth (1977): minimax over all codes, consistent codes preferred, then lexicographic.

    On (4,6) it needs 5801 guesses over the 1296 secrets (mean 4.476) and never more than 5.
    """

    Params = ClassicParams
    default_first_guess = AUTO


@register_player("first_consistent")
class FirstConsistentPlayer(RandomPlayer):
    """Plays the lexicographically first consistent code (AAAA first: 5.765 mean on (4,6))."""

    Params = FirstConsistentParams
    default_first_guess = AUTO

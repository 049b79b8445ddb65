"""What an exhaustive player's game costs, roughly: for plan estimates and ``play``'s warning.

A module of its own, light to import, so ``play`` can warn without loading the runner.
"""

from __future__ import annotations

EXHAUSTIVE_PLAYERS = frozenset(
    {"entropy", "most_parts", "expected_size", "worst_case", "random", "local_entropy", "knuth"}
)
"""Players that score guesses against the consistent set (or every code): cost grows
with the square of the space."""

PAIRS_PER_SECOND = 1e10
"""Guess-code scorings a second, as this model counts them: fitted to knuth on (6,9), about
6 s a game with the compiled kernel (105 s before it)."""


def exhaustive_seconds(player: str, params: dict[str, object], size: int) -> float:
    """A rough model of one exhaustive game's seconds.

    Its second guess scores the consistent set left by the first (about a fifth of the
    space) against the guess pool; that dominates the game.
    """
    consistent = size / 5
    mu = params.get("mu")
    if isinstance(mu, int):
        consistent = min(consistent, mu)
    pool = size if player == "knuth" or params.get("pool") == "all" else size / 5
    return consistent * pool / PAIRS_PER_SECOND

"""Brute-force optimal Mastermind strategies: the independent oracle the exact solver is held to.

Everything here is written from the definitions and shares no code with the package (not even
its scoring): its value is that it is obviously correct, not that it is fast. It finds, by a
plain exhaustive recursion over candidate sets with memoisation, the decision tree that an
optimal codebreaker plays on the game of ``pegs`` positions and ``colors`` colours:

* every code (consistent with the answers so far or not) is tried as the guess at every node;
* the cost of a tree is its *total*: over every secret, the number of guesses up to and
  including the one that equals the secret; its *depth* is the largest of those numbers;
* an optional depth limit ``max_guesses`` is honoured exactly: a node that may still ask ``k``
  guesses only considers subtrees of depth at most ``k``, and a set that cannot be solved
  within them is infeasible.

Codes are tuples of colour numbers (colour 0 is the letter ``A``); a set of candidates is a
frozenset of indices into the lexicographically ordered list of every code.
"""

from __future__ import annotations

import functools
import itertools
import string
from collections.abc import Sequence
from typing import Literal

Objective = Literal["expected", "worst"]
Cost = tuple[int, int]
"""(total guesses over the secrets of a set, largest number of guesses for any one of them)."""


class InfeasibleError(ValueError):
    """No decision tree solves the game within the allowed number of guesses."""


def score(guess: Sequence[int], secret: Sequence[int]) -> tuple[int, int]:
    """The response to ``guess`` when the secret is ``secret``, from the rules of the game.

    Black pegs count the positions where guess and secret agree. Black and white pegs together
    count the colours the two codes share as multisets: for each colour, the smaller of its
    number of occurrences in the guess and in the secret. White pegs are the difference.

    Args:
        guess: the guessed code, one colour number per position.
        secret: the secret code, as long as ``guess``.

    Returns:
        The pair (black, white).
    """
    black = sum(1 for g, s in zip(guess, secret, strict=True) if g == s)
    shared = sum(min(guess.count(color), secret.count(color)) for color in set(guess))
    return black, shared - black


def parse_code(text: str, pegs: int, colors: int) -> tuple[int, ...]:
    """A code written in letters (``"AABB"``) as colour numbers.

    Args:
        text: one capital letter per position, ``A`` for colour 0.
        pegs: the number of positions the code must have.
        colors: the number of colours of the game.

    Returns:
        The code as a tuple of colour numbers.

    Raises:
        ValueError: the text is not a code of this game.
    """
    letters = string.ascii_uppercase[:colors]
    if len(text) != pegs or any(letter not in letters for letter in text):
        raise ValueError(f"{text!r} is not a code of {pegs} letters from {letters}")
    return tuple(letters.index(letter) for letter in text)


def _number(answer: tuple[int, int], pegs: int) -> int:
    """A (black, white) answer as one number, distinct for distinct answers."""
    black, white = answer
    return black * (pegs + 1) + white


class _Game:
    """The memoised exhaustive search for one game size."""

    def __init__(self, pegs: int, colors: int) -> None:
        self.codes: list[tuple[int, ...]] = list(itertools.product(range(colors), repeat=pegs))
        # responses[g][s]: the answer to guess g when the secret is s, every pair scored once,
        # kept as the number black * (pegs + 1) + white (one number per distinct answer).
        self.responses: list[list[int]] = [
            [_number(score(guess, secret), pegs) for secret in self.codes] for guess in self.codes
        ]
        self.win = _number((pegs, 0), pegs)
        self.memo: dict[tuple[frozenset[int], int | None], Cost | None] = {}

    def split(self, guess: int, candidates: frozenset[int]) -> list[frozenset[int]]:
        """The candidates not yet found after ``guess``, grouped by the answer they give.

        Args:
            guess: index of the guessed code.
            candidates: indices of the secrets still possible.

        Returns:
            One set per answer other than the win (the guess itself, if it is a candidate, is
            found by this guess and belongs to no part).
        """
        row = self.responses[guess]
        parts: dict[int, set[int]] = {}
        for secret in candidates:
            answer = row[secret]
            if answer != self.win:
                parts.setdefault(answer, set()).add(secret)
        return [frozenset(part) for part in parts.values()]

    def after(self, guess: int, candidates: frozenset[int], limit: int | None) -> Cost | None:
        """The best cost of a tree for ``candidates`` that opens with ``guess``.

        Args:
            guess: index of the guessed code.
            candidates: indices of the secrets still possible (at least one).
            limit: the most guesses any secret may still take, this one included; None for no
                limit.

        Returns:
            (total, depth) of the best such tree, or None if none fits within ``limit``.
        """
        if limit is not None and limit < 1:
            return None
        return self.below(len(candidates), self.split(guess, candidates), limit)

    def below(self, size: int, parts: list[frozenset[int]], limit: int | None) -> Cost | None:
        """The best cost of a tree whose first guess, on ``size`` candidates, leaves ``parts``.

        Args:
            size: the number of candidates the guess was asked on.
            parts: the candidates it leaves, grouped by answer (see :meth:`split`).
            limit: the most guesses any secret may still take, the first guess included
                (at least 1); None for no limit.

        Returns:
            (total, depth), or None if some part cannot be solved in the guesses left.
        """
        # Every candidate pays for this guess; each part then pays for its own subtree.
        total, depth = size, 1
        for part in parts:
            cost = self.best(part, None if limit is None else limit - 1)
            if cost is None:
                return None
            total += cost[0]
            depth = max(depth, 1 + cost[1])
        return total, depth

    def best(self, candidates: frozenset[int], limit: int | None) -> Cost | None:
        """The lexicographically smallest (total, depth) of a tree that finds every candidate.

        Among the trees with the fewest total guesses this takes the shallowest; both parts
        can be chosen subtree by subtree, as the total is a sum and the depth a maximum over
        independent subtrees.

        Args:
            candidates: indices of the secrets still possible (at least one).
            limit: the most guesses any secret may still take; None for no limit.

        Returns:
            The cost, or None if no tree finds every candidate within ``limit`` guesses.
        """
        key = (candidates, limit)
        if key in self.memo:
            return self.memo[key]
        result: Cost | None
        if limit is not None and limit < 1:
            result = None
        elif len(candidates) == 1:
            # Guess the one code left: one guess, found at once; nothing can cost less.
            result = (1, 1)
        elif limit == 1:
            # One guess finds at most the one secret it names; a second candidate is left over.
            result = None
        else:
            result = None
            seen: set[frozenset[frozenset[int]]] = set()
            for guess in range(len(self.codes)):
                parts = self.split(guess, candidates)
                # Guesses that leave the same parts lead to the same subtrees: cost them once.
                partition = frozenset(parts)
                if partition in seen:
                    continue
                seen.add(partition)
                if guess not in candidates and len(parts) == 1:
                    # A guess outside the set that gives every candidate the same answer
                    # learns nothing: the subtree below it is a tree for the same set with one
                    # guess less, so skipping straight to that subtree costs |set| guesses
                    # fewer at no greater depth. Skipping it also keeps the unlimited
                    # recursion finite, as every part below a kept guess is a proper subset.
                    continue
                cost = self.below(len(candidates), parts, limit)
                if cost is not None and (result is None or cost < result):
                    result = cost
        self.memo[key] = result
        return result


@functools.lru_cache(maxsize=4)
def _game(pegs: int, colors: int) -> _Game:
    """The search for one game size, kept between calls.

    Its memo holds the optimum of each (candidate set, guesses left) pair, which no option of
    :func:`optimal_total` changes, so later calls on the same game reuse it.
    """
    return _Game(pegs, colors)


def optimal_total(
    pegs: int,
    colors: int,
    *,
    max_guesses: int | None = None,
    objective: Objective = "expected",
    first_guess: str | None = None,
) -> tuple[int, int]:
    """The cost of an optimal strategy for ``pegs`` positions and ``colors`` colours.

    Every code may be guessed at every node; the total counts, for every secret, the guesses up
    to and including the one that equals it.

    Args:
        pegs: number of positions, at least 1.
        colors: number of colours, at least 1.
        max_guesses: if given, only trees that find every secret within this many guesses count.
        objective: ``"expected"``: the fewest total guesses (among those trees, the smallest
            maximum depth); ``"worst"``: the smallest maximum depth, then among trees that
            deep, the fewest total guesses.
        first_guess: if given, the opening every tree must play, in letters (``"AABB"``).

    Returns:
        (total guesses over every secret, maximum number of guesses for any secret) of the
        optimal tree.

    Raises:
        ValueError: a size, objective or opening that does not fit the game.
        InfeasibleError: no tree finds every secret within ``max_guesses`` guesses.
    """
    if pegs < 1 or colors < 1:
        raise ValueError(f"a game needs at least one peg and one colour, got ({pegs},{colors})")
    if objective not in ("expected", "worst"):
        raise ValueError(f"objective must be 'expected' or 'worst', got {objective!r}")
    if max_guesses is not None and max_guesses < 1:
        raise ValueError(f"max_guesses must be at least 1, got {max_guesses}")
    game = _game(pegs, colors)
    everything = frozenset(range(len(game.codes)))
    opening = (
        None if first_guess is None else game.codes.index(parse_code(first_guess, pegs, colors))
    )

    def root(limit: int | None) -> Cost | None:
        if opening is None:
            return game.best(everything, limit)
        return game.after(opening, everything, limit)

    if objective == "expected":
        cost = root(max_guesses)
    else:
        # Raise the depth allowed until a tree fits: the first depth that does is the smallest
        # maximum, and the search under that limit gives the fewest total guesses there.
        # Guessing the codes one by one always fits within len(codes) guesses (plus the
        # opening, when one is imposed), so the loop ends.
        ceiling = len(game.codes) + 1 if max_guesses is None else max_guesses
        cost = None
        for depth in range(1, ceiling + 1):
            cost = root(depth)
            if cost is not None:
                break
    if cost is None:
        raise InfeasibleError(
            f"no strategy finds every secret of ({pegs},{colors}) in {max_guesses} guesses"
        )
    return cost

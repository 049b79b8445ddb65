"""Secret-code selection algorithms (SCSAs): the codemakers of the brENIAC and FBI tournaments.

Each SCSA draws ``n`` secrets for a game size from a generator, as an array of shape
``(n, pegs)``; colours are numbered from 0 (``A``) to ``colors - 1``. Within a code every peg
is drawn uniformly from the colour set the SCSA chose for that code:

- ``insert_colors``: all colours.
- ``two_color``: two distinct colours (so a one-colour code can still occur).
- ``ab_color``: ``A`` and ``B``.
- ``two_color_alternating``: two distinct colours X, Y laid out ``XYXY...`` (no draw per peg).
- ``only_once``: every peg a different colour (needs ``colors >= pegs``).
- ``first_and_last``: all colours, then the last peg copies the first.
- ``usually_fewer``: with probability 0.9 two or three distinct colours (even odds),
  otherwise all colours. On a two-colour game "three" is capped to two.
- ``prefer_fewer``: ``k`` distinct colours with probabilities 0.50 (k=1), 0.25 (2), 0.13 (3),
  0.08 (4), 0.03 (5), 0.01 (k uniform in 6..colors), ``k`` capped at ``colors``.

:func:`draw_secrets` is the checked entry point used by experiments.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from evo_mastermind.codes import Codes, CodeSpace, InvalidGameError

SCSA = Callable[[CodeSpace, np.random.Generator, int], Codes]
"""An SCSA: ``(space, rng, n) -> codes`` of shape ``(n, pegs)``, dtype uint8."""

PREFER_FEWER_PROBABILITIES = (0.50, 0.25, 0.13, 0.08, 0.03, 0.01)
"""``prefer_fewer``: P(k=1..5), then P(k uniform in 6..colors)."""

USUALLY_FEWER_FEW = 0.9
"""``usually_fewer``: the probability of a code over two or three colours."""


def _colour_subsets(
    space: CodeSpace, rng: np.random.Generator, sizes: npt.NDArray[np.int64]
) -> Codes:
    """One code per row, every peg uniform over ``sizes[row]`` distinct random colours."""
    n = sizes.shape[0]
    # Each row's colours in a random order: its first sizes[row] are the chosen set.
    orders = np.argsort(rng.random((n, space.colors)), axis=1)
    picks = (rng.random((n, space.pegs)) * sizes[:, None]).astype(np.int64)
    return np.take_along_axis(orders, picks, axis=1).astype(np.uint8)


def _two_distinct(space: CodeSpace, rng: np.random.Generator, n: int) -> npt.NDArray[np.int64]:
    """``n`` ordered pairs of distinct colours, uniform over all such pairs, shape (n, 2)."""
    first = rng.integers(0, space.colors, size=n)
    second = rng.integers(0, space.colors - 1, size=n)
    second = second + (second >= first)
    return np.stack([first, second], axis=1)


def insert_colors(space: CodeSpace, rng: np.random.Generator, n: int) -> Codes:
    """Every peg uniform over all colours."""
    return space.sample(rng, n)


def two_color(space: CodeSpace, rng: np.random.Generator, n: int) -> Codes:
    """Two distinct colours per code; every peg uniform over those two."""
    pairs = _two_distinct(space, rng, n)
    picks = rng.integers(0, 2, size=(n, space.pegs))
    return np.take_along_axis(pairs, picks, axis=1).astype(np.uint8)


def ab_color(space: CodeSpace, rng: np.random.Generator, n: int) -> Codes:
    """Every peg uniform over ``A`` and ``B``."""
    return rng.integers(0, 2, size=(n, space.pegs), dtype=np.uint8)


def two_color_alternating(space: CodeSpace, rng: np.random.Generator, n: int) -> Codes:
    """Two distinct colours X, Y per code, laid out X Y X Y ..."""
    pairs = _two_distinct(space, rng, n)
    layout = np.broadcast_to(np.arange(space.pegs) % 2, (n, space.pegs))
    return np.take_along_axis(pairs, layout, axis=1).astype(np.uint8)


def only_once(space: CodeSpace, rng: np.random.Generator, n: int) -> Codes:
    """All pegs different colours, uniform over such codes (needs ``colors >= pegs``)."""
    if space.colors < space.pegs:
        raise InvalidGameError(
            f"SCSA 'only_once' needs at least as many colours as pegs; {space} has "
            f"{space.colors} colours for {space.pegs} pegs"
        )
    orders = np.argsort(rng.random((n, space.colors)), axis=1)
    return orders[:, : space.pegs].astype(np.uint8)


def first_and_last(space: CodeSpace, rng: np.random.Generator, n: int) -> Codes:
    """Every peg uniform over all colours, then the last peg set equal to the first."""
    codes = space.sample(rng, n)
    codes[:, -1] = codes[:, 0]
    return codes


def usually_fewer(space: CodeSpace, rng: np.random.Generator, n: int) -> Codes:
    """With probability 0.9 two or three colours (even odds), otherwise all colours."""
    few = rng.random(n) < USUALLY_FEWER_FEW
    two_or_three = np.minimum(rng.integers(2, 4, size=n), space.colors)
    sizes = np.where(few, two_or_three, space.colors)
    return _colour_subsets(space, rng, sizes)


def prefer_fewer(space: CodeSpace, rng: np.random.Generator, n: int) -> Codes:
    """``k`` colours with P(k) = .50, .25, .13, .08, .03 for k = 1..5, .01 for k in 6..colors."""
    band = rng.choice(len(PREFER_FEWER_PROBABILITIES), size=n, p=PREFER_FEWER_PROBABILITIES)
    many = rng.integers(6, max(space.colors, 6) + 1, size=n)
    sizes = np.where(band < 5, band + 1, many)
    return _colour_subsets(space, rng, np.minimum(sizes, space.colors))


SCSAS: dict[str, SCSA] = {
    "insert_colors": insert_colors,
    "two_color": two_color,
    "ab_color": ab_color,
    "two_color_alternating": two_color_alternating,
    "only_once": only_once,
    "first_and_last": first_and_last,
    "usually_fewer": usually_fewer,
    "prefer_fewer": prefer_fewer,
}
"""Every SCSA by the name used in configs (``secrets: {scsa: NAME}``)."""


class UnknownSCSAError(InvalidGameError):
    """An SCSA name that is not registered."""


def draw_secrets(name: str, space: CodeSpace, rng: np.random.Generator, n: int) -> Codes:
    """Draw ``n`` secrets with the named SCSA.

    Raises:
        UnknownSCSAError: no SCSA of that name (the message lists the known ones).
        InvalidGameError: a negative ``n``, or a size the SCSA cannot fill (``only_once``
            with fewer colours than pegs).
    """
    if name not in SCSAS:
        raise UnknownSCSAError(f"unknown SCSA {name!r}; known SCSAs: {', '.join(sorted(SCSAS))}")
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 0:
        raise InvalidGameError(f"the number of secrets must be a whole number >= 0, got {n!r}")
    return SCSAS[name](space, rng, int(n))

"""The code space of a Mastermind game: sizes, letter codes, enumeration and sampling.

A code is a numpy array of ``pegs`` small integers (colour 0 is the letter ``A``). When the
space is small enough to list, code ``i`` of :meth:`CodeSpace.all_codes` is the ``i``-th code
in lexicographic order, so code indices and lexicographic order agree.
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt

Code = npt.NDArray[np.uint8]
"""One code: ``pegs`` colour numbers, 0 for ``A``."""

Codes = npt.NDArray[np.uint8]
"""Many codes: an array of shape ``(n, pegs)``."""

MIN_COLORS, MAX_COLORS = 2, 26
MIN_PEGS, MAX_PEGS = 1, 64

ENUMERATION_LIMIT = 2**23
"""The largest space :meth:`CodeSpace.all_codes` will list (about 8.4 million codes)."""

LETTERS = string.ascii_uppercase

_TO_LETTERS = bytes.maketrans(bytes(range(len(LETTERS))), LETTERS.encode("ascii"))
_FROM_LETTERS = bytes.maketrans(LETTERS.encode("ascii"), bytes(range(len(LETTERS))))


class InvalidGameError(ValueError):
    """A game size or a code that the game cannot have."""


class SpaceTooLargeError(InvalidGameError):
    """A request to list a code space too large to hold in memory."""


@dataclass(frozen=True)
class CodeSpace:
    """Every code of ``pegs`` positions over ``colors`` letters ``A``...

    Args:
        pegs: code length ℓ, from 1 to 64.
        colors: number of symbols κ, from 2 to 26.

    Raises:
        InvalidGameError: a size out of range.
    """

    pegs: int
    colors: int

    def __post_init__(self) -> None:
        for name, value, low, high in (
            ("pegs", self.pegs, MIN_PEGS, MAX_PEGS),
            ("colors", self.colors, MIN_COLORS, MAX_COLORS),
        ):
            if isinstance(value, bool) or not isinstance(value, int | np.integer):
                raise InvalidGameError(f"{name} must be a whole number, got {value!r}")
            if not low <= value <= high:
                raise InvalidGameError(f"{name} must be between {low} and {high}, got {value}")
        object.__setattr__(self, "pegs", int(self.pegs))
        object.__setattr__(self, "colors", int(self.colors))

    def __str__(self) -> str:
        return f"({self.pegs},{self.colors})"

    @property
    def size(self) -> int:
        """The number of codes, colors ** pegs (an exact Python integer)."""
        return int(self.colors**self.pegs)

    @property
    def enumerable(self) -> bool:
        """Whether the whole space can be listed (at most :data:`ENUMERATION_LIMIT` codes)."""
        return self.size <= ENUMERATION_LIMIT

    @property
    def n_responses(self) -> int:
        """The size of the encoded response range, ``(pegs + 1) ** 2``."""
        return (self.pegs + 1) ** 2

    @cached_property
    def place_values(self) -> npt.NDArray[np.int64]:
        """Mixed-radix weights, first peg most significant, so index order is lexicographic."""
        self.require_enumerable("numbering codes")
        return self.colors ** np.arange(self.pegs - 1, -1, -1, dtype=np.int64)

    @cached_property
    def all_codes(self) -> Codes:
        """Every code in lexicographic order, shape ``(colors ** pegs, pegs)``.

        Raises:
            SpaceTooLargeError: the space has more than :data:`ENUMERATION_LIMIT` codes.
        """
        self.require_enumerable("listing every code")
        indices = np.arange(self.size, dtype=np.int64)
        digits = (indices[:, None] // self.place_values[None, :]) % self.colors
        codes = digits.astype(np.uint8)
        codes.flags.writeable = False
        return codes

    def require_enumerable(self, purpose: str) -> None:
        """Raise a clear error when ``purpose`` needs the whole space listed and it is too big."""
        if not self.enumerable:
            raise SpaceTooLargeError(
                f"{purpose} needs the whole code space listed, but {self} has "
                f"{self.size:,} codes (the limit is {ENUMERATION_LIMIT:,})"
            )

    def index(self, code: Code) -> int:
        """The lexicographic index of ``code`` in an enumerable space."""
        return int(np.dot(code.astype(np.int64), self.place_values))

    def indices(self, codes: Codes) -> npt.NDArray[np.int64]:
        """The lexicographic indices of many codes in an enumerable space."""
        return codes.astype(np.int64) @ self.place_values

    def parse(self, text: str) -> Code:
        """Read a letter code such as ``"AABC"``.

        Raises:
            InvalidGameError: wrong length, or a letter outside ``A``.. for this space.
        """
        if not isinstance(text, str):
            raise InvalidGameError(f"a code must be a string of letters, got {text!r}")
        cleaned = text.strip().upper()
        if len(cleaned) != self.pegs:
            raise InvalidGameError(
                f"code {text!r} has {len(cleaned)} letters; this game has {self.pegs} pegs"
            )
        bad = set(cleaned).difference(LETTERS[: self.colors])
        if bad:
            raise InvalidGameError(
                f"code {text!r} uses {', '.join(repr(b) for b in sorted(bad))}; "
                f"this game has {self.colors} colours, A to {LETTERS[self.colors - 1]}"
            )
        digits = cleaned.encode("ascii").translate(_FROM_LETTERS)
        return np.frombuffer(digits, dtype=np.uint8).copy()  # a writable array of its own

    def format(self, code: Code) -> str:
        """Write a code as letters, e.g. ``"AABC"``."""
        # A byte translation: no numpy arithmetic for one short code (games format every guess).
        return np.asarray(code, dtype=np.uint8).tobytes().translate(_TO_LETTERS).decode("ascii")

    def format_all(self, codes: Codes) -> list[str]:
        """Write many codes (rows) as letters, in one translation of their bytes."""
        text = np.ascontiguousarray(codes, dtype=np.uint8).tobytes().translate(_TO_LETTERS)
        letters = text.decode("ascii")
        return [letters[at : at + self.pegs] for at in range(0, len(letters), self.pegs)]

    def sample(self, rng: np.random.Generator, n: int) -> Codes:
        """Draw ``n`` codes uniformly at random (with replacement), any space size."""
        return rng.integers(0, self.colors, size=(n, self.pegs), dtype=np.uint8)

    def patterned_code(self, pattern: str) -> Code:
        """Spread a documented first-guess pattern over this game size.

        ``"AABC"``-shaped (``pattern="aabc"``): two pegs of the first colour, then one new
        colour per peg (``AAB``, ``AABCD``, ``AABCDE``...). ``"AABB"``-shaped (``"aabb"``):
        colours in pairs (``AABBC``, ``AABBCC``...). ``"aaaa"``: every peg ``A``. Colours wrap
        around when a game has fewer colours than the pattern needs.
        """
        positions = np.arange(self.pegs)
        if pattern == "aabc":
            colours = np.maximum(positions - 1, 0)
        elif pattern == "aabb":
            colours = positions // 2
        elif pattern == "aaaa":
            colours = positions * 0
        else:
            raise InvalidGameError(f"unknown first-guess pattern {pattern!r}")
        return np.asarray(colours % self.colors, dtype=np.uint8)


def digit_keys(digits: npt.NDArray[np.integer], base: int) -> npt.NDArray[np.int64]:
    """One integer per row of ``digits`` (each below ``base``), equal exactly for equal rows."""
    if base ** digits.shape[1] >= 2**63:
        raise OverflowError(f"rows of {digits.shape[1]} digits below {base} overflow int64 keys")
    weights = base ** np.arange(digits.shape[1] - 1, -1, -1, dtype=np.int64)
    return digits.astype(np.int64) @ weights


def color_counts(codes: Codes, colors: int) -> npt.NDArray[np.uint8]:
    """How many pegs of each colour every code has, shape ``(n, colors)``."""
    codes = np.atleast_2d(codes)
    counts = np.zeros((codes.shape[0], colors), dtype=np.uint8)
    rows = np.arange(codes.shape[0])
    for peg in range(codes.shape[1]):
        counts[rows, codes[:, peg]] += 1
    return counts


def packed_dtype(pegs: int) -> np.dtype[np.unsignedinteger]:
    """The narrowest type holding a packed response, ``black * (pegs + 1) + white``.

    One byte up to 15 pegs (``16 ** 2`` responses), two beyond: the one rule every table,
    matrix and kernel of responses follows.
    """
    return np.dtype(np.uint8) if (pegs + 1) ** 2 <= 256 else np.dtype(np.uint16)

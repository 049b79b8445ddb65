"""Responses: one guess against one code, one guess against many, and response tables.

A response (black, white) is packed into one small integer, ``black * (pegs + 1) + white``,
so a partition of candidates by a guess is a ``bincount`` of packed responses.
"""

from __future__ import annotations

from functools import cache, cached_property
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from evo_mastermind.codes import (
    LETTERS,
    Code,
    Codes,
    CodeSpace,
    InvalidGameError,
    color_counts,
    digit_keys,
    packed_dtype,
)
from evo_mastermind.symmetry import CodeClasses

Packed = npt.NDArray[np.uint8]
"""Packed responses, ``black * (pegs + 1) + white`` (at most 27 * 27 - 1 < 2**16 in general)."""

TABLE_LIMIT = 6000
"""Spaces of at most this many codes get a full code-by-code response table."""

_CHUNK_ELEMENTS = 2**22  # pairs scored per numpy pass: large enough to amortise, small for cache


class Response(NamedTuple):
    """The codemaker's answer: black = right colour, right place; white = right colour elsewhere."""

    black: int
    white: int

    def pack(self, pegs: int) -> int:
        """This response as one integer, ``black * (pegs + 1) + white``."""
        return self.black * (pegs + 1) + self.white

    @classmethod
    def unpack(cls, packed: int, pegs: int) -> Response:
        """The response packed by :meth:`pack`."""
        black, white = divmod(int(packed), pegs + 1)
        return cls(black, white)


def _as_letters(code: str, role: str) -> Code:
    text = code.strip().upper()
    if not text or any(ch not in LETTERS for ch in text):
        raise InvalidGameError(f"{role} {code!r} must be letters A to Z")
    return np.frombuffer(text.encode("ascii"), dtype=np.uint8) - np.uint8(ord("A"))


def score(guess: str | Code, secret: str | Code) -> Response:
    """The response to ``guess`` when the secret is ``secret``.

    >>> score("AABB", "ABBC")
    Response(black=2, white=1)

    Whites follow the multiset rule: each colour contributes the smaller of its counts in
    the two codes, less the blacks.
    """
    g = _as_letters(guess, "guess") if isinstance(guess, str) else np.asarray(guess, np.uint8)
    s = _as_letters(secret, "secret") if isinstance(secret, str) else np.asarray(secret, np.uint8)
    if g.shape != s.shape:
        raise InvalidGameError(f"guess and secret differ in length: {len(g)} and {len(s)} pegs")
    black = int(np.count_nonzero(g == s))
    colors = int(max(g.max(), s.max())) + 1
    common = int(
        np.minimum(np.bincount(g, minlength=colors), np.bincount(s, minlength=colors)).sum()
    )
    return Response(black, common - black)


def score_codes(guess: Code, codes: Codes, colors: int) -> Packed:
    """Packed responses of one guess against many codes (any game size)."""
    pegs = codes.shape[1]
    blacks = np.count_nonzero(codes == guess, axis=1)
    guess_counts = np.bincount(guess, minlength=colors)
    common = np.minimum(color_counts(codes, colors), guess_counts).sum(axis=1)
    return (blacks * pegs + common).astype(packed_dtype(pegs))


def response_matrix(
    guesses: Codes,
    candidates: Codes,
    colors: int,
    guess_counts: npt.NDArray[np.uint8] | None = None,
    candidate_counts: npt.NDArray[np.uint8] | None = None,
) -> Packed:
    """Packed responses of every guess (rows) against every candidate (columns).

    Computed peg by peg and colour by colour on 2-D arrays, in row chunks, so memory stays
    bounded. Blacks and the per-colour common counts combine as ``black * pegs + common``,
    which equals ``black * (pegs + 1) + white``.
    """
    pegs = guesses.shape[1]
    dtype = packed_dtype(pegs)
    if guess_counts is None:
        guess_counts = color_counts(guesses, colors)
    if candidate_counts is None:
        candidate_counts = color_counts(candidates, colors)
    out = np.empty((guesses.shape[0], candidates.shape[0]), dtype=dtype)
    rows = max(1, _CHUNK_ELEMENTS // max(1, candidates.shape[0]))
    # Colours absent from every candidate contribute nothing to the common counts.
    present = np.flatnonzero(candidate_counts.any(axis=0))
    for start in range(0, guesses.shape[0], rows):
        g = guesses[start : start + rows]
        gc = guess_counts[start : start + rows]
        block = np.zeros((g.shape[0], candidates.shape[0]), dtype=dtype)
        for peg in range(pegs):
            block += g[:, peg, None] == candidates[None, :, peg]
        block *= pegs
        for colour in present:
            block += np.minimum(gc[:, colour, None], candidate_counts[None, :, colour])
        out[start : start + rows] = block
    return out


def response_table(space: CodeSpace, counts: npt.NDArray[np.uint8]) -> Packed:
    """Packed responses of every code against every code of an enumerable space.

    Built from its structure rather than pair by pair: blacks add up over the first and the
    last pegs (:func:`_black_table`), and the common colours of two codes depend only on their
    colour counts, so they are computed once per pair of distinct counts and spread out
    (3-5 times faster than :func:`response_matrix` on the whole space).

    Args:
        space: the game size.
        counts: :func:`color_counts` of every code.
    """
    dtype = packed_dtype(space.pegs)
    classes = CodeClasses.of_keys(digit_keys(counts, space.pegs + 1))
    distinct = counts[classes.representatives]
    common = np.zeros((distinct.shape[0], distinct.shape[0]), dtype=dtype)
    for colour in range(space.colors):
        common += np.minimum(distinct[:, None, colour], distinct[None, :, colour])
    table = _black_table(space.pegs, space.colors, dtype)
    table *= space.pegs
    # np.take keeps the result in C order (fancy indexing on columns would not: slow to add).
    table += np.take(np.take(common, classes.of_code, axis=0), classes.of_code, axis=1)
    return table


def _black_table(pegs: int, colors: int, dtype: np.dtype[np.unsignedinteger]) -> Packed:
    """Blacks between every pair of codes: the first pegs' blacks plus the last pegs'."""
    if pegs == 1:
        colours = np.arange(colors)
        return (colours[:, None] == colours[None, :]).astype(dtype)
    first = _black_table(pegs // 2, colors, dtype)
    last = _black_table(pegs - pegs // 2, colors, dtype)
    n_first, n_last = first.shape[0], last.shape[0]
    # Code i is (i // n_last, i % n_last): a 4-D sum, laid out as the 2-D table.
    table = np.empty((n_first, n_last, n_first, n_last), dtype=dtype)
    np.add(first[:, None, :, None], last[None, :, None, :], out=table)
    return table.reshape(n_first * n_last, n_first * n_last)


class IndexedScorer:
    """Responses between codes of an enumerable space, addressed by their indices.

    Spaces of at most :data:`TABLE_LIMIT` codes use a precomputed table, so every response
    is a lookup; larger enumerable spaces compute responses on demand.
    """

    def __init__(self, space: CodeSpace) -> None:
        space.require_enumerable("scoring codes by index")
        self.space = space
        self.codes = space.all_codes
        self.counts = color_counts(self.codes, space.colors)
        self.has_table = space.size <= TABLE_LIMIT

    @cached_property
    def table(self) -> Packed:
        """The full response table, ``table[i, j]`` = packed response of code i against code j."""
        table = response_table(self.space, self.counts)
        table.flags.writeable = False
        return table

    @cached_property
    def columns(self) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
        """Every code's pegs and colour counts as columns: the layout the kernels read."""
        from evo_mastermind.kernels.responses import columns  # compiled: only kernels read these

        return columns(self.codes, self.counts, np.arange(self.space.size))

    def responses(self, guess: int, candidates: npt.NDArray[np.int64]) -> Packed:
        """Packed responses of one guess against the candidate codes."""
        if self.has_table:
            return self.table[guess, candidates]
        from evo_mastermind.kernels.responses import responses  # compiled: loaded on first use

        return responses(self.codes, self.counts, guess, candidates)

    def matrix(
        self, guesses: npt.NDArray[np.int64] | None, candidates: npt.NDArray[np.int64]
    ) -> Packed:
        """Packed responses of guesses (rows; ``None`` for every code) against candidates."""
        if self.has_table:
            rows = self.table if guesses is None else self.table[guesses]
            return rows[:, candidates]
        if guesses is None:
            return response_matrix(
                self.codes,
                self.codes[candidates],
                self.space.colors,
                self.counts,
                self.counts[candidates],
            )
        return response_matrix(
            self.codes[guesses],
            self.codes[candidates],
            self.space.colors,
            self.counts[guesses],
            self.counts[candidates],
        )


@cache
def indexed_scorer(space: CodeSpace) -> IndexedScorer:
    """The one shared :class:`IndexedScorer` of a space (its table is built once per process)."""
    return IndexedScorer(space)

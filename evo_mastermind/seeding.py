"""Seeds derived from a root seed and a game's identity, never from order or global state.

A game is identified by its player entry's label, its run number and its secret, so the
same game gets the same generator whichever worker plays it and in whatever order.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

import numpy as np

_SECRET_STREAM = 0x5EC2E7  # a spawn key of its own for secrets drawn by `play` without --secret


@lru_cache(maxsize=1 << 16)  # labels and secrets recur across runs
def _digest(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "little")


def _uint32_words(value: int) -> list[int]:
    """A non-negative integer as SeedSequence reads it: 32-bit words, least significant first."""
    words = []
    while value:
        words.append(value & 0xFFFFFFFF)
        value >>= 32
    return words or [0]


@lru_cache(maxsize=1 << 16)
def _digest_words(text: str) -> tuple[int, ...]:
    return tuple(_uint32_words(_digest(text)))


def game_seed(
    root_seed: int, label: str, run: int, secret: str, colors: int, occurrence: int = 0
) -> np.random.SeedSequence:
    """The seed of one game, a function of the root seed and the game's identity only.

    The identity is the player entry's label, the run, the secret and the number of colours
    (the same letters make different games at another size), and ``occurrence`` to tell
    apart repeats of one secret in a drawn list.

    The spawn key is ``(digest(label), run, digest(secret), colors, occurrence)``, handed to
    numpy already cut into the 32-bit words it would cut it into: the same seed, without
    numpy's slow conversion of large Python integers (a few microseconds of every game).
    """
    words = [
        *_digest_words(label),
        *_uint32_words(run),
        *_digest_words(secret),
        *_uint32_words(colors),
        *_uint32_words(occurrence),
    ]
    # numpy reads a uint32 array as those very words (tests/test_seeding.py checks it).
    words_array = np.array(words, dtype=np.uint32)
    return np.random.SeedSequence(root_seed, spawn_key=(words_array,))  # type: ignore[arg-type]


def game_rng(
    root_seed: int, label: str, run: int, secret: str, colors: int, occurrence: int = 0
) -> np.random.Generator:
    """The generator of one game (see :func:`game_seed`)."""
    return np.random.default_rng(game_seed(root_seed, label, run, secret, colors, occurrence))


def stream_rng(root_seed: int, purpose: str) -> np.random.Generator:
    """A generator for one named purpose outside any game (e.g. drawing a sample of secrets)."""
    return np.random.default_rng(
        np.random.SeedSequence(root_seed, spawn_key=(_SECRET_STREAM, _digest(purpose)))
    )

"""Where secret codes come from: the whole space, a uniform sample, or an explicit list.

Secret-code selection algorithms (SCSAs) live in :mod:`evo_mastermind.scsa`; the runner
reaches every source through the ``draw`` method of its config's source
(:mod:`evo_mastermind.runner.sources`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from evo_mastermind.codes import Codes, CodeSpace


def full_space(space: CodeSpace) -> Codes:
    """Every code once, in lexicographic order (the paper's protocol)."""
    space.require_enumerable("playing every secret")
    return space.all_codes


def uniform_sample(space: CodeSpace, rng: np.random.Generator, n: int) -> Codes:
    """``n`` secrets drawn uniformly; without replacement whenever the space can be listed."""
    if space.enumerable and n <= space.size:
        return space.all_codes[np.sort(rng.choice(space.size, n, replace=False))]
    return space.sample(rng, n)


def explicit(space: CodeSpace, codes: Sequence[str]) -> Codes:
    """The given codes, checked against the game size."""
    return np.stack([space.parse(code) for code in codes])

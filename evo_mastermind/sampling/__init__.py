"""Uniform samples of the codes consistent with a game's history, exact at every game size.

:func:`sample_consistent` draws them (with or without replacement), choosing among three
exact paths by cost: rejection from the whole space, an exact count and numbering of the set
by halves of the code (:class:`ConsistentSet`), and a compiled constraint search that lists
the set (:func:`consistent_codes`). :func:`count_consistent` counts the set exactly.
"""

from evo_mastermind.sampling.constraints import (
    Constraints,
    HistoryLike,
    consistent_mask_reference,
)
from evo_mastermind.sampling.halves import (
    HALF_LIMIT,
    ConsistentSet,
    can_split,
    halves_memory,
    space_splits,
)
from evo_mastermind.sampling.sampler import (
    DEFAULT_SETTINGS,
    ConsistentSample,
    Method,
    NoConsistentCodeError,
    SamplerSettings,
    SamplingError,
    consistent_codes,
    count_consistent,
    sample_consistent,
    warm,
)

__all__ = [
    "DEFAULT_SETTINGS",
    "HALF_LIMIT",
    "ConsistentSample",
    "ConsistentSet",
    "Constraints",
    "HistoryLike",
    "Method",
    "NoConsistentCodeError",
    "SamplerSettings",
    "SamplingError",
    "can_split",
    "consistent_codes",
    "consistent_mask_reference",
    "count_consistent",
    "halves_memory",
    "sample_consistent",
    "space_splits",
    "warm",
]

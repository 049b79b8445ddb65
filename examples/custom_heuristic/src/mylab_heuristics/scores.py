"""Most parts, ties broken by entropy: a partition heuristic of one's own.

Kooi's most parts ties often (many guesses split the candidates into as many parts); this
breaks those ties by the entropy of the partition, which is below ``log2(n) + 1`` for ``n``
candidates, so it never outweighs one part more.
"""

import numpy as np
import numpy.typing as npt

from evo_mastermind import register_heuristic


@register_heuristic("parts_then_entropy")
def parts_then_entropy(counts: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
    """The number of parts, ties broken by the partition's entropy."""
    total = counts.sum(axis=1, keepdims=True).astype(np.float64)
    p = counts / total
    with np.errstate(divide="ignore", invalid="ignore"):
        entropy = -np.where(counts > 0, p * np.log2(p), 0.0).sum(axis=1)
    parts = np.count_nonzero(counts, axis=1)
    return parts + entropy / (np.log2(total[:, 0]) + 1.0)

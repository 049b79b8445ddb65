"""The compiled exhaustive engine (Numba): small modules, each the twin of a numpy definition.

* :mod:`~evo_mastermind.kernels.rules`: the tolerance and the compiled reductions' names,
  shared with the numpy definitions (no Numba);
* :mod:`~evo_mastermind.kernels.startup`: Numba's start-up without SciPy, and a word on
  stderr when a first call compiles for more than a second;
* :mod:`~evo_mastermind.kernels.responses`: codes as columns, and packed responses;
* :mod:`~evo_mastermind.kernels.scoring`: partition counts and partition scores of a pool
  of guesses;
* :mod:`~evo_mastermind.kernels.tables`: a large pool's responses read from three tables
  (head pegs, tail pegs, colour multiset);
* :mod:`~evo_mastermind.kernels.choosing`: a partition player's best guesses at a position;
* :mod:`~evo_mastermind.kernels.lookahead`: the inner ply of the archive EA's and the
  sampler's lookahead;
* :mod:`~evo_mastermind.kernels.trees`: a whole subtree grown in one call;
* :mod:`~evo_mastermind.kernels.symmetry`: which colours a position may relabel, and the
  class of every code under those relabellings;
* :mod:`~evo_mastermind.kernels.flags` and :mod:`~evo_mastermind.kernels.stopping`: each
  thread's stop flag, set at Ctrl-C and by a game's time limit, that the long kernels (and
  the sampler's) read every few milliseconds;
* :mod:`~evo_mastermind.kernels.warming`: :func:`warm`, compiling all of them ahead of use.

Nothing here imports a module of ours above :mod:`evo_mastermind.codes`. The players do not
call these directly: :mod:`evo_mastermind.engine` decides once, per position, whether the
numpy definition or a kernel computes it. The kernels are compiled once per machine and
cached beside their modules (``cache=True``); ``make`` warms the cache after installing.
Importing this package loads nothing: each name loads its module (and Numba) on first use.
"""

from typing import TYPE_CHECKING

from evo_mastermind.lazy import lazy_exports

if TYPE_CHECKING:
    from evo_mastermind.kernels.choosing import choose
    from evo_mastermind.kernels.responses import columns, responses
    from evo_mastermind.kernels.rules import REDUCTIONS, SCORE_TOLERANCE
    from evo_mastermind.kernels.scoring import partition_counts, pool_scores
    from evo_mastermind.kernels.symmetry import canonical_codes, colour_kinds
    from evo_mastermind.kernels.trees import grow_tree
    from evo_mastermind.kernels.warming import warm

_EXPORTS = {
    "REDUCTIONS": "evo_mastermind.kernels.rules",
    "SCORE_TOLERANCE": "evo_mastermind.kernels.rules",
    "choose": "evo_mastermind.kernels.choosing",
    "columns": "evo_mastermind.kernels.responses",
    "partition_counts": "evo_mastermind.kernels.scoring",
    "pool_scores": "evo_mastermind.kernels.scoring",
    "responses": "evo_mastermind.kernels.responses",
    "canonical_codes": "evo_mastermind.kernels.symmetry",
    "colour_kinds": "evo_mastermind.kernels.symmetry",
    "grow_tree": "evo_mastermind.kernels.trees",
    "warm": "evo_mastermind.kernels.warming",
}

__getattr__ = lazy_exports(__name__, _EXPORTS)

__all__ = [
    "REDUCTIONS",
    "SCORE_TOLERANCE",
    "canonical_codes",
    "choose",
    "colour_kinds",
    "columns",
    "grow_tree",
    "partition_counts",
    "pool_scores",
    "responses",
    "warm",
]

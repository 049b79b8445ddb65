"""Exact optimal strategies: the decision tree with the fewest guesses over every secret.

:mod:`~evo_mastermind.optimal.search` is the compiled branch and bound;
:mod:`~evo_mastermind.optimal.solver` drives it (openings, progress, interruption) and
returns the tree. The ``optimal`` player (:mod:`evo_mastermind.players.optimal`) plays it.
"""

# Before any module here imports Numba: it then loads without the extras it would probe
# for (coverage, SciPy's linear algebra, cffi), 0.05 s of CPU in a fresh process.
import evo_mastermind.kernels.startup  # noqa: F401

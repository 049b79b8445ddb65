"""The evolutionary machinery: fitness, DEAP types and operators, EDA, genetic searches, archive.

``fitness`` (f, s, f_ℓ and the counting evaluator), ``individuals`` (the DEAP ``creator``
types, made once at import), ``operators``, ``eda`` (a generate/update strategy),
``search`` (the DEAP genetic search) and ``vectorised`` (the same search on numpy arrays),
``archive``, ``neighbourhood`` (local scans), ``choice`` (heuristics over an archive) and
``logbook`` (the per-move records of ``log: moves``).

What an author of a new evolutionary player reuses (``docs/extending.md`` walks through one):
:class:`CountingEvaluator` and :func:`distance_to_consistency` (the fitness ``f``), the DEAP
individuals (:func:`individuals_from_codes`, :func:`codes_of`, :func:`assign_fitness`), the
operators drawing from the game's own generator (:func:`crossover`, :func:`mutate`,
:func:`select_tournament`, :func:`vary_and`), and :class:`Logbook` for the move log.
"""

from evo_mastermind.evolution.archive import Archive
from evo_mastermind.evolution.choice import RemainingGuesses, choose_guess
from evo_mastermind.evolution.eda import UnivariateEDA
from evo_mastermind.evolution.fitness import (
    CountingEvaluator,
    Evaluation,
    History,
    distance_to_consistency,
    f_local_entropy,
    local_entropy_of,
)
from evo_mastermind.evolution.individuals import (
    DistanceIndividual,
    EntropyIndividual,
    assign_fitness,
    codes_of,
    individuals_from_codes,
)
from evo_mastermind.evolution.logbook import Logbook, MoveRecord
from evo_mastermind.evolution.neighbourhood import hamming_offsets, scan_around
from evo_mastermind.evolution.operators import (
    crossover,
    mutate,
    mutate_colour,
    select_tournament,
    swap_pegs,
    vary_and,
)
from evo_mastermind.evolution.search import (
    Batch,
    ConsistencySearch,
    PopulationSearch,
    SearchSettings,
)
from evo_mastermind.evolution.vectorised import VectorisedSearch

__all__ = [
    "Archive",
    "Batch",
    "ConsistencySearch",
    "CountingEvaluator",
    "DistanceIndividual",
    "EntropyIndividual",
    "Evaluation",
    "History",
    "Logbook",
    "MoveRecord",
    "PopulationSearch",
    "RemainingGuesses",
    "SearchSettings",
    "UnivariateEDA",
    "VectorisedSearch",
    "assign_fitness",
    "choose_guess",
    "codes_of",
    "crossover",
    "distance_to_consistency",
    "f_local_entropy",
    "hamming_offsets",
    "individuals_from_codes",
    "local_entropy_of",
    "mutate",
    "mutate_colour",
    "scan_around",
    "select_tournament",
    "swap_pegs",
    "vary_and",
]

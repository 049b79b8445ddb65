"""The evolutionary machinery: fitness, DEAP types and operators, EDA, genetic searches, archive.

``fitness`` (f, s, f_ℓ and the counting evaluator), ``individuals`` (the DEAP ``creator``
types, made once at import), ``operators``, ``eda`` (a generate/update strategy),
``search`` (the DEAP genetic search) and ``vectorised`` (the same search on numpy arrays),
``archive``, ``neighbourhood`` (local scans) and ``choice`` (heuristics over an archive).
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
from evo_mastermind.evolution.individuals import DistanceIndividual, EntropyIndividual
from evo_mastermind.evolution.neighbourhood import hamming_offsets, scan_around
from evo_mastermind.evolution.search import ConsistencySearch, PopulationSearch, SearchSettings
from evo_mastermind.evolution.vectorised import VectorisedSearch

__all__ = [
    "Archive",
    "ConsistencySearch",
    "CountingEvaluator",
    "DistanceIndividual",
    "EntropyIndividual",
    "Evaluation",
    "History",
    "PopulationSearch",
    "RemainingGuesses",
    "SearchSettings",
    "UnivariateEDA",
    "VectorisedSearch",
    "choose_guess",
    "distance_to_consistency",
    "f_local_entropy",
    "hamming_offsets",
    "local_entropy_of",
    "scan_around",
]

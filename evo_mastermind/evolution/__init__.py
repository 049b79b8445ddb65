"""DEAP plumbing of the evolutionary players: fitness, individuals, operators, EDA, GA, archive."""

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
from evo_mastermind.evolution.search import ConsistencySearch, SearchSettings

__all__ = [
    "Archive",
    "ConsistencySearch",
    "CountingEvaluator",
    "DistanceIndividual",
    "EntropyIndividual",
    "Evaluation",
    "History",
    "RemainingGuesses",
    "SearchSettings",
    "UnivariateEDA",
    "choose_guess",
    "distance_to_consistency",
    "f_local_entropy",
    "local_entropy_of",
]

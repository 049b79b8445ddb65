"""The DEAP search (the reference) and the numpy search (the fast path) are one algorithm.

Each operator's outcomes, drawn many times from each engine, fit the exact distribution the
algorithm defines (chi-square goodness of fit); and the archive player's games with either
engine have guess and evaluation counts that a Mann–Whitney test cannot tell apart.
"""

import random
from collections import Counter
from collections.abc import Callable, Hashable, Sequence

import numpy as np
import pytest
from scipy.stats import chisquare, mannwhitneyu

from evo_mastermind.codes import Codes, CodeSpace
from evo_mastermind.evolution.fitness import CountingEvaluator
from evo_mastermind.evolution.individuals import (
    assign_fitness,
    codes_of,
    individuals_from_codes,
)
from evo_mastermind.evolution.operators import mutate, select_tournament, vary_and
from evo_mastermind.evolution.search import ConsistencySearch, SearchSettings, make_toolbox
from evo_mastermind.evolution.vectorised import (
    cross_pairs,
    mutate_rows,
    survivors,
    tournament_winners,
)
from evo_mastermind.game import Codemaker, play_game
from evo_mastermind.players import make_player

DRAWS = 20_000
ALPHA = 0.001  # fixed generators make each p-value fixed; a failure means a real difference


def assert_fits(outcomes: Sequence[Hashable], expected: dict[Hashable, float]) -> float:
    """Chi-square goodness of fit of the outcomes to exact probabilities; returns p."""
    counts = Counter(outcomes)
    assert set(counts) <= set(expected), set(counts) - set(expected)
    keys = [key for key, probability in expected.items() if probability > 0]
    observed = np.array([counts[key] for key in keys], dtype=float)
    total = observed.sum()
    assert total == len(outcomes)  # no outcome of probability zero occurred
    result = chisquare(observed, np.array([expected[key] for key in keys]) * total)
    assert result.pvalue > ALPHA, (result, counts)
    return float(result.pvalue)


def individuals(codes: Codes, distance: list[int]) -> list[object]:
    population = individuals_from_codes("f", codes)
    assign_fitness(population, [float(value) for value in distance])
    return population


# -- tournament selection ------------------------------------------------------------------
DISTANCES = [0, 1, 1, 2, 3, 5]


def tournament_probabilities(distance: list[int], size: int) -> dict[Hashable, float]:
    """P(index i wins): the nearest of ``size`` uniform draws, ties shared equally."""
    n = len(distance)
    probabilities: dict[Hashable, float] = {}
    for i, d in enumerate(distance):
        at_least = sum(value >= d for value in distance) / n
        above = sum(value > d for value in distance) / n
        ties = distance.count(d)
        probabilities[i] = (at_least**size - above**size) / ties
    return probabilities


@pytest.mark.parametrize("size", [2, 3])
def test_tournament_winners_have_the_same_distribution(size: int) -> None:
    expected = tournament_probabilities(DISTANCES, size)
    rng = random.Random(1)
    population = individuals(np.zeros((len(DISTANCES), 4), np.uint8), DISTANCES)
    index = {id(individual): i for i, individual in enumerate(population)}
    deap = [index[id(w)] for w in select_tournament(population, DRAWS, size, rng)]
    numpy = tournament_winners(np.random.default_rng(1), np.array(DISTANCES), DRAWS, size)
    assert_fits(deap, expected)
    assert_fits(numpy.tolist(), expected)


# -- two-point crossover -------------------------------------------------------------------
PEGS = 6


def crossover_probabilities(probability: float) -> dict[Hashable, float]:
    """The first child of an all-0 and an all-1 parent: which segment it took from the other."""
    segments = [(low, high) for low in range(1, PEGS + 1) for high in range(low + 1, PEGS + 1)]
    expected: dict[Hashable, float] = {(0,) * PEGS: 1 - probability}
    for low, high in segments:
        child = tuple(1 if low <= peg < high else 0 for peg in range(PEGS))
        expected[child] = probability / len(segments)
    return expected


def test_two_point_crossover_has_the_same_distribution() -> None:
    probability = 0.5
    expected = crossover_probabilities(probability)
    parents = np.tile(np.array([[0] * PEGS, [1] * PEGS], np.uint8), (DRAWS, 1))
    settings = SearchSettings(crossover_probability=probability, mutation_probability=0.0)
    rng = random.Random(2)
    offspring = vary_and(
        individuals(parents, [0] * len(parents)),
        make_toolbox(2, settings, rng),
        probability,
        0.0,
        rng,
    )
    deap = [tuple(row) for row in codes_of(offspring)[::2].tolist()]
    children = parents.copy()
    crossed = cross_pairs(np.random.default_rng(2), children, probability)
    numpy = [tuple(row) for row in children[::2].tolist()]
    assert_fits(deap, expected)
    assert_fits(numpy, expected)
    assert np.array_equal(crossed[::2], children[::2].any(axis=1))  # crossed ones are flagged


# -- mutation: recolour one peg or swap two ------------------------------------------------
START = (0, 1, 2, 3)
COLORS = 6


def mutation_probabilities(probability: float, swap: float) -> dict[Hashable, float]:
    expected: dict[Hashable, float] = {START: 1 - probability}
    for peg in range(len(START)):
        for colour in range(COLORS):
            if colour != START[peg]:
                code = list(START)
                code[peg] = colour
                expected[tuple(code)] = probability * (1 - swap) / (len(START) * (COLORS - 1))
    pairs = [(i, j) for i in range(len(START)) for j in range(i + 1, len(START))]
    for i, j in pairs:
        code = list(START)
        code[i], code[j] = code[j], code[i]
        expected[tuple(code)] = probability * swap / len(pairs)
    return expected


def test_mutation_has_the_same_distribution() -> None:
    probability, swap = 0.8, 0.3
    expected = mutation_probabilities(probability, swap)
    rng = random.Random(3)
    deap: list[Hashable] = []
    for _ in range(DRAWS):
        individual = list(START)
        if rng.random() < probability:  # as vary_and decides
            mutate(individual, COLORS, swap, rng)
        deap.append(tuple(individual))
    children = np.tile(np.array(START, np.uint8), (DRAWS, 1))
    mutated = mutate_rows(np.random.default_rng(3), children, COLORS, probability, swap)
    numpy = [tuple(row) for row in children.tolist()]
    assert_fits(deap, expected)
    assert_fits(numpy, expected)
    assert sorted(set(range(DRAWS)) - set(mutated.tolist())) == [
        i for i, row in enumerate(numpy) if row == START
    ]


# -- survivors: the nearest distinct codes, ties at random ---------------------------------
POOL = np.array(
    [[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3], [1, 1, 1, 1], [4, 4, 4, 4]],
    np.uint8,
)
POOL_DISTANCE = [0, 1, 1, 1, 1, 2]  # one code twice: it must not take two places
KEPT = 3


def survivor_outcomes(choose: Callable[[int], list[tuple[int, ...]]]) -> list[Hashable]:
    """Which distance-1 code was left out, in each of many draws (after checking the rest)."""
    outcomes: list[Hashable] = []
    for draw in range(DRAWS // 4):
        kept = choose(draw)
        assert len(kept) == len(set(kept)) == KEPT and kept[0] == (0, 0, 0, 0)
        outcomes.append(({(1,) * 4, (2,) * 4, (3,) * 4} - set(kept)).pop())
    return outcomes


def test_survivors_have_the_same_distribution() -> None:
    expected: dict[Hashable, float] = {(colour,) * 4: 1 / 3 for colour in (1, 2, 3)}
    evaluator = CountingEvaluator(4, 6)
    search = ConsistencySearch(
        CodeSpace(4, 6), SearchSettings(population_size=KEPT), evaluator, random.Random(4)
    )

    def deap(_: int) -> list[tuple[int, ...]]:
        chosen = search._survivors(individuals(POOL, POOL_DISTANCE))
        return [tuple(row) for row in codes_of(chosen).tolist()]

    generator = np.random.default_rng(4)

    def numpy(_: int) -> list[tuple[int, ...]]:
        kept = survivors(generator, POOL, np.array(POOL_DISTANCE), KEPT)
        return [tuple(row) for row in POOL[kept].tolist()]

    assert_fits(survivor_outcomes(deap), expected)
    assert_fits(survivor_outcomes(numpy), expected)


# -- whole games -----------------------------------------------------------------------------
CHEAP = {"population_size": 30, "mu": 30, "max_generations_without_new": 5}
"""Cheap settings on (4,6), so that thousands of games take minutes."""


def engine_games(search: str, games: int) -> tuple[list[int], list[int]]:
    space = CodeSpace(4, 6)
    player = make_player("archive", space, CHEAP | {"search": search})
    guesses, evaluations = [], []
    for i, secret in enumerate(space.sample(np.random.default_rng(17), games)):
        result = play_game(player, Codemaker(space, secret), np.random.default_rng([17, i]))
        assert result.solved
        assert result.stats.evaluations is not None
        guesses.append(result.n_guesses)
        evaluations.append(result.stats.evaluations)
    return guesses, evaluations


def assert_engines_agree(games: int) -> tuple[float, float]:
    """Mann–Whitney p-values of guesses and of evaluations, DEAP against numpy."""
    deap, numpy = engine_games("deap", games), engine_games("vectorised", games)
    p_values = tuple(
        float(mannwhitneyu(a, b, alternative="two-sided", use_continuity=True).pvalue)
        for a, b in zip(deap, numpy, strict=True)
    )
    assert min(p_values) > 0.01, p_values
    return p_values[0], p_values[1]


def test_the_two_engines_play_the_archive_alike() -> None:
    assert_engines_agree(300)


@pytest.mark.slow
def test_the_two_engines_play_the_archive_alike_over_thousands_of_games() -> None:
    assert_engines_agree(3000)

import numpy as np
import pytest

from evo_mastermind.evolution.eda import UnivariateEDA, make_toolbox
from evo_mastermind.evolution.individuals import assign_fitness, codes_of


def make_eda(smoothing: float = 0.0) -> UnivariateEDA:
    eda = UnivariateEDA(4, 6, 200, 0.5, smoothing, "f")
    eda.restart(np.random.default_rng(0))
    return eda


def test_first_generation_is_uniform_and_full_sized() -> None:
    eda = make_eda()
    population = eda.generate()
    assert len(population) == 200 and not any(ind.fitness.valid for ind in population)
    counts = np.bincount(codes_of(population).ravel(), minlength=6)
    assert counts.min() > 80  # 800 pegs, about 133 of each colour


def test_update_keeps_the_best_half_and_learns_their_frequencies() -> None:
    eda = make_eda()
    population = eda.generate()
    # Distance fitness: codes starting with colour 0 are the best.
    assign_fitness(population, [0.0 if ind[0] == 0 else 5.0 for ind in population])
    eda.update(population)
    assert eda.survivor_count == 100 and len(eda.survivors) == 100
    zeros = sum(ind[0] == 0 for ind in population)
    assert sum(ind[0] == 0 for ind in eda.survivors) == min(zeros, 100)
    assert eda.probabilities.sum(axis=1) == pytest.approx(np.ones(4))
    assert eda.probabilities[0, 0] == pytest.approx(min(zeros, 100) / 100)
    nxt = eda.generate()
    assert len(nxt) == 200 and nxt[:100] == eda.survivors


def test_smoothing_keeps_every_colour_possible() -> None:
    eda = make_eda(smoothing=0.06)
    population = eda.generate()
    assign_fitness(population, [0.0] * len(population))
    for individual in population:
        individual[:] = [2, 2, 2, 2]
    eda.update(population)
    assert eda.probabilities.min() == pytest.approx(0.01)
    assert eda.probabilities[:, 2] == pytest.approx(0.95)
    sample = eda.sample(20_000)
    assert set(np.unique(sample)) == set(range(6))


def test_sampling_follows_the_distribution_and_the_given_generator() -> None:
    eda = make_eda()
    eda.probabilities = np.tile([0.5, 0.5, 0, 0, 0, 0], (4, 1)).astype(float)
    sample = eda.sample(4000)
    assert set(np.unique(sample)) == {0, 1}
    assert abs(float(sample.mean()) - 0.5) < 0.03
    eda.restart(np.random.default_rng(5))
    first = eda.sample(10)
    eda.restart(np.random.default_rng(5))
    assert np.array_equal(first, eda.sample(10))


def test_toolbox_registers_generate_and_update() -> None:
    eda = make_eda()
    toolbox = make_toolbox(eda)
    population = toolbox.generate()
    assign_fitness(population, range(len(population)))
    toolbox.update(population)
    assert sorted(ind.fitness.values[0] for ind in eda.survivors) == list(range(100))
    eda.invalidate()
    assert not any(ind.fitness.valid for ind in eda.survivors)

import random
from typing import Any

from deap import algorithms, base, tools
from hypothesis import given
from hypothesis import strategies as st

from evo_mastermind.evolution.individuals import DistanceIndividual, assign_fitness, clone
from evo_mastermind.evolution.operators import (
    crossover,
    mutate,
    mutate_colour,
    select_tournament,
    swap_pegs,
    two_point_crossover,
    uniform_crossover,
    vary_and,
)

codes = st.integers(2, 10).flatmap(
    lambda colors: st.tuples(
        st.just(colors), st.lists(st.integers(0, colors - 1), min_size=1, max_size=12)
    )
)


@given(codes, st.integers(0, 2**32))
def test_mutate_colour_changes_exactly_one_peg_to_another_colour(
    code: tuple[int, list[int]], seed: int
) -> None:
    colors, genes = code
    (child,) = mutate_colour(DistanceIndividual(genes), colors, random.Random(seed))
    changed = [i for i, (a, b) in enumerate(zip(genes, child, strict=True)) if a != b]
    assert len(changed) == 1 and 0 <= child[changed[0]] < colors


@given(codes, st.integers(0, 2**32))
def test_swap_keeps_the_colours_and_moves_at_most_two_pegs(
    code: tuple[int, list[int]], seed: int
) -> None:
    _, genes = code
    (child,) = swap_pegs(DistanceIndividual(genes), random.Random(seed))
    assert sorted(child) == sorted(genes)
    assert sum(a != b for a, b in zip(genes, child, strict=True)) in (0, 2)


@given(codes, st.integers(0, 2**32))
def test_crossover_children_take_each_peg_from_a_parent(
    code: tuple[int, list[int]], seed: int
) -> None:
    colors, genes = code
    other = [(g + 1) % colors for g in genes]
    rng = random.Random(seed)
    first, second = crossover(DistanceIndividual(genes), DistanceIndividual(other), rng)
    for peg, (a, b) in enumerate(zip(first, second, strict=True)):
        assert {a, b} == {genes[peg], other[peg]}


def test_mutate_uses_both_operators() -> None:
    rng = random.Random(3)
    outcomes = set()
    for _ in range(200):
        (child,) = mutate(DistanceIndividual([0, 1, 2, 3]), 6, swap_probability=0.5, rng=rng)
        outcomes.add("swap" if sorted(child) == [0, 1, 2, 3] else "recolour")
    assert outcomes == {"swap", "recolour"}


# DEAP's helpers draw from the global `random`; ours from a generator, in the same order, so
# a generator seeded as the global one was gives the same individuals (and committed games
# played with DEAP's helpers replay exactly).


def population(seed: int, size: int = 12, pegs: int = 5) -> list[Any]:
    rng = random.Random(seed)
    individuals = [DistanceIndividual([rng.randrange(6) for _ in range(pegs)]) for _ in range(size)]
    assign_fitness(individuals, [float(rng.randrange(4)) for _ in individuals])
    return individuals


def with_global_seed(seed: int, draw: Any) -> Any:
    saved = random.getstate()
    random.seed(seed)
    try:
        return draw()
    finally:
        random.setstate(saved)


@given(st.integers(0, 2**32), st.integers(1, 8))
def test_crossovers_draw_as_deap_does(seed: int, pegs: int) -> None:
    a, b = population(seed, 2, pegs)
    ours = two_point_crossover(clone(a), clone(b), random.Random(seed)) if pegs > 1 else None
    if pegs > 1:
        theirs = with_global_seed(seed, lambda: tools.cxTwoPoint(clone(a), clone(b)))
        assert [list(x) for x in ours or ()] == [list(x) for x in theirs]
    ours_uniform = uniform_crossover(clone(a), clone(b), 0.5, random.Random(seed))
    theirs_uniform = with_global_seed(seed, lambda: tools.cxUniform(clone(a), clone(b), 0.5))
    assert [list(x) for x in ours_uniform] == [list(x) for x in theirs_uniform]


@given(st.integers(0, 2**32), st.integers(1, 4))
def test_tournament_selection_draws_as_deap_does(seed: int, size: int) -> None:
    individuals = population(seed)
    ours = select_tournament(individuals, 20, size, random.Random(seed))
    theirs = with_global_seed(seed, lambda: tools.selTournament(individuals, 20, size))
    assert [id(x) for x in ours] == [id(x) for x in theirs]


@given(st.integers(0, 2**32))
def test_variation_draws_as_deap_does(seed: int) -> None:
    individuals = population(seed)

    def toolbox(rng: random.Random | None) -> base.Toolbox:
        box = base.Toolbox()
        box.register("clone", clone)
        if rng is None:  # DEAP's own operators and the global `random`
            box.register("mate", tools.cxTwoPoint)
            box.register("mutate", tools.mutUniformInt, low=0, up=5, indpb=0.3)
        else:
            box.register("mate", two_point_crossover, rng=rng)
            box.register("mutate", deap_uniform_int, rng=rng)
        return box

    rng = random.Random(seed)
    ours = vary_and(individuals, toolbox(rng), 0.5, 0.8, rng)
    theirs = with_global_seed(seed, lambda: algorithms.varAnd(individuals, toolbox(None), 0.5, 0.8))
    assert [list(x) for x in ours] == [list(x) for x in theirs]
    assert [x.fitness.valid for x in ours] == [x.fitness.valid for x in theirs]


def deap_uniform_int(individual: Any, rng: random.Random) -> tuple[Any]:
    """``tools.mutUniformInt(low=0, up=5, indpb=0.3)`` drawing from ``rng``."""
    for peg in range(len(individual)):
        if rng.random() < 0.3:
            individual[peg] = rng.randint(0, 5)
    return (individual,)

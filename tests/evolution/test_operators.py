import random

from hypothesis import given
from hypothesis import strategies as st

from evo_mastermind.evolution.individuals import DistanceIndividual
from evo_mastermind.evolution.operators import crossover, mutate, mutate_colour, swap_pegs

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
    random.seed(seed)
    (child,) = mutate_colour(DistanceIndividual(genes), colors)
    changed = [i for i, (a, b) in enumerate(zip(genes, child, strict=True)) if a != b]
    assert len(changed) == 1 and 0 <= child[changed[0]] < colors


@given(codes, st.integers(0, 2**32))
def test_swap_keeps_the_colours_and_moves_at_most_two_pegs(
    code: tuple[int, list[int]], seed: int
) -> None:
    _, genes = code
    random.seed(seed)
    (child,) = swap_pegs(DistanceIndividual(genes))
    assert sorted(child) == sorted(genes)
    assert sum(a != b for a, b in zip(genes, child, strict=True)) in (0, 2)


@given(codes, st.integers(0, 2**32))
def test_crossover_children_take_each_peg_from_a_parent(
    code: tuple[int, list[int]], seed: int
) -> None:
    colors, genes = code
    other = [(g + 1) % colors for g in genes]
    random.seed(seed)
    first, second = crossover(DistanceIndividual(genes), DistanceIndividual(other))
    for peg, (a, b) in enumerate(zip(first, second, strict=True)):
        assert {a, b} == {genes[peg], other[peg]}


def test_mutate_uses_both_operators() -> None:
    random.seed(3)
    outcomes = set()
    for _ in range(200):
        (child,) = mutate(DistanceIndividual([0, 1, 2, 3]), 6, swap_probability=0.5)
        outcomes.add("swap" if sorted(child) == [0, 1, 2, 3] else "recolour")
    assert outcomes == {"swap", "recolour"}

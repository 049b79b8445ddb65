import numpy as np
import pytest

from evo_mastermind.codes import CodeSpace
from evo_mastermind.evolution.archive import Archive
from evo_mastermind.evolution.fitness import CountingEvaluator
from evo_mastermind.evolution.neighbourhood import (
    arrangements,
    distinct_rows,
    hamming_offsets,
    neighbourhood_size,
    neighbours,
    scan_around,
)
from evo_mastermind.scoring import score, score_codes

SPACE = CodeSpace(4, 6)


@pytest.mark.parametrize(("pegs", "colors", "radius"), [(4, 6, 1), (4, 6, 2), (5, 8, 2), (3, 3, 3)])
def test_hamming_balls_hold_each_code_at_distance_one_to_radius_once(
    pegs: int, colors: int, radius: int
) -> None:
    offsets = hamming_offsets(pegs, colors, radius)
    assert offsets.shape == (neighbourhood_size(pegs, colors, radius), pegs)
    centre = CodeSpace(pegs, colors).sample(np.random.default_rng(0), 1)
    ball = neighbours(centre, colors, offsets)
    distances = (ball != centre).sum(axis=1)
    assert distances.min() == 1 and distances.max() == radius
    assert distinct_rows(ball).shape[0] == ball.shape[0]
    assert ball.max() < colors


def test_arrangements_are_the_distinct_orders_of_a_codes_colours() -> None:
    code = SPACE.parse("AABC")
    orders = arrangements(code, np.random.default_rng(0))
    assert orders.shape[0] == 12  # 4! / 2!
    assert all(sorted(row) == sorted(code) for row in orders.tolist())
    long = CodeSpace(12, 12).parse("ABCDEFGHIJKL")
    sampled = arrangements(long, np.random.default_rng(0))  # beyond 8 pegs: a random sample
    assert 1000 < sampled.shape[0] <= 20_000
    assert (np.sort(sampled, axis=1) == np.sort(long)).all()


def test_distinct_rows_keeps_first_occurrences_in_order() -> None:
    codes = np.array([[1, 2], [0, 0], [1, 2], [3, 3], [0, 0]], np.uint8)
    assert distinct_rows(codes).tolist() == [[1, 2], [0, 0], [3, 3]]


def test_scan_completes_a_small_consistent_set_from_one_member() -> None:
    secret, guesses = "ABBC", ["AABB", "ACDE", "FFDA"]
    evaluator = CountingEvaluator(4, 6)
    for guess in guesses:
        evaluator.history.add(SPACE.parse(guess), score(guess, secret))
    everything = SPACE.all_codes
    keep = np.ones(SPACE.size, dtype=bool)
    for guess in guesses:
        keep &= score_codes(SPACE.parse(guess), everything, 6) == score(guess, secret).pack(4)
    consistent = everything[keep]
    archive = Archive(4, capacity=100)
    archive.offer(consistent[:1])
    batches = scan_around(
        archive, evaluator, np.random.default_rng(0), 10_000, radius=2, rearrange=True
    )
    assert {SPACE.format(c) for c in archive.codes} == {SPACE.format(c) for c in consistent}
    assert evaluator.evaluations == sum(batch.shape[0] for batch in batches) > 0


def test_scan_respects_its_budget() -> None:
    evaluator = CountingEvaluator(4, 6)
    evaluator.history.add(SPACE.parse("AABB"), score("AABB", "CDEF"))
    archive = Archive(4, capacity=1000)
    archive.offer(np.stack([SPACE.parse("CDEF")]))
    scan_around(archive, evaluator, np.random.default_rng(0), 50, radius=2)
    assert evaluator.evaluations == 50


def test_scan_widens_its_radius_only_while_every_ball_fits_the_budget() -> None:
    evaluator = CountingEvaluator(4, 6)
    evaluator.history.add(SPACE.parse("AABB"), score("AABB", "CDEF"))
    one, two = neighbourhood_size(4, 6, 1), neighbourhood_size(4, 6, 2)
    wide = Archive(4, capacity=1000)
    wide.offer(np.stack([SPACE.parse("CDEF")]))
    first = scan_around(wide, evaluator, np.random.default_rng(0), two, radius=2)
    assert first[0].shape[0] == two  # the whole radius-2 ball
    narrow = Archive(4, capacity=1000)
    narrow.offer(np.stack([SPACE.parse("CDEF")]))
    first = scan_around(narrow, evaluator, np.random.default_rng(0), two - 1, radius=2)
    assert first[0].shape[0] == one  # radius 1: the ball of radius 2 did not fit

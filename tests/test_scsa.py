from fractions import Fraction
from math import comb

import numpy as np
import numpy.typing as npt
import pytest

from evo_mastermind.codes import Codes, CodeSpace, InvalidGameError
from evo_mastermind.scsa import SCSAS, UnknownSCSAError, draw_secrets

DRAWS = 20_000


def draw(name: str, pegs: int, colors: int, seed: int = 7, n: int = DRAWS) -> Codes:
    return draw_secrets(name, CodeSpace(pegs, colors), np.random.default_rng(seed), n)


def distinct_counts(codes: Codes, colors: int) -> npt.NDArray[np.int64]:
    """How many codes use exactly j distinct colours, for j = 0..colors."""
    present = np.zeros((codes.shape[0], colors), dtype=bool)
    present[np.arange(codes.shape[0])[:, None], codes] = True
    return np.bincount(present.sum(axis=1), minlength=colors + 1)


def distinct_law(pegs: int, k: int, colors: int) -> list[Fraction]:
    """P(a code uses exactly j distinct colours), pegs uniform over k colours, j = 0..colors."""
    law = [Fraction(0)] * (colors + 1)
    for j in range(1, min(k, pegs) + 1):
        onto = sum((-1) ** i * comb(j, i) * (j - i) ** pegs for i in range(j + 1))
        law[j] = Fraction(comb(k, j) * onto, k**pegs)
    return law


def mixture(weights: dict[int, float], pegs: int, colors: int) -> npt.NDArray[np.float64]:
    total = np.zeros(colors + 1)
    for k, weight in weights.items():
        total += weight * np.array([float(p) for p in distinct_law(pegs, k, colors)])
    return total


def assert_frequencies(observed: npt.NDArray[np.int64], expected: npt.NDArray[np.float64]) -> None:
    """Every cell within five standard errors of its expected share (plus one count)."""
    n = observed.sum()
    slack = 5 * np.sqrt(n * expected * (1 - expected)) + 1
    assert np.all(np.abs(observed - n * expected) <= slack), (observed, n * expected)


def assert_uniform_per_peg(codes: Codes, colors: int) -> None:
    for peg in range(codes.shape[1]):
        counts = np.bincount(codes[:, peg], minlength=colors)
        assert_frequencies(counts, np.full(colors, 1 / colors))


@pytest.mark.parametrize("name", sorted(SCSAS))
@pytest.mark.parametrize(("pegs", "colors"), [(4, 6), (8, 10), (26, 26)])
def test_codes_have_the_right_shape_range_and_replay_from_the_seed(
    name: str, pegs: int, colors: int
) -> None:
    codes = draw(name, pegs, colors, n=200)
    assert codes.shape == (200, pegs) and codes.dtype == np.uint8
    assert int(codes.max()) < colors
    assert np.array_equal(codes, draw(name, pegs, colors, n=200))
    assert not np.array_equal(codes, draw(name, pegs, colors, seed=8, n=200))


def test_insert_colors_is_uniform_on_every_peg_and_independent_across_pegs() -> None:
    codes = draw("insert_colors", 5, 7)
    assert_uniform_per_peg(codes, 7)
    assert_frequencies(distinct_counts(codes, 7), mixture({7: 1.0}, 5, 7))


def test_two_color_uses_at_most_two_colours_each_uniform_and_sometimes_one() -> None:
    codes = draw("two_color", 6, 9)
    counts = distinct_counts(codes, 9)
    assert counts[3:].sum() == 0
    assert_frequencies(counts, mixture({2: 1.0}, 6, 9))  # P(one colour) = 2 / 2**6
    assert_uniform_per_peg(codes, 9)


def test_ab_color_is_a_fair_coin_over_a_and_b_on_every_peg() -> None:
    codes = draw("ab_color", 8, 10)
    assert int(codes.max()) <= 1
    assert_uniform_per_peg(codes, 2)
    assert_frequencies(distinct_counts(codes, 2), mixture({2: 1.0}, 8, 2))


def test_two_color_alternating_alternates_two_distinct_uniform_colours() -> None:
    codes = draw("two_color_alternating", 7, 5)
    assert np.all(codes[:, 0] != codes[:, 1])
    assert np.array_equal(codes[:, 0::2], np.repeat(codes[:, :1], 4, axis=1))
    assert np.array_equal(codes[:, 1::2], np.repeat(codes[:, 1:2], 3, axis=1))
    pairs = np.bincount(codes[:, 0].astype(int) * 5 + codes[:, 1], minlength=25)
    expected = np.array([0.0 if a == b else 1 / 20 for a in range(5) for b in range(5)])
    assert_frequencies(pairs, expected)


def test_only_once_never_repeats_a_colour_and_is_uniform_per_peg() -> None:
    codes = draw("only_once", 6, 8)
    assert np.all(distinct_counts(codes, 8)[:6] == 0)
    assert_uniform_per_peg(codes, 8)
    square = draw("only_once", 26, 26, n=50)
    assert np.all(np.sort(square, axis=1) == np.arange(26))


def test_only_once_refuses_more_pegs_than_colours() -> None:
    with pytest.raises(InvalidGameError, match=r"only_once.*7 colours for 8 pegs"):
        draw("only_once", 8, 7)


def test_first_and_last_copies_the_first_peg_and_is_uniform_elsewhere() -> None:
    codes = draw("first_and_last", 5, 6)
    assert np.array_equal(codes[:, 0], codes[:, -1])
    assert_uniform_per_peg(codes, 6)
    # The first four pegs are independent: their distinct-colour law is that of 4 free pegs.
    assert_frequencies(distinct_counts(codes[:, :4], 6), mixture({6: 1.0}, 4, 6))


def test_usually_fewer_draws_two_or_three_colours_nine_times_in_ten() -> None:
    codes = draw("usually_fewer", 10, 8)
    law = mixture({2: 0.45, 3: 0.45, 8: 0.10}, 10, 8)
    assert_frequencies(distinct_counts(codes, 8), law)
    assert_uniform_per_peg(codes, 8)
    # A draw of 0.8 instead of 0.9 would put about 0.2 of the codes above three colours.
    assert 0.09 < float((distinct_counts(codes, 8)[4:]).sum() / DRAWS) < 0.11


def test_usually_fewer_on_two_colours_caps_three_at_two() -> None:
    codes = draw("usually_fewer", 6, 2)
    assert_frequencies(distinct_counts(codes, 2), mixture({2: 1.0}, 6, 2))


def test_prefer_fewer_follows_the_published_k_law() -> None:
    colors = 10
    weights = {1: 0.50, 2: 0.25, 3: 0.13, 4: 0.08, 5: 0.03}
    weights.update({k: 0.01 / 5 for k in range(6, 11)})
    codes = draw("prefer_fewer", 12, colors, n=40_000)
    assert_frequencies(distinct_counts(codes, colors), mixture(weights, 12, colors))
    assert_uniform_per_peg(codes, colors)


def test_prefer_fewer_caps_k_at_the_number_of_colours() -> None:
    codes = draw("prefer_fewer", 8, 3)
    weights = {1: 0.50, 2: 0.25, 3: 0.25}
    assert_frequencies(distinct_counts(codes, 3), mixture(weights, 8, 3))


def test_unknown_names_and_bad_counts_are_clear_errors() -> None:
    with pytest.raises(UnknownSCSAError, match=r"'insert_colour'.*known SCSAs: ab_color"):
        draw("insert_colour", 4, 6)
    with pytest.raises(InvalidGameError, match="number of secrets"):
        draw("ab_color", 4, 6, n=-1)
    assert draw("ab_color", 4, 6, n=0).shape == (0, 4)

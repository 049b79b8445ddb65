from collections import Counter

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import evo_mastermind
from evo_mastermind.codes import CodeSpace, color_counts
from evo_mastermind.scoring import (
    Response,
    indexed_scorer,
    response_matrix,
    response_table,
    score,
    score_codes,
)


def reference_score(guess: str, secret: str) -> tuple[int, int]:
    """The plain textbook rule, written independently of the vectorised code."""
    black = sum(g == s for g, s in zip(guess, secret, strict=True))
    common = sum((Counter(guess) & Counter(secret)).values())
    return black, common - black


@st.composite
def code_pairs(draw: st.DrawFn) -> tuple[str, str]:
    pegs = draw(st.integers(1, 26))
    colors = draw(st.integers(2, 26))
    letters = st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZ"[:colors])
    guess = "".join(draw(st.lists(letters, min_size=pegs, max_size=pegs)))
    secret = "".join(draw(st.lists(letters, min_size=pegs, max_size=pegs)))
    return guess, secret


def test_public_example() -> None:
    assert evo_mastermind.score("AABB", "ABBC") == (2, 1)
    assert score("ABBC", "AABB") == Response(2, 1)


@given(code_pairs())
def test_agrees_with_reference_and_is_symmetric(pair: tuple[str, str]) -> None:
    guess, secret = pair
    assert score(guess, secret) == reference_score(guess, secret)
    assert score(guess, secret) == score(secret, guess)


@given(code_pairs())
def test_black_plus_white_at_most_pegs_and_only_self_scores_all_black(
    pair: tuple[str, str],
) -> None:
    guess, secret = pair
    black, white = score(guess, secret)
    assert black + white <= len(guess)
    assert (black == len(guess)) == (guess == secret)
    assert score(guess, guess) == (len(guess), 0)


@given(code_pairs())
def test_vectorised_forms_agree_with_reference(pair: tuple[str, str]) -> None:
    guess, secret = pair
    colors = max(ord(ch) for ch in guess + secret) - ord("A") + 1
    space = CodeSpace(len(guess), max(colors, 2))
    codes = np.stack([space.parse(secret), space.parse(guess)])
    black, white = reference_score(guess, secret)
    packed = score_codes(space.parse(guess), codes, space.colors)
    assert packed[0] == Response(black, white).pack(space.pegs)
    assert packed[1] == Response(space.pegs, 0).pack(space.pegs)
    matrix = response_matrix(codes, codes, space.colors)
    assert matrix[1, 0] == matrix[0, 1] == packed[0]


def test_response_table_matches_on_demand_scoring() -> None:
    space = CodeSpace(4, 6)
    scorer = indexed_scorer(space)
    assert scorer.has_table
    rng = np.random.default_rng(0)
    guesses = rng.integers(0, space.size, 50)
    candidates = np.sort(rng.choice(space.size, 300, replace=False))
    expected = response_matrix(space.all_codes[guesses], space.all_codes[candidates], space.colors)
    np.testing.assert_array_equal(scorer.matrix(guesses, candidates), expected)
    np.testing.assert_array_equal(scorer.responses(int(guesses[0]), candidates), expected[0])


def test_large_enumerable_space_scores_without_a_table() -> None:
    space = CodeSpace(5, 8)
    scorer = indexed_scorer(space)
    assert not scorer.has_table
    candidates = np.arange(0, space.size, 97)
    row = scorer.responses(123, candidates)
    assert row.tolist() == [
        Response(*score(space.format(space.all_codes[123]), space.format(space.all_codes[c]))).pack(
            5
        )
        for c in candidates
    ]
    np.testing.assert_array_equal(scorer.matrix(None, candidates[:3])[123], row[:3])


def test_response_packing_round_trips() -> None:
    for black in range(5):
        for white in range(5 - black):
            assert Response.unpack(Response(black, white).pack(4), 4) == (black, white)


@pytest.mark.parametrize(("pegs", "colors"), [(1, 2), (2, 26), (3, 5), (4, 6), (5, 4), (12, 2)])
def test_response_table_equals_pair_by_pair_scoring(pegs: int, colors: int) -> None:
    space = CodeSpace(pegs, colors)
    codes = space.all_codes
    table = response_table(space, color_counts(codes, colors))
    np.testing.assert_array_equal(table, response_matrix(codes, codes, colors))

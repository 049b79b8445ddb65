"""The colour-count check: every multiset of colours once, and answers narrowing them."""

import math

import numpy as np

from evo_mastermind.codes import CodeSpace
from evo_mastermind.colour_counts import ColourCountCheck, count_vector_total, count_vectors
from evo_mastermind.game import Codemaker


def test_count_vectors_are_every_multiset_once() -> None:
    space = CodeSpace(4, 6)
    vectors = count_vectors(space)
    assert len(vectors) == count_vector_total(space) == math.comb(9, 5) == 126
    assert (vectors.sum(axis=1) == 4).all()
    assert len({tuple(row) for row in vectors.tolist()}) == 126
    # The same as the distinct colour counts of the listed codes.
    listed = {tuple(np.bincount(code, minlength=6)) for code in space.all_codes.tolist()}
    assert listed == {tuple(row) for row in vectors.tolist()}


def test_truthful_answers_always_agree_and_the_secrets_counts_survive() -> None:
    space = CodeSpace(10, 10)
    rng = np.random.default_rng(3)
    secret = space.sample(rng, 1)[0]
    check = ColourCountCheck(space)
    for guess in space.sample(rng, 12):
        response = Codemaker(space, secret).respond(guess)
        assert check.agrees(guess, response.black, response.white)
    assert check._vectors is not None
    assert tuple(np.bincount(secret, minlength=10)) in {tuple(r) for r in check._vectors.tolist()}


def test_a_lie_in_the_colours_is_caught_and_not_recorded() -> None:
    space = CodeSpace(10, 10)
    check = ColourCountCheck(space)
    assert check.agrees(np.zeros(10, dtype=np.uint8), 0, 0)  # no A in the secret
    assert not check.agrees(np.zeros(10, dtype=np.uint8), 1, 0)  # now one A: contradiction
    assert check.agrees(np.zeros(10, dtype=np.uint8), 0, 0)  # the refused answer was not kept


def test_too_many_mixes_are_not_checked() -> None:
    check = ColourCountCheck(CodeSpace(20, 20))
    assert not check.checkable and check.agrees(np.zeros(20, dtype=np.uint8), 20, 0)

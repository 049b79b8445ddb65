"""The responses kernels against the numpy definitions of responses and layouts."""

import numpy as np
import pytest

from evo_mastermind.codes import CodeSpace
from evo_mastermind.kernels.responses import columns, responses
from evo_mastermind.scoring import indexed_scorer, response_matrix


@pytest.mark.parametrize(("pegs", "colors"), [(5, 8), (16, 2)])
def test_responses_match_the_reference(pegs: int, colors: int) -> None:
    space = CodeSpace(pegs, colors)
    scorer = indexed_scorer(space)
    candidates = np.arange(0, space.size, 97, dtype=np.int64)
    got = responses(scorer.codes, scorer.counts, 123, candidates)
    expected = response_matrix(space.all_codes[[123]], space.all_codes[candidates], colors)[0]
    np.testing.assert_array_equal(got, expected)


def test_columns_are_the_codes_transposed() -> None:
    space = CodeSpace(4, 6)
    scorer = indexed_scorer(space)
    some = np.array([5, 0, 1295, 77], dtype=np.int64)
    pegs, counts = columns(scorer.codes, scorer.counts, some)
    np.testing.assert_array_equal(pegs, space.all_codes[some].T)
    np.testing.assert_array_equal(counts, scorer.counts[some].T)

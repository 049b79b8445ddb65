"""The symmetry kernels: colour kinds compiled and interpreted, classes against brute force."""

import itertools

import numpy as np
import pytest

from evo_mastermind.codes import CodeSpace
from evo_mastermind.kernels.symmetry import (
    _colour_kinds_serial,
    _representatives,
    canonical_codes,
    colour_kinds,
)


@pytest.mark.parametrize("colors", [3, 6])
def test_compiled_colour_kinds_equal_the_python_definition(colors: int) -> None:
    for present, played in itertools.product(range(1 << colors), repeat=2):
        python, compiled = np.empty(colors, np.int64), np.empty(colors, np.int64)
        assert colour_kinds(present, played, python) == _colour_kinds_serial(
            present, played, compiled
        )
        np.testing.assert_array_equal(python, compiled)


def test_canonical_codes_group_exactly_the_relabelled_codes() -> None:
    space = CodeSpace(3, 5)
    kind = np.array([0, 1, 1, 2, 2], dtype=np.int64)  # A stays; B, C free; D, E zero
    of_code, first = canonical_codes(space.all_codes, kind, space.place_values)
    # Brute force: a code's class is the set of its images under every allowed relabelling.
    images: dict[int, set[int]] = {}
    for swap_free in (False, True):
        for zero_to in (3, 4):
            mapping = np.array(
                [0, 2, 1, zero_to, zero_to] if swap_free else [0, 1, 2, zero_to, zero_to]
            )
            for i, code in enumerate(space.all_codes):
                images.setdefault(i, set()).add(int(space.index(mapping[code])))
    for i in range(space.size):
        # Codes are alike when some relabelling takes both to one code.
        mates = {j for j in range(space.size) if images[i] & images[j]}
        assert set(np.flatnonzero(of_code == of_code[i]).tolist()) == mates
    assert first.tolist() == sorted(first.tolist())
    assert [int(of_code[f]) for f in first] == list(range(first.size))


@pytest.mark.parametrize(("pegs", "colors"), [(3, 5), (4, 6), (5, 4)])
def test_listed_representatives_are_the_first_codes_of_the_classes(pegs: int, colors: int) -> None:
    space = CodeSpace(pegs, colors)
    # Every choice of kinds: colours that stay, free colours, zero colours.
    for kind in itertools.product((0, 1, 2), repeat=colors):
        kinds = np.array(kind, dtype=np.int64)
        _, first = canonical_codes(space.all_codes, kinds, space.place_values)
        assert _representatives(kinds, pegs, space.place_values).tolist() == first.tolist()

import numpy as np
import pytest

from evo_mastermind.codes import CodeSpace
from evo_mastermind.partitions import partition_counts
from evo_mastermind.scoring import indexed_scorer
from evo_mastermind.symmetry import CodeClasses, colour_classes, multiplicity_classes

SPACE = CodeSpace(4, 6)


def unplayed_colour_classes(space: CodeSpace, played: frozenset[int]) -> CodeClasses | None:
    """Codes equal up to a relabelling of the colours outside ``played`` (no zero colours)."""
    return colour_classes(space, played, frozenset())


def consistent_with(played: list[str], secret: str) -> np.ndarray:
    """Indices of the codes consistent with the responses ``secret`` gives to ``played``."""
    scorer = indexed_scorer(SPACE)
    keep = np.ones(SPACE.size, dtype=bool)
    target = SPACE.index(SPACE.parse(secret))
    for text in played:
        guess = SPACE.index(SPACE.parse(text))
        keep &= scorer.table[guess] == scorer.table[guess, target]
    return np.flatnonzero(keep)


def test_after_aabb_the_four_unplayed_colours_leave_151_classes() -> None:
    classes = unplayed_colour_classes(SPACE, frozenset({0, 1}))
    assert classes is not None
    assert classes.representatives.size == 151
    # CCCC, DDDD, EEEE and FFFF are one class; its representative is the first, CCCC.
    members = [SPACE.index(SPACE.parse(c)) for c in ("CCCC", "DDDD", "EEEE", "FFFF")]
    assert len(set(classes.of_code[members].tolist())) == 1
    assert classes.representatives[classes.of_code[members[0]]] == members[0]
    assert classes.of_code[SPACE.index(SPACE.parse("AACC"))] != classes.of_code[members[0]]


def test_representatives_are_the_first_member_of_their_class() -> None:
    classes = unplayed_colour_classes(SPACE, frozenset({0, 2, 3}))
    assert classes is not None
    firsts = [np.flatnonzero(classes.of_code == k)[0] for k in range(classes.representatives.size)]
    assert classes.representatives.tolist() == firsts


def test_no_classes_when_fewer_than_two_colours_are_unplayed() -> None:
    assert unplayed_colour_classes(SPACE, frozenset({0, 1, 2, 3, 4})) is None


@pytest.mark.parametrize(
    ("played", "secret"), [(["AABB"], "CDEF"), (["AABC", "CDDA"], "BCAD"), (["ABCD"], "DDDA")]
)
def test_members_of_a_class_split_the_consistent_set_alike(played: list[str], secret: str) -> None:
    scorer = indexed_scorer(SPACE)
    consistent = consistent_with(played, secret)
    counts = partition_counts(scorer.matrix(None, consistent), SPACE.n_responses)
    colours = frozenset(colour for text in played for colour in SPACE.parse(text).tolist())
    classes = unplayed_colour_classes(SPACE, colours)
    assert classes is not None
    np.testing.assert_array_equal(counts, counts[classes.representatives][classes.of_code])


def test_empty_board_classes_are_colour_multiplicities() -> None:
    classes = multiplicity_classes(SPACE)
    assert classes.representatives.size == 5  # AAAA, AAAB, AABB, AABC, ABCD
    same = [SPACE.index(SPACE.parse(c)) for c in ("AABB", "DCDC", "FEEF")]
    assert len(set(classes.of_code[same].tolist())) == 1


@pytest.mark.parametrize(
    ("played", "secret"), [(["ABCD"], "ABCD"), (["AABB", "CCDD"], "ABCD"), (["ABCD"], "DCBA")]
)
def test_zero_colours_are_interchangeable_at_any_peg(played: list[str], secret: str) -> None:
    scorer = indexed_scorer(SPACE)
    consistent = consistent_with(played, secret)
    counts = partition_counts(scorer.matrix(None, consistent), SPACE.n_responses)
    colours = frozenset(colour for text in played for colour in SPACE.parse(text).tolist())
    present = scorer.counts[consistent].any(axis=0)
    zero = frozenset(np.flatnonzero(~present).tolist())
    assert zero  # the responses rule colours out, so the zero classes are exercised
    classes = colour_classes(SPACE, colours, zero)
    assert classes is not None
    unplayed = unplayed_colour_classes(SPACE, colours)
    size = SPACE.size if unplayed is None else unplayed.representatives.size
    assert classes.representatives.size < size
    np.testing.assert_array_equal(counts, counts[classes.representatives][classes.of_code])
    firsts = [np.flatnonzero(classes.of_code == k)[0] for k in range(classes.representatives.size)]
    assert classes.representatives.tolist() == firsts

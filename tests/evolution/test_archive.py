import numpy as np

from evo_mastermind.codes import CodeSpace
from evo_mastermind.evolution.archive import Archive, outside
from evo_mastermind.scoring import score

SPACE = CodeSpace(4, 6)


def codes(*texts: str) -> np.ndarray:
    return np.stack([SPACE.parse(text) for text in texts])


def test_archive_keeps_distinct_codes_up_to_its_capacity() -> None:
    archive = Archive(4, capacity=3)
    assert archive.offer(codes("ABCD", "ABCD", "BBBB")) == 2
    assert archive.offer(codes("BBBB", "CCCC", "DDDD")) == 1
    assert archive.full and len(archive) == 3
    assert [SPACE.format(c) for c in archive.codes] == ["ABCD", "BBBB", "CCCC"]
    archive.clear()
    assert len(archive) == 0 and archive.codes.shape == (0, 4)


def test_archive_keeps_only_members_consistent_with_a_response() -> None:
    archive = Archive(4, capacity=10)
    archive.offer(codes("ABBC", "ABCD", "BBBB", "ABCB"))
    response = score("AABB", "ABBC")
    archive.keep_consistent(SPACE.parse("AABB"), response.pack(4), 6)
    kept = [SPACE.format(c) for c in archive.codes]
    assert kept == [c for c in ["ABBC", "ABCD", "BBBB", "ABCB"] if score("AABB", c) == response]
    assert archive.offer(codes("ABCD")) == ("ABCD" not in kept)


def test_outside_marks_codes_not_excluded() -> None:
    assert outside(codes("ABCD", "AAAA", "BBBB"), codes("AAAA")).tolist() == [True, False, True]
    assert outside(codes("ABCD"), np.zeros((0, 4), np.uint8)).tolist() == [True]

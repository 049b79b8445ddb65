import numpy as np
import pytest

from evo_mastermind.codes import CodeSpace, InvalidGameError, SpaceTooLargeError, color_counts


def test_all_codes_are_in_lexicographic_order_and_indexed_by_position() -> None:
    space = CodeSpace(3, 4)
    codes = space.all_codes
    assert codes.shape == (64, 3)
    texts = [space.format(code) for code in codes]
    assert texts == sorted(texts)
    assert texts[0] == "AAA" and texts[-1] == "DDD"
    assert space.index(space.parse("BCA")) == texts.index("BCA")
    np.testing.assert_array_equal(space.indices(codes), np.arange(64))


def test_parse_and_format_round_trip_up_to_26_by_26() -> None:
    space = CodeSpace(26, 26)
    text = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    assert space.format(space.parse(text)) == text
    assert space.parse("azaz" * 6 + "zz").max() == 25


@pytest.mark.parametrize(
    ("pegs", "colors", "message"),
    [
        (0, 6, "pegs must be between 1 and 64, got 0"),
        (4, 1, "colors must be between 2 and 26, got 1"),
        (4, 27, "colors must be between 2 and 26, got 27"),
        (4.5, 6, "pegs must be a whole number"),
    ],
)
def test_impossible_sizes_name_the_bad_value(pegs: object, colors: object, message: str) -> None:
    with pytest.raises(InvalidGameError, match=message):
        CodeSpace(pegs, colors)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("AAB", "has 3 letters; this game has 4 pegs"),
        ("AABG", "uses 'G'; this game has 6 colours, A to F"),
        ("AA1B", "uses '1'"),
    ],
)
def test_bad_codes_are_named(text: str, message: str) -> None:
    with pytest.raises(InvalidGameError, match=message):
        CodeSpace(4, 6).parse(text)


def test_listing_a_huge_space_is_refused_clearly() -> None:
    space = CodeSpace(8, 12)
    assert space.size == 12**8 and not space.enumerable
    with pytest.raises(SpaceTooLargeError, match=r"\(8,12\) has 429,981,696 codes"):
        _ = space.all_codes


def test_sampling_is_uniform_over_colours_and_works_for_any_size() -> None:
    space = CodeSpace(26, 26)
    sample = space.sample(np.random.default_rng(3), 2000)
    assert sample.shape == (2000, 26)
    frequencies = np.bincount(sample.ravel(), minlength=26) / sample.size
    assert np.all(np.abs(frequencies - 1 / 26) < 0.005)


def test_first_guess_patterns_keep_their_shape_at_every_size() -> None:
    assert CodeSpace(4, 6).format(CodeSpace(4, 6).patterned_code("aabc")) == "AABC"
    assert CodeSpace(5, 8).format(CodeSpace(5, 8).patterned_code("aabc")) == "AABCD"
    assert CodeSpace(6, 9).format(CodeSpace(6, 9).patterned_code("aabb")) == "AABBCC"
    assert CodeSpace(5, 2).format(CodeSpace(5, 2).patterned_code("aabc")) == "AABAB"


def test_color_counts() -> None:
    space = CodeSpace(4, 6)
    counts = color_counts(np.stack([space.parse("AABC"), space.parse("FFFF")]), 6)
    np.testing.assert_array_equal(counts, [[2, 1, 1, 0, 0, 0], [0, 0, 0, 0, 0, 4]])

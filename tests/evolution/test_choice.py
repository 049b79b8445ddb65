import numpy as np
import pytest

from evo_mastermind.codes import CodeSpace
from evo_mastermind.evolution.choice import (
    RemainingGuesses,
    choose_guess,
    expected_guesses,
    lookahead_scores,
)
from evo_mastermind.heuristics import known_heuristic
from evo_mastermind.partitions import partition_counts
from evo_mastermind.scoring import response_matrix, score_codes

SPACE = CodeSpace(4, 6)


def codes(*texts: str) -> np.ndarray:
    return np.stack([SPACE.parse(text) for text in texts])


def consistent_set(secret: str, guesses: list[str]) -> np.ndarray:
    everything = SPACE.all_codes
    keep = np.ones(SPACE.size, dtype=bool)
    for guess in guesses:
        wanted = score_codes(SPACE.parse(guess), SPACE.parse(secret)[None, :], 6)[0]
        keep &= score_codes(SPACE.parse(guess), everything, 6) == wanted
    return everything[keep]


def test_one_or_two_candidates_play_a_member() -> None:
    rng = np.random.default_rng(0)
    for archive in (codes("ABCD"), codes("ABCD", "DCBA")):
        guess, consistent = choose_guess(archive, codes("EEFF"), "entropy", 6, rng)
        assert consistent and any((guess == member).all() for member in archive)


@pytest.mark.parametrize("heuristic", ["entropy", "most_parts", "expected_size", "worst_case"])
def test_partition_heuristic_picks_a_best_scoring_member(heuristic: str) -> None:
    archive = consistent_set("ABBC", ["AABB", "ACDE"])
    guess, consistent = choose_guess(archive, None, heuristic, 6, np.random.default_rng(1))
    scores = known_heuristic(heuristic).score(
        partition_counts(response_matrix(archive, archive, 6), 25)
    )
    chosen = int(np.flatnonzero((archive == guess).all(axis=1))[0])
    assert consistent and scores[chosen] == pytest.approx(scores.max())


def test_all_codes_play_may_pick_a_better_splitter_outside_the_archive() -> None:
    # Three candidates that no member separates: a code from the pool splits them all.
    archive = codes("AAAB", "AAAC", "AAAD")
    assert len(set(score_codes(archive[0], archive, 6).tolist())) == 2
    guess, consistent = choose_guess(
        archive, codes("FFBC"), "most_parts", 6, np.random.default_rng(0)
    )
    # Every member splits the three into two parts and may win; FFBC splits into three parts.
    assert not consistent and SPACE.format(guess) == "FFBC"


def test_expected_guesses_counts_the_immediate_win_of_a_candidate() -> None:
    archive = codes("AAAB", "AAAC", "AAAD")
    curve = RemainingGuesses()
    # A member splitting the others apart: 1 + (1 + 1) / 3; a non-member splitting all: 1 + 1.
    splitter = codes("FFBC")
    responses = response_matrix(np.concatenate([codes("AAAB"), splitter]), archive, 6)
    member_value, outsider_value = expected_guesses(responses, 4, curve).tolist()
    # AAAB against AAAC and AAAD: both (3,0), so one part of two (3 guesses in total).
    assert member_value == pytest.approx(1 + 3 / 3)
    assert outsider_value == pytest.approx(2.0)


def test_remaining_guesses_curve() -> None:
    curve = RemainingGuesses(a=1.0, b=0.5)
    totals = curve.totals(np.array([0, 1, 2, 4]))
    assert totals == pytest.approx([0, 1, 3, 4 * (1 + 0.5 * np.log(4))])


def test_lookahead_rescores_only_the_widest_few_and_prefers_lower_expectation() -> None:
    archive = consistent_set("ABBC", ["AABB"])
    responses = response_matrix(archive, archive, 6)
    scores = lookahead_scores(responses, 4, 5, True, RemainingGuesses())
    assert np.isfinite(scores).sum() == 5
    one_ply = expected_guesses(responses, 4, RemainingGuesses())
    # Looking further ahead can only refine the leaf estimate, never go below one guess.
    assert (-scores[np.isfinite(scores)] >= 1.0).all()
    assert set(np.flatnonzero(np.isfinite(scores))) == set(np.argsort(one_ply, kind="stable")[:5])


def test_choose_guess_with_lookahead_returns_a_member_when_playing_consistently() -> None:
    archive = consistent_set("ABBC", ["AABB", "CDEF"])
    guess, consistent = choose_guess(archive, None, "lookahead", 6, np.random.default_rng(2))
    assert consistent and any((guess == member).all() for member in archive)


def test_a_sample_standing_for_copies_equals_the_copies_one_ply() -> None:
    # Each sampled code standing for 3 codes: the same estimate as 3 copies of each one.
    archive = consistent_set("ABBC", ["AABB"])
    guesses = np.concatenate([archive, codes("FFEE", "ABCD")])
    responses = response_matrix(guesses, archive, 6)
    copies = np.repeat(responses, 3, axis=1)
    curve = RemainingGuesses()
    assert expected_guesses(responses, 4, curve, scale=3.0) == pytest.approx(
        expected_guesses(copies, 4, curve)
    )


def test_lookahead_over_a_sample_costs_its_small_parts_at_their_scale() -> None:
    # A part of one sampled code is one code of a whole set (one more guess) but 50 codes
    # of a set sampled at scale 50: the scaled two-ply estimate must grow accordingly.
    archive = consistent_set("ABBC", ["AABB", "CDEF"])
    responses = response_matrix(archive, archive, 6)
    curve = RemainingGuesses()
    whole = -lookahead_scores(responses, 4, 3, True, curve)
    sampled = -lookahead_scores(responses, 4, 3, True, curve, scale=50.0)
    rescored = np.isfinite(whole)
    assert (np.isfinite(sampled) == rescored).all()
    assert (sampled[rescored] > whole[rescored] + 1.0).all()
    # Scale 1 is the whole-set estimate, unchanged.
    same = -lookahead_scores(responses, 4, 3, True, curve, scale=1.0)
    assert same[rescored] == pytest.approx(whole[rescored])


def test_the_former_name_of_heuristic_name_still_imports_with_a_warning() -> None:
    from evo_mastermind.evolution import choice

    with pytest.warns(DeprecationWarning, match="choice.Heuristic is now HeuristicName"):
        assert choice.Heuristic is choice.HeuristicName
    with pytest.raises(AttributeError):
        _ = choice.NoSuchName

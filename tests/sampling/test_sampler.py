"""The consistent-code sampler: its paths against the numpy definition, and its uniformity."""

import numpy as np
import pytest
from scipy.stats import chisquare

from evo_mastermind.codes import Codes, CodeSpace, InvalidGameError
from evo_mastermind.sampling import (
    ConsistentSet,
    Constraints,
    Method,
    NoConsistentCodeError,
    SamplerSettings,
    SamplingError,
    _kernels,
    consistent_codes,
    consistent_mask_reference,
    count_consistent,
    halves,
    sample_consistent,
)
from evo_mastermind.scoring import score

PATHS: tuple[Method, ...] = ("rejection", "halves", "listing")


def history(space: CodeSpace, depth: int, seed: int) -> Constraints:
    """``depth`` random guesses and their responses to a random secret."""
    rng = np.random.default_rng(seed)
    secret = space.sample(rng, 1)[0]
    guesses = space.sample(rng, depth)
    return Constraints.from_responses(space, guesses, [score(g, secret) for g in guesses])


def listed(constraints: Constraints) -> Codes:
    """The consistent set by the numpy definition, over the whole (listed) space."""
    everything = constraints.space.all_codes
    return everything[consistent_mask_reference(everything, constraints)]


def code_numbers(codes: Codes, reference: Codes) -> np.ndarray:
    """Each code's row in ``reference`` (every code must be there)."""
    keys = {row.tobytes(): at for at, row in enumerate(reference)}
    return np.array([keys[row.tobytes()] for row in codes])


@pytest.mark.parametrize(("pegs", "colors"), [(4, 6), (5, 8), (3, 9), (6, 5)])
@pytest.mark.parametrize("depth", [1, 2, 4])
def test_every_path_finds_the_set_of_the_numpy_definition(
    pegs: int, colors: int, depth: int
) -> None:
    space = CodeSpace(pegs, colors)
    constraints = history(space, depth, seed=pegs * 100 + depth)
    reference = listed(constraints)
    drawn = space.sample(np.random.default_rng(0), 5000)
    mask = _kernels.consistent_mask(
        drawn,
        constraints.guesses,
        constraints.guess_counts,
        constraints.blacks,
        constraints.matches,
    )
    assert np.array_equal(mask, consistent_mask_reference(drawn, constraints))
    assert np.array_equal(consistent_codes(constraints), reference)
    assert np.array_equal(ConsistentSet(constraints).all_codes(), reference)
    assert count_consistent(constraints) == reference.shape[0]


def test_numbering_by_halves_reaches_every_code_once() -> None:
    constraints = history(CodeSpace(5, 6), 2, seed=3)
    whole = ConsistentSet(constraints)
    numbered = whole.codes_at(np.arange(whole.size))
    assert np.unique(numbered, axis=0).shape[0] == whole.size == listed(constraints).shape[0]
    with pytest.raises(IndexError):
        whole.codes_at(np.array([whole.size]))


def sample_counts(constraints: Constraints, method: Method, draws: int, seed: int) -> np.ndarray:
    reference = listed(constraints)
    sample = sample_consistent(
        constraints, draws, np.random.default_rng(seed), replace=True, method=method
    )
    assert sample.method == method and sample.codes.shape[0] == draws
    return np.bincount(code_numbers(sample.codes, reference), minlength=reference.shape[0])


@pytest.mark.parametrize("method", PATHS)
@pytest.mark.parametrize(
    ("space", "depth", "seed"), [((4, 6), 1, 11), ((4, 6), 2, 11), ((5, 5), 3, 11)]
)
def test_draws_are_uniform_over_the_consistent_set(
    method: Method, space: tuple[int, int], depth: int, seed: int
) -> None:
    constraints = history(CodeSpace(*space), depth, seed)
    size = listed(constraints).shape[0]
    assert size >= 8  # a set that can show a bias
    counts = sample_counts(constraints, method, 60 * size, seed=depth)
    # About one fixed-seed run in a thousand of a uniform sampler falls below 1e-3.
    assert chisquare(counts).pvalue > 1e-3


def test_a_sampler_uniform_over_pairs_of_half_groups_is_caught() -> None:
    # The bias a numbering mistake would bring: every pair of groups equally likely.
    constraints = history(CodeSpace(4, 6), 2, seed=11)
    whole = ConsistentSet(constraints)
    assert whole.pair_sizes.min() < whole.pair_sizes.max()
    rng = np.random.default_rng(1)
    draws = 60 * whole.size
    pair = rng.integers(0, whole.pair_sizes.size, size=draws)
    starts = np.cumsum(whole.pair_sizes) - whole.pair_sizes
    numbers = starts[pair] + rng.integers(0, whole.pair_sizes[pair])
    reference = listed(constraints)
    counts = np.bincount(code_numbers(whole.codes_at(numbers), reference), minlength=whole.size)
    assert chisquare(counts).pvalue < 1e-6
    assert chisquare(sample_counts(constraints, "halves", draws, seed=1)).pvalue > 1e-3


def test_a_slightly_skewed_rejection_is_caught() -> None:
    # Candidates drawn with colour A 50 % more likely than uniform: the accepted codes
    # over-represent A, and the test of uniformity sees it.
    space = CodeSpace(4, 6)
    constraints = history(space, 2, seed=11)
    reference = listed(constraints)
    rng = np.random.default_rng(2)
    weights = np.array([1.5, 1, 1, 1, 1, 1]) / 6.5
    drawn = rng.choice(6, size=(400_000, 4), p=weights).astype(np.uint8)
    accepted = drawn[consistent_mask_reference(drawn, constraints)][: 60 * reference.shape[0]]
    counts = np.bincount(code_numbers(accepted, reference), minlength=reference.shape[0])
    assert chisquare(counts).pvalue < 1e-6


@pytest.mark.parametrize("method", [*PATHS, "auto"])
def test_without_replacement_every_code_is_equally_likely_to_be_in(method: Method) -> None:
    constraints = history(CodeSpace(4, 6), 2, seed=14)
    reference = listed(constraints)
    size = reference.shape[0]
    n, repeats = size // 3, 3000
    rng = np.random.default_rng(3)
    inclusions = np.zeros(size, dtype=np.int64)
    for _ in range(repeats):
        sample = sample_consistent(constraints, n, rng, method=method)
        numbers = code_numbers(sample.codes, reference)
        assert numbers.size == n == np.unique(numbers).size and not sample.complete
        inclusions[numbers] += 1
    # Inclusions are negatively correlated: the statistic is, if anything, smaller.
    assert chisquare(inclusions).pvalue > 1e-3


@pytest.mark.parametrize("method", ["halves", "listing", "auto"])
def test_the_whole_set_when_it_is_smaller_than_asked(method: Method) -> None:
    constraints = history(CodeSpace(4, 6), 3, seed=15)
    reference = listed(constraints)
    sample = sample_consistent(constraints, 500, np.random.default_rng(4), method=method)
    assert sample.complete and sample.size == reference.shape[0]
    numbers = np.sort(code_numbers(sample.codes, reference))
    assert np.array_equal(numbers, np.arange(reference.shape[0]))
    again = sample_consistent(constraints, 500, np.random.default_rng(4), replace=True)
    assert again.codes.shape[0] == 500 and not again.complete


def test_forced_rejection_without_replacement_cannot_tell_a_whole_set() -> None:
    constraints = history(CodeSpace(4, 6), 3, seed=15)
    with pytest.raises(SamplingError, match="cannot tell a whole set"):
        sample_consistent(
            constraints,
            500,
            np.random.default_rng(0),
            method="rejection",
            settings=SamplerSettings(rejection_trials=1 << 12),
        )


def test_same_generator_same_codes() -> None:
    constraints = history(CodeSpace(6, 9), 3, seed=16)
    first, second = (
        sample_consistent(constraints, 300, np.random.default_rng(9)).codes for _ in range(2)
    )
    assert np.array_equal(first, second)


@pytest.mark.parametrize("seed", [5, 6])
def test_auto_draws_consistent_distinct_codes_on_8x12(seed: int) -> None:
    space = CodeSpace(8, 12)
    rng = np.random.default_rng(seed)
    secret = space.sample(rng, 1)[0]
    guesses, methods = [], []
    guess = space.sample(rng, 1)[0]
    while score(guess, secret).black < 8:
        guesses.append(guess)
        constraints = Constraints.from_responses(
            space, np.stack(guesses), [score(g, secret) for g in guesses]
        )
        sample = sample_consistent(constraints, 2000, rng)
        assert consistent_mask_reference(sample.codes, constraints).all()
        assert np.unique(sample.codes, axis=0).shape[0] == sample.codes.shape[0]
        if sample.method == "listing":
            assert sample.size == ConsistentSet(constraints).size
        methods.append(sample.method)
        guess = sample.codes[0]
    # Rejection while consistent codes are common, an exact path from then on.
    assert methods[0] == "rejection" and methods[-1] == "listing"
    assert methods == sorted(methods, key=["rejection", "halves", "listing"].index)


def test_games_too_large_to_split_are_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    constraints = history(CodeSpace(5, 8), 4, seed=17)
    monkeypatch.setattr(halves, "HALF_LIMIT", 8)
    sample = sample_consistent(constraints, 10_000, np.random.default_rng(0))
    assert sample.method == "listing" and sample.complete
    with pytest.raises(SamplingError, match="too large"):
        sample_consistent(constraints, 10, np.random.default_rng(0), method="halves")
    with pytest.raises(SamplingError, match="too many to list"):
        consistent_codes(history(CodeSpace(5, 8), 1, seed=17), limit=10)


def test_no_consistent_code_and_bad_histories_are_named() -> None:
    space = CodeSpace(4, 6)
    guess = space.parse("AABB")[None, :]
    impossible = Constraints(
        space, np.concatenate([guess, guess]), np.array([4, 0]), np.array([4, 0])
    )
    methods: tuple[Method, ...] = ("halves", "listing", "auto")
    for method in methods:
        with pytest.raises(NoConsistentCodeError, match="no code is consistent"):
            sample_consistent(impossible, 5, np.random.default_rng(0), method=method)
    with pytest.raises(InvalidGameError, match="one response per guess"):
        Constraints(space, guess, np.array([1, 2]), np.array([1, 2]))
    with pytest.raises(InvalidGameError, match="no code"):
        Constraints(space, guess, np.array([3]), np.array([2]))
    with pytest.raises(InvalidGameError, match="colour outside"):
        Constraints(space, np.array([[0, 0, 7, 0]]), np.array([0]), np.array([0]))

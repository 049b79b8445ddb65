"""Uniform samples of the codes consistent with a history: the front that picks an exact path.

Every path is exact (each consistent code equally likely, draws independent); they differ
only in cost, so :func:`sample_consistent` picks the cheapest by what it has counted:

1. **Rejection** from the whole space while consistent codes are common: a first batch of
   :attr:`SamplerSettings.probe_trials` uniform codes estimates their share, and drawing
   goes on if the sample should need at most :attr:`SamplerSettings.rejection_trials`.
   Accepted codes are uniform whatever the number of trials, so stopping after a count of
   trials, and then starting afresh on another path, biases nothing.
2. **Halves** (:class:`~evo_mastermind.sampling.halves.ConsistentSet`): the set counted and
   numbered exactly, then uniform numbers drawn. Used when rejection would be too slow.
3. **Listing** (the compiled constraint search): every consistent code, then uniform picks
   among them. Used when the probe saw no consistent code (the set is then small), when a
   game's halves are too large to list, and by :func:`consistent_codes`.

No decision reads a clock, so the path and the codes depend only on the history and the
generator: identical on every executor. Without replacement the codes come in a uniformly
random order, and the whole set (in random order) when it has at most ``n`` codes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np

import evo_mastermind.sampling._kernels as _kernels
from evo_mastermind.codes import Codes, CodeSpace, InvalidGameError
from evo_mastermind.kernels import flags
from evo_mastermind.sampling.constraints import Constraints
from evo_mastermind.sampling.halves import ConsistentSet, can_split

Method = Literal["auto", "rejection", "halves", "listing"]
"""How to sample: ``auto`` picks by cost; the others force one exact path."""


class SamplingError(InvalidGameError):
    """No exact path can reach the consistent set of this history within its limits."""


class NoConsistentCodeError(SamplingError):
    """No code is consistent with the history: its responses contradict each other."""


@dataclass(frozen=True)
class SamplerSettings:
    """Where :func:`sample_consistent` switches between its exact paths.

    Measured on (8,12): ``benchmarks/bench_sampling.py`` and the study page
    ``docs/studies/uniform-sampling.md``.

    Attributes:
        probe_trials: uniform codes tested first, to estimate the consistent share.
        rejection_trials: the most codes rejection may test for one sample; beyond (by
            the probe's estimate, or in fact), the sample is drawn by an exact count.
        batch: codes drawn and tested together by rejection.
        listing_below: when rejection is too slow, a set the probe estimates at most this
            large (one more consistent code than it saw) is listed rather than counted by
            halves; a listing that finds eight times more gives way to the halves.
        listing_limit: the most codes the listing path holds (games whose halves are too
            large to list, and :func:`consistent_codes`).
    """

    probe_trials: int = 1 << 14
    rejection_trials: int = 1 << 21
    batch: int = 1 << 14
    listing_below: int = 1 << 15
    listing_limit: int = 1 << 21


DEFAULT_SETTINGS = SamplerSettings()

_FORCED_REJECTION_FACTOR = 64  # forced rejection gives up after this many budgets


@dataclass(frozen=True)
class ConsistentSample:
    """Codes drawn uniformly from the consistent set, and how they were drawn.

    Attributes:
        codes: the sample, shape ``(n, pegs)`` (fewer rows without replacement when the
            set is smaller).
        method: the path that drew them: ``rejection``, ``halves`` or ``listing``.
        complete: whether ``codes`` are the whole consistent set.
        size: the number of consistent codes, when the path counted it (else ``None``).
        trials: uniform codes from the whole space tested by rejection (probe included).
    """

    codes: Codes
    method: str
    complete: bool
    size: int | None
    trials: int


def sample_consistent(
    constraints: Constraints,
    n: int,
    rng: np.random.Generator,
    *,
    replace: bool = False,
    method: Method = "auto",
    settings: SamplerSettings = DEFAULT_SETTINGS,
) -> ConsistentSample:
    """Draw ``n`` codes uniformly from those consistent with ``constraints``.

    Args:
        constraints: the history.
        n: how many codes.
        rng: the only source of randomness.
        replace: draw with replacement (``n`` independent codes) or without (``n``
            distinct codes, or the whole set when it has fewer).
        method: ``auto``, or one exact path forced (for tests and measurements).
        settings: the switch points of ``auto``.

    Raises:
        NoConsistentCodeError: no consistent code exists (found exactly by every path).
        SamplingError: none of the paths can reach the set.
    """
    if n < 0:
        raise ValueError(f"cannot draw {n} codes")
    trials, found = 0, 0
    if method in ("auto", "rejection"):
        budget = settings.rejection_trials if method == "auto" else None
        drawn, trials, found = _by_rejection(constraints, n, rng, replace, budget, settings)
        if drawn is not None:
            return ConsistentSample(drawn, "rejection", False, None, trials)
    listed: Codes | None = None
    if method == "listing":
        listed = consistent_codes(constraints, settings.listing_limit)
    elif method == "auto" and (
        not can_split(constraints)
        or (found + 1) / trials * constraints.space.size <= settings.listing_below
    ):
        # A small set (the probe saw few of it) is listed faster than counted by halves.
        limit = settings.listing_limit if not can_split(constraints) else 8 * settings.listing_below
        codes, whole = _list(constraints, limit)
        listed = codes if whole else None
        if not whole and not can_split(constraints):
            raise SamplingError(_too_many(constraints, limit))
    if listed is not None:
        size = listed.shape[0]
        picks = _pick(size, n, rng, replace)
        return ConsistentSample(listed[picks], "listing", _complete(size, n, replace), size, trials)
    if not can_split(constraints):
        raise SamplingError(f"the halves of {constraints.space} are too large to list")
    whole_set = ConsistentSet(constraints)
    picks = _pick(whole_set.size, n, rng, replace)
    return ConsistentSample(
        whole_set.codes_at(picks),
        "halves",
        _complete(whole_set.size, n, replace),
        whole_set.size,
        trials,
    )


def _complete(size: int, n: int, replace: bool) -> bool:
    return not replace and size <= n


def _pick(size: int, n: int, rng: np.random.Generator, replace: bool) -> np.ndarray:
    """Uniform numbers in ``[0, size)``.

    ``n`` independent ones, or ``min(n, size)`` distinct ones in a random order.
    """
    if size == 0:
        raise NoConsistentCodeError("no code is consistent with this history")
    if replace:
        return rng.integers(0, size, size=n, dtype=np.int64)
    if n >= size:
        return rng.permutation(size).astype(np.int64)
    return rng.choice(size, size=n, replace=False).astype(np.int64)


def _by_rejection(
    constraints: Constraints,
    n: int,
    rng: np.random.Generator,
    replace: bool,
    budget: int | None,
    settings: SamplerSettings,
) -> tuple[Codes | None, int, int]:
    """Codes accepted from uniform draws, the trials made and the codes found.

    The codes are ``None`` once the budget says another path is cheaper (by the probe's
    estimate, or after ``2 * budget`` trials); without replacement, found codes are
    counted distinct.
    """
    space = constraints.space
    guess_counts = constraints.guess_counts
    accepted: list[Codes] = []
    distinct: dict[bytes, None] = {}
    found = 0
    trials = 0
    while found < n:
        size = settings.probe_trials if trials == 0 else settings.batch
        drawn = space.sample(rng, size)
        trials += size
        keep = _kernels.consistent_mask(
            drawn, constraints.guesses, guess_counts, constraints.blacks, constraints.matches
        )
        codes = drawn[keep]
        if replace:
            accepted.append(codes)
            found += codes.shape[0]
        else:
            for code in codes:
                distinct.setdefault(code.tobytes(), None)
            found = len(distinct)
        if budget is None:
            if found < n and trials >= _FORCED_REJECTION_FACTOR * settings.rejection_trials:
                raise SamplingError(
                    f"rejection found {found} of {n} codes in {trials:,} draws (without "
                    "replacement it cannot tell a whole set: use method auto)"
                )
            continue
        if trials == settings.probe_trials and found < n:
            if _predicted_trials(space, found, trials, n, replace) > budget:
                return None, trials, found
        elif trials >= 2 * budget and found < n:
            return None, trials, found
    if replace:
        return (np.concatenate(accepted)[:n] if n else _none(space)), trials, found
    rows = [np.frombuffer(key, dtype=np.uint8) for key in list(distinct)[:n]]
    return (np.stack(rows) if rows else _none(space)), trials, found


def _none(space: CodeSpace) -> Codes:
    return np.zeros((0, space.pegs), dtype=np.uint8)


def _predicted_trials(space: CodeSpace, found: int, trials: int, n: int, replace: bool) -> float:
    """Trials rejection should need for ``n`` codes, from ``found`` in the first ``trials``."""
    if found == 0:
        return math.inf
    share = found / trials
    if replace:
        return n / share
    estimated_size = share * space.size
    if n >= estimated_size / 2:
        return math.inf  # most of the set wanted: an exact path knows when it is whole
    # Distinct codes: draws needed for n of them out of the estimated set.
    return -estimated_size * math.log1p(-n / estimated_size) / share


def consistent_codes(
    constraints: Constraints, limit: int = DEFAULT_SETTINGS.listing_limit
) -> Codes:
    """Every code consistent with ``constraints``, in lexicographic order (compiled search).

    Raises:
        SamplingError: more than ``limit`` codes are consistent.
    """
    codes, whole = _list(constraints, limit)
    if not whole:
        raise SamplingError(_too_many(constraints, limit))
    return codes


def _list(constraints: Constraints, limit: int) -> tuple[Codes, bool]:
    codes, whole = flags.stoppable(
        lambda halt: _kernels.list_consistent(
            constraints.space.pegs,
            constraints.guesses,
            constraints.guess_counts,
            constraints.blacks,
            constraints.matches,
            limit,
            halt,
        )
    )
    return codes, bool(whole)


def _too_many(constraints: Constraints, limit: int) -> str:
    return (
        f"more than {limit:,} codes of {constraints.space} are consistent with these "
        f"{len(constraints)} guesses: too many to list, and its halves too large to count"
    )


def count_consistent(constraints: Constraints) -> int:
    """How many codes are consistent with ``constraints`` (exact).

    Raises:
        SamplingError: the game's halves are too large to split and the set to list.
    """
    if can_split(constraints):
        return ConsistentSet(constraints).size
    return int(consistent_codes(constraints).shape[0])


def warm() -> None:
    """Compile (or load from the cache) every kernel of the sampler now, not in a first game.

    About 7 CPU seconds once per machine (``make`` runs it after installing); then cached.
    """
    space = CodeSpace(4, 6)
    guess = space.parse("AABC")
    constraints = Constraints(space, guess[None, :], np.array([1]), np.array([2]))
    rng = np.random.default_rng(0)
    for method in ("rejection", "halves", "listing"):
        sample_consistent(constraints, 4, rng, method=method)

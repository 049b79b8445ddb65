"""The genetic search of :mod:`evo_mastermind.evolution.search`, on whole populations at once.

The same (μ+λ) algorithm — tournament selection, two-point crossover of consecutive parents,
mutation recolouring one peg or swapping two, survivors among the distinct codes of parents
and offspring, restart after stagnation — with the population held as one numpy array and
every operator applied to all individuals in a few array operations. DEAP's per-individual
objects cost about 25 µs per individual and generation; this costs one or two, which is what
lets the archive player search the largest games within seconds. It draws only from
the game's numpy generator. The DEAP version stays the readable reference (and the ``ga``
player's engine); both yield the same :class:`Batch` stream to the player.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import numpy.typing as npt

from evo_mastermind.codes import Codes, CodeSpace
from evo_mastermind.evolution.fitness import CountingEvaluator, Distances, first_occurrences
from evo_mastermind.evolution.neighbourhood import distinct_rows
from evo_mastermind.evolution.search import Batch, PopulationSearch, SearchSettings


class VectorisedSearch(PopulationSearch):
    """The search with the population held as numpy arrays (see the module's docstring)."""

    def __init__(
        self, space: CodeSpace, settings: SearchSettings, evaluator: CountingEvaluator
    ) -> None:
        self.population: Codes = np.zeros((0, space.pegs), np.uint8)
        self.distance: Distances = np.zeros(0, np.int64)
        self._parent_distance: Distances = np.zeros(0, np.int64)
        super().__init__(space, settings, evaluator)

    def reset(self) -> None:
        """Forget the population and the restart count (a new game)."""
        self.population = np.zeros((0, self.space.pegs), np.uint8)
        self.distance = np.zeros(0, np.int64)
        self.restarts = 0

    def generations(self, rng: np.random.Generator, seeds: Codes | None = None) -> Iterator[Batch]:
        """Evolve for as long as the caller keeps iterating; yield every evaluated batch."""
        yield self._fill(rng, seeds, self.population)
        best = int(self.distance.min())
        stagnant = 0
        while True:
            offspring, changed = self._vary(rng)
            distance = np.empty(offspring.shape[0], np.int64)
            batch_codes = offspring[changed]
            batch_distance = self.evaluator.evaluate(batch_codes).distance
            distance[changed] = batch_distance
            distance[~changed] = self._parent_distance[~changed]
            self._survive(
                rng,
                np.concatenate([self.population, offspring]),
                np.concatenate([self.distance, distance]),
            )
            generation_best = int(batch_distance.min()) if batch_distance.size else best
            if generation_best < best:
                best, stagnant = generation_best, 0
            elif best > 0:
                stagnant += 1
            if stagnant >= self.settings.max_stagnant_generations:
                # Stuck in a local optimum with nothing consistent found: start afresh.
                self.restarts += 1
                batch = self._fill(rng, None, np.zeros((0, self.space.pegs), np.uint8))
                best, stagnant = int(self.distance.min()), 0
                yield batch
                continue
            yield Batch(batch_codes, batch_distance)

    def _fill(self, rng: np.random.Generator, seeds: Codes | None, carried: Codes) -> Batch:
        """Seeds, then carried codes, then random ones: distinct, evaluated, selected."""
        parts = [carried] if seeds is None else [seeds, carried]
        missing = self.settings.population_size - sum(part.shape[0] for part in parts)
        if missing > 0:
            parts.append(self.space.sample(rng, missing))
        pool = distinct_rows(np.concatenate(parts))
        distance = self.evaluator.evaluate(pool).distance
        self._survive(rng, pool, distance)
        return Batch(pool, distance)

    def _vary(self, rng: np.random.Generator) -> tuple[Codes, npt.NDArray[np.bool_]]:
        """Offspring by tournament, crossover of consecutive pairs, and mutation."""
        settings = self.settings
        winners = tournament_winners(
            rng, self.distance, settings.offspring_size, settings.tournament_size
        )
        children = self.population[winners].copy()
        self._parent_distance = self.distance[winners]
        changed = cross_pairs(rng, children, settings.crossover_probability)
        mutated = mutate_rows(
            rng,
            children,
            self.space.colors,
            settings.mutation_probability,
            settings.swap_probability,
        )
        changed[mutated] = True
        return children, changed

    def _survive(self, rng: np.random.Generator, codes: Codes, distance: Distances) -> None:
        """Keep the best distinct codes, ties broken at random."""
        kept = survivors(rng, codes, distance, self.settings.population_size)
        self.population = codes[kept]
        self.distance = distance[kept]


# The operators, each on a whole population; their draws, in this order, make the games.


def tournament_winners(
    rng: np.random.Generator, distance: Distances, count: int, size: int
) -> npt.NDArray[np.intp]:
    """Indices of ``count`` tournament winners, as DEAP's ``selTournament``.

    Each is the nearest of ``size`` contestants drawn with replacement (the first drawn
    among ties).
    """
    contestants = rng.integers(distance.shape[0], size=(count, size))
    winners: npt.NDArray[np.intp] = contestants[
        np.arange(count), np.argmin(distance[contestants], axis=1)
    ]
    return winners


def cross_pairs(
    rng: np.random.Generator, children: Codes, probability: float
) -> npt.NDArray[np.bool_]:
    """Two-point crossover of consecutive pairs, each crossed with ``probability``, in place.

    The points are DEAP's ``cxTwoPoint``'s: every segment ``[low, high)`` with
    ``1 <= low < high <= pegs`` equally likely. Returns which children were crossed.
    """
    count, pegs = children.shape
    changed = np.zeros(count, dtype=bool)
    if pegs > 1:
        pairs = count // 2
        crossed = rng.random(pairs) < probability
        first = np.flatnonzero(crossed) * 2
        if first.size:
            low = rng.integers(1, pegs + 1, size=first.size)
            high = rng.integers(1, pegs, size=first.size)
            high = np.where(high >= low, high + 1, high)
            low, high = np.minimum(low, high), np.maximum(low, high)
            positions = np.arange(pegs)
            inside = (positions >= low[:, None]) & (positions < high[:, None])
            a, b = children[first], children[first + 1]
            children[first] = np.where(inside, b, a)
            children[first + 1] = np.where(inside, a, b)
            changed[first] = changed[first + 1] = True
    return changed


def mutate_rows(
    rng: np.random.Generator,
    children: Codes,
    colors: int,
    probability: float,
    swap_probability: float,
) -> npt.NDArray[np.intp]:
    """Mutate each child with ``probability``, in place; returns the mutated rows.

    A mutation swaps two distinct pegs (with ``swap_probability``; never on one-peg codes) or
    gives one peg another colour, every choice equally likely, as
    :func:`evo_mastermind.evolution.operators.mutate`.
    """
    count, pegs = children.shape
    mutated = np.flatnonzero(rng.random(count) < probability)
    if mutated.size:
        swap = rng.random(mutated.size) < swap_probability
        if pegs < 2:
            swap[:] = False
        recolour = mutated[~swap]
        peg = rng.integers(pegs, size=recolour.size)
        shift = rng.integers(1, colors, size=recolour.size)
        children[recolour, peg] = (children[recolour, peg] + shift) % colors
        swapped = mutated[swap]
        i = rng.integers(pegs, size=swapped.size)
        j = (i + rng.integers(1, max(pegs, 2), size=swapped.size)) % pegs
        left = children[swapped, i].copy()
        children[swapped, i] = children[swapped, j]
        children[swapped, j] = left
    return mutated


def survivors(
    rng: np.random.Generator, codes: Codes, distance: Distances, size: int
) -> npt.NDArray[np.intp]:
    """Indices of the ``size`` nearest distinct codes, ties broken uniformly at random."""
    first = first_occurrences(codes)
    order: npt.NDArray[np.intp] = first[np.lexsort([rng.random(first.size), distance[first]])]
    return order[:size]

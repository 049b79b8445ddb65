"""The ``archive`` player: the archive-based evolutionary algorithm seed 002 leaves as future work.

Each move a genetic population searches toward consistency (fitness ``f``); every consistent
code it finds enters an archive of at most μ distinct codes. The search stops when the
archive is full, or once it has a member and ``max_generations_without_new`` generations
have added none. A partition heuristic computed over the archive then picks the guess, from
the archive (consistent play) or from every code the population evaluated during the move
(all-codes play; archive members win ties). After the response the archive keeps only the
members still consistent, and they seed the next move's population. The code space is
never listed, so the player runs on games whose space could not be.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from pydantic import Field, PositiveInt

from evo_mastermind.codes import Code, Codes, CodeSpace
from evo_mastermind.evolution.archive import Archive, outside
from evo_mastermind.evolution.choice import Heuristic, RemainingGuesses, choose_guess
from evo_mastermind.evolution.fitness import code_keys
from evo_mastermind.evolution.neighbourhood import hamming_offsets, scan_around
from evo_mastermind.evolution.vectorised import VectorisedSearch
from evo_mastermind.players.base import PlayerParams, register_player
from evo_mastermind.players.evolutionary import GAParams, _BestSoFar, _SearchPlayer
from evo_mastermind.scoring import Response

Play = Literal["consistent", "all"]


SearchEngine = Literal["deap", "vectorised"]


class ArchiveParams(GAParams):
    """Options of the archive player.

    Attributes:
        mu: the archive's capacity μ (seed 002, section 5: 20-30 suffices on (4,6)).
        heuristic: score computed over the archive: the partition scores ``entropy``,
            ``most_parts``, ``expected_size``, ``worst_case``, or ``lookahead`` (expected
            guesses, two moves ahead; see :mod:`evo_mastermind.evolution.choice`).
        heuristic_when_full: the score used instead when the archive is full, i.e. when it
            is only a sample of the consistent codes (unset: ``heuristic``). Partition
            scores are scale-free, while ``lookahead`` needs the true part sizes.
        play: ``consistent`` plays an archive member; ``all`` may play any code the
            population evaluated during the move (archive members win ties).
        max_generations_without_new: with at least one member, stop searching after this
            many generations that added no member.
        pool_limit: with ``play: all``, score at most this many of the move's evaluated
            codes (a random subset) besides the archive.
        lookahead_width: with ``lookahead``, how many guesses get the second ply.
        remaining_guesses: with ``lookahead``, ``(a, b)`` of the one-ply estimate
            ``a + b ln m`` of the guesses a part of ``m`` candidates still needs.
    """

    mu: PositiveInt = 30
    heuristic: Heuristic = "entropy"
    heuristic_when_full: Heuristic | None = None
    play: Play = "consistent"
    max_generations_without_new: PositiveInt = 5
    pool_limit: PositiveInt = 2000
    restart_without_new: PositiveInt | None = None
    search: SearchEngine = "vectorised"
    neighbourhood_radius: int = Field(default=0, ge=0, le=3)
    rearrange: bool = False
    neighbourhood_budget: PositiveInt = 200_000
    lookahead_width: PositiveInt = 20
    remaining_guesses: tuple[float, float] = (1.2, 0.42)


@register_player("archive")
class ArchivePlayer(_SearchPlayer):
    """Evolves an archive of up to μ consistent codes and plays a partition heuristic's pick."""

    Params = ArchiveParams

    def __init__(self, space: CodeSpace, params: PlayerParams | None = None) -> None:
        super().__init__(space, params)
        assert isinstance(self.params, ArchiveParams)
        self.archive_options: ArchiveParams = self.params
        self.archive = Archive(space.pegs, self.archive_options.mu)
        if self.archive_options.search == "vectorised":
            self.search = VectorisedSearch(
                space, self.archive_options.search_settings(), self.evaluator
            )
        self.curve = RemainingGuesses(*self.archive_options.remaining_guesses)

    def reset_game(self) -> None:
        """Empty the archive and the population."""
        super().reset_game()
        self.archive.clear()

    def after_response(self, guess: Code, response: Response) -> None:
        """Keep only the members still consistent."""
        self.archive.keep_consistent(guess, response.pack(self.space.pegs), self.space.colors)

    def next_guess(self) -> Code:
        """Fill the archive, then let the heuristic choose."""
        options = self.archive_options
        best = _BestSoFar(self.history.guesses)
        seen: dict[bytes, Code] = {}
        without_new = 0
        for batch in self.search.generations(self._rng, seeds=self.archive.codes):
            added = self.archive.offer(batch.codes[batch.distance == 0])
            if options.play == "all":
                seen.update(zip(code_keys(batch.codes), batch.codes, strict=True))
            if len(self.archive) == 0:
                best.update(batch.codes, batch.distance)
            without_new = 0 if added else without_new + 1
            if (
                options.restart_without_new
                and without_new
                and without_new % options.restart_without_new == 0
            ):
                self.search.request_restart()
            if self.archive.full:
                break
            if len(self.archive) and without_new >= options.max_generations_without_new:
                break
            if self.over_cap():
                break
        if len(self.archive) == 0:
            return self.capped(best)
        if (options.neighbourhood_radius or options.rearrange) and not self.archive.full:
            offsets = None
            if options.neighbourhood_radius:
                offsets = hamming_offsets(
                    self.space.pegs, self.space.colors, options.neighbourhood_radius
                )
            for scanned in scan_around(
                self.archive,
                self.evaluator,
                self._rng,
                options.neighbourhood_budget,
                offsets,
                options.rearrange,
            ):
                if options.play == "all":
                    seen.update(zip(code_keys(scanned), scanned, strict=True))
        members = self.archive.codes
        heuristic = options.heuristic
        if self.archive.full and options.heuristic_when_full is not None:
            heuristic = options.heuristic_when_full
        guess, _ = choose_guess(
            members,
            self._pool(seen, members) if options.play == "all" else None,
            heuristic,
            self.space.colors,
            self._rng,
            options.lookahead_width,
            self.curve,
        )
        return guess.copy()

    def _pool(self, seen: dict[bytes, Code], members: Codes) -> Codes | None:
        """The move's evaluated codes outside the archive (at most ``pool_limit``, at random)."""
        if not seen:
            return None
        codes = np.stack(list(seen.values()))
        codes = codes[outside(codes, members)]
        limit = self.archive_options.pool_limit
        if codes.shape[0] > limit:
            codes = codes[np.sort(self._rng.choice(codes.shape[0], limit, replace=False))]
        return codes

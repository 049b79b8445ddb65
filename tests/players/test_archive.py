"""The archive player's uniform options: seeds and completion from the exact uniform sampler."""

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np
import pytest

import evo_mastermind.players.sampler as sampler_module
from evo_mastermind.codes import Codes, CodeSpace
from evo_mastermind.evolution.fitness import code_keys
from evo_mastermind.game import Codemaker, InconsistentResponsesError, Move, play_game
from evo_mastermind.players import Player, make_player, preset_options
from evo_mastermind.players.archive import ArchivePlayer
from evo_mastermind.players.base import InvalidPlayerParamsError
from evo_mastermind.sampling import (
    ConsistentSample,
    Constraints,
    consistent_codes,
    consistent_mask_reference,
    sample_consistent,
)
from evo_mastermind.scoring import Response, score
from tests.players.test_evolutionary import assert_every_guess_consistent, moves_of, play_sample

SPACE = CodeSpace(4, 6)
SMALL = {"mu": 40, "population_size": 40, "max_generations_without_new": 5}
UNIFORM: list[dict[str, Any]] = [
    {"uniform_complete": True},
    {"uniform_seeds": 15},
    {"uniform_seeds": 40, "uniform_complete": True, "play": "all"},
]

# Games of the code before the uniform options existed (commit cbb28e7): options, the seed
# ``[7, game]``, the secret, the guesses and the evaluations. Defaults must keep them exactly.
LOOKAHEAD_ALL = {"play": "all", "heuristic": "lookahead", "mu": 60}
RECORDED: list[tuple[CodeSpace, dict[str, Any] | str, int, str, str, int]] = [
    (SPACE, {}, 0, "ABCD", "AABC BACD DACB ABCD", 15098),
    (SPACE, {}, 1, "FFAA", "AABC CCEB DDAA FFAA", 15611),
    (SPACE, {}, 2, "CEBF", "AABC EADA CBBE CEBF", 8813),
    (SPACE, LOOKAHEAD_ALL, 0, "ABCD", "AABC BACD ABCD", 8351),
    (SPACE, LOOKAHEAD_ALL, 1, "FFAA", "AABC CCEB FDAA FFAA", 15834),
    (SPACE, LOOKAHEAD_ALL, 2, "CEBF", "AABC ADAF ECAC ABEE CEBF", 25551),
    (CodeSpace(5, 8), "best_5x8", 0, "HCADB", "AABCD BCGDA FCDBH FBCDA HCADB", 48045),
    (CodeSpace(5, 8), "best_5x8", 1, "EEFGA", "AABCD HHGFB EFDGF CFEGE ECFGG EEFGA", 76849),
]
"""A preset's name stands for the preset with ``play: all``."""


@pytest.mark.parametrize("off", [{}, {"uniform_seeds": 0, "uniform_complete": False}])
def test_with_the_options_off_games_are_those_recorded_before_them(off: dict[str, Any]) -> None:
    for space, options, game, secret, guesses, evaluations in RECORDED:
        if isinstance(options, str):
            options = {**preset_options("archive", options), "play": "all"}
        player = make_player("archive", space, {**options, **off})
        result = play_game(player, Codemaker(space, secret), np.random.default_rng([7, game]))
        assert " ".join(move.guess for move in result.moves) == guesses, (options, secret)
        assert result.stats.evaluations == evaluations


def assert_distinct_and_consistent(members: Codes, player: ArchivePlayer) -> None:
    assert len(set(code_keys(members))) == members.shape[0]
    constraints = Constraints.of(player.space, player.history)
    assert consistent_mask_reference(members, constraints).all()


class Recorder:
    """Stands for ``sample_consistent`` in the archive module: records each draw's codes."""

    def __init__(self) -> None:
        self.draws: list[ConsistentSample] = []

    def __call__(self, *args: Any, **kwargs: Any) -> ConsistentSample:
        sample = sample_consistent(*args, **kwargs)
        self.draws.append(sample)
        return sample


def play_watching_the_archive(
    options: dict[str, Any], secret: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> int:
    """One game, checking the archive after every move; returns the draws made."""
    recorder = Recorder()
    # The archive draws through the sampler player's draw_consistent.
    monkeypatch.setattr(sampler_module, "sample_consistent", recorder)
    player = make_player("archive", SPACE, {**SMALL, **options})
    assert isinstance(player, ArchivePlayer)
    player.start(np.random.default_rng(seed))
    draws = 0
    while True:
        guess = player.ask()
        moved = len(player.history) > 0
        members = player.archive.codes
        if moved:
            assert_distinct_and_consistent(members, player)
            whole = consistent_codes(Constraints.of(SPACE, player.history))
            if player.params.uniform_complete:
                # Full, or every consistent code: never short of μ with codes left out.
                assert members.shape[0] == min(player.params.mu, whole.shape[0])
            new = recorder.draws[draws:]
            if player.params.uniform_seeds and new:
                seeded = new[0].codes
                assert seeded.shape[0] == min(player.params.uniform_seeds, whole.shape[0])
                joined = np.isin(code_keys(seeded), code_keys(members))
                assert joined.all() or player.archive.full
            draws = len(recorder.draws)
        response = score(guess, secret)
        if response.black == SPACE.pegs:
            return draws
        player.tell(guess, response)


@pytest.mark.parametrize("options", UNIFORM)
def test_uniform_codes_keep_the_archive_distinct_and_consistent(
    options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    secrets = [SPACE.format(code) for code in SPACE.sample(np.random.default_rng(11), 12)]
    draws = [
        play_watching_the_archive(options, secret, seed, monkeypatch)
        for seed, secret in enumerate(secrets)
    ]
    assert sum(draws) > 0


@pytest.mark.parametrize("options", UNIFORM)
def test_with_uniform_codes_every_game_is_won_with_consistent_guesses(
    options: dict[str, Any],
) -> None:
    secrets = SPACE.sample(np.random.default_rng(12), 40)
    results = play_sample(make_player("archive", SPACE, {**SMALL, **options}), secrets)
    assert all(r.solved and r.n_guesses <= 8 for r in results)
    if options.get("play", "consistent") == "consistent":
        for result in results:
            assert_every_guess_consistent(result)
    assert all(r.stats.capped_guesses == 0 for r in results)


def test_completion_over_the_whole_space_plays_like_the_exhaustive_entropy_player() -> None:
    # With μ above every consistent set, completion makes the archive the whole consistent
    # set at every move: the Entropy player of Runarsson & Merelo (2009), 4.408 (4.383-4.424
    # over ten runs), max 6. A short search without scans leaves the archive partial, and
    # without completion these games average 4.51 with a maximum of 7.
    options = {
        "mu": 1296,
        "population_size": 20,
        "max_generations_without_new": 1,
        "neighbourhood_radius": 0,
        "rearrange": False,
        "uniform_complete": True,
    }
    results = play_sample(make_player("archive", SPACE, options), SPACE.all_codes)
    guesses = np.array([r.n_guesses for r in results])
    assert all(r.solved for r in results) and guesses.max() <= 6
    assert 4.36 <= guesses.mean() <= 4.46


def play_in_worker(player: Player, secrets: np.ndarray) -> list[tuple[Move, ...]]:
    return moves_of(play_sample(player, secrets, run=3, space=CodeSpace(5, 8)))


def test_same_seed_same_games_in_this_process_and_in_a_fresh_worker() -> None:
    space = CodeSpace(5, 8)
    secrets = space.sample(np.random.default_rng(13), 4)
    options = {"mu": 200, "play": "all", "uniform_seeds": 100, "uniform_complete": True}
    player = make_player("archive", space, options)
    first = moves_of(play_sample(player, secrets, run=3, space=space))
    play_sample(player, secrets[:2], run=9, space=space)  # other games in between
    assert moves_of(play_sample(player, secrets, run=3, space=space)) == first
    assert moves_of(play_sample(player, secrets, run=4, space=space)) != first
    context = multiprocessing.get_context("spawn")  # a fresh interpreter, as a Dask worker
    with ProcessPoolExecutor(1, mp_context=context) as pool:
        assert pool.submit(play_in_worker, player, secrets).result() == first


@pytest.mark.parametrize(
    "options",
    [{"uniform_seeds": 10}, {"uniform_complete": True, "max_evaluations_per_guess": 2000}],
)
def test_contradicting_answers_are_reported_as_the_sampler_reports_them(
    options: dict[str, Any],
) -> None:
    space = CodeSpace(6, 8)
    guess = space.patterned_code("aabc")
    messages = []
    for name, player_options in (("archive", options), ("sampler", {})):
        player = make_player(name, space, player_options)
        player.start(np.random.default_rng(0))
        player.tell(guess, Response(1, 0))
        player.tell(guess, Response(0, 1))  # the same guess answered otherwise: none agree
        with pytest.raises(InconsistentResponsesError) as raised:
            player.ask()
        messages.append(str(raised.value))
    assert messages[0] == messages[1]
    assert "no code of (6,8) agrees with all 2 responses" in messages[0]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"uniform_seeds": -1}, "uniform_seeds: input should be greater than or equal to 0"),
        ({"uniform_seeds": 31}, r"uniform_seeds \(31\) is more than the archive holds \(mu: 30\)"),
        ({"uniform_complete": "sometimes"}, "uniform_complete: input should be a valid boolean"),
    ],
)
def test_bad_uniform_options_are_one_line(options: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidPlayerParamsError, match=message) as raised:
        make_player("archive", SPACE, options)
    assert "\n" not in str(raised.value)

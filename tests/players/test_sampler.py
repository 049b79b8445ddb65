"""The sampler player: wins, plays consistent codes, the same games from a seed anywhere."""

import multiprocessing
import pickle
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np
import pytest

from evo_mastermind.codes import CodeSpace
from evo_mastermind.game import GameResult, Move
from evo_mastermind.players import Player, make_player, preset_options
from evo_mastermind.players.base import InvalidPlayerParamsError
from evo_mastermind.scoring import score
from tests.players.test_evolutionary import moves_of, play_sample

SPACE = CodeSpace(4, 6)


def consistent_throughout(result: GameResult) -> bool:
    return all(
        score(earlier.guess, move.guess) == (earlier.black, earlier.white)
        for turn, move in enumerate(result.moves)
        for earlier in result.moves[:turn]
    )


def test_wins_every_4x6_game_like_the_exhaustive_entropy_player() -> None:
    # μ = 1000 holds every consistent code after the first guess: the Entropy player of
    # Runarsson & Merelo (2009), 4.408 (4.383-4.424 over ten runs), max 6.
    results = play_sample(make_player("sampler", SPACE), SPACE.all_codes, space=SPACE)
    guesses = np.array([len(r.moves) for r in results])
    assert all(r.solved for r in results) and guesses.max() <= 6
    assert 4.36 <= guesses.mean() <= 4.46
    assert all(consistent_throughout(r) for r in results)
    assert all(r.stats.evaluations and r.stats.distinct_codes for r in results if len(r.moves) > 1)


@pytest.mark.parametrize(
    "options",
    [
        {"mu": 10},
        {"mu": 30, "heuristic": "most_parts"},
        {"heuristic": "lookahead", "heuristic_when_full": "entropy", "mu": 50},
    ],
)
def test_small_samples_still_win_with_consistent_codes(options: dict[str, Any]) -> None:
    secrets = SPACE.sample(np.random.default_rng(3), 60)
    results = play_sample(make_player("sampler", SPACE, options), secrets, space=SPACE)
    assert all(r.solved and len(r.moves) <= 8 for r in results)
    assert all(consistent_throughout(r) for r in results)


def test_all_codes_play_wins_and_may_play_codes_outside_the_sample() -> None:
    secrets = SPACE.sample(np.random.default_rng(4), 60)
    player = make_player("sampler", SPACE, {"play": "all", "mu": 20})
    results = play_sample(player, secrets, space=SPACE)
    assert all(r.solved and len(r.moves) <= 8 for r in results)
    assert not all(consistent_throughout(r) for r in results)


@pytest.mark.parametrize("preset", ["5x8", "8x12"])
def test_presets_win_their_game_size(preset: str) -> None:
    pegs, colors = (int(size) for size in preset.split("x"))
    space = CodeSpace(pegs, colors)
    player = make_player("sampler", space, preset_options("sampler", preset))
    secrets = space.sample(np.random.default_rng(5), 6 if pegs == 5 else 1)
    for result in play_sample(player, secrets, space=space):
        assert result.solved and len(result.moves) <= pegs + 3
        assert consistent_throughout(result)


def play_in_worker(player: Player, secrets: np.ndarray) -> list[tuple[Move, ...]]:
    return moves_of(play_sample(player, secrets, run=3, space=CodeSpace(5, 8)))


def test_same_seed_same_games_in_this_process_and_in_a_fresh_worker() -> None:
    space = CodeSpace(5, 8)
    secrets = space.sample(np.random.default_rng(6), 6)
    player = make_player("sampler", space, {"mu": 300, "play": "all", "pool_limit": 200})
    first = moves_of(play_sample(player, secrets, run=3, space=space))
    play_sample(player, secrets[:2], run=9, space=space)  # other games in between
    assert moves_of(play_sample(player, secrets, run=3, space=space)) == first
    assert moves_of(play_sample(player, secrets, run=4, space=space)) != first
    restored = pickle.loads(pickle.dumps(player))
    assert moves_of(play_sample(restored, secrets, run=3, space=space)) == first
    context = multiprocessing.get_context("spawn")  # a fresh interpreter, as a Dask worker
    with ProcessPoolExecutor(1, mp_context=context) as pool:
        assert pool.submit(play_in_worker, player, secrets).result() == first


def test_bad_options_are_named() -> None:
    with pytest.raises(InvalidPlayerParamsError, match="mu"):
        make_player("sampler", SPACE, {"mu": 0})
    with pytest.raises(InvalidPlayerParamsError, match="heuristic"):
        make_player("sampler", SPACE, {"heuristic": "best"})
    with pytest.raises(ValueError, match="first_guess"):
        make_player("sampler", SPACE, {"first_guess": "ABCDE"})

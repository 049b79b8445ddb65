"""The sampler player: wins, plays consistent codes, the same games from a seed anywhere."""

import multiprocessing
import pickle
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np
import pytest

from evo_mastermind.codes import CodeSpace
from evo_mastermind.evolution.choice import choose_guess
from evo_mastermind.game import GameResult, Move
from evo_mastermind.players import Player, make_player, preset_options
from evo_mastermind.players.base import InvalidPlayerParamsError
from evo_mastermind.sampling import Constraints, count_consistent
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


def test_whole_set_plays_the_heuristic_over_every_consistent_code_below_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # μ = 10 codes a move, the whole set (and the lookahead) from 100 codes down.
    player = make_player(
        "sampler",
        SPACE,
        {"mu": 10, "heuristic": "lookahead", "heuristic_when_full": "entropy", "whole_set": 100},
    )
    seen: list[tuple[int, int, str]] = []

    def recording(archive: np.ndarray, *args: Any) -> tuple[np.ndarray, bool]:
        size = count_consistent(Constraints.of(SPACE, player.history))  # type: ignore[attr-defined]
        seen.append((size, archive.shape[0], args[1]))
        return choose_guess(archive, *args)

    monkeypatch.setattr("evo_mastermind.players.sampler.choose_guess", recording)
    results = play_sample(player, SPACE.sample(np.random.default_rng(8), 40), space=SPACE)
    assert all(r.solved for r in results)
    wholes = [(size, rows, heuristic) for size, rows, heuristic in seen if 10 < size <= 100]
    samples = [(size, rows, heuristic) for size, rows, heuristic in seen if size > 100]
    assert wholes and samples  # both kinds of move were played
    assert all(rows == size and heuristic == "lookahead" for size, rows, heuristic in wholes)
    assert all(rows == 10 and heuristic == "entropy" for _, rows, heuristic in samples)


def test_whole_set_games_replay_from_their_seed() -> None:
    options = {"mu": 10, "whole_set": 100, "play": "all", "pool_limit": 20}
    player = make_player("sampler", SPACE, options)
    secrets = SPACE.sample(np.random.default_rng(9), 10)
    first = moves_of(play_sample(player, secrets, run=2))
    play_sample(player, secrets[:3], run=5)  # other games in between
    assert moves_of(play_sample(player, secrets, run=2)) == first
    assert moves_of(play_sample(make_player("sampler", SPACE, options), secrets, run=2)) == first


def test_whole_set_costs_one_choice_over_the_whole_set_not_every_move() -> None:
    space = CodeSpace(8, 12)
    options = preset_options("sampler", "8x12") | {"play": "all"}

    def seconds(extra: dict[str, Any]) -> float:
        player = make_player("sampler", space, options | extra)
        cost = player.estimate(player.params, space)
        assert cost.seconds is not None
        return cost.seconds

    plain, whole, every_move = seconds({}), seconds({"whole_set": 4000}), seconds({"mu": 4000})
    assert plain < whole < every_move
    assert seconds({"whole_set": 1000}) == plain  # at most μ: nothing changes

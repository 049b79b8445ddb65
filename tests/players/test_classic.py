import numpy as np

from evo_mastermind.codes import CodeSpace
from evo_mastermind.game import Codemaker, play_game
from evo_mastermind.players import make_player

SPACE = CodeSpace(4, 6)


def guess_counts(name: str) -> list[int]:
    player = make_player(name, SPACE)
    return [
        play_game(player, Codemaker(SPACE, code), np.random.default_rng(i)).n_guesses
        for i, code in enumerate(SPACE.all_codes)
    ]


def test_knuth_needs_exactly_5801_guesses_and_at_most_5() -> None:
    counts = guess_counts("knuth")
    assert sum(counts) == 5801 and max(counts) == 5
    assert make_player("knuth", SPACE).deterministic


def test_first_consistent_needs_exactly_7471_guesses_and_at_most_9() -> None:
    counts = guess_counts("first_consistent")
    assert sum(counts) == 7471 and max(counts) == 9


def test_knuth_opens_with_aabb_and_first_consistent_with_aaaa() -> None:
    for name, opening in (("knuth", "AABB"), ("first_consistent", "AAAA")):
        game = play_game(
            make_player(name, SPACE), Codemaker(SPACE, "FEDC"), np.random.default_rng(0)
        )
        assert game.moves[0].guess == opening

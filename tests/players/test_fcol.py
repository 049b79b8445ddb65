import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evo_mastermind.codes import CodeSpace
from evo_mastermind.game import Codemaker, GameResult, InconsistentResponsesError, play_game
from evo_mastermind.players import make_player
from evo_mastermind.scoring import score
from evo_mastermind.scsa import SCSAS, draw_secrets
from tests.players.support import RandomCodemaker, SilentCodemaker, SwitchingCodemaker, scsa_games


def play(space: CodeSpace, secret: str, seed: int = 0, **options: int) -> GameResult:
    player = make_player("fcol", space, options)
    return play_game(player, Codemaker(space, secret), np.random.default_rng(seed))


def test_a_worked_large_game_follows_the_seed_step_by_step() -> None:
    # (5,10) has 100,000 codes, so fcol finds colours, then positions. By hand:
    # AAAAA (2,0): two As, A becomes the colour to locate.
    # ABBBB (0,1): A is not at peg 1 and there is no B (B is neutral from now on).
    # CACCC (3,0): A is at peg 2; two Cs.
    # DAADD (1,2): D (one) owns peg 3; D is used up, so it is the neutral colour.
    # The counts are complete; C (two pegs) is placed by pruning over the free pegs 1, 4, 5:
    # DADCC (3,1) puts C on the second half of the region, DADDC (3,0) on its first and last
    # quarters (of three pegs, only the last is in a quarter).
    # The last colour, A, takes the last free peg.
    result = play(CodeSpace(5, 10), "CADAC")
    assert [tuple(move) for move in result.moves] == [
        ("AAAAA", 2, 0),
        ("ABBBB", 0, 1),
        ("CACCC", 3, 0),
        ("DAADD", 1, 2),
        ("DADCC", 3, 1),
        ("DADDC", 3, 0),
        ("CADAC", 5, 0),
    ]


def test_binary_search_splits_the_free_pegs_in_halves_against_a_neutral_colour() -> None:
    result = play(CodeSpace(20, 8), "AD" * 10)
    guesses = [move.guess for move in result.moves]
    # A is counted, then placed at peg 1; B and C are absent; D is counted as A is placed
    # at peg 3. D (ten pegs) is then searched on the first half of the 18 free pegs, C
    # (the last colour found absent) on the others.
    assert guesses[:4] == ["A" * 20, "A" + "B" * 19, "AA" + "C" * 18, "AD" + "A" + "D" * 17]
    assert guesses[4] == "ADA" + "D" * 8 + "C" * 9
    assert result.solved and result.n_guesses == 15


def test_without_a_neutral_colour_the_located_colour_is_probed_peg_by_peg() -> None:
    # A and B fill the code, so C..H are never tested and no colour is known neutral: the
    # linear search goes on (A on the next peg, B elsewhere) until one colour is used up.
    result = play(CodeSpace(20, 8), "AB" * 10)
    guesses = [move.guess for move in result.moves]
    assert all(set(guess) == {"A", "B"} for guess in guesses[1:])
    assert guesses[2] == "AA" + "B" * 18 and guesses[3] == "ABA" + "B" * 17
    assert result.solved and result.n_guesses == 20


def test_small_spaces_are_sieved_with_random_consistent_guesses() -> None:
    space = CodeSpace(4, 6)
    player = make_player("fcol", space)
    counts = []
    for index, secret in enumerate(space.all_codes):
        game = play_game(player, Codemaker(space, secret), np.random.default_rng(index))
        assert game.solved
        for turn, move in enumerate(game.moves):
            for earlier in game.moves[:turn]:
                assert score(earlier.guess, move.guess) == (earlier.black, earlier.white)
        counts.append(game.n_guesses)
    # A random consistent player: 4.608 in Runarsson & Merelo 2009 (Table 2, "Random").
    assert 4.5 < float(np.mean(counts)) < 4.72 and max(counts) <= 9


def test_large_games_ignore_the_rng_and_small_games_follow_it() -> None:
    large = CodeSpace(10, 12)
    assert play(large, "ABCDEFGHIJ", seed=1).moves == play(large, "ABCDEFGHIJ", seed=2).moves
    small = CodeSpace(5, 6)
    assert play(small, "ABCDE", seed=1).moves == play(small, "ABCDE", seed=1).moves
    assert len({play(small, "ABCDE", seed=s).moves for s in range(6)}) > 1


def test_the_enumeration_threshold_is_an_option() -> None:
    space = CodeSpace(4, 6)
    result = play(space, "ABBC", enumerate_below=0)
    assert result.solved and result.moves[0].guess == "AAAA"
    result = play(CodeSpace(6, 8), "ABCDEF", enumerate_below=300_000)
    assert (result.solved and len(set(result.moves[0].guess)) > 1) or result.n_guesses == 1


SIZES = [(4, 6), (8, 10), (16, 16), (6, 20)]


@pytest.mark.parametrize("scsa", sorted(SCSAS))
def test_wins_every_sampled_game_within_100_guesses(scsa: str) -> None:
    for pegs, colors in SIZES:
        space = CodeSpace(pegs, colors)
        for text, game in scsa_games("fcol", space, scsa, 15):
            assert game.solved, (space, text, game.moves)


@pytest.mark.parametrize(
    "scsa", ["ab_color", "two_color", "two_color_alternating", "prefer_fewer", "usually_fewer"]
)
def test_wins_every_sampled_few_colour_game_at_26_by_26(scsa: str) -> None:
    space = CodeSpace(26, 26)
    player = make_player("fcol", space)
    for secret in draw_secrets(scsa, space, np.random.default_rng(26), 10):
        game = play_game(player, Codemaker(space, secret), np.random.default_rng(0), 100)
        assert game.solved


def test_without_a_neutral_colour_the_linear_search_is_long_at_26_by_26() -> None:
    # Every colour occurs once in only_once (26,26): no neutral colour until a linear
    # search uses one up, then one binary search per colour. Most games need over 100.
    space = CodeSpace(26, 26)
    player = make_player("fcol", space)
    games = [
        play_game(player, Codemaker(space, secret), np.random.default_rng(0))
        for secret in draw_secrets("only_once", space, np.random.default_rng(1), 5)
    ]
    assert all(game.solved for game in games)
    assert sum(game.n_guesses > 100 for game in games) >= 3


@pytest.mark.parametrize(("pegs", "colors"), [(4, 6), (8, 10)])
def test_a_codemaker_that_always_answers_nothing_is_caught(pegs: int, colors: int) -> None:
    space = CodeSpace(pegs, colors)
    liar = SilentCodemaker(space, "A" * pegs)
    with pytest.raises(InconsistentResponsesError, match="contradict"):
        play_game(make_player("fcol", space), liar, np.random.default_rng(0))


@pytest.mark.parametrize(("space", "switch_at"), [(CodeSpace(5, 7), 2), (CodeSpace(8, 10), 5)])
def test_a_codemaker_that_changes_its_secret_is_caught(space: CodeSpace, switch_at: int) -> None:
    first, then = "BCDEFGAB"[: space.pegs], "AAAAAAAA"[: space.pegs]
    liar = SwitchingCodemaker(space, first, then, switch_at=switch_at)
    with pytest.raises(InconsistentResponsesError, match="contradict"):
        play_game(make_player("fcol", space), liar, np.random.default_rng(0))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), pegs=st.integers(1, 12), colors=st.integers(2, 14))
def test_random_lies_are_caught(seed: int, pegs: int, colors: int) -> None:
    space = CodeSpace(pegs, colors)
    liar = RandomCodemaker(space, seed)
    with pytest.raises(InconsistentResponsesError, match="contradict"):
        play_game(make_player("fcol", space), liar, np.random.default_rng(seed), 1000)

import itertools

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evo_mastermind.codes import Codes, CodeSpace
from evo_mastermind.game import Codemaker, InconsistentResponsesError, play_game
from evo_mastermind.players import belief as belief_module
from evo_mastermind.players import make_player
from evo_mastermind.players.belief import UNSAID, JointBelief
from evo_mastermind.players.joint import JointPlayer
from evo_mastermind.scoring import Response, score_codes
from evo_mastermind.scsa import SCSAS, draw_secrets
from tests.players.support import RandomCodemaker, SilentCodemaker, SwitchingCodemaker, scsa_games


def described(belief: JointBelief, codes: Codes) -> npt.NDArray[np.int64]:
    """How many rows of the belief describe each code (see the belief's invariants)."""
    matches = np.zeros(len(codes), dtype=np.int64)
    codes = codes.astype(np.int64)
    counted = np.flatnonzero(belief.counts >= 0)
    counts_ok = (
        np.all([(codes == c).sum(axis=1) == belief.counts[c] for c in counted], axis=0)
        if counted.size
        else np.ones(len(codes), dtype=bool)
    )
    for row, deferred in zip(belief.rows.astype(np.int64), belief.deferred, strict=True):
        said = row != UNSAID
        ok = counts_ok & (codes[:, said] == row[said]).all(axis=1)
        for colour in counted:
            zone = belief.zone[colour]
            # Inside its zone a colour is where the row says and nowhere else.
            ok &= ((codes[:, zone] == colour) == (row[zone] == colour)).all(axis=1)
            outside = ~zone & ~said
            ok &= (codes[:, outside] == colour).sum(axis=1) == deferred[colour]
        matches += ok
    return matches


def consistent(space: CodeSpace, history: list[tuple[npt.NDArray[np.uint8], Response]]) -> Codes:
    codes = space.all_codes
    keep = np.ones(len(codes), dtype=bool)
    for guess, response in history:
        keep &= score_codes(guess, codes, space.colors) == response.pack(space.pegs)
    return codes[keep]


@settings(max_examples=40, deadline=None)
@given(
    pegs=st.integers(1, 5),
    colors=st.integers(2, 5),
    seed=st.integers(0, 10**6),
    row_cap=st.sampled_from([64, 2000]),
)
def test_the_belief_describes_the_consistent_codes_after_every_response(
    pegs: int, colors: int, seed: int, row_cap: int
) -> None:
    space = CodeSpace(pegs, colors)
    secret = space.sample(np.random.default_rng(seed), 1)[0]
    codemaker = Codemaker(space, secret)
    player = make_player("joint", space, {"row_cap": row_cap, "max_probes": 3})
    assert isinstance(player, JointPlayer)
    player.start(np.random.default_rng(seed))
    history: list[tuple[npt.NDArray[np.uint8], Response]] = []
    for _ in range(40):
        guess = player.ask()
        response = codemaker.respond(guess)
        if response.black == pegs:
            return
        player.tell(guess, response)
        history.append((guess, response))
        truth = set(space.indices(consistent(space, history)).tolist())
        counts = described(player.belief, space.all_codes)
        kept = set(np.flatnonzero(counts).tolist())
        assert truth <= kept and counts.max() == 1  # the secret is never lost; rows never overlap
        if not player.sums:  # a positive group test's blacks are not read
            assert kept == truth
    raise AssertionError("40 guesses on a space of at most 3125 codes")


def test_an_opening_tests_one_colour_then_probes_while_testing_the_next() -> None:
    space = CodeSpace(8, 10)
    game = play_game(
        make_player("joint", space), Codemaker(space, "HCHGFCAG"), np.random.default_rng(0)
    )
    guesses = [move.guess for move in game.moves]
    assert guesses[0] == "AAAAAAAA"
    # The second guess tests B on most pegs and probes A on the others.
    assert set(guesses[1]) == {"A", "B"} and guesses[1].count("B") >= 7
    assert game.solved and game.n_guesses <= 12


@pytest.mark.parametrize("scsa", sorted(SCSAS))
def test_wins_every_sampled_game_within_100_guesses(scsa: str) -> None:
    for pegs, colors, n in [(4, 6, 15), (8, 10, 15), (16, 16, 6), (26, 2, 3), (26, 26, 2)]:
        if scsa == "only_once" and colors < pegs:
            continue
        space = CodeSpace(pegs, colors)
        for text, game in scsa_games("joint", space, scsa, n):
            assert game.solved, (space, text, game.moves)


def test_beats_the_published_players_on_insert_colors() -> None:
    space = CodeSpace(8, 10)
    secrets = draw_secrets("insert_colors", space, np.random.default_rng(8), 40)
    means = {}
    for name in ("joint", "rao", "fcol"):
        player = make_player(name, space)
        means[name] = np.mean(
            [
                play_game(player, Codemaker(space, s), np.random.default_rng(i)).n_guesses
                for i, s in enumerate(secrets)
            ]
        )
    assert means["joint"] < 12 < means["rao"] < means["fcol"], means


def test_the_same_game_seed_gives_the_same_game() -> None:
    space = CodeSpace(12, 12)
    for options in ({}, {"color_order": "random"}):
        games = [
            play_game(
                make_player("joint", space, options),
                Codemaker(space, "ABCABCDDEEFF"),
                np.random.default_rng(7),
            )
            for _ in range(2)
        ]
        assert games[0].moves == games[1].moves and games[0].solved
    shuffled = {
        play_game(
            make_player("joint", space, {"color_order": "random"}),
            Codemaker(space, "ABCABCDDEEFF"),
            np.random.default_rng(seed),
        )
        .moves[0]
        .guess
        for seed in range(6)
    }
    assert len(shuffled) > 1


@pytest.mark.parametrize(("pegs", "colors"), [(4, 6), (12, 14)])
def test_a_codemaker_that_always_answers_nothing_is_caught(pegs: int, colors: int) -> None:
    space = CodeSpace(pegs, colors)
    with pytest.raises(InconsistentResponsesError, match="contradict"):
        play_game(
            make_player("joint", space),
            SilentCodemaker(space, "A" * pegs),
            np.random.default_rng(0),
        )


def test_a_codemaker_that_changes_its_secret_is_caught() -> None:
    space = CodeSpace(8, 10)
    liar = SwitchingCodemaker(space, "HCHGFCAG", "ABCDEFGH", switch_at=6)
    with pytest.raises(InconsistentResponsesError, match="contradict"):
        play_game(make_player("joint", space), liar, np.random.default_rng(0))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), pegs=st.integers(1, 10), colors=st.integers(2, 12))
def test_random_lies_are_caught(seed: int, pegs: int, colors: int) -> None:
    space = CodeSpace(pegs, colors)
    liar = RandomCodemaker(space, seed)
    with pytest.raises(InconsistentResponsesError, match="contradict"):
        play_game(make_player("joint", space), liar, np.random.default_rng(seed), 500)


@settings(max_examples=60, deadline=None)
@given(
    open_places=st.lists(st.lists(st.booleans(), min_size=6, max_size=6), min_size=1, max_size=5),
    bounds=st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), min_size=5, max_size=5),
    shared=st.booleans(),
)
def test_placements_are_every_subset_of_each_rows_open_places_within_its_bounds(
    open_places: list[list[bool]], bounds: list[tuple[int, int]], shared: bool
) -> None:
    places = np.array(open_places, dtype=bool)
    least = np.array([low for low, _ in bounds[: len(places)]], dtype=np.int64)
    most = np.array([high for _, high in bounds[: len(places)]], dtype=np.int64)
    pairs = belief_module.SHARED_PAIRS
    belief_module.SHARED_PAIRS = pairs if shared else 0
    try:
        rows, masks = belief_module._placements(places, least, most)
    finally:
        belief_module.SHARED_PAIRS = pairs
    found = {(int(r), tuple(m)) for r, m in zip(rows, masks, strict=True)}
    assert len(found) == len(rows)
    expected = {
        (r, tuple(np.isin(np.arange(6), members)))
        for r in range(len(places))
        for size in range(least[r], most[r] + 1)
        for members in itertools.combinations(np.flatnonzero(places[r]), size)
    }
    assert found == expected


def test_a_colour_that_must_fill_the_open_places_is_placed_without_enumerating_them() -> None:
    # C is counted and located by guess 17; Z, never tested, takes the other 15 pegs. Listing
    # every subset of 26 positions up to size 15 (about 6e7) once took minutes here.
    space = CodeSpace(26, 26)
    secret = "CCZZCZZZZZZCZZCCCZCZZCZCZC"
    player = make_player("joint", space, {"group_tests": False})
    game = play_game(player, Codemaker(space, secret), np.random.default_rng(1))
    assert game.solved and game.n_guesses <= 30
    assert "Z" not in "".join(move.guess for move in game.moves[:-1])


@pytest.mark.slow
@pytest.mark.parametrize("scsa", sorted(SCSAS))
def test_wins_every_one_of_many_games_at_26_by_26(scsa: str) -> None:
    games = scsa_games("joint", CodeSpace(26, 26), scsa, 25, draw_seed=2626, root_seed=7)
    for text, game in games:
        assert game.solved and game.n_guesses <= 60, (text, game.n_guesses)


def test_placements_enumerate_only_the_sizes_the_rows_allow(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from evo_mastermind.players import belief

    asked: list[tuple[int, int, int]] = []
    real = belief.small_subsets

    def spy(length: int, least: int, most: int) -> np.ndarray:
        asked.append((length, least, most))
        return real(length, least, most)

    monkeypatch.setattr(belief, "small_subsets", spy)
    full = np.ones((1, 22), dtype=bool)
    row, chosen = belief._placements(full, np.array([22]), np.array([22]))
    assert asked == [(22, 22, 22)]  # not every subset of 22 places (once: 4 million of them)
    assert row.tolist() == [0] and chosen.all()

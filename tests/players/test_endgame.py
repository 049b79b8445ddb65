"""The exact end game: the optimum of the set it takes over, never worse, the same games."""

import importlib
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from evo_mastermind.codes import CodeSpace
from evo_mastermind.game import Codemaker, GameResult, play_game
from evo_mastermind.optimal.solver import OptimalSolver
from evo_mastermind.players import Player, make_player
from evo_mastermind.players import endgame as endgame_module
from evo_mastermind.players.base import InvalidPlayerParamsError
from evo_mastermind.scoring import score
from tests.optimal import oracle

ROOT = Path(__file__).resolve().parents[2]


def play_every_secret(player: Player, space: CodeSpace, seeds: str = "one") -> list[GameResult]:
    """Every secret of ``space``, with one generator seed for every game or each its own.

    With ``seeds="one"`` the player is one fixed strategy (its draws depend on the history).
    """
    return [
        play_game(
            player,
            Codemaker(space, code),
            np.random.default_rng(7 if seeds == "one" else [7, i]),
        )
        for i, code in enumerate(space.all_codes)
    ]


def total(results: list[GameResult]) -> int:
    assert all(r.solved for r in results)
    return sum(r.n_guesses for r in results)


def optimum_after(space: CodeSpace, opening: str) -> int:
    return OptimalSolver.of(space).solve(first_guess=opening).total


@pytest.mark.parametrize(("pegs", "colors", "opening"), [(3, 4, "AAB"), (4, 4, "AABC")])
@pytest.mark.parametrize("name", ["sampler", "archive"])
def test_a_threshold_covering_the_space_plays_the_optimum(
    name: str, pegs: int, colors: int, opening: str
) -> None:
    space = CodeSpace(pegs, colors)
    player = make_player(name, space, {"endgame": space.size, "first_guess": opening})
    results = play_every_secret(player, space, seeds="each")
    assert total(results) == optimum_after(space, opening)  # (3,4) 206, (4,4) 905


def test_on_3x4_the_end_game_is_the_oracles_optimum() -> None:
    # The oracle shares no code with the search; AAB is an optimal opening of (3,4).
    space = CodeSpace(3, 4)
    results = play_every_secret(make_player("sampler", space, {"endgame": 64}), space, "each")
    assert total(results) == oracle.optimal_total(3, 4)[0] == 206


def test_on_4x5_the_sampler_with_the_end_game_is_the_optimum_after_its_opening() -> None:
    space = CodeSpace(4, 5)
    results = play_every_secret(make_player("sampler", space, {"endgame": 625}), space, "each")
    assert total(results) == optimum_after(space, "AABC")


@pytest.mark.slow  # (4,7): about 25 CPU seconds, most of it solving the parts after AABC
@pytest.mark.parametrize(("pegs", "colors", "optimum"), [(4, 6, 5625), (4, 7, 11228)])
def test_on_4x6_and_4x7_the_end_game_covering_the_space_is_the_published_optimum(
    pegs: int, colors: int, optimum: int
) -> None:
    # Koyama & Lai (1993) on (4,6), Ville (2013) on (4,7); no work limit.
    space = CodeSpace(pegs, colors)
    options = {"endgame": space.size, "endgame_work": 10**13}
    results = play_every_secret(make_player("sampler", space, options), space, "each")
    assert total(results) == optimum


def activation_sets(
    results: list[GameResult], ends: list[int]
) -> dict[tuple[tuple[str, int, int], ...], list[int]]:
    """Secrets' guesses from the end game's first move on, by the history it started from."""
    groups: dict[tuple[tuple[str, int, int], ...], list[int]] = defaultdict(list)
    for result, moves in zip(results, ends, strict=True):
        if moves:
            start = result.n_guesses - moves
            key = tuple((m.guess, m.black, m.white) for m in result.moves[:start])
            groups[key].append(moves)
    return groups


class Recording:
    """The end game's moves of each game played (read after the game)."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.ends: list[int] = []

    def play(self, space: CodeSpace) -> list[GameResult]:
        results = []
        for code in space.all_codes:
            results.append(play_game(self.player, Codemaker(space, code), np.random.default_rng(7)))
            self.ends.append(self.player.endgame.moves)  # type: ignore[attr-defined]
        return results


def set_optimum(space: CodeSpace, members: list[int], history: list[str]) -> int:
    """The optimum of a set, by the oracle on (3,*) games, else the tested solver."""
    if space.pegs == 3:
        best = oracle._game(space.pegs, space.colors).best(frozenset(members), None)
        assert best is not None
        return best[0]
    solver = OptimalSolver.of(space)
    played = [space.index(space.parse(guess)) for guess in history]
    return solver._solve(np.array(members, dtype=np.int32), 255, 1 << 39, played)[0]


@pytest.mark.parametrize(
    ("pegs", "colors", "threshold"),
    [(3, 4, 6), (3, 4, 20), (4, 4, 6), (4, 4, 40), pytest.param(4, 5, 25, marks=pytest.mark.slow)],
)
def test_each_set_it_takes_over_is_played_optimally_and_never_worse(
    pegs: int, colors: int, threshold: int
) -> None:
    # One seed for every game makes the sampler one fixed strategy: every secret of a set
    # reaches it by the same history, so each set's guesses are its optimum's (the oracle's),
    # and the total is never above the same strategy without the end game.
    space = CodeSpace(pegs, colors)
    plain = total(play_every_secret(make_player("sampler", space), space))
    recording = Recording(make_player("sampler", space, {"endgame": threshold}))
    results = recording.play(space)
    groups = activation_sets(results, recording.ends)
    assert groups and 0 < sum(recording.ends) < sum(r.n_guesses for r in results)
    for history, needs in groups.items():
        members = [
            i
            for i, code in enumerate(space.all_codes)
            if all(score(guess, code) == (black, white) for guess, black, white in history)
        ]
        assert len(members) == len(needs) <= threshold
        assert sum(needs) == set_optimum(space, members, [guess for guess, _, _ in history])
    assert total(results) <= plain


def test_work_that_runs_out_leaves_the_players_own_games() -> None:
    # One unit of work never finishes a search; sets of one or two need none (it plays the
    # lower code where the sampler draws one). Until then the games are move for move those
    # without the end game: it draws nothing from the generator.
    space = CodeSpace(4, 5)
    secrets = space.all_codes[::7]
    plain = make_player("sampler", space)
    starved = make_player("sampler", space, {"endgame": 200, "endgame_work": 1})
    misses = 0
    for i, code in enumerate(secrets):
        a = play_game(plain, Codemaker(space, code), np.random.default_rng([1, i]))
        b = play_game(starved, Codemaker(space, code), np.random.default_rng([1, i]))
        played = starved.endgame.moves  # type: ignore[attr-defined]
        assert played <= 2 and a.moves[: b.n_guesses - played] == b.moves[: b.n_guesses - played]
        misses += starved.endgame.misses  # type: ignore[attr-defined]
    assert misses > 0


def games(player: Player, space: CodeSpace, order: list[int]) -> dict[int, Any]:
    return {
        i: play_game(
            player, Codemaker(space, space.all_codes[i]), np.random.default_rng([3, i])
        ).moves
        for i in order
    }


def test_a_work_budget_gives_the_same_games_in_any_order_and_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A budget that some searches exhaust and others do not: whether a search finishes is a
    # function of its set, never of the searches before it (kept sets included).
    space = CodeSpace(4, 5)
    options = {"endgame": 120, "endgame_work": 2_000_000}
    order = list(range(0, space.size, 5))
    forward = games(make_player("sampler", space, options), space, order)
    endgame_module._KEPT.clear()
    monkeypatch.setattr(endgame_module, "KEPT", 1)
    backward = games(make_player("sampler", space, options), space, order[::-1])
    assert forward == backward


def test_the_budget_is_exercised_both_ways() -> None:
    space = CodeSpace(4, 5)
    player = make_player("sampler", space, {"endgame": 120, "endgame_work": 2_000_000})
    moves = misses = 0
    for i in range(0, space.size, 5):
        play_game(player, Codemaker(space, space.all_codes[i]), np.random.default_rng([3, i]))
        moves += player.endgame.moves  # type: ignore[attr-defined]
        misses += player.endgame.misses  # type: ignore[attr-defined]
    assert moves > 0 and misses > 0


def brute_force_over(
    guesses: list[tuple[int, ...]], members: frozenset[tuple[int, ...]], pegs: int
) -> int:
    """The fewest guesses over ``members`` with only ``guesses`` to play (plain recursion)."""
    known: dict[frozenset[tuple[int, ...]], int] = {}

    def best(left: frozenset[tuple[int, ...]]) -> int:
        if len(left) == 1:
            return 1
        if left in known:
            return known[left]
        value = 1 << 30
        for guess in guesses:
            parts: dict[tuple[int, int], set[tuple[int, ...]]] = defaultdict(set)
            for code in left:
                response = oracle.score(guess, code)
                if response != (pegs, 0):
                    parts[response].add(code)
            if any(len(part) == len(left) for part in parts.values()):
                continue
            value = min(value, len(left) + sum(best(frozenset(p)) for p in parts.values()))
        known[left] = value
        return value

    return best(members)


@pytest.mark.parametrize("extra", [0, 6, 40])
def test_on_a_large_game_the_optimum_is_over_the_consistent_codes_and_a_pool(extra: int) -> None:
    # Forced into pool mode on (3,4): the end game's guesses from a set on are the
    # optimum over that set's pool (consistent codes first, then the best-splitting codes
    # one peg away), computed by plain recursion.
    space = CodeSpace(3, 4)
    player = make_player("sampler", space, {"endgame": 64, "endgame_pool": extra})
    player.endgame.full = False  # type: ignore[attr-defined]
    recording = Recording(player)
    results = recording.play(space)
    for history, needs in activation_sets(results, recording.ends).items():
        members = [
            code
            for code in space.all_codes
            if all(score(guess, code) == (black, white) for guess, black, white in history)
        ]
        pool = endgame_module.pool_codes(np.array(members), extra, space.colors)
        assert pool.shape[0] == len(members) + min(extra, pool.shape[0] - len(members))
        as_tuples = [tuple(int(c) for c in code) for code in pool]
        assert sum(needs) == brute_force_over(as_tuples, frozenset(as_tuples[: len(members)]), 3)


def test_the_pool_is_the_best_splitting_codes_one_peg_away() -> None:
    space = CodeSpace(4, 6)
    members = space.all_codes[[0, 7, 43, 200, 201, 900]]
    pool = endgame_module.pool_codes(members, 5, space.colors)
    assert (pool[:6] == members).all() and pool.shape == (11, 4)
    extra = pool[6:]
    assert all(min(int((code != m).sum()) for m in members) == 1 for code in extra)
    assert len({tuple(c) for c in pool}) == 11


@pytest.mark.parametrize(
    ("options", "problem"),
    [({"endgame": -1}, "endgame"), ({"endgame_work": 0}, "endgame_work")],
)
def test_bad_options_are_named(options: dict[str, int], problem: str) -> None:
    with pytest.raises(InvalidPlayerParamsError, match=problem):
        make_player("sampler", CodeSpace(4, 6), options)


def test_the_expected_guesses_from_the_set_taken_over_add_up_to_the_total() -> None:
    # Every secret of a set reaches it, so the guesses before it plus the optimum's mean
    # over the set, summed over its secrets, are exactly their guesses.
    space = CodeSpace(4, 4)
    player = make_player("sampler", space, {"endgame": 40})
    expected, guesses = [], 0
    for code in space.all_codes:
        result = play_game(player, Codemaker(space, code), np.random.default_rng(7))
        guesses += result.n_guesses
        found = player.endgame.expected  # type: ignore[attr-defined]
        expected.append(result.n_guesses if found is None else found)
    assert sum(expected) == pytest.approx(guesses)
    assert sum(e != int(e) for e in expected) > 0  # a mean over a set, not a count


def test_a_plugin_player_takes_the_end_game_through_the_public_names(
    registry: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # mylab's colourful (examples/custom_player), written as a user would: EndgameParams for
    # its options, EndGame asked first at every move after the opening.
    monkeypatch.syspath_prepend(str(ROOT / "examples" / "custom_player" / "src"))
    importlib.import_module("mylab.players")
    space = CodeSpace(3, 4)
    options = {"first_guess": "ABC"}
    alone = play_every_secret(make_player("colourful", space, options), space, "each")
    finished = make_player("colourful", space, {**options, "endgame": space.size})
    results = play_every_secret(finished, space, "each")
    # 208: the optimum after ABC; alone, its random ties happen to play 207 on these draws.
    assert total(results) == optimum_after(space, "ABC") == 208 != total(alone)
    endgame = getattr(finished, "endgame")  # noqa: B009 - the plugin's own attribute
    assert isinstance(endgame, endgame_module.EndGame) and endgame.moves > 0
    with pytest.raises(InvalidPlayerParamsError, match="endgame"):
        make_player("colourful", space, {"endgame": -1})

"""The exact solver held to the independent brute-force oracle and to the (4,6) optimum."""

from __future__ import annotations

import itertools
from typing import Literal

import numpy as np
import pytest

from evo_mastermind.codes import CodeSpace, InvalidGameError
from evo_mastermind.optimal.solver import OptimalSolver, Solution
from evo_mastermind.players import make_player
from evo_mastermind.players.tree_building import build_tree
from tests.optimal.oracle import InfeasibleError, optimal_total

# Every game the oracle finishes in about a second or less.
GAMES = [(1, 2), (1, 5), (2, 2), (2, 3), (2, 4), (2, 5), (2, 6), (3, 2), (3, 3), (4, 2), (5, 2)]


def solved(
    pegs: int,
    colors: int,
    max_guesses: int | None = None,
    objective: Literal["expected", "worst"] = "expected",
    first_guess: str | None = None,
) -> Solution:
    return OptimalSolver(CodeSpace(pegs, colors)).solve(max_guesses, objective, first_guess)


@pytest.mark.parametrize(("pegs", "colors"), [*GAMES, (3, 4), (4, 3)])
def test_totals_equal_the_oracle(pegs: int, colors: int) -> None:
    solution = solved(pegs, colors)
    assert (solution.total, solution.depth) == optimal_total(pegs, colors)
    assert solution.complete and solution.lower == solution.total


@pytest.mark.parametrize(("pegs", "colors"), GAMES)
def test_worst_case_objective_equals_the_oracle(pegs: int, colors: int) -> None:
    solution = solved(pegs, colors, objective="worst")
    assert (solution.total, solution.depth) == optimal_total(pegs, colors, objective="worst")


@pytest.mark.parametrize(("pegs", "colors"), [(2, 4), (2, 5), (3, 3), (4, 2), (2, 6)])
def test_every_guess_limit_equals_the_oracle(pegs: int, colors: int) -> None:
    for limit in range(1, optimal_total(pegs, colors)[1] + 1):
        try:
            expected = optimal_total(pegs, colors, max_guesses=limit)
        except InfeasibleError:
            with pytest.raises(InvalidGameError, match=f"within {limit} guesses"):
                solved(pegs, colors, max_guesses=limit)
            continue
        solution = solved(pegs, colors, max_guesses=limit)
        assert (solution.total, solution.depth) == expected
        assert solution.depth <= limit


@pytest.mark.parametrize(("pegs", "colors"), [(2, 4), (3, 3), (4, 2), (2, 6)])
def test_every_opening_equals_the_oracle(pegs: int, colors: int) -> None:
    space = CodeSpace(pegs, colors)
    for code in space.format_all(space.all_codes):
        solution = solved(pegs, colors, first_guess=code)
        assert (solution.total, solution.depth) == optimal_total(pegs, colors, first_guess=code)
        assert solution.nodes[()] == space.index(space.parse(code))


@pytest.mark.parametrize(("pegs", "colors"), [(2, 5), (3, 3), (4, 2)])
def test_ties_go_to_the_lowest_code(pegs: int, colors: int) -> None:
    """The opening is the first code reaching the optimum, and fixing it changes nothing.

    The tree is a function of the game, not of the path the search took.
    """
    space = CodeSpace(pegs, colors)
    best = solved(pegs, colors)
    openings = space.format_all(space.all_codes)
    totals = [optimal_total(pegs, colors, first_guess=code)[0] for code in openings]
    assert best.nodes[()] == totals.index(min(totals))
    assert solved(pegs, colors, first_guess=openings[best.nodes[()]]).nodes == best.nodes


@pytest.mark.parametrize(("pegs", "colors"), [(2, 6), (3, 4), (4, 3)])
def test_the_tree_finds_every_secret_in_its_count(pegs: int, colors: int) -> None:
    space = CodeSpace(pegs, colors)
    player = make_player("optimal", space, {})
    tree = build_tree(player)
    counts = tree.guess_counts()
    assert int(counts.sum()) == optimal_total(pegs, colors)[0]
    for index, secret in enumerate(space.format_all(space.all_codes)):
        moves = tree.play(secret)
        assert moves[-1][0] == secret and len(moves) == counts[index]
    # the player plays the same games by itself
    for index in (0, space.size // 2, space.size - 1):
        secret = space.all_codes[index]
        player.start(np.random.default_rng(0))
        for turn in itertools.count(1):
            guess = player.ask()
            if np.array_equal(guess, secret):
                assert turn == counts[index]
                break
            from evo_mastermind.scoring import score

            player.tell(guess, score(space.format(guess), space.format(secret)))


def test_bad_options_are_one_clear_error() -> None:
    with pytest.raises(InvalidGameError, match="at most"):
        make_player("optimal", CodeSpace(6, 6), {})
    with pytest.raises(InvalidGameError, match="letters"):
        make_player("optimal", CodeSpace(4, 6), {"first_guess": "AAB"})


@pytest.mark.slow
def test_classic_game_optimum() -> None:
    """Koyama & Lai (1993): 5625 guesses (mean 4.340, max 6); 5626 within 5 guesses."""
    best = solved(4, 6)
    assert (best.total, best.depth) == (5625, 6)
    limited = solved(4, 6, max_guesses=5)
    assert (limited.total, limited.depth) == (5626, 5)
    worst = solved(4, 6, objective="worst")
    assert (worst.total, worst.depth) == (5626, 5)


@pytest.mark.parametrize(("pegs", "colors"), [(3, 4), (4, 4)])
def test_a_tree_the_table_forgot_is_searched_again_alike(pegs: int, colors: int) -> None:
    """Read off an empty table, every part left by the compiled walk is searched anew."""
    solver = OptimalSolver(CodeSpace(pegs, colors))
    best = solver.solve()
    forgetful = OptimalSolver(CodeSpace(pegs, colors))  # its table has proven nothing
    everything = np.arange(solver.space.size, dtype=np.int32)
    nodes, counts = forgetful.subtree(everything, 255, best.nodes[()], [])
    assert nodes == best.nodes and list(nodes) == list(best.nodes)  # the same order too
    assert np.array_equal(counts, best.guesses)

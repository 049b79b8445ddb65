"""Every option of every registered player changes how it plays.

For each option, a value other than its default, on a game and secrets where it matters:
the same games (same secrets, same generators) played with and without it must differ in
their moves or in what the player counted. The table must name every option the registry
lists, so a new option comes with its effect. Options whose effect is a refusal (a value
the player cannot play) say so instead.
"""

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from evo_mastermind.codes import CodeSpace, InvalidGameError
from evo_mastermind.game import Codemaker, play_game
from evo_mastermind.players import make_player
from evo_mastermind.players.base import PLAYERS


@dataclass(frozen=True)
class Effect:
    """A value of one option, and where changing to it shows."""

    value: Any
    base: dict[str, Any] = field(default_factory=dict)
    game: tuple[int, int] = (4, 6)
    games: int = 3


ENDGAME = {
    "endgame": Effect(100),
    # One unit of work never finishes a search: the player's own moves.
    "endgame_work": Effect(1, {"endgame": 200}),
    # Codes outside the set: on games above 7,776 codes only.
    "endgame_pool": Effect(0, {"endgame": 200}, (5, 8), 4),
}
EXHAUSTIVE = {
    "ties": Effect("lexicographic"),
    "pool": Effect("all"),
    "mu": Effect(3),
    "first_guess": Effect("ABCD"),
}
GENETIC = {
    "population_size": Effect(20),
    "first_guess": Effect("ABCD"),
    "max_stagnant_generations": Effect(1, {"population_size": 10}, (5, 8), 3),
    # A cap below one population: the first move whose first batch holds no consistent code
    # is capped (stats count it); a game of capped guesses still ends, slowly, so (4,6).
    "max_evaluations_per_guess": Effect(60, {"population_size": 50}, (4, 6), 3),
    "offspring_size": Effect(20),
    "tournament_size": Effect(5),
    "crossover_probability": Effect(1.0),
    "mutation_probability": Effect(0.1),
    "swap_probability": Effect(0.9),
}
EFFECTS: dict[tuple[str, str], Effect] = {
    **{
        (name, option): effect
        for name in ("entropy", "most_parts", "expected_size", "worst_case", "random", "one_ply")
        for option, effect in EXHAUSTIVE.items()
        if (name, option) != ("random", "pool")
    },
    ("one_ply", "heuristic"): Effect("worst_case"),
    **{("local_entropy", option): EXHAUSTIVE[option] for option in ("ties", "mu", "first_guess")},
    ("knuth", "first_guess"): Effect("ABCD"),
    # The (4,6) optimum within 5 guesses differs from the optimum (max 6) on 39 secrets.
    ("optimal", "max_guesses"): Effect(5, games=300),
    ("optimal", "objective"): Effect("worst", games=300),
    ("optimal", "first_guess"): Effect("ABC", game=(3, 4)),
    ("first_consistent", "first_guess"): Effect("ABCD"),
    **{("ga", option): effect for option, effect in GENETIC.items()},
    **{("archive", option): effect for option, effect in GENETIC.items()},
    ("archive", "mu"): Effect(5),
    ("archive", "heuristic"): Effect("worst_case"),
    ("archive", "heuristic_when_full"): Effect(
        "expected_size", {"mu": 20, "heuristic": "worst_case"}, (4, 6), 6
    ),
    ("archive", "play"): Effect("all"),
    ("archive", "max_generations_without_new"): Effect(1, {"mu": 200}),
    ("archive", "search"): Effect("deap"),
    ("archive", "neighbourhood_radius"): Effect(0, {"mu": 200, "rearrange": False}, (5, 8), 3),
    ("archive", "rearrange"): Effect(False, {"mu": 200, "neighbourhood_radius": 0}, (5, 8), 3),
    ("archive", "neighbourhood_budget"): Effect(10, {"mu": 200}, (5, 8), 3),
    ("archive", "pool_limit"): Effect(5, {"play": "all"}),
    ("archive", "lookahead_width"): Effect(1, {"heuristic": "lookahead"}),
    ("archive", "remaining_a"): Effect(0.0, {"heuristic": "lookahead", "lookahead_width": 30}),
    ("archive", "remaining_b"): Effect(5.0, {"heuristic": "lookahead", "mu": 100}, (4, 6), 6),
    ("archive", "uniform_seeds"): Effect(10),
    # A short search without scans leaves the archive below mu: completion fills it.
    ("archive", "uniform_complete"): Effect(
        True, {"mu": 200, "max_generations_without_new": 1, "neighbourhood_radius": 0}
    ),
    **{
        ("eda", option): GENETIC[option]
        for option in (
            "population_size",
            "first_guess",
            "max_stagnant_generations",
            "max_evaluations_per_guess",
        )
    },
    ("sampler", "mu"): Effect(5),
    ("sampler", "heuristic"): Effect("worst_case"),
    ("sampler", "heuristic_when_full"): Effect(
        "expected_size", {"mu": 20, "heuristic": "worst_case"}, (4, 6), 6
    ),
    ("sampler", "play"): Effect("all"),
    ("sampler", "pool_limit"): Effect(5, {"play": "all"}),
    ("sampler", "lookahead_width"): Effect(1, {"heuristic": "lookahead"}),
    ("sampler", "remaining_a"): Effect(0.0, {"heuristic": "lookahead", "lookahead_width": 30}),
    ("sampler", "remaining_b"): Effect(5.0, {"heuristic": "lookahead", "mu": 100}, (4, 6), 6),
    ("sampler", "first_guess"): Effect("ABCD"),
    # μ = 10 codes a move; the whole set (and the lookahead) from 200 codes down.
    ("sampler", "whole_set"): Effect(
        200, {"mu": 10, "heuristic": "lookahead", "heuristic_when_full": "entropy"}
    ),
    **{
        (name, option): effect
        for name in ("sampler", "archive")
        for option, effect in ENDGAME.items()
    },
    ("eda", "replacement_rate"): Effect(0.9),
    ("eda", "fitness"): Effect("f"),
    ("eda", "smoothing"): Effect(0.5),
    ("fcol", "enumerate_below"): Effect(1, {}, (5, 8), 4),
    ("fcol", "region_prune_below"): Effect(2, {}, (8, 12), 3),
    ("joint", "color_order"): Effect("random", {}, (6, 9), 4),
    ("joint", "row_cap"): Effect(64, {}, (6, 9), 4),
    ("joint", "probe_sample"): Effect(16, {}, (8, 12), 3),
    ("joint", "max_probes"): Effect(1, {}, (6, 9), 4),
    ("joint", "group_tests"): Effect(False, {}, (6, 9), 4),
    ("rao", "color_order"): Effect("random"),
    ("rao", "variant"): Effect("fbi", {}, (6, 9), 4),
}
REFUSALS: dict[tuple[str, str], Any] = {
    # Local entropy ranks candidate codes, not partitions: only consistent codes are scored.
    ("local_entropy", "pool"): "all",
    # Random scores every guess alike and consistent codes win ties: all codes change nothing.
    ("random", "pool"): "all",
    # The tree's file decides every guess; one that is not there cannot be played.
    ("tree", "path"): "no/such/tree.json",
    # A checkpoint only spares a long search its repetition (the same tree): one that
    # cannot be written is refused before any search.
    ("optimal", "checkpoint"): "no/such/directory/search.json",
    # Threads only share the search's work (the same tree, tested in tests/optimal/test_team.py):
    # fewer than one is refused.
    ("optimal", "threads"): 0,
}


def test_every_option_of_every_player_has_an_effect_here() -> None:
    options = {
        (name, option) for name, cls in PLAYERS.items() for option in cls.Params.model_fields
    }
    builtin = {
        (name, option)
        for name, option in options
        if PLAYERS[name].__module__.startswith("evo_mastermind.")
    }
    assert builtin == set(EFFECTS) | set(REFUSALS)


def games(name: str, options: dict[str, Any], effect: Effect) -> list[tuple[object, ...]]:
    space = CodeSpace(*effect.game)
    player = make_player(name, space, options)
    played: list[tuple[object, ...]] = []
    for i, secret in enumerate(space.sample(np.random.default_rng(11), effect.games)):
        result = play_game(player, Codemaker(space, secret), np.random.default_rng([11, i]))
        played.append((result.moves, result.stats))
    return played


@pytest.mark.slow  # about 80 options, each with its games played twice
@pytest.mark.parametrize(
    ("name", "option"),
    sorted(EFFECTS),
)
def test_changing_an_option_changes_the_games(name: str, option: str) -> None:
    effect = EFFECTS[name, option]
    assert PLAYERS[name].Params.model_fields[option].default != effect.value
    before = games(name, effect.base, effect)
    after = games(name, effect.base | {option: effect.value}, effect)
    assert before != after


@pytest.mark.parametrize(("name", "option"), sorted(REFUSALS))
def test_an_option_value_that_cannot_play_is_refused(
    name: str, option: str, tmp_path: Path
) -> None:
    with pytest.raises(InvalidGameError, match=option if option != "path" else "no decision tree"):
        make_player(name, CodeSpace(4, 6), {option: REFUSALS[name, option]})

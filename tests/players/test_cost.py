"""Each player estimates its own games' cost; the plan only adds the estimates up."""

from pathlib import Path

import numpy as np
import pytest
import yaml

from evo_mastermind.codes import Code, CodeSpace
from evo_mastermind.players import (
    Player,
    PlayerParams,
    known_player,
    register_player,
    validate_params,
)
from evo_mastermind.players.cost import PAIRS_PER_SECOND, Cost
from evo_mastermind.runner import load_config
from evo_mastermind.runner.plan import estimate_plan
from evo_mastermind.scoring import Response


def estimate(name: str, options: dict[str, object], space: CodeSpace) -> Cost:
    return known_player(name).estimate(validate_params(name, options), space)


def test_one_ply_players_cost_the_square_of_the_space() -> None:
    space = CodeSpace(6, 9)
    fifth = space.size / 5
    assert estimate("knuth", {}, space).seconds == pytest.approx(
        fifth * space.size / PAIRS_PER_SECOND
    )
    assert estimate("entropy", {}, space).seconds == pytest.approx(fifth * fifth / PAIRS_PER_SECOND)
    assert estimate("one_ply", {"pool": "all", "mu": 100}, space).seconds == pytest.approx(
        100 * space.size / PAIRS_PER_SECOND
    )


def test_exhaustive_players_cost_the_memory_of_the_listed_space() -> None:
    small, large = estimate("knuth", {}, CodeSpace(4, 6)), estimate("knuth", {}, CodeSpace(8, 7))
    assert 0 < small.memory < 2**20 and large.memory > 4_000 * small.memory


def test_evolutionary_players_cost_their_populations_memory() -> None:
    space = CodeSpace(5, 8)
    small = estimate(
        "archive", {"mu": 10, "pool_limit": 10, "population_size": 10, "lookahead_width": 10}, space
    )
    large = estimate(
        "archive",
        {"mu": 100_000, "pool_limit": 10, "population_size": 10, "lookahead_width": 10},
        space,
    )
    # The archive's members and, above all, the choice's responses (each guess by each member).
    assert small.seconds is not None and large.seconds is not None
    assert large.seconds > 10 * small.seconds  # the choice, μ² pairs a move
    assert large.memory >= 2 * 100_000**2 > 10_000 * small.memory
    assert estimate("ga", {"population_size": 500}, space).memory > estimate("ga", {}, space).memory


def test_the_sampler_costs_its_choice_over_the_sample() -> None:
    space = CodeSpace(8, 12)
    default = estimate("sampler", {}, space)
    assert default.seconds is not None and default.seconds < 1
    assert default.memory < 2**30
    # μ codes scored against μ codes at every move: time and memory grow with μ².
    huge = estimate("sampler", {"mu": 1_000_000_000}, space)
    assert huge.memory > 10**18 and huge.seconds is not None and huge.seconds > 10**9
    wider = estimate("sampler", {"play": "all", "heuristic": "lookahead"}, space)
    assert wider.seconds is not None and wider.seconds > 3 * default.seconds


def test_a_users_player_enters_the_plan_with_its_own_estimate(
    registry: None, tmp_path: Path
) -> None:
    class SlowParams(PlayerParams):
        minutes: float = 1.0
        """How long a game takes."""

    @register_player("slow_for_cost")
    class SlowPlayer(Player[SlowParams]):
        """Plays AAAA forever (a toy with a cost)."""

        Params = SlowParams

        @classmethod
        def estimate(cls, params: PlayerParams, space: CodeSpace) -> Cost:
            assert isinstance(params, SlowParams)
            return Cost(seconds=60 * params.minutes, memory=123)

        def start(self, rng: np.random.Generator) -> None:
            pass

        def ask(self) -> Code:
            return np.zeros(self.space.pegs, dtype=np.uint8)

        def tell(self, guess: Code, response: Response) -> None:
            pass

    path = tmp_path / "c.yaml"
    entry = {"label": "Slow", "player": "slow_for_cost", "minutes": 2.0}
    config = {"name": "c", "game": {"pegs": 3, "colors": 3}, "secrets": {"sample": 5}, "runs": 2}
    path.write_text(yaml.safe_dump({**config, "players": [entry]}))
    plan = estimate_plan(load_config(path))
    assert plan.seconds == pytest.approx(2 * 5 * 120.0)
    assert plan.slowest == "Slow on (3,3): ~120.0 s a game"

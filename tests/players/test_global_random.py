"""No player reads or writes the global random state: each game draws from its own seed."""

import random
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np
import pytest

from evo_mastermind.codes import CodeSpace
from evo_mastermind.game import Codemaker, play_game
from evo_mastermind.players import make_player
from evo_mastermind.seeding import game_rng
from tests.players.support import every_player

SPACE = CodeSpace(4, 6)
SECRETS = ["ABCD", "FFAA", "CEEB"]


class GlobalRandomUsedError(AssertionError):
    """A player drew from, seeded or read the global random state."""


def _global_functions() -> list[tuple[Any, str]]:
    """Every function of ``random`` and of numpy's legacy ``np.random`` bound to a global state."""
    found = [
        (random, name)
        for name in dir(random)
        if getattr(getattr(random, name), "__self__", None) is random._inst
    ]
    legacy = np.random.mtrand._rand
    found += [
        (np.random, name)
        for name in dir(np.random)
        if getattr(getattr(np.random, name), "__self__", None) is legacy
    ]
    found.append((np.random, "seed"))
    return found


@contextmanager
def global_random_forbidden() -> Iterator[None]:
    """Every global random function raises inside the block."""

    def forbidden(name: str) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            raise GlobalRandomUsedError(f"a player called the global random function {name}")

        return call

    with ExitStack() as stack:
        for module, name in _global_functions():
            stack.enter_context(mock.patch.object(module, name, forbidden(name)))
        yield


def test_the_guard_catches_deap_and_numpy_global_draws() -> None:
    from deap import tools

    names = {name for _, name in _global_functions()}
    assert {"random", "choice", "shuffle", "getstate", "setstate", "seed", "randint"} <= names
    assert {"rand", "permutation", "get_state", "set_state"} <= names
    with global_random_forbidden():
        with pytest.raises(GlobalRandomUsedError):
            tools.cxTwoPoint([0, 1, 2], [2, 1, 0])
        with pytest.raises(GlobalRandomUsedError):
            np.random.permutation(3)  # noqa: NPY002 (the legacy call the guard forbids)


def test_no_player_touches_the_global_random_state(tmp_path: Path) -> None:
    python_state, numpy_state = random.getstate(), np.random.get_state()  # noqa: NPY002
    for entry in every_player(tmp_path / "knuth.json"):
        options = {k: v for k, v in entry.items() if k not in ("label", "player")}
        player = make_player(entry["player"], SPACE, options)
        for secret in SECRETS:
            rng = game_rng(7, entry["label"], 0, secret, SPACE.colors)
            with global_random_forbidden():
                result = play_game(player, Codemaker(SPACE, secret), rng)
            assert result.solved, (entry["label"], secret)
    assert random.getstate() == python_state
    assert np.array_equal(np.random.get_state()[1], numpy_state[1])  # type: ignore[index]  # noqa: NPY002

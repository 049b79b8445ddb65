"""Players with the bugs a researcher's first plugin has, written as a plugin module.

:func:`buggy_plugin` writes the module into a test's folder and puts it on ``sys.path``
(and ``PYTHONPATH``, for worker processes); each player's name says its bug.
"""

from pathlib import Path

import pytest

PLUGIN = '''
import sys
import time

import numpy as np

from evo_mastermind.game import InconsistentResponsesError
from evo_mastermind.players import Player, register_player


class Base(Player):
    """Plays a fixed code; subclasses break one thing."""

    def start(self, rng):
        self.moves = 0

    def ask(self):
        return np.zeros(self.space.pegs, dtype=np.uint8)

    def tell(self, guess, response):
        self.moves += 1


RETURNS = {
    "short": lambda space: np.zeros(space.pegs - 1, dtype=np.uint8),
    "float": lambda space: np.zeros(space.pegs) + 0.5,
    "colour": lambda space: np.full(space.pegs, space.colors, dtype=np.int64),
    "none": lambda space: None,
    "text": lambda space: "A" * space.pegs,
    "grid": lambda space: np.zeros((2, space.pegs), dtype=np.uint8),
}
for kind, value in RETURNS.items():
    register_player(f"returns_{kind}")(
        type(f"Returns{kind}", (Base,), {"ask": lambda self, value=value: value(self.space)})
    )


@register_player("never_solves")
class NeverSolves(Base):
    """Plays AAAA forever."""


@register_player("loops")
class Loops(Base):
    """ask() never returns."""

    def ask(self):
        while True:
            pass


@register_player("claims_lies")
class ClaimsLies(Base):
    """Says a truthful codemaker contradicted itself."""

    def tell(self, guess, response):
        raise InconsistentResponsesError.because("so the player thinks")


class Raises(Base):
    """Raises in one method, on the third game it plays (the first two finish)."""

    where = "ask"
    games = 0

    def __init__(self, space, params=None):
        super().__init__(space, params)
        if self.where == "__init__":
            raise RuntimeError("broken in __init__")

    def start(self, rng):
        super().start(rng)
        type(self).games += 1
        if self.where == "start" and self.games >= 3:
            raise ValueError("broken in start")

    def ask(self):
        if self.where == "ask" and self.games >= 3:
            return {}["missing"]
        if self.where == "exit" and self.games >= 3:
            sys.exit(0)
        return super().ask()

    def tell(self, guess, response):
        if self.where == "tell" and self.games >= 3:
            raise ZeroDivisionError("broken in tell")
        super().tell(guess, response)


for where in ("__init__", "start", "ask", "tell", "exit"):
    name = where.strip("_")
    register_player(f"raises_in_{name}")(type(f"RaisesIn{name}", (Raises,), {"where": where}))
'''


def buggy_plugin(folder: Path, monkeypatch: pytest.MonkeyPatch, name: str = "buggy_players") -> str:
    """Write the plugin module into ``folder``, importable here and in worker processes."""
    (folder / f"{name}.py").write_text(PLUGIN)
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.setenv("PYTHONPATH", str(folder))
    return name

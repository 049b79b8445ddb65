"""A long optimal search written down as it goes, so that a later run resumes where it stopped.

The opening search (:class:`~evo_mastermind.optimal.opening_search.OpeningSearch`) records,
after every part it finishes, what it has proven: per opening its proven lower bound, the
exact cost of each part solved and whether it is decided, the best opening and its total,
and the search's lower bound. Each search of a solve (the optimum, then the shallower
limits tried for the least depth) has its own entry, named by its game, guess limit,
ceiling and fixed opening. A run given the same file takes every decided opening and
solved part as done; the tree of the best opening is then read by searching its parts
again (their costs known, so their budgets are exact).

The file is JSON, written whole to a temporary file and renamed over the old one, so an
interruption leaves the previous state intact.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evo_mastermind.codes import InvalidGameError

FORMAT = 1
"""The checkpoint file's format version."""


@dataclass(frozen=True)
class Checkpoint:
    """One file holding the state of every search of one game's solve.

    Args:
        path: the file (created on the first save).
        pegs: the game's pegs.
        colors: the game's colours.
    """

    path: Path
    pegs: int
    colors: int

    def _read(self) -> dict[str, Any]:
        if not self.path.exists():
            return {"format": FORMAT, "game": [self.pegs, self.colors], "searches": {}}
        try:
            document = json.loads(self.path.read_text())
        except (OSError, ValueError) as error:
            raise InvalidGameError(f"checkpoint {self.path} cannot be read: {error}") from None
        if document.get("format") != FORMAT or document.get("game") != [self.pegs, self.colors]:
            raise InvalidGameError(
                f"checkpoint {self.path} is not of ({self.pegs},{self.colors}): "
                f"it holds {document.get('game')}"
            )
        return dict(document)

    def check(self) -> None:
        """Refuse a file that cannot become this game's checkpoint, before any search.

        Raises:
            InvalidGameError: its directory is missing, or it holds something else.
        """
        if not self.path.parent.is_dir():
            raise InvalidGameError(
                f"checkpoint {self.path}: its directory {self.path.parent} does not exist"
            )
        self._read()

    def load(self, key: str) -> dict[str, Any] | None:
        """The state saved for the search ``key``, or None."""
        state = self._read()["searches"].get(key)
        return None if state is None else dict(state)

    def save(self, key: str, state: dict[str, Any]) -> None:
        """Record ``state`` as the search ``key``'s (atomically)."""
        document = self._read()
        document["searches"][key] = state
        temporary = self.path.with_name(self.path.name + ".tmp")
        temporary.write_text(json.dumps(document, indent=1) + "\n")
        os.replace(temporary, self.path)

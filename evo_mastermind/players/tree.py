"""The ``tree`` player: replays a saved decision tree, every guess a lookup.

The tree of a deterministic player holds its guess for every history it can meet. Its model
and file format are in :mod:`evo_mastermind.players.decision_tree`, its building in
:mod:`evo_mastermind.players.tree_building`; both are named here too, where they were first.
"""

from __future__ import annotations

import warnings
from functools import cache
from pathlib import Path
from typing import ClassVar

import numpy as np

from evo_mastermind.codes import Code, CodeSpace, InvalidGameError
from evo_mastermind.game import InconsistentResponsesError
from evo_mastermind.players.base import Player, PlayerParams, register_player
from evo_mastermind.players.cost import Cost
from evo_mastermind.players.decision_tree import TREE_FORMAT as TREE_FORMAT
from evo_mastermind.players.decision_tree import DecisionTree as DecisionTree
from evo_mastermind.players.decision_tree import SearchBound as SearchBound
from evo_mastermind.players.decision_tree import TreeNode as TreeNode
from evo_mastermind.players.tree_building import MAX_DEPTH as MAX_DEPTH
from evo_mastermind.players.tree_building import THREADS_FROM as THREADS_FROM
from evo_mastermind.players.tree_building import build_tree as build_tree
from evo_mastermind.scoring import Response


class PartialTreeWarning(UserWarning):
    """A replayed tree is the best an interrupted search found, not the optimum."""


class TreeParams(PlayerParams):
    """Options of the ``tree`` player."""

    path: str
    """A decision tree saved by ``evo-mastermind tree`` (JSON)."""


@cache
def _load_tree(path: str, modified: float) -> DecisionTree:
    tree = DecisionTree.load(path)
    if tree.partial:  # said once per file and process: its games are not the optimum's
        warnings.warn(
            f"player 'tree': {path} is not the optimum: {tree.describe()}",
            PartialTreeWarning,
            stacklevel=3,
        )
    return tree


@register_player("tree")
class TreePlayer(Player[TreeParams]):
    """Replays a saved decision tree: every guess is a lookup."""

    Params = TreeParams

    # Measured on this machine: knuth's trees of (4,6) (36 KB) and (5,6) (217 KB) read in
    # 4 and 35 ms and took 3.1 and 7.1 MB; a game then took 0.05-0.06 ms.
    READ_BYTES_PER_SECOND: ClassVar[float] = 5e6
    MEMORY_PER_FILE_BYTE: ClassVar[int] = 100
    GAME_SECONDS: ClassVar[float] = 1e-4

    @classmethod
    def estimate(cls, params: PlayerParams, space: CodeSpace) -> Cost:
        """Reading the tree once a process (setup), then a lookup a guess; memory: the tree."""
        assert isinstance(params, TreeParams)
        try:
            size = Path(params.path).stat().st_size
        except OSError:  # no file: building the player says so in one line
            size = 0
        return Cost(
            seconds=cls.GAME_SECONDS,
            memory=size * cls.MEMORY_PER_FILE_BYTE,
            setup_seconds=size / cls.READ_BYTES_PER_SECOND,
        )

    def __init__(self, space: CodeSpace, params: TreeParams | None = None) -> None:
        super().__init__(space, params)
        path = Path(self.params.path)
        if not path.is_file():
            raise InvalidGameError(f"player 'tree': no decision tree at {str(path)!r}")
        self.tree = _load_tree(str(path.resolve()), path.stat().st_mtime)
        if self.tree.space != space:
            raise InvalidGameError(
                f"player 'tree': {str(path)!r} was built for {self.tree.space}, not {space}"
            )
        self._node: TreeNode | None = self.tree.root

    @property
    def deterministic(self) -> bool:
        """A saved tree never uses the generator."""
        return True

    def start(self, rng: np.random.Generator) -> None:
        """Begin at the root."""
        self._node = self.tree.root

    def ask(self) -> Code:
        """The guess stored at this node."""
        assert self._node is not None
        return self.space.parse(self._node.guess)

    def tell(self, guess: Code, response: Response) -> None:
        """Follow the branch of this response."""
        assert self._node is not None
        following = self._node.next.get(response)
        if following is None:
            raise InconsistentResponsesError.because(
                f"response {response.black},{response.white} to {self._node.guess} is impossible "
                "for every secret"
            )
        self._node = following

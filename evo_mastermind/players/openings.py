"""Every distinct opening of a deterministic player, compared by the trees they lead to.

Two first guesses that differ only by a permutation of the colours and one of the
positions lead to trees of the same cost, so one opening per such class is enough
(AAAA, AAAB, AABB, AABC and ABCD on (4,6)), as the C++ solver of mikemag/Mastermind
compares "initial guesses".
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from evo_mastermind.codes import CodeSpace, InvalidGameError
from evo_mastermind.players.base import make_player, validate_params
from evo_mastermind.players.decision_tree import DecisionTree
from evo_mastermind.players.tree_building import build_tree
from evo_mastermind.symmetry import multiplicity_classes


@dataclass(frozen=True)
class OpeningTree:
    """One opening's tree and its cost.

    Attributes:
        opening: the first guess, in letters.
        tree: the player's decision tree after it.
        total: guesses summed over every secret.
        depth: the most guesses any secret needs.
    """

    opening: str
    tree: DecisionTree
    total: int
    depth: int

    @property
    def mean(self) -> float:
        """Guesses per secret."""
        return self.total / self.tree.space.size


def distinct_openings(space: CodeSpace) -> list[str]:
    """The lexicographically first code of each class under colour and position symmetry."""
    firsts = np.sort(multiplicity_classes(space).representatives)
    return space.format_all(space.all_codes[firsts])


def every_opening(
    player: str, space: CodeSpace, options: Mapping[str, Any], progress: bool = False
) -> Iterator[OpeningTree]:
    """The player's tree from each distinct opening, in lexicographic order of the openings.

    Raises:
        InvalidGameError: the player has no ``first_guess`` option, or is not deterministic.
    """
    fields = type(validate_params(player, dict(options))).model_fields
    if "first_guess" not in fields:
        raise InvalidGameError(f"player {player!r} has no first_guess option to vary")
    for opening in distinct_openings(space):
        chosen = {**options, "first_guess": opening}
        tree = build_tree(make_player(player, space, chosen), chosen, progress=progress)
        counts = tree.guess_counts()
        yield OpeningTree(opening, tree, int(counts.sum()), int(counts.max()))

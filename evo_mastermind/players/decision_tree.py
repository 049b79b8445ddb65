"""The decision tree of a deterministic player: its one model, its JSON, and its converters.

A tree is nested :class:`TreeNode` objects, each a guess and the node that follows every
response other than the win. Builders produce it in other shapes, and this module is the
one place they are turned into it: the compiled growth kernel's flat arrays
(:func:`tree_of_arrays`) and the optimal search's guess by history of packed responses
(:func:`tree_of_paths`). A tree found by a search that was interrupted carries its
:class:`SearchBound`, so that a file never passes off the best tree found so far as the
optimum.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from evo_mastermind.codes import CodeSpace, InvalidGameError
from evo_mastermind.game import InconsistentResponsesError
from evo_mastermind.scoring import Response, indexed_scorer, score

TREE_FORMAT = "evo_mastermind.tree/1"


@dataclass
class TreeNode:
    """A guess, and the node that follows each response other than the win."""

    guess: str
    next: dict[Response, TreeNode] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """Nested plain data; responses written as ``"black,white"``."""
        data: dict[str, Any] = {"guess": self.guess}
        if self.next:
            data["next"] = {
                f"{r.black},{r.white}": child.to_json() for r, child in self.next.items()
            }
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TreeNode:
        """Read what :meth:`to_json` wrote."""
        children = {}
        for key, child in data.get("next", {}).items():
            black, white = (int(part) for part in key.split(","))
            children[Response(black, white)] = cls.from_json(child)
        return cls(str(data["guess"]), children)


@dataclass(frozen=True)
class SearchBound:
    """What a search proved of its tree.

    Attributes:
        optimal: the search finished: no tree needs fewer guesses in all. False: it was
            interrupted and the tree is the best it found so far.
        lower_bound: the proven least total of any tree (the tree's own total when optimal).
    """

    optimal: bool
    lower_bound: int


class GrownTree(NamedTuple):
    """A tree as a player builds it itself (see :meth:`Player.grow_tree`)."""

    root: TreeNode
    counts: npt.NDArray[np.int64] | None
    """The guesses each secret needs, in code index order (None: walked when asked)."""
    bound: SearchBound | None = None
    """What a search proved of it (None: the player's tree, no search involved)."""


@dataclass
class DecisionTree:
    """The whole game tree of one deterministic player on one game size."""

    space: CodeSpace
    player: str
    params: dict[str, Any]
    root: TreeNode
    counted: npt.NDArray[np.int64] | None = field(default=None, repr=False, compare=False)
    """The guess counts, when the builder already knows them (else :meth:`guess_counts` walks)."""
    bound: SearchBound | None = None
    """What the search that found it proved (None: not a search's tree)."""

    @property
    def partial(self) -> bool:
        """The best tree an interrupted search found, not the optimum it was looking for."""
        return self.bound is not None and not self.bound.optimal

    def play(self, secret: str) -> list[tuple[str, Response]]:
        """The moves of the game against ``secret``, by lookup."""
        node: TreeNode | None = self.root
        moves: list[tuple[str, Response]] = []
        while node is not None:
            response = score(node.guess, secret)
            moves.append((node.guess, response))
            if response.black == self.space.pegs:
                return moves
            node = node.next.get(response)
        raise InconsistentResponsesError(f"the tree has no path for secret {secret!r}")

    def guess_counts(self) -> npt.NDArray[np.int64]:
        """Guesses needed for every secret, in lexicographic order of the secrets."""
        if self.counted is not None:
            return self.counted.copy()
        counts = np.zeros(self.space.size, dtype=np.int64)
        scorer = indexed_scorer(self.space)
        win = Response(self.space.pegs, 0).pack(self.space.pegs)

        def walk(node: TreeNode, secrets: npt.NDArray[np.int64], depth: int) -> None:
            guess = self.space.index(self.space.parse(node.guess))
            answers = scorer.responses(guess, secrets)
            counts[secrets[answers == win]] = depth
            for response, child in node.next.items():
                walk(child, secrets[answers == response.pack(self.space.pegs)], depth + 1)

        walk(self.root, np.arange(self.space.size, dtype=np.int64), 1)
        return counts

    def describe(self) -> str:
        """One line: the player, the game, its totals, and what a search proved of it."""
        counts = self.guess_counts()
        total = int(counts.sum())
        line = (
            f"{self.player} on {self.space}: {total} guesses over {counts.size} secrets "
            f"(mean {counts.mean():.4f}, max {int(counts.max())})"
        )
        return line + self.bound_words(total)

    def bound_words(self, total: int) -> str:
        """What the search proved, as the end of a sentence ('' for a player's own tree)."""
        if self.bound is None:
            return ""
        if self.bound.optimal:
            return "; proven optimal"
        gap = total - self.bound.lower_bound
        if gap <= 0:
            return (
                "; its total is the optimum, but the search for a shallower tree of that total "
                "was interrupted"
            )
        return (
            f"; NOT the optimum: the best tree an interrupted search found, the optimum is at "
            f"least {self.bound.lower_bound} (gap at most {gap})"
        )

    def save(self, path: str | Path) -> None:
        """Write the tree as JSON (with ``optimal``, ``lower_bound`` and ``gap`` if searched)."""
        document: dict[str, Any] = {
            "format": TREE_FORMAT,
            "pegs": self.space.pegs,
            "colors": self.space.colors,
            "player": self.player,
            "params": self.params,
        }
        if self.bound is not None:
            total = int(self.guess_counts().sum())
            document["optimal"] = self.bound.optimal
            document["lower_bound"] = self.bound.lower_bound
            document["gap"] = total - self.bound.lower_bound
        document["root"] = self.root.to_json()
        Path(path).write_text(json.dumps(document, separators=(",", ":")))

    @classmethod
    def load(cls, path: str | Path) -> DecisionTree:
        """Read a tree written by :meth:`save`.

        Raises:
            InvalidGameError: the file is missing or is not a saved tree.
        """
        try:
            document = json.loads(Path(path).read_text())
            if document.get("format") != TREE_FORMAT:
                raise ValueError(f"format is not {TREE_FORMAT}")
            bound = None
            if "optimal" in document:
                bound = SearchBound(bool(document["optimal"]), int(document["lower_bound"]))
            return cls(
                CodeSpace(int(document["pegs"]), int(document["colors"])),
                str(document["player"]),
                dict(document["params"]),
                TreeNode.from_json(document["root"]),
                bound=bound,
            )
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
            raise InvalidGameError(f"cannot read decision tree {str(path)!r}: {error}") from None


def tree_of_paths(space: CodeSpace, nodes: Mapping[tuple[int, ...], int]) -> TreeNode:
    """The tree of a guess (code index) by history of packed responses, parents first."""
    names = space.format_all(space.all_codes)
    made = {path: TreeNode(names[guess]) for path, guess in nodes.items()}
    for path, node in made.items():
        if path:
            made[path[:-1]].next[Response.unpack(path[-1], space.pegs)] = node
    return made[()]


def tree_of_arrays(
    space: CodeSpace, names: Sequence[str], parents: Sequence[int], links: Sequence[int]
) -> TreeNode:
    """The tree of the growth kernel's arrays: each node's guess, parent and packed response.

    Node 0 is the root; siblings come in increasing order of response, as asking inserts them.
    """
    made = [TreeNode(text) for text in names]
    unpacked = [Response.unpack(packed, space.pegs) for packed in range(space.n_responses)]
    for child, (parent, packed) in enumerate(zip(parents, links, strict=True)):
        if child:
            made[parent].next[unpacked[packed]] = made[child]
    return made[0]

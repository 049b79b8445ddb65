"""Decision trees of deterministic players: built once over a whole space, saved, replayed.

The tree of a deterministic player holds its guess for every history it can meet (seed
003's game tree). Building branches the player at each guess with
:meth:`Player.snapshot`/:meth:`Player.restore`, partitioning the secrets that reach the
node by their response; the ``tree`` player then plays any game by lookup.
"""

from __future__ import annotations

import gc
import json
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from evo_mastermind import engine
from evo_mastermind.codes import Code, CodeSpace, InvalidGameError
from evo_mastermind.game import InconsistentResponsesError
from evo_mastermind.players.base import Player, PlayerParams, register_player
from evo_mastermind.players.one_ply import PartitionPlayer
from evo_mastermind.scoring import Response, indexed_scorer, score

TREE_FORMAT = "evo_mastermind.tree/1"
MAX_DEPTH = 100
THREADS_FROM = 10_000
"""Spaces from this size grow the subtrees under the first guess on several threads."""


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


@dataclass
class DecisionTree:
    """The whole game tree of one deterministic player on one game size."""

    space: CodeSpace
    player: str
    params: dict[str, Any]
    root: TreeNode
    counted: npt.NDArray[np.int64] | None = field(default=None, repr=False, compare=False)
    """The guess counts, when the builder already knows them (else :meth:`guess_counts` walks)."""

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

    def save(self, path: str | Path) -> None:
        """Write the tree as JSON."""
        document = {
            "format": TREE_FORMAT,
            "pegs": self.space.pegs,
            "colors": self.space.colors,
            "player": self.player,
            "params": self.params,
            "root": self.root.to_json(),
        }
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
            return cls(
                CodeSpace(int(document["pegs"]), int(document["colors"])),
                str(document["player"]),
                dict(document["params"]),
                TreeNode.from_json(document["root"]),
            )
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise InvalidGameError(f"cannot read decision tree {str(path)!r}: {error}") from None


def build_tree(
    player: Player, params: dict[str, Any] | None = None, progress: bool = False
) -> DecisionTree:
    """Play every secret of the player's space at once, branching at each guess.

    Partition players with lexicographic ties are grown by the compiled kernel when their
    heuristic has a compiled form (with a progress bar on stderr if ``progress``); any other
    deterministic player is asked.

    Raises:
        InvalidGameError: the player is not deterministic, or the space cannot be listed.
    """
    if not player.deterministic:
        raise InvalidGameError(
            f"player {player.name!r} is not deterministic with these options (random ties "
            "or sampling); a decision tree needs a player that ignores its generator"
        )
    player.start(np.random.default_rng(0))
    counted = None
    with _collection_paused():
        if (
            isinstance(player, PartitionPlayer)
            and player.settings.ties == "lexicographic"
            and engine.can_grow_trees(player.heuristic)
        ):
            root, counted = _grown(player, progress)
        elif callable(getattr(player, "grown_tree", None)):  # a player that has its tree
            root, counted = player.grown_tree(progress)  # type: ignore[attr-defined]
        else:
            root = _asked(player)
    return DecisionTree(player.space, player.name, dict(params or {}), root, counted)


def _asked(player: Player) -> TreeNode:
    """Any deterministic player's tree, asking it at every node (branching with snapshots)."""
    space = player.space
    scorer = indexed_scorer(space)
    pegs = space.pegs
    win = Response(pegs, 0).pack(pegs)

    def expand(secrets: npt.NDArray[np.int64], depth: int) -> TreeNode:
        if depth > MAX_DEPTH:
            raise InvalidGameError(f"player {player.name!r} needs more than {MAX_DEPTH} guesses")
        guess = player.ask()
        answers = scorer.responses(space.index(guess), secrets)
        state = player.snapshot()
        node = TreeNode(space.format(guess))
        for packed in sorted(set(answers.tolist())):  # small sets: faster than np.unique
            if packed == win:
                continue
            player.restore(state)
            response = Response.unpack(packed, pegs)
            player.tell(guess, response)
            node.next[response] = expand(secrets[answers == packed], depth + 1)
        return node

    return expand(np.arange(space.size, dtype=np.int64), 1)


def _grown(player: PartitionPlayer, progress: bool) -> tuple[TreeNode, npt.NDArray[np.int64]]:
    """A partition player's tree grown by the compiled kernel (the guesses asking would give).

    Only the first guess is asked of the player (it may derive it from the empty board);
    the rest is grown by :func:`evo_mastermind.engine.grow_tree`, which chooses as the
    player does: in one call on small spaces, else one subtree under each response to the
    first guess, several at once on as many threads as Numba may use. Returns the root and
    the guesses each secret needs.
    """
    space = player.space
    scorer = indexed_scorer(space)
    first = space.index(player.ask())
    secrets = np.arange(space.size, dtype=np.int64)

    def grow(
        part: npt.NDArray[np.int64], played: int, depth: int, guess: int
    ) -> tuple[npt.NDArray[np.int64], ...]:
        pool_all = player.settings.pool == "all"
        return engine.grow_tree(
            scorer, part, played, depth, guess, pool_all, player.heuristic, MAX_DEPTH
        )

    if space.size < THREADS_FROM:  # small spaces: one call, no thread to start
        guesses, parents, links, won, won_at = grow(secrets, 0, 1, first)
    else:
        answers = scorer.responses(first, secrets)
        played = int(np.bitwise_or.reduce(1 << scorer.codes[first].astype(np.int64)))
        parts = {int(r): secrets[answers == r] for r in np.unique(answers)}
        win = Response(space.pegs, 0).pack(space.pegs)
        won_first = parts.pop(win, secrets[:0])
        grown = _grown_in_threads(
            parts, lambda part: grow(part, played, 2, -1), f"{player.name} tree", progress
        )
        guesses, parents, links, won, won_at = _joined(first, won_first, grown)
    if guesses.size == 0:
        raise InvalidGameError(f"player {player.name!r} needs more than {MAX_DEPTH} guesses")
    counts = np.zeros(space.size, dtype=np.int64)
    counts[won] = won_at
    nodes = [TreeNode(text) for text in space.format_all(scorer.codes[guesses])]
    unpacked = [Response.unpack(packed, space.pegs) for packed in range(space.n_responses)]
    # Siblings are numbered in increasing order of response, as ``expand`` inserts them.
    for child, (parent, packed) in enumerate(zip(parents.tolist(), links.tolist(), strict=True)):
        if child:
            nodes[parent].next[unpacked[packed]] = nodes[child]
    return nodes[0], counts


def _joined(
    first: int,
    won_first: npt.NDArray[np.int64],
    grown: dict[int, tuple[npt.NDArray[np.int64], ...]],
) -> tuple[npt.NDArray[np.int64], ...]:
    """The arrays of a tree from its first guess and the subtree under each response.

    As :func:`~evo_mastermind.engine.grow_tree` returns them: the first guess is node 0,
    each subtree's nodes follow in increasing response. No guesses when a subtree has none
    (a game longer than allowed).
    """
    guesses, parents, links = [np.array([first])], [np.array([-1])], [np.array([-1])]
    won, won_at = [won_first], [np.ones(won_first.size, dtype=np.int64)]
    base = 1
    for packed in sorted(grown):
        part_guesses, part_parents, part_links, part_won, part_won_at = grown[packed]
        if part_guesses.size == 0:
            return (part_guesses,) * 5
        guesses.append(part_guesses)
        parents.append(np.where(part_parents < 0, 0, part_parents + base))
        links.append(np.where(part_parents < 0, packed, part_links))
        won.append(part_won)
        won_at.append(part_won_at)
        base += part_guesses.size
    return tuple(np.concatenate(arrays) for arrays in (guesses, parents, links, won, won_at))


def _grown_in_threads(
    parts: dict[int, npt.NDArray[np.int64]],
    grow: Callable[[npt.NDArray[np.int64]], tuple[npt.NDArray[np.int64], ...]],
    label: str,
    progress: bool,
) -> dict[int, tuple[npt.NDArray[np.int64], ...]]:
    """``grow`` of every part, several at once on as many threads as Numba may use."""
    import numba
    from tqdm import tqdm

    order = sorted(parts, key=lambda packed: -parts[packed].size)  # largest first
    grown: dict[int, tuple[npt.NDArray[np.int64], ...]] = {}
    total = sum(part.size for part in parts.values())
    with (
        ThreadPoolExecutor(numba.get_num_threads()) as threads,
        tqdm(total=total, unit="secret", desc=label, disable=not progress, leave=False) as bar,
    ):
        if order:
            # The smallest here: the kernel is loaded once, not by every thread; then the
            # largest first, so that no thread is left alone with a big one at the end.
            grown[order[-1]] = grow(parts[order[-1]])
            bar.update(parts[order[-1]].size)
        futures = {threads.submit(grow, parts[packed]): packed for packed in order[:-1]}
        for future in as_completed(futures):
            grown[futures[future]] = future.result()
            bar.update(parts[futures[future]].size)
    return grown


@contextmanager
def _collection_paused() -> Iterator[None]:
    """Pause automatic garbage collection (restored on exit).

    A build allocates thousands of long-lived nodes and no garbage cycles; the collector
    would rescan the growing tree again and again (a tenth of a (4,6) build).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class TreeParams(PlayerParams):
    """Options of the ``tree`` player."""

    path: str
    """A decision tree saved by ``evo-mastermind tree`` (JSON)."""


@cache
def _load_tree(path: str, modified: float) -> DecisionTree:
    return DecisionTree.load(path)


@register_player("tree")
class TreePlayer(Player[TreeParams]):
    """Replays a saved decision tree: every guess is a lookup."""

    Params = TreeParams

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

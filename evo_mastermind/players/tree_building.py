"""Building a deterministic player's decision tree over its whole space.

A player that can build its tree itself says so by :meth:`Player.grow_tree` (partition
players with lexicographic ties grow it with the compiled kernel, the optimal player reads
it off its search); any other deterministic player is asked at every node, branched with
:meth:`Player.snapshot`/:meth:`Player.restore`, the secrets that reach a node partitioned
by their response.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from evo_mastermind import engine
from evo_mastermind.codes import InvalidGameError
from evo_mastermind.players.base import Player
from evo_mastermind.players.decision_tree import (
    DecisionTree,
    GrownTree,
    TreeNode,
    tree_of_arrays,
)
from evo_mastermind.scoring import Response, indexed_scorer

if TYPE_CHECKING:
    from evo_mastermind.codes import CodeSpace
    from evo_mastermind.execution import Executor
    from evo_mastermind.heuristics import Heuristic

MAX_DEPTH = 100
THREADS_FROM = 10_000
"""Spaces from this size grow the subtrees under the first guess on several threads."""


def build_tree(
    player: Player,
    params: dict[str, Any] | None = None,
    progress: bool = False,
    executor: Executor | None = None,
) -> DecisionTree:
    """Play every secret of the player's space at once, branching at each guess.

    A player that builds its tree itself (:meth:`Player.grow_tree`) is asked for it, with
    a progress bar on stderr if ``progress``; any other deterministic player is asked at
    every node.

    Args:
        player: a deterministic player.
        params: its options, recorded in the tree.
        progress: show a progress bar on stderr.
        executor: where a player that declares :attr:`Player.tree_on_executor` spreads its
            work (None: this process).

    Raises:
        InvalidGameError: the player is not deterministic, cannot use an executor, or the
            space cannot be listed.
    """
    if not player.deterministic:
        raise InvalidGameError(
            f"player {player.name!r} is not deterministic with these options (random ties "
            "or sampling); a decision tree needs a player that ignores its generator"
        )
    if executor is not None and not player.tree_on_executor:
        raise InvalidGameError(
            f"player {player.name!r} builds its tree in this process only: leave out the executor"
        )
    player.start(np.random.default_rng(0))
    with _collection_paused():
        grown = player.grow_tree(progress, executor) or GrownTree(_asked(player), None)
    return DecisionTree(
        player.space, player.name, dict(params or {}), grown.root, grown.counts, grown.bound
    )


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


def grow_partition_tree(
    space: CodeSpace,
    name: str,
    first: int,
    pool_all: bool,
    heuristic: Heuristic,
    progress: bool,
) -> GrownTree:
    """A partition player's tree grown by the compiled kernel (the guesses asking would give).

    Only the first guess (a code index) comes from the player (it may derive it from the
    empty board); the rest is grown by :func:`evo_mastermind.engine.grow_tree`, which
    chooses as a player of that heuristic with lexicographic ties does (every code in the
    pool if ``pool_all``): in one call on small spaces, else one subtree under each response
    to the first guess, several at once on as many threads as Numba may use.
    """
    scorer = indexed_scorer(space)
    secrets = np.arange(space.size, dtype=np.int64)
    # Each thread lists the class representatives it needs once for all its subtrees.
    local = threading.local()

    def grow(
        part: npt.NDArray[np.int64], played: int, depth: int, guess: int
    ) -> tuple[npt.NDArray[np.int64], ...]:
        if not hasattr(local, "tables"):
            local.tables = engine.subtree_tables()
        return engine.grow_tree(
            scorer, part, played, depth, guess, pool_all, heuristic, MAX_DEPTH, local.tables
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
            parts, lambda part: grow(part, played, 2, -1), f"{name} tree", progress
        )
        guesses, parents, links, won, won_at = _joined(first, won_first, grown)
    if guesses.size == 0:
        raise InvalidGameError(f"player {name!r} needs more than {MAX_DEPTH} guesses")
    counts = np.zeros(space.size, dtype=np.int64)
    counts[won] = won_at
    names = space.format_all(scorer.codes[guesses])
    return GrownTree(tree_of_arrays(space, names, parents.tolist(), links.tolist()), counts)


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

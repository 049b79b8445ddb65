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
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
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
SPLIT_FROM = 1 / 32
"""Under the first guess, a subtree of at least this share of the space is split into a
task per response to its own guess (chosen first), so that threads finish together."""


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


Arrays = tuple[npt.NDArray[np.int64], ...]
"""A subtree as :func:`~evo_mastermind.engine.grow_tree` returns it: each node's guess,
parent and response from its parent (node 0 its root), each secret and its guesses."""


@dataclass
class _Split:
    """A node whose subtrees are grown as tasks of their own (a large one)."""

    guess: int
    depth: int
    won: npt.NDArray[np.int64]
    children: dict[int, _Task] = field(default_factory=dict)


@dataclass
class _Task:
    """A subtree to grow: the codes that reach its root, and the path there."""

    part: npt.NDArray[np.int64]
    path: tuple[int, ...]
    depth: int
    grown: Arrays | _Split | None = None


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
    pool if ``pool_all``): in one call on small spaces, else as tasks on as many threads as
    Numba may use, one subtree under each response to the first guess, each large subtree
    (from :data:`SPLIT_FROM` of the space's codes) split again below its own guess, so
    that no thread is left alone with a large one at the end.
    """
    scorer = indexed_scorer(space)
    secrets = np.arange(space.size, dtype=np.int64)
    # Each thread lists the class representatives it needs once for all its subtrees.
    local = threading.local()
    win = Response(space.pegs, 0).pack(space.pegs)

    def played(path: tuple[int, ...]) -> int:
        return int(np.bitwise_or.reduce(1 << scorer.codes[list(path)].astype(np.int64).ravel()))

    def grow(task: _Task) -> Arrays | _Split:
        if task.part.size >= SPLIT_FROM * space.size:
            guess = int(
                engine.best_guesses_at(scorer, task.part, task.path, pool_all, heuristic, True)[0]
            )
            return _split(guess, task)
        if not hasattr(local, "tables"):
            local.tables = engine.subtree_tables()
        return engine.grow_tree(
            scorer,
            task.part,
            played(task.path),
            task.depth,
            -1,
            pool_all,
            heuristic,
            MAX_DEPTH,
            local.tables,
        )

    def _split(guess: int, task: _Task) -> _Split:
        answers = scorer.responses(guess, task.part)
        split = _Split(guess, task.depth, task.part[answers == win])
        for packed in np.unique(answers).tolist():
            if packed != win:
                part = task.part[answers == packed]
                split.children[packed] = _Task(part, (*task.path, guess), task.depth + 1)
        return split

    if space.size < THREADS_FROM:  # small spaces: one call, no thread to start
        guesses, parents, links, won, won_at = engine.grow_tree(
            scorer, secrets, 0, 1, first, pool_all, heuristic, MAX_DEPTH
        )
    else:
        top = _split(first, _Task(secrets, (), 1))
        # A first choice of a few codes here: no thread takes a large one's seconds for the
        # kernel's loading, nor do two load it at once.
        engine.best_guesses_at(scorer, top.won[:1], (first,), pool_all, heuristic, True)
        _grown_in_threads(list(top.children.values()), grow, f"{name} tree", progress)
        guesses, parents, links, won, won_at = _joined(top)
    if guesses.size == 0:
        raise InvalidGameError(f"player {name!r} needs more than {MAX_DEPTH} guesses")
    counts = np.zeros(space.size, dtype=np.int64)
    counts[won] = won_at
    names = space.format_all(scorer.codes[guesses])
    return GrownTree(tree_of_arrays(space, names, parents.tolist(), links.tolist()), counts)


def _joined(split: _Split) -> Arrays:
    """The arrays of a split node's subtree, from its guess and its children's subtrees.

    As :func:`~evo_mastermind.engine.grow_tree` returns them: the guess is node 0, each
    child's nodes follow in increasing response. No guesses when a subtree has none (a
    game longer than allowed).
    """
    guesses, parents, links = [np.array([split.guess])], [np.array([-1])], [np.array([-1])]
    won = [split.won]
    won_at = [np.full(split.won.size, split.depth, dtype=np.int64)]
    base = 1
    for packed in sorted(split.children):
        grown = split.children[packed].grown
        assert grown is not None
        part_guesses, part_parents, part_links, part_won, part_won_at = (
            _joined(grown) if isinstance(grown, _Split) else grown
        )
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
    tasks: list[_Task], grow: Callable[[_Task], Arrays | _Split], label: str, progress: bool
) -> None:
    """``grow`` every task, and every task a split makes, on as many threads as Numba may use.

    Each task's ``grown`` is set; the largest waiting task is started first, so that no
    thread is left alone with a big one at the end.
    """
    import numba
    from tqdm import tqdm

    workers = numba.get_num_threads()
    total = sum(task.part.size for task in tasks)
    waiting = sorted(tasks, key=lambda task: task.part.size)  # the largest last: popped first
    with (
        ThreadPoolExecutor(workers) as threads,
        tqdm(total=total, unit="secret", desc=label, disable=not progress, leave=False) as bar,
    ):
        if waiting:
            # The smallest here: the kernel is loaded once, not by every thread.
            smallest = waiting.pop(0)
            smallest.grown = grow(smallest)
            waiting.extend(_done(smallest, bar))
            waiting.sort(key=lambda task: task.part.size)
        running: dict[Future[Arrays | _Split], _Task] = {}
        while waiting or running:
            while waiting and len(running) < workers:
                task = waiting.pop()
                running[threads.submit(grow, task)] = task
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                task = running.pop(future)
                task.grown = future.result()
                waiting.extend(_done(task, bar))
            waiting.sort(key=lambda task: task.part.size)


def _done(task: _Task, bar: Any) -> list[_Task]:
    """The tasks a grown task leaves (its children, if it was split); the bar moved on."""
    if isinstance(task.grown, _Split):
        bar.update(task.grown.won.size)
        return list(task.grown.children.values())
    bar.update(task.part.size)
    return []


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

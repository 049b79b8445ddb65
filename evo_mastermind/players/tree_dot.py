"""A decision tree as GraphViz text (the DOT language), to look at with ``dot -Tsvg``.

Each node is a guess, labelled with the guess and the number of secrets that reach it;
a node drawn with a double border wins for some of them (its guess is one of those
secrets). Each edge carries the response, ``black,white``, that leads to the next guess.
A depth limit cuts large trees: each subtree below the limit becomes one dashed node
saying how many secrets reach it and how many nodes it holds.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from evo_mastermind.codes import InvalidGameError
from evo_mastermind.players.decision_tree import DecisionTree, TreeNode
from evo_mastermind.scoring import Response, indexed_scorer


def _quoted(text: str) -> str:
    """A DOT string literal (labels hold only codes, digits and words, but quotes are safe)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _counted(number: int, thing: str) -> str:
    return f"{number} {thing}{'' if number == 1 else 's'}"


def _subtree_size(node: TreeNode) -> int:
    """Nodes in the subtree under ``node``, itself included."""
    return 1 + sum(_subtree_size(child) for child in node.next.values())


def _title(tree: DecisionTree) -> str:
    """The drawing's title: the player and game, and whether a search proved it optimal."""
    title = f"{tree.player} on {tree.space}"
    if tree.partial:
        assert tree.bound is not None
        title += f" (best found so far, not the optimum: it is at least {tree.bound.lower_bound})"
    return title


def tree_to_dot(tree: DecisionTree, max_depth: int | None = None) -> str:
    """The tree in the DOT language.

    Args:
        tree: a decision tree (from :func:`~evo_mastermind.players.tree_building.build_tree` or
            :meth:`~evo_mastermind.players.decision_tree.DecisionTree.load`).
        max_depth: draw guesses up to this depth (the first guess is depth 1); deeper
            subtrees become one dashed node each. ``None`` draws the whole tree.

    Raises:
        InvalidGameError: ``max_depth`` is below 1.
    """
    if max_depth is not None and max_depth < 1:
        raise InvalidGameError(f"the depth limit must be at least 1, got {max_depth}")
    space = tree.space
    scorer = indexed_scorer(space)
    win = Response(space.pegs, 0).pack(space.pegs)
    lines = [
        "digraph decision_tree {",
        f"  label={_quoted(_title(tree))};",
        "  labelloc=t;",
        '  node [shape=box, fontname="monospace"];',
        '  edge [fontname="monospace"];',
    ]
    count = 0

    def draw(node: TreeNode, secrets: npt.NDArray[np.int64], depth: int) -> str:
        nonlocal count
        name = f"n{count}"
        count += 1
        if max_depth is not None and depth > max_depth:
            held = _counted(_subtree_size(node), "node")
            cut = f"… {_counted(int(secrets.size), 'secret')}, {held}"
            lines.append(f"  {name} [label={_quoted(cut)}, style=dashed];")
            return name
        guess = space.index(space.parse(node.guess))
        answers = scorer.responses(guess, secrets)
        wins = bool((answers == win).any())
        border = ", peripheries=2" if wins else ""
        label = f"{node.guess}\\n{_counted(int(secrets.size), 'secret')}"
        lines.append(f'  {name} [label="{label}"{border}];')
        for response, child in node.next.items():
            reached = secrets[answers == response.pack(space.pegs)]
            child_name = draw(child, reached, depth + 1)
            lines.append(
                f"  {name} -> {child_name} [label={_quoted(f'{response.black},{response.white}')}];"
            )
        return name

    draw(tree.root, np.arange(space.size, dtype=np.int64), 1)
    lines.append("}")
    return "\n".join(lines) + "\n"

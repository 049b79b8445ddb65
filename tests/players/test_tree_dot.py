import re
from pathlib import Path

import pytest

from evo_mastermind.cli import main
from evo_mastermind.codes import CodeSpace, InvalidGameError
from evo_mastermind.players import make_player
from evo_mastermind.players.decision_tree import DecisionTree, TreeNode
from evo_mastermind.players.tree_building import build_tree
from evo_mastermind.players.tree_dot import tree_to_dot

NODE = re.compile(r'^  (n\d+) \[label="([^"]*)"(.*)\];$')
EDGE = re.compile(r'^  (n\d+) -> (n\d+) \[label="(\d),(\d)"\];$')


def parse(dot: str) -> tuple[dict[str, tuple[str, str]], list[tuple[str, str, str]]]:
    """Nodes (name → label, attributes) and edges (from, to, response) of our DOT output."""
    lines = dot.splitlines()
    assert lines[0] == "digraph decision_tree {" and lines[-1] == "}"
    nodes: dict[str, tuple[str, str]] = {}
    edges = []
    for line in lines[1:-1]:
        if node := NODE.match(line):
            nodes[node[1]] = (node[2], node[3])
        elif edge := EDGE.match(line):
            edges.append((edge[1], edge[2], f"{edge[3]},{edge[4]}"))
        else:
            assert re.match(r"^  (label|labelloc|node|edge)\b", line), line
    return nodes, edges


def tree_nodes(node: TreeNode) -> int:
    return 1 + sum(tree_nodes(child) for child in node.next.values())


def test_the_whole_tree_has_a_node_per_guess_and_an_edge_per_response() -> None:
    tree = build_tree(make_player("knuth", CodeSpace(3, 2)), {})
    nodes, edges = parse(tree_to_dot(tree))
    # Knuth on (3,2): AAA, then one subtree per response other than the win.
    assert len(nodes) == tree_nodes(tree.root) == 8
    assert len(edges) == 7
    assert nodes["n0"][0] == "AAA\\n8 secrets"
    assert {response for source, _, response in edges if source == "n0"} == {"0,0", "1,0", "2,0"}
    # Every node but the root has exactly one parent; every edge joins known nodes.
    targets = [target for _, target, _ in edges]
    assert sorted(targets) == sorted(set(nodes) - {"n0"})
    # Secrets are split by responses: a node's secrets are its own win plus its children's.
    secrets = {name: int(label.split("\\n")[1].split()[0]) for name, (label, _) in nodes.items()}
    for name in nodes:
        below = sum(secrets[target] for source, target, _ in edges if source == name)
        wins = 1 if "peripheries=2" in nodes[name][1] else 0
        assert secrets[name] == below + wins


def test_a_depth_limit_cuts_subtrees_into_one_dashed_node_each() -> None:
    tree = build_tree(make_player("knuth", CodeSpace(4, 6)), {})
    nodes, edges = parse(tree_to_dot(tree, max_depth=1))
    first = len(tree.root.next)
    assert len(nodes) == 1 + first and len(edges) == first
    cut = [label for label, attributes in nodes.values() if "style=dashed" in attributes]
    assert len(cut) == first
    secrets = sum(int(label.split()[1]) for label in cut)
    assert secrets == 1296 - 1  # every secret but the first guess itself
    nodes, edges = parse(tree_to_dot(tree, max_depth=2))
    second = sum(len(child.next) for child in tree.root.next.values())
    assert len(nodes) == 1 + first + second and len(edges) == first + second
    with pytest.raises(InvalidGameError, match="at least 1"):
        tree_to_dot(tree, max_depth=0)


def test_a_loaded_tree_draws_the_same(tmp_path: Path) -> None:
    tree = build_tree(make_player("first_consistent", CodeSpace(3, 3)), {})
    tree.save(tmp_path / "tree.json")
    assert tree_to_dot(DecisionTree.load(tmp_path / "tree.json")) == tree_to_dot(tree)


def test_tree_command_writes_dot_and_checks_its_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "knuth.dot"
    common = ["tree", "--pegs", "3", "--colors", "3", "--no-progress", "--out", str(out)]
    assert main([*common, "--format", "dot", "--depth", "2"]) == 0
    nodes, edges = parse(out.read_text())
    assert len(nodes) == len(edges) + 1
    capsys.readouterr()
    assert main([*common, "--depth", "2"]) == 2
    assert "--depth limits a drawing: it needs --format dot" in capsys.readouterr().err
    assert main([*common, "--format", "dot", "--depth", "0"]) == 2
    assert "--depth must be at least 1, got 0" in capsys.readouterr().err

from pathlib import Path

import numpy as np
import pytest

from evo_mastermind.codes import CodeSpace, InvalidGameError
from evo_mastermind.game import Codemaker, InconsistentResponsesError, play_game
from evo_mastermind.players import make_player
from evo_mastermind.players.decision_tree import DecisionTree
from evo_mastermind.players.tree_building import _asked, build_tree
from evo_mastermind.scoring import Response

SPACE = CodeSpace(4, 6)


def test_knuth_tree_holds_knuths_totals(tmp_path: Path) -> None:
    tree = build_tree(make_player("knuth", SPACE), {})
    counts = tree.guess_counts()
    assert counts.sum() == 5801 and counts.max() == 5 and tree.root.guess == "AABB"
    path = tmp_path / "knuth.json"
    tree.save(path)
    loaded = DecisionTree.load(path)
    assert loaded.guess_counts().tolist() == counts.tolist()
    assert [g for g, _ in loaded.play("ABBC")] == [g for g, _ in tree.play("ABBC")]


def test_tree_player_replays_the_same_games(tmp_path: Path) -> None:
    path = tmp_path / "fc.json"
    build_tree(make_player("first_consistent", SPACE)).save(path)
    replay = make_player("tree", SPACE, {"path": str(path)})
    original = make_player("first_consistent", SPACE)
    for i, code in enumerate(SPACE.all_codes[::11]):
        rng = np.random.default_rng(i)
        a = play_game(original, Codemaker(SPACE, code), rng)
        b = play_game(replay, Codemaker(SPACE, code), rng)
        assert a.moves == b.moves


def test_tree_player_reports_an_impossible_response(tmp_path: Path) -> None:
    path = tmp_path / "k.json"
    build_tree(make_player("knuth", SPACE)).save(path)
    player = make_player("tree", SPACE, {"path": str(path)})
    player.start(np.random.default_rng(0))
    guess = player.ask()
    with pytest.raises(InconsistentResponsesError, match="impossible"):
        player.tell(guess, Response(3, 1))


def test_tree_refusals(tmp_path: Path) -> None:
    with pytest.raises(InvalidGameError, match="not deterministic"):
        build_tree(make_player("entropy", SPACE))
    with pytest.raises(InvalidGameError, match="no decision tree at"):
        make_player("tree", SPACE, {"path": str(tmp_path / "missing.json")})
    path = tmp_path / "k.json"
    build_tree(make_player("knuth", CodeSpace(3, 3))).save(path)
    with pytest.raises(InvalidGameError, match=r"built for \(3,3\), not \(4,6\)"):
        make_player("tree", SPACE, {"path": str(path)})
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json")
    with pytest.raises(InvalidGameError, match="cannot read decision tree"):
        DecisionTree.load(garbage)


SOLVER_SETTINGS = {"ties": "lexicographic", "pool": "all"}


@pytest.mark.parametrize(
    ("name", "first", "total", "longest"),
    [
        ("knuth", "AABB", 5801, 5),
        ("most_parts", "AABC", 5668, 6),
        ("expected_size", "AABB", 5764, 5),
        ("entropy", "AABC", 5680, 6),
    ],
)
def test_trees_with_the_settings_of_magruders_solver(
    name: str, first: str, total: int, longest: int
) -> None:
    # All-codes pool, lexicographic ties; the totals of Magruder's C++ solver (Entropy there
    # ranks float32 scores: 4.3835, ours 4.3827).
    options = (
        {"first_guess": first} if name == "knuth" else {**SOLVER_SETTINGS, "first_guess": first}
    )
    counts = build_tree(make_player(name, SPACE, options)).guess_counts()
    assert (int(counts.sum()), int(counts.max())) == (total, longest)


@pytest.mark.parametrize(
    ("name", "total", "longest"),
    [
        ("knuth", 183775, 7),
        ("most_parts", 181834, 8),
        ("expected_size", 180200, 7),
        ("entropy", 179704, 7),
    ],
)
def test_five_eight_trees_keep_their_totals(name: str, total: int, longest: int) -> None:
    space = CodeSpace(5, 8)
    options = {"first_guess": "AABBC"}
    if name != "knuth":
        options.update(SOLVER_SETTINGS)
    counts = build_tree(make_player(name, space, options)).guess_counts()
    assert (int(counts.sum()), int(counts.max())) == (total, longest)


@pytest.mark.parametrize(
    ("pegs", "colors", "name", "options"),
    [
        (4, 6, "knuth", {}),
        (4, 6, "most_parts", {**SOLVER_SETTINGS, "first_guess": "AABC"}),
        (4, 6, "expected_size", {**SOLVER_SETTINGS, "first_guess": "AABB"}),
        (4, 6, "entropy", {**SOLVER_SETTINGS, "first_guess": "AABC"}),
        (4, 6, "entropy", {"ties": "lexicographic"}),
        (3, 5, "worst_case", {**SOLVER_SETTINGS, "first_guess": "ABC"}),
        (5, 3, "most_parts", {"ties": "lexicographic", "first_guess": "AABBC"}),
    ],
)
def test_the_compiled_tree_is_the_tree_of_asking_the_player(
    pegs: int, colors: int, name: str, options: dict[str, str]
) -> None:
    space = CodeSpace(pegs, colors)
    grown = build_tree(make_player(name, space, options))
    player = make_player(name, space, options)
    player.start(np.random.default_rng(0))
    assert grown.root.to_json() == _asked(player).to_json()
    walked = DecisionTree(space, name, {}, grown.root).guess_counts()
    assert grown.guess_counts().tolist() == walked.tolist()


def test_a_space_large_enough_for_threads_grows_the_same_tree(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    options = {**SOLVER_SETTINGS, "first_guess": "AABC"}
    alone = build_tree(make_player("entropy", SPACE, options)).root.to_json()
    monkeypatch.setattr("evo_mastermind.players.tree_building.THREADS_FROM", 1)
    numba = pytest.importorskip("numba")
    threads = numba.get_num_threads()
    if threads < 2:
        pytest.skip("one Numba thread")
    assert build_tree(make_player("entropy", SPACE, options)).root.to_json() == alone

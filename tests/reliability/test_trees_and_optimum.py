"""Trees and the optimum: a partial result says it is partial, output places checked first.

An optimal search stopped by Ctrl-C writes the best tree found so far, exits 130 on every
executor, says so in its last line and in the file (``"optimal": false``, the proven lower
bound, the gap), and every later reader of the file (the ``tree`` player, ``tree --summary``,
a drawing) says it is not the optimum. ``tree`` checks where it writes before it builds,
refuses two different openings, and reruns into an empty directory.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from evo_mastermind.codes import CodeSpace
from evo_mastermind.optimal.opening_search import OpeningSearch
from evo_mastermind.players import make_player
from evo_mastermind.players.decision_tree import DecisionTree
from evo_mastermind.players.tree import PartialTreeWarning, TreePlayer
from evo_mastermind.players.tree_dot import tree_to_dot
from tests.optimal.oracle import optimal_total
from tests.reliability.conftest import Cli, Failure

GAME = ("--pegs", "3", "--colors", "5")
GAME_4_6 = ("--pegs", "4", "--colors", "6")
SOLVED = optimal_total(3, 5)[0]


@pytest.fixture
def stopped_after_one_opening(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Ctrl-C as soon as an opening is solved (in the search's own process, any executor)."""
    from evo_mastermind.players import optimal

    receive = OpeningSearch._receive

    def then_interrupted(self: OpeningSearch, *args: object, **kwargs: object) -> None:
        receive(self, *args, **kwargs)  # type: ignore[arg-type]
        if self.best is not None:
            raise KeyboardInterrupt

    monkeypatch.setattr(OpeningSearch, "_receive", then_interrupted)
    monkeypatch.setattr(optimal, "_SOLVED", {})  # searched anew, not taken from another test
    yield


@pytest.mark.parametrize("executor", [None, "serial", "process"])
@pytest.mark.usefixtures("stopped_after_one_opening")
def test_an_interrupted_optimal_tree_exits_130_and_says_it_is_not_the_optimum(
    cli: Cli, tmp_path: Path, executor: str | None
) -> None:
    out = tmp_path / "optimal.json"
    spread = () if executor is None else ("--executor", executor, "--workers", "2")
    status, stdout, err = cli(
        "tree", "--player", "optimal", *GAME, *spread, "--out", out, "--no-progress"
    )
    assert status == 130, err
    last = err.strip().splitlines()[-1]
    assert last.startswith("evo-mastermind: interrupted:") and str(out) in last
    saved = json.loads(out.read_text())
    tree = DecisionTree.load(out)
    total = int(tree.guess_counts().sum())
    assert saved["optimal"] is False and saved["gap"] == total - saved["lower_bound"] >= 0
    assert saved["lower_bound"] <= SOLVED <= total
    if saved["gap"]:  # the usual case: openings left unproven
        assert "best tree found so far" in last and "NOT the optimum" in last
        assert "NOT the optimum" in stdout
    else:  # a pool proved the others meanwhile: only the search for a shallower one is cut
        assert "perhaps not the shallowest" in last and "interrupted" in stdout


def test_a_finished_search_says_it_is_optimal(cli: Cli, tmp_path: Path) -> None:
    out = tmp_path / "optimal.json"
    status, stdout, err = cli("tree", "--player", "optimal", *GAME, "--out", out, "--no-progress")
    assert status == 0 and err == "" and "proven optimal" in stdout
    saved = json.loads(out.read_text())
    assert saved["optimal"] is True and saved["gap"] == 0 and saved["lower_bound"] == SOLVED
    heuristic = tmp_path / "knuth.json"
    assert cli("tree", *GAME, "--out", heuristic, "--no-progress")[0] == 0
    assert "optimal" not in json.loads(heuristic.read_text())  # no search, nothing proven


@pytest.mark.usefixtures("stopped_after_one_opening")
def test_every_reader_of_a_partial_tree_says_so(cli: Cli, tmp_path: Path) -> None:
    out = tmp_path / "partial.json"
    assert cli("tree", "--player", "optimal", *GAME, "--out", out, "--no-progress")[0] == 130
    status, stdout, _ = cli("tree", "--summary", out)
    assert status == 0 and "NOT the optimum" in stdout and "interrupted search" in stdout
    with pytest.warns(PartialTreeWarning, match="is not the optimum"):
        player = make_player("tree", CodeSpace(3, 5), {"path": str(out)})
    assert isinstance(player, TreePlayer) and player.tree.partial
    assert "not the optimum" in tree_to_dot(DecisionTree.load(out)).splitlines()[1]
    status, stdout, _ = cli("tree", "--summary", out, "--out", tmp_path / "x.json")
    assert status == 2


@pytest.mark.usefixtures("stopped_after_one_opening")
def test_an_interrupted_optimal_game_is_not_played_on_the_partial_tree(cli: Cli) -> None:
    status, _, err = cli("play", "--player", "optimal", *GAME, "--secret", "ABC")
    assert status == 130 and err.strip().splitlines()[-1] == "evo-mastermind: interrupted"


@pytest.mark.usefixtures("stopped_after_one_opening")
def test_every_opening_stops_at_the_interrupted_one(cli: Cli, tmp_path: Path) -> None:
    out = tmp_path / "openings"
    status, stdout, err = cli(
        "tree", "--player", "optimal", *GAME, "--first-guess", "all", "--out", out, "--no-progress"
    )
    assert status == 130 and "evo-mastermind: interrupted:" in err.strip().splitlines()[-1]
    assert "(interrupted: not the optimum)" in stdout and "best opening" not in stdout
    assert [p.name for p in out.iterdir()] == ["AAA.json"]
    assert DecisionTree.load(out / "AAA.json").partial


@pytest.mark.parametrize("spread", [(), ("--executor", "process", "--workers", "2")])
def test_ctrl_c_on_a_real_search_exits_130_with_the_tree_marked(
    tmp_path: Path, spread: tuple[str, ...]
) -> None:
    out = tmp_path / "optimal.json"
    command = [sys.executable, "-m", "evo_mastermind.cli", "tree", "--player", "optimal"]
    child = subprocess.Popen(
        [*command, *GAME_4_6, *spread, "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group, as a terminal's Ctrl-C reaches
    )
    assert child.stderr is not None
    seen = b""
    while b"best 5" not in seen:  # the progress bar's first total: a tree to keep exists
        read = os.read(child.stderr.fileno(), 4096)
        assert read or child.poll() is None, seen
        seen += read
    os.killpg(child.pid, signal.SIGINT)  # the search and its workers, as Ctrl-C does
    stdout, err = child.communicate(timeout=600)
    assert child.returncode == 130, err
    last = (seen + err).decode().replace("\r", "\n").strip().splitlines()[-1]
    assert last.startswith("evo-mastermind: interrupted:") and "NOT the optimum" in last, last
    saved = json.loads(out.read_text())
    assert (
        saved["optimal"] is False
        and saved["lower_bound"] <= 5625 <= saved["lower_bound"] + saved["gap"]
    )
    assert b"NOT the optimum" in stdout


def test_an_unwritable_out_is_refused_before_the_search(
    fails: Failure, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("the tree was built before its output was checked")

    monkeypatch.setattr("evo_mastermind.players.tree_building.build_tree", never)
    monkeypatch.setattr("evo_mastermind.players.openings.build_tree", never)
    tree = ("tree", "--player", "optimal", *GAME, "--no-progress")
    missing = tmp_path / "missing" / "tree.json"
    fails(*tree, "--out", missing, pattern=r"no directory .*missing; nothing was built")
    (tmp_path / "file.json").write_text("mine")
    fails(*tree, "--first-guess", "all", "--out", tmp_path / "file.json", pattern="is a file")
    if sys.platform == "linux":  # a read-only place even for root
        fails(*tree, "--out", "/proc/tree.json", pattern=r"cannot write in /proc")
        fails(*tree, "--first-guess", "all", "--out", "/proc/openings", pattern=r"/proc/openings")
    if os.geteuid() != 0:  # root writes anywhere the file system allows
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        fails(*tree, "--out", locked / "t.json", pattern=r"cannot write in .*locked")


def test_two_different_openings_are_refused(fails: Failure, cli: Cli, tmp_path: Path) -> None:
    out = tmp_path / "t.json"
    tree = ("tree", "--player", "optimal", *GAME, "--out", out, "--no-progress")
    fails(
        *tree,
        "--first-guess",
        "AAB",
        "-o",
        "first_guess=ABC",
        pattern=r"--first-guess AAB and -o first_guess=ABC name two openings; give one",
    )
    fails(*tree, "--first-guess", "all", "-o", "first_guess=ABC", pattern="two openings")
    assert not out.exists()
    status, stdout, _ = cli(*tree, "--first-guess", "AAB", "-o", "first_guess=aab")
    assert status == 0 and f"{optimal_total(3, 5, first_guess='AAB')[0]} guesses" in stdout


def test_every_opening_reruns_into_an_empty_directory_and_replaces_with_force(
    cli: Cli, fails: Failure, tmp_path: Path
) -> None:
    out = tmp_path / "openings"
    out.mkdir()
    every = ("tree", "--player", "knuth", *GAME, "--first-guess", "all", "--no-progress")
    status, _, err = cli(*every, "--out", out)
    assert status == 0, err
    written = {path.name: path.read_text() for path in out.iterdir()}
    assert len(written) == 3
    fails(*every, "--out", out, pattern=r"already holds files; .* or --force")
    (out / "notes.txt").write_text("mine")
    assert cli(*every, "--out", out, "--force")[0] == 0
    assert {p.name: p.read_text() for p in out.iterdir()} == {**written, "notes.txt": "mine"}


def test_a_refused_every_opening_leaves_no_directory_behind(fails: Failure, tmp_path: Path) -> None:
    out = tmp_path / "new"
    fails(
        "tree",
        "--player",
        "tree",
        "-o",
        "path=saved.json",
        *GAME,
        "--first-guess",
        "all",
        "--out",
        out,
        pattern="no first_guess option",
    )
    assert not out.exists()


def test_executor_only_for_a_player_that_declares_it(fails: Failure, tmp_path: Path) -> None:
    fails(
        "tree",
        "--player",
        "knuth",
        *GAME,
        "--executor",
        "process",
        "--out",
        tmp_path / "t.json",
        pattern="player 'knuth' builds its tree here only",
    )
    assert list(tmp_path.iterdir()) == []

"""Costs said before the work, names and scores checked, a partial move log said partial.

Every built-in player estimates the time and memory of its games through the hook a user's
player uses (``Player.estimate``); ``play``, ``tree`` and the plan refuse in one line what
would not fit in memory and say how long work of more than a minute will take before it
starts. A registered name must be a word a config can name; a heuristic's scores must be real
numbers; a resumed run that turns ``log: moves`` on logs only its new games and says so, and
the readers of the log say that it is partial.
"""

import re
from pathlib import Path

import numpy as np
import pytest

import evo_mastermind
from evo_mastermind import register_heuristic, register_player
from evo_mastermind.cli import UsageError
from evo_mastermind.cli import play as cli_play
from evo_mastermind.codes import CodeSpace
from evo_mastermind.heuristics import Heuristic, HeuristicError
from evo_mastermind.players import PLAYERS, Player, known_player, validate_params
from evo_mastermind.players.cost import ANNOUNCE_SECONDS, Cost, tree_announcement, tree_seconds
from evo_mastermind.registry import PluginError
from evo_mastermind.runner import load_config
from evo_mastermind.runner.config import PlanLimits
from evo_mastermind.runner.plan import check_plan, estimate_plan
from tests.reliability.conftest import Cli, Failure, write_yaml


def cost_of(name: str, space: CodeSpace, **options: object) -> Cost:
    return known_player(name).estimate(validate_params(name, options), space)


@pytest.fixture
def tree_file(tmp_path: Path, cli: Cli) -> Path:
    """Knuth's tree of (4,6), saved."""
    path = tmp_path / "knuth.json"
    status, _, err = cli("tree", "--player", "knuth", "--out", path, "--no-progress")
    assert status == 0, err
    return path


# --- every player costs its games, in time and memory ---------------------------------


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_every_built_in_player_estimates_time_and_memory(name: str, tree_file: Path) -> None:
    space = CodeSpace(4, 6)
    options = {"path": str(tree_file)} if name == "tree" else {}
    cls = known_player(name)
    # Through the public hook, as a user's player would: never the protocol's empty default.
    assert cls.estimate.__func__ is not Player.estimate.__func__  # type: ignore[attr-defined]
    cost = cost_of(name, space, **options)
    assert cost.seconds is not None and 0 < cost.seconds < 1, cost
    assert 0 < cost.memory < 2**30, cost


@pytest.mark.parametrize(
    ("name", "small", "large"),
    [
        ("ga", (4, 6), (8, 12)),
        ("eda", (4, 6), (8, 12)),
        ("archive", (4, 6), (8, 12)),
        ("fcol", (8, 12), (26, 26)),
        ("rao", (8, 12), (26, 26)),
        ("joint", (8, 12), (26, 26)),
    ],
)
def test_a_larger_game_is_estimated_to_cost_more(
    name: str, small: tuple[int, int], large: tuple[int, int]
) -> None:
    little, big = cost_of(name, CodeSpace(*small)), cost_of(name, CodeSpace(*large))
    assert little.seconds is not None and big.seconds is not None
    assert big.seconds > 5 * little.seconds
    assert big.memory >= little.memory


def test_the_optimum_is_searched_once_a_process_not_once_a_game() -> None:
    small, large = cost_of("optimal", CodeSpace(4, 6)), cost_of("optimal", CodeSpace(4, 7))
    # Measured: 0.69 s and 436 s of search; a game after it is a walk down the tree.
    assert 0.2 < small.setup_seconds < 3 and 150 < large.setup_seconds < 1500
    assert large.seconds is not None and large.seconds < 0.01
    assert cost_of("optimal", CodeSpace(5, 6)).memory > large.memory > 50 * 2**20


def test_a_plan_of_optimal_games_announces_the_search_once(tmp_path: Path) -> None:
    def plan(pegs: int, colors: int) -> str | None:
        config = write_yaml(
            tmp_path / "c.yaml",
            game={"pegs": pegs, "colors": colors},
            secrets="full",
            runs=1,
            players=[{"label": "Optimal", "player": "optimal"}],
        )
        return check_plan(estimate_plan(load_config(config)), PlanLimits(), workers=2)

    assert plan(4, 6) is None  # 1,296 games after a search of a second
    announced = plan(4, 7)
    assert announced is not None
    assert re.search(
        r"estimate: about \d+ min .* Optimal on \(4,7\): about \d+ min before", announced
    )


def test_a_compiled_tree_is_estimated_at_the_tree_kernels_speed() -> None:
    # Measured 2026-11-26: knuth's whole trees took 1.2 s of CPU on (5,8) and 107 s on (6,9),
    # where 80 of its games (the model of a tree asked node by node) would say 1.7 s and 452 s.
    for size, low, high in (((5, 8), 0.6, 2.4), ((6, 9), 55.0, 215.0)):
        seconds = tree_seconds(cost_of("knuth", CodeSpace(*size)))
        assert seconds is not None and low < seconds < high, (size, seconds)


def test_a_tree_of_ones_own_heuristic_is_estimated_at_its_numpy_speed(
    registry: None, tmp_path: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    @register_heuristic("parts_in_numpy")
    def parts_in_numpy(counts: np.ndarray) -> np.ndarray:
        """Most parts, without a compiled form."""
        return np.count_nonzero(counts, axis=1).astype(float)

    space = CodeSpace(5, 8)
    options = {"ties": "lexicographic", "pool": "all"}
    mine = cost_of("one_ply", space, heuristic="parts_in_numpy", **options)
    built_in = cost_of("one_ply", space, heuristic="most_parts", **options)
    assert mine.seconds is not None and built_in.seconds is not None
    assert mine.seconds == pytest.approx(8 * built_in.seconds)
    # docs/extending.md measured this tree at 27.8 s (3.4 s with the compiled form).
    seconds = tree_seconds(mine)
    assert seconds is not None and 10 < seconds < ANNOUNCE_SECONDS
    assert tree_announcement(mine, "one_ply on (5,8)") is None
    # On (6,8), 8 times the codes: announced before the tree is grown.

    def never(*_: object, **__: object) -> None:
        raise UsageError("stopped before the tree was grown")

    monkeypatch.setattr("evo_mastermind.players.tree_building.build_tree", never)
    status, _, err = cli(
        "tree", "--player", "one_ply", "-o", "heuristic=parts_in_numpy", "-o", "ties=lexicographic",
        "-o", "pool=all", "--pegs", "6", "--colors", "8", "--out", tmp_path / "t.json",
    )  # fmt: skip
    assert status == 2
    first = err.splitlines()[0]
    assert re.match(r"evo-mastermind: estimate: about [\d,.]+ (min|h) to build the tree", first)


# --- memory refused before the work ---------------------------------------------------


def test_play_refuses_a_sample_beyond_memory_before_building_the_player(
    fails: Failure, monkeypatch: pytest.MonkeyPatch
) -> None:
    def never(*_: object, **__: object) -> None:
        raise AssertionError("the player was built before its cost was checked")

    monkeypatch.setattr("evo_mastermind.players.make_player", never)
    args = ("play", "--player", "sampler", "-o", "mu=1000000000", "--pegs", "8", "--colors", "12")
    err = fails(*args, pattern=r"a game of sampler on \(8,12\) needs about [\d,.]+ PiB")
    assert "more than the" in err and "of this machine" in err and "(mu)" in err


def test_play_checks_the_options_before_the_cost(fails: Failure) -> None:
    fails("play", "--player", "sampler", "-o", "mu=0", pattern=r"mu: input should be greater")
    fails("play", "--player", "optimal", "--pegs", "8", "--colors", "12", pattern=r"at most 7,776")


def test_play_says_a_long_search_before_it_starts(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    def stop(*_: object, **__: object) -> None:
        raise UsageError("stopped before the first guess")

    monkeypatch.setattr(cli_play, "play_game", stop)
    status, _, err = cli("play", "--player", "optimal", "--pegs", "5", "--colors", "5")
    assert status == 2
    first = err.splitlines()[0]
    assert re.match(
        r"evo-mastermind: estimate: about [\d,.]+ h a game of optimal on \(5,5\)", first
    )


def test_tree_and_run_refuse_what_the_machine_cannot_hold(
    tmp_path: Path, fails: Failure, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A machine of 32 KiB: knuth's listed (4,6) (67 KB) does not fit.
    monkeypatch.setattr("evo_mastermind.players.cost.machine_memory", lambda: 2**15)
    monkeypatch.setattr("evo_mastermind.runner.plan.machine_memory", lambda: 2**15)
    out = tmp_path / "t.json"
    fails("tree", "--player", "knuth", "--out", out, pattern=r"a tree of knuth on \(4,6\) needs")
    assert not out.exists()
    config = write_yaml(tmp_path / "c.yaml", players=[{"label": "Optimal", "player": "optimal"}])
    results = tmp_path / "out"
    fails("run", config, "--out", results, "--executor", "serial", pattern=r"the plan needs about")
    assert not results.exists()


# --- registered names and heuristic scores --------------------------------------------


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        (5, r"heuristic name must be a string, got int 5"),
        ("a b", r"heuristic name 'a b' is not a single word"),
        ("", r"heuristic name '' is not a single word"),
        ("3rd", r"heuristic name '3rd' is not a single word"),
        ("yes", r"heuristic name 'yes' is read by YAML as a boolean"),
    ],
)
def test_a_heuristic_name_a_config_could_not_write_is_refused_at_once(
    registry: None, name: object, problem: str
) -> None:
    with pytest.raises(HeuristicError, match=problem):
        register_heuristic(name)  # type: ignore[arg-type]


def test_a_player_name_is_checked_too(registry: None) -> None:
    with pytest.raises(PluginError, match=r"player name 'my player' is not a single word"):
        register_player("my player")
    with pytest.raises(PluginError, match=r"player name must be a string, got NoneType"):
        register_player(None)  # type: ignore[arg-type]


def test_a_plugin_registering_a_bad_name_is_one_line(
    registry: None, tmp_path: Path, fails: Failure, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "plugin"
    folder.mkdir()
    (folder / "badly_named.py").write_text(
        "from evo_mastermind import register_heuristic\n\n\n"
        "@register_heuristic('most parts')\n"
        "def most_parts(counts):\n"
        "    return (counts > 0).sum(axis=1).astype(float)\n"
    )
    monkeypatch.syspath_prepend(str(folder))
    config = write_yaml(tmp_path / "c.yaml", plugins=["badly_named"])
    err = fails("run", config, "--out", tmp_path / "out", pattern=r"'most parts' is not a single")
    assert "badly_named" in err


@pytest.mark.parametrize(
    ("answer", "problem"),
    [
        (lambda counts: counts.max(axis=1) + 1j, r"complex scores \(complex128; 3 of 3 with"),
        (lambda counts: counts.max(axis=1).astype(complex), r"complex scores"),
        (lambda counts: [1.0, 2 + 0.5j, 3.0], r"complex scores"),
        (lambda counts: [1.0, complex(2, 1), None], r"a complex score \(\(2\+1j\)\)"),
        (lambda counts: np.array(["1", "2", "3"]), r"scores of dtype <U1 \(not numbers\)"),
        (lambda counts: [1.0, None, 3.0], r"a NoneType score \(None\)"),
    ],
)
def test_scores_that_are_not_real_numbers_are_refused_not_truncated(
    answer: object, problem: str
) -> None:
    counts = np.array([[3, 1, 0], [2, 2, 0], [1, 1, 2]], dtype=np.int64)
    heuristic = Heuristic(answer, name="imaginary")  # type: ignore[arg-type]
    with pytest.raises(HeuristicError, match=problem) as raised:
        heuristic.scores(counts)
    assert str(raised.value).startswith("heuristic 'imaginary' returned ")
    assert "every score must be a real number" in str(raised.value)


def test_real_scores_of_any_numeric_type_are_kept() -> None:
    counts = np.array([[3, 1, 0], [2, 2, 0]], dtype=np.int64)
    answers: list[object] = [[1, 2], [1.5, np.float32(2)], np.array([True, False]), [1, 2.5]]
    for answer in answers:

        def real(counts: np.ndarray, given: object = answer) -> object:
            return given

        scores = Heuristic(real, name="real").scores(counts)  # type: ignore[arg-type]
        assert scores.dtype == np.float64 and scores.shape == (2,)


def test_a_game_with_complex_scores_stops_in_one_line_naming_the_heuristic(
    registry: None, tmp_path: Path, fails: Failure, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "plugin"
    folder.mkdir()
    (folder / "complex_scores.py").write_text(
        "import numpy as np\n\nfrom evo_mastermind import register_heuristic\n\n\n"
        "@register_heuristic('rotated_parts')\n"
        "def rotated_parts(counts):\n"
        "    return np.count_nonzero(counts, axis=1) * np.exp(0.5j)\n"
    )
    monkeypatch.syspath_prepend(str(folder))
    args = ("play", "--plugin", "complex_scores", "--player", "one_ply")
    fails(
        *args,
        "-o",
        "heuristic=rotated_parts",
        pattern=r"heuristic 'rotated_parts' returned complex",
    )


# --- a move log turned on by a resumed run ----------------------------------------------


def eda_config(path: Path, runs: int, log: bool) -> Path:
    changes: dict[str, object] = {
        "game": {"pegs": 4, "colors": 6},
        "secrets": {"sample": 10},
        "runs": runs,
        "players": [{"label": "EDA", "player": "eda"}, {"label": "Entropy", "player": "entropy"}],
    }
    if log:
        changes["log"] = "moves"
    return write_yaml(path, **changes)


def test_a_resumed_run_turning_the_move_log_on_says_the_log_is_partial(
    tmp_path: Path, cli: Cli, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    run = ("--out", out, "--executor", "serial", "--no-progress")
    status, _, err = cli("run", eda_config(tmp_path / "a.yaml", 1, log=False), *run)
    assert status == 0 and "move log" not in err, err
    status, _, err = cli("run", eda_config(tmp_path / "b.yaml", 2, log=True), *run, "--resume")
    assert status == 0, err
    warning = [line for line in err.splitlines() if "move log" in line]
    assert len(warning) == 1, err
    assert (
        "log: moves logs only the games played now (20); the 10 games already stored of EDA"
        in (warning[0])
    )
    assert "--force" in warning[0] and "Entropy" not in warning[0]  # entropy keeps no log
    results = evo_mastermind.load(out)
    capsys.readouterr()
    table = results.convergence()
    assert table["games"].max() == 10  # the logged games only
    said = capsys.readouterr().err
    assert "the move log is partial (games logged: EDA 10 of 20)" in said
    status, _, err = cli("plot", out, "--kind", "convergence", "--out", tmp_path / "c.png")
    assert status == 0, err
    assert "note: The move log is partial (games logged: EDA 10 of 20)" in err
    # Everything already stored and the log still on: said again, nothing played.
    status, _, err = cli("run", eda_config(tmp_path / "b.yaml", 2, log=True), *run, "--resume")
    assert status == 0 and "games played now (none: every game is stored)" in err, err


def test_a_resumed_run_turning_the_move_log_off_says_so(tmp_path: Path, cli: Cli) -> None:
    out = tmp_path / "out"
    run = ("--out", out, "--executor", "serial", "--no-progress")
    status, _, err = cli("run", eda_config(tmp_path / "a.yaml", 1, log=True), *run)
    assert status == 0 and "move log" not in err, err
    status, _, err = cli("run", eda_config(tmp_path / "b.yaml", 2, log=False), *run, "--resume")
    assert status == 0, err
    assert "log: moves is off now: the 20 games played now are not logged" in err


def test_a_whole_log_says_nothing(
    tmp_path: Path, cli: Cli, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    run = ("--out", out, "--executor", "serial", "--no-progress")
    cli("run", eda_config(tmp_path / "a.yaml", 1, log=True), *run)
    status, _, err = cli("run", eda_config(tmp_path / "b.yaml", 2, log=True), *run, "--resume")
    assert status == 0 and "move log" not in err, err
    capsys.readouterr()
    assert evo_mastermind.load(out).convergence()["games"].max() == 20
    assert "partial" not in capsys.readouterr().err

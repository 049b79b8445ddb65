"""The newer surfaces tried as a hostile user would: heuristics, the Python API, export, studies.

Each case gets the right behaviour or one clear line (exit status 2 on the command line):
a heuristic that breaks the determinism contract, output places that cannot be written
(refused before the work that would fill them), an export that would lose a player, wrong
types through the Python API, inputs that would block or print a traceback, and flags
suggested that do not exist.
"""

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
import yaml

import evo_mastermind
from evo_mastermind import determinism
from evo_mastermind.analysis.results import AnalysisError
from evo_mastermind.api import RunOptionsError
from evo_mastermind.heuristics import HeuristicError, known_heuristic
from tests.reliability.buggy import buggy_plugin
from tests.reliability.conftest import SMALL, Cli, Failure, write_yaml

HEURISTICS = '''
import itertools

import numpy as np

from evo_mastermind import register_heuristic


@register_heuristic("noisy_parts")
def noisy_parts(counts):
    """Most parts, ties broken by np.random (against the contract)."""
    return np.count_nonzero(counts, axis=1) + np.random.random(counts.shape[0])


_calls = itertools.count()


@register_heuristic("counting_parts")
def counting_parts(counts):
    """Most parts plus a counter kept between calls (against the contract)."""
    return np.count_nonzero(counts, axis=1) + 0.1 * next(_calls)


@register_heuristic("writes_counts")
def writes_counts(counts):
    """Worst case computed in place (against the contract)."""
    counts *= 2
    return -counts.max(axis=1).astype(float)


@register_heuristic("plain_parts")
def plain_parts(counts):
    """Most parts, a deterministic function of the counts."""
    return np.count_nonzero(counts, axis=1).astype(float)
'''

BROKEN = ["noisy_parts", "counting_parts", "writes_counts"]
CONTRACT = r"scored the same counts differently when asked twice|writes into the counts it is given"


@pytest.fixture
def heuristics(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A plugin of heuristics, importable here and in worker processes; checks start afresh."""
    folder = tmp_path / "plugin"
    folder.mkdir()
    (folder / "contract_heuristics.py").write_text(HEURISTICS)
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join([str(folder), os.environ.get("PYTHONPATH", "")])
    )
    determinism.forget_checks()
    yield "contract_heuristics"
    determinism.forget_checks()


def heuristic_config(path: Path, plugin: str, heuristic: str) -> Path:
    return write_yaml(
        path,
        game={"pegs": 3, "colors": 4},
        plugins=[plugin],
        players=[{"label": "Mine", "player": "one_ply", "heuristic": heuristic}],
    )


# --- the determinism contract of user heuristics ----------------------------------------


@pytest.mark.parametrize("heuristic", BROKEN)
@pytest.mark.parametrize("executor", ["serial", "process"])
def test_a_run_with_a_heuristic_that_breaks_the_contract_stops_in_one_line(
    tmp_path: Path, fails: Failure, heuristics: str, heuristic: str, executor: str
) -> None:
    config = heuristic_config(tmp_path / "c.yaml", heuristics, heuristic)
    out = tmp_path / "out"
    args = ("run", config, "--out", out, "--executor", executor, "--workers", "1")
    err = fails(*args, "--no-progress", pattern=CONTRACT)
    assert f"heuristic {heuristic!r}" in err
    assert "it must draw no random numbers and keep no state" in err or "writes" in err


@pytest.mark.parametrize("heuristic", BROKEN)
def test_a_tree_or_a_game_of_such_a_heuristic_stops_in_one_line(
    tmp_path: Path, fails: Failure, heuristics: str, heuristic: str
) -> None:
    tree = ("tree", "--plugin", heuristics, "--player", "one_ply", "-o", f"heuristic={heuristic}")
    fails(*tree, "-o", "ties=lexicographic", "--out", tmp_path / "t.json", pattern=CONTRACT)
    assert not (tmp_path / "t.json").exists()
    play = ("play", "--plugin", heuristics, "--player", "one_ply", "-o", f"heuristic={heuristic}")
    fails(*play, "--secret", "ABCD", pattern=CONTRACT)


def test_a_broken_heuristic_is_caught_every_time_it_is_used_not_only_the_first(
    heuristics: str,
) -> None:
    __import__(heuristics)
    noisy = known_heuristic("noisy_parts")
    counts = np.array([[3, 1, 0], [2, 2, 0], [1, 1, 2]], dtype=np.int64)
    for _ in range(2 * determinism.CHECKED_SCORINGS):
        with pytest.raises(HeuristicError, match="scored the same counts differently"):
            noisy.scores(counts)


def test_a_deterministic_heuristic_is_asked_twice_only_on_its_first_scorings(
    heuristics: str,
) -> None:
    __import__(heuristics)
    plain = known_heuristic("plain_parts")
    calls = []

    def counted(counts: np.ndarray) -> np.ndarray:
        calls.append(1)
        return np.asarray(plain.score(counts))

    entry = type(plain)(counted, name="counted")
    counts = np.array([[3, 1, 0], [2, 2, 0], [1, 1, 2]], dtype=np.int64)
    for _ in range(50):
        assert entry.scores(counts).tolist() == [2.0, 2.0, 3.0]
    assert len(calls) == 50 + determinism.CHECKED_SCORINGS


def test_a_deterministic_heuristic_gives_the_same_games_serially_and_in_a_pool(
    tmp_path: Path, cli: Cli, heuristics: str
) -> None:
    config = heuristic_config(tmp_path / "c.yaml", heuristics, "plain_parts")
    games = []
    for executor in ("serial", "process"):
        out = tmp_path / executor
        status, _, err = cli("run", config, "--out", out, "--executor", executor, "--no-progress")
        assert status == 0, err
        played = evo_mastermind.load(out).games.sort_values(["run", "secret"])
        games.append([list(moves) for moves in played["moves"]])
    assert games[0] == games[1]


# --- every output place checked before the work ------------------------------------------


@pytest.fixture
def blocker(tmp_path: Path) -> Path:
    """A file standing where a folder would have to be made."""
    path = tmp_path / "blocker"
    path.write_text("a file\n")
    return path


def test_run_refuses_an_unwritable_results_directory_before_any_game(
    tmp_path: Path, fails: Failure, blocker: Path
) -> None:
    config = write_yaml(tmp_path / "small.yaml")
    out = blocker / "out"
    fails("run", config, "--out", out, "--executor", "serial", pattern=r"is a file, not a folder")


def test_plot_refuses_its_file_before_drawing(
    played: Path, fails: Failure, blocker: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def never(*_: object, **__: object) -> None:
        raise AssertionError("the games were read before the plot file was checked")

    monkeypatch.setattr("evo_mastermind.analysis.plots.load_games", never)
    refused = r"p\.png: .*blocker is a file, not a folder, so the plot file"
    fails("plot", played, "--out", blocker / "p.png", pattern=refused)
    fails("plot", played, "--out", played, pattern=r"must end in \.png or \.pdf")
    (played / "folder.png").mkdir()
    refused = r"folder\.png: the plot file is a folder, where a file"
    fails("plot", played, "--out", played / "folder.png", pattern=refused)


def test_results_plot_refuses_its_file_before_drawing(
    played: Path, blocker: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    results = evo_mastermind.load(played)

    def never(*_: object, **__: object) -> None:
        raise AssertionError("the figure was drawn before its file was checked")

    monkeypatch.setattr("evo_mastermind.analysis.plots.make_figure", never)
    with pytest.raises(evo_mastermind.InvalidGameError, match="blocker is a file"):
        results.plot("distribution", out=blocker / "p.png")


def test_export_refuses_its_folder_before_reading_the_games(
    played: Path, fails: Failure, blocker: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def never(*_: object, **__: object) -> None:
        raise AssertionError("the games were read before the export folder was checked")

    monkeypatch.setattr("evo_mastermind.analysis.ioh_export.load_games", never)
    args = ("export", played, "--format", "ioh", "--no-progress", "--out")
    refused = r"blocker/e: .*blocker is a file, not a folder, so the export"
    fails(*args, blocker / "e", pattern=refused)
    fails(*args, blocker, pattern=r"already exists and is not an empty directory")


def test_report_refuses_an_output_it_cannot_write_before_the_tests(
    played: Path, fails: Failure, monkeypatch: pytest.MonkeyPatch
) -> None:
    def never(*_: object, **__: object) -> None:
        raise AssertionError("the report was computed before its outputs were checked")

    monkeypatch.setattr("evo_mastermind.analysis.analysis.load_games", never)
    (played / "report.md").unlink()
    (played / "report.md").mkdir()
    err = fails("report", played, pattern=r"report\.md: the report output is a folder")
    assert "--resume" not in err  # nothing of a run to resume here


def test_reproduce_checks_every_tables_folder_before_the_first_game(
    tmp_path: Path, fails: Failure, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "paper").mkdir()
    (tmp_path / "paper" / "table3").write_text("a file where table3's folder goes\n")
    args = ("reproduce", "table2", "table3", "--out", "paper", "--executor", "serial")
    fails(*args, pattern=r"paper/table3 is a file, not a results directory")
    assert not (tmp_path / "paper" / "table2").exists()  # table2 was not played first


def test_studies_copy_refuses_an_unwritable_destination(
    tmp_path: Path, fails: Failure, blocker: Path
) -> None:
    fails("studies", "copy", "paper/table2", blocker / "t.yaml", pattern=r"blocker is a file")


# --- silently lost, tracebacks and wrong words --------------------------------------------


def test_export_leaves_out_games_without_a_guess_and_says_so(
    registry: None, tmp_path: Path, cli: Cli, fails: Failure, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("ioh")
    plugin = buggy_plugin(tmp_path, monkeypatch)
    players = [
        {"label": "Entropy", "player": "entropy"},
        {"label": "Short", "player": "returns_short"},  # every game fails at its first guess
    ]
    config = write_yaml(tmp_path / "c.yaml", runs=1, plugins=[plugin], players=players)
    out = tmp_path / "out"
    status, _, err = cli("run", config, "--out", out, "--executor", "serial", "--no-progress")
    assert status == 3, err
    status, stdout, err = cli("export", out, "--format", "ioh", "--out", tmp_path / "e")
    assert status == 0, err
    assert "27 games (" in stdout and "of 1 players" in stdout
    assert err.count("\n") == 1 and "27 games of 'Short' ended before their first guess" in err
    assert sorted(path.name for path in (tmp_path / "e").iterdir()) == ["Entropy"]
    # Only such a player: nothing to export, and nothing written.
    alone = write_yaml(tmp_path / "a.yaml", runs=1, plugins=[plugin], players=players[1:])
    cli("run", alone, "--out", tmp_path / "alone", "--executor", "serial", "--no-progress")
    args = ("export", tmp_path / "alone", "--format", "ioh", "--out", tmp_path / "e2")
    fails(*args, pattern=r"nothing to export: none of the 27 games made a guess")
    assert not (tmp_path / "e2").exists()


def test_an_unknown_group_rule_is_one_line_not_a_key_error(played: Path) -> None:
    results = evo_mastermind.load(played)
    for ask in (results.report, results.write_report, results.groups):
        with pytest.raises(AnalysisError, match="group rule must be 'clique' or 'chain'"):
            ask(rule="cliques")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"runs": "2"}, r"runs must be a whole number, got str '2'"),
        ({"runs": 2.0}, r"runs must be a whole number, got float"),
        ({"runs": True}, r"runs must be a whole number, got bool"),
        ({"workers": "2"}, r"workers must be a whole number"),
        ({"resume": "yes"}, r"resume must be True or False"),
        ({"force": 1}, r"force must be True or False"),
        ({"executor": ["serial"]}, r"executor must be one of serial, process, dask"),
        ({"scheduler": 8786, "executor": "dask"}, r"scheduler must be an address"),
        ({"out": 5}, r"out must be a folder's path, got int"),
        ({"plugins": "mylab.players"}, r"plugins must be a list of module names"),
        ({"progress": "no"}, r"progress must be True or False"),
    ],
)
def test_run_options_of_a_wrong_type_are_named(
    tmp_path: Path, options: dict[str, object], named: str
) -> None:
    settings: dict[str, object] = {"executor": "serial", "progress": False, **options}
    settings.setdefault("out", tmp_path / "out")
    with pytest.raises(RunOptionsError, match=named):
        evo_mastermind.run(write_yaml(tmp_path / "c.yaml"), **settings)  # type: ignore[arg-type]
    assert not (tmp_path / "out").exists()


def test_numpy_numbers_in_a_config_or_the_options_are_their_python_values(tmp_path: Path) -> None:
    config = {
        **SMALL,
        "runs": np.int64(2),
        "seed": np.uint32(5),
        "game": {"pegs": np.int32(3), "colors": np.int64(3)},
        "players": [{"label": "Entropy", "player": "entropy"}],
    }
    first = evo_mastermind.run(config, out=tmp_path / "a", executor="serial", progress=False)
    assert first.experiment.runs == 2 and len(first.games) == 54
    plain = {**SMALL, "players": config["players"]}
    again = evo_mastermind.run(
        plain, out=tmp_path / "b", runs=np.int64(2), executor="serial", progress=False
    )
    moves = [
        [list(m) for m in r.games.sort_values(["run", "secret"])["moves"]] for r in (first, again)
    ]
    assert moves[0] == moves[1]


def test_a_non_numeric_published_table_is_one_line(played: Path, fails: Failure) -> None:
    table = played.parent / "published.csv"
    table.write_text(
        "label,section,min,mean,median,max,sd,max_guesses\nEntropy,,x,2.7,2.7,2.8,0.01,4\n"
    )
    err = fails("report", played, "--compare-with", table, pattern=r"is not a number")
    assert "row 'Entropy', column 'min': 'x' is not a number" in err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
@pytest.mark.parametrize(
    ("args", "what"),
    [
        (("run", "{fifo}"), "config"),
        (("report", "{played}", "--compare-with", "{fifo}"), "published table"),
    ],
)
def test_a_fifo_given_as_an_input_is_refused_not_waited_on(
    tmp_path: Path, played: Path, args: tuple[str, ...], what: str
) -> None:
    fifo = tmp_path / "input.yaml"
    os.mkfifo(fifo)
    filled = [arg.format(fifo=fifo, played=played) for arg in args]
    # In a child process: a reader blocked on the FIFO would hang this test, not fail it.
    done = subprocess.run(
        [sys.executable, "-m", "evo_mastermind.cli", *filled],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert f"the {what} is a FIFO (named pipe), not a regular file" in done.stderr


def test_every_flag_reproduce_suggests_is_one_it_has(
    tmp_path: Path, cli: Cli, fails: Failure, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    # Another experiment's results where table2's go: reproduce must not mix them.
    small = write_yaml(tmp_path / "small.yaml")
    status, _, err = cli("run", small, "--out", "paper/table2", "--executor", "serial")
    assert status == 0, err
    args = ("reproduce", "table2", "--runs", "1", "--out", "paper", "--executor", "serial")
    err = fails(*args, "--no-progress", pattern=r"holds results of a different configuration")
    suggested = set(re.findall(r"--[a-z-]+", err)) - {"--out"}
    assert suggested == {"--force"}
    status, out, err = cli(*args, *suggested, "--no-progress")
    assert status == 0, err
    assert out.startswith("table2: 6,480 games played in ")


def test_a_published_table_is_copied_as_a_table_and_never_offered_to_run(
    tmp_path: Path, cli: Cli, fails: Failure, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    table = "published/runarsson_merelo_2009_table2.csv"
    fails("studies", "copy", table, "published.yaml", pattern=r"is a published table \(\.csv\)")
    fails("studies", "copy", "paper/table2", "table2.csv", pattern=r"is a study's config")
    assert not list(tmp_path.iterdir())
    status, out, _ = cli("studies", "copy", table)
    assert status == 0
    assert "run it with" not in out and "compare_with: runarsson_merelo_2009_table2.csv" in out
    status, out, _ = cli("studies", "copy", "paper/table2", "mine.yml")
    assert status == 0 and out.rstrip().endswith("run it with: evo-mastermind run mine.yml")
    assert yaml.safe_load((tmp_path / "mine.yml").read_text())["name"]


# --- further cases found by trying the surfaces ---------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ("run", "{config}", "--out", ""),
        ("plot", "{played}", "--out", ""),
        ("export", "{played}", "--format", "ioh", "--out", " "),
        ("report", "{played}", "--compare-with", ""),
        ("reproduce", "table2", "--out", ""),
    ],
)
def test_an_empty_path_is_refused_not_read_as_the_current_folder(
    tmp_path: Path, played: Path, fails: Failure, args: tuple[str, ...]
) -> None:
    config = write_yaml(tmp_path / "c.yaml")
    filled = [arg.format(config=config, played=played) for arg in args]
    before = sorted(tmp_path.rglob("*"))
    fails(*filled, pattern=r"--[a-z-]+:? is empty; give ")
    assert sorted(tmp_path.rglob("*")) == before


def test_studies_copy_to_an_empty_destination_is_refused(
    tmp_path: Path, fails: Failure, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    fails("studies", "copy", "paper/table2", "", pattern=r"the destination is empty")
    assert not list(tmp_path.iterdir())


def test_the_python_api_names_values_of_a_wrong_type(played: Path) -> None:
    with pytest.raises(RunOptionsError, match="a results directory's path is text or a Path"):
        evo_mastermind.load(5)  # type: ignore[arg-type]
    results = evo_mastermind.load(played)
    with pytest.raises(AnalysisError, match="confidence must be a number, got str"):
        results.confidence_intervals(confidence="0.9")  # type: ignore[arg-type]
    with pytest.raises(AnalysisError, match="seed must be a whole number, got str"):
        results.confidence_intervals(seed="1")  # type: ignore[arg-type]
    assert len(results.confidence_intervals(seed=1, confidence=np.float64(0.9))) == 2


def test_reproduce_takes_one_table_named_alone_as_that_table() -> None:
    from evo_mastermind.studies.reproduce import paper_tables

    assert paper_tables("table3") == ["table3"]

"""The Python API: ``evo_mastermind.run`` and ``load``, and the results object they return."""

from pathlib import Path
from typing import Any

import pandas as pd
import pytest
import yaml
from matplotlib.figure import Figure

import evo_mastermind as em
from evo_mastermind.analysis import AnalysisError, load_games, write_report
from evo_mastermind.analysis.analysis import TABLES
from evo_mastermind.analysis.frames import table_csv
from evo_mastermind.api import RunOptionsError
from evo_mastermind.runner.config import ConfigError
from evo_mastermind.runner.storage import REPORT_OUTPUTS, ResultsDir


def small(**changes: Any) -> dict[str, Any]:
    """A config as a notebook writes it: two sizes, so every plot kind has something to show."""
    config: dict[str, Any] = {
        "name": "small",
        "game": [{"pegs": 3, "colors": 3}, {"pegs": 3, "colors": 4}],
        "secrets": "full",
        "runs": 2,
        "seed": 5,
        "players": [
            {"label": "Entropy", "player": "entropy"},
            {"label": "Random", "player": "random"},
            {"label": "EDA", "player": "eda", "population_size": 20},
        ],
    }
    return {**config, **changes}


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> em.Results:
    out = tmp_path_factory.mktemp("api") / "small"
    return em.run(small(), out=out, executor="serial", progress=False)


def test_run_from_a_dict_plays_every_game_and_keeps_the_config(played: em.Results) -> None:
    assert isinstance(played.games, pd.DataFrame)
    assert len(played.games) == 3 * 2 * (27 + 64)
    assert played.outcome is not None and played.outcome.played == len(played.games)
    assert played.name == "small" and played.experiment.seed == 5
    assert yaml.safe_load((played.path / "config.yaml").read_text()) == small()
    assert repr(played) == f"<Results 'small': 546 games of 3 players in {played.path}>"


def test_load_opens_the_same_results(played: em.Results) -> None:
    again = em.load(played.path)
    pd.testing.assert_frame_equal(again.games, played.games)
    assert again.experiment == played.experiment and again.outcome is None
    pd.testing.assert_frame_equal(again.games, load_games(played.path))  # the old function


def test_summary_tests_and_groups(played: em.Results) -> None:
    summary = played.summary()
    assert len(summary) == 6 and {"label", "mean", "max_guesses", "pegs"} <= set(summary.columns)
    tests = played.tests()
    assert len(tests) == 2 * 3 and {"label_a", "label_b", "p", "significant"} <= set(tests.columns)
    groups = played.groups()
    assert list(groups.columns) == [
        "pegs", "colors", "secrets", "section", "label", "rank", "group", "letters"
    ]  # fmt: skip
    for _, block in groups.groupby(["pegs", "colors"]):
        assert sorted(block["rank"]) == [1, 2, 3] and block["group"].min() == 1
        # Rows follow the summary's ranking; the best row opens the first group with "a".
        assert block.iloc[0]["letters"].startswith("a")


def test_report_is_the_written_one(played: em.Results) -> None:
    markdown = played.report()
    assert markdown.startswith("# small: (3,3), (3,4)")
    assert played.write_report() == markdown == write_report(played.path)
    assert (played.path / "report.md").read_text() == markdown
    assert played._repr_markdown_() == markdown


def test_players_that_share_their_secrets_are_paired_by_default(played: em.Results) -> None:
    report = played.report()
    assert "## Paired comparisons by secret" in report and "unit: secret mean" in report
    ranks, pairs = played.mean_ranks(), played.paired_tests()
    # Per block: every player's rank; mean ranks of three players sum to 1 + 2 + 3.
    assert ranks.groupby(["pegs", "colors"])["mean_rank"].sum().round(9).eq(6).all()
    assert len(pairs) == 3 * 2 and (pairs["p_adjusted"] >= pairs["p"]).all()
    assert set(pairs["n_secrets"]) == {27, 64} and set(pairs["dropped"]) == {0}
    with pytest.raises(AnalysisError, match=r"^small has no paired Bayesian signed-rank tests: "):
        played.bayesian_tests()


def test_no_published_table_means_no_comparison_and_says_why(played: em.Results) -> None:
    assert played.published is None
    with pytest.raises(AnalysisError, match=r"^small has no published table to compare with: its"):
        played.comparison()


@pytest.mark.parametrize("kind", ["distribution", "cumulative", "evaluations", "heatmap", "cd"])
def test_every_plot_kind(played: em.Results, kind: str, tmp_path: Path) -> None:
    figure = played.plot(kind, out=tmp_path / f"{kind}.pdf")
    assert isinstance(figure, Figure) and (tmp_path / f"{kind}.pdf").stat().st_size > 0
    with pytest.raises(AnalysisError, match="unknown plot kind"):
        played.plot("pie")


def test_a_study_by_name_compares_with_its_published_table(tmp_path: Path) -> None:
    results = em.run("paper/table2", out=tmp_path / "t2", runs=1, executor="serial", progress=False)
    comparison = results.comparison()
    assert len(comparison) == 5
    assert set(comparison["verdict"]) <= {
        "inside the published range",
        "outside: below the published range",
        "outside: above the published range",
    }
    assert results.published is not None and "Worst case" in set(results.published["label"])
    assert "Compared with the published table `published/" in results.report()
    # The paper's unpaired protocol: the same secrets, but no paired test in its report.
    assert results.experiment.paired == "none" and results.table("paired_tests") is None
    assert "Paired comparisons" not in results.report()
    assert not (results.path / "paired_tests.csv").exists()
    with pytest.raises(AnalysisError, match=r"^table2 has no paired signed-rank tests: its stat"):
        results.paired_tests()


def test_a_bad_dict_names_the_key_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"^config: runz: unknown key \(did you mean 'runs'\?\)"):
        em.run({**small(), "runz": 3}, out=tmp_path / "x")
    with pytest.raises(
        ConfigError, match=r"^config: players: entry 0 \('E'\): player 'eda': population_size: "
    ):
        em.run(small(players=[{"label": "E", "player": "eda", "population_size": 0}]))
    with pytest.raises(RunOptionsError, match=r"^config must be a file, .* not list$"):
        em.run(["not", "a", "mapping"])  # type: ignore[arg-type]
    assert not (tmp_path / "x").exists()


def test_the_callers_dict_is_left_as_it_was(tmp_path: Path) -> None:
    config = small(players=[{"label": "Random", "player": "random"}], game={"pegs": 2, "colors": 2})
    kept = yaml.safe_dump(config)
    results = em.run(config, out=tmp_path / "r", runs=3, executor="serial", progress=False)
    assert yaml.safe_dump(config) == kept and results.experiment.runs == 3


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"workers": 0}, "workers must be at least 1, got 0"),
        ({"resume": True, "force": True}, "resume and force contradict each other"),
        ({"scheduler": "tcp://x:1"}, "scheduler needs executor dask"),
        ({"runs": 0}, "runs must be at least 1"),
        ({"executor": "threads"}, "executor must be one of serial, process, dask"),
    ],
)
def test_bad_options_are_one_line(options: dict[str, Any], message: str, tmp_path: Path) -> None:
    with pytest.raises(RunOptionsError, match=message):
        em.run(small(), out=tmp_path / "never", **options)
    assert not (tmp_path / "never").exists()


def test_results_already_there_are_kept_unless_asked(played: em.Results) -> None:
    with pytest.raises(
        em.InvalidGameError,
        match=r"already holds results; use resume=True to finish that run or force=True to",
    ):
        em.run(small(), out=played.path, executor="serial", progress=False)
    with pytest.raises(em.InvalidGameError, match="already holds results; use --resume"):
        em.run(small(), out=played.path, executor="serial", progress=False, spelling=lambda o: o)
    resumed = em.run(small(), out=played.path, executor="serial", progress=False, resume=True)
    assert resumed.outcome is not None and resumed.outcome.played == 0


def test_load_of_a_folder_without_results_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(AnalysisError, match="no experiment record"):
        em.load(tmp_path)


def test_effect_sizes_and_confidence_intervals(played: em.Results) -> None:
    pytest.importorskip("evo_mastermind.analysis.effect_sizes")
    a12 = played.effect_sizes()
    assert {"label_a", "label_b", "a12", "magnitude"} <= set(a12.columns)
    assert a12["a12"].between(0, 1).all()
    pairs = {frozenset(pair) for pair in zip(a12["label_a"], a12["label_b"], strict=True)}
    assert pairs == {frozenset(("Entropy", "Random")), frozenset(("Entropy", "EDA")),
                     frozenset(("Random", "EDA"))}  # fmt: skip
    intervals = played.confidence_intervals()
    assert {"label", "mean", "low", "high"} <= set(intervals.columns)
    assert (
        (intervals["low"] <= intervals["mean"]) & (intervals["mean"] <= intervals["high"])
    ).all()
    means = played.games.groupby(["label", "pegs", "colors"])["n_guesses"].mean()
    assert sorted(intervals["mean"].round(9)) == sorted(means.round(9))
    # Seeded by the experiment's root seed: the same intervals every time.
    pd.testing.assert_frame_equal(intervals, played.confidence_intervals(seed=5))


def three_players(test_on: str) -> dict[str, Any]:
    """Three players on two sizes: every pair, block and table the report writes.

    On games the paired tests are the default's (Friedman and signed-rank); on runs, the
    Bayesian signed-rank tests.
    """
    paired = "auto" if test_on == "games" else "bayesian"
    return small(
        name=f"on-{test_on}",
        game=[{"pegs": 2, "colors": 4}, {"pegs": 3, "colors": 3}],
        runs=4,
        statistics={"test_on": test_on, "holm": test_on == "runs", "paired": paired},
        players=[
            {"label": "Random", "player": "random"},
            {"label": "EDA", "player": "eda", "population_size": 8},
            {"label": "Entropy", "player": "entropy"},
        ],
    )


TOURNAMENT = {
    "name": "tournament",
    "game": {"pegs": 4, "colors": 4},
    "secrets": [{"scsa": "insert_colors", "n": 2}, {"scsa": "two_color", "n": 2}],
    "runs": 1,
    "seed": 3,
    "guess_limit": 100,
    "report": "tournament",
    "players": [{"label": "fcol", "player": "fcol"}, {"label": "joint", "player": "joint"}],
}


def as_csv(table: pd.DataFrame | None) -> str:
    assert table is not None
    return table_csv(table)


@pytest.mark.parametrize("test_on", ["games", "runs"])
def test_every_table_of_the_api_is_the_file_the_report_wrote(test_on: str, tmp_path: Path) -> None:
    results = em.run(three_players(test_on), out=tmp_path / "r", executor="serial", progress=False)
    results.write_report()  # as `evo-mastermind run` does
    written = [(table.name, table.file) for table in TABLES if table.report == "paper"]
    assert [file for _, file in written if file] == [
        "summary.csv", "wilcoxon.csv", "a12.csv", "intervals.csv", "by_size.csv",
        "paired_tests.csv", "mean_ranks.csv", "bayesian_tests.csv",
    ]  # fmt: skip
    for name, file in written:
        if file is not None and results.table(name) is None:  # not asked for: not written
            assert not (results.path / file).exists(), file
        elif file is not None:  # row for row, in orientation, to the last digit
            assert as_csv(results.table(name)) == (results.path / file).read_text(), file
    paired = {"games": {"paired_tests.csv", "mean_ranks.csv"}, "runs": {"bayesian_tests.csv"}}
    assert {
        file for file in paired["games"] | paired["runs"] if (results.path / file).exists()
    } == (paired[test_on])
    again = em.load(results.path)  # a fresh object, as a notebook opens the results
    methods = {
        "summary.csv": again.summary(),
        "wilcoxon.csv": again.tests(),
        "a12.csv": again.effect_sizes(),
        "intervals.csv": again.confidence_intervals(),
    }
    if test_on == "games":
        methods |= {"paired_tests.csv": again.paired_tests(), "mean_ranks.csv": again.mean_ranks()}
    else:
        methods["bayesian_tests.csv"] = again.bayesian_tests()
    for file, frame in methods.items():
        assert table_csv(frame) == (results.path / file).read_text(), file
    tests, a12 = again.tests(), again.effect_sizes()
    assert list(zip(tests["label_a"], tests["label_b"], strict=True)) == list(
        zip(a12["label_a"], a12["label_b"], strict=True)
    )
    assert list(dict.fromkeys(tests["label_a"])) == ["Random", "EDA"]  # the config's order
    # What the tests compare, the A12 and the intervals compare: run means or games.
    per_block = {4} if test_on == "runs" else {4 * 16, 4 * 27}
    assert set(tests["n_a"]) == set(again.confidence_intervals()["n"]) == per_block
    assert again.report() == (results.path / "report.md").read_text()


def test_a_tournaments_tables_are_the_files_it_wrote(tmp_path: Path) -> None:
    results = em.run(TOURNAMENT, out=tmp_path / "t", executor="serial", progress=False)
    results.write_report()
    with pytest.raises(AnalysisError, match="a tournament is compared with no published table"):
        results.comparison()
    files = [(t.name, t.file) for t in TABLES if t.report == "tournament" and t.file]
    assert [file for _, file in files] == ["tournament.csv", "score_tests.csv"]
    for name, file in files:
        assert as_csv(results.table(name)) == (results.path / file).read_text(), file
    assert results.report() == (results.path / "report.md").read_text()


def test_every_file_the_report_writes_is_named_by_the_results_contract(tmp_path: Path) -> None:
    assert {table.file for table in TABLES if table.file} | {"report.md"} <= set(REPORT_OUTPUTS)
    assert {"a12.csv", "intervals.csv"} <= set(REPORT_OUTPUTS)


def plant_own_files(folder: Path) -> None:
    (folder / "plots").mkdir(exist_ok=True)
    (folder / "plots" / "mine.png").write_bytes(b"mine")
    (folder / "notes.txt").write_text("keep")


def left_by_the_report(folder: Path) -> set[str]:
    return {name for name in REPORT_OUTPUTS if (folder / name).exists()}


def test_force_leaves_no_file_of_the_previous_report(tmp_path: Path) -> None:
    out = tmp_path / "r"
    em.run(three_players("runs"), out=out, executor="serial", progress=False).write_report()
    assert {"a12.csv", "intervals.csv", "by_size.csv"} <= left_by_the_report(out)
    plant_own_files(out)
    em.run(TOURNAMENT, out=out, executor="serial", progress=False, force=True).write_report()
    assert left_by_the_report(out) == {"tournament.csv", "score_tests.csv", "report.md"}
    assert (out / "plots" / "mine.png").read_bytes() == b"mine"
    assert (out / "notes.txt").read_text() == "keep"


def test_force_stopped_by_ctrl_c_leaves_no_file_of_the_previous_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "r"
    em.run(three_players("games"), out=out, executor="serial", progress=False).write_report()
    assert {"a12.csv", "intervals.csv", "summary.csv"} <= left_by_the_report(out)
    plant_own_files(out)

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(ResultsDir, "write_shard", interrupted)
    with pytest.raises(KeyboardInterrupt):
        em.run(TOURNAMENT, out=out, executor="serial", progress=False, force=True).write_report()
    assert left_by_the_report(out) == set() and not ResultsDir(out).shards()
    assert (out / "plots" / "mine.png").read_bytes() == b"mine"
    assert (out / "notes.txt").read_text() == "keep"


def test_the_runners_advice_is_in_python_words() -> None:
    from evo_mastermind.run_options import in_python_words

    damaged = "rerun the config with --resume --out /r/t to move it to /r/t/set-aside"
    assert in_python_words(damaged) == (
        "rerun the config with resume=True, out='/r/t' to move it to /r/t/set-aside"
    )
    assert in_python_words("choose an empty or new --out directory (--force never replaces)") == (
        "choose an empty or new out directory (force=True never replaces)"
    )
    assert in_python_words("or pass --allow-large; or another --out") == (
        "or pass allow_large=True; or another out directory"
    )

"""The Python API: ``evo_mastermind.run`` and ``load``, and the results object they return."""

from pathlib import Path
from typing import Any

import pandas as pd
import pytest
import yaml
from matplotlib.figure import Figure

import evo_mastermind as em
from evo_mastermind.analysis import AnalysisError, load_games, write_report
from evo_mastermind.api import RunOptionsError
from evo_mastermind.runner.config import ConfigError


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
    assert len(summary) == 6 and {"player", "mean", "max_guesses", "pegs"} <= set(summary.columns)
    tests = played.tests()
    assert len(tests) == 2 * 3 and {"a", "b", "p", "significant"} <= set(tests.columns)
    groups = played.groups()
    assert list(groups.columns) == [
        "pegs", "colors", "secrets", "section", "player", "rank", "group", "letters"
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


def test_no_published_table_means_no_comparison(played: em.Results) -> None:
    assert played.published is None and played.comparison() is None


@pytest.mark.parametrize("kind", ["distribution", "cumulative", "evaluations", "heatmap"])
def test_every_plot_kind(played: em.Results, kind: str, tmp_path: Path) -> None:
    figure = played.plot(kind, out=tmp_path / f"{kind}.pdf")
    assert isinstance(figure, Figure) and (tmp_path / f"{kind}.pdf").stat().st_size > 0
    with pytest.raises(AnalysisError, match="unknown plot kind"):
        played.plot("pie")


def test_a_study_by_name_compares_with_its_published_table(tmp_path: Path) -> None:
    results = em.run("paper/table2", out=tmp_path / "t2", runs=1, executor="serial", progress=False)
    comparison = results.comparison()
    assert comparison is not None and len(comparison) == 5
    assert set(comparison["verdict"]) <= {
        "inside the published range",
        "outside: below the published range",
        "outside: above the published range",
    }
    assert results.published is not None and "Worst case" in set(results.published["label"])
    assert "Compared with the published table `published/" in results.report()


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
    with pytest.raises(em.InvalidGameError, match="already holds results; use --resume"):
        em.run(small(), out=played.path, executor="serial", progress=False)
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

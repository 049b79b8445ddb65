import json
from pathlib import Path

import pandas as pd
import pytest

from evo_mastermind.analysis.results import (
    AnalysisError,
    blocks,
    label_order,
    load_experiment,
    load_games,
    require_columns,
    size_text,
)
from evo_mastermind.paths import find_project_root
from tests.analysis.synthetic import STRONG, WEAK, experiment_record, make_games, write_results


def test_load_games_reads_every_shard(tmp_path: Path) -> None:
    games = make_games({"A": STRONG, "B": WEAK}, runs=2, games_per_run=5)
    write_results(tmp_path, games, experiment_record(games))
    loaded = load_games(tmp_path)
    assert len(loaded) == len(games) == 20
    assert sorted(loaded["label"].unique()) == ["A", "B"]

    def rows(table: pd.DataFrame) -> list[tuple[str, int, str, tuple[str, ...]]]:
        keys = zip(table["label"], table["run"], table["secret"], table["moves"], strict=True)
        return sorted((str(a), int(b), str(c), tuple(d)) for a, b, c, d in keys)

    assert rows(loaded) == rows(games)
    assert load_experiment(tmp_path).name == "synthetic"


def test_missing_games_or_columns_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(AnalysisError, match="no games found"):
        load_games(tmp_path)
    games = make_games({"A": STRONG}, runs=1, games_per_run=4).drop(columns=["moves"])
    (tmp_path / "games").mkdir()
    games.to_parquet(tmp_path / "games" / "part-00000.parquet")
    with pytest.raises(AnalysisError, match="no column 'moves'"):
        load_games(tmp_path)
    with pytest.raises(AnalysisError, match="has no rows"):
        require_columns(games.iloc[:0], ["label"])


def test_experiment_record_errors(tmp_path: Path) -> None:
    with pytest.raises(AnalysisError, match="does not exist"):
        load_experiment(tmp_path)
    (tmp_path / "experiment.json").write_text("{not json")
    with pytest.raises(AnalysisError, match="not valid JSON"):
        load_experiment(tmp_path)
    (tmp_path / "experiment.json").write_text(json.dumps([1, 2]))
    with pytest.raises(AnalysisError, match="'name'"):
        load_experiment(tmp_path)


def test_labels_follow_the_config_then_first_seen() -> None:
    games = make_games({"B": STRONG, "C": STRONG, "A": WEAK}, runs=1, games_per_run=2)
    assert label_order(games) == ["B", "C", "A"]
    experiment = {"players": [{"label": "A"}, {"label": "Gone"}, {"label": "B"}]}
    assert label_order(games, experiment) == ["A", "B", "C"]


def test_blocks_and_sizes() -> None:
    small = make_games({"A": STRONG}, runs=1, games_per_run=3, pegs=4, colors=6)
    large = make_games({"A": WEAK}, runs=1, games_per_run=3, pegs=5, colors=8, secrets="sample")
    import pandas as pd

    both = pd.concat([large, small])
    assert [key for key, _ in blocks(both)] == [(4, 6, "full"), (5, 8, "sample")]
    assert size_text(small) == "(4,6)"
    assert size_text(both) == "(4,6), (5,8)"


def test_project_root_is_found_upward_or_falls_back_to_cwd(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "pyproject.toml").touch()
    deep = tmp_path / "results" / "table2"
    deep.mkdir(parents=True)
    assert find_project_root(deep) == tmp_path.resolve()
    bare = tmp_path.parent / f"{tmp_path.name}_bare"
    bare.mkdir()
    monkeypatch.chdir(tmp_path)
    assert find_project_root(bare) == Path.cwd()

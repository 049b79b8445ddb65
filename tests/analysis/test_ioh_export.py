import json
import sys
from pathlib import Path

import pandas as pd
import pytest

from evo_mastermind.analysis.ioh_export import export_ioh, problem_name
from evo_mastermind.analysis.results import AnalysisError
from evo_mastermind.cli import main
from evo_mastermind.codes import CodeSpace, InvalidGameError
from tests.analysis.synthetic import STRONG, WEAK, experiment_record, make_games, write_results

iohinspector = pytest.importorskip("iohinspector")


def blacks(guess: str, secret: str) -> int:
    return sum(g == s for g, s in zip(guess, secret, strict=True))


def played_games() -> pd.DataFrame:
    small = make_games(
        {"EDA + f": WEAK, 'Entropy "paper"': STRONG},
        runs=2,
        games_per_run=15,
        evaluations={"EDA + f": 900.0},
    )
    large = make_games({"EDA + f": STRONG}, runs=1, games_per_run=10, pegs=5, colors=8, seed=1)
    games = pd.concat([small, large], ignore_index=True)
    # One game stopped by a limit: its last guess is not the secret.
    moves = list(games["moves"])
    moves[-1] = [*moves[-1][:-1], "HHHHH"]
    games["moves"] = moves
    last = games.index[-1]
    games.at[last, "secret"] = "AAAAB"
    games.at[last, "solved"] = False
    return games


def test_the_export_reads_back_with_iohinspector_game_by_game(tmp_path: Path) -> None:
    games = played_games()
    out = tmp_path / "ioh"
    exported = export_ioh(games, out, experiment_record(games))
    assert (exported.algorithms, exported.problems, exported.runs) == (2, 2, len(games))
    assert exported.evaluations == int(games["n_guesses"].sum())

    manager = iohinspector.DataManager()
    manager.add_folder(str(out))
    data = manager.load(monotonic=False, include_meta_data=True)
    runs = data.unique("data_id").to_pandas()
    assert len(runs) == len(games)
    assert sorted(set(runs["algorithm_name"])) == ["EDA + f", "Entropy 'paper'"]
    assert set(runs["function_name"]) == {problem_name(4, 6), problem_name(5, 8)}
    per_run = data.to_pandas().groupby("data_id", sort=True)
    letters = "ABCDEFGH"
    # Runs follow each label's games ordered by secret, then run.
    for key, expected in games.groupby(["label", "pegs"], sort=False):
        label, pegs = str(key[0]), int(str(key[1]))
        name = label.replace('"', "'")
        chosen = runs[(runs["algorithm_name"] == name) & (runs["dimension"] == pegs)]
        ordered = expected.sort_values(["secret", "run"], kind="stable")
        assert len(chosen) == len(ordered)
        data_ids = sorted(chosen["data_id"])
        for data_id, game in zip(data_ids, ordered.to_dict("records"), strict=True):
            logged = per_run.get_group(data_id).sort_values("evaluations")
            positions = logged[[f"x{i}" for i in range(pegs)]].to_numpy(dtype=int)
            guesses = ["".join(letters[v] for v in row) for row in positions]
            assert guesses == list(game["moves"])
            values = [blacks(guess, game["secret"]) for guess in game["moves"]]
            assert logged["raw_y"].tolist() == values
            assert logged["evaluations"].tolist() == list(range(1, len(values) + 1))
            final = float(runs.loc[runs["data_id"] == data_id, "best_y"].iloc[0])
            assert final == max(values)
            assert (final == pegs) == bool(game["solved"])


def test_runs_carry_the_run_secret_and_the_games_fitness_evaluations(tmp_path: Path) -> None:
    games = played_games()
    export_ioh(games, tmp_path / "ioh")
    eda = json.loads(next((tmp_path / "ioh" / "EDA_f").glob("*Mastermind_4x6.json")).read_text())
    assert eda["maximization"] is True
    assert eda["algorithm"] == {"name": "EDA + f", "info": "eda"}
    assert set(eda["run_attributes"]) == {"run", "secret_index", "solved", "fitness_evaluations"}
    runs = eda["scenarios"][0]["runs"]
    expected = games[(games["label"] == "EDA + f") & (games["pegs"] == 4)]
    expected = expected.sort_values(["secret", "run"], kind="stable")
    space = CodeSpace(4, 6)
    for run, game in zip(runs, expected.to_dict("records"), strict=True):
        assert run["run"] == game["run"]
        assert run["secret_index"] == space.index(space.parse(game["secret"]))
        assert run["fitness_evaluations"] == game["evaluations"]
    exhaustive = next((tmp_path / "ioh" / "Entropy_paper").glob("*.json")).read_text()
    assert "fitness_evaluations" not in exhaustive  # no second budget where none is counted


def test_the_export_refuses_a_used_directory_and_names_a_missing_ioh(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = make_games({"A": STRONG}, runs=1, games_per_run=3)
    (tmp_path / "used").mkdir()
    (tmp_path / "used" / "file").touch()
    with pytest.raises(AnalysisError, match="not an empty directory"):
        export_ioh(games, tmp_path / "used")
    monkeypatch.setitem(sys.modules, "ioh", None)
    with pytest.raises(AnalysisError, match="needs the ioh package: pip install ioh"):
        export_ioh(games, tmp_path / "new")


def test_an_export_that_fails_leaves_nothing_behind(tmp_path: Path) -> None:
    games = make_games({"A": STRONG, "B": WEAK}, runs=1, games_per_run=10)
    moves = list(games["moves"])
    moves[-1] = ["ZZZZ"]  # not a code of (4,6): the last game cannot be written
    games["moves"] = moves
    with pytest.raises(InvalidGameError, match="ZZZZ"):
        export_ioh(games, tmp_path / "ioh")
    assert list(tmp_path.iterdir()) == []


def test_export_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games = make_games({"A": STRONG, "B": WEAK}, runs=2, games_per_run=5)
    results = write_results(tmp_path / "results", games, experiment_record(games))
    out = tmp_path / "ioh"
    assert main(["export", str(results), "--format", "ioh", "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert f"20 games ({int(games['n_guesses'].sum())} guesses) of 2 players on 1 game size" in said
    assert sorted(path.name for path in out.iterdir()) == ["A", "B"]
    assert main(["export", str(results), "--format", "ioh", "--out", str(out)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "not an empty directory" in error

"""The move log (``log: moves``): the evolutionary players' per-move records beside the games."""

from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import yaml

from evo_mastermind.runner import TIMING_COLUMNS, ResultsDir, load_config, run_experiment
from evo_mastermind.runner.executors import make_executor
from evo_mastermind.runner.storage import GAMES_SCHEMA, MOVES_SCHEMA
from tests.runner.conftest import ConfigWriter

EVOLUTIONARY = [
    {"label": "EDA", "player": "eda", "population_size": 60},
    {"label": "GA", "player": "ga", "population_size": 40},
    {"label": "Archive", "player": "archive", "preset": "best_4x6"},
    {"label": "Archive DEAP", "player": "archive", "search": "deap", "mu": 20},
    {"label": "Entropy", "player": "entropy"},
]


def play(config: Path, out: Path, executor: str = "serial") -> ResultsDir:
    with make_executor(executor, 2 if executor == "process" else None) as pool:  # type: ignore[arg-type]
        run_experiment(load_config(config), config, out, pool, progress=False)
    return ResultsDir(out)


def evolutionary_config(write_config: ConfigWriter, log: str | None) -> Path:
    return write_config(
        f"log_{log}.yaml",
        game={"pegs": 4, "colors": 6},
        secrets={"sample": 12},
        runs=2,
        batch_games=5,
        players=EVOLUTIONARY,
        log=log,
    )


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[ResultsDir, ResultsDir]:
    """The same experiment played without the log and with it."""
    folder = tmp_path_factory.mktemp("move_log")

    def config(log: str | None) -> Path:
        body: dict[str, object] = {
            "name": "move_log",
            "game": {"pegs": 4, "colors": 6},
            "secrets": {"sample": 10},
            "runs": 1,
            "seed": 11,
            "batch_games": 5,
            "players": EVOLUTIONARY,
        }
        if log is not None:
            body["log"] = log
        path = folder / f"{log}.yaml"
        path.write_text(yaml.safe_dump(body, sort_keys=False))
        return path

    return play(config(None), folder / "off"), play(config("moves"), folder / "on")


def test_the_log_changes_no_game(both: tuple[ResultsDir, ResultsDir]) -> None:
    off, on = both
    assert not off.moves.exists() and off.load_moves().empty
    pd.testing.assert_frame_equal(
        off.load_games().drop(columns=TIMING_COLUMNS), on.load_games().drop(columns=TIMING_COLUMNS)
    )
    # A log is named as the games shard it belongs to (a shard of Entropy's games has none).
    assert {p.name for p in on.moves.glob("*.parquet")} < {p.name for p in on.shards()}


def test_every_move_of_every_evolutionary_game_is_logged(
    both: tuple[ResultsDir, ResultsDir],
) -> None:
    _, on = both
    games, moves = on.load_games(), on.load_moves()
    assert set(moves["label"]) == {"EDA", "GA", "Archive", "Archive DEAP"}  # not Entropy
    keys = ["label", "run", "secret", "occurrence"]
    per_game = moves.groupby(keys).agg(n=("move", "size"), last=("move", "max"))
    joined = games.set_index(keys).join(per_game, how="inner")
    assert len(joined) == (games["label"] != "Entropy").sum()
    assert (joined["n"] == joined["n_guesses"]).all() and (joined["last"] == joined["n"]).all()
    first = moves[moves["move"] == 1]
    assert (first[["generations", "evaluations", "restarts"]] == 0).all().all()
    later = moves[moves["move"] > 1]
    assert (later["generations"] >= 1).all() and (later["evaluations"] > 0).all()
    found = later[~later["capped"]]
    assert (found["best_distance"] == 0).all() and (found["consistent"] >= 1).all()
    archive = later[later["label"] == "Archive"]
    assert archive["consistent"].max() > 1  # the archive holds a set, not one code


def test_moves_add_up_to_the_games_evaluations(both: tuple[ResultsDir, ResultsDir]) -> None:
    _, on = both
    keys = ["label", "run", "secret", "occurrence"]
    totals = on.load_moves().groupby(keys)["evaluations"].sum().rename("logged")
    games = on.load_games().set_index(keys).join(totals, how="inner")
    assert (games["logged"] == games["evaluations"]).all()


def test_the_log_is_the_same_on_a_process_pool(
    both: tuple[ResultsDir, ResultsDir], tmp_path: Path
) -> None:
    _, on = both
    config = on.path.parent / "moves.yaml"
    pooled = play(config, tmp_path / "pooled", "process")
    order = ["label", "run", "secret", "occurrence", "move"]
    expected = on.load_moves().sort_values(order).reset_index(drop=True)
    pd.testing.assert_frame_equal(
        pooled.load_moves().sort_values(order).reset_index(drop=True), expected
    )


def test_force_removes_the_log(write_config: ConfigWriter, tmp_path: Path) -> None:
    logged = evolutionary_config(write_config, "moves")
    out = tmp_path / "out"
    play(logged, out)
    assert ResultsDir(out).moves.is_dir()
    config = load_config(evolutionary_config(write_config, None))
    with make_executor("serial") as pool:
        run_experiment(config, logged, out, pool, force=True, progress=False)
    assert not ResultsDir(out).moves.exists()


def test_an_unknown_log_is_refused(write_config: ConfigWriter) -> None:
    with pytest.raises(Exception, match="log"):
        load_config(write_config(log="generations"))


def test_the_api_reads_the_log_and_plots_it(
    both: tuple[ResultsDir, ResultsDir], tmp_path: Path
) -> None:
    import evo_mastermind as em

    off, on = both
    results = em.load(on.path)
    moves = results.moves()
    assert list(moves.columns) == MOVES_SCHEMA.names and len(moves) > len(results.games)
    table = results.convergence()
    assert set(table["label"]) == {"EDA", "GA", "Archive", "Archive DEAP"}
    first = table[table["move"] == 1]
    assert (first["evaluations"] == 0).all() and (first["games"] == 10).all()
    figure = results.plot("convergence", out=tmp_path / "convergence.png")
    assert (tmp_path / "convergence.png").stat().st_size > 0
    assert len(figure.axes) == 2
    assert em.load(off.path).moves().empty


def test_a_stale_log_never_passes_for_other_games(tmp_path: Path) -> None:
    results = ResultsDir(tmp_path / "out")
    games = pa.Table.from_pylist([], schema=GAMES_SCHEMA)
    stale = pa.Table.from_pylist([], schema=MOVES_SCHEMA)
    results.moves.mkdir(parents=True)
    pq.write_table(stale, results.moves / "part-00000.parquet")  # left by a killed run
    written = results.write_shard(games)
    assert written.name == "part-00000.parquet" and not (results.moves / written.name).exists()
